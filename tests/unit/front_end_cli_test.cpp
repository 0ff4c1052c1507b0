// Issue 37 item 5: `gather`, `targets`, `port` and `man` run as a user runs them (this build's binary), each
// once on its normal path with its real output asserted, and once on bad input (a missing path, an output
// that exists, an argument it does not take), which must give a clear message and a non-zero exit, never a
// crash.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "cli_test_util.h"
#include "platform/filesystem.h"
#include "platform/process.h"
#include "recorded_fixture_names.h"
#include "test_common.h"

namespace gpudoctor {
namespace {

using testing::Contains;
using testing::FreshTempDir;
using testing::Gpudoctor;
using testing::HipccRuns;
using testing::kNoHipcc;
using testing::kSource;
using testing::ReadFileText;
using testing::ThisBuildMakesLinks;

namespace stdfs = std::filesystem;
const std::string kH100 = kSource + "/tests/fixtures/sysroot/h100-sxm-server";

// A command that ran to its end by itself: an exit status, no signal, no timeout.
void ExpectExited(const ProcessResult& r) {
  EXPECT_TRUE(r.exit_code.has_value()) << "no exit status; stderr: " << r.stderr_text;
  EXPECT_FALSE(r.term_signal.has_value()) << "ended by signal " << r.term_signal.value_or(0);
  EXPECT_FALSE(r.timed_out);
}

TEST(GatherCli, RecordsARecordedMachineThatReplaysWithInfo) {
  if (!ThisBuildMakesLinks()) GTEST_SKIP() << "this build cannot make symbolic links, which sysfs is made of";
  stdfs::path dest = FreshTempDir("front_end_cli_gather") / "copy";
  auto g = Gpudoctor({"gather", "--sysroot", kH100, dest.string()});
  ExpectExited(g);
  ASSERT_EQ(g.exit_code, 0) << g.stderr_text;
  EXPECT_TRUE(Contains(g.stderr_text, "recorded the machine recorded in " + kH100 + " into " + dest.string()))
      << g.stderr_text;
  EXPECT_TRUE(stdfs::is_regular_file(dest / ".gpudoctor/nvml.json"));

  auto want = Gpudoctor({"info", "--sysroot", kH100});
  auto got = Gpudoctor({"info", "--sysroot", dest.string()});
  ASSERT_EQ(got.exit_code, want.exit_code) << got.stderr_text;
  // The recording's facts, from its README: 8 H100s, the driver and the NVML answers (UUIDs).
  EXPECT_TRUE(Contains(got.stdout_text, "GPUs (8)")) << got.stdout_text;
  EXPECT_TRUE(Contains(got.stdout_text, "570.124.06")) << got.stdout_text;
  EXPECT_TRUE(Contains(got.stdout_text, "GPU-6f1d8a52-3c7e-4b19-9a0d-2e5c7b18f403")) << got.stdout_text;
  // And all the rest the same, but for the folder it was read from.
  std::string expected = want.stdout_text;
  expected.replace(expected.find(kH100), kH100.size(), dest.string());
  EXPECT_EQ(got.stdout_text, expected);
}

TEST(GatherCli, RefusesAMissingSysrootAndAnOutputThatHoldsFiles) {
  stdfs::path dir = FreshTempDir("front_end_cli_gather_bad");
  auto missing =
      Gpudoctor({"gather", "--sysroot", (dir / "no-such-machine").string(), (dir / "out").string()});
  ExpectExited(missing);
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_TRUE(Contains(missing.stderr_text, "no-such-machine: no such folder")) << missing.stderr_text;
  EXPECT_FALSE(stdfs::exists(dir / "out"));

  std::ofstream(dir / "taken.txt") << "already here\n";
  auto taken = Gpudoctor({"gather", "--sysroot", kH100, dir.string()});
  ExpectExited(taken);
  EXPECT_NE(taken.exit_code, 0);
  EXPECT_TRUE(Contains(taken.stderr_text, dir.string() + " is not empty; gather never overwrites files"))
      << taken.stderr_text;
  EXPECT_FALSE(stdfs::exists(dir / ".gpudoctor"));  // nothing written into it
}

TEST(TargetsCli, ListsTheCudaTargetsOfAFixtureLibrary) {
  const std::string lib = kSource + "/tests/fixtures/binaries/cuda_sm75_sm90_ptx90.so";
  auto r = Gpudoctor({"targets", lib});
  ExpectExited(r);
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_TRUE(Contains(r.stdout_text, "CUDA cubins:   sm_75 sm_90")) << r.stdout_text;
  EXPECT_TRUE(Contains(r.stdout_text, "CUDA PTX:      compute_90")) << r.stdout_text;
  EXPECT_TRUE(Contains(r.stdout_text, "AMD targets:   none")) << r.stdout_text;

  const std::string hip = kSource + "/tests/fixtures/binaries/hip_gfx900_gfx1030_gfx90a.so";
  auto h = Gpudoctor({"targets", hip});
  ExpectExited(h);
  ASSERT_EQ(h.exit_code, 0) << h.stderr_text;
  for (const char* gfx : {"gfx900", "gfx1030", "gfx90a"})
    EXPECT_TRUE(Contains(h.stdout_text, gfx)) << gfx << " missing from:\n" << h.stdout_text;
}

TEST(TargetsCli, AMissingFileOrNoPathIsAClearError) {
  stdfs::path dir = FreshTempDir("front_end_cli_targets_bad");
  auto missing = Gpudoctor({"targets", (dir / "libnothere.so").string()});
  ExpectExited(missing);
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_TRUE(Contains(missing.stderr_text, "cannot open " + (dir / "libnothere.so").string()))
      << missing.stderr_text;
  EXPECT_TRUE(missing.stdout_text.empty()) << missing.stdout_text;

  auto none = Gpudoctor({"targets"});
  ExpectExited(none);
  EXPECT_NE(none.exit_code, 0);
  EXPECT_TRUE(Contains(none.stderr_text, "targets needs a PATH")) << none.stderr_text;
}

const char* const kSmallCuda =
    "#include <cuda_runtime.h>\n"
    "__global__ void scale(float* x, float a) { x[threadIdx.x] *= a; }\n"
    "int main() {\n"
    "  float* d = nullptr;\n"
    "  cudaMalloc(&d, 256 * sizeof(float));\n"
    "  scale<<<1, 256>>>(d, 2.0f);\n"
    "  cudaDeviceSynchronize();\n"
    "  cudaFree(d);\n"
    "  return 0;\n"
    "}\n";

TEST(PortCli, TranslatesACudaFolderIntoANewFolderOfHipCalls) {
  stdfs::path dir = FreshTempDir("front_end_cli_port");
  stdfs::create_directories(dir / "src");
  std::ofstream(dir / "src/k.cu", std::ios::binary) << kSmallCuda;
  auto r = Gpudoctor({"port", (dir / "src").string(), "-o", (dir / "out").string()});
  ExpectExited(r);
  ASSERT_EQ(r.exit_code, 0) << r.stdout_text << r.stderr_text;
  EXPECT_TRUE(Contains(r.stdout_text, "1 file(s)")) << r.stdout_text;
  EXPECT_TRUE(Contains(r.stdout_text, "converted: headers 1, runtime 3")) << r.stdout_text;

  std::string hip = ReadFileText(dir / "out/k.cu");
  EXPECT_TRUE(Contains(hip, "#include <hip/hip_runtime.h>")) << hip;
  EXPECT_TRUE(Contains(hip, "hipMalloc(&d, 256 * sizeof(float));")) << hip;
  EXPECT_TRUE(Contains(hip, "hipDeviceSynchronize();")) << hip;
  EXPECT_TRUE(Contains(hip, "hipFree(d);")) << hip;
  EXPECT_FALSE(Contains(hip, "cuda")) << hip;
  EXPECT_EQ(ReadFileText(dir / "src/k.cu"), kSmallCuda);  // the input is left as it was
}

TEST(PortCli, AMissingInputOrAnExistingOutputIsAClearErrorAndWritesNothing) {
  stdfs::path dir = FreshTempDir("front_end_cli_port_bad");
  auto missing = Gpudoctor({"port", (dir / "nothere").string(), "-o", (dir / "out").string()});
  ExpectExited(missing);
  EXPECT_EQ(missing.exit_code, 3);  // docs: 3 is a file that could not be read
  EXPECT_TRUE(Contains(missing.stderr_text, "nothere: no such file or folder")) << missing.stderr_text;
  EXPECT_FALSE(stdfs::exists(dir / "out"));

  stdfs::create_directories(dir / "src");
  stdfs::create_directories(dir / "out");
  std::ofstream(dir / "src/k.cu", std::ios::binary) << kSmallCuda;
  std::ofstream(dir / "out/k.cu", std::ios::binary) << "// mine\n";
  auto exists = Gpudoctor({"port", (dir / "src").string(), "-o", (dir / "out").string()});
  ExpectExited(exists);
  EXPECT_NE(exists.exit_code, 0);
  EXPECT_TRUE(Contains(exists.stderr_text, "already exists; nothing was written")) << exists.stderr_text;
  EXPECT_EQ(ReadFileText(dir / "out/k.cu"), "// mine\n");

  // A bad number is refused by the typed flag reader, naming the flag and the range, before any file is read.
  auto threads = Gpudoctor({"port", (dir / "src").string(), "--examine", "--threads", "0"});
  ExpectExited(threads);
  EXPECT_EQ(threads.exit_code, 3);
  EXPECT_TRUE(Contains(threads.stderr_text, "--threads 0: not a whole number from 1 to 1024"))
      << threads.stderr_text;
}

// Issue 32 item 4: --check-build compiles each translated source with the hipcc it finds and says per file
// whether it builds; a file using an API HIP lacks does not, and the exit code says so.
TEST(PortCli, CheckBuildCompilesEachTranslatedSourceWithHipcc) {
  if (!HipccRuns()) GTEST_SKIP() << kNoHipcc;
  stdfs::path dir = FreshTempDir("front_end_cli_port_build");
  stdfs::create_directories(dir / "src");
  std::ofstream(dir / "src/k.cu", std::ios::binary) << kSmallCuda;
  std::ofstream(dir / "src/bad.cu", std::ios::binary)
      << "#include <cuda_runtime.h>\nint main() { return cudaInitDevice(0, 0, 0); }\n";
  std::ofstream(dir / "src/k.cuh", std::ios::binary) << "#pragma once\n";
  stdfs::create_directories(dir / "tmp");
  auto r = Gpudoctor({"port", (dir / "src").string(), "-o", (dir / "out").string(), "--check-build"},
                     std::chrono::seconds(60), {{"TMPDIR", (dir / "tmp").string()}});
  ExpectExited(r);
  // hipcc's clang leaves a folder per compiled file in TMPDIR; port gives it one of its own and removes it.
  EXPECT_TRUE(stdfs::is_empty(dir / "tmp"));
  EXPECT_EQ(r.exit_code, 2) << r.stdout_text << r.stderr_text;  // docs: 2, the result will not build
  const std::string bad = (dir / "src/bad.cu").string() + " -> " + (dir / "out/bad.cu").string() + "\n";
  const size_t at = r.stdout_text.find(bad);
  ASSERT_NE(at, std::string::npos) << r.stdout_text;
  EXPECT_TRUE(Contains(r.stdout_text.substr(at), "hipcc: does not compile: ")) << r.stdout_text;
  EXPECT_TRUE(Contains(r.stdout_text, "cudaInitDevice")) << r.stdout_text;
  EXPECT_TRUE(Contains(r.stdout_text, "hipcc: compiles\n")) << r.stdout_text;
  EXPECT_TRUE(Contains(r.stdout_text, "build:     1 of 2 source(s) compile with ")) << r.stdout_text;
  EXPECT_TRUE(Contains(r.stdout_text, " -c --offload-arch=gfx1030\n")) << r.stdout_text;

  auto nowhere = Gpudoctor({"port", (dir / "src/k.cu").string(), "--check-build"});
  ExpectExited(nowhere);
  EXPECT_EQ(nowhere.exit_code, 3);
  EXPECT_TRUE(Contains(nowhere.stderr_text, "--check-build compiles the translated files, so it needs -o"))
      << nowhere.stderr_text;
}

// Without --hip-version, port translates for the HIP installed here (the hip_version.h beside the hipcc it
// finds, PATH first), says so on stderr, and --hip-version newest keeps every HIP API.
TEST(PortCli, TranslatesForTheHipInstalledHereUnlessTold) {
  stdfs::path dir = FreshTempDir("front_end_cli_port_installed");
  stdfs::create_directories(dir / "rocm/bin");
  stdfs::create_directories(dir / "rocm/include/hip");
  stdfs::create_directories(dir / "src");
  std::ofstream(dir / "rocm/bin/hipcc", std::ios::binary) << "#!/bin/sh\nexit 1\n";
  std::ofstream(dir / "rocm/include/hip/hip_version.h", std::ios::binary)
      << "#define HIP_VERSION_MAJOR 5\n#define HIP_VERSION_MINOR 2\n#define HIP_VERSION_PATCH 21153\n";
  std::ofstream(dir / "src/k.cu", std::ios::binary)
      << "#include <cuda_runtime.h>\nint main() {\n  cudaDeviceProp prop;\n  cudaGetDeviceProperties(&prop, "
         "0);\n"
         "  return (int)prop.sharedMemPerBlockOptin;\n}\n";
  auto port = [&](std::vector<std::string> extra, const std::string& out) {
    ProcessRequest req;
    req.argv = {GPUDOCTOR_BINARY_PATH, "port", (dir / "src/k.cu").string(), "-o", (dir / out).string()};
    req.argv.insert(req.argv.end(), extra.begin(), extra.end());
    req.timeout = std::chrono::seconds(60);
    // The fake ROCm first, the rest of PATH kept (wine's child needs its own folders to start).
    const char* path = std::getenv("PATH");
#ifdef _WIN32
    const std::string separator = ";";
#else
    const std::string separator = ":";
#endif
    req.extra_env["PATH"] = (dir / "rocm/bin").string() + (path ? separator + path : std::string());
    req.extra_env["NO_COLOR"] = "1";
    auto r = RunProcess(req);
    EXPECT_TRUE(r.ok());
    return r.ok() ? *r : ProcessResult{};
  };
  auto installed = port({}, "k52.cu");
  ExpectExited(installed);
  EXPECT_TRUE(Contains(installed.stderr_text, "port: translating for HIP 5.2.21153, the release of "))
      << installed.stderr_text;
  std::string hip = ReadFileText(dir / "k52.cu");
  EXPECT_TRUE(Contains(hip, "prop.sharedMemPerBlock;")) << hip;
  EXPECT_FALSE(Contains(hip, "Optin")) << hip;
  auto newest = port({"--hip-version", "newest"}, "knew.cu");
  ExpectExited(newest);
  EXPECT_FALSE(Contains(newest.stderr_text, "translating for HIP")) << newest.stderr_text;
  EXPECT_TRUE(Contains(ReadFileText(dir / "knew.cu"), "prop.sharedMemPerBlockOptin"))
      << ReadFileText(dir / "knew.cu");
}

TEST(ManCli, PrintsAManPageWithANameSectionAndTheCommands) {
  auto r = Gpudoctor({"man"});
  ExpectExited(r);
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(r.stdout_text.find(".\\\" gpudoctor(1)"), 0u) << r.stdout_text.substr(0, 200);
  EXPECT_TRUE(Contains(r.stdout_text, "\n.TH GPUDOCTOR 1 "));
  std::string page = r.stdout_text;  // the Windows console's CR LF read as LF
  page.erase(std::remove(page.begin(), page.end(), '\r'), page.end());
  size_t name = page.find("\n.SH NAME\ngpudoctor \\- ");
  EXPECT_NE(name, std::string::npos);
  EXPECT_LT(name, page.find("\n.SH SYNOPSIS"));
  for (const char* command : {"check", "info", "gather", "targets", "port", "man"})
    EXPECT_TRUE(Contains(r.stdout_text, std::string("\n.SS \"gpudoctor ") + command + "\"")) << command;
}

TEST(ManCli, AnArgumentItDoesNotTakeIsAClearError) {
  auto r = Gpudoctor({"man", "bogus"});
  ExpectExited(r);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_TRUE(Contains(r.stderr_text, "not expected: bogus")) << r.stderr_text;
  EXPECT_TRUE(r.stdout_text.empty()) << r.stdout_text.substr(0, 200);
}

}  // namespace
}  // namespace gpudoctor
