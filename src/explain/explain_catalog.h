// The catalog of known error messages (data/explain/*.toml): what each message means, how to fix
// it and which facts of the machine make the explanation concrete. Loaded from the files compiled
// into the binary or from a folder; every problem is reported with its file and line.
#pragma once

#include <cstdint>
#include <memory>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "core/severity.h"
#include "core/shell_commands.h"
#include "knowledge/knowledge_loader.h"

namespace gpudoctor {

// The machine facts an entry can ask for (explain_facts.h turns each into lines of text).
enum class ExplainFact {
  kGpuArch,         // the GPUs' gfx targets / compute capabilities, against the one in the message
  kOverride,        // HSA_OVERRIDE_GFX_VERSION now, and the value that would work (Linux only)
  kWheel,           // the PyTorch wheel or install route built for this GPU
  kVram,            // each GPU's memory
  kAllocator,       // PYTORCH_*_ALLOC_CONF
  kDriver,          // driver and runtime versions
  kVisibleDevices,  // HIP/ROCR/CUDA_VISIBLE_DEVICES and the GPU order
  kDeviceAccess,    // /dev/kfd and render nodes: present, permitted, group
  kOs,              // OS, kernel, WSL, container
};
const char* ToString(ExplainFact f);  // "gpu_arch"

// One regular expression of an entry, ready to run. Named captures `(?<gfx>...)` are rewritten to
// plain groups for std::regex (ECMAScript has none); `group_names[i]` names group i + 1.
struct ExplainPattern {
  std::string text;                        // as written in the catalog
  std::string literal;                     // lower-case text every match contains (the prefilter's key)
  std::vector<std::string> also_required;  // more lower-case text every match contains (explain_pattern.h)
  std::shared_ptr<const std::regex> regex;
  std::vector<std::string> group_names;
};

struct ExplainEntry {
  std::string id;                        // "hip.no_binary_for_gpu"
  std::string area;                      // the file's base name without .toml: "hip"
  std::string title;                     // one line
  Severity severity = Severity::kError;  // info, warning or error (never ok)
  int priority = 0;                      // when several entries match one line, the highest wins
  std::vector<ExplainPattern> patterns;
  std::string cause;
  std::string fix;
  ShellCommands commands;
  std::vector<ExplainFact> facts;
  // The fix depends on the GPU's gfx target (target_fix.h): the report adds the override value or the
  // build for the target the log states, or how to find the target.
  bool fix_for_target = false;
  // The fix is installing the PyTorch build for the log's GPU and Python (wheel_fix.h): the report fills
  // the command from the knowledge base. kReinstall: the wrong build is installed, pip must replace it.
  enum class WheelFixKind { kNone, kInstall, kReinstall };
  WheelFixKind wheel_fix = WheelFixKind::kNone;
  // The fix is getting a library the loader could not use (loader_fix.h): the report reads the library,
  // symbol or symbol version the message captured with the loader model (shared_libraries.toml).
  bool loader_fix = false;
  // A message known to be harmless (a warning that changes nothing): the line is matched so that no
  // other entry reports it, and the report lists it apart, never as a finding. Severity is info.
  bool harmless = false;
  // A generic failure shape (unrecognized.toml): the report keeps the last such match, and only when no
  // other entry found a problem; it never outranks a real diagnosis.
  bool fallback = false;
  // The fix for this very log: sentences whose {name} placeholders are the match's captures ("Install the
  // firmware file {file}"); the report shows each one whose placeholders were all captured.
  std::vector<std::string> specific_fix;
  std::vector<std::string> sources;
  // "YYYY-MM-DD": the day the entry's text was last written or compared against its sources (required).
  std::string checked;
  std::vector<std::string> samples;  // real messages the entry must match (tests)
  std::string file;                  // "hip.toml"
  uint32_t line = 0;

  // Context rules (docs/explain.md): a refinement has no patterns of its own. It takes over a match of
  // the entry it refines when one of its context patterns matches a line of the same log, within
  // `within` lines of that match (0: anywhere), and then outranks it and absorbs the context line.
  std::string refines;                  // "hsa.out_of_resources"; "" for a plain entry
  std::vector<ExplainPattern> context;  // evidence the refinement needs
  uint32_t within = 0;
};

struct ExplainCatalog {
  std::vector<ExplainEntry> entries;
  const ExplainEntry* Find(std::string_view id) const;
};

struct ExplainCatalogLoad {
  ExplainCatalog catalog;
  std::vector<KnowledgeError> errors;
};

// Parses and checks a set of catalog files (unique ids, patterns that compile, known facts, URLs).
ExplainCatalogLoad ParseExplainCatalog(const std::vector<KnowledgeFileText>& files);
// The entries whose `checked` date lies after `today` ("YYYY-MM-DD"), as errors at their lines (db lint).
std::vector<KnowledgeError> ExplainDatesAfter(const ExplainCatalog& catalog, std::string_view today);

std::vector<KnowledgeFileText> EmbeddedExplainTexts();
// Any error fails the load; the Error lists the first problems.
Result<ExplainCatalog> LoadEmbeddedExplainCatalog();
Result<ExplainCatalog> LoadExplainCatalogFromDir(const std::string& dir);

}  // namespace gpudoctor
