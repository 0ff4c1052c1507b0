// A dotted version number ("6.2.4", "2.9.1", "13.0", "525.60.13") that compares part by part, so the
// knowledge base and the rules never compare versions as strings.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

class Version {
 public:
  Version() = default;

  // Accepts 1 to 4 dot-separated decimal parts of at most 9 digits each ("13", "6.2.4", "535.54.03").
  // Anything else ("", "6.", "v6", "6.x", "1.2.3.4.5") is rejected.
  static std::optional<Version> Parse(std::string_view text);
  // The release number a Python package version starts with: "0.22.1+cu128" -> 0.22.1, "2.8.0a0+git1"
  // -> 2.8.0, "0.0.28.post3" -> 0.0.28. nullopt when it does not start with one Parse accepts.
  static std::optional<Version> ParseLeading(std::string_view text);

  const std::vector<uint32_t>& parts() const { return parts_; }
  uint32_t major() const { return Part(0); }
  uint32_t minor() const { return Part(1); }
  uint32_t patch() const { return Part(2); }
  // Part i, or 0 when the version has fewer parts.
  uint32_t Part(size_t i) const { return i < parts_.size() ? parts_[i] : 0; }
  bool empty() const { return parts_.empty(); }

  // The text as written ("535.54.03" keeps its leading zero).
  const std::string& ToString() const { return text_; }

  // True when every part of `prefix` equals the same part here: 2.7.1 has prefix 2.7 and 2; 2.70 does not.
  bool HasPrefix(const Version& prefix) const;

  // Missing parts count as 0: 13 == 13.0, 6.2 < 6.2.4, 535.104 > 535.54.03.
  friend std::strong_ordering operator<=>(const Version& a, const Version& b);
  friend bool operator==(const Version& a, const Version& b) { return (a <=> b) == 0; }

 private:
  std::vector<uint32_t> parts_;
  std::string text_;
};

}  // namespace gpudoctor
