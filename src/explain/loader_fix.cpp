// The loader model at work: a loader failure's library, symbol or symbol version, read with
// data/shared_libraries.toml and the log's install route (loader_fix.h).
#include "explain/loader_fix.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace gpudoctor {
namespace {

bool Has(std::string_view hay, std::string_view needle) {
  return hay.find(needle) != std::string_view::npos;
}

bool HasFact(const std::vector<LogFact>& facts, std::string_view kind) {
  return std::any_of(facts.begin(), facts.end(), [&](const LogFact& f) { return f.kind == kind; });
}

std::string Replace(std::string text, std::string_view from, std::string_view to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

std::string FileName(std::string_view path) {
  const size_t slash = path.find_last_of("/\\");
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

bool CondaPath(std::string_view text) {
  return Has(text, "conda") || Has(text, "/envs/") || Has(text, "mamba") || Has(text, "miniforge");
}

// The Python module of a pip nvidia-* package: "nvidia-cudnn-cu12==8.*" -> "cudnn",
// "nvidia-cuda-runtime-cu12" -> "cuda_runtime"; "" for another package, or a CUDA 13 one (unsuffixed, laid
// out differently).
std::string PipModule(std::string_view pip) {
  if (pip.rfind("nvidia-", 0) != 0) return "";
  std::string name(pip.substr(7, pip.find_first_of("=<>[ ") - 7));
  const size_t cu = name.rfind("-cu");
  if (cu == std::string::npos || cu + 3 >= name.size() ||
      !std::isdigit(static_cast<unsigned char>(name[cu + 3])))
    return "";
  name.resize(cu);
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

// The CUDA version the log states, as "major.minor" ("11.8" from "11.8.89" or "118"), "" when none.
std::string LogCudaVersion(const std::vector<LogFact>& facts) {
  for (const LogFact& f : facts) {
    if (f.kind != "cuda" || f.value.empty() || !std::isdigit(static_cast<unsigned char>(f.value[0])))
      continue;
    const size_t dot = f.value.find('.');
    if (dot == std::string::npos)
      return f.value.size() == 3 ? f.value.substr(0, 2) + "." + f.value.substr(2) : f.value;
    const size_t second = f.value.find('.', dot + 1);
    return second == std::string::npos ? f.value : f.value.substr(0, second);
  }
  return "";
}

// The CUDA major the log's environment states ("12.1", "118" from +cu118), 0 when none.
int LogCudaMajor(const std::vector<LogFact>& facts) {
  for (const LogFact& f : facts) {
    if (f.kind != "cuda" || f.value.empty() || !std::isdigit(static_cast<unsigned char>(f.value[0])))
      continue;
    const size_t dot = f.value.find('.');
    std::string major = dot != std::string::npos ? f.value.substr(0, dot)
                        : f.value.size() == 3    ? f.value.substr(0, 2)
                                                 : f.value.substr(0, 1);
    return std::atoi(major.c_str());
  }
  return 0;
}

// A pip package of the model for CUDA major `cuda`: CUDA 13's wheels dropped the -cuNN suffix
// (shared_libraries.toml's header says why).
std::string PipFor(const SharedLibrary& lib, const std::string& version, int cuda) {
  std::string pip = Replace(lib.pip, "{v}", version);
  if (cuda > 0 && Has(pip, "-cu12") && lib.family != "cuda")
    pip = Replace(pip, "-cu12", "-cu" + std::to_string(cuda));
  const int major = lib.family == "cuda" && !version.empty() ? std::atoi(version.c_str()) : cuda;
  const std::string suffix = "-cu" + std::to_string(major);
  if (major >= 13 && Has(pip, suffix))
    pip = Replace(pip, suffix, "") + (Has(pip, "==") ? "" : "==" + std::to_string(major) + ".*");
  return pip;
}

// The CUDA version a CUDA library's file name states in full: "libcudart.so.11.0" -> "11.0",
// "cudart64_101.dll"
// -> "10.1", "cudart64_90.dll" -> "9.0", "cublas64_12.dll" -> "12"; `major` when the name states no more.
std::string CudaVersionOfFile(const std::string& file, const std::string& major) {
  const bool dll = file.size() > 4 && file.compare(file.size() - 4, 4, ".dll") == 0;
  if (!dll) {
    const size_t so = file.find(".so.");
    if (so == std::string::npos) return major;
    const std::string suffix = file.substr(so + 4);
    // From CUDA 11 on a soname carries the major only ("libcudart.so.11.0" is every 11.x release).
    const size_t dot = suffix.find('.');
    if (dot != std::string::npos && suffix.substr(dot) == ".0" && std::atoi(suffix.c_str()) >= 11)
      return suffix.substr(0, dot) + ".x";
    return suffix;
  }
  const size_t underscore = file.find('_');
  std::string digits;
  for (size_t i = underscore + 1; underscore != std::string::npos && i < file.size() &&
                                  std::isdigit(static_cast<unsigned char>(file[i]));
       ++i)
    digits.push_back(file[i]);
  if (digits.size() == 3) return digits.substr(0, 2) + "." + digits.substr(2);
  if (digits.size() == 2 && digits >= "20") return digits.substr(0, 1) + "." + digits.substr(1);
  return major;
}

// The newest CUDA release of a major ("11" -> "11.8"), whose runtime serves every program built for that
// major.
std::string NewestOfMajor(const KnowledgeDb& db, int major) {
  const Version* newest = nullptr;
  for (const CudaMinorCompat& c : db.cuda_minor_compat)
    if (static_cast<int>(c.cuda.major()) == major && (newest == nullptr || *newest < c.cuda_max))
      newest = &c.cuda_max;
  // An open-ended range ("12.99": every 12.x to come) names no release.
  return newest == nullptr || newest->ToString().find(".99") != std::string::npos ? "" : newest->ToString();
}

void AddCommand(std::string& commands, const std::string& line) {
  if (!line.empty()) commands += (commands.empty() ? "" : "\n") + line;
}

// What to install, said as a user would ask for it: "cuDNN 7" (the label names the component), "the CUDA
// runtime (cudart) of CUDA 7.5".
std::string WhatToInstall(const SharedLibrary& lib, const std::string& label) {
  if (label.empty()) return lib.component;
  if (label.rfind(lib.component, 0) == 0) return label;
  return lib.component + " of " + label;
}

// The requester's part: a Python package other than torch whose import asked for a CUDA-family library was
// built against that version; where another one is installed, the package's build for it is the fix.
void AddRequester(LoaderFix& fix, const SharedLibrary& lib, const std::string& what, std::string& commands) {
  const std::string& pkg = fix.requester;
  if (pkg.empty() || lib.driver) return;
  if (pkg == "torch") {
    fix.advice +=
        " torch's own import asked for it: the torch wheel ships or names its CUDA libraries, so a "
        "missing one is a broken or mixed install; reinstall torch from the index of its CUDA "
        "variant (the +cuXXX of its version).";
    AddCommand(commands,
               "pip install --force-reinstall torch --index-url "
               "https://download.pytorch.org/whl/cuXXX   # XXX: torch's CUDA variant");
    return;
  }
  fix.advice += " " + pkg + " asked for it (the last package in the log's traceback): the " + pkg +
                " build installed was made for " + what + ". Install that, or reinstall " + pkg +
                " built for the CUDA you have (most GPU packages publish one build per CUDA major).";
  AddCommand(commands,
             "pip install --force-reinstall " + pkg + "   # or the " + pkg + " build named for your CUDA");
}

// A library the loader model does not know: find the package that ships it, and the file on disk.
void UnknownLibraryFix(const std::string& file, const std::string& stem, LoaderFix& fix) {
  fix.advice = file +
               " is not a library gpudoctor's loader model knows. Find the package that ships it, and if "
               "the file is on disk, put its folder on the loader's path.";
  fix.commands.bash = "apt-file search " + file +
                      "   # Debian/Ubuntu (apt install apt-file); Fedora: dnf provides '*/" + file +
                      "'\nfind / -name '" + stem + "*' 2>/dev/null | head";
}

// A library of the GPU driver (libcuda, libnvidia-ml): it comes with the driver, never from pip or conda; in
// a container the toolkit maps it in, in WSL2 the Windows driver provides it.
void DriverLibraryFix(const SharedLibrary* lib, const std::string& route, const std::string& stem,
                      LoaderFix& fix) {
  fix.advice +=
      route == "container"
          ? "It comes with the GPU driver, which a container does not have: the NVIDIA Container "
            "Toolkit maps it in when the container starts with --gpus all (or the nvidia "
            "runtime, or CDI devices)."
      : route == "wsl"
          ? "In WSL2 it comes from the Windows driver through /usr/lib/wsl/lib: keep that folder on "
            "the loader's path and install no Linux NVIDIA driver inside WSL."
          : "It comes with the GPU driver, never from pip or conda: " + lib->system + ".";
  fix.commands.bash =
      route == "container" ? "docker run --gpus all ...   # needs nvidia-container-toolkit on the host"
      : route == "wsl"     ? "export LD_LIBRARY_PATH=/usr/lib/wsl/lib:$LD_LIBRARY_PATH; ls /usr/lib/wsl/lib"
                           : "nvidia-smi   # the driver must answer; then: ldconfig -p | grep -F " + stem;
}

// The CUDA major the program was built for against the log's CUDA, and the last release of that major.
void CudaMajorAdvice(const std::string& version, int cuda, const std::string& log_cuda,
                     const std::string& newest, const SharedLibrary* lib, LoaderFix& fix) {
  if (lib->family == "cuda" && cuda > 0 && !version.empty() && std::atoi(version.c_str()) != cuda) {
    fix.advice += "The program asking for it was built for CUDA " + version +
                  ", while the log's environment has CUDA " + log_cuda +
                  ": install the program's build for CUDA " + log_cuda + ", or add CUDA " + version +
                  "'s library beside it" +
                  (newest.empty() ? ""
                                  : " (the runtime of CUDA " + newest + ", the last " + version +
                                        ".x, serves every program built for " + version + ".x)") +
                  ". ";
  } else if (!newest.empty()) {
    fix.advice += "Any CUDA " + version + ".x provides it; CUDA " + newest + ", the last " + version +
                  ".x, serves every program built for CUDA " + version + ". ";
  }
}

// pip's nvidia-* wheels put their libraries in site-packages/nvidia/NAME/lib, which the loader searches
// only when a program (torch) loads them from there itself; any other program needs the folder on
// LD_LIBRARY_PATH. The module is the package's name without "nvidia-", its -cuNN suffix and its pin.
void PipLibraryFolderAdvice(const std::string& module, LoaderFix& fix, std::string& commands) {
  if (module.empty()) return;
  fix.advice += " A library from pip's nvidia-* packages lies in site-packages/nvidia/" + module +
                "/lib, which the loader does not search for programs other than torch: put that folder "
                "on LD_LIBRARY_PATH.";
  AddCommand(commands, "export LD_LIBRARY_PATH=\"$(python3 -c 'import nvidia." + module +
                           ".lib as m; print(m.__path__[0])'):$LD_LIBRARY_PATH\"");
}

// cuDNN 8 has wheels for CUDA 11 and 12; with no CUDA in the log, both are named (a program that wants
// cuDNN 8 today was most often built for CUDA 11).
void BothCudnn8Advice(LoaderFix& fix, std::string& commands) {
  fix.advice +=
      "cuDNN 8 comes as nvidia-cudnn-cu11==8.* for a program built for CUDA 11 and as "
      "nvidia-cudnn-cu12==8.9.* for one built for CUDA 12 (its wheel's or image's CUDA).";
  AddCommand(commands,
             "pip install \"nvidia-cudnn-cu11==8.*\"   # a program built for CUDA 11; CUDA 12: "
             "\"nvidia-cudnn-cu12==8.9.*\"");
}

LoaderFix MissingLibrary(const std::string& file, const std::string& route, const std::vector<LogFact>& facts,
                         const std::string& requester, const KnowledgeDb& db) {
  LoaderFix fix;
  fix.library = file;
  fix.requester = requester;
  std::string version;
  const SharedLibrary* lib = db.FindSharedLibrary(file, &version);
  const std::string stem = file.substr(0, file.find('.'));
  if (lib == nullptr) {
    UnknownLibraryFix(file, stem, fix);
    return fix;
  }
  const std::string label =
      Replace(lib->version_label, "{v}", lib->family == "cuda" ? CudaVersionOfFile(file, version) : version);
  fix.component = lib->component + (label.empty() ? "" : " (" + label + ")");
  const std::string what = WhatToInstall(*lib, label);
  fix.advice = file + " is " + fix.component + ". ";
  if (!lib->driver)
    fix.advice += "Install " + what +
                  " where the loader finds it, or put the folder that holds it on the "
                  "loader's path. ";
  if (lib->driver) {
    DriverLibraryFix(lib, route, stem, fix);
    return fix;
  }
  const int cuda = LogCudaMajor(facts);
  // CUDA's libraries came as pip wheels from CUDA 11 on; conda-forge's cudatoolkit package carried CUDA 10
  // and 11.
  const bool old_cuda = lib->family == "cuda" && !version.empty() && std::atoi(version.c_str()) <= 11;
  const std::string pip =
      lib->pip.empty() || (old_cuda && std::atoi(version.c_str()) < 11) ? "" : PipFor(*lib, version, cuda);
  // From CUDA 11 on a soname names a major, and the last release of that major serves every program built
  // for it; before 11 it names the release itself (libcudart.so.9.0 is only CUDA 9.0's).
  const std::string newest = lib->family == "cuda" && !version.empty() && std::atoi(version.c_str()) >= 11
                                 ? NewestOfMajor(db, std::atoi(version.c_str()))
                                 : "";
  // What the file name says in full ("7.5" of libcudart.so.7.5; "11.x" of libcudart.so.11.0).
  const std::string full = lib->family == "cuda" ? CudaVersionOfFile(file, version) : version;
  // conda's cudatoolkit packages begin with CUDA 9 (anaconda.org/anaconda/cudatoolkit, read 2026-12-06): an
  // older runtime comes only from NVIDIA's own toolkit.
  const bool before_conda = old_cuda && std::atoi(version.c_str()) < 9;
  const std::string conda = before_conda ? ""
                            : old_cuda   ? "cudatoolkit=" + (newest.empty() ? full : newest)
                                         : lib->conda;
  std::string log_cuda = LogCudaVersion(facts);
  if (log_cuda.empty() || std::atoi(log_cuda.c_str()) != cuda) log_cuda = std::to_string(cuda);
  CudaMajorAdvice(version, cuda, log_cuda, newest, lib, fix);
  std::string commands;
  const bool both_cudnn8 = lib->family == "cudnn" && version == "8" && cuda == 0 && !pip.empty();
  if (both_cudnn8) BothCudnn8Advice(fix, commands);
  if (both_cudnn8) {
  } else if ((route == "conda" || (old_cuda && pip.empty())) && !conda.empty()) {
    fix.advice += "In a conda environment: conda install -c conda-forge " + conda + ".";
    AddCommand(commands, "conda install -c conda-forge " + conda);
  } else if ((route == "pip" || route == "conda" || route == "windows") && !pip.empty()) {
    fix.advice += "In this Python environment it comes from the pip package " + pip + ".";
    AddCommand(commands, "pip install " + pip);
  }
  if (!lib->system.empty()) fix.advice += " System install: " + Replace(lib->system, "{v}", full) + ".";
  if (commands.empty() && !pip.empty())
    AddCommand(commands, "pip install " + pip + "   # in a Python environment");
  if (route != "windows") PipLibraryFolderAdvice(both_cudnn8 ? "cudnn" : PipModule(pip), fix, commands);
  AddRequester(fix, *lib, what, commands);
  AddCommand(commands, "ldconfig -p | grep -F " + stem + "   # which copies the loader knows");
  if (route == "windows")
    fix.commands.powershell = commands.substr(0, commands.find('\n'));
  else
    fix.commands.bash = commands;
  return fix;
}

// The first namespace of an Itanium-mangled name ("_ZN3c104cuda9SetDeviceEi" -> "c10"; the typeinfo, vtable
// or typeinfo name of a class, "_ZTIN3c1021AutogradMetaInterfaceE", the same), "" when none.
std::string MangledNamespace(std::string_view symbol) {
  size_t i = 0;
  if (symbol.rfind("_ZN", 0) == 0) {
    i = 3;
  } else if (symbol.size() > 5 && symbol.rfind("_ZT", 0) == 0 &&
             std::string_view("IVS").find(symbol[3]) != std::string_view::npos && symbol[4] == 'N') {
    i = 5;
  } else {
    return "";
  }
  while (i < symbol.size() && (symbol[i] == 'K' || symbol[i] == 'V')) ++i;
  size_t len = 0;
  while (i < symbol.size() && std::isdigit(static_cast<unsigned char>(symbol[i])))
    len = len * 10 + (symbol[i++] - '0');
  return len == 0 || i + len > symbol.size() ? "" : std::string(symbol.substr(i, len));
}

// The Python package a compiled module belongs to, from its path
// ("site-packages/flash_attn_2_cuda.cpython-...so"
// -> "flash-attn"), "" when the path shows none.
std::string PackageOf(std::string_view path) {
  size_t at = path.rfind("-packages/");
  if (at == std::string_view::npos) return "";
  std::string_view rest = path.substr(at + 10);
  std::string name(rest.substr(0, rest.find_first_of("/.")));
  struct Known {
    const char* prefix;
    const char* package;
  };
  static const Known kKnown[] = {{"flash_attn", "flash-attn"},
                                 {"xformers", "xformers"},
                                 {"amp_C", "apex"},
                                 {"fused_", "apex"},
                                 {"apex", "apex"},
                                 {"torchvision", "torchvision"},
                                 {"torchaudio", "torchaudio"},
                                 {"vllm", "vllm"},
                                 {"bitsandbytes", "bitsandbytes"},
                                 {"deepspeed", "deepspeed"},
                                 {"mmcv", "mmcv"},
                                 {"detectron2", "detectron2"},
                                 {"torch_scatter", "torch-scatter"},
                                 {"torch_sparse", "torch-sparse"},
                                 {"causal_conv1d", "causal-conv1d"},
                                 {"selective_scan", "mamba-ssm"},
                                 {"mamba_ssm", "mamba-ssm"},
                                 {"transformer_engine", "transformer-engine"},
                                 {"torch", "torch"}};
  for (const Known& k : kKnown)
    if (name.rfind(k.prefix, 0) == 0) return k.package;
  return Replace(name, "_", "-");
}

// Which C++ ABI a torch symbol was compiled with: std::string mangles as "Ss" under the old ABI and as
// "NSt7__cxx1112basic_string..." under the C++11 one. torch's pip wheels use the C++11 ABI from 2.6 on.
std::string CxxAbiNote(std::string_view symbol) {
  if (symbol.find("St7__cxx11") != std::string_view::npos)
    return " The module was built with the C++11 ABI (_GLIBCXX_USE_CXX11_ABI=1, wheels tagged cxx11abiTRUE) "
           "for a "
           "torch built with the old one: pick the build for your torch's ABI "
           "(torch._C._GLIBCXX_USE_CXX11_ABI).";
  if (symbol.find("Ss") != std::string_view::npos)
    return " The module was built with the old C++ ABI (_GLIBCXX_USE_CXX11_ABI=0, wheels tagged "
           "cxx11abiFALSE); "
           "torch's pip wheels use the C++11 ABI from 2.6 on: pick the build for your torch's ABI "
           "(torch._C._GLIBCXX_USE_CXX11_ABI).";
  return "";
}

// What each package's own build offers.
std::string PackageNote(const std::string& package) {
  if (package == "flash-attn")
    return " Prebuilt flash_attn wheels name the torch, CUDA and ABI they are for "
           "(cu12torch2.6cxx11abiTRUE); to build "
           "from source instead of downloading one: FLASH_ATTENTION_FORCE_BUILD=TRUE pip install flash-attn "
           "--no-build-isolation.";
  return "";
}

LoaderFix UndefinedSymbol(const std::string& symbol, const std::string& requester,
                          const std::vector<LogFact>& facts) {
  LoaderFix fix;
  fix.requester = requester;
  const std::string ns = MangledNamespace(symbol);
  const std::string package = PackageOf(requester);
  const bool torch_abi = ns == "c10" || ns == "at" || ns == "torch" || ns == "caffe2";
  if (torch_abi && package != "torch") {
    const std::string name = package.empty() ? std::string("the module") : package;
    fix.component =
        package.empty() ? "a compiled extension of PyTorch" : package + " (a compiled extension of PyTorch)";
    fix.advice =
        symbol + " is a PyTorch (" + ns + "::) name: " + name +
        " was compiled against another torch "
        "release than the one installed. Install the " +
        name +
        " build made for this torch (and its CUDA), "
        "or build it from source against it; a torch upgraded after it was installed is the usual cause (" +
        ns + ":: names live in torch's " + (ns == "c10" ? "libc10.so" : "libtorch_cpu.so") + ")." +
        CxxAbiNote(symbol) + PackageNote(package);
    if (const std::string torch = LogFactValue(facts, "torch"); !torch.empty())
      fix.advice +=
          " The log states torch " + torch + ": the " + name +
          " build to install is the one made for torch " + torch +
          " (projects that publish one wheel per torch and CUDA name both in the wheel's version or index).";
    fix.commands.bash = "pip install --force-reinstall --no-cache-dir --no-build-isolation " +
                        (package.empty() ? std::string("PACKAGE") : package) +
                        "   # builds against the installed torch; or pick the wheel made for this torch";
  } else if (symbol.rfind("nccl", 0) == 0) {
    fix.component = "NCCL";
    fix.advice =
        symbol +
        " is an NCCL function missing from the libnccl that was loaded: an older NCCL (a system "
        "libnccl2, or one on LD_LIBRARY_PATH) shadows the one torch was built with (its nvidia-nccl wheel).";
    fix.commands.bash = "unset LD_LIBRARY_PATH   # then retry; or update the older libnccl it names";
  } else if (symbol == "iJIT_NotifyEvent") {
    fix.component = "Intel oneMKL (conda)";
    fix.advice =
        "iJIT_NotifyEvent was removed from oneMKL 2024.1; a PyTorch built against an older MKL then fails "
        "to load in a conda environment that pulled MKL 2024.1 or later: pin mkl to 2024.0.";
    fix.commands.bash = "conda install -c conda-forge 'mkl=2024.0'";
  } else if (symbol.rfind("cublas", 0) == 0 || symbol.rfind("cudnn", 0) == 0 || symbol.rfind("cu", 0) == 0 ||
             symbol.rfind("__cuda", 0) == 0) {
    fix.component = "a CUDA library";
    fix.advice =
        symbol + " belongs to a CUDA library (" + symbol.substr(0, std::min<size_t>(symbol.size(), 8)) +
        "...) older than the one the module was built against, found first on the loader's path: remove "
        "the older copy from LD_LIBRARY_PATH, or install matching versions.";
    fix.commands.bash = "echo $LD_LIBRARY_PATH; ldd " +
                        (requester.empty() ? std::string("MODULE.so") : requester) + " | grep -E 'cu|nccl'";
  } else {
    fix.component = package.empty() ? "" : package;
    fix.advice =
        (package.empty() ? std::string("The module") : package) +
        " was built against another version of a library than the one loaded (" + symbol +
        " is missing from it): install the build that matches what is installed, or build it from source "
        "against it.";
    if (!requester.empty())
      fix.commands.bash = "ldd " + requester + "   # which libraries it loads, and from where";
  }
  return fix;
}

LoaderFix CxxRuntime(const std::string& version, const std::string& file, const std::string& route,
                     const KnowledgeDb& db) {
  LoaderFix fix;
  fix.library = file.empty() ? "libstdc++.so.6" : file;
  fix.component = "the GNU C++ runtime (libstdc++)";
  const CxxRuntimeVersion* v = db.FindCxxRuntimeVersion(version);
  const std::string gcc = v != nullptr ? v->gcc : "";
  const std::string gcc_major = gcc.substr(0, gcc.find('.'));
  fix.advice = version +
               (gcc.empty() ? " is a libstdc++ symbol version newer than the one loaded"
                            : " comes with the libstdc++ of GCC " + gcc + " and later") +
               "; the libstdc++ loaded" + (file.empty() ? "" : " (" + file + ")") + " is older. ";
  const std::string at_least = gcc_major.empty() ? "" : ">=" + gcc_major;
  if (CondaPath(file)) {
    fix.advice += "It is the conda environment's own copy: update it (conda-forge libstdcxx-ng" + at_least +
                  "), or let the system's newer one load first.";
    fix.commands.bash =
        "conda install -c conda-forge 'libstdcxx-ng" + at_least + "'\n" +
        "strings /usr/lib/x86_64-linux-gnu/libstdc++.so.6 | grep -F " + version +
        " && export LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libstdc++.so.6   # if the system's has it";
  } else if (route == "conda") {
    fix.advice +=
        "The system's older copy was loaded for a conda environment: give the environment a newer one and "
        "put "
        "it first (conda-forge libgcc and libstdcxx-ng" +
        at_least + ", LD_LIBRARY_PATH=$CONDA_PREFIX/lib).";
    fix.commands.bash = "conda install -c conda-forge libgcc 'libstdcxx-ng" + at_least +
                        "'\nexport LD_LIBRARY_PATH=$CONDA_PREFIX/lib:$LD_LIBRARY_PATH";
  } else {
    fix.advice +=
        "This system's libstdc++ predates GCC " + (gcc.empty() ? std::string("the build's") : gcc) +
        ": install a build made for this distribution, put a newer libstdc++ first on LD_LIBRARY_PATH (a "
        "conda environment's libgcc/libstdcxx-ng, a devtoolset), run it in a newer distribution's container, "
        "or update the OS.";
    fix.commands.bash = "strings $(gcc -print-file-name=libstdc++.so.6) | grep -F " + version;
  }
  return fix;
}

LoaderFix Glibc(const std::string& version, const KnowledgeDb& db) {
  LoaderFix fix;
  fix.library = "libc.so.6";
  fix.component = "the GNU C library (glibc)";
  const auto wanted = Version::Parse(version.substr(version.find('_') + 1));
  std::string distros;
  if (wanted)
    for (const GlibcRelease* g : db.GlibcAtLeast(*wanted))
      for (const std::string& d : g->distributions) distros += (distros.empty() ? "" : ", ") + d;
  fix.advice =
      version + " is in glibc " + version.substr(version.find('_') + 1) + " and later" +
      (distros.empty() ? "" : " (" + distros + ")") +
      "; this system's glibc is older. Use a build of the program made for this distribution, build it "
      "from source on this system, or run it in a container of a newer one.";
  fix.commands.bash = "ldd --version | head -1";
  return fix;
}

// The Python package whose import failed: the package of the log's traceback frames that first appears
// last before the failure ("tensorflow" for a frame in site-packages/tensorflow/...), "" when no frame
// names one. Import machinery and Python's own modules are not packages.
std::string RequesterPackage(const ExplainMatch& match, const std::vector<LogFact>& facts) {
  const LogFact* last = nullptr;
  for (const LogFact& f : facts)
    if (f.kind == "package" && f.line <= match.first_line && (last == nullptr || f.line >= last->line))
      last = &f;
  if (last == nullptr) return "";
  std::string name = last->value;
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  return Replace(name, "_", "-");
}

}  // namespace

std::string LoaderRouteOf(const ExplainMatch& match, const std::vector<LogFact>& log_facts, bool windows) {
  if (windows) return "windows";
  if (HasFact(log_facts, "container")) return "container";
  if (HasFact(log_facts, "wsl")) return "wsl";
  if (HasFact(log_facts, "conda") || CondaPath(match.excerpt)) return "conda";
  if (Has(match.excerpt, "-packages/") || HasFact(log_facts, "venv")) return "pip";
  return "system";
}

std::optional<LoaderFix> LoaderFixFor(const ExplainMatch& match, const std::vector<LogFact>& log_facts,
                                      bool windows, const KnowledgeDb& db) {
  const std::string route = LoaderRouteOf(match, log_facts, windows);
  const std::string version = match.Capture("version"), symbol = match.Capture("symbol");
  std::string file = match.Capture("missing");
  if (file.empty()) file = match.Capture("lib");
  if (file.empty()) file = match.Capture("dll");
  if (file.empty() && !match.Capture("lname").empty())
    file = "lib" + match.Capture("lname") + ".so";  // ld's -lNAME
  LoaderFix fix;
  if (version.rfind("GLIBCXX_", 0) == 0 || version.rfind("CXXABI_", 0) == 0) {
    fix = CxxRuntime(version, file, route, db);
  } else if (version.rfind("GLIBC_", 0) == 0) {
    fix = Glibc(version, db);
  } else if (!symbol.empty()) {
    fix = UndefinedSymbol(symbol, file, log_facts);
  } else if (!file.empty()) {
    fix = MissingLibrary(FileName(file), route, log_facts, RequesterPackage(match, log_facts), db);
  } else {
    return std::nullopt;
  }
  fix.route = route;
  return fix;
}

}  // namespace gpudoctor
