// Tests of the Linux AMD probe: KFD topology parsing (with a real RX 7900 XTX properties file), the
// gfx target decoding table, synthetic sysroots with broken files, and /dev/kfd access verdicts.
#include <gtest/gtest.h>

#include "probe/linux/amd_probe.h"
#include "probe/linux/device_node_access.h"
#include "probe/linux/kfd_parse.h"
#include "probe_sysroot_builder.h"
#include "test_common.h"

namespace gpudoctor {
namespace {

using testing::Contains;
using testing::HasWarning;
using testing::SysrootBuilder;

// source: tinygrad test/mockgpu/amd/amdgpu.py gpu_props, captured from a real RX 7900 XTX
// (drm_render_minor filled in as 128), via knowledge-facts 2.3.
constexpr const char* kRx7900XtxProperties =
    "cpu_cores_count 0\nsimd_count 192\nmem_banks_count 1\ncaches_count 206\nio_links_count 1\n"
    "p2p_links_count 5\ncpu_core_id_base 0\nsimd_id_base 2147488032\nmax_waves_per_simd 16\n"
    "lds_size_in_kb 64\ngds_size_in_kb 0\nnum_gws 64\nwave_front_size 32\narray_count 12\n"
    "simd_arrays_per_engine 2\ncu_per_simd_array 8\nsimd_per_cu 2\nmax_slots_scratch_cu 32\n"
    "gfx_target_version 110000\nvendor_id 4098\ndevice_id 29772\nlocation_id 34304\ndomain 0\n"
    "drm_render_minor 128\nhive_id 0\nnum_sdma_engines 2\nnum_sdma_xgmi_engines 0\n"
    "num_sdma_queues_per_engine 6\nnum_cp_queues 8\nmax_engine_clk_fcompute 2482\nlocal_mem_size 0\n"
    "fw_version 2140\ncapability 671588992\ndebug_prop 1495\nsdma_fw_version 20\n"
    "unique_id 11673270660693242239\nnum_xcc 1\nmax_engine_clk_ccompute 2400\n";

constexpr const char* kCpuNodeProperties =
    "cpu_cores_count 16\nsimd_count 0\nmem_banks_count 1\ngfx_target_version 0\nvendor_id 0\ndevice_id 0\n"
    "location_id 0\ndomain 0\ndrm_render_minor 0\nmax_engine_clk_ccompute 5881\n";

constexpr const char* kNodes = "/sys/class/kfd/kfd/topology/nodes";

struct ProbeRun {
  Snapshot snap;
};

Snapshot ProbeAmdSysroot(const SysrootBuilder& root, const UserIdentity& who = {}) {
  auto fs = MakeRootedFileSystem(root.root());
  Environment env;
  ProbeContext ctx{*fs, env, who, false};
  Snapshot snap;
  ProbeAmd(ctx, snap);
  return snap;
}

UserIdentity Alice() {
  UserIdentity who;
  who.user_name = "alice";
  who.uid = 1000;
  who.group_ids = {1000, 44};
  return who;
}

TEST(KfdParse, GfxTargetNames) {
  struct Case {
    uint32_t version;
    const char* name;
  };
  for (auto c : {Case{100300, "gfx1030"}, Case{90010, "gfx90a"}, Case{90012, "gfx90c"},
                 Case{110000, "gfx1100"}, Case{110001, "gfx1101"}, Case{110003, "gfx1103"},
                 Case{110501, "gfx1151"}, Case{120001, "gfx1201"}, Case{90402, "gfx942"},
                 Case{90500, "gfx950"}, Case{80003, "gfx803"}, Case{100306, "gfx1036"}, Case{0, ""}}) {
    EXPECT_EQ(GfxTargetName(c.version), c.name) << c.version;
  }
  EXPECT_FALSE(GfxTargetName(4294967295u).empty());  // nonsense in, some name out, no crash
}

TEST(KfdParse, RealRx7900XtxProperties) {
  KfdProperties props = ParseKfdProperties(kRx7900XtxProperties);
  EXPECT_TRUE(props.problems.empty());
  EXPECT_EQ(props.Get("unique_id"), 11673270660693242239ull);
  KfdNodeParse parsed = KfdNodeFromProperties(1, props);
  ASSERT_TRUE(parsed.is_gpu);
  EXPECT_TRUE(parsed.problems.empty());
  const KfdNode& n = parsed.node;
  EXPECT_EQ(n.node_id, 1u);
  EXPECT_EQ(n.gfx_target_version, 110000u);
  EXPECT_EQ(n.gfx_target, "gfx1100");
  EXPECT_EQ(n.simd_count, 192u);
  EXPECT_EQ(n.simd_per_cu, 2u);
  EXPECT_EQ(n.compute_units, 96u);
  EXPECT_EQ(n.vendor_id, 0x1002u);
  EXPECT_EQ(n.device_id, 0x744cu);
  EXPECT_EQ(n.location_id, 34304u);
  EXPECT_EQ(n.domain, 0u);
  EXPECT_EQ(n.pci_address, "0000:86:00.0");
  EXPECT_EQ(n.drm_render_minor, 128u);
  EXPECT_EQ(n.max_engine_clock_mhz, 2482u);
  EXPECT_EQ(n.wave_front_size, 32u);
  EXPECT_EQ(n.hive_id, 0u);
  EXPECT_EQ(n.num_xcc, 1u);
  EXPECT_EQ(n.cpu_cores_count, 0u);
  EXPECT_FALSE(n.gpu_id.has_value());      // a separate file
  EXPECT_FALSE(n.vram_bytes.has_value());  // from mem_banks
}

TEST(KfdParse, MalformedPropertiesAreReportedLineByLine) {
  KfdProperties p = ParseKfdProperties("simd_count 8\nbroken\nsimd_per_cu two\na 1 2\nsimd_count 9\n\n");
  EXPECT_EQ(p.Get("simd_count"), 8u);
  ASSERT_EQ(p.problems.size(), 4u);
  EXPECT_EQ(p.problems[0], "line 2: not 'key value' ('broken')");
  EXPECT_EQ(p.problems[3], "line 5: duplicate key 'simd_count'");
  KfdNodeParse truncated =
      KfdNodeFromProperties(3, ParseKfdProperties("simd_count 192\nsimd_per_cu 2\ngfx_tar"));
  EXPECT_FALSE(truncated.is_gpu);
  EXPECT_TRUE(HasWarning(truncated.problems, "no gfx_target_version"));
  KfdNodeParse huge = KfdNodeFromProperties(3, ParseKfdProperties("gfx_target_version 99999999999\n"));
  EXPECT_FALSE(huge.is_gpu);
  EXPECT_TRUE(HasWarning(huge.problems, "gfx_target_version: out of range"));
  KfdNodeParse zero_simd =
      KfdNodeFromProperties(2, ParseKfdProperties("gfx_target_version 90402\nsimd_count 4\n"
                                                  "simd_per_cu 0\nlocation_id 256\ndomain 2\n"));
  EXPECT_TRUE(zero_simd.is_gpu);
  EXPECT_FALSE(zero_simd.node.compute_units.has_value());
  EXPECT_EQ(zero_simd.node.pci_address, "0002:01:00.0");
}

TEST(KfdParse, FramebufferHeapsSum) {
  std::vector<KfdMemBank> banks = {
      KfdMemBankFromProperties(ParseKfdProperties("heap_type 1\nsize_in_bytes 1000\nflags 0\n")),
      KfdMemBankFromProperties(ParseKfdProperties("heap_type 2\nsize_in_bytes 24\n")),
      KfdMemBankFromProperties(ParseKfdProperties("heap_type 0\nsize_in_bytes 9999\n"))};
  EXPECT_EQ(SumFramebufferBytes(banks), 1024u);
  EXPECT_FALSE(SumFramebufferBytes({banks[2]}).has_value());
  KfdMemBank big{1, 18446744073709551615ull};
  EXPECT_FALSE(SumFramebufferBytes({big, big}).has_value());
}

// A CPU node, the 7900 XTX as node 1 and an APU-like gfx1151 as node 10 (numeric order matters).
void WriteTopology(const SysrootBuilder& root) {
  root.Write(std::string(kNodes) + "/0/properties", kCpuNodeProperties);
  root.Write(std::string(kNodes) + "/0/gpu_id", "0\n");
  root.Write(std::string(kNodes) + "/1/properties", kRx7900XtxProperties);
  root.Write(std::string(kNodes) + "/1/gpu_id", "48991\n");
  root.Write(std::string(kNodes) + "/1/mem_banks/0/properties",
             "heap_type 1\nsize_in_bytes 25753026560\nflags 0\nwidth 384\nmem_clk_max 1249\n");
  root.Write(std::string(kNodes) + "/10/properties",
             "cpu_cores_count 16\nsimd_count 80\nsimd_per_cu 2\ngfx_target_version 110501\nvendor_id 4098\n"
             "device_id 5510\nlocation_id 50432\ndomain 0\ndrm_render_minor 129\nhive_id 0\nnum_xcc 1\n"
             "max_engine_clk_fcompute 2900\nwave_front_size 32\n");
  root.Write(std::string(kNodes) + "/10/gpu_id", "1234\n");
  root.Write(std::string(kNodes) + "/10/mem_banks/0/properties", "heap_type 0\nsize_in_bytes 68719476736\n");
  root.Write(std::string(kNodes) + "/10/mem_banks/1/properties", "heap_type 1\nsize_in_bytes 536870912\n");
  root.Write("/sys/class/kfd/kfd/topology/generation_id", "3\n");
}

TEST(AmdProbe, ReadsTopologyModuleAndDeviceNodes) {
  SysrootBuilder root;
  WriteTopology(root);
  root.Write("/sys/module/amdgpu/version", "6.8.5\n");
  root.Write("/etc/group", "root:x:0:\nvideo:x:44:alice\nrender:x:109:\nalice:x:1000:\n");
  root.Write("/.gpudoctor/devnodes", "/dev/kfd 20660 0 109\n/dev/dri/renderD128 20660 0 109\n");
  Snapshot snap = ProbeAmdSysroot(root, Alice());

  EXPECT_TRUE(snap.warnings.empty()) << snap.warnings.front();
  EXPECT_TRUE(snap.amd.kfd_topology_present);
  EXPECT_TRUE(snap.amd.amdgpu_module_loaded);
  EXPECT_EQ(snap.amd.amdgpu_module_version, "6.8.5");
  ASSERT_EQ(snap.amd.kfd_nodes.size(), 2u);
  const KfdNode& xtx = snap.amd.kfd_nodes[0];
  EXPECT_EQ(xtx.node_id, 1u);
  EXPECT_EQ(xtx.gpu_id, 48991u);
  EXPECT_EQ(xtx.gfx_target, "gfx1100");
  EXPECT_EQ(xtx.compute_units, 96u);
  EXPECT_EQ(xtx.vram_bytes, 25753026560ull);
  EXPECT_EQ(xtx.pci_address, "0000:86:00.0");
  const KfdNode& apu = snap.amd.kfd_nodes[1];
  EXPECT_EQ(apu.node_id, 10u);
  EXPECT_EQ(apu.gfx_target, "gfx1151");
  EXPECT_EQ(apu.compute_units, 40u);
  EXPECT_EQ(apu.vram_bytes, 536870912u);  // the system heap does not count
  EXPECT_EQ(apu.cpu_cores_count, 16u);
  EXPECT_EQ(apu.pci_address, "0000:c5:00.0");
  EXPECT_EQ(apu.max_engine_clock_mhz, 2900u);
  EXPECT_TRUE(Contains(snap.looked_at, "/sys/class/kfd/kfd/topology/nodes (2 GPU nodes)"));
  EXPECT_TRUE(Contains(snap.looked_at, "/sys/module/amdgpu (loaded)"));

  ASSERT_EQ(snap.amd.device_nodes.size(), 3u);
  const DeviceNodeAccess& kfd = snap.amd.device_nodes[0];
  EXPECT_EQ(kfd.path, "/dev/kfd");
  EXPECT_TRUE(kfd.exists);
  EXPECT_EQ(kfd.accessible, false);
  EXPECT_EQ(kfd.group, "render");
  EXPECT_EQ(
      kfd.reason,
      "owned by group render (gid 109); user alice is not a member: sudo usermod -aG render,video alice");
  EXPECT_EQ(snap.amd.device_nodes[1].path, "/dev/dri/renderD128");
  EXPECT_EQ(snap.amd.device_nodes[1].accessible, false);
  EXPECT_EQ(snap.amd.device_nodes[2].path, "/dev/dri/renderD129");
  EXPECT_FALSE(snap.amd.device_nodes[2].exists);  // not in the record
  EXPECT_EQ(snap.amd.device_nodes[2].accessible, false);
}

TEST(AmdProbe, WithoutARecordAccessIsNotGuessed) {
  SysrootBuilder root;
  WriteTopology(root);
  Snapshot snap = ProbeAmdSysroot(root, Alice());
  EXPECT_FALSE(snap.amd.amdgpu_module_loaded);
  EXPECT_FALSE(snap.amd.amdgpu_module_version.has_value());
  ASSERT_EQ(snap.amd.device_nodes.size(), 3u);
  for (const auto& n : snap.amd.device_nodes) {
    EXPECT_FALSE(n.accessible.has_value()) << n.path;
    EXPECT_EQ(n.reason, "not recorded");
  }
}

TEST(AmdProbe, NoKfdNoAmdNoDeviceNodes) {
  SysrootBuilder root;
  Snapshot snap = ProbeAmdSysroot(root);
  EXPECT_FALSE(snap.amd.kfd_topology_present);
  EXPECT_TRUE(snap.amd.kfd_nodes.empty());
  EXPECT_TRUE(snap.amd.device_nodes.empty());
  EXPECT_TRUE(snap.warnings.empty());
  EXPECT_TRUE(Contains(snap.looked_at, "/sys/class/kfd/kfd/topology/nodes (absent)"));
  EXPECT_TRUE(Contains(snap.looked_at, "/sys/module/amdgpu (absent)"));
}

TEST(AmdProbe, BrokenFilesBecomeWarnings) {
  SysrootBuilder root;
  WriteTopology(root);
  root.Write(std::string(kNodes) + "/1/gpu_id", "abc\n");
  root.Write(std::string(kNodes) + "/1/mem_banks/0/properties", std::string("heap_type \x01\x02\xff\n", 14));
  root.Write(std::string(kNodes) + "/2/properties", std::string("\0\0\xde\xad\xbe\xef", 6));     // garbage
  root.Write(std::string(kNodes) + "/3/properties", "");                                         // empty
  root.Write(std::string(kNodes) + "/4/properties", "simd_count 192\nsimd_per_cu 2\ngfx_targ");  // truncated
  root.Mkdir(std::string(kNodes) + "/5/properties");  // a folder where a file is expected
  root.Mkdir(std::string(kNodes) + "/6");             // no properties at all
  root.Write(std::string(kNodes) + "/node7/properties", "gfx_target_version 110000\n");
  bool links = root.Symlink(std::string(kNodes) + "/8/properties", "other") &&
               root.Symlink(std::string(kNodes) + "/8/other", "properties");
  root.Write("/sys/module/amdgpu/version", std::string(200, 'x'));
  root.Write("/.gpudoctor/devnodes", "/dev/kfd 20660 0 109\nnot a line\n/dev/dri/renderD128 9999 0 1\n");

  Snapshot snap = ProbeAmdSysroot(root, Alice());
  ASSERT_EQ(snap.amd.kfd_nodes.size(), 2u);  // the good nodes survive
  EXPECT_FALSE(snap.amd.kfd_nodes[0].gpu_id.has_value());
  EXPECT_FALSE(snap.amd.kfd_nodes[0].vram_bytes.has_value());
  EXPECT_EQ(snap.amd.kfd_nodes[0].compute_units, 96u);
  EXPECT_EQ(snap.amd.kfd_nodes[1].node_id, 10u);

  const auto& w = snap.warnings;
  std::string n = kNodes;
  EXPECT_TRUE(Contains(w, n + "/1/gpu_id: not a decimal number ('abc')"));
  EXPECT_TRUE(HasWarning(w, n + "/1/mem_banks/0/properties: line 1: not 'key value'"));
  EXPECT_TRUE(HasWarning(w, n + "/2/properties: line 1: not 'key value'"));
  EXPECT_TRUE(Contains(w, n + "/2/properties: no gfx_target_version"));
  EXPECT_TRUE(Contains(w, n + "/3/properties: no gfx_target_version"));
  EXPECT_TRUE(HasWarning(w, n + "/4/properties: line 3"));
  EXPECT_TRUE(Contains(w, n + "/4/properties: no gfx_target_version"));
  EXPECT_TRUE(Contains(w, n + "/5/properties: a folder where a file was expected"));
  EXPECT_TRUE(Contains(w, n + "/6/properties: missing"));
  EXPECT_TRUE(Contains(w, n + "/node7: not a numbered entry"));
  if (links) {
    EXPECT_TRUE(HasWarning(w, n + "/8/properties: a dangling or looping symbolic link"));
  }
  EXPECT_TRUE(HasWarning(w, "/sys/module/amdgpu/version: not a version"));
  EXPECT_TRUE(HasWarning(w, "/.gpudoctor/devnodes: line 2: not 'path mode uid gid'"));
  EXPECT_TRUE(HasWarning(w, "/.gpudoctor/devnodes: line 3"));
  EXPECT_FALSE(snap.amd.amdgpu_module_version.has_value());
  ASSERT_FALSE(snap.amd.device_nodes.empty());
  EXPECT_EQ(snap.amd.device_nodes[0].accessible, false);
}

TEST(DeviceNodeAccess, RecordedNodesAndGroupsParse) {
  RecordedDeviceNodes rec = ParseRecordedDeviceNodes(
      "# path mode uid gid\n/dev/kfd 20666 0 109\n"
      "/dev/dri/renderD128  0660 0 105 \n\nrelative 0660 0 1\n"
      "/dev/x 0660 0 99999999999\n");
  ASSERT_EQ(rec.nodes.size(), 2u);
  EXPECT_EQ(rec.nodes[0].path, "/dev/kfd");
  EXPECT_EQ(rec.nodes[0].mode, 0666u);
  EXPECT_EQ(rec.nodes[0].gid, 109u);
  EXPECT_EQ(rec.nodes[1].mode, 0660u);
  EXPECT_EQ(rec.nodes[1].gid, 105u);
  EXPECT_EQ(rec.problems.size(), 2u);
  EXPECT_NE(rec.Find("/dev/dri/renderD128"), nullptr);
  EXPECT_EQ(rec.Find("/dev/dri/renderD129"), nullptr);

  auto groups = ParseEtcGroup("render:x:109:alice,bob\nbroken line\nvideo:x:44:\n:x:1:\nbad:x:zz:\n");
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].name, "render");
  EXPECT_EQ(groups[0].gid, 109u);
  EXPECT_EQ(groups[0].members, (std::vector<std::string>{"alice", "bob"}));
  EXPECT_TRUE(groups[1].members.empty());
}

TEST(DeviceNodeAccess, Verdicts) {
  std::vector<GroupEntry> groups = {{"render", 109, {}}, {"video", 44, {"alice"}}, {"gpu", 500, {"alice"}}};
  UserIdentity alice = Alice();
  NodeOwnership render_0660{0660, 0, 109};

  auto denied = JudgeDeviceNodeAccess("/dev/kfd", true, render_0660, alice, groups);
  EXPECT_EQ(denied.accessible, false);
  EXPECT_EQ(
      denied.reason,
      "owned by group render (gid 109); user alice is not a member: sudo usermod -aG render,video alice");

  UserIdentity member = alice;
  member.group_ids.push_back(109);
  auto granted = JudgeDeviceNodeAccess("/dev/kfd", true, render_0660, member, groups);
  EXPECT_EQ(granted.accessible, true);
  EXPECT_EQ(granted.reason, "granted by group render (gid 109), which user alice is in");

  auto no_group_bits = JudgeDeviceNodeAccess("/dev/kfd", true, NodeOwnership{0600, 0, 109}, member, groups);
  EXPECT_EQ(no_group_bits.accessible, false);
  EXPECT_NE(no_group_bits.reason.find("mode 0600"), std::string::npos);

  EXPECT_EQ(JudgeDeviceNodeAccess("/dev/kfd", true, NodeOwnership{0666, 0, 109}, alice, groups).accessible,
            true);

  UserIdentity root_user;
  root_user.is_admin = true;
  EXPECT_EQ(JudgeDeviceNodeAccess("/dev/kfd", true, render_0660, root_user, groups).accessible, true);

  // Listed in /etc/group but the session predates it.
  auto stale = JudgeDeviceNodeAccess("/dev/kfd", true, NodeOwnership{0660, 0, 500}, alice, groups);
  EXPECT_EQ(stale.accessible, false);
  EXPECT_NE(stale.reason.find("newgrp gpu"), std::string::npos);

  auto unknown_gid = JudgeDeviceNodeAccess("/dev/kfd", true, NodeOwnership{0660, 0, 777}, alice, groups);
  EXPECT_FALSE(unknown_gid.group.has_value());
  EXPECT_NE(unknown_gid.reason.find("gid 777"), std::string::npos);

  auto missing = JudgeDeviceNodeAccess("/dev/kfd", false, std::nullopt, alice, groups);
  EXPECT_FALSE(missing.exists);
  EXPECT_EQ(missing.accessible, false);

  auto unknown_user = JudgeDeviceNodeAccess("/dev/kfd", true, render_0660, UserIdentity{}, groups);
  EXPECT_FALSE(unknown_user.accessible.has_value());
}

}  // namespace
}  // namespace gpudoctor
