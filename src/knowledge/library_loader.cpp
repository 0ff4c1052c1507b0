// Readers of shared_libraries.toml: [[shared_library]] (which component ships a library or DLL, and how
// each install route provides it), [[cxx_runtime_version]] (GCC release per libstdc++ symbol version)
// and [[glibc_release]] (glibc of common distributions).
#include <algorithm>

#include "knowledge/section_parsers.h"

namespace gpudoctor {

void ParseSharedLibrary(EntryReader& r, KnowledgeDb& db) {
  LabelFromField(r, "component");
  SharedLibrary l;
  l.names = r.TextList("names", Need::kRequired);
  l.component = r.Text("component", Need::kRequired).value_or("");
  l.family = r.Text("family", Need::kRequired).value_or("");
  l.version_label = r.Text("version_label", Need::kOptional).value_or("");
  l.pip = r.Text("pip", Need::kOptional).value_or("");
  l.conda = r.Text("conda", Need::kOptional).value_or("");
  l.system = r.Text("system", Need::kOptional).value_or("");
  l.driver = r.Boolean("driver", Need::kOptional).value_or(false);
  l.provenance = r.ReadProvenance();
  r.Finish();
  for (const std::string& name : l.names) {
    if (std::count(name.begin(), name.end(), '*') > 1)
      r.Error(0, "name '" + name + "' has more than one '*'");
    if (name.find_first_of("/\\ ") != std::string::npos)
      r.Error(0, "name '" + name + "' must be a file name, without a folder or a space");
  }
  if (l.driver && (!l.pip.empty() || !l.conda.empty()))
    r.Error(0, "a driver library comes with the driver: it has no pip or conda package");
  if (!l.component.empty() && !l.names.empty()) db.shared_libraries.push_back(std::move(l));
}

void ParseCxxRuntimeVersion(EntryReader& r, KnowledgeDb& db) {
  LabelFromField(r, "symbol_version");
  CxxRuntimeVersion v;
  v.symbol_version = r.Text("symbol_version", Need::kRequired).value_or("");
  auto gcc = r.VersionText("gcc", Need::kRequired);
  v.provenance = r.ReadProvenance();
  r.Finish();
  if (v.symbol_version.rfind("GLIBCXX_3.4.", 0) != 0 && v.symbol_version.rfind("CXXABI_1.3.", 0) != 0)
    r.Error(0, "symbol_version must be GLIBCXX_3.4.N or CXXABI_1.3.N");
  if (!gcc || v.symbol_version.empty()) return;
  v.gcc = gcc->ToString();
  db.cxx_runtime_versions.push_back(std::move(v));
}

void ParseGlibcRelease(EntryReader& r, KnowledgeDb& db) {
  LabelFromField(r, "glibc");
  GlibcRelease g;
  auto glibc = r.VersionText("glibc", Need::kRequired);
  g.distributions = r.TextList("distributions", Need::kRequired);
  g.provenance = r.ReadProvenance();
  r.Finish();
  if (!glibc) return;
  if (glibc->parts().size() != 2 || glibc->parts()[0] != 2)
    r.Error(0, "glibc must be a version such as \"2.35\"");
  g.glibc = *glibc;
  db.glibc_releases.push_back(std::move(g));
}

}  // namespace gpudoctor
