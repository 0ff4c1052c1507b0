// Renders snapshot.python_envs for `gpudoctor info` (info_text_python.h): one block per environment,
// key-value lines, nothing printed for what is empty.
#include "report/info_text_python.h"

#include <cstdio>

#include "core/text_table.h"

namespace gpudoctor {
namespace {

std::string Join(const std::vector<std::string>& items, const std::string& sep = " ") {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : sep) + i;
  return out;
}

std::string FileName(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string RuntimeText(const std::optional<RuntimeResolution>& r) {
  if (!r) return "";
  if (r->origin == "system") return r->library + " from the system (loader search path)";
  const std::string from = r->origin == "bundled"    ? "bundled"
                           : r->origin == "pip"      ? "from the pip CUDA wheels"
                           : r->origin == "rocm-sdk" ? "from the ROCm SDK wheels"
                                                     : "from " + r->origin;
  return r->library + " " + from + ": " + r->path;
}

std::string TorchBuild(const TorchInstall& t) {
  if (!t.cuda.empty()) return "CUDA " + t.cuda;
  if (!t.hip.empty()) return "ROCm/HIP " + t.hip;
  return "CPU only";
}

std::string LiveText(const PythonLiveRun& l) {
  if (l.status != "ok")
    return l.status + (l.stage.empty() ? "" : " while " + l.stage) + (l.error.empty() ? "" : ": " + l.error);
  if (!l.error.empty()) return "error at " + l.stage + ": " + l.error;
  std::string out = "torch " + l.torch_version + ", is_available " +
                    (l.cuda_available ? (*l.cuda_available ? "True" : "False") : "n/a");
  if (!l.device_names.empty()) out += ", " + Join(l.device_names, ", ");
  if (l.matmul_max_abs_error) {
    char buf[64];
    std::snprintf(buf, sizeof buf, ", matmul max abs error %.3g", *l.matmul_max_abs_error);
    out += buf;
  }
  return out;
}

std::string EnvBlock(const PythonEnv& e) {
  std::string head = "  " + e.path + "  " + e.kind;
  if (!e.python_version.empty()) head += ", Python " + e.python_version;
  if (e.active) head += ", active";
  if (!e.found_by.empty()) head += "  (" + Join(e.found_by, ", ") + ")";
  KeyValueBlock kv;
  kv.Add("site-packages", e.site_packages);
  if (!e.interpreter.empty()) kv.Add("python", e.interpreter);
  if (e.torch) {
    const TorchInstall& t = *e.torch;
    kv.Add("torch", t.version + " (" + TorchBuild(t) + ")");
    std::vector<std::string> files;
    for (const auto& lib : t.gpu_code) files.push_back(FileName(lib.path));
    if (!t.arch_list.empty()) kv.Add("GPU code", Join(t.arch_list) + " (" + Join(files, ", ") + ")");
    for (const auto& lib : t.gpu_code)
      for (const auto& w : lib.warnings) kv.Add("  warning", FileName(lib.path) + ": " + w);
    for (const auto& k : t.kernel_libraries)
      kv.Add(k.library + " kernels", k.gfx.empty() ? "none" : Join(k.gfx));
    if (t.runtime) kv.Add("runtime", RuntimeText(t.runtime));
  }
  for (const auto& f : e.frameworks) {
    std::string v = f.version;
    if (!f.backend.empty() && f.version.find('+') == std::string::npos) v += " (" + f.backend + ")";
    if (f.runtime && f.family != "torchvision" && f.family != "torchaudio")
      v += ", runtime " + RuntimeText(f.runtime);
    if (!f.torch_pin.empty()) v += ", requires torch " + f.torch_pin;
    kv.Add(f.name, v);
  }
  if (e.project) {  // the project files that pin its GPU packages
    kv.Add("project", e.project->folder + " (" + e.project->manager + ", " +
                          std::to_string(e.project->files.size()) + " pin file(s))");
    for (const auto& p : e.project->pins)
      kv.Add("  pin", p.file + ":" + std::to_string(p.line) + "  " + p.text);
  }
  if (e.live) kv.Add("live check", LiveText(*e.live));
  return head + "\n" + kv.Render("    ");
}

}  // namespace

std::string PythonSection(const Snapshot& s, const TextStyle& style) {
  std::string heading = "Python environments (" + std::to_string(s.python_envs.size()) + ")";
  std::string out = style.color ? "\033[1m" + heading + "\033[0m\n" : heading + "\n";
  if (s.python_envs.empty()) return out + "  none with PyTorch or another GPU framework found\n";
  for (const auto& e : s.python_envs) out += EnvBlock(e);
  return out;
}

}  // namespace gpudoctor
