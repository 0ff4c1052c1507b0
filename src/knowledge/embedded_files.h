// The data/*.toml files compiled into the binary by cmake/EmbedData.cmake, so the knowledge base
// needs no files at run time, each with its tree parsed at build time. The generated sources define the
// table; this header declares it.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

namespace gpudoctor {

struct EmbeddedFile {
  const char* name;            // "data/gpus_amd.toml"
  const unsigned char* bytes;  // the file's bytes (followed by one NUL that size does not count)
  size_t size;
  // data/*.toml only: the file's parsed tree as tools/kbc/ wrote it (knowledge/toml_tree_codec.h), which
  // the loader decodes instead of parsing the text; nullptr and 0 for the other embedded files.
  const unsigned char* tree;
  size_t tree_size;

  std::string_view Text() const { return {reinterpret_cast<const char*>(bytes), size}; }
  std::string_view Tree() const { return {reinterpret_cast<const char*>(tree), tree_size}; }
};

// Every embedded data file, sorted by name. Defined in the generated embedded_knowledge_index.cpp.
std::span<const EmbeddedFile* const> EmbeddedKnowledgeFiles();

}  // namespace gpudoctor
