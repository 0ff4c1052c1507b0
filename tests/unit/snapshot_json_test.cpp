// Snapshot JSON: a round trip keeps every field, and bad documents are refused
// with a message naming the input and the field.
#include "snapshot/snapshot_json.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace gpudoctor {
namespace {

Snapshot Sample() {
  Snapshot s;
  s.tool_version = "0.1.0";
  s.sysroot = "/tmp/m";
  s.live_machine = false;
  s.host_name = "box";
  s.os.family = OsFamily::kLinux;
  s.os.distro_name = "Ubuntu 22.04.4 LTS";
  s.os.wsl = true;
  s.os.wsl_evidence = {"/dev/dxg exists"};
  s.os.container = "docker";
  s.cpu.model = "AMD Ryzen 9 7950X";
  s.cpu.logical_cores = 32;
  s.memory.total_bytes = 68719476736ull;
  s.disk.free_bytes = 1ull << 40;
  PciDevice d;
  d.address = "0000:03:00.0";
  d.vendor_id = 0x1002;
  d.device_id = 0x744c;
  d.revision = 0xc8;
  d.class_code = 0x030000;
  d.driver = "amdgpu";
  d.numa_node = -1;
  d.link.current_speed_gts = 16.0;
  d.link.current_width = 16;
  d.integrated = false;
  s.pci_devices.push_back(d);
  KfdNode n;
  n.node_id = 1;
  n.gfx_target_version = 110000;
  n.gfx_target = "gfx1100";
  n.compute_units = 96;
  n.hive_id = 11673270660693242239ull;
  s.amd.kfd_nodes.push_back(n);
  s.amd.kfd_topology_present = true;
  s.amd.device_nodes.push_back({"/dev/kfd", true, false, "not in group render", "render"});
  s.nvidia.driver_version = "580.159.03";
  s.nvidia.cuda_driver_version = 13000;
  s.nvidia.kernel_module = NvidiaKernelModule::kProprietary;
  s.nvidia.devices.push_back({0, "NVIDIA H200", "GPU-1", "0000:17:00.0", 150754820096ull, 9, 0});
  s.nvidia.libraries.push_back({"nvml", LoadStatus::kLoaded, "/usr/lib/libnvidia-ml.so.1", ""});
  s.runtimes.push_back({"rocm", "/opt/rocm-6.2.4", "6.2.4", ".info/version"});
  s.environment["HSA_OVERRIDE_GFX_VERSION"] = "10.3.0";
  Gpu g;
  g.pci_address = "0000:03:00.0";
  g.vendor = GpuVendor::kAmd;
  g.architecture = "gfx1100";
  g.vram_bytes = 25753026560ull;
  g.kfd_node = 1;
  s.gpus.push_back(g);
  s.looked_at = {"/sys/bus/pci/devices"};
  s.warnings = {"something odd"};
  return s;
}

TEST(SnapshotJson, RoundTripKeepsEveryField) {
  Snapshot a = Sample();
  std::string json = SnapshotToJson(a);
  auto b = SnapshotFromJson(json, "test");
  ASSERT_TRUE(b.ok()) << b.error().message;
  // Writing the read-back snapshot gives the same document: nothing was lost on the way.
  EXPECT_EQ(SnapshotToJson(*b), json);
  EXPECT_EQ(b->amd.kfd_nodes.at(0).hive_id, 11673270660693242239ull);
  EXPECT_EQ(b->pci_devices.at(0).numa_node, -1);
  EXPECT_EQ(b->gpus.at(0).vendor, GpuVendor::kAmd);
  EXPECT_EQ(b->nvidia.devices.at(0).cc_major, 9u);
  EXPECT_EQ(b->nvidia.kernel_module, NvidiaKernelModule::kProprietary);
  EXPECT_FALSE(b->cpu.physical_cores.has_value());
}

// Issue 13: nvidia.kernel_module is new; snapshots written before it (no key), with it unknown (null) or
// with a flavour this version does not know all load, as "unknown".
TEST(SnapshotJson, NvidiaKernelModuleIsOptional) {
  for (const char* nvidia : {R"({"driver_version": "580.95.05"})", R"({"kernel_module": null})",
                             R"({"kernel_module": "hybrid"})"}) {
    auto s = SnapshotFromJson(
        std::string(R"({"schema": "gpudoctor.snapshot", "schema_version": 2, "nvidia": )") + nvidia + "}",
        "old.json");
    ASSERT_TRUE(s.ok()) << nvidia << ": " << s.error().message;
    EXPECT_EQ(s->nvidia.kernel_module, NvidiaKernelModule::kUnknown) << nvidia;
  }
  auto open = SnapshotFromJson(
      R"({"schema": "gpudoctor.snapshot", "schema_version": 2, "nvidia": {"kernel_module": "open"}})",
      "new.json");
  ASSERT_TRUE(open.ok()) << open.error().message;
  EXPECT_EQ(open->nvidia.kernel_module, NvidiaKernelModule::kOpen);
  EXPECT_FALSE(SnapshotFromJson(
                   R"({"schema": "gpudoctor.snapshot", "schema_version": 2, "nvidia": {"kernel_module": 1}})",
                   "bad.json")
                   .ok());
}

// frameworks[].torch_pin (the add-on checks) is new: it round-trips, and snapshots written before it (no
// key) load with no pin; a pin that is not a string is refused, naming the field.
TEST(SnapshotJson, FrameworkTorchPinIsOptional) {
  Snapshot a = Sample();
  PythonEnv env;
  env.path = "/home/u/.venv";
  FrameworkInstall xformers;
  xformers.name = "xformers";
  xformers.family = "xformers";
  xformers.version = "0.0.28.post3";
  xformers.torch_pin = "2.5.1";
  env.frameworks.push_back(xformers);
  a.python_envs.push_back(env);
  auto b = SnapshotFromJson(SnapshotToJson(a), "test");
  ASSERT_TRUE(b.ok()) << b.error().message;
  EXPECT_EQ(b->python_envs.at(0).frameworks.at(0).torch_pin, "2.5.1");
  const std::string old = R"({"schema": "gpudoctor.snapshot/2", "python_envs": [{"path": "/e", "frameworks": [
      {"name": "xformers", "family": "xformers", "version": "0.0.28.post3"}]}]})";
  auto before = SnapshotFromJson(old, "old.json");
  ASSERT_TRUE(before.ok()) << before.error().message;
  EXPECT_EQ(before->python_envs.at(0).frameworks.at(0).version, "0.0.28.post3");
  EXPECT_EQ(before->python_envs.at(0).frameworks.at(0).torch_pin, "");
  std::string bad = old;
  bad.replace(bad.find(R"("version")"), 9, R"("torch_pin": 2.5, "version")");
  auto refused = SnapshotFromJson(bad, "bad.json");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("torch_pin"), std::string::npos) << refused.error().message;
}

// The library statuses keep the words saved snapshots hold, "not-probed" included.
TEST(SnapshotJson, LibraryStatusesKeepTheirWords) {
  auto s = SnapshotFromJson(R"({"schema": "gpudoctor.snapshot", "schema_version": 2, "nvidia": {"libraries": [
      {"library": "nvml", "status": "not-probed"}, {"library": "cuda", "status": "broken"}]}})",
                            "saved.json");
  ASSERT_TRUE(s.ok()) << s.error().message;
  ASSERT_EQ(s->nvidia.libraries.size(), 2u);
  EXPECT_EQ(s->nvidia.libraries[0].status, LoadStatus::kNotProbed);
  EXPECT_EQ(s->nvidia.libraries[1].status, LoadStatus::kBroken);
  const std::string again = SnapshotToJson(*s);
  EXPECT_NE(again.find(R"("status": "not-probed")"), std::string::npos) << again;
  EXPECT_NE(again.find(R"("status": "broken")"), std::string::npos) << again;
}

TEST(SnapshotJson, MissingValuesAreNull) {
  Snapshot s;
  std::string json = SnapshotToJson(s);
  EXPECT_NE(json.find("\"total_bytes\": null"), std::string::npos);
}

// Issue 19: PCI ids are written as lspci shows them, and schema 1's decimal ids still load.
TEST(SnapshotJson, PciIdsAreHexStrings) {
  auto doc = nlohmann::ordered_json::parse(SnapshotToJson(Sample()));
  EXPECT_EQ(doc["schema"], "gpudoctor.snapshot/2");
  EXPECT_FALSE(doc.contains("schema_version"));
  const auto& d = doc["pci_devices"][0];
  EXPECT_EQ(d["pci_id"], "1002:744c");
  EXPECT_EQ(d["vendor_id"], "1002");
  EXPECT_EQ(d["device_id"], "744c");
  EXPECT_TRUE(d["subsystem_vendor_id"].is_null());
}

TEST(SnapshotJson, SchemaOneDecimalIdsStillLoad) {
  auto s = SnapshotFromJson(R"({"schema": "gpudoctor.snapshot", "schema_version": 1,
      "pci_devices": [{"address": "0000:03:00.0", "vendor_id": 4098, "device_id": 29772,
                       "subsystem_vendor_id": 4098, "subsystem_device_id": null}],
      "amd": {"kfd_nodes": [{"node_id": 1, "vendor_id": 4098, "device_id": 29772}]}})",
                            "old.json");
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->schema_version, 1);
  EXPECT_EQ(s->pci_devices.at(0).vendor_id, 0x1002u);
  EXPECT_EQ(s->pci_devices.at(0).device_id, 0x744cu);
  EXPECT_EQ(s->pci_devices.at(0).subsystem_vendor_id, 0x1002u);
  EXPECT_FALSE(s->pci_devices.at(0).subsystem_device_id.has_value());
  EXPECT_EQ(s->amd.kfd_nodes.at(0).device_id, 0x744cu);
  // Written again, it is a version 2 document.
  EXPECT_NE(SnapshotToJson(*s).find("\"pci_id\": \"1002:744c\""), std::string::npos);
}

TEST(SnapshotJson, HexIdsInAnyCaseAndWithAPrefixLoad) {
  auto s = SnapshotFromJson(
      R"({"schema": "gpudoctor.snapshot", "pci_devices": [{"vendor_id": "0x10DE", "device_id": "2335"}]})",
      "x");
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->pci_devices.at(0).vendor_id, 0x10deu);
  EXPECT_EQ(s->pci_devices.at(0).device_id, 0x2335u);
}

struct BadCase {
  const char* name;
  const char* json;
  const char* expect_in_message;
};

class SnapshotJsonBad : public ::testing::TestWithParam<BadCase> {};

TEST_P(SnapshotJsonBad, IsRefusedWithAReason) {
  auto r = SnapshotFromJson(GetParam().json, "snap.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::kUser);
  EXPECT_NE(r.error().message.find("snap.json"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find(GetParam().expect_in_message), std::string::npos) << r.error().message;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, SnapshotJsonBad,
    ::testing::Values(
        BadCase{"NotJson", "{\"schema\": ", "not valid JSON"}, BadCase{"Array", "[1,2]", "JSON object"},
        BadCase{"OtherDocument", "{\"hello\": 1}", "not a gpudoctor snapshot"},
        BadCase{"FutureVersion", "{\"schema\":\"gpudoctor.snapshot\",\"schema_version\":999}", "newer"},
        BadCase{"WrongType", "{\"schema\":\"gpudoctor.snapshot\",\"cpu\":{\"logical_cores\":\"many\"}}",
                "snapshot.cpu.logical_cores"},
        BadCase{"NegativeCount", "{\"schema\":\"gpudoctor.snapshot\",\"gpus\":[{\"compute_units\":-4}]}",
                "snapshot.gpus[0].compute_units"},
        BadCase{"TooLarge", "{\"schema\":\"gpudoctor.snapshot\",\"gpus\":[{\"kfd_node\":99999999999}]}",
                "snapshot.gpus[0].kfd_node"},
        BadCase{"PciIdNotHex",
                "{\"schema\":\"gpudoctor.snapshot\",\"pci_devices\":[{\"device_id\":\"73zz\"}]}",
                "snapshot.pci_devices[0].device_id"},
        BadCase{"PciIdTooLarge",
                "{\"schema\":\"gpudoctor.snapshot\",\"pci_devices\":[{\"vendor_id\":70000}]}",
                "snapshot.pci_devices[0].vendor_id"},
        BadCase{"UnknownLibraryStatus",
                "{\"schema\":\"gpudoctor.snapshot\",\"nvidia\":{\"libraries\":[{\"status\":\"missing\"}]}}",
                "snapshot.nvidia.libraries[0].status"},
        BadCase{"ArrayOfNumbers", "{\"schema\":\"gpudoctor.snapshot\",\"pci_devices\":[1]}",
                "snapshot.pci_devices[0]"}),
    [](const auto& tc) { return std::string(tc.param.name); });

}  // namespace
}  // namespace gpudoctor
