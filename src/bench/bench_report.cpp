// Text and CSV renderings of a bench run (see bench_report.h).
#include "bench/bench_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "bench/bench_protocol.h"
#include "bench/bench_support.h"
#include "core/strings.h"
#include "core/text_table.h"

namespace gpudoctor {
namespace {

std::string Figure(double v) {
  if (!std::isfinite(v)) return "n/a";
  char b[32];
  std::snprintf(b, sizeof b, std::fabs(v) >= 100 ? "%.0f" : std::fabs(v) >= 10 ? "%.1f" : "%.2f", v);
  return b;
}

std::string FigureOrNa(const std::optional<double>& v) {
  return v ? Figure(*v) : "n/a";
}

std::string GroupTitle(const std::string& group) {
  if (group == "memory") return "Device memory bandwidth (BabelStream kernels, fp32)";
  if (group == "transfer") return "Transfers";
  if (group == "gemm") return "GEMM through the vendor BLAS";
  if (group == "latency") return "Kernel launch latency (lower is better)";
  return group;
}

std::string VerdictCell(BenchVerdict v) {
  return v == BenchVerdict::kLow ? "LOW" : v == BenchVerdict::kFailed ? "FAILED" : ToString(v);
}

// Colour for a whole line (the table's cells stay plain: escape codes would break its alignment).
std::string Paint(const std::string& text, const char* code, bool color) {
  return color ? code + text + "\033[0m" : text;
}

std::string SweepCell(const BenchResult& r) {
  std::string out;
  for (const auto& p : r.points) {
    std::string x = r.spec.x_unit == "bytes" ? ShortSize(static_cast<uint64_t>(p.x))
                    : p.x == std::floor(p.x) ? std::to_string(static_cast<long long>(p.x))
                                             : Figure(p.x);
    out += (out.empty() ? "" : "  ") + x + " " + Figure(p.value);
  }
  return out;
}

std::string ShortId(const BenchResult& r) {
  std::string prefix = r.spec.group + ".";
  return StartsWith(r.spec.id, prefix) ? r.spec.id.substr(prefix.size()) : r.spec.id;
}

std::string Csv(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string CsvNumber(std::optional<double> v) {
  if (!v || !std::isfinite(*v)) return "";
  char b[40];
  if (*v == std::floor(*v) && std::fabs(*v) < 1e15)
    std::snprintf(b, sizeof b, "%.0f", *v);  // sizes in bytes stay whole numbers
  else
    std::snprintf(b, sizeof b, "%.6g", *v);
  return b;
}

}  // namespace

std::string BenchVerdictLine(const BenchReport& r) {
  if (!r.device) return "no usable GPU: nothing was measured";
  size_t failed = 0, low = 0, skipped = 0;
  std::string failed_ids;
  for (const auto& b : r.benchmarks) {
    if (b.verdict == BenchVerdict::kFailed) {
      ++failed;
      failed_ids += (failed_ids.empty() ? "" : ", ") + b.spec.id;
    }
    if (b.verdict == BenchVerdict::kLow) ++low;
    if (b.verdict == BenchVerdict::kSkipped) ++skipped;
  }
  std::string counts = std::to_string(r.benchmarks.size()) + " benchmarks";
  if (failed)
    return "FAILED: " + std::to_string(failed) + " of " + counts + " failed (" + failed_ids + ")" +
           (low ? "; " + std::to_string(low) + " low" : "");
  std::string out = counts + " ran" + (skipped ? " (" + std::to_string(skipped) + " skipped)" : "") +
                    ", every result checked right";
  if (low) out += "; " + std::to_string(low) + " far below the spec (LOW)";
  return out;
}

std::string RenderBenchText(const BenchReport& r, bool color) {
  std::string out = "gpudoctor bench: level " + std::string(ToString(r.level));
  if (r.device) out += ", backend " + r.device->backend;
  if (!r.runtime_version.empty()) out += " (" + r.runtime_version + ")";
  out += "\n";
  if (r.device) {
    const BenchDevice& d = *r.device;
    out += "Device:   #" + std::to_string(d.index) + " " + d.name + " (" +
           (d.arch.empty() ? "arch n/a" : d.arch) + ", " + FormatBytes(d.memory_total_bytes) + ") at " +
           d.pci_address + "\n";
  }
  if (r.device) {
    out += "Peaks:    " +
           (r.peak_model.empty()
                ? std::string("this GPU is not in the knowledge base (no % of peak, no LOW verdicts)")
                : r.peak_model + " in the knowledge base (matched by " + r.peak_model_source + ")") +
           "\n";
    if (!r.link_max.empty() || !r.link_now.empty())
      out += "Link:     " + (r.link_now.empty() ? std::string("n/a") : r.link_now) + "; at most " +
             (r.link_max.empty() ? std::string("n/a") : r.link_max) + "\n";
  }
  char took[64];
  std::snprintf(took, sizeof took, "Took:     %.1f s\n", r.duration_s);
  out += took;

  std::vector<std::string> groups;
  for (const auto& b : r.benchmarks)
    if (std::find(groups.begin(), groups.end(), b.spec.group) == groups.end()) groups.push_back(b.spec.group);
  for (const auto& g : groups) {
    std::string unit, x_label;
    for (const auto& b : r.benchmarks)
      if (b.spec.group == g) {
        unit = b.spec.unit;
        x_label = b.spec.x_label;
      }
    out += "\n" + GroupTitle(g) + ", " + unit + "\n";
    TextTable table(
        {"BENCHMARK", "BEST", "PEAK", "% PEAK", "VERDICT", "CHECK", "SWEEP (" + x_label + ": " + unit + ")"});
    std::vector<std::string> notes;
    for (const auto& b : r.benchmarks) {
      if (b.spec.group != g) continue;
      std::string check = b.check == BenchCheck::kFailed ? "FAILED" : CheckText(b);
      table.AddRow({ShortId(b), FigureOrNa(b.best), FigureOrNa(b.peak),
                    b.percent_of_peak ? Figure(*b.percent_of_peak) + "%" : "-", VerdictCell(b.verdict), check,
                    SweepCell(b)});
      if (b.check == BenchCheck::kFailed) notes.push_back(b.spec.id + ": check failed: " + b.check_detail);
      if (b.run != BenchRun::kMeasured) notes.push_back(b.spec.id + ": " + b.note);
      if (b.spec.id == "latency.submit" && b.run == BenchRun::kMeasured)
        notes.push_back(b.spec.id + ": " + b.note);
    }
    out += table.Render();
    for (const auto& n : notes) out += "    " + n + "\n";
  }

  if (!r.findings.empty()) {
    out += "\nFindings\n";
    for (const auto& f : r.findings) {
      std::string sev = ToString(f.severity);
      std::transform(sev.begin(), sev.end(), sev.begin(), [](unsigned char c) { return std::toupper(c); });
      const char* code = f.severity == Severity::kError     ? "\033[31m"
                         : f.severity == Severity::kWarning ? "\033[33m"
                                                            : "\033[2m";
      out += "  " + Paint(sev, code, color) + "  " + f.id + ": " + f.title + "\n";
      for (const auto& e : f.evidence) out += "      " + e + "\n";
      if (!f.fix.empty()) out += "      fix: " + f.fix + "\n";
    }
  }
  std::string verdict = BenchVerdictLine(r);
  bool bad = StartsWith(verdict, "FAILED") || !r.device;
  bool low = verdict.find("LOW") != std::string::npos;
  out += "\n" + Paint(verdict, bad ? "\033[31m" : low ? "\033[33m" : "\033[32m", color) + "\n";
  return out;
}

std::string RenderBenchCsv(const BenchReport& r) {
  std::string out =
      "id,group,title,unit,higher_is_better,x_label,x_unit,x,value,best,peak,percent_of_peak,verdict,check\n";
  for (const auto& b : r.benchmarks) {
    std::string head = Csv(b.spec.id) + "," + Csv(b.spec.group) + "," + Csv(b.spec.title) + "," +
                       Csv(b.spec.unit) + "," + (b.spec.higher_is_better ? "true" : "false") + "," +
                       Csv(b.spec.x_label) + "," + Csv(b.spec.x_unit) + ",";
    std::string tail = "," + CsvNumber(b.best) + "," + CsvNumber(b.peak) + "," +
                       CsvNumber(b.percent_of_peak) + "," + ToString(b.verdict) + "," + Csv(CheckText(b)) +
                       "\n";
    if (b.points.empty()) out += head + "," + tail;
    for (const auto& p : b.points) out += head + CsvNumber(p.x) + "," + CsvNumber(p.value) + tail;
  }
  return out;
}

}  // namespace gpudoctor
