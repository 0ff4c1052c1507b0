// The list of [[sections]] a knowledge file may hold and the function that reads each entry.
// One explicit table (no registration by static constructors); the parsers live one .cpp per
// domain: amd_loader.cpp (also overrides), nvidia_loader.cpp, rocm_loader.cpp, torch_loader.cpp,
// addon_loader.cpp.
#pragma once

#include <span>
#include <string_view>

#include "knowledge/entry_reader.h"
#include "knowledge/knowledge_db.h"

namespace gpudoctor {

using SectionParseFn = void (*)(EntryReader& reader, KnowledgeDb& db);

struct SectionSpec {
  std::string_view name;       // the [[name]] in the file
  std::string_view label_key;  // the field that names an entry in messages
  SectionParseFn parse;
};

std::span<const SectionSpec> KnowledgeSections();

// Sets the reader's label from `key` when present (strings as they are, integers as 0x hex).
void LabelFromField(EntryReader& reader, std::string_view key);

void ParseGfxTarget(EntryReader& r, KnowledgeDb& db);
void ParseAmdDevice(EntryReader& r, KnowledgeDb& db);
void ParseAmdModel(EntryReader& r, KnowledgeDb& db);
void ParseCudaArch(EntryReader& r, KnowledgeDb& db);
void ParseNvidiaGpu(EntryReader& r, KnowledgeDb& db);
void ParseNvidiaChip(EntryReader& r, KnowledgeDb& db);
void ParseCudaMinorCompat(EntryReader& r, KnowledgeDb& db);
void ParseCudaToolkitDriver(EntryReader& r, KnowledgeDb& db);
void ParseNvidiaDriverBranch(EntryReader& r, KnowledgeDb& db);
void ParseNvidiaWindowsBranch(EntryReader& r, KnowledgeDb& db);
void ParseNvidiaOpenModulesOnly(EntryReader& r, KnowledgeDb& db);
void ParseRocmRelease(EntryReader& r, KnowledgeDb& db);
void ParseKernelFloor(EntryReader& r, KnowledgeDb& db);
void ParseHipSdkWindows(EntryReader& r, KnowledgeDb& db);
void ParseRocmWsl(EntryReader& r, KnowledgeDb& db);
void ParseTheRockStatus(EntryReader& r, KnowledgeDb& db);
void ParseTheRockFamily(EntryReader& r, KnowledgeDb& db);
void ParseTheRockVersion(EntryReader& r, KnowledgeDb& db);
void ParseTorchRelease(EntryReader& r, KnowledgeDb& db);
void ParseTorchWheel(EntryReader& r, KnowledgeDb& db);
void ParseTorchRoute(EntryReader& r, KnowledgeDb& db);
void ParseTorchCompanion(EntryReader& r, KnowledgeDb& db);
void ParseTorchBuildGfx(EntryReader& r, KnowledgeDb& db);
void ParseTorchPypiDefault(EntryReader& r, KnowledgeDb& db);
void ParseNvidiaDriverInstall(EntryReader& r, KnowledgeDb& db);
void ParseFabricManagerInstall(EntryReader& r, KnowledgeDb& db);
void ParseNvlsmArchitecture(EntryReader& r, KnowledgeDb& db);
void ParsePackageIndex(EntryReader& r, KnowledgeDb& db);
void ParseOverrideRule(EntryReader& r, KnowledgeDb& db);
void ParseFixRanking(EntryReader& r, KnowledgeDb& db);
void ParseOverridePitfall(EntryReader& r, KnowledgeDb& db);
void ParseSharedLibrary(EntryReader& r, KnowledgeDb& db);
void ParseCxxRuntimeVersion(EntryReader& r, KnowledgeDb& db);
void ParseGlibcRelease(EntryReader& r, KnowledgeDb& db);
void ParseStatusCode(EntryReader& r, KnowledgeDb& db);
void ParseStackComponent(EntryReader& r, KnowledgeDb& db);
void ParseAddonLibrary(EntryReader& r, KnowledgeDb& db);
void ParseAddonGpuFloor(EntryReader& r, KnowledgeDb& db);
void ParseAddonTorchBuild(EntryReader& r, KnowledgeDb& db);
void ParseAddonCudaBuild(EntryReader& r, KnowledgeDb& db);

}  // namespace gpudoctor
