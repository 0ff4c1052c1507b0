// Reads the add-on sections of addon_libraries.toml: [[addon_library]] (what each add-on is and what
// proves its GPU build), [[addon_gpu_floor]] (the oldest NVIDIA GPU its code runs on),
// [[addon_torch_build]] (the torch each release pins) and [[addon_cuda_build]] (the CUDA of each release
// range). References between them are checked in knowledge_checks.cpp.
#include <string>

#include "core/strings.h"
#include "knowledge/section_parsers.h"

namespace gpudoctor {
namespace {

const std::vector<std::string_view> kSeverities = {"info", "warning", "error"};

// Distribution names as the rules compare them: PEP 503 normalized, so a typo of the form is an error.
std::vector<std::string> Distributions(EntryReader& r, std::string_view key, Need need) {
  std::vector<std::string> names = r.TextList(key, need);
  for (const std::string& n : names) {
    if (NormalizeDistName(n) != n)
      r.Error(0, std::string(key) + " entry '" + n + "' must be written normalized: '" +
                     NormalizeDistName(n) + "'");
  }
  return names;
}

std::vector<Platform> Platforms(EntryReader& r, std::string_view key) {
  std::vector<Platform> out;
  for (const std::string& os : r.TextList(key, Need::kOptional)) {
    if (auto platform = PlatformFromName(os))
      out.push_back(*platform);
    else
      r.Error(0, std::string(key) + " entry '" + os + "' must be linux, windows or wsl");
  }
  return out;
}

}  // namespace

void ParseAddonLibrary(EntryReader& r, KnowledgeDb& db) {
  LabelFromField(r, "name");
  AddonLibrary a;
  a.name = r.Text("name", Need::kRequired).value_or("");
  a.distributions = Distributions(r, "distributions", Need::kRequired);
  a.pins_torch = r.Boolean("pins_torch", Need::kOptional).value_or(false);
  a.torch_index = r.Boolean("torch_index", Need::kOptional).value_or(false);
  a.shadowed_by = Distributions(r, "shadowed_by", Need::kOptional);
  a.gpu_files = r.TextList("gpu_files", Need::kOptional);
  a.gpu_folders = r.TextList("gpu_folders", Need::kOptional);
  a.gpu_plugins = Distributions(r, "gpu_plugins", Need::kOptional);
  a.gpu_version_tags = r.TextList("gpu_version_tags", Need::kOptional);
  if (auto s = r.Choice("cpu_only", Need::kOptional, kSeverities))
    a.cpu_only = SeverityFromString(kSeverities[*s]).value_or(Severity::kWarning);
  a.gpu_platforms = Platforms(r, "gpu_platforms");
  a.install_cuda = r.Text("install_cuda", Need::kOptional).value_or("");
  a.install_rocm = r.Text("install_rocm", Need::kOptional).value_or("");
  a.provenance = r.ReadProvenance();
  r.Finish();
  const bool proof = !a.gpu_folders.empty() || !a.gpu_plugins.empty() || !a.gpu_version_tags.empty();
  if (a.cpu_only && !proof)
    r.Error(0, "cpu_only needs what proves a GPU build: gpu_folders, gpu_plugins or gpu_version_tags");
  if (a.cpu_only && a.install_cuda.empty() && a.install_rocm.empty())
    r.Error(0, "cpu_only needs the GPU build's requirement: install_cuda or install_rocm");
  if (a.cpu_only && a.gpu_platforms.empty()) r.Error(0, "cpu_only needs gpu_platforms");
  if (!a.name.empty()) db.addon_libraries.push_back(std::move(a));
}

void ParseAddonGpuFloor(EntryReader& r, KnowledgeDb& db) {
  LabelFromField(r, "addon");
  AddonGpuFloor f;
  f.addon = r.Text("addon", Need::kRequired).value_or("");
  auto cc = r.VersionText("cc", Need::kRequired);
  f.from = r.VersionText("from", Need::kOptional);
  if (auto s = r.Choice("severity", Need::kRequired, kSeverities))
    f.severity = SeverityFromString(kSeverities[*s]).value_or(Severity::kWarning);
  f.part = r.Text("part", Need::kOptional).value_or("");
  f.fallback = r.Text("fallback", Need::kRequired).value_or("");
  f.provenance = r.ReadProvenance();
  r.Finish();
  if (f.severity == Severity::kError) r.Error(0, "severity of a GPU floor is info or warning");
  if (cc && cc->parts().size() != 2) r.Error(0, "cc must be a compute capability such as \"8.0\"");
  if (f.addon.empty() || !cc) return;
  f.cc = *cc;
  db.addon_gpu_floors.push_back(std::move(f));
}

void ParseAddonTorchBuild(EntryReader& r, KnowledgeDb& db) {
  const TomlNode* addon = r.Peek("addon");
  const TomlNode* version = r.Peek("version");
  if (addon != nullptr && version != nullptr) r.SetLabel(addon->text + " " + version->text);
  AddonTorchBuild b;
  b.addon = r.Text("addon", Need::kRequired).value_or("");
  b.version = r.Text("version", Need::kRequired).value_or("");
  auto torch = r.VersionText("torch", Need::kRequired);
  b.provenance = r.ReadProvenance();
  r.Finish();
  if (!b.version.empty() && !Version::ParseLeading(b.version))
    r.Error(0, "version '" + b.version + "' does not start with a release number");
  if (torch && torch->parts().size() != 3) r.Error(0, "torch must be an exact release such as \"2.5.1\"");
  if (b.addon.empty() || b.version.empty() || !torch) return;
  b.torch = *torch;
  db.addon_torch_builds.push_back(std::move(b));
}

void ParseAddonCudaBuild(EntryReader& r, KnowledgeDb& db) {
  const TomlNode* addon = r.Peek("addon");
  const TomlNode* from = r.Peek("from");
  if (addon != nullptr && from != nullptr) r.SetLabel(addon->text + " " + from->text);
  AddonCudaBuild c;
  c.addon = r.Text("addon", Need::kRequired).value_or("");
  auto first = r.VersionText("from", Need::kRequired);
  c.until = r.VersionText("until", Need::kOptional);
  auto cuda = r.VersionText("cuda", Need::kRequired);
  c.cudnn = r.VersionText("cudnn", Need::kOptional);
  c.provenance = r.ReadProvenance();
  r.Finish();
  if (first && c.until && !(*first < *c.until)) r.Error(0, "until must be a later release than from");
  if (c.addon.empty() || !first || !cuda) return;
  c.from = *first;
  c.cuda = *cuda;
  db.addon_cuda_builds.push_back(std::move(c));
}

}  // namespace gpudoctor
