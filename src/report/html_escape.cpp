// HTML escaping for the report. One UTF-8 pass validates the text (the W3C/Unicode "maximal subpart"
// practice: each broken sequence becomes one U+FFFD) and drops what the HTML parser reports as an error
// (controls, noncharacters); the escapers then replace the few ASCII characters that carry meaning in
// markup.
#include "report/html_escape.h"

#include <cstdint>

namespace gpudoctor {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// Characters HTML forbids in a document ("control-character-in-input-stream", "noncharacter-...").
bool ForbiddenInHtml(uint32_t cp) {
  if (cp < 0x20) return cp != '\t' && cp != '\n' && cp != '\r';
  if (cp >= 0x7F && cp <= 0x9F) return true;
  if (cp >= 0xFDD0 && cp <= 0xFDEF) return true;
  return (cp & 0xFFFE) == 0xFFFE;
}

// The range of the second byte after a lead byte, and the sequence length; length 0 for a byte that
// cannot start a sequence.
struct Lead {
  int length = 0;
  uint8_t lo = 0x80, hi = 0xBF;
  uint32_t bits = 0;
};

Lead DecodeLead(uint8_t b) {
  if (b >= 0xC2 && b <= 0xDF) return {2, 0x80, 0xBF, b & 0x1Fu};
  if (b == 0xE0) return {3, 0xA0, 0xBF, b & 0x0Fu};
  if (b == 0xED) return {3, 0x80, 0x9F, b & 0x0Fu};  // no UTF-16 surrogates
  if (b >= 0xE1 && b <= 0xEF) return {3, 0x80, 0xBF, b & 0x0Fu};
  if (b == 0xF0) return {4, 0x90, 0xBF, b & 0x07u};
  if (b >= 0xF1 && b <= 0xF3) return {4, 0x80, 0xBF, b & 0x07u};
  if (b == 0xF4) return {4, 0x80, 0x8F, b & 0x07u};  // nothing above U+10FFFF
  return {};
}

// Calls `emit(std::string_view)` with the valid, allowed pieces of `text` and U+FFFD for the rest.
template <typename Emit>
void ForEachCharacter(std::string_view text, Emit&& emit) {
  size_t i = 0;
  while (i < text.size()) {
    const auto b = static_cast<uint8_t>(text[i]);
    if (b < 0x80) {
      if (ForbiddenInHtml(b))
        emit(kReplacement);
      else
        emit(text.substr(i, 1));
      ++i;
      continue;
    }
    Lead lead = DecodeLead(b);
    if (lead.length == 0) {
      emit(kReplacement);
      ++i;
      continue;
    }
    uint32_t cp = lead.bits;
    size_t n = 1;
    bool valid = true;
    for (; n < static_cast<size_t>(lead.length); ++n) {
      if (i + n >= text.size()) {
        valid = false;
        break;
      }
      const auto c = static_cast<uint8_t>(text[i + n]);
      const uint8_t lo = n == 1 ? lead.lo : 0x80, hi = n == 1 ? lead.hi : 0xBF;
      if (c < lo || c > hi) {
        valid = false;
        break;
      }
      cp = (cp << 6) | (c & 0x3Fu);
    }
    if (!valid || ForbiddenInHtml(cp))
      emit(kReplacement);
    else
      emit(text.substr(i, n));
    i += n;
  }
}

std::string Escape(std::string_view text, bool attribute) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  ForEachCharacter(text, [&](std::string_view piece) {
    if (piece.size() != 1) {
      out += piece;
      return;
    }
    switch (piece[0]) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      case '`':
        out += attribute ? "&#96;" : "`";
        break;
      case '=':
        out += attribute ? "&#61;" : "=";
        break;
      case '\n':
        out += attribute ? "&#10;" : "\n";
        break;
      case '\r':
        out += attribute ? "&#13;" : "\r";
        break;
      case '\t':
        out += attribute ? "&#9;" : "\t";
        break;
      default:
        out += piece;
    }
  });
  return out;
}

}  // namespace

std::string EscapeHtml(std::string_view text) {
  return Escape(text, /*attribute=*/false);
}

std::string EscapeHtmlAttribute(std::string_view text) {
  return Escape(text, /*attribute=*/true);
}

std::string SanitizeUtf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  ForEachCharacter(text, [&](std::string_view piece) { out += piece; });
  return out;
}

std::optional<std::string> SafeLinkHref(std::string_view url) {
  auto starts = [&](std::string_view prefix) {
    if (url.size() <= prefix.size()) return false;
    for (size_t i = 0; i < prefix.size(); ++i) {
      char c = url[i];
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      if (c != prefix[i]) return false;
    }
    return true;
  };
  if (!starts("https://") && !starts("http://")) return std::nullopt;
  for (char c : url) {
    const auto b = static_cast<uint8_t>(c);
    if (b <= 0x20 || b == 0x7F || c == '"' || c == '<' || c == '>' || c == '\\' || c == '`')
      return std::nullopt;
  }
  if (SanitizeUtf8(url) != url) return std::nullopt;
  return EscapeHtmlAttribute(url);
}

}  // namespace gpudoctor
