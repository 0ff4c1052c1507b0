// The build-file scan of `gpudoctor port` (build_scan.h).
#include "port/build_scan.h"

namespace gpudoctor {

bool IsBuildFileName(std::string_view name) {
  auto ends = [&](std::string_view tail) {
    return name.size() >= tail.size() && name.substr(name.size() - tail.size()) == tail;
  };
  return name == "CMakeLists.txt" || name == "Makefile" || name == "makefile" || name == "GNUmakefile" ||
         ends(".cmake") || ends(".mk");
}

PortFileReport ScanBuildFile(std::string_view text, const PortMap& map) {
  PortFileReport report;
  report.build_file = true;
  uint32_t line = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view l = text.substr(start, end - start);
    ++line;
    size_t first = l.find_first_not_of(" \t");
    bool comment = first != std::string_view::npos && l[first] == '#';
    for (const BuildFlagRule& rule : comment ? std::vector<BuildFlagRule>{} : map.build_flags) {
      size_t at = l.find(rule.pattern);
      if (at == std::string_view::npos) continue;
      report.findings.push_back(PortFinding{PortFindingKind::kBuildFlag, Severity::kWarning, line,
                                            static_cast<uint32_t>(at + 1), rule.pattern,
                                            "CUDA-only build setting '" + rule.pattern + "'", rule.advice});
      break;
    }
    start = end + 1;
  }
  report.lines = line;
  return report;
}

}  // namespace gpudoctor
