// WheelTomlText: cubins become TORCH_CUDA_ARCH_LIST entries ("sm_86" -> "8.6", PTX of the newest
// as "+PTX"), AMD processors the gfx list; arch-specific cubins (sm_90a, sm_100f: built for a few
// kernels only, not in the arch list) are named in a comment.
#include "probe/common/wheel_toml.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "binfmt/gpu_targets.h"

namespace gpudoctor {
namespace {

std::string Quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string List(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + Quoted(items[i]);
  return out + "]";
}

// "sm_86" -> "8.6"; "compute_120" -> "12.0"; "" for arch-specific names ("sm_90a") and others.
std::string CcOf(const std::string& name) {
  size_t underscore = name.rfind('_');
  if (underscore == std::string::npos) return "";
  std::string digits = name.substr(underscore + 1);
  if (digits.size() < 2 ||
      !std::all_of(digits.begin(), digits.end(), [](unsigned char c) { return std::isdigit(c); }))
    return "";
  return digits.substr(0, digits.size() - 1) + "." + digits.substr(digits.size() - 1);
}

// "2.7.1+cu128" -> {"2.7", "cu128"}; "2.10.0.dev20250101" -> {"2.10", ""}.
std::pair<std::string, std::string> SeriesAndVariant(const std::string& version) {
  const size_t plus = version.find('+');
  const std::string base = version.substr(0, plus);
  const std::string variant = plus == std::string::npos ? "" : version.substr(plus + 1);
  size_t first = base.find('.');
  size_t second = first == std::string::npos ? std::string::npos : base.find('.', first + 1);
  return {base.substr(0, second), variant};
}

std::string FileNameOf(const std::string& path) {
  size_t slash = path.find_last_of("/\\");
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The wheel's CUDA architectures as the [[torch_wheel]] row lists them ("8.0", "9.0+PTX"): a cubin's arch,
// "+PTX" where PTX of that arch is also carried; arch-specific names ("sm_90a") go to `special`, and PTX
// without a cubin of its arch is noted.
std::vector<std::string> CudaArchList(std::vector<std::string> cubins, std::vector<std::string> ptx,
                                      std::vector<std::string>& special, std::string& note) {
  SortArchNames(cubins);
  SortArchNames(ptx);
  std::vector<std::string> archs;
  for (const auto& c : cubins) {
    std::string cc = CcOf(c);
    if (cc.empty()) {
      special.push_back(c);
    } else if (std::find(archs.begin(), archs.end(), cc) == archs.end()) {
      archs.push_back(cc);
    }
  }
  for (const auto& p : ptx) {
    std::string cc = CcOf(p);
    if (cc.empty()) {
      special.push_back(p);
      continue;
    }
    auto it = std::find(archs.begin(), archs.end(), cc);
    if (it != archs.end()) {
      *it += "+PTX";
    } else {
      archs.push_back(cc + "+PTX");
      note += "PTX " + p + " without a cubin of that arch; ";
    }
  }
  return archs;
}

}  // namespace

Result<std::string> WheelTomlText(const WheelCode& code, const std::string& checked) {
  if (code.version.empty())
    return UserError(code.origin + ": no torch/version.py with a __version__ found",
                     "give a torch wheel (.whl) or the folder of a torch install");
  std::vector<std::string> cubins, ptx, special, gfx, files;
  for (const WheelLibraryCode& lib : code.libraries) {
    files.push_back(lib.path);
    for (const auto& c : lib.cuda_cubins)
      if (std::find(cubins.begin(), cubins.end(), c) == cubins.end()) cubins.push_back(c);
    for (const auto& p : lib.cuda_ptx)
      if (std::find(ptx.begin(), ptx.end(), p) == ptx.end()) ptx.push_back(p);
    for (const auto& g : lib.amd)
      if (std::find(gfx.begin(), gfx.end(), g) == gfx.end()) gfx.push_back(g);
  }
  if (cubins.empty() && ptx.empty() && gfx.empty()) {
    // A library that could not be read (damaged, a zip bomb) is the likelier reason: say so first.
    if (!code.warnings.empty())
      return UserError("torch " + code.version + " shows no GPU code: " + code.warnings.front(),
                       "download the wheel again; a CPU wheel has no [[torch_wheel]] entry");
    return UserError(code.origin + ": torch " + code.version + " holds no GPU code in its own libraries",
                     "a CPU wheel has no [[torch_wheel]] entry");
  }
  auto [series, variant] = SeriesAndVariant(code.version);
  const bool rocm = !gfx.empty();
  std::string read;
  for (const auto& f : files) read += (read.empty() ? "" : ", ") + f;
  std::string out = "# read from " + FileNameOf(code.origin) + " (torch " + code.version +
                    ") by `gpudoctor targets --wheel-toml`: " + read + "\n";
  std::string note;
  if (variant.empty()) {
    // A PyPI wheel has no local tag; name the variant after its toolkit.
    if (rocm) {
      const size_t dot = code.hip.find('.');
      variant = "rocm" + code.hip.substr(0, code.hip.find('.', dot == std::string::npos ? 0 : dot + 1));
    } else {
      std::string digits;
      for (char c : code.cuda)
        if (std::isdigit(static_cast<unsigned char>(c))) digits += c;
      variant = "cu" + digits;
    }
    note = "no local version tag (a PyPI wheel?): variant named after its toolkit; ";
  }
  out += "[[torch_wheel]]\n";
  out += "torch = " + Quoted(series) + "\n";
  out += "variant = " + Quoted(variant) + "\n";
  if (rocm) {
    out += "rocm = " + Quoted(variant.rfind("rocm", 0) == 0 ? variant.substr(4) : code.hip) + "\n";
    std::sort(gfx.begin(), gfx.end(), [](const std::string& a, const std::string& b) {
      return a.size() != b.size() ? a.size() < b.size() : a < b;
    });
    out += "gfx = " + List(gfx) + "\n";
  } else {
    const std::vector<std::string> archs = CudaArchList(cubins, ptx, special, note);
    out += "cuda = " + Quoted(code.cuda) + "\n";
    out += "cuda_archs = " + List(archs) + "\n";
    if (!special.empty()) {
      std::string names;
      for (const auto& s : special) names += (names.empty() ? "" : " ") + s;
      note += "also arch-specific code for a few kernels: " + names + "; ";
    }
  }
  note += "targets read from the wheel's libraries";
  out += "note = " + Quoted(note) + "\n";
  out += "source = " + List({"https://download.pytorch.org/whl/" + variant}) + "\n";
  out += "checked = " + checked + "\n";
  return out;
}

}  // namespace gpudoctor
