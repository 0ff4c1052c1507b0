// `gpudoctor topo`: the recorded 8x MI300X node (XGMI between every pair, one hop) and 8x H100 NVSwitch box
// (NV18 between every pair) give their expected matrices; a synthetic PCIe-only box gives PIX, PXB, PHB, NODE
// and SYS where its PCIe tree says so; the KFD link parser, the path search and the NVML record round trip.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_test_util.h"
#include "gather/gather.h"
#include "platform/process.h"
#include "probe/probe_inputs.h"
#include "probe_sysroot_builder.h"
#include "test_common.h"
#include "topo/kfd_links.h"
#include "topo/machine_pass.h"
#include "topo/nvml_topology.h"
#include "topo/pci_path.h"
#include "topo/topology_builder.h"
#include "topo/topology_probe.h"
#include "topo/topology_report.h"

namespace gpudoctor {
namespace {

using testing::Gpudoctor;
using testing::kFixtures;

// The probe pass of `info`, `check` and `topo`: the Snapshot with its topology.
Snapshot SnapshotOf(const std::string& root) {
  return ProbeMachine(MakeRecordedInputs(root));
}

Topology TopologyOf(const std::string& root) {
  Snapshot snap = SnapshotOf(root);
  return snap.topology.value_or(Topology{});
}

std::vector<std::vector<std::string>> CellLabels(const Topology& t) {
  std::vector<std::vector<std::string>> out;
  for (const auto& row : t.links) {
    std::vector<std::string> r;
    for (const auto& l : row) r.push_back(CellLabel(l));
    out.push_back(r);
  }
  return out;
}

std::vector<std::vector<std::string>> Uniform(size_t n, const std::string& off_diagonal) {
  std::vector<std::vector<std::string>> m(n, std::vector<std::string>(n, off_diagonal));
  for (size_t i = 0; i < n; ++i) m[i][i] = "X";
  return m;
}

TEST(Topo, Mi300xNodeIsXgmiOneHopBetweenEveryPair) {
  Topology t = TopologyOf(kFixtures + "mi300x-8gpu-node");
  ASSERT_EQ(t.gpus.size(), 8u);
  EXPECT_EQ(CellLabels(t), Uniform(8, "XGMI"));
  for (size_t a = 0; a < 8; ++a) {
    for (size_t b = 0; b < 8; ++b) {
      if (a == b) continue;
      const TopoLink& l = t.links[a][b];
      ASSERT_TRUE(l.kfd.has_value()) << a << "," << b;
      EXPECT_EQ(l.kfd->type, "xgmi");
      EXPECT_EQ(l.kfd->hops, 1u);
      EXPECT_EQ(l.kfd->weight, 15u);
      EXPECT_EQ(l.kfd->max_bandwidth_mbs, 64000u);
    }
  }
  EXPECT_EQ(t.gpus[0].cpu_affinity, "0-95");
  EXPECT_EQ(t.gpus[7].cpu_affinity, "96-191");
  EXPECT_EQ(t.gpus[3].numa_node, 0);
  EXPECT_EQ(t.gpus[4].numa_node, 1);
  ASSERT_EQ(t.numa_nodes.size(), 2u);
  EXPECT_EQ(t.numa_nodes[1].cpulist, "96-191");
  EXPECT_TRUE(t.warnings.empty()) << t.warnings.front();
}

TEST(Topo, H100NvSwitchBoxIsNv18BetweenEveryPair) {
  Snapshot snap = SnapshotOf(kFixtures + "h100-sxm-server");
  ASSERT_TRUE(snap.topology.has_value());
  const Topology& t = *snap.topology;
  ASSERT_EQ(t.gpus.size(), 8u);
  EXPECT_EQ(CellLabels(t), Uniform(8, "NV18"));
  EXPECT_EQ(t.gpus[0].nvlinks_to_switch, 18u);
  // Beneath the NVLinks, the PCIe relation NVML recorded: NODE within a socket, SYS across.
  EXPECT_EQ(t.links[0][3].pcie, LinkKind::kNode);
  EXPECT_EQ(t.links[0][4].pcie, LinkKind::kSys);
  EXPECT_EQ(t.links[0][4].pcie_source, "nvml");
  EXPECT_EQ(t.links[2][6].p2p_nvlink, "ok");
  EXPECT_EQ(t.gpus[5].cpu_affinity, "96-191");
  std::string text = RenderTopologyText(snap, false);
  EXPECT_NE(text.find("GPU7  NV18  NV18  NV18  NV18  NV18  NV18  NV18  X     96-191        1"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("NV#   = NVLink"), std::string::npos);
  EXPECT_EQ(text.find("PIX"), std::string::npos) << "the legend lists only the kinds that occur";
}

// A PCIe-only box: two host bridges on NUMA node 0, one on node 1.
//   pci0000:00 / 00:01.0 / switch 01:00.0 / ports 02:00.0, 02:01.0 / GPU0 03:00.0, GPU1 04:00.0   (PIX)
//   pci0000:00 / 00:03.0 / switch 10:00.0 / 11:00.0 / switch 12:00.0 / 13:00.0 / GPU2 14:00.0
//                                        / 11:01.0 / switch 15:00.0 / 16:00.0 / GPU3 17:00.0  (PXB)
//   pci0000:40 / 40:01.0 / GPU4 41:00.0                                           (NODE to the above)
//   pci0000:80 / 80:01.0 / GPU5 81:00.0, NUMA node 1                              (SYS to all)
class PcieBox : public ::testing::Test {
 protected:
  void SetUp() override {
    Gpu("pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:00.0", "0000:03:00.0", 0);
    Gpu("pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:01.0", "0000:04:00.0", 0);
    Gpu("pci0000:00/0000:00:03.0/0000:10:00.0/0000:11:00.0/0000:12:00.0/0000:13:00.0", "0000:14:00.0", 0);
    Gpu("pci0000:00/0000:00:03.0/0000:10:00.0/0000:11:01.0/0000:15:00.0/0000:16:00.0", "0000:17:00.0", 0);
    Gpu("pci0000:40/0000:40:01.0", "0000:41:00.0", 0);
    Gpu("pci0000:80/0000:80:01.0", "0000:81:00.0", 1);
    box_.Write("/sys/devices/system/node/node0/cpulist", "0-15\n");
    box_.Write("/sys/devices/system/node/node1/cpulist", "16-31\n");
  }
  // The device folder in its place in /sys/devices, and its attributes under /sys/bus/pci/devices (plain
  // folders, as `gather` records them, so the test reads the same under wine).
  void Gpu(const std::string& parents, const std::string& address, int numa) {
    box_.Mkdir("/sys/devices/" + parents + "/" + address);
    std::string dir = "/sys/bus/pci/devices/" + address + "/";
    box_.Write(dir + "vendor", "0x10de\n");
    box_.Write(dir + "device", "0x2236\n");
    box_.Write(dir + "class", "0x030200\n");
    box_.Write(dir + "numa_node", std::to_string(numa) + "\n");
    box_.Write(dir + "local_cpulist", numa == 0 ? "0-15\n" : "16-31\n");
    box_.Write(dir + "uevent", "DRIVER=nvidia\n");
  }
  testing::SysrootBuilder box_;
};

TEST_F(PcieBox, GivesPixPxbPhbNodeAndSys) {
  Snapshot snap = SnapshotOf(box_.root());
  ASSERT_TRUE(snap.topology.has_value());
  const Topology& t = *snap.topology;
  ASSERT_EQ(t.gpus.size(), 6u);
  std::vector<std::vector<std::string>> expected = {
      {"X", "PIX", "PHB", "PHB", "NODE", "SYS"},    {"PIX", "X", "PHB", "PHB", "NODE", "SYS"},
      {"PHB", "PHB", "X", "PXB", "NODE", "SYS"},    {"PHB", "PHB", "PXB", "X", "NODE", "SYS"},
      {"NODE", "NODE", "NODE", "NODE", "X", "SYS"}, {"SYS", "SYS", "SYS", "SYS", "SYS", "X"},
  };
  EXPECT_EQ(CellLabels(t), expected);
  EXPECT_EQ(t.links[0][1].pcie_source, "sysfs");
  EXPECT_EQ(t.gpus[2].pci_bridges,
            (std::vector<std::string>{"pci0000:00", "0000:00:03.0", "0000:10:00.0", "0000:11:00.0",
                                      "0000:12:00.0", "0000:13:00.0"}));
  EXPECT_EQ(t.gpus[5].cpu_affinity, "16-31");
  std::string text = RenderTopologyText(snap, true);
  for (const char* legend : {"PIX   =", "PXB   =", "PHB   =", "NODE  =", "SYS   ="})
    EXPECT_NE(text.find(legend), std::string::npos) << legend;
}

TEST(TopoPcie, ClassifiesChains) {
  std::vector<std::string> a = {"pci0000:00", "0000:00:01.0", "0000:01:00.0", "0000:02:00.0"};
  std::vector<std::string> b = {"pci0000:00", "0000:00:01.0", "0000:01:00.0", "0000:02:01.0"};
  EXPECT_EQ(ClassifyPcie(a, b, 0, 0), LinkKind::kPix);
  EXPECT_EQ(ClassifyPcie(a, {"pci0000:00", "0000:00:02.0"}, 0, 0), LinkKind::kPhb);
  EXPECT_EQ(ClassifyPcie(a, {"pci0000:40", "0000:40:01.0"}, 0, 0), LinkKind::kNode);
  EXPECT_EQ(ClassifyPcie(a, {"pci0000:40", "0000:40:01.0"}, 0, 1), LinkKind::kSys);
  EXPECT_EQ(ClassifyPcie(a, {"pci0000:40", "0000:40:01.0"}, std::nullopt, 1), LinkKind::kNode);
  EXPECT_EQ(ClassifyPcie(a, {}, 0, 0), LinkKind::kUnknown);
  EXPECT_EQ(PcieKindFromNvmlLevel(20), LinkKind::kPxb);
  EXPECT_EQ(PcieKindFromNvmlLevel(7), LinkKind::kUnknown);
}

TEST(TopoKfd, ParsesLinkPropertiesAndReportsGarbage) {
  auto p = KfdLinkFromProperties(
      ParseKfdProperties("type 11\nversion_major 0\nnode_from 2\nnode_to 3\nweight 15\nmin_bandwidth 0\n"
                         "max_bandwidth 64000\nflags 1\n"),
      true);
  ASSERT_TRUE(p.link.has_value());
  EXPECT_EQ(p.link->type, kKfdLinkXgmi);
  EXPECT_EQ(p.link->node_to, 3u);
  EXPECT_FALSE(p.link->min_bandwidth_mbs.has_value()) << "0 means not known";
  EXPECT_EQ(p.link->max_bandwidth_mbs, 64000u);
  EXPECT_TRUE(p.problems.empty());
  auto bad = KfdLinkFromProperties(ParseKfdProperties("type x\nnode_from 99999999999\n"), false);
  EXPECT_FALSE(bad.link.has_value());
  EXPECT_GE(bad.problems.size(), 2u);
}

TEST(TopoKfd, PathThroughCpuNodesCountsHopsAndWeights) {
  // GPU 2 on CPU 0, GPU 3 on CPU 1: GPU -> CPU -> CPU -> GPU over PCIe and the socket link.
  std::vector<KfdLink> links = {
      {2, 0, kKfdLinkPcie, 20, {}, {}, {}, 32000, 1, false},
      {0, 2, kKfdLinkPcie, 20, {}, {}, {}, 32000, 1, false},
      {3, 1, kKfdLinkPcie, 20, {}, {}, {}, 16000, 1, false},
      {1, 3, kKfdLinkPcie, 20, {}, {}, {}, 16000, 1, false},
      {0, 1, 5, 32, {}, {}, {}, {}, 1, false},
      {1, 0, 5, 32, {}, {}, {}, {}, 1, false},
  };
  auto p = KfdPathBetween(links, 2, 3);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->type, "pcie");
  EXPECT_EQ(p->hops, 3u);
  EXPECT_EQ(p->weight, 72u);
  EXPECT_FALSE(p->max_bandwidth_mbs.has_value()) << "the socket link's bandwidth is unknown";
  EXPECT_FALSE(KfdPathBetween(links, 2, 9).has_value());
  // A p2p_link of type PCIe takes its hops from the io_links path.
  links.push_back({2, 3, kKfdLinkPcie, 72, {}, {}, {}, 16000, 1, true});
  auto q = KfdPathBetween(links, 2, 3);
  ASSERT_TRUE(q.has_value());
  EXPECT_EQ(q->source, "p2p_links");
  EXPECT_EQ(q->hops, 3u);
}

TEST(TopoNvml, RecordRoundTripsThroughNvmlJson) {
  NvmlTopologyRecord r;
  r.present = true;
  r.devices.push_back({"0000:18:00.0", {{0, true, "0000:05:00.0", "switch"}, {1, false, "", ""}}});
  NvmlPairRecord pair;
  pair.a = "0000:18:00.0";
  pair.b = "00000000:2A:00.0";
  pair.common_ancestor = LinkKind::kSys;
  pair.p2p["read"] = "ok";
  r.pairs.push_back(pair);
  std::string json = AddNvmlTopologyToJson("{\"driver_version\": \"570.124.06\"}", r);
  EXPECT_NE(json.find("\"driver_version\": \"570.124.06\""), std::string::npos) << "other members stay";
  auto back = ParseNvmlTopologyJson(json);
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE(back->present);
  ASSERT_EQ(back->devices.size(), 1u);
  EXPECT_EQ(back->devices[0].nvlinks.size(), 2u);
  EXPECT_EQ(back->devices[0].nvlinks[0].remote_type, "switch");
  ASSERT_EQ(back->pairs.size(), 1u);
  EXPECT_EQ(back->pairs[0].b, "0000:2a:00.0");
  EXPECT_EQ(back->pairs[0].common_ancestor, LinkKind::kSys);
  EXPECT_EQ(back->pairs[0].p2p.at("read"), "ok");
  EXPECT_FALSE(ParseNvmlTopologyJson("{}")->present);
  auto bad =
      ParseNvmlTopologyJson("{\"topology\": {\"pairs\": [{\"a\": \"zz\", \"b\": 3}], \"devices\": [7]}}");
  ASSERT_TRUE(bad.ok());
  EXPECT_TRUE(bad->pairs.empty());
  EXPECT_GE(bad->problems.size(), 2u);
  EXPECT_FALSE(ParseNvmlTopologyJson("[1]").ok());
}

TEST(TopoNvml, DirectGpuLinksCountWithoutSwitches) {
  TopologyInputs in;
  Gpu a, b;
  a.pci_address = "0000:01:00.0";
  b.pci_address = "0000:02:00.0";
  a.vendor = b.vendor = GpuVendor::kNvidia;
  in.gpus = {a, b};
  in.nvml.present = true;
  in.nvml.devices.push_back(
      {"0000:01:00.0", {{0, true, "0000:02:00.0", "gpu"}, {1, true, "0000:02:00.0", "gpu"}}});
  in.nvml.devices.push_back(
      {"0000:02:00.0", {{0, true, "0000:01:00.0", "gpu"}, {1, true, "0000:01:00.0", "gpu"}}});
  Topology t = BuildTopology(in);
  EXPECT_EQ(CellLabel(t.links[0][1]), "NV2");
  EXPECT_EQ(t.gpus[0].nvlinks_to_switch, 0u);
  EXPECT_EQ(CellLabel(t.links[1][0]), "NV2");
}

// gather records what topo reads: the KFD links, the NUMA nodes, each GPU's local_cpulist and its place in
// the PCIe tree (from the live machine's links), so that `topo --sysroot` on the recording says the same.
TEST(TopoGather, RecordingKeepsTheTopology) {
  testing::SysrootBuilder live;
  for (const char* address : {"0000:03:00.0", "0000:04:00.0"}) {
    std::string dir = std::string("/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/") +
                      (address[6] == '3' ? "0000:02:00.0/" : "0000:02:01.0/") + address + "/";
    live.Write(dir + "vendor", "0x1002\n");
    live.Write(dir + "device", "0x74a1\n");
    live.Write(dir + "class", "0x120000\n");
    live.Write(dir + "numa_node", "0\n");
    live.Write(dir + "local_cpulist", "0-7\n");
    if (!live.Symlink(std::string("/sys/bus/pci/devices/") + address,
                      "../../.." + dir.substr(4, dir.size() - 5)))
      GTEST_SKIP() << "symbolic links cannot be made here (gather records live machines, made of links)";
  }
  live.Write("/sys/class/kfd/kfd/topology/nodes/1/properties", "gfx_target_version 90402\nlocation_id 768\n");
  live.Write("/sys/class/kfd/kfd/topology/nodes/2/properties",
             "gfx_target_version 90402\nlocation_id 1024\n");
  live.Write("/sys/class/kfd/kfd/topology/nodes/1/io_links/0/properties",
             "type 11\nnode_from 1\nnode_to 2\nweight 15\n");
  live.Write("/sys/class/kfd/kfd/topology/nodes/2/io_links/0/properties",
             "type 11\nnode_from 2\nnode_to 1\nweight 15\n");
  live.Write("/sys/devices/system/node/node0/cpulist", "0-7\n");
  testing::SysrootBuilder dest_parent;
  std::string dest = dest_parent.root() + "/recorded";
  ProbeInputs machine = MakeRecordedInputs(live.root());
  std::vector<std::string> notes;
  ASSERT_TRUE(GatherMachine(machine, "", dest, notes).ok());
  Topology before = TopologyOf(live.root());
  Topology after = TopologyOf(dest);
  ASSERT_EQ(after.gpus.size(), 2u);
  EXPECT_EQ(CellLabels(after), CellLabels(before));
  EXPECT_EQ(CellLabel(after.links[0][1]), "XGMI");
  EXPECT_EQ(after.links[0][1].pcie, LinkKind::kPix);
  EXPECT_EQ(after.gpus[1].pci_bridges, before.gpus[1].pci_bridges);
  EXPECT_EQ(after.gpus[0].cpu_affinity, "0-7");
  ASSERT_EQ(after.numa_nodes.size(), 1u);
}

TEST(TopoCli, JsonIsAVersionedDocumentAndNoGpuIsExitTwo) {
  auto r = Gpudoctor({"topo", "--json", "--sysroot", kFixtures + "h100-sxm-server"});
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  auto doc = nlohmann::json::parse(r.stdout_text, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << r.stdout_text;
  EXPECT_EQ(doc["schema"], "gpudoctor.topo");
  EXPECT_EQ(doc["schema_version"], 1);
  EXPECT_EQ(doc["matrix"][0][1], "NV18");
  EXPECT_EQ(doc["gpus"].size(), 8u);
  EXPECT_EQ(doc["links"].size(), 56u);
  EXPECT_EQ(doc["links"][0]["kind"], "nvlink");
  auto none = Gpudoctor({"topo", "--sysroot", kFixtures + "vm-no-gpu"});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.stdout_text.find("No GPU found"), std::string::npos);
}

}  // namespace
}  // namespace gpudoctor
