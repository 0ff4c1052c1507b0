// The rules that judge Snapshot::topology (rules/topology_rules.cpp): an XGMI hive with a link down, and GPUs
// of one vendor on different NUMA nodes with only the socket link between them. Run on the recorded 8x MI300X
// node and 8x H100 box (neither fires: their fabrics join every pair), on the MI300X node with one link
// taken down in its snapshot, and on a synthetic two-socket PCIe box read through the real probe pass.
#include <gtest/gtest.h>

#include <algorithm>

#include "knowledge/knowledge_loader.h"
#include "probe/probe_inputs.h"
#include "probe_sysroot_builder.h"
#include "rules/rules.h"
#include "rules_test_util.h"
#include "test_common.h"
#include "topo/machine_pass.h"
#include "topo/topology_probe.h"

namespace gpudoctor {
namespace {

using testing::kFixtures;
using testing_rules::Db;

std::vector<Finding> FindingsWithId(const Snapshot& snap, const std::string& id) {
  std::vector<Finding> out;
  for (auto& f : RunAllRules(snap, Db(), RuleOptions{}))
    if (f.id == id) out.push_back(std::move(f));
  return out;
}

Snapshot RecordedWithKnowledge(const std::string& machine) {
  return ProbeMachine(MakeRecordedInputs(kFixtures + machine, &Db()));
}

bool AnyLineHas(const std::vector<std::string>& lines, const std::string& text) {
  return std::any_of(lines.begin(), lines.end(),
                     [&](const std::string& l) { return l.find(text) != std::string::npos; });
}

TEST(TopologyRules, RecordedFabricsJoinEveryPair) {
  for (const char* machine : {"mi300x-8gpu-node", "h100-sxm-server"}) {
    Snapshot snap = RecordedWithKnowledge(machine);
    ASSERT_TRUE(snap.topology.has_value()) << machine;
    EXPECT_TRUE(FindingsWithId(snap, "hardware.xgmi_link_down").empty()) << machine;
    // The H100 box's sockets are SYS apart over PCIe, but NVLink joins every pair.
    EXPECT_TRUE(FindingsWithId(snap, "hardware.gpus_across_numa").empty()) << machine;
  }
}

TEST(TopologyRules, XgmiHiveWithALinkDownIsAWarning) {
  Snapshot snap = RecordedWithKnowledge("mi300x-8gpu-node");
  ASSERT_TRUE(snap.topology.has_value());
  // GPU2 <-> GPU6 fall back to PCIe across the sockets, as KFD shows a pair whose XGMI link did not train.
  for (auto [a, b] : {std::pair<size_t, size_t>{2, 6}, {6, 2}}) {
    TopoLink& l = snap.topology->links[a][b];
    l.kind = LinkKind::kSys;
    l.kfd->type = "pcie";
    l.kfd->hops = 3;
  }
  auto found = FindingsWithId(snap, "hardware.xgmi_link_down");
  ASSERT_EQ(found.size(), 1u);
  const Finding& f = found.front();
  EXPECT_EQ(f.severity, Severity::kWarning);
  EXPECT_TRUE(AnyLineHas(f.evidence, "GPU2 " + snap.topology->gpus[2].pci_address + " and GPU6 " +
                                         snap.topology->gpus[6].pci_address + " reach each other over SYS"))
      << f.evidence.back();
  EXPECT_TRUE(AnyLineHas(f.evidence, "hive 4573426532718129411")) << f.evidence.front();
  EXPECT_EQ(f.evidence.size(), 2u) << "one hive line and one pair";
  EXPECT_FALSE(f.fix.empty());
}

TEST(TopologyRules, SnapshotWithoutTopologyIsNotJudged) {
  Snapshot snap = RecordedWithKnowledge("mi300x-8gpu-node");
  for (auto& row : snap.topology->links)
    for (auto& l : row) l.kind = LinkKind::kSys;
  snap.topology.reset();
  EXPECT_TRUE(FindingsWithId(snap, "hardware.xgmi_link_down").empty());
  EXPECT_TRUE(FindingsWithId(snap, "hardware.gpus_across_numa").empty());
}

// Two NVIDIA GPUs under host bridges of two sockets (NUMA nodes 0 and 1), a third beside the first.
class TwoSocketBox : public ::testing::Test {
 protected:
  void SetUp() override {
    Gpu("pci0000:00/0000:00:01.0", "0000:01:00.0", 0);
    Gpu("pci0000:00/0000:00:02.0", "0000:02:00.0", 0);
    Gpu("pci0000:80/0000:80:01.0", "0000:81:00.0", 1);
    box_.Write("/sys/devices/system/node/node0/cpulist", "0-15\n");
    box_.Write("/sys/devices/system/node/node1/cpulist", "16-31\n");
  }
  void Gpu(const std::string& parents, const std::string& address, int numa) {
    box_.Mkdir("/sys/devices/" + parents + "/" + address);
    std::string dir = "/sys/bus/pci/devices/" + address + "/";
    box_.Write(dir + "vendor", "0x10de\n");
    box_.Write(dir + "device", "0x2204\n");  // GeForce RTX 3090
    box_.Write(dir + "class", "0x030000\n");
    box_.Write(dir + "numa_node", std::to_string(numa) + "\n");
    box_.Write(dir + "uevent", "DRIVER=nvidia\n");
  }
  testing::SysrootBuilder box_;
};

TEST_F(TwoSocketBox, GpusAcrossNumaNodesAreNamedWithTheirNodes) {
  Snapshot snap = ProbeMachine(MakeRecordedInputs(box_.root(), &Db()));
  ASSERT_TRUE(snap.topology.has_value());
  ASSERT_EQ(snap.topology->gpus.size(), 3u);
  EXPECT_EQ(CellLabel(snap.topology->links[0][2]), "SYS");
  auto found = FindingsWithId(snap, "hardware.gpus_across_numa");
  ASSERT_EQ(found.size(), 1u);
  const Finding& f = found.front();
  EXPECT_EQ(f.severity, Severity::kInfo);
  EXPECT_TRUE(AnyLineHas(f.evidence, "2 pair(s)")) << f.evidence.front();
  EXPECT_TRUE(AnyLineHas(f.evidence, "NUMA node 0: GPU0, GPU1"));
  EXPECT_TRUE(AnyLineHas(f.evidence, "NUMA node 1: GPU2"));
  EXPECT_TRUE(FindingsWithId(snap, "hardware.xgmi_link_down").empty());
}

}  // namespace
}  // namespace gpudoctor
