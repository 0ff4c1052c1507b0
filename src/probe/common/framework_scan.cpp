// Scans one site-packages folder (framework_scan.h). One listing of the folder decides what is read:
// only the distributions in the table below, the version.py files of torch, torchvision and
// torchaudio, and the folders that hold GPU libraries. Metadata files are read up to kMetadataBytes:
// Name and Version come first, the long description after them is never needed.
#include "probe/common/framework_scan.h"

#include <algorithm>
#include <set>

#include "core/strings.h"
#include "probe/common/dist_metadata.h"
#include "probe/common/python_text_files.h"
#include "probe/common/torch_gpu_code.h"

namespace gpudoctor {
namespace {

constexpr size_t kMetadataBytes = 16 * 1024;
constexpr size_t kVersionFileBytes = 64 * 1024;

struct NamedDistribution {
  std::string_view name;  // normalized
  std::string_view family;
  std::string_view backend;
};

// clang-format off
constexpr NamedDistribution kExact[] = {
    {"torch",                "torch",          ""},
    {"torchvision",          "torchvision",    ""},
    {"torchaudio",           "torchaudio",     ""},
    {"torch-directml",       "torch-directml", "directml"},
    {"tensorflow",           "tensorflow",     ""},
    {"tensorflow-cpu",       "tensorflow",     "cpu"},
    {"tensorflow-gpu",       "tensorflow",     "cuda"},
    {"tensorflow-rocm",      "tensorflow",     "rocm"},
    {"tensorflow-intel",     "tensorflow",     "cpu"},
    {"tf-nightly",           "tensorflow",     ""},
    {"jax",                  "jax",            ""},
    {"jaxlib",               "jax",            ""},
    {"onnxruntime",          "onnxruntime",    "cpu"},
    {"onnxruntime-gpu",      "onnxruntime",    "cuda"},
    {"onnxruntime-rocm",     "onnxruntime",    "rocm"},
    {"onnxruntime-migraphx", "onnxruntime",    "migraphx"},
    {"onnxruntime-directml", "onnxruntime",    "directml"},
    {"onnxruntime-openvino", "onnxruntime",    "openvino"},
    {"onnxruntime-training", "onnxruntime",    ""},
    {"bitsandbytes",         "bitsandbytes",   ""},
    {"rocm",                 "rocm-sdk",       "rocm"},
    {"xformers",             "xformers",       ""},
    {"flash-attn",           "flash-attn",     ""},
    {"vllm",                 "vllm",           ""},
    {"triton",               "triton",         ""},
    {"pytorch-triton",       "triton",         ""},
    {"pytorch-triton-rocm",  "triton",         "rocm"},
    {"triton-windows",       "triton",         ""},
    {"deepspeed",            "deepspeed",      ""},
};
// clang-format on

// "+cu128" -> cuda, "+rocm6.2" -> rocm, "+cpu" -> cpu: what a pytorch.org local version tag says.
std::string BackendOfLocalTag(std::string_view version) {
  size_t plus = version.find('+');
  if (plus == std::string_view::npos) return "";
  std::string_view tag = version.substr(plus + 1);
  if (StartsWith(tag, "cu")) return "cuda";
  if (StartsWith(tag, "rocm")) return "rocm";
  if (StartsWith(tag, "cpu")) return "cpu";
  return "";
}

struct Found {
  std::string folder_name;  // the .dist-info / .egg-info entry
  std::string normalized;
  KnownDistribution known;
};

class Scanner {
 public:
  Scanner(const FileSystem& fs, const std::string& site, std::vector<std::string>& warnings)
      : fs_(fs), site_(site), warnings_(warnings) {}

  SitePackagesContents Run() {
    auto listing = fs_.ListDir(site_);
    if (!listing.ok()) {
      warnings_.push_back(listing.error().message);
      return {};
    }
    names_ = std::set<std::string>(listing->begin(), listing->end());
    std::vector<Found> found;
    for (const auto& name : *listing) {
      auto parsed = ParseDistFolderName(name);
      if (!parsed) continue;
      std::string norm = NormalizeDistName(parsed->name);
      if (auto known = ClassifyDistribution(norm)) found.push_back({name, norm, *known});
    }
    AddGpuLibraryFolders();
    std::optional<std::string> torch_dist_version;
    std::set<std::string> families_with_metadata;
    for (const auto& f : found) {
      FrameworkInstall fw = ReadDistribution(f);
      if (f.known.family == "torch") {
        torch_dist_version = fw.version;
        continue;
      }
      families_with_metadata.insert(f.normalized);
      out_.frameworks.push_back(std::move(fw));
    }
    for (const char* pkg : {"torchvision", "torchaudio"}) {
      if (families_with_metadata.count(pkg) || !names_.count(pkg)) continue;
      AddFromVersionFile(pkg);
    }
    ReadTorch(torch_dist_version);
    for (auto& fw : out_.frameworks) {
      // torchvision and torchaudio run inside torch's process and use the runtime torch loaded.
      const bool rides_on_torch = fw.family == "torchvision" || fw.family == "torchaudio";
      fw.runtime =
          rides_on_torch && out_.torch ? out_.torch->runtime : Resolve(fw.backend, OwnFolderOf(fw.family));
    }
    return std::move(out_);
  }

 private:
  std::string Path(std::string_view rel) const { return JoinPath(site_, rel); }

  FrameworkInstall ReadDistribution(const Found& f) {
    FrameworkInstall fw;
    fw.family = f.known.family;
    fw.backend = f.known.backend;
    auto from_name = ParseDistFolderName(f.folder_name);
    fw.name = from_name->name;
    fw.version = from_name->version;
    std::string dir = Path(f.folder_name);
    std::string file =
        EndsWith(f.folder_name, ".dist-info") ? JoinPath(dir, "METADATA") : JoinPath(dir, "PKG-INFO");
    if (!fs_.IsDir(dir)) file = dir;  // an .egg-info file is the PKG-INFO itself
    fw.source = file;
    auto text = fs_.ReadFile(file, kMetadataBytes);
    if (!text.ok()) {
      warnings_.push_back(text.error().message + " (version taken from the folder name)");
      fw.source = dir;
    } else if (auto meta = ParseDistMetadata(*text)) {
      fw.name = meta->name;
      fw.version = meta->version;
      fw.torch_pin = meta->torch_pin;
    } else {
      warnings_.push_back(file + " has no Name and Version header (version taken from the folder name)");
      fw.source = dir;
    }
    if (fw.backend.empty() && (fw.family == "torchvision" || fw.family == "torchaudio"))
      fw.backend = BackendOfLocalTag(fw.version);
    return fw;
  }

  void AddFromVersionFile(const std::string& pkg) {
    std::string file = Path(pkg + "/version.py");
    if (!fs_.Exists(file)) return;
    auto text = fs_.ReadFile(file, kVersionFileBytes);
    if (!text.ok()) {
      warnings_.push_back(text.error().message);
      return;
    }
    auto parsed = ParseTorchVersionFile(*text);
    if (!parsed) {
      warnings_.push_back(file + " has no __version__ line");
      return;
    }
    FrameworkInstall fw;
    fw.name = pkg;
    fw.family = pkg;
    fw.version = parsed->version;
    fw.backend = BackendOfLocalTag(fw.version);
    fw.source = file;
    out_.frameworks.push_back(std::move(fw));
  }

  void ReadTorch(const std::optional<std::string>& dist_version) {
    if (!names_.count("torch") && !dist_version) return;
    TorchInstall t;
    t.location = Path("torch");
    std::string version_py = JoinPath(t.location, "version.py");
    if (fs_.Exists(version_py)) {
      auto text = fs_.ReadFile(version_py, kVersionFileBytes);
      if (!text.ok()) {
        warnings_.push_back(text.error().message);
        return;
      }
      auto parsed = ParseTorchVersionFile(*text);
      if (!parsed) {
        warnings_.push_back(version_py + " has no __version__ line");
        return;
      }
      t.version = parsed->version;
      t.cuda = parsed->cuda;
      t.hip = parsed->hip;
      t.git_version = parsed->git_version;
      t.debug = parsed->debug;
    } else if (dist_version) {
      warnings_.push_back("torch " + *dist_version + " in " + site_ +
                          " has no torch/version.py: the install is incomplete (reinstall torch)");
      t.version = *dist_version;
    } else {
      return;  // a folder named torch without a version file and without metadata: not PyTorch
    }
    std::vector<std::string> lib_names;
    if (auto listing = fs_.ListDir(JoinPath(t.location, "lib")); listing.ok()) lib_names = *listing;
    std::vector<std::string> sdk_kernels;
    for (const auto& f : out_.gpu_libraries) {
      if (!StartsWith(f.provider, "_rocm_sdk")) continue;
      for (const char* library : {"rocblas", "hipblaslt"}) {
        std::string folder = JoinPath(JoinPath(f.path, library), "library");
        if (fs_.IsDir(folder)) sdk_kernels.push_back(folder);
      }
    }
    ReadTorchGpuCode(fs_, lib_names, sdk_kernels, t);
    // Which runtime it loads can be told only from an install whose torch/lib is there to look at.
    if (!lib_names.empty()) {
      if (!t.cuda.empty()) t.runtime = Resolve("cuda", JoinPath(t.location, "lib"));
      if (!t.hip.empty()) t.runtime = Resolve("rocm", JoinPath(t.location, "lib"));
    }
    out_.torch = std::move(t);
  }

  // A folder of GPU libraries; recorded when it holds a vendor runtime or anything `wanted` accepts.
  void AddFolder(const std::string& path, const std::string& provider, bool always,
                 bool (*wanted)(std::string_view) = nullptr) {
    auto listing = fs_.ListDir(path);
    if (!listing.ok()) return;
    GpuLibraryFolder f;
    f.path = path;
    f.provider = provider;
    bool keep = always;
    for (const auto& name : *listing) {
      if (!RuntimeOfFile(name).empty()) f.runtimes.push_back(name);
      if (wanted && wanted(name)) keep = true;
    }
    if (keep || !f.runtimes.empty()) out_.gpu_libraries.push_back(std::move(f));
  }

  void AddGpuLibraryFolders() {
    if (names_.count("torch")) {
      AddFolder(Path("torch/lib"), "torch", false, [](std::string_view n) {
        const auto& libs = TorchGpuLibraryNames();
        return std::find(libs.begin(), libs.end(), n) != libs.end() || n == "rocblas" || n == "hipblaslt";
      });
    }
    if (names_.count("nvidia")) {
      if (auto pkgs = fs_.ListDir(Path("nvidia")); pkgs.ok()) {
        for (const auto& pkg : *pkgs) {
          for (const char* sub : {"lib", "bin"})
            AddFolder(Path("nvidia/" + pkg + "/" + sub), "nvidia/" + pkg, true);
        }
      }
    }
    for (const auto& name : names_) {
      if (!StartsWith(name, "_rocm_sdk")) continue;
      for (const char* sub : {"lib", "bin"}) AddFolder(Path(name + "/" + sub), name, true);
    }
    if (names_.count("onnxruntime")) {
      AddFolder(Path("onnxruntime/capi"), "onnxruntime", false, [](std::string_view n) {
        return n.find("onnxruntime_providers_") != std::string_view::npos &&
               n.find("providers_shared") == std::string_view::npos;
      });
    }
    if (names_.count("jax_plugins")) {
      if (auto plugins = fs_.ListDir(Path("jax_plugins")); plugins.ok()) {
        for (const auto& p : *plugins) {
          if (StartsWith(p, "xla_cuda") || StartsWith(p, "xla_rocm"))
            AddFolder(Path("jax_plugins/" + p), "jax_plugins/" + p, true);
        }
      }
    }
    if (names_.count("bitsandbytes")) {
      AddFolder(Path("bitsandbytes"), "bitsandbytes", false, [](std::string_view n) {
        return StartsWith(n, "libbitsandbytes_cuda") || StartsWith(n, "libbitsandbytes_rocm") ||
               StartsWith(n, "libbitsandbytes_hip");
      });
    }
  }

  std::string OwnFolderOf(const std::string& family) const {
    if (family == "onnxruntime") return Path("onnxruntime/capi");
    if (family == "bitsandbytes") return Path("bitsandbytes");
    if (family == "torch-directml") return Path("torch_directml");
    return "";
  }

  // The copy of the CUDA or HIP runtime a framework of `backend` loads: its own folder's, then the
  // pip CUDA wheels' (site-packages/nvidia/*), then the ROCm SDK wheels', else the system's.
  std::optional<RuntimeResolution> Resolve(const std::string& backend, const std::string& own_folder) const {
    std::string want;
    if (backend == "cuda") want = "libcudart";
    if (backend == "rocm" || backend == "migraphx") want = "libamdhip64";
    if (want.empty()) return std::nullopt;
    auto find_in = [&](const GpuLibraryFolder& f) -> std::string {
      for (const auto& r : f.runtimes)
        if (RuntimeOfFile(r) == want) return JoinPath(f.path, r);
      return "";
    };
    for (const auto& f : out_.gpu_libraries) {
      if (!own_folder.empty() && f.path == own_folder) {
        if (auto p = find_in(f); !p.empty()) return RuntimeResolution{want, "bundled", p};
      }
    }
    for (const auto& f : out_.gpu_libraries) {
      const bool pip = StartsWith(f.provider, "nvidia/");
      const bool sdk = StartsWith(f.provider, "_rocm_sdk");
      if (!pip && !sdk) continue;
      if (auto p = find_in(f); !p.empty()) return RuntimeResolution{want, pip ? "pip" : "rocm-sdk", p};
    }
    return RuntimeResolution{want, "system", ""};
  }

  const FileSystem& fs_;
  const std::string& site_;
  std::vector<std::string>& warnings_;
  std::set<std::string> names_;
  SitePackagesContents out_;
};

}  // namespace

std::optional<KnownDistribution> ClassifyDistribution(std::string_view n) {
  for (const auto& d : kExact) {
    if (d.name == n) return KnownDistribution{std::string(d.family), std::string(d.backend)};
  }
  // jax-cuda12-plugin, jax-cuda12-pjrt, jax-rocm7-plugin, jax-rocm60-pjrt
  for (std::string_view vendor : {std::string_view("cuda"), std::string_view("rocm")}) {
    std::string head = "jax-" + std::string(vendor);
    if (StartsWith(n, head) && (EndsWith(n, "-plugin") || EndsWith(n, "-pjrt")))
      return KnownDistribution{"jax-plugin", std::string(vendor)};
  }
  if (StartsWith(n, "rocm-sdk")) return KnownDistribution{"rocm-sdk", "rocm"};
  // AMD's multi-arch torch keeps each GPU's kernels in a package of its own (amd-torch-device-gfx1100).
  if (StartsWith(n, "amd-torch-device-")) return KnownDistribution{"rocm-sdk", "rocm"};
  return std::nullopt;
}

std::string RuntimeOfFile(std::string_view n) {
  const bool dll = EndsWith(n, ".dll");
  if (StartsWith(n, "libcudart.so") || (dll && StartsWith(n, "cudart64_"))) return "libcudart";
  if (StartsWith(n, "libamdhip64.so") || (dll && StartsWith(n, "amdhip64"))) return "libamdhip64";
  if (StartsWith(n, "libhsa-runtime64.so")) return "libhsa-runtime64";
  return "";
}

SitePackagesContents ScanSitePackages(const FileSystem& fs, const std::string& folder,
                                      std::vector<std::string>& warnings) {
  return Scanner(fs, folder, warnings).Run();
}

}  // namespace gpudoctor
