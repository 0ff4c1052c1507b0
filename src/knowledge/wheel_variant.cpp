// See wheel_variant.h.
#include "knowledge/wheel_variant.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace gpudoctor {

std::optional<Version> CudaOfWheelVariant(std::string_view variant) {
  if (!variant.starts_with("cu")) return std::nullopt;
  const std::string_view digits = variant.substr(2);
  if (digits.size() < 2 || digits.size() > 3) return std::nullopt;
  if (!std::all_of(digits.begin(), digits.end(),
                   [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
    return std::nullopt;
  return Version::Parse(std::string(digits.substr(0, digits.size() - 1)) + "." + digits.back());
}

}  // namespace gpudoctor
