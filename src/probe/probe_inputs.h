// Where a probe pass gets its inputs: the live machine (files under "/", the
// process environment, the current user) or a recorded sysroot (its files, and
// the environment and identity that `gather` recorded beside them).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "platform/environment.h"
#include "platform/filesystem.h"
#include "platform/identity.h"
#include "probe/probe_context.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

struct ProbeInputs {
  std::unique_ptr<FileSystem> fs;
  Environment env;
  UserIdentity identity;
  bool live = false;
  std::vector<std::string> warnings;             // problems with the recorded inputs themselves
  const KnowledgeDb* db = nullptr;               // not owned
  std::unique_ptr<WindowsSystemSource> windows;  // native Windows only (live or recorded)
  std::string cwd;                               // the current folder (live), or PWD as recorded
  std::vector<std::string> python_env_dirs;      // --python-env

  ProbeContext Context() const {
    return ProbeContext{*fs, env, identity, live, db, windows.get(), cwd, python_env_dirs};
  }
};

ProbeInputs MakeLiveInputs(const Environment& process_env, const KnowledgeDb* db = nullptr);
ProbeInputs MakeRecordedInputs(const std::string& sysroot, const KnowledgeDb* db = nullptr);

}  // namespace gpudoctor
