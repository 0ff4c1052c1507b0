// The report of `gpudoctor port` (port_report.h): per file the references converted by API family and every
// finding with line:column and what to do, then the totals.
#include "port/port_report.h"

#include <nlohmann/json.hpp>

namespace gpudoctor {

using Json = nlohmann::ordered_json;

std::string_view ToString(PortFindingKind kind) {
  switch (kind) {
    case PortFindingKind::kUnsupported:
      return "unsupported";
    case PortFindingKind::kNewerHip:
      return "newer_hip";
    case PortFindingKind::kRemovedHip:
      return "removed_hip";
    case PortFindingKind::kWarpSize:
      return "warp_size";
    case PortFindingKind::kFullMask:
      return "full_mask";
    case PortFindingKind::kMaskDropped:
      return "mask_dropped";
    case PortFindingKind::kBallotWidth:
      return "ballot_width";
    case PortFindingKind::kInlinePtx:
      return "inline_ptx";
    case PortFindingKind::kTexture:
      return "texture";
    case PortFindingKind::kCooperativeGroups:
      return "cooperative_groups";
    case PortFindingKind::kLaunchBounds:
      return "launch_bounds";
    case PortFindingKind::kUserName:
      return "user_name";
    case PortFindingKind::kLaunchKept:
      return "launch_kept";
    case PortFindingKind::kBuildFlag:
      return "build_flag";
    case PortFindingKind::kCacheHint:
      return "cache_hint";
    case PortFindingKind::kCudaArch:
      return "cuda_arch";
    case PortFindingKind::kWave64:
      return "wave64";
    case PortFindingKind::kCgRewritten:
      return "cg_rewritten";
    case PortFindingKind::kOlderHip:
      return "older_hip";
  }
  return "unsupported";
}

std::map<std::string, uint64_t> PortReport::TotalConversions() const {
  std::map<std::string, uint64_t> total;
  for (const PortFileReport& f : files)
    for (const auto& [family, n] : f.conversions) total[family] += n;
  return total;
}

std::map<std::string, uint64_t> PortReport::FindingCounts() const {
  std::map<std::string, uint64_t> total;
  for (const PortFileReport& f : files)
    for (const PortFinding& x : f.findings) ++total[std::string(ToString(x.kind))];
  return total;
}

uint64_t PortReport::Lines() const {
  uint64_t n = 0;
  for (const PortFileReport& f : files) n += f.lines;
  return n;
}

size_t PortReport::FilesWithErrors() const {
  size_t n = 0;
  for (const PortFileReport& f : files) n += f.error.empty() ? 0 : 1;
  return n;
}

size_t PortReport::FilesWritten() const {
  size_t n = 0;
  for (const PortFileReport& f : files) n += !f.output.empty() && !f.kept_existing ? 1 : 0;
  return n;
}

namespace {

std::string CountList(const std::map<std::string, uint64_t>& counts) {
  std::string out;
  for (const auto& [name, n] : counts) out += (out.empty() ? "" : ", ") + name + " " + std::to_string(n);
  return out.empty() ? "none" : out;
}

// Pads to the column width, and always leaves one space: a long "10850:28" never runs into what follows.
std::string Pad(std::string s, size_t width) {
  s.append(s.size() < width ? width - s.size() : 1, ' ');
  return s;
}

}  // namespace

std::string RenderPortText(const PortReport& report) {
  std::string out;
  size_t changed = 0;
  for (const PortFileReport& f : report.files) changed += f.changed ? 1 : 0;
  out += "port: " + std::to_string(report.files.size()) + " file(s), " + std::to_string(report.Lines()) +
         " lines, " + std::to_string(changed) + " changed";
  if (report.hip_version) out += ", for HIP " + report.hip_version->ToString();
  if (report.examine) out += " (examined only: nothing written)";
  out += "\n";
  for (const std::string& note : report.notes) out += "note: " + note + "\n";
  for (const PortFileReport& f : report.files) {
    out += "\n" + f.path;
    if (!f.output.empty()) out += " -> " + f.output;
    if (f.kept_existing) out += " (exists: kept, --skip-existing)";
    out += "\n";
    if (!f.error.empty()) {
      out += "  not translated: " + f.error + "\n";
      continue;
    }
    if (!f.build_file) {
      out += "  converted: " + CountList(f.conversions) + "\n";
      if (f.launches > 0) out += "  kernel launches: " + std::to_string(f.launches) + "\n";
      if (f.runtime_include_added)
        out +=
            "  added #include <hip/hip_runtime.h> (nvcc includes its runtime implicitly; hipcc does not)\n";
    }
    if (f.build)
      out += f.build->compiled ? "  hipcc: compiles\n"
                               : "  hipcc: does not compile: " + f.build->first_error + "\n";
    for (const PortFinding& x : f.findings) {
      std::string where = std::to_string(x.line) + ":" + std::to_string(x.column);
      out += "  " + Pad(where, 8) + Pad(std::string(ToString(x.severity)), 9) +
             Pad(std::string(ToString(x.kind)), 19) + x.message + "\n";
      if (!x.advice.empty()) out += std::string(38, ' ') + "fix: " + x.advice + "\n";
    }
  }
  out += "\nTotal\n  converted: " + CountList(report.TotalConversions()) + "\n";
  out += "  findings:  " + CountList(report.FindingCounts()) + "\n";
  if (size_t bad = report.FilesWithErrors(); bad > 0)
    out += "  " + std::to_string(bad) + " file(s) could not be translated\n";
  if (report.interrupted)
    out += "  interrupted: stopped after writing " + std::to_string(report.FilesWritten()) + " of " +
           std::to_string(report.sources) + " source file(s), each one whole\n";
  if (const auto& b = report.build_check)
    out += "  build:     " + std::to_string(b->compiled) + " of " + std::to_string(b->files) +
           " source(s) compile with " + b->hipcc + " -c --offload-arch=" + b->offload_arch + "\n";
  return out;
}

std::string RenderPortJson(const PortReport& report) {
  Json doc;
  doc["schema"] = "gpudoctor.port/1";
  doc["tool_version"] = report.tool_version;
  doc["hip_version"] = report.hip_version ? Json(report.hip_version->ToString()) : Json(nullptr);
  doc["examine"] = report.examine;
  doc["interrupted"] = report.interrupted;
  doc["notes"] = report.notes;
  Json files = Json::array();
  for (const PortFileReport& f : report.files) {
    Json jf;
    jf["path"] = f.path;
    jf["output"] = f.output.empty() ? Json(nullptr) : Json(f.output);
    jf["error"] = f.error.empty() ? Json(nullptr) : Json(f.error);
    jf["kept_existing"] = f.kept_existing;
    jf["build_file"] = f.build_file;
    jf["lines"] = f.lines;
    jf["changed"] = f.changed;
    jf["runtime_include_added"] = f.runtime_include_added;
    jf["kernel_launches"] = f.launches;
    jf["conversions"] = f.conversions;
    Json findings = Json::array();
    for (const PortFinding& x : f.findings)
      findings.push_back(Json{{"kind", ToString(x.kind)},
                              {"severity", ToString(x.severity)},
                              {"line", x.line},
                              {"column", x.column},
                              {"name", x.name},
                              {"message", x.message},
                              {"advice", x.advice}});
    jf["findings"] = std::move(findings);
    jf["build"] = f.build
                      ? Json{{"compiled", f.build->compiled},
                             {"first_error", f.build->compiled ? Json(nullptr) : Json(f.build->first_error)}}
                      : Json(nullptr);
    files.push_back(std::move(jf));
  }
  doc["files"] = std::move(files);
  doc["total"] = Json{{"files", report.files.size()},
                      {"lines", report.Lines()},
                      {"files_not_translated", report.FilesWithErrors()},
                      {"files_written", report.FilesWritten()},
                      {"conversions", report.TotalConversions()},
                      {"findings", report.FindingCounts()}};
  doc["build_check"] = report.build_check ? Json{{"hipcc", report.build_check->hipcc},
                                                 {"offload_arch", report.build_check->offload_arch},
                                                 {"files", report.build_check->files},
                                                 {"compiled", report.build_check->compiled}}
                                          : Json(nullptr);
  return doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

int PortExitCode(const PortReport& report) {
  if (report.FilesWithErrors() > 0) return 3;
  int code = 0;
  for (const PortFileReport& f : report.files)
    if (f.build && !f.build->compiled) code = 2;  // --check-build: it does not build
  for (const PortFileReport& f : report.files)
    for (const PortFinding& x : f.findings)
      code = std::max(code, x.severity == Severity::kError ? 2 : x.severity == Severity::kWarning ? 1 : 0);
  return code;
}

}  // namespace gpudoctor
