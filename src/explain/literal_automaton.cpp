// Building the Aho-Corasick DFA of literal_automaton.h: a trie over byte classes, failure links by
// breadth-first search, then every missing transition filled from the failure state so that the
// scan loop never follows a failure link.
#include "explain/literal_automaton.h"

#include <algorithm>
#include <deque>

namespace gpudoctor {
namespace {

unsigned char Fold(unsigned char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<unsigned char>(c - 'A' + 'a') : c;
}

constexpr uint32_t kNone = 0xffffffffu;

}  // namespace

LiteralAutomaton::LiteralAutomaton(const std::vector<std::string>& literals) {
  // Byte classes: one per distinct folded byte used by a literal; the rest share class 0.
  for (const std::string& lit : literals) {
    for (char ch : lit) {
      unsigned char c = Fold(static_cast<unsigned char>(ch));
      if (byte_class_[c] == 0) {
        byte_class_[c] = static_cast<uint8_t>(class_count_++);
        if (class_count_ > 255) break;  // cannot happen with text literals; keeps the table sound
      }
    }
  }
  for (int c = 'A'; c <= 'Z'; ++c) byte_class_[c] = byte_class_[Fold(static_cast<unsigned char>(c))];

  // Trie.
  std::vector<uint32_t> trie(class_count_, kNone);  // state 0 = root
  std::vector<std::vector<uint32_t>> out(1);
  auto new_state = [&] {
    trie.resize(trie.size() + class_count_, kNone);
    out.emplace_back();
    return static_cast<uint32_t>(out.size() - 1);
  };
  for (size_t id = 0; id < literals.size(); ++id) {
    const std::string& lit = literals[id];
    lengths_.push_back(lit.size());
    max_length_ = std::max(max_length_, lit.size());
    uint32_t s = 0;
    for (char ch : lit) {
      size_t k = byte_class_[Fold(static_cast<unsigned char>(ch))];
      if (trie[s * class_count_ + k] == kNone) {
        uint32_t t = new_state();
        trie[s * class_count_ + k] = t;
      }
      s = trie[s * class_count_ + k];
    }
    if (!lit.empty()) out[s].push_back(static_cast<uint32_t>(id));
  }

  // Failure links in BFS order; fill the DFA as we go.
  const size_t states = out.size();
  std::vector<uint32_t> fail(states, 0);
  std::vector<uint32_t> delta(states * class_count_, 0);  // by state number, renumbered below
  std::deque<uint32_t> queue;
  for (size_t k = 0; k < class_count_; ++k) {
    uint32_t t = trie[k];
    if (t == kNone) {
      delta[k] = 0;
    } else {
      delta[k] = t;
      fail[t] = 0;
      queue.push_back(t);
    }
  }
  while (!queue.empty()) {
    uint32_t s = queue.front();
    queue.pop_front();
    // Outputs of the failure state were computed already (it is shallower).
    const auto& inherited = out[fail[s]];
    out[s].insert(out[s].end(), inherited.begin(), inherited.end());
    for (size_t k = 0; k < class_count_; ++k) {
      uint32_t t = trie[s * class_count_ + k];
      if (t == kNone) {
        delta[s * class_count_ + k] = delta[fail[s] * class_count_ + k];
      } else {
        delta[s * class_count_ + k] = t;
        fail[t] = delta[fail[s] * class_count_ + k];
        queue.push_back(t);
      }
    }
  }

  Renumber(delta, out);
}

LiteralAutomaton::State LiteralAutomaton::FindEndings(State state, std::string_view text,
                                                      std::vector<Ending>& out,
                                                      std::vector<Ending>& scratch) const {
  const uint32_t* delta = delta_.data();
  const uint8_t* klass = byte_class_;
  const State first_accepting = first_accepting_;
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  const size_t mid = n / 2;
  if (n < kTwoWaysFrom || max_length_ == 0 || mid <= max_length_) {
    for (size_t i = Advance(state, text, 0); i < n; i = Advance(state, text, i + 1))
      out.push_back(Ending{static_cast<uint32_t>(i), state});
    return state;
  }
  const size_t second = mid - (max_length_ - 1);  // where the second half's stream starts, from kStart
  scratch.clear();
  State a = state;
  State b = kStart;
  for (size_t k = 0; k < mid; ++k) {
    a = delta[a + klass[p[k]]];
    b = delta[b + klass[p[second + k]]];
    if (a >= first_accepting) out.push_back(Ending{static_cast<uint32_t>(k), a});
    if (b >= first_accepting && second + k >= mid)
      scratch.push_back(Ending{static_cast<uint32_t>(second + k), b});
  }
  for (size_t i = second + mid; i < n; ++i) {
    b = delta[b + klass[p[i]]];
    if (b >= first_accepting) scratch.push_back(Ending{static_cast<uint32_t>(i), b});
  }
  out.insert(out.end(), scratch.begin(), scratch.end());
  return b;
}

// Numbers the states for the scan loop: the non-accepting ones first (the root stays 0), then the accepting
// ones; each state becomes its row offset.
void LiteralAutomaton::Renumber(const std::vector<uint32_t>& delta, std::vector<std::vector<uint32_t>>& out) {
  const size_t states = out.size();
  std::vector<uint32_t> order;  // new number -> old number
  for (size_t s = 0; s < states; ++s)
    if (out[s].empty()) order.push_back(static_cast<uint32_t>(s));
  const size_t accepting_from = order.size();
  for (size_t s = 0; s < states; ++s)
    if (!out[s].empty()) order.push_back(static_cast<uint32_t>(s));
  std::vector<uint32_t> number(states);  // old number -> new number
  for (size_t n = 0; n < states; ++n) number[order[n]] = static_cast<uint32_t>(n);

  const size_t width = class_count_;
  first_accepting_ = static_cast<State>(accepting_from * width);
  delta_.assign(states * width, 0);
  outputs_begin_.assign(states + 1, 0);
  for (size_t n = 0; n < states; ++n) {
    const uint32_t old = order[n];
    for (size_t k = 0; k < width; ++k)
      delta_[n * width + k] = static_cast<uint32_t>(number[delta[old * width + k]] * width);
    std::vector<uint32_t>& ids = out[old];
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    outputs_begin_[n] = static_cast<uint32_t>(outputs_.size());
    outputs_.insert(outputs_.end(), ids.begin(), ids.end());
  }
  outputs_begin_[states] = static_cast<uint32_t>(outputs_.size());
}

}  // namespace gpudoctor
