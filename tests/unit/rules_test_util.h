// Builders for the rule tests: Snapshots made in code (one AMD or NVIDIA GPU, a torch install,
// environment variables) and the embedded knowledge base, loaded once per test binary.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "knowledge/knowledge_loader.h"
#include "rules/rule_context.h"
#include "rules/rules.h"
#include "snapshot/snapshot.h"

namespace gpudoctor::testing_rules {

// The PCI device id of an RTX 4090 (compute capability 8.9).
inline constexpr uint32_t kRtx4090 = 0x2684;

inline const KnowledgeDb& Db() {
  static const KnowledgeDb db = [] {
    auto loaded = LoadEmbeddedKnowledge();
    EXPECT_TRUE(loaded.ok()) << (loaded.ok() ? "" : loaded.error().message);
    return loaded.ok() ? *loaded : KnowledgeDb{};
  }();
  return db;
}

inline Snapshot Linux() {
  Snapshot s;
  s.os.family = OsFamily::kLinux;
  s.os.distro_id = "ubuntu";
  s.os.kernel_release = "6.8.0-45-generic";
  s.memory.total_bytes = 64ull << 30;
  return s;
}

// Adds an AMD GPU with its PCI function, KFD node and a usable /dev/kfd.
inline void AddAmd(Snapshot& s, uint32_t device_id, uint32_t revision, const std::string& gfx,
                   uint64_t vram_gib, bool integrated = false, const std::string& driver = "amdgpu") {
  const uint32_t n = static_cast<uint32_t>(s.gpus.size());
  const std::string addr = "0000:0" + std::to_string(3 + n) + ":00.0";
  PciDevice d;
  d.address = addr;
  d.vendor_id = 0x1002;
  d.device_id = device_id;
  d.revision = revision;
  d.class_code = 0x030000;
  d.driver = driver;
  s.pci_devices.push_back(d);
  KfdNode k;
  k.node_id = n + 1;
  k.gfx_target = gfx;
  k.pci_address = addr;
  s.amd.kfd_nodes.push_back(k);
  s.amd.kfd_topology_present = true;
  if (s.amd.device_nodes.empty())
    s.amd.device_nodes.push_back({"/dev/kfd", true, true, "granted by group render", "render"});
  Gpu g;
  g.pci_address = addr;
  g.vendor = GpuVendor::kAmd;
  g.architecture = gfx;
  g.integrated = integrated;
  g.vram_bytes = vram_gib << 30;
  g.driver = driver;
  g.kfd_node = n + 1;
  s.gpus.push_back(g);
}

inline void AddNvidia(Snapshot& s, uint32_t device_id, uint32_t cc_major, uint32_t cc_minor,
                      const std::string& driver_version = "570.124.06",
                      const std::string& driver = "nvidia") {
  const uint32_t n = static_cast<uint32_t>(s.gpus.size());
  const std::string addr = "0000:1" + std::to_string(n) + ":00.0";
  PciDevice d;
  d.address = addr;
  d.vendor_id = 0x10de;
  d.device_id = device_id;
  d.class_code = 0x030000;
  d.driver = driver;
  s.pci_devices.push_back(d);
  if (driver == "nvidia") {
    s.nvidia.driver_version = driver_version;
    NvidiaDevice nd;
    nd.index = n;
    nd.pci_address = addr;
    nd.cc_major = cc_major;
    nd.cc_minor = cc_minor;
    s.nvidia.devices.push_back(nd);
  }
  Gpu g;
  g.pci_address = addr;
  g.vendor = GpuVendor::kNvidia;
  g.integrated = false;
  g.driver = driver;
  s.gpus.push_back(g);
}

inline void AddTorch(Snapshot& s, const std::string& version, const std::string& cuda = "",
                     const std::string& hip = "") {
  PythonEnv e;
  e.path = "/home/u/.venv";
  e.kind = "venv";
  e.python_version = "3.12";
  e.site_packages = "/home/u/.venv/lib/python3.12/site-packages";
  e.torch = TorchInstall{version, cuda, hip, e.site_packages + "/torch"};
  s.python_envs.push_back(e);
}

inline void AddRocm(Snapshot& s, const std::string& version, const std::string& path) {
  s.runtimes.push_back({"rocm", path, version, ".info/version"});
}

inline std::vector<Finding> RunRules(const Snapshot& s) {
  return RunAllRules(s, Db(), RuleOptions{});
}

inline const Finding* FindId(const std::vector<Finding>& fs, const std::string& id) {
  auto it = std::find_if(fs.begin(), fs.end(), [&](const Finding& f) { return f.id == id; });
  return it == fs.end() ? nullptr : &*it;
}

inline bool Has(const std::vector<Finding>& fs, const std::string& id) {
  return FindId(fs, id) != nullptr;
}

inline std::string Ids(const std::vector<Finding>& fs) {
  std::string out;
  for (const auto& f : fs) out += f.id + "(" + ToString(f.severity) + ") ";
  return out;
}

// A finding's evidence, one line each.
inline std::string Evidence(const Finding& f) {
  std::string out;
  for (const auto& e : f.evidence) out += e + "\n";
  return out;
}

// Every fix line of a finding in bash, joined.
inline std::string BashFix(const Finding& f) {
  std::string out;
  for (const auto& a : f.fix) {
    switch (a.kind) {
      case FixAction::Kind::kSetEnv:
        out += "export " + a.name + "=" + a.value + "\n";
        break;
      case FixAction::Kind::kUnsetEnv:
        out += "unset " + a.name + "\n";
        break;
      case FixAction::Kind::kCommand:
        out += a.commands.bash + "\n";
        break;
      case FixAction::Kind::kManual:
        out += "# " + a.text + "\n";
        break;
    }
  }
  return out;
}

}  // namespace gpudoctor::testing_rules
