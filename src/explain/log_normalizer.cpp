// The terminal taken out of a log (log_normalizer.h): an escape-sequence state machine over the bytes, and a
// one-line look-behind that joins a line cut at a console width with its continuation.
#include "explain/log_normalizer.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>

namespace gpudoctor {
namespace {

constexpr size_t kMaxHeldLine = 4096;  // longer lines are never wrap candidates: stream them
constexpr size_t kMaxJoined = 16;      // continuations joined to one line at most

bool WordByte(unsigned char c) {
  return c >= 0x80 || std::isalnum(c) || c == '_' || c == '.' || c == '/' || c == '\\' || c == '-' ||
         c == ':' || c == '\'' || c == '"' || c == ',';
}

}  // namespace

bool LogNormalizer::IsTerminalWidth(size_t columns) {
  static constexpr std::array<size_t, 13> kWidths{80,  100, 110, 120, 132, 140, 150,
                                                  160, 180, 200, 220, 240, 250};
  for (size_t w : kWidths)
    if (columns == w) return true;
  return false;
}

// A continuation starts with a word character, not with indentation or a new record of the same shape as the
// held line (two log records share their first characters: a timestamp, a level, a prefix).
bool LogNormalizer::Continues(std::string_view next) const {
  if (next.empty() || !WordByte(static_cast<unsigned char>(next.front()))) return false;
  const std::string_view held(held_);
  const size_t last_start =
      held.size() > held_width_ ? held.size() - held_width_ : 0;  // the last cut segment
  std::string_view head = held.substr(last_start, 4);
  if (next.substr(0, head.size()) == head) return false;
  return WordByte(static_cast<unsigned char>(held.back()));
}

void LogNormalizer::EmitHeld(std::string& out) {
  if (held_newlines_ == 0) return;
  out += held_;
  out.append(held_newlines_, '\n');
  held_.clear();
  held_newlines_ = 0;
}

void LogNormalizer::EndLine(std::string_view line, size_t columns, std::string& out) {
  if (streaming_) {  // already passed on
    out.push_back('\n');
  } else if (held_newlines_ > 0 && held_newlines_ <= kMaxJoined && Continues(line)) {
    held_ += line;
    ++held_newlines_;
    if (!IsTerminalWidth(columns)) EmitHeld(out);  // the continuation ended the message
  } else {
    EmitHeld(out);
    const bool ends_in_word = !line.empty() && WordByte(static_cast<unsigned char>(line.back()));
    if (IsTerminalWidth(columns) && ends_in_word) {
      held_.assign(line);
      held_newlines_ = 1;
      held_width_ = columns;
    } else {
      out += line;
      out.push_back('\n');
    }
  }
  line_.clear();
  columns_ = 0;
  streaming_ = false;
}

size_t LogNormalizer::FeedWholeLine(std::string_view rest, std::string& out) {
  if (escape_ != Escape::kNone || streaming_ || !line_.empty()) return 0;  // inside a line or a sequence
  const void* nl = std::memchr(rest.data(), '\n', rest.size());
  if (nl == nullptr) return 0;
  std::string_view line = rest.substr(0, static_cast<size_t>(static_cast<const char*>(nl) - rest.data()));
  if (line.size() > kMaxHeldLine || std::memchr(line.data(), 0x1b, line.size()) != nullptr) return 0;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);  // CRLF: the CR is no part of the text
  const auto columns = static_cast<size_t>(std::count_if(
      line.begin(), line.end(), [](char ch) { return (static_cast<unsigned char>(ch) & 0xc0) != 0x80; }));
  EndLine(line, columns, out);
  return static_cast<size_t>(static_cast<const char*>(nl) - rest.data()) + 1;
}

size_t LogNormalizer::FeedBytes(std::string_view rest, std::string& out) {
  size_t used = 0;
  for (char ch : rest) {
    ++used;
    const auto c = static_cast<unsigned char>(ch);
    switch (escape_) {
      case Escape::kNone:
        break;
      case Escape::kStart:  // ESC [ is a CSI, ESC ] an OSC, anything else ends a two-byte sequence
        escape_ = c == '[' ? Escape::kCsi : c == ']' ? Escape::kOsc : Escape::kNone;
        continue;
      case Escape::kCsi:  // parameters and intermediates, then one final byte 0x40-0x7e
        if (c >= 0x40 && c <= 0x7e) escape_ = Escape::kNone;
        if (c != '\n') continue;
        escape_ = Escape::kNone;  // a newline ends a broken sequence
        break;
      case Escape::kOsc:  // a title or link, ended by BEL or ESC backslash
        if (c == 0x07) escape_ = Escape::kNone;
        if (c == 0x1b) escape_ = Escape::kOscEscape;
        if (c != '\n') continue;
        escape_ = Escape::kNone;
        break;
      case Escape::kOscEscape:
        escape_ = c == '\\' ? Escape::kNone : Escape::kOsc;
        continue;
    }
    if (c == 0x1b) {
      escape_ = Escape::kStart;
      continue;
    }
    if (c == '\n') {
      if (!streaming_ && !line_.empty() && line_.back() == '\r') {  // CRLF: the CR is no part of the text
        line_.pop_back();
        --columns_;
      }
      EndLine(line_, columns_, out);
      return used;  // at the start of a line: the caller may take the next ones whole
    }
    if (streaming_) {
      out.push_back(ch);
      continue;
    }
    line_.push_back(ch);
    if ((c & 0xc0) != 0x80) ++columns_;
    if (line_.size() > kMaxHeldLine) {  // too long to be a wrapped line: pass it on from here
      EmitHeld(out);
      out += line_;
      line_.clear();
      streaming_ = true;
    }
  }
  return used;
}

// Whole lines without escape sequences (nearly all of a log) go through FeedWholeLine at memchr speed; the
// byte-by-byte state machine takes the rest: escapes, a line split across chunks, a line too long to hold.
void LogNormalizer::Feed(std::string_view chunk, std::string& out) {
  size_t i = 0;
  while (i < chunk.size()) {
    const size_t whole = FeedWholeLine(chunk.substr(i), out);
    i += whole != 0 ? whole : FeedBytes(chunk.substr(i), out);
  }
}

void LogNormalizer::Finish(std::string& out) {
  // The last line has no newline: it may still continue a held one.
  if (!streaming_ && held_newlines_ > 0 && !line_.empty() && Continues(line_)) {
    held_ += line_;
    line_.clear();
  }
  EmitHeld(out);
  out += line_;
  line_.clear();
  columns_ = 0;
  streaming_ = false;
}

}  // namespace gpudoctor
