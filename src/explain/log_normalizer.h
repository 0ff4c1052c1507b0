// What a pasted log looks like once the terminal is taken out of it: ANSI escape sequences (colours, cursor
// moves, titles) removed, and lines the terminal wrapped at its width joined again, so that a message cut in
// two by an 80- or 120-column console still matches. Streaming, in chunks of any size, with bounded memory;
// the number of lines is kept (a joined continuation leaves an empty line behind), so line numbers stay those
// of the input.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace gpudoctor {

class LogNormalizer {
 public:
  // Appends the normalized form of the next bytes to `out`.
  void Feed(std::string_view chunk, std::string& out);
  // Appends what is still held (a last line, a wrapped line waiting for its continuation).
  void Finish(std::string& out);

  // Whether a line of `columns` characters may be one the terminal wrapped: the common console widths.
  static bool IsTerminalWidth(size_t columns);

 private:
  enum class Escape { kNone, kStart, kCsi, kOsc, kOscEscape };

  // Ends the current line, whose text (escapes and a final CR removed) is `line`, `columns` characters wide.
  void EndLine(std::string_view line, size_t columns, std::string& out);
  // At the start of a line: takes the next line whole when it is complete in `rest` and plain (no escape
  // sequence, short enough to hold); returns the bytes used (its newline included), 0 when it is not.
  size_t FeedWholeLine(std::string_view rest, std::string& out);
  // The state machine, byte by byte, up to and including the next newline; returns the bytes used.
  size_t FeedBytes(std::string_view rest, std::string& out);
  void EmitHeld(std::string& out);
  bool Continues(std::string_view next) const;

  Escape escape_ = Escape::kNone;
  std::string line_;          // the current line, escapes removed (while it may still be held)
  size_t columns_ = 0;        // its length in characters (UTF-8 continuation bytes not counted)
  bool streaming_ = false;    // the current line grew too long to hold: passed on as it comes
  std::string held_;          // a line that ended at a terminal width, waiting for the next one
  size_t held_newlines_ = 0;  // newlines owed after it: 1 plus one per continuation joined to it
  size_t held_width_ = 0;     // the width it was cut at
};

}  // namespace gpudoctor
