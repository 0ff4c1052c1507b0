// Records a Linux machine as a sysroot folder from what the probes read through a RecordingFileSystem
// (gather.h). The writer keeps the tree's shape: every link met on the way to a file is recorded as a
// relative link, so the replay resolves the same paths; a link that leads out of the recorded root is
// skipped with a note, and nothing in the destination is ever overwritten.
#include "gather/gather.h"

#include <algorithm>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <set>
#include <system_error>

#include "core/strings.h"
#include "gather/pieces_file.h"
#include "probe/common/env_probe.h"
#include "probe/recorded_identity.h"
#include "telemetry/amd_sysfs_telemetry.h"
#include "telemetry/telemetry_reader.h"
#include "topo/machine_pass.h"

namespace gpudoctor {
namespace {

namespace stdfs = std::filesystem;

constexpr const char* kVariablePrefixes[] = {"HIP_", "ROCR_", "CUDA_", "HSA_", "ROCM_", "PYTORCH_"};
// What the probes start from besides the reported variables: the home folder (disk, Python), PATH
// (Python interpreters), pyenv, conda's and mamba's base, the current folder (a .venv there) and the
// container hint. GatherVariables.EveryVariableAProbeReadsIsOnTheAllowList holds this list to what the
// probes read on every recorded machine.
constexpr const char* kVariableNames[] = {"LD_LIBRARY_PATH",
                                          "HOME",
                                          "PATH",
                                          "PWD",
                                          "PYENV_ROOT",
                                          "PYENV_VERSION",
                                          "CONDA_EXE",
                                          "MAMBA_ROOT_PREFIX",
                                          "KUBERNETES_SERVICE_HOST"};
constexpr int kMaxLinkHops = 40;
// Entries recorded of one listed folder (a system library folder holds a few thousand).
constexpr size_t kMaxListedEntries = 20000;

std::string JoinComponents(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& p : parts) out += "/" + p;
  return out.empty() ? "/" : out;
}

std::string ParentOf(std::string_view path) {
  size_t pos = path.find_last_of('/');
  return pos == 0 || pos == std::string_view::npos ? "/" : std::string(path.substr(0, pos));
}

bool IsMachinePath(std::string_view path) {
  return StartsWith(path, "/");
}

// Writes the recorded tree under dest. Paths are resolved against the recorded machine (`fs`, the
// file system the probes read through, unwrapped) one component at a time.
class TreeWriter {
 public:
  TreeWriter(const FileSystem& fs, stdfs::path dest, std::vector<std::string>& notes)
      : fs_(fs), dest_(std::move(dest)), notes_(notes) {}

  // Resolves every link in `path` inside the root, recording each one met as a relative link. An
  // absolute target is taken from the root; a relative one may not climb above it (then the path
  // is skipped with a note). The result names no link, so writing there stays inside dest.
  Result<std::string> Resolve(std::string_view path) {
    std::deque<std::string> todo;
    for (auto c : Split(path, '/')) todo.emplace_back(c);
    std::vector<std::string> done;
    int hops = 0;
    while (!todo.empty()) {
      std::string c = std::move(todo.front());
      todo.pop_front();
      if (c.empty() || c == ".") continue;
      if (c == "..") {
        if (done.empty()) return UserError(std::string(path) + ": a link leads out of the recorded tree");
        done.pop_back();
        continue;
      }
      done.push_back(c);
      std::string here = JoinComponents(done);
      auto target = fs_.ReadLink(here);
      if (!target.ok()) continue;
      if (++hops > kMaxLinkHops) return UserError(std::string(path) + ": too many levels of links");
      pending_links_.emplace_back(here, *target);
      done.pop_back();
      if (StartsWith(*target, "/")) done.clear();
      auto parts = Split(*target, '/');
      for (auto it = parts.rbegin(); it != parts.rend(); ++it) todo.emplace_front(*it);
    }
    return JoinComponents(done);
  }

  // Resolve() and, when the path stays inside the tree, the links met on the way.
  std::optional<std::string> Reach(std::string_view path) {
    pending_links_.clear();
    auto resolved = Resolve(path);
    if (!resolved.ok()) {
      notes_.push_back("skipped " + resolved.error().message);
      return std::nullopt;
    }
    for (const auto& [at, target] : pending_links_) {
      if (!Link(at, target)) return std::nullopt;
    }
    return *resolved;
  }

  bool File(const std::string& resolved, std::string_view data) {
    stdfs::path p = Host(resolved);
    std::error_code ec;
    if (stdfs::exists(stdfs::symlink_status(p, ec))) return true;
    if (!MakeParent(p)) return false;
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
    out.close();
    if (!out) return Fail("cannot write " + p.string());
    recorded_.push_back(resolved);
    return true;
  }

  // A file of the original size holding the pieces read (and `head`, read whole, at its start);
  // the rest is a hole.
  bool PiecesFile(const std::string& resolved, const RecordedPieces& file, const std::string& head) {
    stdfs::path p = Host(resolved);
    std::error_code ec;
    if (stdfs::exists(stdfs::symlink_status(p, ec))) return true;
    if (!File(resolved, "")) return false;
    if (auto st = WritePiecesFile(p, file, head); !st.ok()) return Fail(st.error().message);
    recorded_.back() += " (" + std::to_string(file.kept_bytes) + " of " + std::to_string(file.size) +
                        " bytes: the pieces read)";
    return true;
  }

  bool Dir(const std::string& resolved) {
    std::error_code ec;
    stdfs::create_directories(Host(resolved), ec);
    if (ec) return Fail("cannot create " + Host(resolved).string() + ": " + ec.message());
    return true;
  }

  // An entry of a listed folder, by kind: a link as a link, a folder as an empty folder, anything
  // else as an empty file (its content is recorded only when read).
  bool Entry(const std::string& resolved_dir, const std::string& name) {
    std::string child = JoinPath(resolved_dir, name);
    if (fs_.ReadLink(child).ok()) {
      pending_links_.clear();
      if (!Resolve(child).ok()) {
        notes_.push_back("skipped " + child + ": a link leads out of the recorded tree");
        return true;
      }
      return Link(child, *fs_.ReadLink(child));
    }
    auto st = fs_.Stat(child);
    if (!st.ok()) return true;
    return st->is_dir ? Dir(child) : File(child, "");
  }

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  const std::vector<std::string>& recorded() const { return recorded_; }

 private:
  stdfs::path Host(std::string_view machine_path) const {
    while (!machine_path.empty() && machine_path.front() == '/') machine_path.remove_prefix(1);
    return dest_ / stdfs::path(std::string(machine_path));
  }

  bool MakeParent(const stdfs::path& p) {
    std::error_code ec;
    stdfs::create_directories(p.parent_path(), ec);
    if (ec) return Fail("cannot create " + p.parent_path().string() + ": " + ec.message());
    return true;
  }

  // Records the link at `at` (its folder holds no link) as a relative link; where the host cannot
  // make links, as a text file holding the target.
  bool Link(const std::string& at, const std::string& target) {
    if (!links_.insert(at).second) return true;
    std::string relative = target;
    if (StartsWith(target, "/"))
      relative = stdfs::path(target).lexically_relative(ParentOf(at)).generic_string();
    if (relative.empty()) relative = ".";
    stdfs::path p = Host(at);
    if (!MakeParent(p)) return false;
    std::error_code ec;
    stdfs::create_symlink(relative, p, ec);
    if (!ec) {
      recorded_.push_back(at + " -> " + relative);
      return true;
    }
    notes_.push_back(at + ": links not possible here (" + ec.message() +
                     "), recorded as a text file holding the target");
    return File(at, relative + "\n");
  }

  bool Fail(std::string message) {
    if (error_.empty()) error_ = std::move(message);
    return false;
  }

  const FileSystem& fs_;
  stdfs::path dest_;
  std::vector<std::string>& notes_;
  std::vector<std::string> recorded_;
  std::set<std::string> links_;
  std::vector<std::pair<std::string, std::string>> pending_links_;
  std::string error_;
};

// Writes every access the recording kept: contents first, then what exists, then listings, so an
// empty placeholder never stands where content belongs.
Status WriteAccesses(const RecordedAccesses& seen, TreeWriter& out, std::vector<std::string>& notes) {
  for (const auto& path : seen.cut_reads)
    notes.push_back(path + ": longer than 1 MiB, recorded its first 1 MiB");
  for (const auto& [path, file] : seen.opened) {
    if (file.cut) notes.push_back(path + ": read in more than 64 MiB of pieces, recorded the first 64 MiB");
  }
  for (const auto& [path, data] : seen.reads) {
    if (seen.opened.count(path)) continue;
    if (auto at = out.Reach(path)) out.File(*at, data);
  }
  for (const auto& [path, file] : seen.opened) {
    auto head = seen.reads.find(path);
    if (auto at = out.Reach(path)) out.PiecesFile(*at, file, head == seen.reads.end() ? "" : head->second);
  }
  for (const auto& path : seen.links) out.Reach(path);
  for (const auto& [path, st] : seen.stats) {
    if (auto at = out.Reach(path)) st.is_dir ? out.Dir(*at) : out.File(*at, "");
  }
  for (const auto& [path, names] : seen.listings) {
    auto at = out.Reach(path);
    if (!at || !out.Dir(*at)) continue;
    if (names.size() > kMaxListedEntries)
      notes.push_back(path + ": " + std::to_string(names.size()) + " entries, recorded the first " +
                      std::to_string(kMaxListedEntries));
    for (size_t i = 0; i < names.size() && i < kMaxListedEntries; ++i) out.Entry(*at, names[i]);
  }
  for (const auto& path : seen.spaces) {
    if (auto at = out.Reach(path)) out.Dir(*at);
  }
  if (!out.ok()) return EnvError(out.error());
  return Ok{};
}

// "path mode_octal uid gid" per device node whose owner the machine told (the live machine).
std::string DevNodes(const RecordedAccesses& seen) {
  std::string out;
  for (const auto& [path, st] : seen.stats) {
    if (!st.is_char_device || !StartsWith(path, "/dev/")) continue;
    char mode[16];
    std::snprintf(mode, sizeof mode, "%04o", st.mode & 07777u);
    out += path + " " + mode + " " + (st.uid ? std::to_string(*st.uid) : "-") + " " +
           (st.gid ? std::to_string(*st.gid) : "-") + "\n";
  }
  return out;
}

std::string DiskText(const Snapshot& snap) {
  if (!snap.disk.total_bytes || !snap.disk.free_bytes) return "";
  return "path=" + snap.disk.path + "\ntotal_bytes=" + std::to_string(*snap.disk.total_bytes) +
         "\nfree_bytes=" + std::to_string(*snap.disk.free_bytes) + "\n";
}

std::string ReadmeText(const std::string& root, const UserIdentity& identity,
                       const std::vector<std::string>& recorded, const std::vector<std::string>& notes) {
  std::string out =
      "# Recorded machine\n\n"
      "Recorded by `gpudoctor gather` from " +
      root +
      ". This folder is a sysroot: "
      "`gpudoctor info --sysroot <this folder>` (or check, topo, monitor, serve) reads it as the machine.\n\n"
      "It holds only what gpudoctor's probes read (OS release, kernel, CPU and memory summary, PCI "
      "devices, AMD KFD topology and DRM files with one reading of their telemetry (hwmon, pp_dpm), driver "
      "and "
      "runtime versions, the folders listed and the "
      "files looked for as empty files, the Python environments' package metadata and the pieces of their "
      "GPU libraries that were read, the rest of those files left as holes) and, under `.gpudoctor/`, the "
      "GPU-related environment variables and PATH, the user's groups, device node owners, free space and "
      "NVML's answers (with one telemetry sample per GPU).\n\n"
      "It contains no personal data beyond the user name (" +
      identity.user_name +
      "), the host name and the paths of the folders looked at.\n\n"
      "## Files\n\n";
  for (const auto& r : recorded) out += "- `" + r + "`\n";
  if (!notes.empty()) {
    out += "\n## Notes\n\n";
    for (const auto& n : notes) out += "- " + n + "\n";
  }
  return out;
}

// The recorded inputs that are not the machine's files; one the probes read from the recorded
// machine itself (a sysroot's .gpudoctor/) is already in the tree and kept as it was.
Status WriteRecordedInputs(const ProbeInputs& machine, const RecordedAccesses& seen,
                           const std::set<std::string>& read_variables, const Snapshot& snap,
                           const std::string& nvml_json, TreeWriter& out, std::vector<std::string>& notes) {
  const std::string dir = kRecordedInputsDir;
  // Not `environ`: the Windows C runtime defines that name as a macro.
  std::string environ_text = GatheredEnvironText(machine.env, read_variables, IsGatheredVariable, notes);
  if (!machine.env.Has("PWD") && !machine.cwd.empty()) environ_text += "PWD=" + machine.cwd + "\n";
  out.File(dir + "/environ", environ_text);
  out.File(dir + "/identity.json", RecordedIdentityToJson(machine.identity));
  if (std::string nodes = DevNodes(seen); !nodes.empty()) out.File(dir + "/devnodes", nodes);
  if (!nvml_json.empty()) out.File(dir + "/nvml.json", nvml_json);
  if (std::string disk = DiskText(snap); !disk.empty()) out.File(dir + "/disk", disk);
  if (!out.ok()) return EnvError(out.error());
  return Ok{};
}

}  // namespace

Status PrepareGatherDestination(const std::string& dest_dir) {
  std::error_code ec;
  stdfs::file_status st = stdfs::symlink_status(dest_dir, ec);
  if (stdfs::exists(st)) {
    if (!stdfs::is_directory(st)) {
      return UserError(dest_dir + " exists and is not a folder", "name a new folder for the recording");
    }
    if (!stdfs::is_empty(dest_dir, ec) || ec) {
      return UserError(dest_dir + " is not empty; gather never overwrites files",
                       "name a new or empty folder for the recording");
    }
    return Ok{};
  }
  stdfs::create_directories(dest_dir, ec);
  if (ec) return EnvError("cannot create " + dest_dir + ": " + ec.message());
  return Ok{};
}

bool IsGatheredVariable(const std::string& name) {
  if (IsReportedVariable(name)) return true;
  for (const char* p : kVariablePrefixes) {
    if (StartsWith(name, p)) return true;
  }
  return std::find(std::begin(kVariableNames), std::end(kVariableNames), name) != std::end(kVariableNames);
}

std::string GatheredEnvironText(const Environment& env, const std::set<std::string>& read,
                                bool (*keep)(const std::string&), std::vector<std::string>& notes) {
  std::string out;
  for (const auto& [name, value] : env.All()) {
    // PWD is the recording's current folder (the replay's cwd), which the probes take from ProbeInputs.
    const bool wanted = read.count(name) != 0 || IsReportedVariable(name) || name == "PWD";
    if (wanted && !keep(name)) {
      notes.push_back("environment variable " + name +
                      " is read by a probe but outside gather's list; not recorded");
      continue;
    }
    if (!wanted) continue;
    if (IsReportedByNameOnly(name)) {
      out += name + "=" + kEnvValueNotRecorded + "\n";
      continue;
    }
    if (value.find('\n') != std::string::npos) {
      notes.push_back("environment variable " + name + " holds a line break; not recorded");
      continue;
    }
    out += name + "=" + value + "\n";
  }
  return out;
}

Status GatherMachine(ProbeInputs& machine, const std::string& nvml_json, const std::string& dest_dir,
                     std::vector<std::string>& notes) {
  if (auto s = PrepareGatherDestination(dest_dir); !s.ok()) return s;
  // The probes run on `machine` itself with its file system swapped for a recording wrapper (so every
  // other input reaches them unchanged); the original comes back on every return.
  struct Swap {
    ProbeInputs& in;
    std::unique_ptr<FileSystem> fs;
    ~Swap() { in.fs = std::move(fs); }
  } swap{machine, std::move(machine.fs)};
  auto recording = std::make_unique<RecordingFileSystem>(*swap.fs, IsMachinePath);
  const RecordingFileSystem& fs = *recording;
  machine.fs = std::move(recording);
  std::set<std::string> read_variables;  // the environment variables the probes ask for
  machine.env.RecordReadsInto(&read_variables);
  Snapshot snap = ProbeMachine(machine);                  // the one pass every command runs on it
  for (const auto& device : AmdTelemetryDevices(snap)) {  // what `monitor` and `serve` read of AMD GPUs
    TelemetrySample sample;
    sample.device = device;
    ReadAmdSysfsTelemetry(*machine.fs, FindAmdSysfsFiles(*machine.fs, device.pci_address), sample);
  }
  machine.env.RecordReadsInto(nullptr);

  TreeWriter out(*swap.fs, stdfs::path(dest_dir), notes);
  if (auto s = WriteAccesses(fs.accesses(), out, notes); !s.ok()) return s;
  if (auto s = WriteRecordedInputs(machine, fs.accesses(), read_variables, snap, nvml_json, out, notes);
      !s.ok())
    return s;
  std::vector<std::string> recorded = out.recorded();
  std::sort(recorded.begin(), recorded.end());
  std::string readme = ReadmeText(swap.fs->Root(), machine.identity, recorded, notes);
  std::ofstream file(stdfs::path(dest_dir) / "README.md", std::ios::binary);
  file << readme;
  file.close();
  if (!file) return EnvError("cannot write " + (stdfs::path(dest_dir) / "README.md").string());
  return Ok{};
}

}  // namespace gpudoctor
