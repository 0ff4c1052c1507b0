// See cuda_arch_name.h.
#include "knowledge/cuda_arch_name.h"

#include <string>

#include "core/strings.h"

namespace gpudoctor {

std::optional<CudaArchName> ParseCudaArchName(std::string_view name) {
  size_t underscore = name.rfind('_');
  if (underscore == std::string_view::npos) return std::nullopt;
  std::string_view tail = name.substr(underscore + 1);
  CudaArchName out;
  if (!tail.empty() && (tail.back() == 'a' || tail.back() == 'f')) {
    out.specific = true;
    tail.remove_suffix(1);
  }
  auto number = ParseU64(tail);
  if (!number || *number < 10) return std::nullopt;
  auto cc = Version::Parse(std::to_string(*number / 10) + "." + std::to_string(*number % 10));
  if (!cc) return std::nullopt;
  out.cc = *cc;
  return out;
}

}  // namespace gpudoctor
