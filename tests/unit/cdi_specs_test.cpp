// CDI specifications on an NVIDIA host (probe/linux/cdi_specs.h) and the rule that compares the driver they
// were generated for with the loaded one (runtime.nvidia_cdi_spec_stale, issue 29's driver-stack model).
#include <gtest/gtest.h>

#include <utility>

#include "platform/filesystem.h"
#include "probe/linux/cdi_specs.h"
#include "probe_offline_run.h"
#include "probe_sysroot_builder.h"
#include "rules_test_util.h"
#include "snapshot/snapshot_json.h"

namespace gpudoctor {
namespace {

using namespace testing_rules;

// A spec as nvidia-ctk writes it (YAML), cut to the parts that matter.
constexpr const char* kYamlSpec =
    "cdiVersion: 0.5.0\n"
    "kind: nvidia.com/gpu\n"
    "devices:\n"
    "- name: all\n"
    "  containerEdits:\n"
    "    deviceNodes:\n"
    "    - path: /dev/nvidia0\n"
    "containerEdits:\n"
    "  mounts:\n"
    "  - hostPath: /usr/lib/x86_64-linux-gnu/libcuda.so.1\n"
    "  - hostPath: /usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15\n"
    "    containerPath: /usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15\n";

TEST(CdiSpecs, TheDriverVersionComesFromTheVersionedLibraryPaths) {
  EXPECT_EQ(CdiSpecDriverVersion(kYamlSpec), "550.54.15");
  // JSON, and NVML when libcuda is not named.
  EXPECT_EQ(CdiSpecDriverVersion(R"({"kind":"nvidia.com/gpu","containerEdits":{"mounts":[)"
                                 R"({"hostPath":"/usr/lib64/libnvidia-ml.so.580.95.05"}]}})"),
            "580.95.05");
  // Only the soname link: no driver named. Another vendor's spec: not NVIDIA's.
  EXPECT_EQ(CdiSpecDriverVersion("kind: nvidia.com/gpu\n  - hostPath: /usr/lib/libcuda.so.1\n"), "");
  EXPECT_EQ(CdiSpecDriverVersion("kind: amd.com/gpu\n  - hostPath: /usr/lib/libcuda.so.550.54.15\n"), "");
  EXPECT_EQ(CdiSpecDriverVersion("kind: nvidia.com/gpu\nhostPath: /x/libcuda.so.550.54.15."), "550.54.15");
  // Found by cdi_spec_fuzz: a name with an empty number is no version.
  EXPECT_EQ(CdiSpecDriverVersion("kind: nvidia.com/gpu\nhostPath: /x/libcuda.so..55504.15\n"), "");
  EXPECT_EQ(CdiSpecDriverVersion("kind: nvidia.com/gpu\nhostPath: /x/libcuda.so.550..54\n"), "");
}

Snapshot ProbeHost(const testing::SysrootBuilder& root, bool container) {
  Snapshot before = testing::WithOneNvidiaGpu(0x030000);
  if (container) before.os.container = "docker";
  return testing::RunProbeOffline(root, std::move(before), ProbeCdiSpecs);
}

TEST(CdiSpecs, TheProbeReadsBothFoldersAndOnlyNvidiaSpecs) {
  testing::SysrootBuilder root;
  root.Write("/etc/cdi/nvidia.yaml", kYamlSpec);
  root.Write("/var/run/cdi/nvidia-runtime.json",
             R"({"kind":"nvidia.com/gpu","mounts":[{"hostPath":"/usr/lib/libcuda.so.580.95.05"}]})");
  root.Write("/etc/cdi/amd.yaml", "kind: amd.com/gpu\n");
  root.Write("/etc/cdi/README.txt", "nvidia.com/gpu libcuda.so.1.2.3");
  Snapshot snap = ProbeHost(root, false);
  ASSERT_EQ(snap.nvidia.cdi_specs.size(), 2u);
  EXPECT_EQ(snap.nvidia.cdi_specs[0], (CdiSpec{"/etc/cdi/nvidia.yaml", "550.54.15"}));
  EXPECT_EQ(snap.nvidia.cdi_specs[1], (CdiSpec{"/var/run/cdi/nvidia-runtime.json", "580.95.05"}));
  // Inside a container the host's specs are not the container's business.
  EXPECT_TRUE(ProbeHost(root, true).nvidia.cdi_specs.empty());
  // Saved and read back.
  auto back = SnapshotFromJson(SnapshotToJson(snap), "s.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->nvidia.cdi_specs, snap.nvidia.cdi_specs);
}

Snapshot WithSpec(const std::string& loaded, const std::string& spec_driver) {
  Snapshot s = Linux();
  AddNvidia(s, 0x2684, 8, 9, loaded);
  s.nvidia.driver_version_source = "/proc/driver/nvidia/version";
  s.nvidia.cdi_specs.push_back({"/etc/cdi/nvidia.yaml", spec_driver});
  return s;
}

TEST(CdiSpecs, ASpecOfAnotherDriverIsStale) {
  auto fs = RunRules(WithSpec("580.95.05", "550.54.15"));
  const Finding* f = FindId(fs, "runtime.nvidia_cdi_spec_stale");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_NE(f->title.find("550.54.15"), std::string::npos) << f->title;
  EXPECT_NE(BashFix(*f).find("sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml"), std::string::npos)
      << BashFix(*f);
  EXPECT_FALSE(Has(RunRules(WithSpec("580.95.05", "580.95.05")), "runtime.nvidia_cdi_spec_stale"));
  EXPECT_FALSE(Has(RunRules(WithSpec("580.95.05", "")), "runtime.nvidia_cdi_spec_stale"));
  Snapshot in_container = WithSpec("580.95.05", "550.54.15");
  in_container.os.container = "docker";
  EXPECT_FALSE(Has(RunRules(in_container), "runtime.nvidia_cdi_spec_stale"));
}

}  // namespace
}  // namespace gpudoctor
