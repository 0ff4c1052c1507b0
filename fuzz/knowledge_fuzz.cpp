// libFuzzer target for the knowledge-base loader: the input is the text of one
// data file, as a user's --db folder might hold (so data/*.toml are seeds as
// they are); it must never crash, hang or throw, whatever the bytes. One input
// in eight (by its length) is also loaded beside a gfx_targets.toml, so the
// checks across files run on it too: a gfx table cut down to the [[gfx_target]]
// entries whose names the input mentions (at most kMaxGfxEntries), so that its
// references resolve while each such input costs a few entries more, not the
// whole 15 KB table (which made this target 8x slower).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "knowledge/knowledge_loader.h"

namespace {

constexpr size_t kMaxGfxEntries = 6;

// The embedded gfx_targets.toml as its entries: each [[gfx_target]] paragraph with its name.
struct GfxEntry {
  std::string name;
  std::string text;
};

std::vector<GfxEntry> SplitGfxTargets() {
  std::string_view all;
  std::vector<gpudoctor::KnowledgeFileText> files = gpudoctor::EmbeddedKnowledgeTexts();
  for (const gpudoctor::KnowledgeFileText& f : files) {
    if (f.name == "data/gfx_targets.toml") all = f.text;
  }
  std::vector<GfxEntry> entries;
  constexpr std::string_view kHeader = "[[gfx_target]]";
  for (size_t at = all.find(kHeader); at != std::string_view::npos;) {
    size_t next = all.find(kHeader, at + kHeader.size());
    std::string_view entry =
        all.substr(at, next == std::string_view::npos ? std::string_view::npos : next - at);
    size_t name_at = entry.find("name = \"");
    if (name_at != std::string_view::npos) {
      size_t begin = name_at + 8, end = entry.find('"', begin);
      if (end != std::string_view::npos)
        entries.push_back({std::string(entry.substr(begin, end - begin)), std::string(entry)});
    }
    at = next;
  }
  return entries;
}

const std::vector<GfxEntry>& GfxEntries() {
  static const std::vector<GfxEntry> entries = SplitGfxTargets();
  return entries;
}

// A gfx_targets.toml of the entries the input names (the first kMaxGfxEntries), or of the first entry.
std::string GfxTableFor(std::string_view input) {
  const std::vector<GfxEntry>& entries = GfxEntries();
  std::string table;
  size_t used = 0;
  for (const GfxEntry& e : entries) {
    if (used == kMaxGfxEntries) break;
    if (input.find(e.name) == std::string_view::npos) continue;
    table += e.text;
    table += '\n';
    ++used;
  }
  if (used == 0 && !entries.empty()) table = entries.front().text;
  return table;
}

}  // namespace

// Splits the embedded gfx table before the first input, so its cost never counts towards an input's -timeout.
extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  if (GfxEntries().size() < 20) __builtin_trap();  // the split must find the table's entries
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  gpudoctor::KnowledgeLoad alone = gpudoctor::ParseKnowledgeFile({"data/fuzz.toml", text});
  for (const gpudoctor::KnowledgeError& e : alone.errors) {
    if (e.file != "data/fuzz.toml") __builtin_trap();  // every error must name the file it came from
  }
  if (size % 8 == 0) {
    gpudoctor::KnowledgeLoad both =
        gpudoctor::ParseKnowledge({{"data/gfx_targets.toml", GfxTableFor(text)}, {"data/fuzz.toml", text}});
    (void)both;
  }
  return 0;
}
