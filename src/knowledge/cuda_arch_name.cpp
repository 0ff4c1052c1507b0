// See cuda_arch_name.h.
#include "knowledge/cuda_arch_name.h"

#include <algorithm>
#include <string>

#include "core/strings.h"

namespace gpudoctor {

std::optional<CudaArchName> ParseCudaArchName(std::string_view name) {
  std::string_view tail;
  for (std::string_view prefix : {"sm_", "compute_", "lto_"})
    if (StartsWith(name, prefix)) tail = name.substr(prefix.size());
  CudaArchName out;
  if (!tail.empty() && (tail.back() == 'a' || tail.back() == 'f')) {
    out.specific = true;
    tail.remove_suffix(1);
  }
  const bool digits = std::all_of(tail.begin(), tail.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (tail.size() < 2 || tail.size() > 3 || !digits) return std::nullopt;  // ParseU64 would trim "sm_ 86"
  auto number = ParseU64(tail);
  if (!number || *number < 10) return std::nullopt;
  auto cc = Version::Parse(std::to_string(*number / 10) + "." + std::to_string(*number % 10));
  if (!cc) return std::nullopt;
  out.cc = *cc;
  return out;
}

std::optional<Version> ComputeCapabilityOf(std::string_view text) {
  if (auto name = ParseCudaArchName(text)) return name->cc;
  auto v = Version::Parse(std::string(text));
  if (!v || v->parts().size() != 2) return std::nullopt;
  return v;
}

}  // namespace gpudoctor
