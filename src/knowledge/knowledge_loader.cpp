// Turns knowledge files into a KnowledgeDb: parses each file with toml_tree (or, for the embedded files,
// decodes the tree the build parsed: toml_tree_codec.h), hands every entry of
// every known [[section]] to its parser, then runs the checks across files (knowledge_checks.cpp).
// Also reads the files from the binary (embedded_files.h) or from a folder (--db DIR).
#include "knowledge/knowledge_loader.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <system_error>

#include "knowledge/embedded_files.h"
#include "knowledge/knowledge_checks.h"
#include "knowledge/section_parsers.h"
#include "knowledge/toml_tree.h"
#include "knowledge/toml_tree_codec.h"
#include "platform/user_file.h"

namespace gpudoctor {
namespace {

constexpr size_t kMaxFileBytes = 8u << 20;  // the whole database is a few hundred KiB
constexpr size_t kMaxErrorsInMessage = 20;

constexpr std::array<SectionSpec, 40> kSections{{
    {"gfx_target", "name", ParseGfxTarget},
    {"amd_device", "device_id", ParseAmdDevice},
    {"amd_model", "name", ParseAmdModel},
    {"cuda_arch", "cc", ParseCudaArch},
    {"nvidia_gpu", "name", ParseNvidiaGpu},
    {"nvidia_chip", "chip", ParseNvidiaChip},
    {"cuda_minor_compat", "cuda", ParseCudaMinorCompat},
    {"cuda_toolkit_driver", "cuda", ParseCudaToolkitDriver},
    {"nvidia_driver_branch", "branch", ParseNvidiaDriverBranch},
    {"nvidia_windows_branch", "branch", ParseNvidiaWindowsBranch},
    {"nvidia_open_modules_only", "architecture", ParseNvidiaOpenModulesOnly},
    {"nvidia_driver_install", "name", ParseNvidiaDriverInstall},
    {"fabric_manager_install", "name", ParseFabricManagerInstall},
    {"nvlsm_architecture", "architecture", ParseNvlsmArchitecture},
    {"rocm_release", "series", ParseRocmRelease},
    {"kernel_floor", "min_kernel", ParseKernelFloor},
    {"hip_sdk_windows", "version", ParseHipSdkWindows},
    {"rocm_wsl", "id", ParseRocmWsl},
    {"therock_status", "platform", ParseTheRockStatus},
    {"therock_family", "name", ParseTheRockFamily},
    {"therock_version", "version", ParseTheRockVersion},
    {"torch_release", "version", ParseTorchRelease},
    {"torch_wheel", "variant", ParseTorchWheel},
    {"torch_route", "id", ParseTorchRoute},
    {"torch_companion", "torch", ParseTorchCompanion},
    {"torch_build_gfx", "first_torch", ParseTorchBuildGfx},
    {"torch_pypi_default", "torch", ParseTorchPypiDefault},
    {"package_index", "url", ParsePackageIndex},
    {"override_rule", "value", ParseOverrideRule},
    {"override_pitfall", "id", ParseOverridePitfall},
    {"fix_ranking", "situation", ParseFixRanking},
    {"shared_library", "component", ParseSharedLibrary},
    {"cxx_runtime_version", "symbol_version", ParseCxxRuntimeVersion},
    {"glibc_release", "glibc", ParseGlibcRelease},
    {"status_code", "code", ParseStatusCode},
    {"component", "name", ParseStackComponent},
    {"addon_library", "name", ParseAddonLibrary},
    {"addon_gpu_floor", "addon", ParseAddonGpuFloor},
    {"addon_torch_build", "version", ParseAddonTorchBuild},
    {"addon_cuda_build", "addon", ParseAddonCudaBuild},
}};

const SectionSpec* FindSection(std::string_view name) {
  for (const SectionSpec& s : kSections) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

std::string BaseNameOf(std::string_view path) {
  size_t slash = path.find_last_of("/\\");
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

void ParseOneFile(const KnowledgeFileText& file, KnowledgeDb& db, std::vector<KnowledgeError>& errors) {
  ParseSink sink{file.name, BaseNameOf(file.name), &errors};
  db.files.push_back(sink.base_file);
  // A test or a caller may have edited an embedded file's text: the build's tree is used only for the text
  // it was parsed from (comparing the bytes costs a fraction of decoding them).
  const bool compiled =
      file.embedded != nullptr && file.embedded->tree_size > 0 && file.text == file.embedded->Text();
  TomlParse parsed = compiled ? DecodeTomlTree(file.embedded->Tree()) : ParseTomlTree(file.text, file.name);
  if (!parsed.root) {
    sink.Add(parsed.error_line,
             (compiled ? "compiled tree (a build fault): " : "TOML syntax: ") + parsed.error);
    return;
  }
  for (const TomlField& top : parsed.root->fields) {
    const SectionSpec* spec = FindSection(top.key);
    if (spec == nullptr) {
      sink.Add(top.value.line,
               "unknown section '" + top.key + "' (expected [[gfx_target]], [[amd_device]], ...)");
      continue;
    }
    if (top.value.kind != TomlNode::Kind::kArray) {
      sink.Add(top.value.line, "'" + top.key + "' must be an array of tables: write [[" + top.key + "]]");
      continue;
    }
    size_t index = 0;
    for (const TomlNode& entry : top.value.items) {
      ++index;
      if (entry.kind != TomlNode::Kind::kTable) {
        sink.Add(entry.line, "'" + top.key + "' must hold tables only");
        continue;
      }
      EntryReader reader(entry, sink, "#" + std::to_string(index) + " of [[" + top.key + "]]");
      spec->parse(reader, db);
    }
  }
}

KnowledgeLoad ParseFiles(const std::vector<KnowledgeFileText>& files, bool cross_checks) {
  KnowledgeLoad load;
  std::map<std::string, std::string> display_names;  // base name -> name as given
  for (const KnowledgeFileText& f : files) {
    std::string base = BaseNameOf(f.name);
    if (!display_names.emplace(base, f.name).second) {
      load.errors.push_back(KnowledgeError{f.name, 0, "a file named " + base + " was loaded already"});
      continue;
    }
    ParseOneFile(f, load.db, load.errors);
  }
  std::sort(load.db.files.begin(), load.db.files.end());
  CheckKnowledge(load.db, display_names, cross_checks, load.errors);
  return load;
}

Result<KnowledgeDb> ToResult(KnowledgeLoad load, const std::string& what) {
  if (load.errors.empty()) return std::move(load.db);
  std::string message = what + ": " + std::to_string(load.errors.size()) + " problem(s)";
  for (size_t i = 0; i < load.errors.size() && i < kMaxErrorsInMessage; ++i) {
    message += "\n  " + load.errors[i].ToString();
  }
  if (load.errors.size() > kMaxErrorsInMessage) message += "\n  ...";
  return UserError(message, "fix the data files (docs/knowledge-base.md describes every field)");
}

}  // namespace

std::string KnowledgeError::ToString() const {
  return line == 0 ? file + ": " + message : file + ":" + std::to_string(line) + ": " + message;
}

std::span<const SectionSpec> KnowledgeSections() {
  return kSections;
}

void LabelFromField(EntryReader& reader, std::string_view key) {
  const TomlNode* node = reader.Peek(key);
  if (node == nullptr) return;
  if (node->kind == TomlNode::Kind::kString && !node->text.empty()) reader.SetLabel(node->text);
  if (node->kind == TomlNode::Kind::kInteger && node->integer >= 0 && node->integer <= 0xffffffffLL) {
    reader.SetLabel(HexId(static_cast<uint32_t>(node->integer)));
  }
}

KnowledgeLoad ParseKnowledge(const std::vector<KnowledgeFileText>& files) {
  return ParseFiles(files, true);
}

KnowledgeLoad ParseKnowledgeFile(const KnowledgeFileText& file) {
  return ParseFiles({file}, false);
}

std::vector<KnowledgeFileText> EmbeddedKnowledgeTexts() {
  std::vector<KnowledgeFileText> out;
  for (const EmbeddedFile* f : EmbeddedKnowledgeFiles()) {
    out.push_back({f->name, std::string(f->Text()), f});
  }
  return out;
}

Result<std::vector<KnowledgeFileText>> ReadKnowledgeDir(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::directory_iterator it(fs::path(dir), ec);
  if (ec) return UserError("cannot read knowledge folder " + dir + ": " + ec.message());
  std::vector<std::string> paths;
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    if (ec) return UserError("cannot list knowledge folder " + dir + ": " + ec.message());
    const fs::path& p = it->path();
    if (p.extension() == ".toml" && it->is_regular_file(ec)) paths.push_back(p.string());
  }
  if (paths.empty()) return UserError("no *.toml files in knowledge folder " + dir);
  std::sort(paths.begin(), paths.end());
  std::vector<KnowledgeFileText> out;
  for (const std::string& path : paths) {
    auto text = ReadUserFile(path, kMaxFileBytes);  // refuses a FIFO, a device, a file over 8 MiB
    if (!text.ok()) return text.error();
    out.push_back({path, std::move(*text)});
  }
  return out;
}

Result<KnowledgeDb> LoadEmbeddedKnowledge() {
  return ToResult(ParseKnowledge(EmbeddedKnowledgeTexts()), "built-in knowledge base");
}

std::vector<KnowledgeFileText> OverlayKnowledgeTexts(std::vector<KnowledgeFileText> folder) {
  std::vector<KnowledgeFileText> out;
  for (KnowledgeFileText& embedded : EmbeddedKnowledgeTexts()) {
    const std::string base = BaseNameOf(embedded.name);
    bool replaced = std::any_of(folder.begin(), folder.end(),
                                [&](const KnowledgeFileText& f) { return BaseNameOf(f.name) == base; });
    if (!replaced) out.push_back(std::move(embedded));
  }
  for (KnowledgeFileText& f : folder) out.push_back(std::move(f));
  return out;
}

Result<KnowledgeDb> LoadKnowledgeFromDir(const std::string& dir) {
  auto files = ReadKnowledgeDir(dir);
  if (!files) return files.error();
  auto db = ToResult(ParseKnowledge(OverlayKnowledgeTexts(std::move(*files))), "knowledge base in " + dir);
  if (db.ok()) db->origin = dir + " over embedded";
  return db;
}

}  // namespace gpudoctor
