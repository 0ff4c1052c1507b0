// libFuzzer target for `gpudoctor port`'s lexer and translator: any bytes must lex to an error or to tokens
// that tile the input in order, and a translation must never crash, must keep every line (the translator
// changes identifiers, header names, launch punctuation and calls on their own line, and adds at most the
// runtime include), and must report findings inside the file.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "port/cuda_lexer.h"
#include "port/port_map.h"
#include "port/port_report.h"
#include "port/translator.h"

namespace {

const gpudoctor::PortMap& Map() {
  static const gpudoctor::PortMap* map = gpudoctor::EmbeddedPortMap().value();
  return *map;
}

size_t Lines(std::string_view s) {
  size_t n = 0;
  for (char c : s) n += c == '\n' ? 1 : 0;
  return n;
}

}  // namespace

// Loads the embedded port map before the first input, so its cost never counts towards an input's -timeout.
extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  (void)Map();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  auto tokens = gpudoctor::LexCuda(text);
  if (!tokens.ok()) {
    if (tokens.error().message.empty()) __builtin_trap();
    return 0;
  }
  uint32_t end = 0;
  for (const gpudoctor::Token& t : *tokens) {
    if (t.offset < end || t.offset + t.length > text.size() || t.line == 0 || t.column == 0) __builtin_trap();
    end = t.offset + t.length;
  }
  gpudoctor::PortOptions options;
  options.launch_macro = (data[0] & 1) != 0;
  if ((data[0] & 2) != 0) options.hip_version = gpudoctor::Version::Parse("5.2");
  auto t = gpudoctor::TranslateCuda(text, Map(), options);
  if (!t.ok()) __builtin_trap();  // it lexed above, so it must translate
  // Every line kept; the runtime include port adds (nvcc's implicit one) is the only new line.
  if (Lines(t->text) != Lines(text) + (t->report.runtime_include_added ? 1 : 0)) __builtin_trap();
  const size_t lines = Lines(text) + 1;
  for (const gpudoctor::PortFinding& f : t->report.findings)
    if (f.line == 0 || f.line > lines || f.message.empty()) __builtin_trap();
  gpudoctor::PortReport report;
  report.files.push_back(t->report);
  (void)gpudoctor::RenderPortText(report);
  (void)gpudoctor::RenderPortJson(report);
  return 0;
}
