// A throw-away sysroot for probe tests: a temp folder the test fills with machine files, folders and
// links, then hands to the probes through MakeRootedFileSystem with ctx.live = false.
#pragma once

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <system_error>

#include "platform/environment.h"
#include "platform/filesystem.h"
#include "platform/identity.h"
#include "probe/probe_context.h"
#include "snapshot/snapshot.h"

namespace gpudoctor::testing {

class ProbeSysroot {
 public:
  ProbeSysroot() {
    std::random_device rd;
    auto base = std::filesystem::temp_directory_path();
    for (int attempt = 0; attempt < 100; ++attempt) {
      auto candidate = base / ("gpudoctor-probe-" + std::to_string(rd()) + std::to_string(attempt));
      std::error_code ec;
      if (std::filesystem::create_directory(candidate, ec)) {
        root_ = candidate;
        break;
      }
    }
    fs_ = MakeRootedFileSystem(root_.string());
  }
  ~ProbeSysroot() {
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
  }
  ProbeSysroot(const ProbeSysroot&) = delete;
  ProbeSysroot& operator=(const ProbeSysroot&) = delete;

  // Writes a file at a machine path ("/proc/cpuinfo"), creating its folders.
  void Write(std::string_view machine_path, std::string_view content) const {
    auto host = Host(machine_path);
    std::filesystem::create_directories(host.parent_path());
    std::ofstream out(host, std::ios::binary | std::ios::trunc);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
  }
  void MakeDir(std::string_view machine_path) const {
    std::filesystem::create_directories(Host(machine_path));
  }
  // A symbolic link at `machine_path` holding `target` as written; false where links cannot be made.
  bool Link(std::string_view machine_path, std::string_view target) const {
    auto host = Host(machine_path);
    std::filesystem::create_directories(host.parent_path());
    std::error_code ec;
    std::filesystem::create_symlink(std::string(target), host, ec);
    return !ec;
  }

  const FileSystem& fs() const { return *fs_; }
  std::string root() const { return root_.string(); }

  Environment env;
  UserIdentity identity;
  // As if this tree were the live machine: only for probes that never load a
  // vendor library (the disk probe measures instead of reading recorded figures).
  bool live = false;

  // Runs one probe against this sysroot, as under `--sysroot` (unless `live` is set).
  template <typename Probe>
  Snapshot Run(Probe probe) const {
    ProbeContext ctx{*fs_, env, identity, live};
    Snapshot snap;
    probe(ctx, snap);
    return snap;
  }

 private:
  std::filesystem::path Host(std::string_view machine_path) const {
    while (!machine_path.empty() && machine_path.front() == '/') machine_path.remove_prefix(1);
    return root_ / std::string(machine_path);
  }

  std::filesystem::path root_;
  std::unique_ptr<FileSystem> fs_;
};

// An environment from name/value pairs (Environment's own constructor is ambiguous with one pair).
inline Environment MakeEnv(std::map<std::string, std::string> vars) {
  return Environment(std::move(vars));
}

// True when some warning contains `needle`.
inline bool HasWarning(const Snapshot& snap, std::string_view needle) {
  for (const auto& w : snap.warnings)
    if (w.find(needle) != std::string::npos) return true;
  return false;
}

inline bool LookedAt(const Snapshot& snap, std::string_view what) {
  for (const auto& l : snap.looked_at)
    if (l == what) return true;
  return false;
}

}  // namespace gpudoctor::testing
