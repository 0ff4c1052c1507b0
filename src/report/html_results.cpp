// Renders the verify and bench sections of the HTML report from the reports read back by their codecs
// (gates/verify_json.h, bench/bench_json.h). Nothing here measures or judges: the verdicts, checks and peaks
// are the files' own; this file lays them out, groups the sweeps into charts and makes failures impossible to
// miss.
#include "report/html_results.h"

#include <algorithm>
#include <cmath>

#include "core/strings.h"
#include "gates/verify_report.h"
#include "report/chart_scale.h"
#include "report/html_escape.h"
#include "report/html_parts.h"

namespace gpudoctor {
namespace {

std::string Figure(std::optional<double> v, const std::string& unit) {
  if (!v || !std::isfinite(*v)) return "n/a";
  return FormatFigure(*v) + (unit.empty() ? "" : " " + unit);
}

std::string Millis(std::optional<double> ms) {
  if (!ms || !std::isfinite(*ms)) return "-";
  return FormatFigure(*ms / 1000.0) + " s";
}

bool OnThisMachine(const Snapshot& s, const std::string& pci_address) {
  for (const auto& g : s.gpus)
    if (ToLower(g.pci_address) == ToLower(pci_address)) return true;
  return false;
}

std::string AbsentNote(const std::string& what, const std::string& command, const std::string& flag) {
  return "<p class=\"absent\">No " + EscapeHtml(what) + " in this report. Run <code>" + EscapeHtml(command) +
         "</code> and pass the file with <code>" + EscapeHtml(flag) + "</code>.</p>\n";
}

std::string Alarm(const std::string& heading, const std::vector<std::string>& lines) {
  std::string out = "<div class=\"alarm\" role=\"alert\">" + Element("p", "alarm-title", heading) + "<ul>";
  for (const auto& l : lines) out += "<li>" + EscapeHtml(l) + "</li>";
  return out + "</ul></div>\n";
}

std::string List(const std::vector<std::string>& items, std::string_view cls = {}) {
  std::string out = cls.empty() ? "<ul>" : "<ul class=\"" + EscapeHtmlAttribute(cls) + "\">";
  for (const auto& i : items) out += "<li>" + EscapeHtml(i) + "</li>";
  return out + "</ul>\n";
}

// ---- verify ----

std::string GateBadge(GateStatus g) {
  switch (g) {
    case GateStatus::kPass:
      return Badge(BadgeKind::kGood, "pass");
    case GateStatus::kFail:
      return Badge(BadgeKind::kBad, "FAIL");
    case GateStatus::kSkip:
      return Badge(BadgeKind::kMuted, "skip");
  }
  return Badge(BadgeKind::kMuted, "skip");
}

std::string GateFigures(const GateResult& g) {
  if (g.figures.empty()) return "-";
  std::string out;
  for (size_t i = 0; i < g.figures.size(); ++i) {
    const GateFigure& f = g.figures[i];
    std::string line = EscapeHtml(f.label.empty() ? "" : f.label + ": ") +
                       Element(i == 0 ? "strong" : "span", "", Figure(f.value, f.unit));
    out += (i ? "<br>" : "") + line;
  }
  return out;
}

// The gate's title from its spec; "" for a gate this gpudoctor does not know (a newer file).
std::string GateTitle(const GateResult& g) {
  auto id = GateIdFromName(g.gate);
  return id ? SpecOf(*id).title : "";
}

std::string GateDetail(const GateResult& g) {
  std::string out = EscapeHtml(g.summary);
  if (!g.hint.empty())
    out += "<div class=\"hint\">" + Element("strong", "", "What to do: ") + EscapeHtml(g.hint) + "</div>";
  if (!g.findings.empty()) out += List(g.findings, "gate-findings");
  if (!g.details.empty())
    out += "<details><summary>details (" + std::to_string(g.details.size()) + ")</summary>" +
           List(g.details) + "</details>";
  return out;
}

// ---- bench ----

std::string VerdictBadge(BenchVerdict v) {
  switch (v) {
    case BenchVerdict::kOk:
      return Badge(BadgeKind::kGood, "ok");
    case BenchVerdict::kLow:
      return Badge(BadgeKind::kWarn, "low");
    case BenchVerdict::kFailed:
      return Badge(BadgeKind::kBad, "FAILED");
    case BenchVerdict::kSkipped:
      return Badge(BadgeKind::kMuted, "skipped");
  }
  return Badge(BadgeKind::kMuted, "skipped");
}

std::string CheckCell(const BenchResult& b) {
  switch (b.check) {
    case BenchCheck::kPassed:
      return Badge(BadgeKind::kGood, "passed");
    case BenchCheck::kNotRun:
      return Badge(BadgeKind::kMuted, "not run");
    case BenchCheck::kFailed:
      return Badge(BadgeKind::kBad, "FAILED") +
             (b.check_detail.empty() ? "" : " " + Element("span", "check-failed", b.check_detail));
  }
  return EscapeHtml(CheckText(b));
}

std::optional<double> PercentOfPeak(const BenchResult& b) {
  if (b.percent_of_peak && std::isfinite(*b.percent_of_peak)) return b.percent_of_peak;
  if (b.best && b.peak && std::isfinite(*b.best) && std::isfinite(*b.peak) && *b.peak > 0)
    return *b.best / *b.peak * 100;
  return std::nullopt;
}

// "Device memory: triad" -> ("Device memory", "triad").
std::pair<std::string, std::string> SplitTitle(const std::string& title) {
  size_t colon = title.find(':');
  if (colon == std::string::npos) return {"", title};
  return {std::string(Trim(std::string_view(title).substr(0, colon))),
          std::string(Trim(std::string_view(title).substr(colon + 1)))};
}

std::string SeverityBadge(Severity severity) {
  switch (severity) {
    case Severity::kError:
      return Badge(BadgeKind::kBad, "error");
    case Severity::kWarning:
      return Badge(BadgeKind::kWarn, "warning");
    case Severity::kOk:
      return Badge(BadgeKind::kGood, "ok");
    case Severity::kInfo:
      break;
  }
  return Badge(BadgeKind::kInfo, "info");
}

std::string BenchFindingCard(const BenchFinding& f) {
  const std::string sev = ToString(f.severity);
  std::string out = "<article class=\"finding sev-" + EscapeHtmlAttribute(sev) + "\">";
  out += "<h4>" + SeverityBadge(f.severity) + " " + EscapeHtml(f.title.empty() ? f.id : f.title) + "</h4>";
  if (!f.id.empty()) out += Element("p", "finding-id", "id: " + f.id);
  if (!f.evidence.empty()) out += List(f.evidence, "evidence");
  if (!f.fix.empty())
    out += "<p class=\"fix\">" + Element("strong", "", "Fix: ") + EscapeHtml(f.fix) + "</p>";
  return out + "</article>\n";
}

std::string BenchGroupBlock(const BenchChartGroup& g) {
  std::string out = "<div class=\"bench-group\">\n" + Element("h3", "", g.title);
  if (g.drawable)
    out += "<figure class=\"bench-chart\">" + RenderSvgChart(BenchChartSpec(g)) + "</figure>\n";
  else
    out += "<p class=\"absent\">Nothing was measured in this group, so there is no chart.</p>\n";
  HtmlTable t("bench-table",
              {"Benchmark", "Best", "Spec peak", "% of peak", "Verdict", "Result check", "Note"});
  for (const BenchResult* b : g.entries) {
    auto pct = PercentOfPeak(*b);
    std::string pct_text = pct ? FormatFigure(*pct) + " %" : "n/a";
    t.AddRow({Raw{EscapeHtml(b->spec.title) + "<br>" + Element("code", "", b->spec.id)},
              Figure(b->best, b->spec.unit), Figure(b->peak, b->spec.unit), pct_text,
              Raw{VerdictBadge(b->verdict)}, Raw{CheckCell(*b)}, b->note},
             b->check == BenchCheck::kFailed || b->verdict == BenchVerdict::kFailed ? "failed"
             : b->verdict == BenchVerdict::kLow                                     ? "low"
                                                                                    : "");
  }
  return out + t.Render() + "</div>\n";
}

// A benchmark whose best figure is more than 20 times the median of its group's (device-to-device
// copies at 2 TB/s beside PCIe transfers at 50 GB/s) gets a chart of its own: on a shared linear axis
// the others would lie flat on zero. GEMM's fp32 to fp8 spread stays well under it around the median.
std::vector<BenchChartGroup> SplitOutliers(std::vector<BenchChartGroup> groups) {
  constexpr double kOutlierFactor = 20.0;
  std::vector<BenchChartGroup> out;
  for (auto& g : groups) {
    std::vector<double> bests;
    for (const BenchResult* b : g.entries)
      if (b->best && std::isfinite(*b->best) && *b->best > 0) bests.push_back(*b->best);
    if (bests.size() < 3) {
      out.push_back(std::move(g));
      continue;
    }
    std::sort(bests.begin(), bests.end());
    const double median = bests[bests.size() / 2];
    BenchChartGroup kept{g.group, "", {}, false};
    std::vector<BenchChartGroup> alone;
    for (const BenchResult* b : g.entries) {
      if (b->best && std::isfinite(*b->best) && *b->best > kOutlierFactor * median)
        alone.push_back({g.group, "", {b}, false});
      else
        kept.entries.push_back(b);
    }
    out.push_back(std::move(kept));
    for (auto& a : alone) out.push_back(std::move(a));
  }
  return out;
}

}  // namespace

std::vector<BenchChartGroup> GroupBenchmarks(const BenchReport& bench) {
  std::vector<BenchChartGroup> groups;
  std::vector<std::string> keys;
  for (const auto& result : bench.benchmarks) {
    const BenchSpec& b = result.spec;
    const std::string key = b.group + '\x1f' + b.unit + '\x1f' + b.x_unit;
    size_t i = 0;
    while (i < keys.size() && keys[i] != key) ++i;
    if (i == keys.size()) {
      keys.push_back(key);
      groups.push_back({b.group, "", {}, false});
    }
    groups[i].entries.push_back(&result);
  }
  groups = SplitOutliers(std::move(groups));
  for (auto& g : groups) {
    for (const BenchResult* b : g.entries)
      for (const auto& p : b->points) g.drawable |= std::isfinite(p.value) && std::isfinite(p.x) && p.x > 0;
    std::string prefix = SplitTitle(g.entries.front()->spec.title).first;
    for (const BenchResult* b : g.entries)
      if (SplitTitle(b->spec.title).first != prefix) prefix.clear();
    g.title = prefix;
    if (g.title.empty()) {
      g.title = g.group;  // "transfer" -> "Transfer"
      if (!g.title.empty() && g.title[0] >= 'a' && g.title[0] <= 'z')
        g.title[0] = static_cast<char>(g.title[0] - 32);
    }
    if (g.entries.size() == 1) g.title = g.entries.front()->spec.title;
  }
  return groups;
}

ChartSpec BenchChartSpec(const BenchChartGroup& g) {
  ChartSpec spec;
  const BenchSpec& first = g.entries.front()->spec;
  spec.title = g.title + (first.unit.empty() ? "" : " (" + first.unit + ")");
  spec.x_label = first.x_label;
  spec.x_unit = first.x_unit;
  spec.y_unit = first.unit;
  spec.higher_is_better = first.higher_is_better;
  const bool shared_prefix = g.entries.size() > 1 && !SplitTitle(first.title).first.empty() &&
                             SplitTitle(first.title).first == g.title;
  for (const BenchResult* b : g.entries) {
    // A benchmark without a point to draw (skipped) is in the table, not in the legend.
    bool any = false;
    for (const auto& p : b->points) any |= std::isfinite(p.value) && std::isfinite(p.x) && p.x > 0;
    if (!any) continue;
    ChartSeries s;
    s.name = shared_prefix ? SplitTitle(b->spec.title).second : b->spec.title;
    if (s.name.empty()) s.name = b->spec.id;
    for (const auto& p : b->points) s.points.emplace_back(p.x, p.value);
    if (b->peak && std::isfinite(*b->peak)) s.peak = b->peak;
    s.failed = b->check == BenchCheck::kFailed;
    spec.series.push_back(std::move(s));
  }
  return spec;
}

std::vector<const BenchResult*> FailedBenchChecks(const BenchReport& bench) {
  std::vector<const BenchResult*> out;
  for (const auto& b : bench.benchmarks)
    if (b.check == BenchCheck::kFailed) out.push_back(&b);
  return out;
}

std::string RenderVerifySection(const std::optional<VerifyReport>& verify, const std::string& origin,
                                const Snapshot& snapshot) {
  std::string out =
      "<section id=\"verify\" class=\"report-section\">\n<h2>Verify: quality gates on the GPU</h2>\n";
  if (!verify)
    return out +
           AbsentNote("verify results", "gpudoctor verify --json > verify.json", "--verify verify.json") +
           "</section>\n";
  const VerifyReport& v = *verify;
  std::vector<std::string> failed;
  size_t passed = 0, skipped = 0;
  for (const auto& g : v.gates) {
    if (g.status == GateStatus::kFail) failed.push_back(g.gate + ": " + g.summary);
    passed += g.status == GateStatus::kPass;
    skipped += g.status == GateStatus::kSkip;
  }
  if (!failed.empty())
    out += Alarm(std::to_string(failed.size()) + (failed.size() == 1 ? " gate FAILED" : " gates FAILED"),
                 failed);
  if (!v.inject.empty() && v.inject != "none")
    out += "<p class=\"note\">Planted fault: " + EscapeHtml(v.inject) +
           " (a test of gpudoctor itself: this file does not describe a real GPU problem).</p>\n";

  std::vector<std::pair<std::string, std::string>> facts = {{"From", origin}};
  if (v.device) {
    const DeviceInfo& d = *v.device;
    std::string dev =
        "#" + std::to_string(d.index) + " " + d.name + " (" + (d.arch.empty() ? "arch n/a" : d.arch);
    if (d.memory_total_bytes) dev += ", " + FormatBytes(d.memory_total_bytes);
    dev += ") at " + d.pci_address;
    facts.push_back({"Device", dev});
  } else {
    facts.push_back({"Device", "none (no usable GPU)"});
  }
  facts.push_back({"Backend", (v.backend.empty() ? "none" : v.backend) +
                                  (v.runtime_version.empty() ? "" : ", " + v.runtime_version)});
  facts.push_back({"Level", ToString(v.level)});
  facts.push_back({"Gates", std::to_string(passed) + " passed, " + std::to_string(failed.size()) +
                                " failed, " + std::to_string(skipped) + " skipped, in " +
                                Millis(v.elapsed_ms)});
  facts.push_back({"Verdict", VerifyVerdict(v)});
  if (!v.tool_version.empty()) facts.push_back({"Made by", "gpudoctor " + v.tool_version});
  out += FactList(facts);
  if (v.device && !v.device->pci_address.empty() && !OnThisMachine(snapshot, v.device->pci_address))
    out += "<p class=\"note\">This file was made on a device (" +
           EscapeHtml(v.device->name + " at " + v.device->pci_address) +
           ") that is not among the GPUs of the machine summary above: it comes from another machine.</p>\n";

  HtmlTable t("gates", {"Gate", "Result", "Figures", "Time", "What was measured, or why not"});
  for (const auto& g : v.gates) {
    const std::string title = GateTitle(g);
    t.AddRow({Raw{Element("code", "", g.gate) + (title.empty() ? "" : "<br>" + EscapeHtml(title))},
              Raw{GateBadge(g.status)}, Raw{g.status == GateStatus::kSkip ? "-" : GateFigures(g)},
              g.status == GateStatus::kSkip ? "-" : Millis(g.elapsed_ms), Raw{GateDetail(g)}},
             g.status == GateStatus::kFail   ? "failed"
             : g.status == GateStatus::kSkip ? "skipped"
                                             : "");
  }
  out += t.Render();
  if (!v.findings.empty())
    out += Element("h3", "", "Problems seen that fail no gate") + List(v.findings, "verify-findings");
  if (!v.advice.empty())
    out += "<p class=\"fix\">" + Element("strong", "", "What to do: ") + EscapeHtml(v.advice) + "</p>\n";
  return out + "</section>\n";
}

std::string RenderBenchSection(const std::optional<BenchReport>& bench, const std::string& origin,
                               const Snapshot& snapshot) {
  std::string out =
      "<section id=\"bench\" class=\"report-section\">\n<h2>Bench: how fast this GPU is, against its "
      "spec</h2>\n";
  if (!bench)
    return out + AbsentNote("bench results", "gpudoctor bench --json > bench.json", "--bench bench.json") +
           "</section>\n";
  const BenchReport& b = *bench;
  std::vector<std::string> failed;
  for (const BenchResult* e : FailedBenchChecks(b))
    failed.push_back(e->spec.title + " (" + e->spec.id + "): " + CheckText(*e));
  if (!failed.empty())
    out += Alarm("RESULT CHECK FAILED: " + std::to_string(failed.size()) +
                     (failed.size() == 1 ? " benchmark computed wrong results"
                                         : " benchmarks computed wrong results") +
                     ", so their figures mean nothing",
                 failed);
  size_t counts[4] = {0, 0, 0, 0};
  for (const auto& e : b.benchmarks) ++counts[static_cast<int>(e.verdict)];
  const BenchDevice device = b.device.value_or(BenchDevice{});
  std::string dev = device.name.empty() ? "n/a" : device.name;
  if (!device.arch.empty()) dev += " (" + device.arch + ")";
  if (!device.pci_address.empty()) dev += " at " + device.pci_address;
  std::vector<std::pair<std::string, std::string>> facts = {
      {"From", origin},
      {"Device", dev},
      {"Backend", device.backend.empty() ? "n/a" : device.backend},
      {"Level", ToString(b.level)},
      {"Benchmarks", std::to_string(b.benchmarks.size()) + ": " + std::to_string(counts[0]) + " ok, " +
                         std::to_string(counts[1]) + " low, " + std::to_string(counts[2]) + " failed, " +
                         std::to_string(counts[3]) + " skipped"}};
  if (std::isfinite(b.duration_s) && b.duration_s > 0)
    facts.push_back({"Duration", FormatFigure(b.duration_s) + " s"});
  if (!b.tool_version.empty()) facts.push_back({"Made by", "gpudoctor " + b.tool_version});
  out += FactList(facts);
  if (!device.pci_address.empty() && !OnThisMachine(snapshot, device.pci_address))
    out += "<p class=\"note\">This file was measured on a device (" + EscapeHtml(dev) +
           ") that is not among the GPUs of the machine summary above: it comes from another machine.</p>\n";
  if (!b.findings.empty()) {
    out += Element("h3", "", "What the figures suggest");
    for (const auto& f : b.findings) out += BenchFindingCard(f);
  }
  for (const auto& g : GroupBenchmarks(b)) out += BenchGroupBlock(g);
  if (b.benchmarks.empty()) out += "<p class=\"absent\">The file holds no benchmark.</p>\n";
  return out + "</section>\n";
}

}  // namespace gpudoctor
