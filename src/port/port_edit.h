// One change to a source text (offset, length, new text): the translator and the passes beside it
// (hip_needs.h, cg_rewrite.h) collect these, and the translator applies them in order to the untouched
// source, so everything between tokens survives byte for byte.
#pragma once

#include <cstdint>
#include <string>

namespace gpudoctor {

struct PortEdit {
  uint32_t offset = 0;
  uint32_t length = 0;  // 0: an insertion
  std::string text;
};

}  // namespace gpudoctor
