// libFuzzer target for the knowledge-base loader: the input is the text of one
// data file, as a user's --db folder might hold (so data/*.toml are seeds as
// they are); it must never crash, hang or throw, whatever the bytes. One input
// in eight (by its length) is also loaded beside gfx_targets.toml, so the
// checks across files run on it too.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "knowledge/knowledge_loader.h"

namespace {

// gfx_targets.toml, which most references point into; looked up once per
// process.
const gpudoctor::KnowledgeFileText& GfxTargets() {
  static const gpudoctor::KnowledgeFileText gfx = [] {
    for (const gpudoctor::KnowledgeFileText& f : gpudoctor::EmbeddedKnowledgeTexts()) {
      if (f.name == "data/gfx_targets.toml") return f;
    }
    return gpudoctor::KnowledgeFileText{"data/gfx_targets.toml", ""};
  }();
  return gfx;
}

}  // namespace

// Reads the embedded gfx table before the first input, so its cost never counts towards an input's -timeout.
extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  (void)GfxTargets();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  gpudoctor::KnowledgeLoad alone = gpudoctor::ParseKnowledgeFile({"data/fuzz.toml", text});
  for (const gpudoctor::KnowledgeError& e : alone.errors) {
    if (e.file != "data/fuzz.toml") __builtin_trap();  // every error must name the file it came from
  }
  if (size % 8 == 0) {
    gpudoctor::KnowledgeLoad both = gpudoctor::ParseKnowledge({GfxTargets(), {"data/fuzz.toml", text}});
    (void)both;
  }
  return 0;
}
