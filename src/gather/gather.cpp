// Records a live machine as a sysroot folder: the table below is the one list of what
// the probes read; everything else here walks it safely (links stay inside the tree,
// files are capped, nothing in the destination is overwritten).
#include "gather/gather.h"

#include <algorithm>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <system_error>

#include "core/strings.h"
#include "gather/recorded_identity.h"
#include "probe/probe_context.h"

namespace gpudoctor {
namespace {

namespace stdfs = std::filesystem;

enum class Copy {
  kContent,   // the file's bytes (capped at kGatherMaxFileBytes)
  kNameOnly,  // an empty file of the same name: the probes only look for its presence
};

struct PathRule {
  const char* pattern;  // machine path; a component may hold '*' (any run of characters)
  Copy copy;
  // A link matched by a '*' component is recorded as a link and not descended into
  // (/opt/rocm -> rocm-6.2.4), so one install is not recorded twice.
  bool keep_links;
};

// What the probes read, besides the PCI devices (kPciDeviceFiles) and the files in
// kRecordedInputsDir. Absent paths are skipped silently: no machine has all of them.
constexpr PathRule kPathRules[] = {
    {"/etc/os-release", Copy::kContent, false},
    {"/etc/group", Copy::kContent, false},
    {"/proc/version", Copy::kContent, false},
    {"/proc/sys/kernel/osrelease", Copy::kContent, false},
    {"/proc/sys/kernel/hostname", Copy::kContent, false},
    {"/proc/cpuinfo", Copy::kContent, false},
    {"/proc/meminfo", Copy::kContent, false},
    {"/proc/driver/nvidia/version", Copy::kContent, false},
    {"/sys/module/amdgpu/version", Copy::kContent, false},
    {"/sys/module/amdgpu/initstate", Copy::kContent, false},
    {"/sys/module/nvidia/version", Copy::kContent, false},
    {"/sys/class/kfd/kfd/topology/nodes/*/properties", Copy::kContent, false},
    {"/sys/class/kfd/kfd/topology/nodes/*/gpu_id", Copy::kContent, false},
    {"/sys/class/kfd/kfd/topology/nodes/*/name", Copy::kContent, false},
    {"/sys/class/kfd/kfd/topology/nodes/*/mem_banks/*/properties", Copy::kContent, false},
    {"/sys/class/kfd/kfd/topology/nodes/*/io_links/*/properties", Copy::kContent, false},  // topo
    {"/sys/class/kfd/kfd/topology/nodes/*/p2p_links/*/properties", Copy::kContent, false},
    {"/sys/devices/system/node/node*/cpulist", Copy::kContent, false},
    {"/opt/rocm*/.info/version", Copy::kContent, true},
    {"/opt/rocm*/lib/libamdhip64*", Copy::kNameOnly, true},
    {"/usr/local/cuda*/version.json", Copy::kContent, true},
    {"/usr/lib/x86_64-linux-gnu/libamdhip64*", Copy::kNameOnly, false},
    {"/usr/lib/x86_64-linux-gnu/libcuda.so*", Copy::kNameOnly, false},
    {"/usr/lib/x86_64-linux-gnu/libnvidia-ml*", Copy::kNameOnly, false},
    {"/usr/lib64/libamdhip64*", Copy::kNameOnly, false},
    {"/usr/lib64/libcuda.so*", Copy::kNameOnly, false},
    {"/usr/lib64/libnvidia-ml*", Copy::kNameOnly, false},
    {"/usr/lib/libamdhip64*", Copy::kNameOnly, false},
    {"/usr/lib/libcuda.so*", Copy::kNameOnly, false},
    {"/usr/lib/libnvidia-ml*", Copy::kNameOnly, false},
    {"/usr/local/lib/libamdhip64*", Copy::kNameOnly, false},
    {"/usr/lib/wsl/lib/*", Copy::kNameOnly, false},
    {"/dev/kfd", Copy::kNameOnly, false},
    {"/dev/dxg", Copy::kNameOnly, false},
    {"/dev/dri/card*", Copy::kNameOnly, false},
    {"/dev/dri/renderD*", Copy::kNameOnly, false},
    {"/dev/nvidia*", Copy::kNameOnly, false},
};

constexpr const char* kPciDevicesDir = "/sys/bus/pci/devices";
// Files of each display (class 0x03xxxx) or processing-accelerator (0x12xxxx) function.
constexpr const char* kPciDeviceFiles[] = {
    "vendor",
    "device",
    "subsystem_vendor",
    "subsystem_device",
    "revision",
    "class",
    "numa_node",
    "current_link_speed",
    "current_link_width",
    "max_link_speed",
    "max_link_width",
    "mem_info_vram_total",
    "mem_info_vram_used",
    "mem_info_gtt_total",
    "gpu_busy_percent",
    "mem_info_vram_vendor",
    "board_info",
    "uevent",
    "local_cpulist",  // topo: the CPUs near the device
};
// Device nodes whose owner and mode decide access (.gpudoctor/devnodes).
constexpr const char* kDevNodePatterns[] = {"/dev/kfd", "/dev/dri/renderD*", "/dev/nvidia*"};
constexpr const char* kVariablePrefixes[] = {"HIP_", "ROCR_", "CUDA_", "HSA_", "ROCM_", "PYTORCH_"};
constexpr const char* kVariableNames[] = {"LD_LIBRARY_PATH", "HOME"};
constexpr int kMaxLinkHops = 40;

bool WildcardMatch(std::string_view pattern, std::string_view name) {
  size_t star = pattern.find('*');
  if (star == std::string_view::npos) return pattern == name;
  std::string_view head = pattern.substr(0, star);
  if (!StartsWith(name, head)) return false;
  std::string_view rest = pattern.substr(star + 1);
  for (size_t i = head.size(); i <= name.size(); ++i) {
    if (WildcardMatch(rest, name.substr(i))) return true;
  }
  return false;
}

std::string JoinComponents(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& p : parts) out += "/" + p;
  return out.empty() ? "/" : out;
}

std::string ParentOf(std::string_view path) {
  size_t pos = path.find_last_of('/');
  return pos == 0 || pos == std::string_view::npos ? "/" : std::string(path.substr(0, pos));
}

// Resolves every link in `path` by hand, inside the root of `fs`: an absolute target is
// taken from the root, a relative one may not climb above it. The result has no links,
// so reading it cannot leave the tree whatever the FileSystem does with links.
Result<std::string> ResolveInside(const FileSystem& fs, std::string_view path) {
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
    auto target = fs.ReadLink(JoinComponents(done));
    if (!target.ok()) continue;
    if (++hops > kMaxLinkHops) return UserError(std::string(path) + ": too many levels of links");
    done.pop_back();
    if (StartsWith(*target, "/")) done.clear();
    auto parts = Split(*target, '/');
    for (auto it = parts.rbegin(); it != parts.rend(); ++it) todo.emplace_front(*it);
  }
  return JoinComponents(done);
}

class Recorder {
 public:
  Recorder(const FileSystem& fs, stdfs::path dest, std::vector<std::string>& notes)
      : fs_(fs), dest_(std::move(dest)), notes_(notes) {}

  stdfs::path Host(std::string_view machine_path) const {
    while (!machine_path.empty() && machine_path.front() == '/') machine_path.remove_prefix(1);
    return dest_ / stdfs::path(std::string(machine_path));
  }

  Status Write(std::string_view machine_path, std::string_view data) {
    stdfs::path p = Host(machine_path);
    std::error_code ec;
    stdfs::create_directories(p.parent_path(), ec);
    if (ec) return EnvError("cannot create " + p.parent_path().string() + ": " + ec.message());
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
    out.close();
    if (!out) return EnvError("cannot write " + p.string());
    recorded_.emplace_back(machine_path);
    return Ok{};
  }

  // A relative link; where the host cannot make links, a text file holding the target.
  Status Link(std::string_view machine_path, const std::string& target) {
    stdfs::path p = Host(machine_path);
    std::error_code ec;
    stdfs::create_directories(p.parent_path(), ec);
    if (ec) return EnvError("cannot create " + p.parent_path().string() + ": " + ec.message());
    stdfs::create_symlink(target, p, ec);
    if (!ec) {
      recorded_.push_back(std::string(machine_path) + " -> " + target);
      return Ok{};
    }
    notes_.push_back(std::string(machine_path) + ": links not possible here (" + ec.message() +
                     "), recorded as a text file holding the target");
    return Write(machine_path, target + "\n");
  }

  Status CopyFile(const std::string& machine_path, Copy copy) {
    auto resolved = ResolveInside(fs_, machine_path);
    if (!resolved.ok()) {
      notes_.push_back("skipped " + resolved.error().message);
      return Ok{};
    }
    auto st = fs_.Stat(*resolved);
    if (!st.ok() || st->is_dir) return Ok{};
    if (copy == Copy::kNameOnly) return Write(machine_path, "");
    auto data = fs_.ReadFile(*resolved, kGatherMaxFileBytes + 1);
    if (!data.ok()) {
      notes_.push_back("skipped " + machine_path + ": " + data.error().message);
      return Ok{};
    }
    if (data->size() > kGatherMaxFileBytes) {
      data->resize(kGatherMaxFileBytes);
      notes_.push_back(machine_path + ": longer than 1 MiB, recorded its first 1 MiB");
    }
    return Write(machine_path, *data);
  }

  // Records a link found by a '*' component as a relative link, if it stays in the tree.
  Status KeepLink(const std::string& machine_path, const std::string& target) {
    if (!ResolveInside(fs_, machine_path).ok()) {
      notes_.push_back("skipped " + machine_path + ": a link leads out of the recorded tree");
      return Ok{};
    }
    std::string relative = target;
    if (StartsWith(target, "/")) {
      relative = stdfs::path(target).lexically_relative(ParentOf(machine_path)).generic_string();
    }
    return Link(machine_path, relative);
  }

  // Expands `rule.pattern` from component `index` on, below machine folder `dir`.
  void Expand(const PathRule& rule, const std::vector<std::string_view>& parts, size_t index,
              const std::string& dir, std::vector<std::string>& files,
              std::map<std::string, std::string>& links) {
    if (index == parts.size()) {
      files.push_back(dir);
      return;
    }
    std::string_view part = parts[index];
    bool last = index + 1 == parts.size();
    std::vector<std::string> names;
    if (part.find('*') == std::string_view::npos) {
      names.emplace_back(part);
    } else {
      auto resolved = ResolveInside(fs_, dir);
      if (!resolved.ok()) return;
      auto listed = fs_.ListDir(*resolved);
      if (!listed.ok()) return;
      for (auto& n : *listed) {
        if (WildcardMatch(part, n)) names.push_back(n);
      }
    }
    for (const auto& name : names) {
      std::string child = JoinPath(dir, name);
      if (rule.keep_links && !last && part.find('*') != std::string_view::npos) {
        if (auto target = fs_.ReadLink(child); target.ok()) {
          links[child] = *target;
          continue;
        }
      }
      Expand(rule, parts, index + 1, child, files, links);
    }
  }

  Status RecordRule(const PathRule& rule) {
    std::vector<std::string_view> parts;
    for (auto p : Split(rule.pattern, '/')) {
      if (!p.empty()) parts.push_back(p);
    }
    std::vector<std::string> files;
    std::map<std::string, std::string> links;
    Expand(rule, parts, 0, "/", files, links);
    for (const auto& [path, target] : links) {
      if (recorded_links_.insert(path).second) {
        if (auto s = KeepLink(path, target); !s.ok()) return s;
      }
    }
    for (const auto& f : files) {
      if (auto s = CopyFile(f, rule.copy); !s.ok()) return s;
    }
    return Ok{};
  }

  Status RecordPciDevices() {
    auto listed = fs_.ListDir(kPciDevicesDir);
    if (!listed.ok()) return Ok{};
    for (const auto& addr : *listed) {
      std::string dev = JoinPath(kPciDevicesDir, addr);
      auto resolved = ResolveInside(fs_, dev);
      if (!resolved.ok()) {
        notes_.push_back("skipped " + resolved.error().message);
        continue;
      }
      auto cls_text = fs_.ReadFile(JoinPath(*resolved, "class"));
      if (!cls_text.ok()) continue;
      auto cls = ParseHex(Trim(*cls_text));
      if (!cls || ((*cls >> 16) != 0x03 && (*cls >> 16) != 0x12)) continue;
      for (const char* f : kPciDeviceFiles) {
        if (auto s = CopyFile(JoinPath(dev, f), Copy::kContent); !s.ok()) return s;
      }
      // The device's place in the PCIe tree (/sys/devices/pci*/<bridges>/<device>), as empty folders:
      // `topo` reads the bridges above a GPU from the folder names alone.
      if (StartsWith(*resolved, "/sys/devices/pci")) {
        std::error_code ec;
        stdfs::create_directories(Host(*resolved), ec);
        if (!ec) recorded_.push_back(*resolved + "/");
      }
      if (auto driver = fs_.ReadLink(JoinPath(*resolved, "driver")); driver.ok()) {
        std::string target = "../../drivers/" + std::string(BaseName(*driver));
        if (auto s = Link(JoinPath(dev, "driver"), target); !s.ok()) return s;
      }
      auto drm = fs_.ListDir(JoinPath(*resolved, "drm"));
      if (!drm.ok()) continue;
      for (const auto& node : *drm) {
        if (!StartsWith(node, "card") && !StartsWith(node, "renderD")) continue;
        if (auto s = CopyFile(JoinPath(dev, "drm/" + node + "/dev"), Copy::kContent); !s.ok()) return s;
        std::string cls_dir = "/sys/class/drm/" + node;
        if (auto s = Link(cls_dir + "/device", "../../../bus/pci/devices/" + addr); !s.ok()) return s;
        if (auto s = CopyFile(cls_dir + "/dev", Copy::kContent); !s.ok()) return s;
      }
    }
    return Ok{};
  }

  // "path mode_octal uid gid" per device node; "-" where the owner is unknown.
  std::string DevNodes() {
    std::string out;
    for (const char* pattern : kDevNodePatterns) {
      PathRule rule{pattern, Copy::kNameOnly, false};
      std::vector<std::string_view> parts;
      for (auto p : Split(pattern, '/')) {
        if (!p.empty()) parts.push_back(p);
      }
      std::vector<std::string> files;
      std::map<std::string, std::string> links;
      Expand(rule, parts, 0, "/", files, links);
      for (const auto& f : files) {
        auto resolved = ResolveInside(fs_, f);
        if (!resolved.ok()) continue;
        auto st = fs_.Stat(*resolved);
        if (!st.ok() || st->is_dir) continue;
        char mode[16];
        std::snprintf(mode, sizeof mode, "%04o", st->mode & 07777u);
        out += f + " " + mode + " " + (st->uid ? std::to_string(*st->uid) : "-") + " " +
               (st->gid ? std::to_string(*st->gid) : "-") + "\n";
      }
    }
    return out;
  }

  const std::vector<std::string>& recorded() const { return recorded_; }

 private:
  const FileSystem& fs_;
  stdfs::path dest_;
  std::vector<std::string>& notes_;
  std::vector<std::string> recorded_;
  std::set<std::string> recorded_links_;
};

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

namespace {

std::string ReadmeText(const FileSystem& fs, const UserIdentity& identity,
                       const std::vector<std::string>& recorded, const std::vector<std::string>& notes) {
  std::string out =
      "# Recorded machine\n\n"
      "Recorded by `gpudoctor gather` from " +
      fs.Root() +
      ". This folder is a sysroot: "
      "`gpudoctor --sysroot <this folder>` reads it as the machine.\n\n"
      "It holds only the files gpudoctor's probes read (OS release, kernel, CPU and memory summary, "
      "display-class PCI devices, AMD KFD topology and DRM files, driver and runtime versions, the names "
      "of GPU libraries as empty files, device node presence) and, under `.gpudoctor/`, the GPU-related "
      "environment variables, the user's groups, device node owners and NVML's answers.\n\n"
      "It contains no personal data beyond the user name (" +
      identity.user_name +
      ") and the host name.\n\n"
      "## Files\n\n";
  for (const auto& r : recorded) out += "- `" + r + "`\n";
  if (!notes.empty()) {
    out += "\n## Notes\n\n";
    for (const auto& n : notes) out += "- " + n + "\n";
  }
  return out;
}

}  // namespace

bool IsGatheredVariable(const std::string& name) {
  for (const char* p : kVariablePrefixes) {
    if (StartsWith(name, p)) return true;
  }
  return std::find(std::begin(kVariableNames), std::end(kVariableNames), name) != std::end(kVariableNames);
}

Status GatherMachine(const FileSystem& live_fs, const Environment& env, const UserIdentity& identity,
                     const std::string& nvml_json, const std::string& dest_dir,
                     std::vector<std::string>& notes) {
  if (auto s = PrepareGatherDestination(dest_dir); !s.ok()) return s;
  Recorder rec(live_fs, stdfs::path(dest_dir), notes);
  for (const PathRule& rule : kPathRules) {
    if (auto s = rec.RecordRule(rule); !s.ok()) return s;
  }
  if (auto s = rec.RecordPciDevices(); !s.ok()) return s;

  std::string inputs = kRecordedInputsDir;
  std::string environ;
  for (const auto& [name, value] : env.All()) {
    if (!IsGatheredVariable(name)) continue;
    if (value.find('\n') != std::string::npos) {
      notes.push_back("environment variable " + name + " holds a line break; not recorded");
      continue;
    }
    environ += name + "=" + value + "\n";
  }
  if (auto s = rec.Write(inputs + "/environ", environ); !s.ok()) return s;
  if (auto s = rec.Write(inputs + "/identity.json", RecordedIdentityToJson(identity)); !s.ok()) return s;
  if (auto s = rec.Write(inputs + "/devnodes", rec.DevNodes()); !s.ok()) return s;
  if (!nvml_json.empty()) {
    if (auto s = rec.Write(inputs + "/nvml.json", nvml_json); !s.ok()) return s;
  }
  if (auto home = env.Get("HOME"); home && StartsWith(*home, "/")) {
    std::error_code ec;
    stdfs::create_directories(rec.Host(*home), ec);  // the disk probe looks at it; empty on purpose
    // Free space cannot be recorded as a file system, so it is recorded as numbers.
    if (auto resolved = ResolveInside(live_fs, *home); resolved.ok()) {
      if (auto space = live_fs.Space(*resolved); space.ok()) {
        std::string disk = "path=" + *home + "\ntotal_bytes=" + std::to_string(space->capacity_bytes) +
                           "\nfree_bytes=" + std::to_string(space->available_bytes) + "\n";
        if (auto s = rec.Write(inputs + "/disk", disk); !s.ok()) return s;
      }
    }
  }
  std::vector<std::string> recorded = rec.recorded();
  std::sort(recorded.begin(), recorded.end());
  std::string readme = ReadmeText(live_fs, identity, recorded, notes);
  std::ofstream out(stdfs::path(dest_dir) / "README.md", std::ios::binary);
  out << readme;
  out.close();
  if (!out) return EnvError("cannot write " + (stdfs::path(dest_dir) / "README.md").string());
  return Ok{};
}

}  // namespace gpudoctor
