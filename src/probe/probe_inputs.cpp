// Builds ProbeInputs for the live machine or a recorded sysroot.
#include "probe/probe_inputs.h"

#include <filesystem>
#include <system_error>

#include "probe/recorded_identity.h"
#include "probe/windows/recorded_windows_source.h"

namespace gpudoctor {

ProbeInputs MakeLiveInputs(const Environment& process_env, const KnowledgeDb* db) {
  ProbeInputs in;
  in.db = db;
  in.fs = MakeRootedFileSystem("/");
  in.env = process_env;
  in.identity = CurrentUserIdentity();
  in.live = true;
  in.windows = MakeLiveWindowsSystemSource();  // null except on Windows
  std::error_code ec;
  auto cwd = std::filesystem::current_path(ec);
  if (!ec) in.cwd = cwd.generic_string();
  return in;
}

ProbeInputs MakeRecordedInputs(const std::string& sysroot, const KnowledgeDb* db) {
  ProbeInputs in;
  in.db = db;
  in.fs = MakeRootedFileSystem(sysroot);
  in.live = in.fs->IsLiveRoot();
  std::string dir = kRecordedInputsDir;
  // A missing environ or identity file is not an error (older or hand-made
  // recordings): the value stays empty and the report says so.
  if (auto env = in.fs->ReadFile(dir + "/environ"); env.ok()) {
    in.env = ParseEnvironmentFile(*env);
    in.cwd = in.env.Get("PWD").value_or("");
  } else {
    in.warnings.push_back("no recorded environment: " + env.error().message);
  }
  if (auto id = in.fs->ReadFile(dir + "/identity.json"); id.ok()) {
    in.identity = ParseRecordedIdentity(*id, in.warnings);
  } else {
    in.identity.user_name = "unknown (not recorded)";
    in.warnings.push_back("no recorded user identity: " + id.error().message);
  }
  if (in.live) {
    in.windows = MakeLiveWindowsSystemSource();
  } else if (HasRecordedWindows(*in.fs)) {
    in.windows = LoadRecordedWindowsSource(*in.fs, in.warnings);
  }
  return in;
}

}  // namespace gpudoctor
