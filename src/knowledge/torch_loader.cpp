// Reads the PyTorch sections: [[torch_release]], [[torch_wheel]] and [[torch_build_gfx]]
// (pytorch_wheels.toml), [[torch_route]] and [[package_index]] (pytorch_routes.toml) and
// [[torch_companion]] (torch_companions.toml).
#include <algorithm>
#include <string>

#include "core/strings.h"
#include "knowledge/section_parsers.h"
#include "knowledge/wheel_variant.h"

namespace gpudoctor {
namespace {

constexpr std::string_view kPytorchIndex = "https://download.pytorch.org/whl/";

// "12.0+PTX" -> {12.0, ptx}
std::optional<CompiledCudaArch> ParseArch(std::string_view text) {
  CompiledCudaArch a;
  constexpr std::string_view kPtx = "+PTX";
  if (EndsWith(text, kPtx)) {
    a.ptx = true;
    text.remove_suffix(kPtx.size());
  }
  auto cc = Version::Parse(text);
  if (!cc || cc->parts().size() != 2) return std::nullopt;
  a.cc = *cc;
  return a;
}

const std::vector<std::string_view> kVendors = {"amd", "nvidia", "any"};
const std::vector<std::string_view> kStatuses = {"official",  "preview", "nightly",
                                                 "community", "legacy",  "superseded"};

}  // namespace

const char* ToString(RouteStatus s) {
  return kStatuses[static_cast<size_t>(s)].data();
}

void ParseTorchRelease(EntryReader& r, KnowledgeDb& db) {
  LabelFromField(r, "version");
  TorchRelease t;
  auto version = r.VersionText("version", Need::kRequired);
  t.date = r.Date("date", Need::kRequired).value_or("");
  t.python = r.TextList("python", Need::kRequired);
  for (const std::string& p : t.python) {
    if (!Version::Parse(p)) r.Error(0, "python '" + p + "' is not a version such as \"3.12\"");
  }
  t.provenance = r.ReadProvenance();
  r.Finish();
  if (!version) return;
  t.version = *version;
  db.torch_releases.push_back(std::move(t));
}

void ParseTorchWheel(EntryReader& r, KnowledgeDb& db) {
  const TomlNode* torch = r.Peek("torch");
  const TomlNode* variant_node = r.Peek("variant");
  if (torch != nullptr && variant_node != nullptr) r.SetLabel(torch->text + " " + variant_node->text);
  TorchWheel w;
  auto version = r.VersionText("torch", Need::kRequired);
  w.variant = r.Text("variant", Need::kRequired).value_or("");
  w.cuda = r.VersionText("cuda", Need::kOptional);
  w.rocm = r.VersionText("rocm", Need::kOptional);
  w.index_url = r.Text("index_url", Need::kOptional).value_or("");
  for (const std::string& a : r.TextList("cuda_archs", Need::kOptional)) {
    if (auto arch = ParseArch(a))
      w.cuda_archs.push_back(*arch);
    else
      r.Error(0, "cuda_archs entry '" + a + "' is not like \"8.6\" or \"12.0+PTX\"");
  }
  w.gfx = r.TextList("gfx", Need::kOptional);
  w.provenance = r.ReadProvenance();
  r.Finish();
  if (w.cuda.has_value() == w.rocm.has_value()) r.Error(0, "needs exactly one of cuda and rocm");
  if (w.cuda && w.cuda_archs.empty()) r.Error(0, "a CUDA wheel needs cuda_archs");
  if (w.rocm && w.gfx.empty()) r.Error(0, "a ROCm wheel needs gfx");
  if (w.cuda && CudaOfWheelVariant(w.variant) != w.cuda)
    r.Error(0, "variant does not match cuda " + w.cuda->ToString());
  if (w.rocm && w.variant != "rocm" + w.rocm->ToString())
    r.Error(0, "variant does not match rocm " + w.rocm->ToString());
  if (!version || w.variant.empty()) return;
  w.torch = *version;
  if (w.index_url.empty()) w.index_url = std::string(kPytorchIndex) + w.variant;
  db.torch_wheels.push_back(std::move(w));
}

void ParseTorchRoute(EntryReader& r, KnowledgeDb& db) {
  LabelFromField(r, "id");
  TorchRoute t;
  t.id = r.Text("id", Need::kRequired).value_or("");
  t.name = r.Text("name", Need::kRequired).value_or("");
  if (auto v = r.Choice("vendor", Need::kRequired, kVendors)) t.vendor = static_cast<RouteVendor>(*v);
  if (auto s = r.Choice("status", Need::kRequired, kStatuses)) t.status = static_cast<RouteStatus>(*s);
  for (const std::string& os : r.TextList("os", Need::kRequired)) {
    if (auto platform = PlatformFromName(os))
      t.os.push_back(*platform);
    else
      r.Error(0, "os '" + os + "' must be linux, windows or wsl");
  }
  t.gfx = r.TextList("gfx", Need::kOptional);
  t.gfx_any = r.Boolean("gfx_any", Need::kOptional).value_or(false);
  t.wheels = r.Text("wheels", Need::kOptional).value_or("");
  if (!t.wheels.empty() && t.wheels != "rocm" && t.wheels != "cuda")
    r.Error(0, "wheels must be rocm or cuda");
  t.python = r.TextList("python", Need::kRequired);
  t.driver = r.Text("driver", Need::kOptional).value_or("");
  if (const TomlNode* install = r.Node("install", TomlNode::Kind::kTable, Need::kRequired)) {
    EntryReader sub(*install, r.sink(), r.label() + " install");
    t.install.bash = sub.Text("bash", Need::kOptional).value_or("");
    t.install.powershell = sub.Text("powershell", Need::kOptional).value_or("");
    t.install.cmd = sub.Text("cmd", Need::kOptional).value_or("");
    sub.Finish();
    if (t.install.bash.empty() && t.install.powershell.empty() && t.install.cmd.empty()) {
      r.Error(install->line, "install has no command for any shell");
    }
  }
  t.provenance = r.ReadProvenance();
  r.Finish();
  if (t.vendor == RouteVendor::kAmd && t.gfx.empty() && !t.gfx_any)
    r.Error(0, "an AMD route needs gfx or gfx_any");
  if (!t.id.empty()) db.torch_routes.push_back(std::move(t));
}

void ParseTorchCompanion(EntryReader& r, KnowledgeDb& db) {
  LabelFromField(r, "torch");
  TorchCompanion c;
  auto torch = r.VersionText("torch", Need::kRequired);
  auto versions = [&](const char* key) {
    std::vector<Version> out;
    for (const std::string& v : r.TextList(key, Need::kRequired)) {
      if (auto parsed = Version::Parse(v); parsed && parsed->parts().size() == 2)
        out.push_back(*parsed);
      else
        r.Error(0, std::string(key) + " entry '" + v + "' is not a release series such as \"0.22\"");
    }
    return out;
  };
  c.torchvision = versions("torchvision");
  c.torchaudio = versions("torchaudio");
  c.provenance = r.ReadProvenance();
  r.Finish();
  if (!torch) return;
  if (torch->parts().size() != 2) r.Error(0, "torch must be a release series such as \"2.7\"");
  c.torch = *torch;
  db.torch_companions.push_back(std::move(c));
}

void ParseTorchBuildGfx(EntryReader& r, KnowledgeDb& db) {
  LabelFromField(r, "first_torch");
  TorchBuildGfx b;
  b.gfx = r.TextList("gfx", Need::kRequired);
  auto first = r.VersionText("first_torch", Need::kRequired);
  b.provenance = r.ReadProvenance();
  r.Finish();
  if (!first) return;
  if (first->parts().size() != 2) r.Error(0, "first_torch must be a release series such as \"2.7\"");
  b.first_torch = *first;
  db.torch_build_gfx.push_back(std::move(b));
}

void ParseTorchPypiDefault(EntryReader& r, KnowledgeDb& db) {
  LabelFromField(r, "torch");
  TorchPypiDefault d;
  auto torch = r.VersionText("torch", Need::kRequired);
  d.variant = r.Text("variant", Need::kRequired).value_or("");
  d.provenance = r.ReadProvenance();
  r.Finish();
  auto cuda = CudaOfWheelVariant(d.variant);
  if (!cuda) r.Error(0, "variant must be a CUDA variant such as \"cu130\"");
  if (!torch || !cuda) return;
  if (torch->parts().size() != 2) r.Error(0, "torch must be a release series such as \"2.11\"");
  d.torch = *torch;
  d.cuda = *cuda;
  db.torch_pypi_defaults.push_back(std::move(d));
}

void ParsePackageIndex(EntryReader& r, KnowledgeDb& db) {
  LabelFromField(r, "url");
  PackageIndex p;
  p.url = r.Text("url", Need::kRequired).value_or("");
  p.what = r.Text("what", Need::kRequired).value_or("");
  p.provenance = r.ReadProvenance();
  r.Finish();
  if (p.url.empty()) return;
  if (!StartsWith(p.url, "https://") || !EndsWith(p.url, "/"))
    r.Error(0, "url must be an https:// prefix ending in / (\"https://download.pytorch.org/whl/\")");
  db.package_indexes.push_back(std::move(p));
}

}  // namespace gpudoctor
