// Linux AMD probe: reads the KFD topology (what ROCm will see: GPU nodes, gfx target, CUs, VRAM from
// mem_banks), the amdgpu kernel module, and whether this user may open /dev/kfd and the render nodes.
#include "probe/linux/amd_probe.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "core/strings.h"
#include "probe/linux/device_node_access.h"
#include "probe/linux/kfd_parse.h"
#include "probe/linux/sysfs_reader.h"

namespace gpudoctor {
namespace {

constexpr const char* kKfdTopologyDir = "/sys/class/kfd/kfd/topology";
constexpr const char* kKfdNodesDir = "/sys/class/kfd/kfd/topology/nodes";

struct KfdTopology {
  bool present = false;            // the nodes folder could be listed
  std::vector<KfdNode> gpu_nodes;  // in node order
};

// --- KFD topology: GPU nodes in numeric order, malformed files reported through the reader.

void ReportProblems(const SysfsReader& r, const std::string& path, const std::vector<std::string>& problems) {
  // A garbage file could produce thousands of lines; a few tell the story.
  constexpr size_t kMaxPerFile = 5;
  for (size_t i = 0; i < problems.size() && i < kMaxPerFile; ++i) r.Warn(path, problems[i]);
  if (problems.size() > kMaxPerFile)
    r.Warn(path, std::to_string(problems.size() - kMaxPerFile) + " more malformed lines");
}

// Numeric sub-folder names ("0", "1", "10"), in numeric order; other names are reported.
std::vector<std::pair<uint32_t, std::string>> NumberedEntries(const SysfsReader& r, const std::string& dir) {
  std::vector<std::pair<uint32_t, std::string>> out;
  auto names = r.List(dir);
  if (!names) return out;
  for (const auto& name : *names) {
    auto n = ParseU64(name);
    if (!n || *n > std::numeric_limits<uint32_t>::max() || Trim(name) != name) {
      r.Warn(JoinPath(dir, name), "not a numbered entry");
      continue;
    }
    out.emplace_back(static_cast<uint32_t>(*n), name);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::optional<uint64_t> ReadVram(const SysfsReader& r, const std::string& node_dir) {
  std::string banks_dir = JoinPath(node_dir, "mem_banks");
  std::vector<KfdMemBank> banks;
  for (const auto& [index, name] : NumberedEntries(r, banks_dir)) {
    std::string path = JoinPath(JoinPath(banks_dir, name), "properties");
    auto text = r.Required(path);
    if (!text) continue;
    KfdProperties props = ParseKfdProperties(*text);
    ReportProblems(r, path, props.problems);
    banks.push_back(KfdMemBankFromProperties(props));
  }
  return SumFramebufferBytes(banks);
}

std::optional<std::string> ReadGeneration(const SysfsReader& r) {
  auto text = r.fs().ReadFile(JoinPath(kKfdTopologyDir, "generation_id"), 64);
  if (!text.ok()) return std::nullopt;
  return std::string(Trim(*text));
}

// Malformed files become warnings through the reader; a node whose properties cannot be read is skipped.
KfdTopology ReadKfdTopology(const SysfsReader& r) {
  KfdTopology topo;
  if (!r.fs().IsDir(kKfdNodesDir)) {
    r.List(kKfdNodesDir);  // reports a looping link or a file in its place; silent when absent
    return topo;
  }
  topo.present = true;
  auto generation_before = ReadGeneration(r);
  for (const auto& [id, name] : NumberedEntries(r, kKfdNodesDir)) {
    std::string node_dir = JoinPath(kKfdNodesDir, name);
    std::string path = JoinPath(node_dir, "properties");
    auto text = r.Required(path);
    if (!text) continue;
    KfdNodeParse parsed = KfdNodeFromProperties(id, ParseKfdProperties(*text));
    ReportProblems(r, path, parsed.problems);
    if (!parsed.is_gpu) continue;  // a CPU node, or one whose properties were unusable (reported)
    KfdNode node = std::move(parsed.node);
    if (auto gpu_id = r.Decimal(JoinPath(node_dir, "gpu_id"), false)) {
      if (*gpu_id <= std::numeric_limits<uint32_t>::max())
        node.gpu_id = static_cast<uint32_t>(*gpu_id);
      else
        r.Warn(JoinPath(node_dir, "gpu_id"), "out of range");
    }
    node.vram_bytes = ReadVram(r, node_dir);
    topo.gpu_nodes.push_back(std::move(node));
  }
  auto generation_after = ReadGeneration(r);
  if (generation_before != generation_after)
    r.Warn(JoinPath(kKfdTopologyDir, "generation_id"), "the topology changed while it was read; run again");
  return topo;
}

// --- The amdgpu module and the device nodes.

constexpr const char* kAmdgpuModuleDir = "/sys/module/amdgpu";
constexpr const char* kKfdDevice = "/dev/kfd";
constexpr const char* kEtcGroup = "/etc/group";

void ProbeModule(const SysfsReader& r, Snapshot& snap) {
  snap.amd.amdgpu_module_loaded = r.fs().IsDir(kAmdgpuModuleDir);
  if (snap.amd.amdgpu_module_loaded) {
    // Only the DKMS (out-of-tree) driver has a version; the in-tree one has none.
    if (auto text = r.Optional(JoinPath(kAmdgpuModuleDir, "version"))) {
      std::string_view v = Trim(*text);
      if (!v.empty() && v.find('\n') == std::string_view::npos && v.size() < 64)
        snap.amd.amdgpu_module_version = std::string(v);
      else
        r.Warn(JoinPath(kAmdgpuModuleDir, "version"), "not a version (" + QuoteForWarning(v) + ")");
    }
  }
  snap.looked_at.push_back(std::string(kAmdgpuModuleDir) +
                           (snap.amd.amdgpu_module_loaded ? " (loaded)" : " (absent)"));
}

// The recorded owners of device nodes, for a sysroot where the files carry no owner.
struct RecordedOwners {
  bool present = false;
  RecordedDeviceNodes nodes;
};

RecordedOwners ReadRecordedOwners(const SysfsReader& r) {
  RecordedOwners out;
  std::string path = JoinPath(kRecordedInputsDir, "devnodes");
  auto text = r.Optional(path);
  if (!text) return out;
  out.present = true;
  out.nodes = ParseRecordedDeviceNodes(*text);
  for (const auto& p : out.nodes.problems) r.Warn(path, p);
  return out;
}

DeviceNodeAccess CheckNode(const ProbeContext& ctx, const std::string& path, const RecordedOwners& recorded,
                           const std::vector<GroupEntry>& groups) {
  auto stat = ctx.fs.Stat(path);
  if (stat.ok() && stat->gid) {
    NodeOwnership owner{stat->mode & 0777u, stat->uid, *stat->gid};
    return JudgeDeviceNodeAccess(path, true, owner, ctx.identity, groups);
  }
  if (const RecordedDeviceNode* node = recorded.nodes.Find(path)) {
    NodeOwnership owner{node->mode, node->uid, node->gid};
    return JudgeDeviceNodeAccess(path, true, owner, ctx.identity, groups);
  }
  if (recorded.present && !stat.ok())
    return JudgeDeviceNodeAccess(path, false, std::nullopt, ctx.identity, groups);
  if (!stat.ok() && ctx.live) return JudgeDeviceNodeAccess(path, false, std::nullopt, ctx.identity, groups);
  // A sysroot without a record: whether the node exists is known at best, its owner is not.
  DeviceNodeAccess a;
  a.path = path;
  a.exists = stat.ok();
  a.reason = "not recorded";
  return a;
}

void ProbeDeviceNodes(const ProbeContext& ctx, const SysfsReader& r, Snapshot& snap) {
  bool amd_present = snap.amd.kfd_topology_present || snap.amd.amdgpu_module_loaded;
  for (const auto& d : snap.pci_devices) amd_present = amd_present || d.vendor_id == 0x1002;
  if (!amd_present) return;

  std::vector<GroupEntry> groups;
  if (auto text = r.Optional(kEtcGroup)) groups = ParseEtcGroup(*text);
  RecordedOwners recorded = ReadRecordedOwners(r);

  std::vector<std::string> paths = {kKfdDevice};
  for (const auto& node : snap.amd.kfd_nodes)
    if (node.drm_render_minor) paths.push_back("/dev/dri/renderD" + std::to_string(*node.drm_render_minor));
  for (const auto& path : paths) {
    snap.amd.device_nodes.push_back(CheckNode(ctx, path, recorded, groups));
    snap.looked_at.push_back(path);
  }
}

}  // namespace

void ProbeAmd(const ProbeContext& ctx, Snapshot& snapshot) {
  SysfsReader r(ctx.fs, snapshot.warnings);
  ProbeModule(r, snapshot);
  KfdTopology topo = ReadKfdTopology(r);
  snapshot.amd.kfd_topology_present = topo.present;
  snapshot.amd.kfd_nodes = std::move(topo.gpu_nodes);
  size_t count = snapshot.amd.kfd_nodes.size();
  std::string what =
      !topo.present ? "absent" : std::to_string(count) + (count == 1 ? " GPU node" : " GPU nodes");
  snapshot.looked_at.push_back(std::string(kKfdNodesDir) + " (" + what + ")");
  ProbeDeviceNodes(ctx, r, snapshot);
}

}  // namespace gpudoctor
