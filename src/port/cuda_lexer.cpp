// The CUDA C++ lexer of `gpudoctor port` (cuda_lexer.h): one pass over the bytes, no allocation per token
// beyond the token vector, every error with its line and column.
#include "port/cuda_lexer.h"

#include <string>

namespace gpudoctor {
namespace {

bool IsIdentStart(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c >= 0x80;
}
bool IsIdentChar(unsigned char c) {
  return IsIdentStart(c) || (c >= '0' && c <= '9');
}
bool IsDigit(unsigned char c) {
  return c >= '0' && c <= '9';
}

// Length of the valid UTF-8 sequence starting at s[i] (a byte >= 0x80), or 0 when it is invalid.
size_t Utf8Length(std::string_view s, size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  size_t n = 0;
  uint32_t min = 0, cp = 0;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2, min = 0x80, cp = c & 0x1F;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3, min = 0x800, cp = c & 0x0F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4, min = 0x10000, cp = c & 0x07;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}

  Result<std::vector<Token>> Run() {
    if (s_.size() > kMaxSourceBytes)
      return UserError("the file is " + std::to_string(s_.size() >> 20) + " MiB; port reads files up to " +
                           std::to_string(kMaxSourceBytes >> 20) + " MiB",
                       "is it generated code? translate the generator's input instead");
    // Bytes every construct must accept: checked once, up front, so each error names its place.
    if (auto st = CheckBytes(); !st.ok()) return st.error();
    while (i_ < s_.size()) {
      if (auto st = Next(); !st.ok()) return st.error();
    }
    return std::move(tokens_);
  }

 private:
  Status CheckBytes() {
    uint32_t line = 1;
    size_t line_start = 0;
    for (size_t i = 0; i < s_.size();) {
      const auto c = static_cast<unsigned char>(s_[i]);
      if (c == '\n') {
        if (i - line_start > kMaxLineBytes) return LineTooLong(line);
        ++line, line_start = ++i;
      } else if (c == 0) {
        return UserError(Where(line, i - line_start) + "a NUL byte",
                         "is this a binary file, or UTF-16 text? convert it to UTF-8");
      } else if (c >= 0x80) {
        size_t n = Utf8Length(s_, i);
        if (n == 0)
          return UserError(Where(line, i - line_start) + "invalid UTF-8 (byte 0x" + Hex(c) + ")",
                           "convert the file to UTF-8 (iconv -f LATIN1 -t UTF-8)");
        i += n;
      } else {
        ++i;
      }
    }
    if (s_.size() - line_start > kMaxLineBytes) return LineTooLong(line);
    return Ok{};
  }

  static std::string Hex(unsigned c) {
    const char* digits = "0123456789abcdef";
    return {digits[c >> 4], digits[c & 15]};
  }
  static std::string Where(uint32_t line, size_t column0) {
    return std::to_string(line) + ":" + std::to_string(column0 + 1) + ": ";
  }
  static Error LineTooLong(uint32_t line) {
    return UserError(
        std::to_string(line) + ":1: the line is longer than " + std::to_string(kMaxLineBytes >> 10) + " KiB",
        "is it generated or minified code? translate the generator's input instead");
  }
  Error ErrorAt(uint32_t line, uint32_t column, const std::string& what, const std::string& hint) const {
    return UserError(std::to_string(line) + ":" + std::to_string(column) + ": " + what, hint);
  }

  uint32_t Column() const { return static_cast<uint32_t>(i_ - line_start_ + 1); }
  char At(size_t k) const { return k < s_.size() ? s_[k] : '\0'; }

  void NewLine() {
    ++line_;
    line_start_ = i_;
    in_directive_ = false;
    at_line_start_ = true;
  }

  void Push(TokenKind kind, size_t start, uint32_t line, uint32_t column) {
    Token t;
    t.kind = kind;
    t.in_directive = in_directive_;
    t.offset = static_cast<uint32_t>(start);
    t.length = static_cast<uint32_t>(i_ - start);
    t.line = line;
    t.column = column;
    tokens_.push_back(t);
  }

  Status Next() {
    const char c = s_[i_];
    if (c == '\n') {
      ++i_;
      NewLine();
      return Ok{};
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++i_;
      return Ok{};
    }
    if (c == '\\' && (At(i_ + 1) == '\n' || (At(i_ + 1) == '\r' && At(i_ + 2) == '\n'))) {
      // A line continuation: the logical line (and a directive) goes on.
      i_ += At(i_ + 1) == '\n' ? 2 : 3;
      bool directive = in_directive_;
      NewLine();
      in_directive_ = directive;
      at_line_start_ = false;
      return Ok{};
    }
    const size_t start = i_;
    const uint32_t line = line_, column = Column();
    const bool first = at_line_start_;
    at_line_start_ = false;
    if (c == '/' && At(i_ + 1) == '/') return LineComment(start, line, column);
    if (c == '/' && At(i_ + 1) == '*') return BlockComment(start, line, column);
    if (c == '#' && first && !in_directive_) return Directive(start, line, column);
    if (c == '"' || c == '\'') return Quoted(start, line, column, start);
    if (IsDigit(static_cast<unsigned char>(c)) ||
        (c == '.' && IsDigit(static_cast<unsigned char>(At(i_ + 1))))) {
      Number();
      Push(TokenKind::kNumber, start, line, column);
      return Ok{};
    }
    if (IsIdentStart(static_cast<unsigned char>(c))) {
      while (i_ < s_.size() && IsIdentChar(static_cast<unsigned char>(s_[i_]))) ++i_;
      std::string_view word = s_.substr(start, i_ - start);
      if (At(i_) == '"' && (word == "R" || word == "u8R" || word == "uR" || word == "UR" || word == "LR"))
        return RawString(start, line, column);
      if ((At(i_) == '"' || At(i_) == '\'') && (word == "u8" || word == "u" || word == "U" || word == "L"))
        return Quoted(start, line, column, i_);
      Push(TokenKind::kIdentifier, start, line, column);
      if (include_pending_) include_pending_ = false;
      return Ok{};
    }
    if (include_pending_ && c == '<') {
      include_pending_ = false;
      size_t close = s_.find_first_of(">\n", i_ + 1);
      if (close != std::string_view::npos && s_[close] == '>') {
        i_ = close + 1;
        Push(TokenKind::kHeaderName, start, line, column);
        return Ok{};
      }
    }
    Punct();
    Push(s_.compare(start, 3, "<<<") == 0 && i_ - start == 3   ? TokenKind::kLaunchOpen
         : s_.compare(start, 3, ">>>") == 0 && i_ - start == 3 ? TokenKind::kLaunchClose
                                                               : TokenKind::kPunct,
         start, line, column);
    return Ok{};
  }

  Status LineComment(size_t start, uint32_t line, uint32_t column) {
    // Runs to the end of the line; a backslash before the newline continues it (translation phase 2).
    for (;;) {
      size_t nl = s_.find('\n', i_);
      if (nl == std::string_view::npos) {
        i_ = s_.size();
        break;
      }
      size_t end = nl;
      if (end > i_ && s_[end - 1] == '\r') --end;
      if (end > i_ && s_[end - 1] == '\\') {
        i_ = nl + 1;
        ++line_;
        line_start_ = i_;
        continue;
      }
      i_ = end;
      break;
    }
    Push(TokenKind::kComment, start, line, column);
    return Ok{};
  }

  Status BlockComment(size_t start, uint32_t line, uint32_t column) {
    size_t close = s_.find("*/", i_ + 2);
    if (close == std::string_view::npos)
      return ErrorAt(line, column, "a /* comment that is never closed", "add the missing */");
    for (size_t k = i_; k < close; ++k) {
      if (s_[k] == '\n') {
        ++line_;
        line_start_ = k + 1;
      }
    }
    i_ = close + 2;
    Push(TokenKind::kComment, start, line, column);
    return Ok{};
  }

  Status Directive(size_t start, uint32_t line, uint32_t column) {
    in_directive_ = true;
    ++i_;
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t')) ++i_;
    size_t name = i_;
    while (i_ < s_.size() && IsIdentChar(static_cast<unsigned char>(s_[i_]))) ++i_;
    std::string_view word = s_.substr(name, i_ - name);
    include_pending_ = word == "include" || word == "include_next" || word == "import";
    Push(TokenKind::kDirective, start, line, column);
    return Ok{};
  }

  // "..." or '...' starting at `quote` (after any encoding prefix that began at `start`).
  Status Quoted(size_t start, uint32_t line, uint32_t column, size_t quote) {
    const char q = s_[quote];
    const bool header = include_pending_ && q == '"';
    include_pending_ = false;
    i_ = quote + 1;
    while (i_ < s_.size()) {
      char c = s_[i_];
      if (c == q) {
        ++i_;
        Push(header ? TokenKind::kHeaderName : TokenKind::kString, start, line, column);
        return Ok{};
      }
      if (c == '\n') break;
      if (c == '\\' && !header) {
        if (At(i_ + 1) == '\n' || (At(i_ + 1) == '\r' && At(i_ + 2) == '\n')) {
          i_ += At(i_ + 1) == '\n' ? 2 : 3;
          bool directive = in_directive_;
          NewLine();
          in_directive_ = directive;
          at_line_start_ = false;
          continue;
        }
        i_ += 2;
        continue;
      }
      ++i_;
    }
    return ErrorAt(
        line, column,
        q == '"' ? "a string that is never closed on its line" : "a character literal that is never closed",
        q == '"' ? "add the missing \" (a string cannot span lines without a backslash)"
                 : "add the missing '");
  }

  Status RawString(size_t start, uint32_t line, uint32_t column) {
    // R"delim( ... )delim": the delimiter is at most 16 characters, without spaces, parentheses or
    // backslashes.
    size_t open = s_.find('(', i_ + 1);
    if (open == std::string_view::npos || open - (i_ + 1) > 16)
      return ErrorAt(line, column, "a raw string without its opening delimiter",
                     "write R\"delim( ... )delim\"");
    std::string_view delim = s_.substr(i_ + 1, open - (i_ + 1));
    for (char c : delim)
      if (c == ' ' || c == ')' || c == '\\' || c == '\t' || c == '\n')
        return ErrorAt(line, column, "a raw string whose delimiter holds a space, ')' or '\\'",
                       "write R\"delim( ... )delim\"");
    std::string close = ")" + std::string(delim) + "\"";
    size_t end = s_.find(close, open + 1);
    if (end == std::string_view::npos)
      return ErrorAt(line, column, "a raw string that is never closed", "add the missing " + close);
    for (size_t k = open; k < end; ++k) {
      if (s_[k] == '\n') {
        ++line_;
        line_start_ = k + 1;
      }
    }
    i_ = end + close.size();
    Push(TokenKind::kString, start, line, column);
    return Ok{};
  }

  void Number() {
    // A pp-number: digits, letters, '.', digit separators and exponent signs.
    ++i_;
    while (i_ < s_.size()) {
      const auto c = static_cast<unsigned char>(s_[i_]);
      if (IsIdentChar(c) || c == '.') {
        ++i_;
      } else if (c == '\'' && IsIdentChar(static_cast<unsigned char>(At(i_ + 1)))) {
        i_ += 2;
      } else if ((c == '+' || c == '-') &&
                 (s_[i_ - 1] == 'e' || s_[i_ - 1] == 'E' || s_[i_ - 1] == 'p' || s_[i_ - 1] == 'P')) {
        ++i_;
      } else {
        break;
      }
    }
  }

  void Punct() {
    static constexpr std::string_view kLong[] = {"<<<", ">>>", "::", "->", ">>", "<<",
                                                 "==",  "!=",  "<=", ">=", "&&", "||"};
    for (std::string_view p : kLong) {
      if (s_.compare(i_, p.size(), p) == 0) {
        i_ += p.size();
        return;
      }
    }
    ++i_;
  }

  std::string_view s_;
  size_t i_ = 0;
  size_t line_start_ = 0;
  uint32_t line_ = 1;
  bool in_directive_ = false;
  bool at_line_start_ = true;
  bool include_pending_ = false;
  std::vector<Token> tokens_;
};

}  // namespace

Result<std::vector<Token>> LexCuda(std::string_view source) {
  return Lexer(source).Run();
}

}  // namespace gpudoctor
