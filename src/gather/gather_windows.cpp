// Records a Windows machine by watching the probes: a WindowsSystemSource and a FileSystem that pass
// every call through and keep what came back. Only Windows paths (a drive letter) are kept, so the
// Linux probes' look at /sys or /proc on Windows leaves no trace. Written whole into a new folder;
// nothing there is ever overwritten.
#include "gather/gather_windows.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <system_error>

#include "core/strings.h"
#include "gather/gather.h"
#include "gather/pieces_file.h"
#include "gather/recording_filesystem.h"
#include "probe/linux/nvidia_record.h"
#include "probe/recorded_identity.h"
#include "probe/windows/recorded_windows_json.h"
#include "topo/machine_pass.h"

namespace gpudoctor {
namespace {

namespace stdfs = std::filesystem;

// The folders the Windows probes start from (the Python finder's among them: conda's and uv's).
constexpr const char* kWindowsVariableNames[] = {"USERPROFILE", "LOCALAPPDATA",      "APPDATA",
                                                 "VIRTUAL_ENV", "CONDA_PREFIX",      "SystemDrive",
                                                 "CONDA_EXE",   "MAMBA_ROOT_PREFIX", "UV_PYTHON_INSTALL_DIR",
                                                 "HOMEDRIVE",   "HOMEPATH"};
constexpr size_t kMaxListedWindowsEntries = 2000;

class RecordingWindowsSource final : public WindowsSystemSource {
 public:
  explicit RecordingWindowsSource(const WindowsSystemSource& inner) : inner_(inner) {}

  WindowsSystemFacts System() const override {
    facts = inner_.System();
    return facts;
  }
  DxgiAdapters Adapters() const override {
    dxgi = inner_.Adapters();
    dxgi_read = true;
    return dxgi;
  }
  Result<std::vector<std::string>> RegistrySubkeys(RegistryRoot root, std::string_view path) const override {
    auto out = inner_.RegistrySubkeys(root, path);
    if (out.ok()) {
      std::string key = Key(root, path);
      keys[key];
      for (const auto& child : *out) keys[key + "\\" + child];
    }
    return out;
  }
  std::optional<RegistryValue> ReadRegistry(RegistryRoot root, std::string_view path,
                                            std::string_view name) const override {
    auto out = inner_.ReadRegistry(root, path, name);
    if (out) keys[Key(root, path)][std::string(name)] = *out;
    return out;
  }
  std::optional<WindowsFileInfo> FileInfo(std::string_view path) const override {
    auto out = inner_.FileInfo(path);
    if (out) files[std::string(path)] = *out;
    return out;
  }

  // What was read, for the writer.
  mutable WindowsSystemFacts facts;
  mutable DxgiAdapters dxgi;
  mutable bool dxgi_read = false;
  mutable std::map<std::string, std::map<std::string, RegistryValue>> keys;
  mutable std::map<std::string, WindowsFileInfo> files;

 private:
  static std::string Key(RegistryRoot root, std::string_view path) {
    std::string p(path);
    while (!p.empty() && p.back() == '\\') p.pop_back();
    return std::string(ToString(root)) + (p.empty() ? "" : "\\" + p);
  }
  const WindowsSystemSource& inner_;
};

// Linux's gathered variables but PATH (long, and personal on Windows), and the Windows folder ones.
bool IsGatheredOnWindows(const std::string& name) {
  return IsGatheredWindowsVariable(name) || (IsGatheredVariable(name) && ToLower(name) != "path");
}

bool IsWindowsPath(std::string_view path) {
  return RecordedWindowsPath(path) != path;
}

// The folders and plain files the probes saw, from what the recording kept: a listed folder's entries
// are kept by kind (each asked of `inner`, at most kMaxListedWindowsEntries a folder), libraries read in
// pieces by name only (they may weigh gigabytes).
struct SeenPaths {
  std::set<std::string> dirs;
  std::set<std::string> plain_files;
};

SeenPaths PathsSeen(const RecordedAccesses& seen, const FileSystem& inner) {
  SeenPaths out;
  for (const auto& [dir, names] : seen.listings) {
    out.dirs.insert(dir);
    size_t n = 0;
    for (const auto& name : names) {
      if (++n > kMaxListedWindowsEntries) break;
      std::string child = dir + (dir.back() == '\\' || dir.back() == '/' ? "" : "\\") + name;
      auto st = inner.Stat(child);
      if (!st.ok()) continue;
      (st->is_dir ? out.dirs : out.plain_files).insert(child);
    }
  }
  for (const auto& [path, st] : seen.stats) (st.is_dir ? out.dirs : out.plain_files).insert(path);
  for (const auto& [path, pieces] : seen.opened) out.plain_files.insert(path);
  return out;
}

class Writer {
 public:
  explicit Writer(stdfs::path dest) : dest_(std::move(dest)) {}

  // A machine path ("/.gpudoctor/environ", "C:\Users\bob\x") -> the file under dest.
  stdfs::path Host(std::string_view machine_path) const {
    std::string mapped = RecordedWindowsPath(machine_path);
    std::string_view p = mapped;
    while (!p.empty() && p.front() == '/') p.remove_prefix(1);
    stdfs::path out = dest_;
    for (auto part : Split(p, '/')) {
      if (part.empty() || part == "." || part == "..") continue;  // never above dest
      out /= std::string(part);
    }
    return out;
  }
  Status File(std::string_view machine_path, std::string_view data) {
    stdfs::path p = Host(machine_path);
    std::error_code ec;
    stdfs::create_directories(p.parent_path(), ec);
    if (ec) return EnvError("cannot create " + p.parent_path().string() + ": " + ec.message());
    if (stdfs::exists(p, ec)) return Ok{};
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
    out.close();
    if (!out) return EnvError("cannot write " + p.string());
    written.push_back(std::string(machine_path));
    return Ok{};
  }
  Status Pieces(std::string_view machine_path, const RecordedPieces& file, std::string_view head) {
    stdfs::path p = Host(machine_path);
    std::error_code ec;
    stdfs::create_directories(p.parent_path(), ec);
    if (ec) return EnvError("cannot create " + p.parent_path().string() + ": " + ec.message());
    if (stdfs::exists(p, ec)) return Ok{};
    if (auto s = WritePiecesFile(p, file, head); !s.ok()) return s;
    written.push_back(std::string(machine_path) + " (" + std::to_string(file.kept_bytes) + " of " +
                      std::to_string(file.size) + " bytes: the pieces read)");
    return Ok{};
  }
  Status Dir(std::string_view machine_path) {
    std::error_code ec;
    stdfs::create_directories(Host(machine_path), ec);
    if (ec) return EnvError("cannot create " + Host(machine_path).string() + ": " + ec.message());
    return Ok{};
  }
  std::vector<std::string> written;

 private:
  stdfs::path dest_;
};

std::string Readme(const Snapshot& snap, const UserIdentity& identity, std::vector<std::string> written,
                   const std::vector<std::string>& notes) {
  std::sort(written.begin(), written.end());
  std::string out =
      "# Recorded Windows machine\n\n"
      "Recorded by `gpudoctor gather` on " +
      (snap.host_name.empty() ? std::string("a Windows machine") : snap.host_name) + " (" +
      snap.os.distro_name +
      "). This folder is a sysroot: `gpudoctor info --sysroot <this folder>` reads it as the machine, on any "
      "OS.\n\n"
      "`.gpudoctor/windows/` holds what is not a file: the registry values the probes read (registry.json), "
      "DXGI's adapters (dxgi.json), version, memory and processor counts (os.json) and the versions of the "
      "GPU DLLs looked for (files.json). Drive C: is the folder `C` here; only the files and folder listings "
      "the probes looked at were copied (Python folders, torch/version.py, HIP SDK folders), files larger "
      "than "
      "1 MiB cut there, libraries read in pieces recorded at their size with those pieces only.\n\n"
      "It contains no personal data beyond the user name (" +
      identity.user_name +
      "), the host name and the paths of the folders looked at.\n\n"
      "## Files\n\n";
  for (const auto& w : written) out += "- `" + w + "`\n";
  if (!notes.empty()) {
    out += "\n## Notes\n\n";
    for (const auto& n : notes) out += "- " + n + "\n";
  }
  return out;
}

}  // namespace

bool IsGatheredWindowsVariable(const std::string& name) {
  for (const char* n : kWindowsVariableNames) {
    if (ToLower(name) == ToLower(n)) return true;
  }
  return false;
}

Status GatherWindowsMachine(ProbeInputs& live, const std::string& adl_json, const std::string& dest_dir,
                            std::vector<std::string>& notes) {
  if (!live.windows) return InternalError("GatherWindowsMachine needs a Windows source");
  if (auto s = PrepareGatherDestination(dest_dir); !s.ok()) return s;
  // The probes run on `live` itself with its file system and Windows source swapped for recording
  // wrappers (so every other input reaches them unchanged); the originals come back on every return.
  struct Swap {
    ProbeInputs& in;
    std::unique_ptr<FileSystem> fs;
    std::unique_ptr<WindowsSystemSource> windows;
    ~Swap() {
      in.fs = std::move(fs);
      in.windows = std::move(windows);
    }
  } swap{live, std::move(live.fs), std::move(live.windows)};
  auto recording_fs = std::make_unique<RecordingFileSystem>(*swap.fs, IsWindowsPath);
  auto recording_windows = std::make_unique<RecordingWindowsSource>(*swap.windows);
  RecordingFileSystem& fs = *recording_fs;
  RecordingWindowsSource& windows = *recording_windows;
  live.fs = std::move(recording_fs);
  live.windows = std::move(recording_windows);
  std::set<std::string> read_variables;  // the environment variables the probes ask for
  live.env.RecordReadsInto(&read_variables);
  Snapshot snap = ProbeMachine(live);
  live.env.RecordReadsInto(nullptr);
  if (!windows.dxgi_read) windows.Adapters();

  Writer out{stdfs::path(dest_dir)};
  const std::string dir = kRecordedWindowsDir;
  if (auto s = out.File(dir + "/os.json", RecordedOsToJson(windows.facts)); !s.ok()) return s;
  if (auto s = out.File(dir + "/dxgi.json", RecordedDxgiToJson(windows.dxgi)); !s.ok()) return s;
  if (auto s = out.File(dir + "/registry.json", RecordedRegistryToJson(windows.keys)); !s.ok()) return s;
  if (auto s = out.File(dir + "/files.json", RecordedFilesToJson(windows.files)); !s.ok()) return s;
  const std::string inputs = kRecordedInputsDir;
  // The current folder as PWD, as on Linux: a .venv or a portable app there replays.
  std::string environ_text = GatheredEnvironText(live.env, read_variables, IsGatheredOnWindows, notes);
  if (!live.env.Has("PWD") && !live.cwd.empty()) environ_text += "PWD=" + live.cwd + "\n";
  if (auto s = out.File(inputs + "/environ", environ_text); !s.ok()) return s;
  if (auto s = out.File(inputs + "/identity.json", RecordedIdentityToJson(live.identity)); !s.ok()) return s;
  if (snap.disk.total_bytes && snap.disk.free_bytes) {
    std::string disk = "path=" + snap.disk.path + "\ntotal_bytes=" + std::to_string(*snap.disk.total_bytes) +
                       "\nfree_bytes=" + std::to_string(*snap.disk.free_bytes) + "\n";
    if (auto s = out.File(inputs + "/disk", disk); !s.ok()) return s;
  }
  if (!snap.nvidia.devices.empty() || snap.nvidia.driver_version) {
    if (auto s = out.File(inputs + "/nvml.json", NvidiaAnswersToJson(snap.nvidia)); !s.ok()) return s;
  }
  if (!adl_json.empty()) {
    if (auto s = out.File(inputs + "/adl.json", adl_json); !s.ok()) return s;
  }
  const RecordedAccesses& seen = fs.accesses();
  for (const auto& [path, data] : seen.reads) {
    if (data.size() >= kGatherMaxFileBytes)
      notes.push_back(path + ": longer than 1 MiB, recorded its first 1 MiB");
    if (auto s = out.File(path, data); !s.ok()) return s;
  }
  SeenPaths paths = PathsSeen(seen, *swap.fs);
  for (const auto& d : paths.dirs) {
    if (auto s = out.Dir(d); !s.ok()) return s;
  }
  // Libraries read in pieces (torch_cuda.dll, torch_hip.dll): their size and the pieces the readers
  // took, at the same offsets, so a replay finds the same GPU code.
  for (const auto& [path, file] : seen.opened) {
    if (file.cut) notes.push_back(path + ": read in more than 64 MiB of pieces, recorded the first 64 MiB");
    auto head = seen.reads.find(path);
    if (auto s = out.Pieces(path, file, head == seen.reads.end() ? "" : head->second); !s.ok()) return s;
  }
  for (const auto& f : paths.plain_files) {
    if (seen.reads.count(f) || seen.opened.count(f)) continue;
    if (auto s = out.File(f, ""); !s.ok()) return s;
  }
  std::string readme = Readme(snap, live.identity, out.written, notes);
  std::ofstream file(stdfs::path(dest_dir) / "README.md", std::ios::binary);
  file << readme;
  file.close();
  if (!file) return EnvError("cannot write " + (stdfs::path(dest_dir) / "README.md").string());
  return Ok{};
}

}  // namespace gpudoctor
