// The table of fact patterns (see log_facts.h) and the check of a log against a machine.
#include "explain/log_facts.h"

#include <regex>

#include "core/strings.h"
#include "explain/explain_pattern.h"

namespace gpudoctor {
namespace {

struct Row {
  const char* kind;
  const char* regex;    // ECMAScript; the value is the named capture `v`, unless `value` is set
  const char* literal;  // lower-case text every match contains (the prefilter key)
  bool icase;
  const char* value;
  GpuVendor vendor = GpuVendor::kUnknown;  // of a "gpu" row that names one maker's GPUs only
};

// Literals are chosen so that nearly every hit is a match: a fact pattern costs a regex run per hit.
const Row kRows[] = {
    // GPUs as rocminfo, deviceQuery, nvidia-smi, torch and the applications name them.
    {"gpu", R"(Marketing Name:\s+(?<v>[^\n]{3,80}?)\s*$)", "marketing name:", false, ""},
    {"gpu", R"((?<v>(?:NVIDIA )?GeForce (?:RTX|GTX|GT) ?[0-9]{3,4}(?: Ti| SUPER| Laptop GPU)*))", "geforce ",
     false, "", GpuVendor::kNvidia},
    {"gpu",
     R"((?<v>(?:NVIDIA )?(?:Tesla |RTX )?(?:A100|H100|H200|B200|L40S?|A6000|V100|T4|P40|A800|H800)\b[^\s,)]{0,12}))",
     "nvidia ", false, "", GpuVendor::kNvidia},
    {"gpu",
     R"((?<v>(?:AMD )?Radeon (?:RX |Pro |PRO |AI PRO )?[A-Z]?[0-9]{3,4}[A-Z]{0,2}(?: XTX| XT| GRE| XT)?))",
     "radeon ", false, "", GpuVendor::kAmd},
    {"gpu", R"((?<v>(?:AMD )?Instinct MI[0-9]{2,3}[A-Z]?))", "instinct mi", false, "", GpuVendor::kAmd},
    // Targets.
    {"gfx", R"((?<v>gfx[0-9]{2,4}[a-f]?)(?![0-9a-z]))", "gfx", false, ""},
    {"sm", R"(\b(?<v>sm_[0-9]{2,3}a?)\b)", "sm_", false, ""},
    {"sm", R"(which is of cuda capability (?<v>[0-9]+\.[0-9]+))", "which is of cuda capability", false, ""},
    {"sm", R"(CUDA Capability Major/Minor version number:\s+(?<v>[0-9]+\.[0-9]+))", "capability major/minor",
     false, ""},
    // PCI vendor:device ids as the kernel and rocminfo print them.
    {"pci_id", R"(\b(?<v>(?:1002|10de):[0-9a-f]{4})\b)", "1002:", true, ""},
    {"pci_id", R"(\b(?<v>10de:[0-9a-f]{4})\b)", "10de:", true, ""},
    // Drivers and runtimes.
    {"driver", R"(Driver Version:\s+(?<v>[0-9]+\.[0-9]+(?:\.[0-9]+)?))", "driver version:", false, ""},
    {"driver", R"(Nvidia driver version:\s+(?<v>[0-9]+\.[0-9]+(?:\.[0-9]+)?))", "nvidia driver version",
     false, ""},
    {"driver", R"(Adrenalin(?: Edition)?\s+(?<v>[0-9]{2}\.[0-9]{1,2}\.[0-9]{1,2}))", "adrenalin", true, ""},
    {"cuda", R"(CUDA Version:\s+(?<v>[0-9]+\.[0-9]+))", "cuda version:", false, ""},
    {"cuda", R"(CUDA used to build PyTorch:\s+(?<v>[0-9]+\.[0-9]+))", "cuda used to build pytorch", false,
     ""},
    {"cuda", R"(\+cu(?<v>[0-9]{3}))", "+cu", false, ""},
    {"rocm", R"(ROCM used to build PyTorch:\s+(?<v>[0-9]+\.[0-9]+(?:\.[0-9]+)?))",
     "rocm used to build pytorch", false, ""},
    {"rocm", R"(\+rocm(?<v>[0-9]+\.[0-9]+(?:\.[0-9]+)?))", "+rocm", false, ""},
    {"rocm", R"(compute-rocm-rel-(?<v>[0-9]+\.[0-9]+))", "compute-rocm-rel-", false, ""},
    {"rocm", R"(/opt/rocm-(?<v>[0-9]+\.[0-9]+\.[0-9]+))", "/opt/rocm-", false, ""},
    {"rocm", R"(rocminfo-rocm-(?<v>[0-9]+\.[0-9]+\.[0-9]+))", "rocminfo-rocm-", false, ""},
    // torch and Python.
    {"torch", R"(PyTorch version:\s+(?<v>[0-9]+\.[0-9]+\.[0-9]+[^\s]*))", "pytorch version:", false, ""},
    {"torch", R"(pytorch version:\s+(?<v>[0-9]+\.[0-9]+\.[0-9]+[^\s]*))", "pytorch version:", false, ""},
    {"torch", R"(\btorch==(?<v>[0-9]+\.[0-9]+\.[0-9]+[^\s,;)]*))", "torch==", false, ""},
    {"torch", R"(\btorch-(?<v>[0-9]+\.[0-9]+\.[0-9]+(?:\+[a-z0-9.]+)?))", "torch-", false, ""},
    {"torch", R"(\btorch \((?<v>[0-9]+\.[0-9]+\.[0-9]+[^\s)]*)\))", "torch (", false, ""},
    {"torch", R"(\btorch[ \t]+(?<v>[0-9]+\.[0-9]+\.[0-9]+\+(?:cu|rocm)[0-9.]+))", "torch ", false, ""},
    // The CUDA compiler a build used, and the add-on releases a log states (their versions pick the torch
    // they were built for, addon_libraries.toml).
    {"nvcc", R"(Cuda compilation tools, release (?<v>[0-9]+\.[0-9]+))", "cuda compilation tools, release",
     false, ""},
    {"xformers", R"(\bxformers(?:==|-| version:? ?)(?<v>0\.0\.[0-9]+(?:\.post[0-9]+)?))", "xformers", true,
     ""},
    {"flash_attn", R"(\bflash[-_]attn(?:==|-| version:? ?)(?<v>[0-9]+\.[0-9]+\.[0-9]+(?:\.post[0-9]+)?))",
     "flash", true, ""},
    {"vllm", R"(\bvllm(?:==|-| version:? ?)(?<v>0\.[0-9]+\.[0-9]+(?:\.post[0-9]+)?))", "vllm", true, ""},
    {"onnxruntime", R"(\bonnxruntime(?:[-_]gpu)?(?:==|-| version:? ?)(?<v>1\.[0-9]+\.[0-9]+))", "onnxruntime",
     true, ""},
    {"tensorflow", R"(\btensorflow(?:-gpu)?(?:==|-| version:? ?)(?<v>[0-9]+\.[0-9]+\.[0-9]+))", "tensorflow",
     true, ""},
    {"python", R"(Python version:\s+(?<v>3\.[0-9]{1,2}(?:\.[0-9]{1,2})?))", "python version:", false, ""},
    {"python", R"(\bPython[- ](?<v>3\.[0-9]{1,2}\.[0-9]{1,2})\b)", "python", false, ""},
    {"python", R"([/\\](?:lib|Lib)[/\\]python(?<v>3\.[0-9]{1,2})[/\\])", "python3.", true, ""},
    {"python", R"(\bPython(?<v>3[0-9]{1,2})[/\\])", "python3", false, ""},
    // An override set in the log: the target it selects is not the GPU's own.
    {"override", R"(HSA_OVERRIDE_GFX_VERSION\s*=\s*["']?(?<v>[0-9]{1,2}\.[0-9]{1,3}\.[0-9]{1,3}))",
     "hsa_override_gfx_version", true, ""},
    // Operating system and kernel.
    {"os", R"((?<v>Ubuntu [0-9]{2}\.[0-9]{2}(?:\.[0-9])?))", "ubuntu ", false, ""},
    {"os", R"((?<v>Windows 1[01]))", "windows 1", false, ""},
    {"os", R"(Platform: (?<v>Windows|Linux))", "platform: ", false, ""},
    {"os", R"((?<v>Fedora(?: Linux)? [0-9]{2}))", "fedora ", false, ""},
    {"os", R"((?<v>Arch ?Linux))", "archlinux", true, ""},
    {"os", R"((?<v>Debian(?: GNU/Linux)? [0-9]{1,2}))", "debian ", false, ""},
    {"os", R"([A-Z]:\\Users\\)", ":\\users\\", false, "Windows"},
    {"os", R"([A-Z]:\\Program Files)", ":\\program files", false, "Windows"},
    {"kernel", R"(Linux-(?<v>[0-9]+\.[0-9]+\.[0-9]+[^\s-]*(?:-[a-z0-9]+)*?)-x86_64)", "linux-", true, ""},
    {"kernel", R"(Kernel version:?\s+(?<v>[0-9]+\.[0-9]+\.[0-9]+[^\s]*))", "kernel version", true, ""},
    {"kernel", R"(\b(?<v>[0-9]+\.[0-9]+\.[0-9]+-[0-9]+-generic)\b)", "-generic", false, ""},
    // Markers.
    {"wsl", R"(microsoft-standard)", "microsoft-standard", true, "yes"},
    {"wsl", R"(/usr/lib/wsl/lib)", "/usr/lib/wsl/lib", false, "yes"},
    {"wsl", R"(\bWSL ?[12]\b)", "wsl", false, "yes"},
    {"container", R"(\b(?:docker|podman|nvidia-docker) run\b)", " run ", false, "yes"},
    {"container", R"(/\.dockerenv)", "/.dockerenv", false, "yes"},
    {"conda", R"(\b(?:ana|mini)conda3\b)", "conda3", true, "yes"},
    {"conda", R"(/opt/conda/)", "/opt/conda/", false, "yes"},
    {"conda", R"(miniforge3)", "miniforge3", true, "yes"},
    {"conda", R"(mambaforge)", "mambaforge", true, "yes"},
    {"portable", R"(python_embeded)", "python_embeded", false, "yes"},
    {"portable", R"(python_standalone)", "python_standalone", false, "yes"},
    {"zluda", R"(ZLUDA)", "zluda", true, "yes"},
    // Python packages in the log's traceback frames (what a failure no entry knows is about).
    {"package", R"([/\\](?:site|dist)-packages[/\\](?<v>[A-Za-z_][A-Za-z0-9_]{1,60})[/\\])", "-packages",
     true, ""},
    // The application.
    {"app", R"(\b(?<v>ComfyUI)\b)", "comfyui", false, ""},
    {"app", R"(\b(?<v>stable-diffusion-webui)\b)", "stable-diffusion-webui", false, ""},
    {"app", R"(\b(?<v>Fooocus)\b)", "fooocus", false, ""},
    {"app", R"(\b(?<v>vllm)\b)", "vllm", true, ""},
    {"app", R"(\b(?<v>ollama)\b)", "ollama", true, ""},
    {"app", R"(\b(?<v>llama_new_context|llama\.cpp))", "llama", false, ""},
    {"app", R"(\b(?<v>text-generation-webui)\b)", "text-generation-webui", false, ""},
    {"app", R"(\b(?<v>rocminfo)\b)", "rocminfo", false, ""},
    {"app", R"(\b(?<v>all_reduce_perf)\b)", "all_reduce_perf", false, ""},
};

bool Contains(const std::string& hay, const std::string& needle) {
  return !needle.empty() && ToLower(hay).find(ToLower(needle)) != std::string::npos;
}

}  // namespace

const std::vector<LogFactPattern>& LogFactPatterns() {
  static const std::vector<LogFactPattern> table = [] {
    std::vector<LogFactPattern> out;
    for (const Row& row : kRows) {
      auto named = RewriteNamedGroups(row.regex);
      if (!named.ok()) continue;  // the table is tested: every row compiles
      LogFactPattern p;
      p.kind = row.kind;
      p.value = row.value;
      p.vendor = row.vendor;
      p.pattern.text = row.regex;
      p.pattern.literal = row.literal;
      p.pattern.also_required = AlsoRequiredLiterals(row.regex, row.literal);
      p.pattern.group_names = named->group_names;
      auto flags = std::regex::ECMAScript | std::regex::optimize;
      if (row.icase) flags |= std::regex::icase;
      p.pattern.regex = std::make_shared<const std::regex>(named->regex, flags);
      out.push_back(std::move(p));
    }
    return out;
  }();
  return table;
}

GpuVendor LogGpuVendor(const LogFactPattern& p, std::string_view value) {
  if (p.kind != "gpu" || p.vendor != GpuVendor::kUnknown) return p.vendor;
  const std::string lower = ToLower(value);
  for (const LogFactPattern& named : LogFactPatterns()) {
    if (named.kind != "gpu" || named.vendor == GpuVendor::kUnknown) continue;
    const std::string_view word = Trim(named.pattern.literal);  // "radeon ": also "Radeon(TM)"
    if (lower.find(word) != std::string::npos) return named.vendor;
  }
  return GpuVendor::kUnknown;
}

std::string LogFactValue(const std::vector<LogFact>& facts, std::string_view kind) {
  for (const LogFact& f : facts)
    if (f.kind == kind) return f.value;
  return "";
}

size_t LogFactRowCount() {
  return sizeof(kRows) / sizeof(kRows[0]);
}

// Windows or Linux when the log says which (a Windows path, a portable install, a distribution, WSL).
static const LogFact* LogOs(const std::vector<LogFact>& facts, OsFamily& family) {
  for (const LogFact& f : facts) {
    if ((f.kind == "os" && f.value.rfind("Windows", 0) == 0) || f.kind == "portable") {
      family = OsFamily::kWindows;
      return &f;
    }
    if ((f.kind == "os" && f.value != "Windows") || f.kind == "wsl" || f.kind == "kernel") {
      family = OsFamily::kLinux;
      return &f;
    }
  }
  return nullptr;
}

LogMachineCheck CompareLogWithMachine(const std::vector<LogFact>& facts, const Snapshot& snap) {
  OsFamily log_os = OsFamily::kUnknown;
  const LogFact* os = LogOs(facts, log_os);
  if (os != nullptr && snap.os.family != OsFamily::kUnknown && snap.os.family != log_os) {
    LogMachineCheck out;
    out.other_machine = true;
    out.reason = "the log is from " + std::string(OsFamilyName(log_os)) + " (" + os->kind + "=" + os->value +
                 ", line " + std::to_string(os->line) + "), this machine runs " +
                 std::string(OsFamilyName(snap.os.family));
    return out;
  }
  std::vector<const LogFact*> identity;
  for (const LogFact& f : facts)
    if (f.kind == "gpu" || f.kind == "gfx" || f.kind == "sm") identity.push_back(&f);
  if (identity.empty()) return {};
  for (const LogFact* f : identity) {
    for (const Gpu& g : snap.gpus) {
      if (f->kind == "gpu" && (Contains(g.name, f->value) || Contains(f->value, g.name))) return {};
      if (f->kind != "gpu" && !g.architecture.empty() && ToLower(g.architecture) == ToLower(f->value))
        return {};
    }
  }
  LogMachineCheck out;
  out.other_machine = true;
  out.reason =
      "the log names " + identity.front()->value + " (line " + std::to_string(identity.front()->line) + ")";
  std::string here;
  for (const Gpu& g : snap.gpus)
    here += (here.empty() ? "" : ", ") + (g.name.empty() ? g.architecture : g.name);
  out.reason += here.empty() ? ", and this machine shows no GPU" : ", this machine has " + here;
  return out;
}

bool LogSaysWindows(const std::vector<LogFact>& facts) {
  OsFamily family = OsFamily::kUnknown;
  return LogOs(facts, family) != nullptr && family == OsFamily::kWindows;
}

}  // namespace gpudoctor
