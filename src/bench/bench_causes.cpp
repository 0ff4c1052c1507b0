// The cause findings of a bench run (see bench_causes.h).
#include "bench/bench_causes.h"

#include <algorithm>
#include <cstdio>
#include <set>

#include "core/strings.h"

namespace gpudoctor {
namespace {

std::string CauseFigure(double v) {
  char b[32];
  std::snprintf(b, sizeof b, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
  return b;
}

// "memory.triad: 2100 GB/s, 44% of 4800 GB/s".
std::string Standing(const BenchResult& r) {
  std::string out =
      r.spec.id + ": " + (r.best ? CauseFigure(*r.best) + " " + r.spec.unit : std::string("n/a"));
  if (r.percent_of_peak && r.peak)
    out += ", " + CauseFigure(*r.percent_of_peak) + "% of " + CauseFigure(*r.peak) + " " + r.spec.unit;
  return out;
}

bool IsLow(const BenchResult& r) {
  return r.verdict == BenchVerdict::kLow;
}

bool AnyLow(const std::vector<BenchResult>& results, const char* prefix) {
  return std::any_of(results.begin(), results.end(),
                     [&](const BenchResult& r) { return IsLow(r) && StartsWith(r.spec.id, prefix); });
}

std::string Watts(double watts) {
  return CauseFigure(watts) + " W";
}

std::string Celsius(double c) {
  char b[32];
  std::snprintf(b, sizeof b, "%.0f C", c);
  return b;
}

// The findings that say the run itself went wrong: wrong results, benchmarks that did not complete.
void AddRunFailures(const std::vector<BenchResult>& results, std::vector<BenchFinding>& out) {
  BenchFinding wrong{"bench.wrong_results", Severity::kError, "", {}, ""};
  BenchFinding incomplete{"bench.not_completed", Severity::kError, "", {}, ""};
  for (const auto& r : results) {
    if (r.run == BenchRun::kMeasured && r.check == BenchCheck::kFailed)
      wrong.evidence.push_back(r.spec.id + ": " + CheckText(r));
    else if (r.run == BenchRun::kError)
      incomplete.evidence.push_back(r.spec.id + ": " + r.note);
  }
  if (!wrong.evidence.empty()) {
    wrong.title = std::to_string(wrong.evidence.size()) + (wrong.evidence.size() == 1
                                                               ? " benchmark computed wrong results"
                                                               : " benchmarks computed wrong results");
    wrong.fix =
        "the GPU returned wrong data: its figures mean nothing until this is fixed. Run `gpudoctor verify "
        "--level "
        "long`, update the driver, check cooling and power, and reseat the card";
    out.push_back(wrong);
  }
  if (!incomplete.evidence.empty()) {
    incomplete.title =
        std::to_string(incomplete.evidence.size()) +
        (incomplete.evidence.size() == 1 ? " benchmark did not complete" : " benchmarks did not complete");
    incomplete.fix =
        "see each reason; for a crash or a hang check `dmesg` for driver errors (Xid / amdgpu) and "
        "run `gpudoctor verify`";
    out.push_back(incomplete);
  }
}

// A PCIe link trained below what the card and the slot allow. A link read while idle runs slower on purpose
// (power saving): only a narrower one, or one seen under load, or one next to low transfers, is a finding.
void AddLinkFinding(const std::vector<BenchResult>& results, const BenchPeaks& peaks,
                    std::vector<BenchFinding>& out, std::set<std::string>& explained) {
  if (!peaks.link_now || !peaks.link_max) return;
  if (peaks.link_now->gen >= peaks.link_max->gen && peaks.link_now->width >= peaks.link_max->width) return;
  bool narrower = peaks.link_now->width < peaks.link_max->width;
  bool measured_under_load = peaks.link_now->source != "sysfs";
  if (!narrower && !measured_under_load && !AnyLow(results, "transfer.")) return;
  BenchFinding f{
      "bench.pcie_downtrained",
      Severity::kWarning,
      "the PCIe link runs at " + PcieLinkText(peaks.link_now->gen, peaks.link_now->width) + ", below " +
          PcieLinkText(peaks.link_max->gen, peaks.link_max->width),
      {},
      "seat the card in a x16 slot wired to the CPU, without risers or extenders; set the slot's "
      "PCIe speed to Auto (or the card's generation) in the firmware setup; check `sudo lspci -vv` "
      "LnkSta against LnkCap"};
  f.evidence.push_back("trained at " + PcieLinkText(peaks.link_now->gen, peaks.link_now->width) + " (" +
                       peaks.link_now->source + "), " + CauseFigure(peaks.link_now->gbs) +
                       " GB/s per direction");
  f.evidence.push_back("the card and slot allow " + PcieLinkText(peaks.link_max->gen, peaks.link_max->width) +
                       " (" + peaks.link_max->source + "), " + CauseFigure(peaks.link_max->gbs) + " GB/s");
  if (!measured_under_load && !narrower)
    f.evidence.push_back(
        "read while idle, when GPUs lower the link speed to save power; the transfers are low too");
  for (const auto& r : results)
    if (StartsWith(r.spec.id, "transfer.") && r.spec.id != "transfer.d2d" && IsLow(r))
      f.evidence.push_back(Standing(r));
  out.push_back(f);
  explained.insert("transfer.");
}

// What the telemetry read under load shows, reading by reading, before it becomes findings.
struct UnderLoad {
  BenchFinding power, throttled, hot, clocks, others;
  std::set<uint32_t> other_pids;
  size_t foreign_namespace = 0;
};

// The SM clock far below its maximum during a GEMM, with the reasons the driver gives; "" when it is not.
std::string LowClockLine(const BenchTelemetry& t) {
  const TelemetrySample& x = t.reading;
  if (!StartsWith(t.id, "gemm.") || !x.sm_clock_mhz || !x.sm_clock_max_mhz ||
      *x.sm_clock_mhz >= 0.6 * *x.sm_clock_max_mhz)
    return "";
  std::string line = "during " + t.id + ": SM clock " + std::to_string(*x.sm_clock_mhz) + " MHz of " +
                     std::to_string(*x.sm_clock_max_mhz) + " MHz";
  if (!x.throttle_reasons.empty()) {
    line += " (reasons:";
    for (const auto& reason : x.throttle_reasons) line += " " + reason;
    line += ")";
  }
  return line;
}

// The throttle reasons that cost speed, with the temperature and power beside them; "" when none.
std::string ThrottleLine(const BenchTelemetry& t) {
  const TelemetrySample& x = t.reading;
  std::vector<std::string> alarming;
  for (const auto& reason : x.throttle_reasons)
    if (IsAlarmingThrottleReason(reason)) alarming.push_back(reason);
  if (alarming.empty()) return "";
  std::string line = "during " + t.id + ": ";
  for (size_t i = 0; i < alarming.size(); ++i) line += (i ? ", " : "") + alarming[i];
  if (x.temperature_c) line += "; " + Celsius(*x.temperature_c);
  if (x.power_watts) line += "; " + Watts(*x.power_watts);
  return line;
}

UnderLoad ReadUnderLoad(const std::vector<BenchTelemetry>& telemetry, bool compute_low) {
  UnderLoad u{{"bench.power_capped", compute_low ? Severity::kWarning : Severity::kInfo, "", {}, ""},
              {"bench.throttled", Severity::kWarning, "", {}, ""},
              {"bench.hot", Severity::kWarning, "", {}, ""},
              {"bench.clocks_low", Severity::kWarning, "", {}, ""},
              {"bench.other_processes", Severity::kWarning, "", {}, ""},
              {},
              0};
  for (const auto& t : telemetry) {
    const TelemetrySample& x = t.reading;
    if (x.power_limit_watts && x.power_default_limit_watts &&
        *x.power_limit_watts < 0.95 * *x.power_default_limit_watts && u.power.evidence.empty()) {
      u.power.title = "the power limit is " + Watts(*x.power_limit_watts) + ", below the board's default " +
                      Watts(*x.power_default_limit_watts);
      u.power.evidence.push_back("during " + t.id + ": limit " + Watts(*x.power_limit_watts) + ", default " +
                                 Watts(*x.power_default_limit_watts) +
                                 (x.power_watts ? ", drawing " + Watts(*x.power_watts) : std::string()));
    }
    if (auto line = ThrottleLine(t); !line.empty()) u.throttled.evidence.push_back(line);
    if (x.temperature_c && *x.temperature_c >= 90)
      u.hot.evidence.push_back("during " + t.id + ": " + Celsius(*x.temperature_c));
    if (auto line = LowClockLine(t); !line.empty()) u.clocks.evidence.push_back(line);
    if (!x.processes.empty()) {
      std::vector<uint32_t> pids;
      for (const auto& p : x.processes) pids.push_back(p.pid);
      bool self_listed = std::find(pids.begin(), pids.end(), t.worker_pid) != pids.end();
      if (self_listed) {
        for (uint32_t pid : pids)
          if (pid != t.worker_pid) u.other_pids.insert(pid);
      } else if (pids.size() > 1) {
        // The library lists processes from another PID namespace (a container): one of them is the worker.
        u.foreign_namespace = std::max(u.foreign_namespace, pids.size() - 1);
      }
    }
  }
  return u;
}

// Power limit, throttling, heat and low clocks, each a finding when its evidence is there.
void AddUnderLoadFindings(UnderLoad& u, const std::vector<BenchResult>& results,
                          std::vector<BenchFinding>& out, std::set<std::string>& explained) {
  if (!u.power.evidence.empty()) {
    u.power.fix =
        "restore the board's default power limit (NVIDIA: `sudo nvidia-smi -pl <default W>`; AMD: "
        "`sudo rocm-smi --resetpoweroverdrive`), unless it was lowered on purpose";
    out.push_back(u.power);
    explained.insert("memory.");
    explained.insert("gemm.");
  }
  if (!u.throttled.evidence.empty()) {
    u.throttled.title =
        "the GPU slowed itself down (heat, power brake or a hardware signal) while it was measured";
    u.throttled.fix =
        "improve the cooling and airflow, check the power cables and the supply; `nvidia-smi -q -d "
        "PERFORMANCE` shows the reasons as they happen";
    out.push_back(u.throttled);
    explained.insert("memory.");
    explained.insert("gemm.");
  }
  if (!u.hot.evidence.empty()) {
    u.hot.title = "the GPU ran at 90 C or more";
    u.hot.fix = "clean the heatsink and fans, improve the case or rack airflow; check the fan curve";
    out.push_back(u.hot);
  }
  if (!u.clocks.evidence.empty() && AnyLow(results, "gemm.")) {
    u.clocks.title = "the SM clock stayed far below its maximum while GEMMs were low";
    u.clocks.fix =
        "look for locked or application clocks (`nvidia-smi -q -d CLOCK`; `sudo nvidia-smi -rgc` undoes "
        "a lock) and power-saving profiles";
    out.push_back(u.clocks);
    explained.insert("gemm.");
  }
}

// Other processes holding a compute context while the GPU was measured.
void AddOtherProcesses(UnderLoad& u, std::vector<BenchFinding>& out, std::set<std::string>& explained) {
  if (u.other_pids.empty() && u.foreign_namespace == 0) return;
  size_t count = u.other_pids.empty() ? u.foreign_namespace : u.other_pids.size();
  u.others.title = std::to_string(count) + (count == 1 ? " other process" : " other processes") +
                   " used the GPU while it was measured";
  if (!u.other_pids.empty()) {
    std::string list;
    for (uint32_t pid : u.other_pids) list += (list.empty() ? "" : ", ") + std::to_string(pid);
    u.others.evidence.push_back("process ids " + list + " held a compute context");
  } else {
    u.others.evidence.push_back(
        std::to_string(u.foreign_namespace) +
        " more compute contexts than gpudoctor's own (process ids from another namespace)");
  }
  u.others.fix = "stop them, or run the benchmark when the GPU is idle; `nvidia-smi` lists them";
  out.push_back(u.others);
  explained.insert("memory.");
  explained.insert("gemm.");
  explained.insert("transfer.");
  explained.insert("latency.");
}

// The low figures no finding above explains.
void AddBelowSpec(const std::vector<BenchResult>& results, const std::set<std::string>& explained,
                  std::vector<BenchFinding>& out) {
  BenchFinding below{"bench.below_spec", Severity::kInfo, "", {}, ""};
  for (const auto& r : results) {
    if (!IsLow(r)) continue;
    std::string group = r.spec.group + ".";
    if (explained.count(group)) continue;
    below.evidence.push_back(Standing(r));
  }
  if (!below.evidence.empty()) {
    below.title = std::to_string(below.evidence.size()) +
                  (below.evidence.size() == 1 ? " figure is" : " figures are") +
                  " far below the spec, and no cause was found";
    below.evidence.push_back(
        "checked: PCIe link, power limit, throttle reasons, clocks, temperature, other processes"
        " (as far as the GPU's telemetry reports them)");
    below.fix =
        "compare with `gpudoctor verify`; update the driver; on a shared, virtualized or partitioned GPU "
        "(MIG, vGPU) lower figures are expected";
    out.push_back(below);
  }
}

}  // namespace

std::vector<BenchFinding> FindBenchCauses(const std::vector<BenchResult>& results,
                                          const std::vector<BenchTelemetry>& telemetry,
                                          const BenchPeaks& peaks) {
  std::vector<BenchFinding> out;
  AddRunFailures(results, out);
  std::set<std::string> explained;  // groups whose low figures a finding explains
  AddLinkFinding(results, peaks, out, explained);
  bool compute_low = AnyLow(results, "memory.") || AnyLow(results, "gemm.");
  UnderLoad u = ReadUnderLoad(telemetry, compute_low);
  AddUnderLoadFindings(u, results, out, explained);
  AddOtherProcesses(u, out, explained);
  AddBelowSpec(results, explained, out);
  return out;
}

}  // namespace gpudoctor
