// One table per enum gives both directions (core/enum_names.h); every enum written that way reads back.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "bench/bench_types.h"
#include "collectives/collective_types.h"
#include "collectives/launcher_env.h"
#include "core/enum_names.h"
#include "core/severity.h"
#include "gates/gate_types.h"
#include "gpu/backend.h"
#include "platform/shell_syntax.h"
#include "rules/finding.h"
#include "snapshot/snapshot.h"
#include "snapshot/topology.h"

namespace gpudoctor {
namespace {

enum class Colour { kRed, kGreen, kBlue };
constexpr std::array kColourNames = {
    EnumName<Colour>{Colour::kRed, "red"},
    EnumName<Colour>{Colour::kGreen, "green"},
};

TEST(EnumNames, NamesAndValuesBothWays) {
  EXPECT_STREQ(NameIn(kColourNames, Colour::kGreen), "green");
  EXPECT_EQ(ValueIn(kColourNames, "red"), Colour::kRed);
  EXPECT_EQ(ValueIn(kColourNames, "Red"), std::nullopt);  // names are exact
  EXPECT_EQ(ValueIn(kColourNames, ""), std::nullopt);
  EXPECT_STREQ(NameIn(kColourNames, Colour::kBlue), "red");  // a value the table lacks: its first name
  static_assert(ValueIn(kColourNames, "green") == Colour::kGreen);
}

// Each enum's names are distinct and read back as the value they were written from.
template <typename E>
void ExpectRoundTrip(std::initializer_list<E> values, std::optional<E> (*from)(std::string_view)) {
  std::set<std::string> seen;
  for (E v : values) {
    const std::string name = ToString(v);
    EXPECT_TRUE(seen.insert(name).second) << "two values named " << name;
    EXPECT_EQ(from(name), v) << name;
  }
  EXPECT_EQ(from("no-such-name"), std::nullopt);
}

TEST(EnumNames, EveryTabledEnumReadsBack) {
  ExpectRoundTrip({VerifyLevel::kQuick, VerifyLevel::kStandard, VerifyLevel::kLong}, VerifyLevelFromString);
  ExpectRoundTrip({InjectedFault::kNone, InjectedFault::kKernelHang, InjectedFault::kWrongResult,
                   InjectedFault::kOversizeAlloc, InjectedFault::kWorkerCrash},
                  InjectedFaultFromString);
  ExpectRoundTrip({GateStatus::kPass, GateStatus::kFail, GateStatus::kSkip}, GateStatusFromString);
  ExpectRoundTrip({BenchLevel::kQuick, BenchLevel::kStandard}, BenchLevelFromString);
  ExpectRoundTrip({BenchVerdict::kOk, BenchVerdict::kLow, BenchVerdict::kFailed, BenchVerdict::kSkipped},
                  BenchVerdictFromString);
  ExpectRoundTrip({BenchRun::kMeasured, BenchRun::kSkipped, BenchRun::kError}, BenchRunFromString);
  ExpectRoundTrip({BackendKind::kCuda, BackendKind::kHip, BackendKind::kFake}, BackendKindFromString);
  ExpectRoundTrip({Severity::kOk, Severity::kInfo, Severity::kWarning, Severity::kError}, SeverityFromString);
  ExpectRoundTrip({Layer::kHardware, Layer::kRuntime, Layer::kFramework, Layer::kEnvironment},
                  LayerFromString);
  ExpectRoundTrip({Launcher::kNone, Launcher::kMpirun, Launcher::kSrun, Launcher::kMpich},
                  LauncherFromString);
  ExpectRoundTrip({CollectiveOp::kAllReduce, CollectiveOp::kAllGather, CollectiveOp::kReduceScatter,
                   CollectiveOp::kBroadcast, CollectiveOp::kAllToAll},
                  CollectiveOpFromString);
  ExpectRoundTrip({Shell::kBash, Shell::kPowerShell, Shell::kCmd}, ShellFromString);
  EXPECT_STREQ(ToString(InjectedFault::kKernelHang), "kernel-hang");  // the words of the flags and JSON
  EXPECT_STREQ(ToString(GateStatus::kSkip), "skip");
  EXPECT_STREQ(ToString(Layer::kRuntime), "runtime");
}

// A second row keeps an older or shorter spelling readable; the first row is the one written.
TEST(EnumNames, AliasesReadAsTheirValue) {
  EXPECT_EQ(CollectiveOpFromString("alltoall"), CollectiveOp::kAllToAll);
  EXPECT_EQ(CollectiveOpFromString("all-gather"), CollectiveOp::kAllGather);  // '-' read as '_'
  EXPECT_STREQ(ToString(CollectiveOp::kAllToAll), "all_to_all");
  EXPECT_EQ(ShellFromString("zsh"), Shell::kBash);
  EXPECT_EQ(ShellFromString("sh"), Shell::kBash);
  EXPECT_EQ(ShellFromString("pwsh"), Shell::kPowerShell);
  EXPECT_STREQ(ToString(Shell::kPowerShell), "powershell");
  EXPECT_EQ(ShellFromString("fish"), std::nullopt);
}

// The snapshot's enums read an unknown word as their kUnknown value rather than as no value.
TEST(EnumNames, SnapshotEnumsReadBack) {
  std::set<std::string> vendors;
  for (GpuVendor v :
       {GpuVendor::kUnknown, GpuVendor::kAmd, GpuVendor::kNvidia, GpuVendor::kIntel, GpuVendor::kOther}) {
    EXPECT_TRUE(vendors.insert(ToString(v)).second) << ToString(v);
    EXPECT_EQ(GpuVendorFromString(ToString(v)), v) << ToString(v);
  }
  EXPECT_EQ(GpuVendorFromString("AMD"), GpuVendor::kUnknown);  // the label, not the name
  std::set<std::string> modules;
  for (NvidiaKernelModule m :
       {NvidiaKernelModule::kUnknown, NvidiaKernelModule::kOpen, NvidiaKernelModule::kProprietary}) {
    EXPECT_TRUE(modules.insert(ToString(m)).second) << ToString(m);
    EXPECT_EQ(NvidiaKernelModuleFromString(ToString(m)), m) << ToString(m);
  }
  EXPECT_EQ(NvidiaKernelModuleFromString("closed"), NvidiaKernelModule::kUnknown);
  EXPECT_STREQ(ToString(GpuVendor::kNvidia), "nvidia");  // the words snapshot JSON holds
  EXPECT_STREQ(ToString(NvidiaKernelModule::kOpen), "open");
}

TEST(EnumNames, LinkKindsReadBackButBareNv) {
  std::set<std::string> seen;
  for (LinkKind k : {LinkKind::kSelf, LinkKind::kXgmi, LinkKind::kPix, LinkKind::kPxb, LinkKind::kPhb,
                     LinkKind::kNode, LinkKind::kSys, LinkKind::kUnknown}) {
    EXPECT_TRUE(seen.insert(ToString(k)).second) << ToString(k);
    EXPECT_EQ(LinkKindFromString(ToString(k)), k) << ToString(k);
  }
  EXPECT_STREQ(ToString(LinkKind::kNvLink), "NV");
  EXPECT_EQ(LinkKindFromString("NV"), std::nullopt);  // an NVLink cell carries its count (NV4)
  EXPECT_EQ(LinkKindFromString("pix"), std::nullopt);
}

}  // namespace
}  // namespace gpudoctor
