// The gate table and the names of the verify enums (see gate_types.h).
#include "gates/gate_types.h"

#include "core/enum_names.h"

#include <cmath>

namespace gpudoctor {

constexpr std::array kVerifyLevelNames = {
    EnumName<VerifyLevel>{VerifyLevel::kQuick, "quick"},
    EnumName<VerifyLevel>{VerifyLevel::kStandard, "standard"},
    EnumName<VerifyLevel>{VerifyLevel::kLong, "long"},
};

const char* ToString(VerifyLevel level) {
  return NameIn(kVerifyLevelNames, level);
}

std::optional<VerifyLevel> VerifyLevelFromString(std::string_view s) {
  return ValueIn(kVerifyLevelNames, s);
}

constexpr std::array kInjectedFaultNames = {
    EnumName<InjectedFault>{InjectedFault::kNone, "none"},
    EnumName<InjectedFault>{InjectedFault::kKernelHang, "kernel-hang"},
    EnumName<InjectedFault>{InjectedFault::kWrongResult, "wrong-result"},
    EnumName<InjectedFault>{InjectedFault::kOversizeAlloc, "oversize-alloc"},
    EnumName<InjectedFault>{InjectedFault::kWorkerCrash, "worker-crash"},
};

const char* ToString(InjectedFault fault) {
  return NameIn(kInjectedFaultNames, fault);
}

std::optional<InjectedFault> InjectedFaultFromString(std::string_view s) {
  return ValueIn(kInjectedFaultNames, s);
}

const std::vector<GateSpec>& AllGates() {
  using G = GateId;
  static const std::vector<GateSpec> kGates = {
      {G::kRuntime, "runtime", "GPU runtime loads", {}},
      {G::kDevices, "devices", "devices enumerate, match the PCI bus", {G::kRuntime}},
      {G::kContext, "context", "context on the device", {G::kDevices}},
      {G::kAlloc, "alloc", "allocate most of the free memory", {G::kContext}},
      {G::kCopy, "copy", "host<->device copies, data checked", {G::kContext}},
      {G::kKernel, "kernel", "kernel compiles, runs, computes right", {G::kCopy}},
      {G::kGemmFp32, "gemm_fp32", "GEMM fp32 vs CPU reference", {G::kCopy}},
      {G::kGemmTf32, "gemm_tf32", "GEMM fp32 with TF32 vs CPU reference", {G::kCopy}},
      {G::kGemmFp16, "gemm_fp16", "GEMM fp16 vs CPU reference", {G::kCopy}},
      {G::kGemmBf16, "gemm_bf16", "GEMM bf16 vs CPU reference", {G::kCopy}},
      {G::kMemtest, "memtest", "memory test over a share of VRAM", {G::kAlloc, G::kKernel}},
      {G::kSustained, "sustained", "sustained load: clocks, heat, power, errors", {G::kGemmBf16}},
  };
  return kGates;
}

const GateSpec& SpecOf(GateId id) {
  for (const auto& g : AllGates())
    if (g.id == id) return g;
  return AllGates().front();
}

std::optional<GateId> GateIdFromName(std::string_view name) {
  for (const auto& g : AllGates())
    if (name == g.name) return g.id;
  return std::nullopt;
}

constexpr std::array kGateStatusNames = {
    EnumName<GateStatus>{GateStatus::kFail, "fail"},
    EnumName<GateStatus>{GateStatus::kPass, "pass"},
    EnumName<GateStatus>{GateStatus::kSkip, "skip"},
};

const char* ToString(GateStatus status) {
  return NameIn(kGateStatusNames, status);
}

std::optional<GateStatus> GateStatusFromString(std::string_view s) {
  return ValueIn(kGateStatusNames, s);
}

double DefaultMemtestFraction(VerifyLevel level) {
  switch (level) {
    case VerifyLevel::kQuick:
      return 0.10;
    case VerifyLevel::kStandard:
      return 0.50;
    case VerifyLevel::kLong:
      return 0.90;
  }
  return 0.10;
}

double DefaultSustainSeconds(VerifyLevel level) {
  switch (level) {
    case VerifyLevel::kQuick:
      return 1;  // a smoke test of the load path; the quick level's whole budget is 10 s
    case VerifyLevel::kStandard:
      return 20;
    case VerifyLevel::kLong:
      return 180;
  }
  return 2;
}

double EffectiveMemtestFraction(const GateOptions& o) {
  return o.memtest_fraction > 0 ? o.memtest_fraction : DefaultMemtestFraction(o.level);
}

double EffectiveSustainSeconds(const GateOptions& o) {
  return o.sustain_seconds > 0 ? o.sustain_seconds : DefaultSustainSeconds(o.level);
}

std::chrono::seconds GateTimeout(GateId id, const GateOptions& o) {
  // Generous for a healthy GPU (the first cuInit on a large machine can take tens of seconds), short enough
  // that a hang is reported within a minute or two.
  int scale = o.level == VerifyLevel::kLong ? 4 : 1;
  switch (id) {
    case GateId::kRuntime:
    case GateId::kDevices:
    case GateId::kContext:
      return std::chrono::seconds(60);
    case GateId::kAlloc:
    case GateId::kCopy:
      return std::chrono::seconds(60 * scale);
    case GateId::kKernel:
      return std::chrono::seconds(30);
    case GateId::kGemmFp32:
    case GateId::kGemmTf32:
    case GateId::kGemmFp16:
    case GateId::kGemmBf16:
      return std::chrono::seconds(90 * scale);
    case GateId::kMemtest:
      return std::chrono::seconds(120 * scale);
    case GateId::kSustained:
      return std::chrono::seconds(static_cast<long>(std::ceil(EffectiveSustainSeconds(o))) + 90);
  }
  return std::chrono::seconds(60);
}

}  // namespace gpudoctor
