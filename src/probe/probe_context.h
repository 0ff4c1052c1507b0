// What every probe gets: the machine's files, its environment, who runs the
// tool, and whether the probe may touch the live machine (load vendor
// libraries, query the OS). A probe is a function of these inputs; it never prints.
#pragma once

#include <string>
#include <vector>

#include "platform/environment.h"
#include "platform/filesystem.h"
#include "platform/identity.h"
#include "platform/recorded_inputs.h"
#include "platform/windows_system.h"

namespace gpudoctor {

struct KnowledgeDb;

struct ProbeContext {
  const FileSystem& fs;
  const Environment& env;
  const UserIdentity& identity;
  // True only for the live machine: then probes may dlopen vendor libraries.
  // Under a sysroot they read what `gather` recorded in kRecordedInputsDir instead.
  bool live = false;
  // The knowledge base, for what the machine cannot say itself (names of PCI ids
  // no name file knows, families). Null: the snapshot holds only what was read.
  const KnowledgeDb* db = nullptr;
  // Native Windows: the registry, DXGI and file versions (live or recorded under
  // kRecordedInputsDir/windows). Null for a Linux machine; probe/windows/ reads it.
  const WindowsSystemSource* windows = nullptr;
  // The current folder, as a machine path ("" when unknown): a `.venv` there is a Python environment.
  std::string cwd{};
  // Python environments the user named (`--python-env DIR`), machine paths.
  std::vector<std::string> python_env_dirs{};
};

}  // namespace gpudoctor
