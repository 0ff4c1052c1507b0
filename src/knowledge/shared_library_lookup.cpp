// KnowledgeDb's lookups of shared_libraries.toml: a library file name to the component that ships it, a
// libstdc++ symbol version to its GCC release, a glibc version to the distributions that have it.
#include <algorithm>
#include <cctype>

#include "core/strings.h"
#include "knowledge/knowledge_db.h"

namespace gpudoctor {
namespace {

// The major version the digits of a file name stand for. Sonames write it first ("11.0", "8.9.2");
// CUDA's Windows DLLs write major and minor together ("cudart64_110.dll" is CUDA 11.0, "cudart64_90.dll"
// CUDA 9.0, "nvrtc64_120_0.dll" CUDA 12.0), HIP's and cuDNN's the major alone ("amdhip64_6", "cudnn64_9").
std::string MajorOf(std::string_view digits, bool dll) {
  std::string_view first = digits.substr(0, digits.find_first_of("._"));
  if (!dll) return std::string(first);
  if (first.size() == 3) return std::string(first.substr(0, 2));
  if (first.size() == 2 && first >= "20") return std::string(first.substr(0, 1));
  return std::string(first);
}

// Whether `file` (lower case) is what `pattern` names; `digits` gets what its '*' stands for.
bool NameMatches(std::string_view pattern, std::string_view file, std::string& digits) {
  const std::string p = ToLower(pattern);
  const size_t star = p.find('*');
  if (star == std::string::npos) return p == file;
  const std::string_view head = std::string_view(p).substr(0, star),
                         tail = std::string_view(p).substr(star + 1);
  if (file.size() < head.size() + tail.size() + 1 || file.substr(0, head.size()) != head ||
      !EndsWith(file, tail))
    return false;
  const std::string_view middle = file.substr(head.size(), file.size() - head.size() - tail.size());
  if (!std::isdigit(static_cast<unsigned char>(middle.front()))) return false;
  for (char c : middle)
    if (!std::isdigit(static_cast<unsigned char>(c)) && c != '.' && c != '_') return false;
  digits = std::string(middle);
  return true;
}

}  // namespace

const SharedLibrary* KnowledgeDb::FindSharedLibrary(std::string_view file, std::string* version) const {
  const size_t slash = file.find_last_of("/\\");
  const std::string name = ToLower(slash == std::string_view::npos ? file : file.substr(slash + 1));
  if (name.empty()) return nullptr;
  for (const SharedLibrary& l : shared_libraries) {
    for (const std::string& pattern : l.names) {
      std::string digits;
      if (!NameMatches(pattern, name, digits)) continue;
      if (version != nullptr) *version = digits.empty() ? "" : MajorOf(digits, EndsWith(name, ".dll"));
      return &l;
    }
  }
  return nullptr;
}

const CxxRuntimeVersion* KnowledgeDb::FindCxxRuntimeVersion(std::string_view symbol_version) const {
  for (const CxxRuntimeVersion& v : cxx_runtime_versions)
    if (v.symbol_version == symbol_version) return &v;
  return nullptr;
}

std::vector<const GlibcRelease*> KnowledgeDb::GlibcAtLeast(const Version& glibc) const {
  std::vector<const GlibcRelease*> out;
  for (const GlibcRelease& g : glibc_releases)
    if (!(g.glibc < glibc)) out.push_back(&g);
  std::sort(out.begin(), out.end(),
            [](const GlibcRelease* a, const GlibcRelease* b) { return a->glibc < b->glibc; });
  return out;
}

}  // namespace gpudoctor
