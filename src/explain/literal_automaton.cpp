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
  delta_.assign(states * class_count_, 0);
  std::deque<uint32_t> queue;
  for (size_t k = 0; k < class_count_; ++k) {
    uint32_t t = trie[k];
    if (t == kNone) {
      delta_[k] = 0;
    } else {
      delta_[k] = t;
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
        delta_[s * class_count_ + k] = delta_[fail[s] * class_count_ + k];
      } else {
        delta_[s * class_count_ + k] = t;
        fail[t] = delta_[fail[s] * class_count_ + k];
        queue.push_back(t);
      }
    }
  }

  accepting_.assign(states, 0);
  outputs_begin_.assign(states + 1, 0);
  for (size_t s = 0; s < states; ++s) {
    std::sort(out[s].begin(), out[s].end());
    out[s].erase(std::unique(out[s].begin(), out[s].end()), out[s].end());
    accepting_[s] = out[s].empty() ? 0 : 1;
    outputs_begin_[s] = static_cast<uint32_t>(outputs_.size());
    outputs_.insert(outputs_.end(), out[s].begin(), out[s].end());
  }
  outputs_begin_[states] = static_cast<uint32_t>(outputs_.size());
}

}  // namespace gpudoctor
