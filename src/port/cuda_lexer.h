// A lexer for CUDA C++ source, just deep enough for `gpudoctor port`: it finds identifiers, header names,
// numbers and the `<<<`/`>>>` of kernel launches, and steps over comments, strings (raw strings too) and
// character literals so that nothing inside them is ever translated. The text between tokens is never
// looked at again: the translator copies it as it is, so layout and comments survive.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace gpudoctor {

enum class TokenKind {
  kIdentifier,
  kNumber,
  kString,       // "...", u8"...", R"d(...)d", also a char literal '...'
  kComment,      // // ... and /* ... */
  kDirective,    // '#' and the directive's name ("#include", "# define")
  kHeaderName,   // <cuda_runtime.h> or "kernels.cuh" after #include
  kPunct,        // one operator or punctuator ("::", "->", ">>", "<<" are one token each)
  kLaunchOpen,   // <<<
  kLaunchClose,  // >>> (also the end of a nested template such as A<B<C<int>>>: the translator decides)
};

struct Token {
  TokenKind kind = TokenKind::kPunct;
  bool in_directive = false;  // part of a preprocessor line
  uint32_t offset = 0;        // byte offset into the source
  uint32_t length = 0;
  uint32_t line = 1;    // 1-based
  uint32_t column = 1;  // 1-based, in bytes

  std::string_view Text(std::string_view source) const { return source.substr(offset, length); }
};

// Limits that turn hostile input into a clear error instead of a stall.
inline constexpr size_t kMaxSourceBytes = 64u << 20;  // one source file
inline constexpr size_t kMaxLineBytes = 1u << 20;     // one line: generated or minified code beyond this

// Splits `source` into tokens. Errors (user errors, "LINE:COLUMN: what"): an unterminated comment, string,
// raw string or character literal, a NUL byte, invalid UTF-8, a line over kMaxLineBytes, a file over
// kMaxSourceBytes.
Result<std::vector<Token>> LexCuda(std::string_view source);

}  // namespace gpudoctor
