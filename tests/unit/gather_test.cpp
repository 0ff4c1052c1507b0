// Tests `gather` on a small fake live tree: it copies what the probes read (and nothing else) with the
// tree's links, refuses a non-empty destination, and never follows a link out of the tree it records;
// and the RecordingFileSystem underneath it. The recorded machines are gathered and replayed in
// gather_replay_test.cpp.
#include "gather/gather.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

#include "gather/gather_windows.h"
#include "gather/recording_filesystem.h"
#include "probe/common/env_probe.h"
#include "probe/probe_inputs.h"
#include "probe/recorded_identity.h"
#include "recorded_fixture_names.h"
#include "snapshot/snapshot_json.h"
#include "topo/machine_pass.h"
#include "topo/topology_probe.h"

namespace gpudoctor {
namespace {

namespace stdfs = std::filesystem;

class GatherTempDir {
 public:
  GatherTempDir() {
    std::random_device rd;
    path_ = stdfs::temp_directory_path() /
            ("gpudoctor-gather-test-" + std::to_string(rd()) + std::to_string(rd()));
    stdfs::create_directories(path_);
  }
  ~GatherTempDir() {
    std::error_code ec;
    stdfs::remove_all(path_, ec);
  }
  const stdfs::path& path() const { return path_; }

 private:
  stdfs::path path_;
};

void Put(const stdfs::path& p, const std::string& text) {
  stdfs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

std::string Get(const stdfs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// live/: a machine with one AMD GPU laid out as real sysfs (device folders under
// /sys/devices, links from /sys/bus/pci/devices), a USB controller that must not be
// recorded, and links that lead outside live/ which must not be followed.
class GatherTest : public ::testing::Test {
 protected:
  void SetUp() override {
    live_ = tmp_.path() / "live";
    dest_ = tmp_.path() / "dest";
    Put(tmp_.path() / "outside/.info/version", "SECRET\n");
    Put(tmp_.path() / "outside/secret", "SECRET\n");
    Put(live_ / "etc/os-release", "ID=ubuntu\nVERSION_ID=\"24.04\"\n");
    Put(live_ / "proc/version", "Linux version 6.8.0-45-generic\n");
    Put(live_ / "proc/cpuinfo", "processor\t: 0\nmodel name\t: Test CPU\n");
    stdfs::create_directories(live_ / "proc");
    std::error_code link_error;
    stdfs::create_symlink((tmp_.path() / "outside/secret").string(), live_ / "proc/meminfo", link_error);
    // gather records live Linux machines, whose sysfs is made of links; the Windows
    // build under wine cannot make links, so there is nothing to record these from.
    if (link_error) GTEST_SKIP() << "symbolic links cannot be made here: " << link_error.message();
    stdfs::path gpu = live_ / "sys/devices/pci0000:00/0000:00:01.1/0000:03:00.0";
    Put(gpu / "vendor", "0x1002\n");
    Put(gpu / "device", "0x744c\n");
    Put(gpu / "revision", "0xc8\n");
    Put(gpu / "class", "0x030000\n");
    Put(gpu / "mem_info_vram_total", "25769803776\n");
    Put(gpu / "drm/card0/dev", "226:0\n");
    Put(gpu / "drm/renderD128/dev", "226:128\n");
    stdfs::create_symlink("../../../../bus/pci/drivers/amdgpu", gpu / "driver");
    stdfs::path usb = live_ / "sys/devices/pci0000:00/0000:00:14.0";
    Put(usb / "vendor", "0x8086\n");
    Put(usb / "class", "0x0c0330\n");
    stdfs::create_directories(live_ / "sys/bus/pci/devices");
    stdfs::create_symlink("../../../devices/pci0000:00/0000:00:01.1/0000:03:00.0",
                          live_ / "sys/bus/pci/devices/0000:03:00.0");
    stdfs::create_symlink("../../../devices/pci0000:00/0000:00:14.0",
                          live_ / "sys/bus/pci/devices/0000:00:14.0");
    Put(live_ / "sys/class/drm/card0/dev", "226:0\n");
    Put(live_ / "sys/class/kfd/kfd/topology/nodes/1/properties",
        "simd_count 192\ngfx_target_version 110000\n");
    Put(live_ / "sys/class/kfd/kfd/topology/nodes/1/mem_banks/0/properties",
        "heap_type 1\nsize_in_bytes 1\n");
    Put(live_ / "opt/rocm-6.2.0/.info/version", "6.2.0-66\n");
    stdfs::create_symlink("rocm-6.2.0", live_ / "opt/rocm");
    stdfs::create_symlink("../../outside", live_ / "opt/rocm-evil");  // climbs above live/
    Put(live_ / "usr/lib/x86_64-linux-gnu/libamdhip64.so.6", "ELF...");
    Put(live_ / "dev/kfd", "");
    Put(live_ / "etc/shadow", "SECRET\n");  // no probe reads it
    stdfs::create_directories(live_ / "home/alice");
    env_ = Environment({{"HOME", "/home/alice"},
                        {"HSA_OVERRIDE_GFX_VERSION", "11.0.0"},
                        {"PATH", "/usr/bin"},
                        {"SECRET_TOKEN", "hunter2"}});
    identity_.user_name = "alice";
    identity_.uid = 1000;
    identity_.group_ids = {1000, 44, 109};
    identity_.group_names = {"alice", "video", "render"};
  }

  ProbeInputs Inputs() const {
    ProbeInputs in;
    in.fs = MakeRootedFileSystem(live_.string());
    in.env = env_;
    in.identity = identity_;
    return in;
  }

  Status Gather(std::vector<std::string>& notes) {
    ProbeInputs in = Inputs();
    return GatherMachine(in, "{\"devices\": []}\n", dest_.string(), notes);
  }

  GatherTempDir tmp_;
  stdfs::path live_;
  stdfs::path dest_;
  Environment env_;
  UserIdentity identity_;
};

TEST_F(GatherTest, CopiesWhatTheProbesReadWithTheTreesLinks) {
  std::vector<std::string> notes;
  Status s = Gather(notes);
  ASSERT_TRUE(s.ok()) << s.error().message;
  for (const char* f :
       {"etc/os-release", "proc/version", "proc/cpuinfo", "sys/class/kfd/kfd/topology/nodes/1/properties",
        "sys/class/kfd/kfd/topology/nodes/1/mem_banks/0/properties", "opt/rocm-6.2.0/.info/version"}) {
    EXPECT_EQ(Get(dest_ / f), Get(live_ / f)) << f;
  }
  stdfs::path dev = dest_ / "sys/bus/pci/devices/0000:03:00.0";
  ASSERT_TRUE(stdfs::is_symlink(dev)) << "the device links of /sys/bus/pci/devices stay links";
  EXPECT_EQ(stdfs::read_symlink(dev).generic_string(),
            "../../../devices/pci0000:00/0000:00:01.1/0000:03:00.0");
  EXPECT_EQ(Get(dev / "device"), "0x744c\n");
  EXPECT_EQ(Get(dev / "mem_info_vram_total"), "25769803776\n");
  EXPECT_EQ(stdfs::read_symlink(dest_ / "opt/rocm").generic_string(), "rocm-6.2.0");
  EXPECT_TRUE(stdfs::exists(dest_ / "usr/lib/x86_64-linux-gnu/libamdhip64.so.6"));
  EXPECT_EQ(stdfs::file_size(dest_ / "usr/lib/x86_64-linux-gnu/libamdhip64.so.6"), 0u) << "names only";
  EXPECT_TRUE(stdfs::exists(dest_ / "dev/kfd"));
  EXPECT_FALSE(stdfs::exists(dest_ / "etc/shadow")) << "only what the probes read is recorded";

  EXPECT_EQ(Get(dest_ / ".gpudoctor/environ"),
            "HOME=/home/alice\nHSA_OVERRIDE_GFX_VERSION=11.0.0\nPATH=/usr/bin\n");
  EXPECT_EQ(Get(dest_ / ".gpudoctor/nvml.json"), "{\"devices\": []}\n");
  std::vector<std::string> warnings;
  UserIdentity back = ParseRecordedIdentity(Get(dest_ / ".gpudoctor/identity.json"), warnings);
  EXPECT_TRUE(warnings.empty());
  EXPECT_EQ(back.user_name, "alice");
  EXPECT_EQ(back.uid, 1000u);
  EXPECT_EQ(back.group_ids, identity_.group_ids);
  EXPECT_EQ(back.group_names, identity_.group_names);
  EXPECT_NE(Get(dest_ / "README.md").find("no personal data beyond the user name"), std::string::npos);
}

// The link out of the tree is left out of these two (NeverFollowsALinkOutOfTheTree): the original's
// warning about it names a host folder.
TEST_F(GatherTest, TheRecordingReplaysTheSameSnapshot) {
  stdfs::remove(live_ / "proc/meminfo");
  Put(live_ / "proc/meminfo", "MemTotal: 1024 kB\nMemAvailable: 512 kB\n");
  ProbeInputs in = Inputs();
  Snapshot want = ProbeMachine(in);
  std::vector<std::string> notes;
  ASSERT_TRUE(GatherMachine(in, "", dest_.string(), notes).ok());
  Snapshot got = ProbeMachine(MakeRecordedInputs(dest_.string()));
  want.sysroot = got.sysroot = "";
  EXPECT_EQ(SnapshotToJson(got), SnapshotToJson(want));
}

// The file system of a live machine, where device nodes are character devices with an owner.
class OwnedDeviceNodes final : public FileSystem {
 public:
  explicit OwnedDeviceNodes(std::unique_ptr<FileSystem> inner) : inner_(std::move(inner)) {}
  Result<std::string> ReadFile(std::string_view p, size_t max) const override {
    return inner_->ReadFile(p, max);
  }
  Result<std::vector<std::string>> ListDir(std::string_view p) const override { return inner_->ListDir(p); }
  Result<std::string> ReadLink(std::string_view p) const override { return inner_->ReadLink(p); }
  Result<FileStat> Stat(std::string_view p) const override {
    auto st = inner_->Stat(p);
    if (st.ok() && p == "/dev/kfd") {
      st->is_char_device = true;
      st->mode = 0660;
      st->uid = 0;
      st->gid = 109;
    }
    return st;
  }
  Result<DiskSpace> Space(std::string_view p) const override { return inner_->Space(p); }
  Result<std::unique_ptr<RandomAccessFile>> OpenForReading(std::string_view p) const override {
    return inner_->OpenForReading(p);
  }
  std::string Root() const override { return inner_->Root(); }
  bool IsLiveRoot() const override { return false; }

 private:
  std::unique_ptr<FileSystem> inner_;
};

TEST_F(GatherTest, RecordsTheOwnersOfTheDeviceNodesThatWereChecked) {
  stdfs::remove(live_ / "proc/meminfo");
  ProbeInputs in = Inputs();
  in.fs = std::make_unique<OwnedDeviceNodes>(std::move(in.fs));
  Snapshot want = ProbeMachine(in);
  std::vector<std::string> notes;
  ASSERT_TRUE(GatherMachine(in, "", dest_.string(), notes).ok());
  EXPECT_EQ(Get(dest_ / ".gpudoctor/devnodes"), "/dev/kfd 0660 0 109\n");
  Snapshot got = ProbeMachine(MakeRecordedInputs(dest_.string()));
  ASSERT_FALSE(got.amd.device_nodes.empty());
  EXPECT_EQ(got.amd.device_nodes[0].path, "/dev/kfd");
  EXPECT_EQ(SnapshotToJson(got).find("not recorded"), std::string::npos);
  want.sysroot = got.sysroot = "";
  EXPECT_EQ(SnapshotToJson(got), SnapshotToJson(want));
}

TEST_F(GatherTest, NeverFollowsALinkOutOfTheTree) {
  std::vector<std::string> notes;
  ASSERT_TRUE(Gather(notes).ok());
  EXPECT_FALSE(stdfs::exists(stdfs::symlink_status(dest_ / "opt/rocm-evil")));
  EXPECT_FALSE(stdfs::exists(dest_ / "proc/meminfo")) << "an absolute link is taken inside the recorded root";
  for (const auto& e : stdfs::recursive_directory_iterator(dest_)) {
    if (e.is_regular_file()) {
      EXPECT_EQ(Get(e.path()).find("SECRET"), std::string::npos) << e.path();
    }
  }
  bool noted = false;
  for (const auto& n : notes) noted |= n.find("/opt/rocm-evil") != std::string::npos;
  EXPECT_TRUE(noted) << "the skipped link is named in a note";
}

TEST_F(GatherTest, RefusesANonEmptyDestinationAndChangesNothing) {
  Put(dest_ / "keep.txt", "mine\n");
  std::vector<std::string> notes;
  Status s = Gather(notes);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().kind, ErrorKind::kUser);
  std::vector<std::string> names;
  for (const auto& e : stdfs::directory_iterator(dest_)) names.push_back(e.path().filename().string());
  EXPECT_EQ(names, std::vector<std::string>{"keep.txt"});
  EXPECT_EQ(Get(dest_ / "keep.txt"), "mine\n");
}

TEST_F(GatherTest, AcceptsAnEmptyDestination) {
  stdfs::create_directories(dest_);
  std::vector<std::string> notes;
  EXPECT_TRUE(Gather(notes).ok());
  EXPECT_TRUE(stdfs::exists(dest_ / "etc/os-release"));
}

TEST_F(GatherTest, RecordingFileSystemCapsEachFileAtOneMebibyte) {
  Put(live_ / "proc/cpuinfo", std::string(kGatherMaxFileBytes + 10, 'x'));
  auto inner = MakeRootedFileSystem(live_.string());
  RecordingFileSystem fs(*inner, [](std::string_view) { return true; });
  auto text = fs.ReadFile("/proc/cpuinfo", 2 * kGatherMaxFileBytes);
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(text->size(), kGatherMaxFileBytes + 10) << "the probe gets the whole file";
  EXPECT_EQ(fs.accesses().reads.at("/proc/cpuinfo").size(), kGatherMaxFileBytes);
  EXPECT_EQ(fs.accesses().cut_reads.count("/proc/cpuinfo"), 1u);
}

TEST_F(GatherTest, RecordingFileSystemKeepsThePiecesReadAndOnlyKeptPaths) {
  Put(live_ / "lib/big.so", std::string(4096, 'a') + "HEADER" + std::string(4096, 'b'));
  auto inner = MakeRootedFileSystem(live_.string());
  RecordingFileSystem fs(*inner, [](std::string_view p) { return p != "/etc/os-release"; });
  auto file = fs.OpenForReading("/lib/big.so");
  ASSERT_TRUE(file.ok());
  uint8_t buf[6];
  ASSERT_TRUE((*file)->ReadAt(4096, buf).ok());
  EXPECT_EQ(std::string(reinterpret_cast<char*>(buf), 6), "HEADER");
  ASSERT_TRUE(fs.ReadFile("/etc/os-release", 1 << 20).ok());
  ASSERT_TRUE(fs.ListDir("/opt").ok());
  const RecordedAccesses& seen = fs.accesses();
  ASSERT_EQ(seen.opened.count("/lib/big.so"), 1u);
  EXPECT_EQ(seen.opened.at("/lib/big.so").size, 8198u);
  EXPECT_EQ(seen.opened.at("/lib/big.so").pieces.at(4096), "HEADER");
  EXPECT_EQ(seen.reads.count("/etc/os-release"), 0u) << "filtered out";
  EXPECT_EQ(seen.listings.at("/opt"), (std::vector<std::string>{"rocm", "rocm-6.2.0", "rocm-evil"}));
}

TEST(GatherVariables, KeepsOnlyGpuRelevantOnes) {
  EXPECT_TRUE(IsGatheredVariable("HIP_VISIBLE_DEVICES"));
  EXPECT_TRUE(IsGatheredVariable("PYTORCH_HIP_ALLOC_CONF"));
  EXPECT_TRUE(IsGatheredVariable("LD_LIBRARY_PATH"));
  EXPECT_TRUE(IsGatheredVariable("PATH")) << "Python interpreters are found on it";
  EXPECT_TRUE(IsGatheredVariable("VIRTUAL_ENV"));
  EXPECT_TRUE(IsGatheredVariable("NCCL_DEBUG"));
  EXPECT_FALSE(IsGatheredVariable("AWS_SECRET_ACCESS_KEY"));
}

TEST(GatherVariables, KeepsNameOnlyVariablesWithoutTheirValue) {
  std::vector<std::string> notes;
  Environment env({{"NCCL_SOCKET_IFNAME", "eth7"}, {"SECRET_TOKEN", "x"}, {"VIRTUAL_ENV", "/srv/venv"}});
  EXPECT_EQ(GatheredEnvironText(env, {}, IsGatheredVariable, notes),
            std::string("NCCL_SOCKET_IFNAME=") + kEnvValueNotRecorded + "\nVIRTUAL_ENV=/srv/venv\n");
  EXPECT_TRUE(notes.empty());
}

// What is recorded is what the probes read (and the snapshot reports), within the allow-list: a GPU
// runtime's variable no probe reads is left out, one a probe reads outside the list is left out with a note.
TEST(GatherVariables, RecordsWhatTheProbesReadWithinTheAllowList) {
  std::vector<std::string> notes;
  Environment env({{"CUDA_CACHE_PATH", "/home/a/.nv"},
                   {"HOME", "/home/a"},
                   {"PYENV_ROOT", "/home/a/.pyenv"},
                   {"SECRET_TOKEN", "x"}});
  EXPECT_EQ(GatheredEnvironText(env, {"HOME", "SECRET_TOKEN", "UNSET_ONE"}, IsGatheredVariable, notes),
            "HOME=/home/a\n");
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("SECRET_TOKEN is read by a probe but outside gather's list"), std::string::npos);
}

// Every variable a probe asks for on any recorded machine is one gather may record: otherwise a live run
// and the replay of its recording would see different environments.
TEST(GatherVariables, EveryVariableAProbeReadsIsOnTheAllowList) {
  size_t machines = 0;
  std::set<std::string> all_read;
  for (const std::string& name : testing::RecordedMachineNames()) {
    ProbeInputs in = MakeRecordedInputs(testing::kFixtures + name);
    std::set<std::string> read;
    in.env.RecordReadsInto(&read);
    Snapshot snap = ProbeMachine(in);
    in.env.RecordReadsInto(nullptr);
    const bool windows = in.windows != nullptr;
    for (const std::string& var : read) {
      // PATH is read on Windows (Python installs on it) but never recorded there: long and personal.
      if (windows && var == "PATH") continue;
      EXPECT_TRUE(IsGatheredVariable(var) || (windows && IsGatheredWindowsVariable(var)))
          << name << " reads " << var << ", which gather does not record";
    }
    all_read.insert(read.begin(), read.end());
    ++machines;
  }
  EXPECT_GE(machines, 40u);
  for (const char* var : {"HOME", "PATH", "LD_LIBRARY_PATH", "USERPROFILE"})
    EXPECT_EQ(all_read.count(var), 1u) << var << ": the probes no longer read it, or reads are not seen";
}

TEST(RecordedIdentity, ReportsMalformedFields) {
  std::vector<std::string> warnings;
  UserIdentity id =
      ParseRecordedIdentity(R"({"user_name":"bob","uid":-1,"group_ids":[1000,"x"],"is_admin":1})", warnings);
  EXPECT_EQ(id.user_name, "bob");
  EXPECT_FALSE(id.uid.has_value());
  EXPECT_EQ(id.group_ids, std::vector<uint32_t>{1000});
  EXPECT_EQ(warnings.size(), 3u);
  warnings.clear();
  ParseRecordedIdentity("not json", warnings);
  EXPECT_EQ(warnings.size(), 1u);
}

}  // namespace
}  // namespace gpudoctor
