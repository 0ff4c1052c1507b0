// The text rendering of a verify run (see verify_report.h); its JSON is verify_json.h's.
#include "gates/verify_report.h"

#include <algorithm>
#include <cmath>

#include "core/strings.h"

namespace gpudoctor {
namespace {

std::string Seconds(double ms) {
  char b[32];
  std::snprintf(b, sizeof b, ms < 10000 ? "%.1f s" : "%.0f s", ms / 1000.0);
  return b;
}

std::string FigureText(const GateResult& g) {
  if (g.figures.empty()) return "-";
  const GateFigure& f = g.figures.front();
  char b[64];
  double v = f.value;
  if (f.unit.empty() && v != 0 && std::fabs(v) < 0.01)
    std::snprintf(b, sizeof b, "%.1e", v);
  else if (std::fabs(v) >= 100 || v == std::floor(v))
    std::snprintf(b, sizeof b, "%.0f", v);
  else
    std::snprintf(b, sizeof b, "%.1f", v);
  return std::string(b) + (f.unit.empty() ? "" : " " + f.unit);
}

std::string Pad(const std::string& s, size_t width) {
  return s.size() >= width ? s + " " : s + std::string(width - s.size(), ' ');
}

std::string Colored(const std::string& text, GateStatus st, bool color) {
  if (!color) return text;
  const char* code = st == GateStatus::kPass ? "\033[32m" : st == GateStatus::kFail ? "\033[31m" : "\033[33m";
  return code + text + "\033[0m";
}

std::string DeviceLine(const DeviceInfo& d) {
  return "#" + std::to_string(d.index) + " " + d.name + " (" + (d.arch.empty() ? "arch n/a" : d.arch) + ", " +
         FormatBytes(d.memory_total_bytes) + ") at " + d.pci_address;
}

}  // namespace

std::string VerifyVerdict(const VerifyReport& r) {
  std::vector<std::string> failed;
  size_t passed = 0, skipped = 0;
  for (const auto& g : r.gates) {
    if (g.status == GateStatus::kFail) failed.push_back(g.gate);
    if (g.status == GateStatus::kPass) ++passed;
    if (g.status == GateStatus::kSkip) ++skipped;
  }
  if (r.exit_code == 2) {
    for (const auto& g : r.gates)
      if (g.status == GateStatus::kFail) return "no usable GPU: " + g.summary;
    return "no usable GPU";
  }
  std::string counts = std::to_string(passed) + " passed, " + std::to_string(skipped) + " skipped";
  if (failed.empty()) return "all gates that ran passed (" + counts + ")";
  std::string names;
  for (const auto& f : failed) names += (names.empty() ? "" : ", ") + f;
  return std::to_string(failed.size()) + (failed.size() == 1 ? " gate failed: " : " gates failed: ") + names +
         " (" + counts + ")";
}

std::string RenderGateProgress(const GateResult& g) {
  return "  " + Pad(g.gate, 11) + Pad(ToString(g.status), 6) + Seconds(g.elapsed_ms) + "\n";
}

std::string RenderVerifyText(const VerifyReport& r, bool color) {
  std::string out = "gpudoctor verify: level " + std::string(ToString(r.level)) + ", backend " +
                    (r.backend.empty() ? "none" : r.backend) + "\n";
  if (r.inject != "none") out += "Planted fault: " + r.inject + " (a test of the tool itself)\n";
  if (!r.runtime_version.empty()) {
    out += "Runtime:  " + r.runtime_version;
    if (!r.libraries.empty() && !r.libraries.front().path.empty())
      out += " from " + r.libraries.front().path + " (" + r.libraries.front().where + ")";
    out += "\n";
  }
  if (r.device) out += "Device:   " + DeviceLine(*r.device) + "\n";
  if (r.devices.size() > 1)
    out += "          (the runtime sees " + std::to_string(r.devices.size()) +
           " devices; pick one with --device)\n";
  out += "\n";
  size_t figure_width = 10;
  for (const auto& g : r.gates) figure_width = std::max(figure_width, FigureText(g).size() + 2);
  out +=
      "  " + Pad("GATE", 11) + Pad("RESULT", 7) + Pad("TIME", 8) + Pad("FIGURE", figure_width) + "DETAIL\n";
  for (const auto& g : r.gates) {
    std::string status = Pad(ToString(g.status), 7);
    out += "  " + Pad(g.gate, 11) + Colored(status, g.status, color) +
           Pad(g.status == GateStatus::kSkip ? "-" : Seconds(g.elapsed_ms), 8) +
           Pad(g.status == GateStatus::kPass ? FigureText(g) : "-", figure_width) + g.summary + "\n";
    if (g.status == GateStatus::kFail) {
      for (const auto& d : g.details) out += "  " + std::string(11 + 7 + 8 + figure_width, ' ') + d + "\n";
      if (!g.hint.empty())
        out += "  " + std::string(11 + 7 + 8 + figure_width, ' ') + "hint: " + g.hint + "\n";
    }
  }
  bool any_lib = std::any_of(r.libraries.begin(), r.libraries.end(),
                             [](const BackendLibrary& l) { return l.status != LoadStatus::kNotTried; });
  if (any_lib) {
    out += "\nLibraries:\n";
    for (const auto& l : r.libraries) {
      if (l.status == LoadStatus::kNotTried) continue;
      out += "  " + Pad(l.role, 10) + Pad(l.name, 10) + Pad(std::string(LoadStatusName(l.status)), 8) +
             (l.path.empty() ? l.detail
                             : l.path + (l.version.empty() ? "" : "  " + l.version) +
                                   (l.where.empty() ? "" : "  (" + l.where + ")")) +
             "\n";
    }
  }
  if (!r.findings.empty()) {
    out += "\nFindings:\n";
    for (const auto& f : r.findings) out += "  - " + f + "\n";
  }
  if (!r.advice.empty()) out += "\nWhat to do: " + r.advice + "\n";
  out += "\n" + VerifyVerdict(r) + " in " + Seconds(r.elapsed_ms) + ".\n";
  return out;
}

}  // namespace gpudoctor
