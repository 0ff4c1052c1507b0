// Optional values in the snapshot JSON: the value when there is one, null when not.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>

namespace gpudoctor {

template <typename T>
nlohmann::ordered_json OptionalToJson(const std::optional<T>& v) {
  return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

}  // namespace gpudoctor
