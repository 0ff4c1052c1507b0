// Loading the knowledge base: from the files compiled into the binary, or from a folder (--db DIR).
// Nothing here throws; every problem comes back as a KnowledgeError naming the file and line.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "knowledge/knowledge_db.h"

namespace gpudoctor {

struct EmbeddedFile;  // knowledge/embedded_files.h

struct KnowledgeError {
  std::string file;   // as given: "data/gpus_amd.toml" or "/path/to/db/gpus_amd.toml"
  uint32_t line = 0;  // 0 when the problem is about the whole file
  std::string message;
  // "data/gpus_amd.toml:120: entry 'RX 6700 XT' has no source"
  std::string ToString() const;
};

struct KnowledgeFileText {
  std::string name;  // shown in errors; its base name goes into each entry's Origin
  std::string text;
  // The embedded file `text` was read from (nullptr for a --db folder's files): while `text` is still its
  // text, the tree the build parsed from it (toml_tree_codec.h) is decoded instead of parsing `text`.
  const EmbeddedFile* embedded = nullptr;
};

struct KnowledgeLoad {
  KnowledgeDb db;  // whatever parsed, even when there are errors
  std::vector<KnowledgeError> errors;
};

// Parses and cross-checks a set of files (each file may hold any of the known [[sections]]).
KnowledgeLoad ParseKnowledge(const std::vector<KnowledgeFileText>& files);
// Parses one file alone, without the checks that need the other files (references between files).
KnowledgeLoad ParseKnowledgeFile(const KnowledgeFileText& file);

// The files compiled into the binary.
std::vector<KnowledgeFileText> EmbeddedKnowledgeTexts();
// Every *.toml in `dir` (not recursive), sorted by name.
Result<std::vector<KnowledgeFileText>> ReadKnowledgeDir(const std::string& dir);

// The embedded files with each one that `folder` also has (same base name) replaced by the folder's,
// plus the folder's other files: a newer data folder dropped in over the built-in one.
std::vector<KnowledgeFileText> OverlayKnowledgeTexts(std::vector<KnowledgeFileText> folder);

// Loads and checks; any error fails the load, and the Error lists the first problems, one a line.
Result<KnowledgeDb> LoadEmbeddedKnowledge();
// `--db DIR`: DIR's *.toml files over the embedded ones (OverlayKnowledgeTexts); origin names DIR.
Result<KnowledgeDb> LoadKnowledgeFromDir(const std::string& dir);

}  // namespace gpudoctor
