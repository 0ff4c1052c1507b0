// The prefilter of `gpudoctor explain`: one Aho-Corasick automaton over the required literal of every
// catalog pattern, so a log is read once, byte by byte, whatever the size of the catalog.
//
// Why Aho-Corasick and not memmem per literal: the catalog has ~200 literals and many are common
// prefixes of one another ("hiperror", "cuda error"); memmem would pass over the text once per
// literal (200 passes over 100 MB), while the automaton makes one pass at a table lookup per byte.
// The table is a full DFA over byte classes (bytes that occur in no literal share class 0, ASCII
// letters are folded to lower case), so it stays small (states x classes x 4 bytes, ~300 KiB) and
// hot in cache. Matching is case-insensitive here; the regex decides exactly afterwards.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

class LiteralAutomaton {
 public:
  // `literals` must be non-empty strings; they are lower-cased. Duplicates are allowed (each id reports).
  explicit LiteralAutomaton(const std::vector<std::string>& literals);

  using State = uint32_t;
  static constexpr State kStart = 0;

  size_t literal_count() const { return lengths_.size(); }
  size_t literal_length(size_t id) const { return lengths_[id]; }
  size_t max_literal_length() const { return max_length_; }
  size_t state_count() const { return outputs_begin_.size() - 1; }

  // Advances over `text` from `state`; for every literal ending at text[i] calls on_hit(i, literal_id).
  // Returns the state after the last byte (carry it into the next chunk of a stream).
  template <typename OnHit>
  State Scan(State state, std::string_view text, OnHit&& on_hit) const {
    const uint32_t* delta = delta_.data();
    const uint8_t* klass = byte_class_;
    const uint8_t* accepting = accepting_.data();
    const size_t width = class_count_;
    const auto* p = reinterpret_cast<const unsigned char*>(text.data());
    const size_t n = text.size();
    for (size_t i = 0; i < n; ++i) {
      state = delta[state * width + klass[p[i]]];
      if (accepting[state] != 0) {
        for (uint32_t k = outputs_begin_[state]; k < outputs_begin_[state + 1]; ++k) on_hit(i, outputs_[k]);
      }
    }
    return state;
  }

 private:
  uint8_t byte_class_[256] = {};
  size_t class_count_ = 1;
  std::vector<uint32_t> delta_;          // state * class_count_ + class -> next state
  std::vector<uint8_t> accepting_;       // per state: some literal ends here
  std::vector<uint32_t> outputs_begin_;  // per state (+1): range into outputs_
  std::vector<uint32_t> outputs_;        // literal ids, including those reached through failure links
  std::vector<size_t> lengths_;
  size_t max_length_ = 0;
};

}  // namespace gpudoctor
