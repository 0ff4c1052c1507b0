// One table per enum gives both directions (core/enum_names.h); every enum written that way reads back.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "bench/bench_types.h"
#include "core/enum_names.h"
#include "core/severity.h"
#include "gates/gate_types.h"
#include "gpu/backend.h"
#include "rules/finding.h"

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
  EXPECT_STREQ(ToString(InjectedFault::kKernelHang), "kernel-hang");  // the words of the flags and JSON
  EXPECT_STREQ(ToString(GateStatus::kSkip), "skip");
  EXPECT_STREQ(ToString(Layer::kRuntime), "runtime");
}

}  // namespace
}  // namespace gpudoctor
