// Loading data/explain/*.toml: one [[explain]] table per known message, read through the knowledge
// base's EntryReader (typed fields, unknown-field and URL checks, file:line in every error).
#include "explain/explain_catalog.h"

#include <algorithm>
#include <map>
#include <set>
#include <span>

#include "explain/explain_pattern.h"
#include "knowledge/embedded_files.h"
#include "knowledge/entry_reader.h"
#include "knowledge/toml_tree.h"

namespace gpudoctor {

// Defined in the sources cmake/EmbedData.cmake generates from data/explain/*.toml.
std::span<const EmbeddedFile* const> EmbeddedExplainFiles();

namespace {

constexpr size_t kMaxErrorsInMessage = 12;

const std::vector<std::string_view> kSeverityNames = {"info", "warning", "error"};
const std::vector<std::string_view> kWheelFixNames = {"install", "reinstall"};
const std::vector<std::string_view> kFactNames = {
    "gpu_arch", "allocator", "driver", "override", "wheel", "vram", "os", "device_access", "visible_devices"};
const ExplainFact kFactValues[] = {
    ExplainFact::kGpuArch,  ExplainFact::kAllocator,    ExplainFact::kDriver,
    ExplainFact::kOverride, ExplainFact::kWheel,        ExplainFact::kVram,
    ExplainFact::kOs,       ExplainFact::kDeviceAccess, ExplainFact::kVisibleDevices};

std::string BaseName(const std::string& path) {
  size_t slash = path.find_last_of("/\\");
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool ValidId(const std::string& id) {
  if (id.empty() || id.front() == '.' || id.back() == '.') return false;
  return std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
  });
}

// patterns = ["regex", { regex = "...", literal = "..." }]; each top-level alternative becomes its
// own pattern with its own literal. `context` lists are read the same way.
void ReadPatterns(EntryReader& reader, std::string_view key, Need need, bool icase,
                  std::vector<ExplainPattern>& out) {
  const TomlNode* list = reader.Node(key, TomlNode::Kind::kArray, need);
  if (list == nullptr) return;
  if (list->items.empty()) reader.Error(list->line, "'" + std::string(key) + "' is empty");
  for (const TomlNode& item : list->items) {
    std::string regex, literal;
    if (item.kind == TomlNode::Kind::kString) {
      regex = item.text;
    } else if (item.kind == TomlNode::Kind::kTable) {
      for (const TomlField& f : item.fields) {
        if (f.value.kind != TomlNode::Kind::kString || (f.key != "regex" && f.key != "literal")) {
          reader.Error(item.line, "a pattern table holds only the strings 'regex' and 'literal'");
        } else {
          (f.key == "regex" ? regex : literal) = f.value.text;
        }
      }
    }
    if (regex.empty()) {
      reader.Error(item.line, "each pattern is a non-empty string or { regex = \"...\", literal = \"...\" }");
      continue;
    }
    auto alternatives = SplitTopLevelAlternatives(regex);
    if (!literal.empty() && alternatives.size() > 1)
      alternatives = {regex};  // one declared literal covers all
    for (const std::string& alt : alternatives) {
      auto compiled = CompileExplainPattern(alt, literal, icase);
      if (!compiled.ok()) {
        reader.Error(item.line,
                     compiled.error().message +
                         (compiled.error().hint.empty() ? "" : " (" + compiled.error().hint + ")"));
        continue;
      }
      out.push_back(std::move(compiled).value());
    }
  }
}

void ReadEntry(EntryReader& reader, const std::string& area, ExplainCatalog& catalog) {
  ExplainEntry e;
  e.area = area;
  e.file = reader.origin().file;
  e.line = reader.line();
  if (auto id = reader.Text("id", Need::kRequired)) {
    e.id = *id;
    reader.SetLabel(e.id);
    if (!ValidId(e.id)) reader.Error(0, "id must use a-z, 0-9, '_' and '.' (\"hip.no_binary_for_gpu\")");
  }
  e.title = reader.Text("title", Need::kRequired).value_or("");
  if (auto s = reader.Choice("severity", Need::kRequired, kSeverityNames))
    e.severity = SeverityFromString(kSeverityNames[*s]).value_or(Severity::kError);
  e.priority = static_cast<int>(reader.Integer("priority", Need::kOptional, -100, 100).value_or(0));
  bool icase = reader.Boolean("icase", Need::kOptional).value_or(false);
  e.refines = reader.Text("refines", Need::kOptional).value_or("");
  if (e.refines.empty()) {
    ReadPatterns(reader, "patterns", Need::kRequired, icase, e.patterns);
  } else {
    if (reader.Node("patterns", TomlNode::Kind::kArray, Need::kOptional) != nullptr)
      reader.Error(0, "a refinement has no 'patterns': it takes over the matches of '" + e.refines + "'");
    ReadPatterns(reader, "context", Need::kRequired, icase, e.context);
    e.within = static_cast<uint32_t>(reader.Integer("within", Need::kOptional, 0, 100000).value_or(0));
  }
  e.cause = reader.Text("cause", Need::kRequired).value_or("");
  e.fix = reader.Text("fix", Need::kRequired).value_or("");
  if (const TomlNode* commands = reader.Node("commands", TomlNode::Kind::kTable, Need::kOptional)) {
    for (const TomlField& f : commands->fields) {
      std::string* slot = f.key == "bash"         ? &e.commands.bash
                          : f.key == "powershell" ? &e.commands.powershell
                          : f.key == "cmd"        ? &e.commands.cmd
                                                  : nullptr;
      if (slot == nullptr || f.value.kind != TomlNode::Kind::kString || f.value.text.empty()) {
        reader.Error(f.value.line, "commands hold non-empty strings for bash, powershell and cmd only");
      } else {
        *slot = f.value.text;
      }
    }
  }
  for (const std::string& name : reader.TextList("facts", Need::kOptional)) {
    auto it = std::find(kFactNames.begin(), kFactNames.end(), name);
    if (it == kFactNames.end()) {
      reader.Error(0, "unknown fact '" + name +
                          "' (known: gpu_arch, override, wheel, vram, allocator, driver, "
                          "visible_devices, device_access, os)");
    } else {
      e.facts.push_back(kFactValues[it - kFactNames.begin()]);
    }
  }
  e.fix_for_target = reader.Boolean("fix_for_target", Need::kOptional).value_or(false);
  if (auto w = reader.Choice("wheel_fix", Need::kOptional, kWheelFixNames))
    e.wheel_fix = static_cast<ExplainEntry::WheelFixKind>(*w + 1);
  e.loader_fix = reader.Boolean("loader_fix", Need::kOptional).value_or(false);
  e.harmless = reader.Boolean("harmless", Need::kOptional).value_or(false);
  if (e.harmless && e.severity != Severity::kInfo) reader.Error(0, "a harmless entry has severity info");
  e.fallback = reader.Boolean("fallback", Need::kOptional).value_or(false);
  e.specific_fix = reader.TextList("specific_fix", Need::kOptional);
  if (e.fallback && e.priority > -50) reader.Error(0, "a fallback entry has a priority of -50 or lower");
  Provenance p = reader.ReadProvenance();
  e.sources = p.sources;
  e.checked = p.checked;
  if (reader.Peek("checked") == nullptr)
    reader.Error(0,
                 "has no checked date (checked = YYYY-MM-DD: the day its text was last compared with "
                 "its source)");
  e.samples = reader.TextList("samples", Need::kRequired);
  reader.Finish();
  catalog.entries.push_back(std::move(e));
}

void ParseOneFile(const KnowledgeFileText& file, ExplainCatalog& catalog,
                  std::vector<KnowledgeError>& errors) {
  ParseSink sink{file.name, BaseName(file.name), &errors};
  std::string area = sink.base_file.substr(0, sink.base_file.rfind(".toml"));
  TomlParse parsed = ParseTomlTree(file.text, file.name);
  if (!parsed.root) {
    sink.Add(parsed.error_line, "TOML syntax: " + parsed.error);
    return;
  }
  for (const TomlField& top : parsed.root->fields) {
    if (top.key != "explain" || top.value.kind != TomlNode::Kind::kArray) {
      sink.Add(top.value.line,
               "unknown section '" + top.key + "': a catalog file holds [[explain]] tables only");
      continue;
    }
    size_t index = 0;
    for (const TomlNode& item : top.value.items) {
      ++index;
      if (item.kind != TomlNode::Kind::kTable) {
        sink.Add(item.line, "'explain' must hold tables only");
        continue;
      }
      EntryReader reader(item, sink, "#" + std::to_string(index) + " of [[explain]]");
      ReadEntry(reader, area, catalog);
    }
  }
}

Result<ExplainCatalog> ToResult(ExplainCatalogLoad load, const std::string& what) {
  if (load.errors.empty()) return std::move(load.catalog);
  std::string message = what + ": " + std::to_string(load.errors.size()) + " problem(s)";
  for (size_t i = 0; i < load.errors.size() && i < kMaxErrorsInMessage; ++i)
    message += "\n  " + load.errors[i].ToString();
  if (load.errors.size() > kMaxErrorsInMessage) message += "\n  ...";
  return UserError(message, "fix the catalog files (docs/explain.md describes every field)");
}

}  // namespace

const char* ToString(ExplainFact f) {
  for (size_t i = 0; i < kFactNames.size(); ++i)
    if (kFactValues[i] == f) return kFactNames[i].data();
  return "unknown";
}

const ExplainEntry* ExplainCatalog::Find(std::string_view id) const {
  for (const ExplainEntry& e : entries)
    if (e.id == id) return &e;
  return nullptr;
}

ExplainCatalogLoad ParseExplainCatalog(const std::vector<KnowledgeFileText>& files) {
  ExplainCatalogLoad load;
  std::set<std::string> bases;
  for (const KnowledgeFileText& f : files) {
    if (!bases.insert(BaseName(f.name)).second) {
      load.errors.push_back(
          KnowledgeError{f.name, 0, "a file named " + BaseName(f.name) + " was loaded already"});
      continue;
    }
    ParseOneFile(f, load.catalog, load.errors);
  }
  std::map<std::string, const ExplainEntry*> ids;
  for (const ExplainEntry& e : load.catalog.entries) {
    auto [it, fresh] = ids.emplace(e.id, &e);
    if (!fresh && !e.id.empty())
      load.errors.push_back(KnowledgeError{e.file, e.line,
                                           "entry '" + e.id + "': the id is used already at " +
                                               it->second->file + ":" + std::to_string(it->second->line)});
  }
  for (const ExplainEntry& e : load.catalog.entries) {
    if (e.refines.empty()) continue;
    auto parent = ids.find(e.refines);
    if (parent == ids.end()) {
      load.errors.push_back(KnowledgeError{
          e.file, e.line, "entry '" + e.id + "' refines '" + e.refines + "', which does not exist"});
    } else if (!parent->second->refines.empty()) {
      load.errors.push_back(KnowledgeError{e.file, e.line,
                                           "entry '" + e.id + "' refines '" + e.refines +
                                               "', itself a refinement: refine the plain entry instead"});
    } else if (parent->second->priority >= e.priority) {
      load.errors.push_back(KnowledgeError{
          e.file, e.line,
          "entry '" + e.id + "' must have a higher priority than '" + e.refines + "', which it outranks"});
    }
  }
  return load;
}

std::vector<KnowledgeError> ExplainDatesAfter(const ExplainCatalog& catalog, std::string_view today) {
  std::vector<KnowledgeError> out;
  for (const ExplainEntry& e : catalog.entries) {
    if (!today.empty() && e.checked > today)
      out.push_back(KnowledgeError{
          e.file, e.line,
          "entry '" + e.id + "' is checked " + e.checked + ", after today (" + std::string(today) + ")"});
  }
  return out;
}

std::vector<KnowledgeFileText> EmbeddedExplainTexts() {
  std::vector<KnowledgeFileText> out;
  for (const EmbeddedFile* f : EmbeddedExplainFiles()) out.push_back({f->name, std::string(f->Text())});
  return out;
}

Result<ExplainCatalog> LoadEmbeddedExplainCatalog() {
  return ToResult(ParseExplainCatalog(EmbeddedExplainTexts()), "built-in explain catalog");
}

Result<ExplainCatalog> LoadExplainCatalogFromDir(const std::string& dir) {
  auto files = ReadKnowledgeDir(dir);
  if (!files.ok()) return files.error();
  return ToResult(ParseExplainCatalog(*files), "explain catalog in " + dir);
}

}  // namespace gpudoctor
