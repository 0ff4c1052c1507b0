// Assembles the HTML report: the page (head with its CSS and the policy that forbids scripts and every
// load), the summary cards, the machine and the check findings; the verify and bench sections come from
// html_results.cpp. The page reads well printed too.
#include "report/html_report.h"

#include <cstdio>

#include "core/strings.h"
#include "gates/verify_report.h"
#include "report/check_text.h"
#include "report/html_escape.h"
#include "report/html_parts.h"
#include "report/html_results.h"
#include "report/html_tune.h"
#include "report/text_parts.h"
#include "snapshot/pci_id.h"

namespace gpudoctor {
namespace {

constexpr const char* kStyle = R"css(
:root { --fg: #1a1a1a; --muted: #5f6368; --line: #d9dce0; --bg-soft: #f6f7f9;
  --good: #1b7f3b; --bad: #b00020; --warn: #9a6700; --info: #0b5cad; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--fg); background: #fff;
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", sans-serif; }
main { max-width: 1120px; margin: 0 auto; padding: 8px 24px 48px; }
header.page { background: #20262e; color: #fff; padding: 18px 24px 14px; }
header.page h1 { margin: 0 auto; max-width: 1072px; font-size: 24px; font-weight: 650; }
header.page p { margin: 4px auto 0; max-width: 1072px; color: #c9d1d9; font-size: 13px; }
nav.toc { max-width: 1072px; margin: 10px auto 0; font-size: 14px; }
nav.toc a { color: #9ecbff; margin-right: 18px; text-decoration: none; }
h2 { font-size: 21px; margin: 34px 0 10px; padding-bottom: 6px; border-bottom: 2px solid var(--line); }
h3 { font-size: 17px; margin: 22px 0 8px; }
h4 { font-size: 15px; margin: 0 0 4px; }
code, pre { font-family: ui-monospace, "DejaVu Sans Mono", "Liberation Mono", Consolas, monospace; font-size: 13px; }
pre { background: var(--bg-soft); border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px;
  margin: 6px 0; overflow-x: auto; white-space: pre-wrap; word-break: break-all; }
a { color: var(--info); }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(250px, 1fr)); gap: 12px; margin-top: 18px; }
.card { border: 1px solid var(--line); border-left: 6px solid var(--muted); border-radius: 8px; padding: 10px 14px; }
.card h3 { margin: 0 0 4px; font-size: 15px; }
.card p { margin: 0; }
.card a { text-decoration: none; color: inherit; }
.card.good { border-left-color: var(--good); }
.card.bad { border-left-color: var(--bad); background: #fff4f5; }
.card.warn { border-left-color: var(--warn); background: #fffaf0; }
.card.muted { border-left-color: var(--line); color: var(--muted); }
.badge { display: inline-block; white-space: nowrap; min-width: 3.2em; text-align: center; padding: 1px 8px; border-radius: 10px;
  font-size: 12px; font-weight: 700; letter-spacing: .02em; color: #fff; background: var(--muted); }
.badge.good { background: var(--good); }
.badge.bad { background: var(--bad); }
.badge.warn { background: #c08400; }
.badge.info { background: var(--info); }
.badge.muted { background: #8a9099; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 3px 18px; margin: 10px 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.table-wrap { overflow-x: auto; margin: 8px 0 14px; }
table { border-collapse: collapse; width: 100%; font-size: 14px; }
th, td { text-align: left; vertical-align: top; padding: 5px 9px; border-bottom: 1px solid var(--line); }
th { background: var(--bg-soft); font-weight: 650; white-space: nowrap; }
td { overflow-wrap: anywhere; }
td.num, .bench-table td:nth-child(2), .bench-table td:nth-child(3), .bench-table td:nth-child(4) { white-space: nowrap; }
tr.failed td { background: #fff0f1; }
tr.failed td:first-child { box-shadow: inset 4px 0 0 var(--bad); }
tr.low td:first-child { box-shadow: inset 4px 0 0 #c08400; }
tr.skipped td { color: var(--muted); }
.alarm { background: var(--bad); color: #fff; border-radius: 8px; padding: 12px 16px; margin: 14px 0;
  box-shadow: 0 2px 0 #7a0016; }
.alarm .alarm-title { font-size: 18px; font-weight: 800; margin: 0 0 4px; text-transform: none; }
.alarm ul { margin: 4px 0 0; padding-left: 20px; }
.check-failed { color: var(--bad); font-weight: 700; }
.note { background: #fffaf0; border: 1px solid #f0d9a8; border-radius: 6px; padding: 6px 10px; }
.absent { color: var(--muted); font-style: italic; }
.hint { margin-top: 4px; }
article.finding { border: 1px solid var(--line); border-left: 6px solid var(--muted); border-radius: 8px;
  padding: 10px 14px; margin: 10px 0; }
article.finding.sev-error { border-left-color: var(--bad); }
article.finding.sev-warning { border-left-color: #c08400; }
article.finding.sev-info { border-left-color: var(--info); }
article.finding.sev-ok { border-left-color: var(--good); }
.finding-id { color: var(--muted); font-size: 13px; margin: 0 0 6px; }
ul.evidence { margin: 4px 0 8px; padding-left: 20px; }
.fix { margin: 6px 0 0; }
.layers td:first-child { white-space: nowrap; }
details summary { cursor: pointer; color: var(--info); }
figure.bench-chart { margin: 8px 0; overflow-x: auto; }
figure.bench-chart svg { max-width: 100%; height: auto; display: block; }
.bench-group { margin-bottom: 26px; }
footer { color: var(--muted); font-size: 12px; margin-top: 40px; border-top: 1px solid var(--line); padding-top: 8px; }
@media print { header.page { background: #fff; color: #000; } nav.toc { display: none; }
  .alarm { border: 3px solid var(--bad); } }
)css";

// 16 GT/s -> "PCIe 4.0"; other rates as GT/s.
std::string PcieSpeed(double gts) {
  static constexpr struct {
    double gts;
    const char* gen;
  } kGens[] = {{2.5, "1.0"}, {5.0, "2.0"}, {8.0, "3.0"}, {16.0, "4.0"}, {32.0, "5.0"}, {64.0, "6.0"}};
  for (const auto& g : kGens)
    if (gts > g.gts - 0.01 && gts < g.gts + 0.01) return std::string("PCIe ") + g.gen;
  char buf[32];
  std::snprintf(buf, sizeof buf, "PCIe %.1f GT/s", gts);
  return buf;
}

std::string PcieLinkOf(const Snapshot& s, const std::string& address) {
  for (const auto& d : s.pci_devices) {
    if (d.address != address) continue;
    const PcieLink& l = d.link;
    if (!l.current_speed_gts) return "n/a";
    std::string t =
        PcieSpeed(*l.current_speed_gts) + (l.current_width ? " x" + std::to_string(*l.current_width) : "");
    if (l.max_speed_gts && (*l.max_speed_gts != *l.current_speed_gts || l.max_width != l.current_width))
      t += " (max " + PcieSpeed(*l.max_speed_gts) + (l.max_width ? " x" + std::to_string(*l.max_width) : "") +
           ")";
    return t;
  }
  return "n/a";
}

BadgeKind SeverityKind(Severity s) {
  switch (s) {
    case Severity::kOk:
      return BadgeKind::kGood;
    case Severity::kInfo:
      return BadgeKind::kInfo;
    case Severity::kWarning:
      return BadgeKind::kWarn;
    case Severity::kError:
      return BadgeKind::kBad;
  }
  return BadgeKind::kMuted;
}

std::string Card(const char* cls, const char* target, const std::string& title, const std::string& text) {
  return "<div class=\"card " + std::string(cls) + "\"><a href=\"#" + target + "\">" +
         Element("h3", "", title) + Element("p", "", text) + "</a></div>\n";
}

// ---- summary ----

std::string SummarySection(const HtmlReportInput& in) {
  std::string out = "<section id=\"summary\" class=\"report-section\">\n";
  size_t errors = 0, warnings = 0, infos = 0;
  for (const auto& f : in.findings) {
    errors += f.severity == Severity::kError;
    warnings += f.severity == Severity::kWarning;
    infos += f.severity == Severity::kInfo;
  }
  out += "<div class=\"cards\">\n";
  std::string check = errors + warnings == 0 ? "no problems found"
                                             : Plural(errors, "error") + ", " + Plural(warnings, "warning");
  if (infos) check += " (" + Plural(infos, "note") + ")";
  out += Card(errors ? "bad" : warnings ? "warn" : "good", "findings", "Check", check);

  if (!in.verify) {
    out += Card("muted", "verify", "Verify", "not included");
  } else {
    size_t failed = 0;
    for (const auto& g : in.verify->gates) failed += g.status == GateStatus::kFail;
    std::string text = VerifyVerdict(*in.verify);
    out += Card(failed || !in.verify->device ? "bad" : "good", "verify", "Verify", text);
  }

  if (!in.bench) {
    out += Card("muted", "bench", "Bench", "not included");
  } else {
    size_t low = 0, failed_verdict = 0;
    for (const auto& b : in.bench->benchmarks) {
      low += b.verdict == BenchVerdict::kLow;
      failed_verdict += b.verdict == BenchVerdict::kFailed;
    }
    const size_t failed_checks = FailedBenchChecks(*in.bench).size();
    std::string text = Plural(in.bench->benchmarks.size(), "benchmark");
    if (failed_checks) text += ", " + std::to_string(failed_checks) + " with a FAILED result check";
    if (failed_verdict) text += ", " + std::to_string(failed_verdict) + " failed";
    if (low) text += ", " + std::to_string(low) + " below spec";
    if (!failed_checks && !failed_verdict && !low) text += ", all as expected";
    out += Card(failed_checks || failed_verdict ? "bad" : low ? "warn" : "good", "bench", "Bench", text);
  }
  return out + "</div>\n</section>\n";
}

// ---- machine ----

// The machine's facts: host, OS, WSL2, container, CPU, memory, disk and the drivers found.
std::vector<std::pair<std::string, std::string>> MachineFacts(const Snapshot& s) {
  std::string os = OrNa(s.os.distro_name);
  if (!s.os.kernel_release.empty()) os += ", kernel " + s.os.kernel_release;
  std::string cpu = OrNa(s.cpu.model);
  if (s.cpu.physical_cores || s.cpu.logical_cores) {
    cpu += " (";
    if (s.cpu.physical_cores) cpu += std::to_string(*s.cpu.physical_cores) + " cores";
    if (s.cpu.physical_cores && s.cpu.logical_cores) cpu += ", ";
    if (s.cpu.logical_cores) cpu += std::to_string(*s.cpu.logical_cores) + " threads";
    cpu += ")";
  }
  std::string mem = BytesOrNa(s.memory.total_bytes) + " total";
  if (s.memory.available_bytes) mem += ", " + FormatBytes(*s.memory.available_bytes) + " available";
  std::string disk = BytesOrNa(s.disk.free_bytes) + " free";
  if (s.disk.total_bytes) disk += " of " + FormatBytes(*s.disk.total_bytes);
  if (!s.disk.path.empty()) disk += " (" + s.disk.path + ")";
  std::vector<std::pair<std::string, std::string>> facts = {{"Host", OrNa(s.host_name)}, {"OS", os}};
  facts.push_back({"WSL2", s.os.wsl ? "yes" : "no"});
  if (s.os.container) facts.push_back({"Container", *s.os.container});
  facts.push_back({"CPU", cpu});
  facts.push_back({"Memory", mem});
  facts.push_back({"Disk", disk});
  if (s.nvidia.driver_version) {
    std::string drv = *s.nvidia.driver_version;
    if (s.nvidia.cuda_driver_version) {
      const uint32_t v = *s.nvidia.cuda_driver_version;
      drv += " (runs CUDA up to " + std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10) + ")";
    }
    facts.push_back({"NVIDIA driver", drv});
  }
  if (s.amd.kfd_topology_present || s.amd.amdgpu_module_loaded) {
    std::string amd = s.amd.amdgpu_module_loaded ? "amdgpu loaded" : "amdgpu not loaded";
    if (s.amd.amdgpu_module_version) amd += " (DKMS " + *s.amd.amdgpu_module_version + ")";
    amd += s.amd.kfd_topology_present ? ", KFD: " + std::to_string(s.amd.kfd_nodes.size()) + " GPU node(s)"
                                      : ", no KFD";
    facts.push_back({"AMD driver", amd});
  }
  return facts;
}

// The GPUs table.
std::string HtmlGpuTable(const Snapshot& s) {
  std::string out;
  out += Element("h3", "", "GPUs (" + std::to_string(s.gpus.size()) + ")");
  if (s.gpus.empty()) {
    out += "<p class=\"absent\">No GPU was found.</p>\n";
  } else {
    HtmlTable t("gpus", {"#", "PCI", "ID", "Vendor", "Name", "Arch", "Family", "Type", "VRAM", "CUs/SMs",
                         "Driver", "Link"});
    size_t i = 0;
    for (const auto& g : s.gpus) {
      const std::string type = g.integrated ? (*g.integrated ? "integrated" : "discrete") : "n/a";
      const PciDevice* pci = nullptr;
      for (const auto& d : s.pci_devices)
        if (d.address == g.pci_address) pci = &d;
      t.AddRow({std::to_string(i++), OrNa(g.pci_address),
                pci ? PciIdPair(pci->vendor_id, pci->device_id) : "n/a", VendorLabel(g.vendor), OrNa(g.name),
                OrNa(g.architecture), OrNa(g.family), type, BytesOrNa(g.vram_bytes),
                g.compute_units ? std::to_string(*g.compute_units) : "n/a",
                g.driver.empty() ? "none" : g.driver, PcieLinkOf(s, g.pci_address)});
    }
    out += t.Render();
  }

  return out;
}

// The GPU runtimes and the Python environments found.
std::string HtmlRuntimesAndEnvironments(const Snapshot& s) {
  std::string out;
  out += Element("h3", "", "GPU runtimes");
  if (s.runtimes.empty()) {
    out += "<p class=\"absent\">None found (no ROCm, HIP, CUDA toolkit or libcuda).</p>\n";
  } else {
    HtmlTable t("runtimes", {"Kind", "Version", "Path"});
    for (const auto& r : s.runtimes) t.AddRow({r.kind, OrNa(r.version), Raw{Element("code", "", r.path)}});
    out += t.Render();
  }

  out += Element("h3", "", "Python environments");
  if (s.python_envs.empty()) {
    out += "<p class=\"absent\">None found.</p>\n";
  } else {
    HtmlTable t("python-envs", {"Environment", "Kind", "Python", "PyTorch", "Built for"});
    for (const auto& e : s.python_envs) {
      std::string built = "n/a";
      if (e.torch)
        built = !e.torch->cuda.empty()  ? "CUDA " + e.torch->cuda
                : !e.torch->hip.empty() ? "ROCm/HIP " + e.torch->hip
                                        : "CPU only";
      t.AddRow({Raw{Element("code", "", e.path)}, e.kind, OrNa(e.python_version),
                e.torch ? OrNa(e.torch->version) : "not installed", built});
    }
    out += t.Render();
  }

  return out;
}

std::string HtmlMachineSection(const HtmlReportInput& in) {
  const Snapshot& s = in.snapshot;
  std::string out = "<section id=\"machine\" class=\"report-section\">\n<h2>Machine</h2>\n";
  if (!s.live_machine)
    out += "<p class=\"note\">Not this machine: read from " +
           EscapeHtml(in.machine_source.empty() ? s.sysroot : in.machine_source) + ".</p>\n";
  out += FactList(MachineFacts(s));
  out += HtmlGpuTable(s);
  out += HtmlRuntimesAndEnvironments(s);
  if (!s.environment.empty()) {
    out += Element("h3", "", "Environment variables that matter");
    HtmlTable t("environment", {"Variable", "Value"});
    for (const auto& [k, v] : s.environment)
      t.AddRow({Raw{Element("code", "", k)}, Raw{Element("code", "", v)}});
    out += t.Render();
  }
  if (!s.warnings.empty()) {
    out += Element("h3", "", "Inputs that could not be read");
    out += "<ul>";
    for (const auto& w : s.warnings) out += "<li>" + EscapeHtml(w) + "</li>";
    out += "</ul>\n";
  }
  return out + "</section>\n";
}

// ---- findings ----

std::string FixBlock(const std::string& label, const std::string& summary, const std::vector<FixAction>& fix,
                     Shell shell) {
  std::string out = "<p class=\"fix\">" + Element("strong", "", label) + EscapeHtml(summary) + "</p>";
  std::string commands, manual;
  for (const auto& line : RenderFix(fix, shell)) {
    if (line.command)
      commands += (commands.empty() ? "" : "\n") + line.text;
    else
      manual += "<li>" + EscapeHtml(line.text) + "</li>";
  }
  if (!commands.empty()) out += "<pre><code>" + EscapeHtml(commands) + "</code></pre>";
  if (!manual.empty()) out += "<ul class=\"manual\">" + manual + "</ul>";
  return out;
}

std::string UnconfirmedNote(const Finding& f) {
  std::string where;
  for (const auto& u : f.unconfirmed) where += (where.empty() ? "" : ", ") + u;
  return "<p class=\"unconfirmed\">Unconfirmed: rests on " + EscapeHtml(where) +
         ", not yet compared with its source</p>";
}

std::string FindingCard(const Finding& f, Shell shell) {
  std::string out = "<article class=\"finding sev-" + std::string(ToString(f.severity)) + "\">";
  out += "<h4>" + Badge(SeverityKind(f.severity), ToString(f.severity)) + " " + EscapeHtml(f.title) + "</h4>";
  out += Element("p", "finding-id",
                 "id: " + f.id + " \xC2\xB7 " + LayerTitle(f.layer) +
                     (f.subject.empty() ? "" : " \xC2\xB7 " + f.subject));
  if (!f.evidence.empty()) {
    out += "<ul class=\"evidence\">";
    for (const auto& e : f.evidence) out += "<li>" + EscapeHtml(e) + "</li>";
    out += "</ul>";
  }
  if (!f.fix.empty() || !f.fix_summary.empty())
    out += FixBlock(std::string("Fix (") + ToString(shell) + "): ", f.fix_summary, f.fix, shell);
  for (const auto& alt : f.alternatives)
    out += FixBlock(std::string("Or (") + ToString(shell) + "): ", alt.summary, alt.fix, shell);
  if (!f.unconfirmed.empty()) out += UnconfirmedNote(f);
  if (!f.link.empty()) out += "<p class=\"source\">Source: " + LinkOrText(f.link, f.link) + "</p>";
  return out + "</article>\n";
}

std::string FindingsSection(const HtmlReportInput& in) {
  std::vector<Finding> findings = in.findings;
  SortWorstFirst(findings);
  std::string out =
      "<section id=\"findings\" class=\"report-section\">\n<h2>Check: findings, worst first</h2>\n";
  HtmlTable layers("layers", {"Layer", "", "Worst finding"});
  for (const auto& l : SummarizeLayers(findings))
    layers.AddRow({LayerTitle(l.layer), Raw{Badge(SeverityKind(l.severity), ToString(l.severity))}, l.text});
  out += layers.Render();
  size_t problems = 0;
  for (const auto& f : findings) {
    if (f.severity == Severity::kOk) continue;
    out += FindingCard(f, in.shell);
    ++problems;
  }
  if (problems == 0) out += "<p>No problem found.</p>\n";
  std::string ok_list;
  size_t ok = 0;
  for (const auto& f : findings) {
    if (f.severity != Severity::kOk) continue;
    ++ok;
    ok_list +=
        "<li>" + Badge(BadgeKind::kGood, "ok") + " " + EscapeHtml(f.title) + " " + Element("code", "", f.id);
    if (!f.evidence.empty()) {
      ok_list += "<ul class=\"evidence\">";
      for (const auto& e : f.evidence) ok_list += "<li>" + EscapeHtml(e) + "</li>";
      ok_list += "</ul>";
    }
    if (!f.unconfirmed.empty()) ok_list += UnconfirmedNote(f);
    ok_list += "</li>\n";
  }
  if (ok)
    out += "<details class=\"checked-fine\"><summary>Checked and fine (" + std::to_string(ok) +
           ")</summary><ul>\n" + ok_list + "</ul></details>\n";
  return out + "</section>\n";
}

}  // namespace

std::string RenderHtmlReport(const HtmlReportInput& in) {
  const Snapshot& s = in.snapshot;
  const std::string host = s.host_name.empty() ? std::string("this machine") : s.host_name;
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src "
      "'unsafe-inline'\">\n"
      "<meta name=\"generator\" content=\"gpudoctor " +
      EscapeHtmlAttribute(GPUDOCTOR_VERSION) + "\">\n<title>gpudoctor report: " + EscapeHtml(host) +
      "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n";
  out += "<header class=\"page\">\n<h1>gpudoctor report: " + EscapeHtml(host) + "</h1>\n<p>";
  std::string meta = "gpudoctor " + std::string(GPUDOCTOR_VERSION);
  if (!in.generated_at.empty()) meta = "Made " + in.generated_at + " by " + meta;
  meta +=
      " \xC2\xB7 machine: " + (in.machine_source.empty() ? std::string("this machine") : in.machine_source);
  if (!in.knowledge_as_of.empty()) meta += " \xC2\xB7 knowledge base as of " + in.knowledge_as_of;
  out += EscapeHtml(meta) + "</p>\n";
  out +=
      "<nav class=\"toc\"><a href=\"#machine\">Machine</a><a href=\"#findings\">Check</a>"
      "<a href=\"#verify\">Verify</a><a href=\"#bench\">Bench</a>" +
      std::string(in.tune ? "<a href=\"#tune\">Tune</a>" : "") + "</nav>\n</header>\n<main>\n";
  out += SummarySection(in);
  out += HtmlMachineSection(in);
  out += FindingsSection(in);
  out += RenderVerifySection(in.verify, in.verify_origin, s);
  out += RenderBenchSection(in.bench, in.bench_origin, s);
  if (in.tune) out += RenderTuneSection(*in.tune, in.tune_origin);
  out += "<footer>Made by gpudoctor " + EscapeHtml(GPUDOCTOR_VERSION) +
         ". This page is one file: no script, nothing loaded from the network.</footer>\n";
  return out + "</main>\n</body>\n</html>\n";
}

}  // namespace gpudoctor
