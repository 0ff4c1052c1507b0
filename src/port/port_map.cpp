// Loading data/port/*.toml into a PortMap (port_map.h). The TOML is read through the knowledge base's tree
// (knowledge/toml_tree.h); the format is in docs/port.md.
#include "port/port_map.h"

#include <algorithm>
#include <filesystem>
#include <mutex>
#include <span>

#include "knowledge/embedded_files.h"
#include "knowledge/toml_tree.h"
#include "platform/user_file.h"

namespace gpudoctor {

// Defined in the sources cmake/EmbedData.cmake generates from data/port/*.toml.
std::span<const EmbeddedFile* const> EmbeddedPortFiles();

namespace {

constexpr size_t kMaxErrors = 12;

struct Loader {
  PortMap map;
  std::vector<std::string> errors;
  std::string file;

  void Fail(uint32_t line, const std::string& what) {
    if (errors.size() < kMaxErrors) errors.push_back(file + ":" + std::to_string(line) + ": " + what);
  }

  std::string Text(const TomlNode& table, std::string_view key, bool required) {
    const TomlNode* n = table.Find(key);
    if (n == nullptr) {
      if (required) Fail(table.line, "'" + std::string(key) + "' is missing");
      return {};
    }
    if (n->kind == TomlNode::Kind::kString || n->kind == TomlNode::Kind::kDate) return n->text;
    Fail(n->line, "'" + std::string(key) + "' must be a string");
    return {};
  }

  bool Flag(const TomlNode& table, std::string_view key) {
    const TomlNode* n = table.Find(key);
    if (n == nullptr) return false;
    if (n->kind != TomlNode::Kind::kBoolean) {
      Fail(n->line, "'" + std::string(key) + "' must be true or false");
      return false;
    }
    return n->boolean;
  }

  std::optional<Version> VersionField(const TomlNode& table, std::string_view key) {
    std::string text = Text(table, key, false);
    if (text.empty()) return std::nullopt;
    auto v = Version::Parse(text);
    if (!v) Fail(table.line, "'" + std::string(key) + "' is not a version: " + text);
    return v;
  }

  void Sourced(const TomlNode& table) {
    std::string source = Text(table, "source", true);
    if (!source.empty() && source.rfind("https://", 0) != 0)
      Fail(table.line, "'source' must be an https:// URL");
    if (table.Find("checked") == nullptr)
      Fail(table.line, "'checked' (the date the facts were checked) is missing");
  }

  void Entry(const TomlNode& item, const PortFamily& family) {
    static const std::vector<std::string_view> kKnown = {
        "cuda",      "hip",    "since",      "removed", "unsupported", "kind",      "experimental",
        "drop_mask", "source", "kernel_arg", "rewrite", "older",       "older_note"};
    if (item.kind != TomlNode::Kind::kTable) {
      Fail(item.line, "each map entry is a table { cuda = \"...\", hip = \"...\" }");
      return;
    }
    for (const TomlField& f : item.fields)
      if (std::find(kKnown.begin(), kKnown.end(), f.key) == kKnown.end())
        Fail(f.value.line, "unknown field '" + f.key + "'");
    PortEntry e;
    e.cuda = Text(item, "cuda", true);
    e.hip = Text(item, "hip", false);
    e.family = family.name;
    e.since = VersionField(item, "since");
    e.removed = VersionField(item, "removed");
    e.unsupported = Flag(item, "unsupported");
    e.drop_mask = Flag(item, "drop_mask");
    e.older = Text(item, "older", false);
    e.older_note = Text(item, "older_note", false);
    if (!e.older.empty() && !e.since)
      Fail(item.line, "'older' needs 'since' (the release it stands in before)");
    if (const TomlNode* arg = item.Find("kernel_arg"); arg != nullptr) {
      if (arg->kind != TomlNode::Kind::kInteger || arg->integer < 0 || arg->integer > 16)
        Fail(arg->line, "'kernel_arg' must be an argument index from 0 to 16");
      else
        e.kernel_arg = static_cast<int>(arg->integer);
    }
    if (std::string rewrite = Text(item, "rewrite", false); rewrite == "load") {
      e.rewrite = PortRewrite::kLoad;
    } else if (rewrite == "store") {
      e.rewrite = PortRewrite::kStore;
    } else if (!rewrite.empty()) {
      Fail(item.line, "unknown rewrite '" + rewrite + "' (load, store)");
    }
    if (item.Find("source") != nullptr) Text(item, "source", false);
    (void)Flag(item, "experimental");
    std::string kind = Text(item, "kind", false);
    if (kind.empty() && family.name == "headers") kind = "header";
    if (kind.empty() || kind == "function") {
      e.kind = PortKind::kFunction;
    } else if (kind == "type") {
      e.kind = PortKind::kType;
    } else if (kind == "enum") {
      e.kind = PortKind::kEnum;
    } else if (kind == "macro") {
      e.kind = PortKind::kMacro;
    } else if (kind == "header") {
      e.kind = PortKind::kHeader;
    } else if (kind == "namespace") {
      e.kind = PortKind::kNamespace;
    } else {
      Fail(item.line, "unknown kind '" + kind + "' (function, type, enum, macro, header, namespace)");
    }
    if (e.cuda.empty()) return;
    if (e.unsupported == !e.hip.empty()) {
      Fail(item.line, "'" + e.cuda + "': give either hip = \"...\" or unsupported = true");
      return;
    }
    auto* table = &map.names;
    std::string key = e.cuda;
    if (e.kind == PortKind::kHeader) {
      table = &map.headers;
    } else if (size_t colons = e.cuda.rfind("::"); colons != std::string::npos) {
      e.qualifier = e.cuda.substr(0, colons);
      table = &map.qualified;
      key = e.cuda;
    }
    if (!table->emplace(key, e).second) Fail(item.line, "'" + e.cuda + "' is mapped twice");
  }

  // [[cooperative_groups_member]] and [[struct_member]]: members older HIP releases lack.
  void Members(const TomlNode& root, std::string_view table, std::vector<HipMember>& out) {
    const TomlNode* members = root.Find(std::string(table));
    if (members == nullptr) return;
    for (const TomlNode& t : members->items) {
      Sourced(t);
      auto through = VersionField(t, "missing_through");
      if (!through) Fail(t.line, "'missing_through' is missing");
      out.push_back({Text(t, "name", true), through.value_or(Version{}), Text(t, "advice", true),
                     Text(t, "older", false)});
    }
  }

  void Hazards(const TomlNode& root) {
    if (const TomlNode* cg = root.Find("cooperative_groups"); cg != nullptr) {
      for (const TomlNode& t : cg->items) {
        Sourced(t);
        map.cooperative_groups_advice = Text(t, "advice", true);
        if (const TomlNode* names = t.Find("names"); names != nullptr)
          for (const TomlNode& n : names->items) map.cooperative_groups_missing.push_back(n.text);
      }
    }
    Members(root, "cooperative_groups_member", map.cooperative_groups_members);
    Members(root, "struct_member", map.struct_members);
    if (const TomlNode* meta = root.Find("build_flags"); meta != nullptr) Sourced(*meta);
    if (const TomlNode* flags = root.Find("build_flag"); flags != nullptr) {
      if (root.Find("build_flags") == nullptr)
        Fail(flags->line, "[build_flags] with source and checked is missing");
      for (const TomlNode& t : flags->items)
        map.build_flags.push_back({Text(t, "pattern", true), Text(t, "advice", true)});
    }
  }

  void File(const PortDataFile& f) {
    file = f.name;
    TomlParse parsed = ParseTomlTree(f.text, f.name);
    if (!parsed.root) {
      Fail(parsed.error_line, parsed.error);
      return;
    }
    const TomlNode& root = *parsed.root;
    const TomlNode* fam = root.Find("family");
    if (fam == nullptr) {
      Hazards(root);
      return;
    }
    PortFamily family;
    family.name = Text(*fam, "name", true);
    family.title = Text(*fam, "title", true);
    family.source = Text(*fam, "source", true);
    family.unsupported_hint = Text(*fam, "unsupported_hint", false);
    Sourced(*fam);
    const TomlNode* list = fam->Find("map");  // map = [...] follows [family], so it is one of its keys
    if (list == nullptr || list->kind != TomlNode::Kind::kArray) {
      Fail(fam->line, "the file has no map = [ ... ] array");
      return;
    }
    for (const TomlNode& item : list->items) Entry(item, family);
    family.entries = list->items.size();
    map.families.push_back(std::move(family));
  }
};

}  // namespace

const PortFamily* PortMap::Family(std::string_view name) const {
  for (const PortFamily& f : families)
    if (f.name == name) return &f;
  return nullptr;
}

std::string_view ToString(PortKind kind) {
  switch (kind) {
    case PortKind::kFunction:
      return "function";
    case PortKind::kType:
      return "type";
    case PortKind::kEnum:
      return "enum";
    case PortKind::kMacro:
      return "macro";
    case PortKind::kHeader:
      return "header";
    case PortKind::kNamespace:
      return "namespace";
  }
  return "function";
}

Result<PortMap> LoadPortMap(const std::vector<PortDataFile>& files) {
  Loader loader;
  for (const PortDataFile& f : files) loader.File(f);
  if (!loader.errors.empty()) {
    std::string message = "the CUDA -> HIP table is malformed:";
    for (const std::string& e : loader.errors) message += "\n  " + e;
    return InternalError(message);
  }
  std::sort(loader.map.families.begin(), loader.map.families.end(),
            [](const PortFamily& a, const PortFamily& b) { return a.name < b.name; });
  if (loader.map.families.empty()) return UserError("no CUDA -> HIP table found (data/port/*.toml)");
  return std::move(loader.map);
}

Result<const PortMap*> EmbeddedPortMap() {
  static const Result<PortMap> loaded = [] {
    std::vector<PortDataFile> files;
    for (const EmbeddedFile* f : EmbeddedPortFiles()) files.push_back({f->name, f->Text()});
    return LoadPortMap(files);
  }();
  if (!loaded.ok()) return loaded.error();
  return &loaded.value();
}

Result<PortMap> LoadPortMapFromDir(const std::string& dir) {
  std::error_code ec;
  std::vector<std::string> paths;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    if (entry.path().extension() == ".toml") paths.push_back(entry.path().string());
  if (ec) return UserError("cannot list " + dir + ": " + ec.message());
  std::sort(paths.begin(), paths.end());
  std::vector<std::string> texts;
  texts.reserve(paths.size());
  for (const std::string& p : paths) {
    auto text = ReadUserFile(p);
    if (!text) return text.error();
    texts.push_back(std::move(*text));
  }
  std::vector<PortDataFile> files;
  for (size_t i = 0; i < paths.size(); ++i) files.push_back({paths[i], texts[i]});
  return LoadPortMap(files);
}

}  // namespace gpudoctor
