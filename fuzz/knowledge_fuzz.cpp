// libFuzzer target for the knowledge-base loader: the input (after its first byte) is the text of one
// data file, as a user's --db folder might hold; it must never crash, hang or throw, whatever the bytes.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "knowledge/knowledge_loader.h"

namespace {

// gfx_targets.toml, which most references point into, so the checks across files run on the input too.
gpudoctor::KnowledgeFileText GfxTargets() {
  for (const gpudoctor::KnowledgeFileText& f : gpudoctor::EmbeddedKnowledgeTexts()) {
    if (f.name == "data/gfx_targets.toml") return f;
  }
  return {"data/gfx_targets.toml", ""};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  gpudoctor::KnowledgeLoad alone = gpudoctor::ParseKnowledgeFile({"data/fuzz.toml", text});
  for (const gpudoctor::KnowledgeError& e : alone.errors) {
    if (e.file != "data/fuzz.toml") __builtin_trap();  // every error must name the file it came from
  }
  // With the gfx table beside it (slower: for one input in eight, picked by the first byte).
  if (data[0] % 8 == 0) {
    static const gpudoctor::KnowledgeFileText kGfx = GfxTargets();
    gpudoctor::KnowledgeLoad both = gpudoctor::ParseKnowledge({kGfx, {"data/fuzz.toml", text}});
    (void)both;
  }
  return 0;
}
