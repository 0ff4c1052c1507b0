// Typed, checked access to one [[section]] entry of a knowledge file: each getter validates the
// type and range of one field and records a KnowledgeError with file and line when it is wrong, so
// the per-section parsers read like a schema. Internal to src/knowledge.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "knowledge/knowledge_loader.h"
#include "knowledge/knowledge_types.h"
#include "knowledge/toml_tree.h"
#include "knowledge/version.h"

namespace gpudoctor {

// Where errors of one file go.
struct ParseSink {
  std::string display_file;  // "data/gpus_amd.toml"
  std::string base_file;     // "gpus_amd.toml"
  std::vector<KnowledgeError>* errors = nullptr;

  void Add(uint32_t line, std::string message) const;
};

enum class Need { kOptional, kRequired };

class EntryReader {
 public:
  // `table` must outlive the reader. The label names the entry in messages until SetLabel.
  EntryReader(const TomlNode& table, const ParseSink& sink, std::string label);

  void SetLabel(std::string label) { label_ = std::move(label); }
  const std::string& label() const { return label_; }
  uint32_t line() const { return table_.line; }
  Origin origin() const { return Origin{sink_.base_file, table_.line}; }
  const ParseSink& sink() const { return sink_; }

  // Peeks at a field without marking it read or checking it (for labels).
  const TomlNode* Peek(std::string_view key) const { return table_.Find(key); }

  std::optional<std::string> Text(std::string_view key, Need need);  // non-empty string
  std::optional<int64_t> Integer(std::string_view key, Need need, int64_t min, int64_t max);
  std::optional<double> Number(std::string_view key, Need need);  // integer or float, finite, >= 0
  std::optional<bool> Boolean(std::string_view key, Need need);
  std::optional<Version> VersionText(std::string_view key, Need need);
  std::optional<std::string> Date(std::string_view key, Need need);  // "YYYY-MM-DD", "YYYY-MM" or a TOML date
  // A string or an array of strings; each non-empty.
  std::vector<std::string> TextList(std::string_view key, Need need);
  // An integer or an array of integers, each in [min, max].
  std::vector<int64_t> IntegerList(std::string_view key, Need need, int64_t min, int64_t max);
  // A raw table or array (inline tables of an array are tables).
  const TomlNode* Node(std::string_view key, TomlNode::Kind kind, Need need);

  // One of `names` (the index into it), for fields that map onto an enum.
  std::optional<size_t> Choice(std::string_view key, Need need, const std::vector<std::string_view>& names);

  // source (required, URLs), confirmed (default true), note, checked ("YYYY-MM-DD").
  Provenance ReadProvenance();

  // Reports every field that no getter asked for (typos such as "vrma_gib").
  void Finish();

  // "entry 'X': message" at `line` (the entry's line when 0).
  void Error(uint32_t line, std::string_view message) const;

 private:
  const TomlNode* Get(std::string_view key, Need need);
  void WrongType(const TomlNode& node, std::string_view key, std::string_view expected) const;

  const TomlNode& table_;
  const ParseSink& sink_;
  std::string label_;
  std::vector<bool> used_;  // per field of the table: asked for by a getter (Finish reports the others)
};

// "0x744c"
std::string HexId(uint32_t id);

}  // namespace gpudoctor
