// The prefilter of `gpudoctor explain`: one Aho-Corasick automaton over the required literal of every
// catalog pattern, so a log is read once, byte by byte, whatever the size of the catalog.
//
// Why Aho-Corasick and not memmem per literal: the catalog has ~200 literals and many are common
// prefixes of one another ("hiperror", "cuda error"); memmem would pass over the text once per
// literal (200 passes over 100 MB), while the automaton makes one pass at a table lookup per byte.
// The table is a full DFA over byte classes (bytes that occur in no literal share class 0, ASCII
// letters are folded to lower case), so it stays small (states x classes x 4 bytes, ~300 KiB) and
// hot in cache. Matching is case-insensitive here; the regex decides exactly afterwards. The scan loop is a
// load and an add per byte; it leaves the loop only where a literal ends (under 1% of a log's bytes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

class LiteralAutomaton {
 public:
  // `literals` must be non-empty strings; they are lower-cased. Duplicates are allowed (each id reports).
  explicit LiteralAutomaton(const std::vector<std::string>& literals);

  // A state is its row's offset in the transition table (number x class count), so a step is one load
  // and one add; the accepting states are numbered last, so "some literal ends here" is one comparison.
  using State = uint32_t;
  static constexpr State kStart = 0;
  // Texts shorter than this are read in one stream by FindEndings.
  static constexpr size_t kTwoWaysFrom = 4096;

  size_t literal_count() const { return lengths_.size(); }
  size_t literal_length(size_t id) const { return lengths_[id]; }
  size_t max_literal_length() const { return max_length_; }
  size_t state_count() const { return outputs_begin_.size() - 1; }
  size_t class_count() const { return class_count_; }

  // Advances `state` over text[from...] and stops just after the first byte that ends a literal: returns that
  // byte's index (`state` is then accepting: see Outputs), or text.size() when no literal ends in the rest.
  size_t Advance(State& state, std::string_view text, size_t from) const {
    const uint32_t* delta = delta_.data();
    const uint8_t* klass = byte_class_;
    const State first_accepting = first_accepting_;
    const auto* p = reinterpret_cast<const unsigned char*>(text.data());
    const size_t n = text.size();
    State s = state;
    for (size_t i = from; i < n; ++i) {
      s = delta[s + klass[p[i]]];
      if (s >= first_accepting) {
        state = s;
        return i;
      }
    }
    state = s;
    return n;
  }

  // Where a literal ends: the index of its last byte and the (accepting) state reached there.
  struct Ending {
    uint32_t at = 0;
    State state = kStart;
  };
  // Advances over `text` (at most 4 GiB) from `state`, appends to `out` every place where some literal ends,
  // in order, and returns the state after the last byte. The same as Advance in a loop, but a long text is
  // read as two halves side by side, each step of one overlapping the wait for the other's table load: the
  // second half starts from kStart max_literal_length() - 1 bytes early, where its state joins the true one.
  // `scratch` holds the second half's endings meanwhile.
  State FindEndings(State state, std::string_view text, std::vector<Ending>& out,
                    std::vector<Ending>& scratch) const;

  // The ids of the literals that end when `state` is reached (empty for a state that is not accepting).
  std::span<const uint32_t> Outputs(State state) const {
    const size_t number = state / class_count_;
    return std::span<const uint32_t>(outputs_).subspan(outputs_begin_[number],
                                                       outputs_begin_[number + 1] - outputs_begin_[number]);
  }

  // Advances over `text` from `state`; for every literal ending at text[i] calls on_hit(i, literal_id).
  // Returns the state after the last byte (carry it into the next chunk of a stream).
  template <typename OnHit>
  State Scan(State state, std::string_view text, OnHit&& on_hit) const {
    for (size_t i = Advance(state, text, 0); i < text.size(); i = Advance(state, text, i + 1))
      for (uint32_t id : Outputs(state)) on_hit(i, id);
    return state;
  }

 private:
  void Renumber(const std::vector<uint32_t>& delta, std::vector<std::vector<uint32_t>>& out);

  uint8_t byte_class_[256] = {};
  size_t class_count_ = 1;
  std::vector<uint32_t> delta_;          // state + class -> next state (states are row offsets)
  State first_accepting_ = 0;            // states >= this one end some literal
  std::vector<uint32_t> outputs_begin_;  // per state number (+1): range into outputs_
  std::vector<uint32_t> outputs_;        // literal ids, including those reached through failure links
  std::vector<size_t> lengths_;
  size_t max_length_ = 0;
};

}  // namespace gpudoctor
