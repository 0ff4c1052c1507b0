// The tokens of one source without its comments, with the small look-around helpers the translator and the
// hazard scans share (the previous and next token, matching brackets, text comparison).
#pragma once

#include <string_view>
#include <utility>
#include <vector>

#include "port/cuda_lexer.h"

namespace gpudoctor {

class CodeTokens {
 public:
  CodeTokens(std::string_view source, const std::vector<Token>& all) : source_(source) {
    code_.reserve(all.size());
    for (const Token& t : all)
      if (t.kind != TokenKind::kComment) code_.push_back(t);
  }

  size_t size() const { return code_.size(); }
  const Token& operator[](size_t i) const { return code_[i]; }
  std::string_view source() const { return source_; }
  std::string_view Text(size_t i) const {
    return i < code_.size() ? code_[i].Text(source_) : std::string_view();
  }
  bool Is(size_t i, std::string_view text) const { return i < code_.size() && Text(i) == text; }
  bool IsKind(size_t i, TokenKind kind) const { return i < code_.size() && code_[i].kind == kind; }
  // i - 1 as an index that is size() when there is none.
  size_t Prev(size_t i) const { return i == 0 ? code_.size() : i - 1; }

  // The index of the bracket closing the one at `open` ("(", "[", "{"), or size() when it is not closed.
  size_t Matching(size_t open) const {
    std::string_view o = Text(open);
    std::string_view c = o == "(" ? ")" : o == "[" ? "]" : "}";
    int depth = 0;
    for (size_t k = open; k < code_.size(); ++k) {
      if (Text(k) == o) ++depth;
      if (Text(k) == c && --depth == 0) return k;
    }
    return code_.size();
  }

  // The arguments of the call whose "(" is at `open`: [first, last] token indices per argument, split at the
  // commas outside brackets and outside template arguments (kernel<float, 4>); empty for "()" or an
  // unclosed call.
  std::vector<std::pair<size_t, size_t>> Arguments(size_t open) const {
    std::vector<std::pair<size_t, size_t>> args;
    const size_t close = Matching(open);
    if (close >= code_.size() || close == open + 1) return args;
    int depth = 0, angle = 0;
    size_t first = open + 1;
    for (size_t k = open + 1; k < close; ++k) {
      std::string_view t = Text(k);
      if (t == "(" || t == "[" || t == "{") ++depth;
      if (t == ")" || t == "]" || t == "}") --depth;
      if (t == "<" && code_[k - 1].kind == TokenKind::kIdentifier) ++angle;
      if (t == ">" && angle > 0) --angle;
      if (t == ">>" && angle > 0) angle = angle > 1 ? angle - 2 : 0;
      if (t == "," && depth == 0 && angle == 0) {
        args.emplace_back(first, k - 1);
        first = k + 1;
      }
    }
    args.emplace_back(first, close - 1);
    return args;
  }

  // The offset where the line holding token i starts.
  uint32_t LineStart(size_t i) const {
    uint32_t at = code_[i].offset;
    while (at > 0 && source_[at - 1] != '\n') --at;
    return at;
  }

 private:
  std::string_view source_;
  std::vector<Token> code_;
};

}  // namespace gpudoctor
