// The platform layer on the system it runs on: Linux natively, Windows under
// wine. The same tests run on both, so none of them names a system: child
// processes are this test binary re-run on one of the DISABLED_ PlatformChild
// tests below, and libraries are tried by both systems' names.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <thread>

#include "core/strings.h"
#include "platform/dynamic_library.h"
#include "platform/environment.h"
#include "platform/filesystem.h"
#include "platform/identity.h"
#include "platform/process.h"
#include "test_common.h"

namespace gpudoctor {
namespace {

using testing::Contains;

namespace fs = std::filesystem;
using std::chrono::milliseconds;

constexpr char kStdoutMarker[] = "child-stdout-marker";
constexpr char kStderrMarker[] = "child-stderr-marker";

// ---- Child modes: run only when a test below starts this binary on one of them.

TEST(PlatformChild, DISABLED_Echo) {
  std::cout << kStdoutMarker << std::endl;
  std::cerr << kStderrMarker << std::endl;
  std::exit(7);
}

TEST(PlatformChild, DISABLED_Stdin) {
  std::string in((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
  auto value = CaptureProcessEnvironment().Get("GPUDOCTOR_TEST_VALUE");
  std::cout << "stdin=[" << in << "] value=[" << value.value_or("<unset>") << "]" << std::endl;
  std::exit(0);
}

TEST(PlatformChild, DISABLED_Big) {
  // More than any pipe buffer on both streams, interleaved: a reader that
  // drains one stream before the other would deadlock here.
  std::string line(1023, 'x');
  for (int i = 0; i < 1024; ++i) {
    std::fprintf(stdout, "%s\n", line.c_str());
    std::fprintf(stderr, "%s\n", line.c_str());
  }
  std::fflush(stdout);
  std::fflush(stderr);
  std::exit(0);
}

TEST(PlatformChild, DISABLED_Sleep) {
  std::this_thread::sleep_for(std::chrono::seconds(120));
  std::exit(0);
}

TEST(PlatformChild, DISABLED_Abort) {
  std::abort();
}

Result<ProcessResult> RunChild(const std::string& mode, milliseconds timeout = milliseconds(60000),
                               std::string stdin_text = {},
                               std::map<std::string, std::string> extra_env = {}) {
  auto self = CurrentExecutablePath();
  if (!self) return self.error();
  ProcessRequest request;
  request.argv = {*self, "--gtest_filter=PlatformChild.DISABLED_" + mode, "--gtest_also_run_disabled_tests"};
  request.timeout = timeout;
  request.stdin_text = std::move(stdin_text);
  request.extra_env = std::move(extra_env);
  // A sharded run (GTEST_TOTAL_SHARDS/GTEST_SHARD_INDEX) must not shard the child: its one test would be left
  // out of most shards, and the child would exit 0 having run nothing.
  request.extra_env["GTEST_TOTAL_SHARDS"] = "1";
  request.extra_env["GTEST_SHARD_INDEX"] = "0";
  return RunProcess(request);
}

// ---- RunProcess

TEST(RunProcess, CurrentExecutablePathNamesThisBinary) {
  auto self = CurrentExecutablePath();
  ASSERT_TRUE(self.ok()) << self.error().message;
  EXPECT_TRUE(Contains(*self, "gpudoctor_tests")) << *self;
}

TEST(RunProcess, CapturesStdoutStderrAndExitCode) {
  auto r = RunChild("Echo");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_FALSE(r->timed_out);
  ASSERT_TRUE(r->exit_code.has_value());
  EXPECT_EQ(*r->exit_code, 7);
  EXPECT_FALSE(r->term_signal.has_value());
  EXPECT_TRUE(Contains(r->stdout_text, kStdoutMarker)) << r->stdout_text;
  EXPECT_FALSE(Contains(r->stdout_text, kStderrMarker)) << r->stdout_text;
  EXPECT_TRUE(Contains(r->stderr_text, kStderrMarker)) << r->stderr_text;
}

TEST(RunProcess, PassesStdinAndExtraEnvironment) {
  auto r = RunChild("Stdin", milliseconds(60000), "hello \"child\"", {{"GPUDOCTOR_TEST_VALUE", "a b=c"}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->exit_code, 0);
  EXPECT_TRUE(Contains(r->stdout_text, "stdin=[hello \"child\"] value=[a b=c]")) << r->stdout_text;
}

TEST(RunProcess, LargeOutputOnBothStreamsDoesNotDeadlock) {
  auto r = RunChild("Big");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_FALSE(r->timed_out);
  EXPECT_EQ(r->exit_code, 0);
  EXPECT_GE(r->stdout_text.size(), 1024u * 1024u);
  EXPECT_GE(r->stderr_text.size(), 1024u * 1024u);
}

TEST(RunProcess, ChildPastTheTimeoutIsKilledAndReported) {
  auto started = std::chrono::steady_clock::now();
  auto r = RunChild("Sleep", milliseconds(1500));
  auto took = std::chrono::steady_clock::now() - started;
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->timed_out);
  EXPECT_FALSE(r->exit_code.has_value());
  EXPECT_GE(r->elapsed, milliseconds(1400));
  EXPECT_LT(took, std::chrono::seconds(15));
}

TEST(RunProcess, CrashingChildIsAResultNotAFailure) {
  auto r = RunChild("Abort");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_FALSE(r->timed_out);
  // POSIX reports the signal (SIGABRT); Windows a non-zero exit code (3).
  bool reported = r->term_signal.has_value() || (r->exit_code.has_value() && *r->exit_code != 0);
  EXPECT_TRUE(reported);
}

TEST(RunProcess, MissingProgramIsAnError) {
  ProcessRequest request;
  request.argv = {"gpudoctor-no-such-program-4711", "--help"};
  auto r = RunProcess(request);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(Contains(r.error().message, "gpudoctor-no-such-program-4711")) << r.error().message;

  request.argv = {std::string(GPUDOCTOR_SOURCE_DIR) + "/no-such-folder/no-such-program"};
  EXPECT_FALSE(RunProcess(request).ok());
}

TEST(RunProcess, RunsTheGpudoctorBinary) {
  ProcessRequest request;
  request.argv = {GPUDOCTOR_BINARY_PATH, "--version"};
  auto r = RunProcess(request);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->exit_code, 0) << r->stderr_text;
  EXPECT_TRUE(Contains(r->stdout_text, "gpudoctor")) << r->stdout_text;
}

// ---- Sysroot confinement

class SysrootTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
    root_ = fs::temp_directory_path() /
            ("gpudoctor-platform-" +
             std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "-" +
             std::to_string(stamp));
    fs::create_directories(root_);
    Write("etc/passwd", "fixture passwd");
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  void Write(const std::string& rel, const std::string& text) {
    fs::path p = root_ / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
  }
  // False where this system (or its C++ library) cannot make symbolic links.
  bool Link(const std::string& target, const std::string& rel, std::string& why) {
    fs::path p = root_ / rel;
    fs::create_directories(p.parent_path());
    std::error_code ec;
    fs::create_symlink(target, p, ec);
    why = ec.message();
    return !ec;
  }
  std::unique_ptr<FileSystem> Fs() const { return MakeRootedFileSystem(root_.generic_string()); }

  fs::path root_;
};

#define LINK_OR_SKIP(target, rel)                                                   \
  do {                                                                              \
    std::string why;                                                                \
    if (!Link(target, rel, why)) GTEST_SKIP() << "no symbolic links here: " << why; \
  } while (0)

TEST_F(SysrootTest, AbsoluteLinkResolvesInsideTheRoot) {
  Write("sys/devices/pci0/dev0/vendor", "0x1002\n");
  LINK_OR_SKIP("/sys/devices/pci0/dev0", "sys/class/drm/card0/device");
  auto fs = Fs();
  EXPECT_FALSE(fs->IsLiveRoot());
  auto vendor = fs->ReadFile("/sys/class/drm/card0/device/vendor");
  ASSERT_TRUE(vendor.ok()) << vendor.error().message;
  EXPECT_EQ(*vendor, "0x1002\n");
  EXPECT_TRUE(fs->IsDir("/sys/class/drm/card0/device"));
  auto names = fs->ListDir("/sys/class/drm/card0/device");
  ASSERT_TRUE(names.ok()) << names.error().message;
  EXPECT_EQ(*names, std::vector<std::string>{"vendor"});
  auto raw = fs->ReadLink("/sys/class/drm/card0/device");
  ASSERT_TRUE(raw.ok()) << raw.error().message;
  EXPECT_EQ(*raw, "/sys/devices/pci0/dev0");
}

TEST_F(SysrootTest, RelativeLinkResolvesInsideTheRoot) {
  Write("sys/devices/pci0/dev0/driver_name", "amdgpu");
  LINK_OR_SKIP("../../../devices/pci0/dev0", "sys/class/drm/card0/device");
  auto fs = Fs();
  auto name = fs->ReadFile("/sys/class/drm/card0/device/driver_name");
  ASSERT_TRUE(name.ok()) << name.error().message;
  EXPECT_EQ(*name, "amdgpu");
  auto raw = fs->ReadLink("/sys/class/drm/card0/device");
  ASSERT_TRUE(raw.ok());
  EXPECT_EQ(BaseName(*raw), "dev0");
}

TEST_F(SysrootTest, LinksPointingOutsideStayInside) {
  LINK_OR_SKIP("../../../../../../../../etc/passwd", "a/b/up");
  LINK_OR_SKIP("/etc/passwd", "a/abs");
  LINK_OR_SKIP("/etc/hostname", "a/host");  // the host has one, the tree does not
  LINK_OR_SKIP("..", "a/parent");
  auto fs = Fs();
  for (const char* path : {"/a/b/up", "/a/abs", "/a/parent/../../etc/passwd", "/a/b/../abs"}) {
    auto text = fs->ReadFile(path);
    ASSERT_TRUE(text.ok()) << path << ": " << text.error().message;
    EXPECT_EQ(*text, "fixture passwd") << path;
  }
  EXPECT_FALSE(fs->ReadFile("/a/host").ok());
  EXPECT_FALSE(fs->Exists("/a/host"));
}

TEST_F(SysrootTest, DotDotNeverClimbsAboveTheRoot) {
  auto fs = Fs();
  for (const char* path : {"/../../../etc/passwd", "/etc/../../etc/./passwd", "etc/passwd"}) {
    auto text = fs->ReadFile(path);
    ASSERT_TRUE(text.ok()) << path << ": " << text.error().message;
    EXPECT_EQ(*text, "fixture passwd") << path;
  }
}

TEST_F(SysrootTest, LoopingLinksGiveAnErrorQuickly) {
  LINK_OR_SKIP("loop2", "loop1");
  LINK_OR_SKIP("/loop1", "loop2");
  LINK_OR_SKIP("self", "self");
  auto fs = Fs();
  auto started = std::chrono::steady_clock::now();
  for (const char* path : {"/loop1", "/self", "/loop1/x/y"}) {
    auto r = fs->ReadFile(path);
    ASSERT_FALSE(r.ok()) << path;
    EXPECT_TRUE(Contains(r.error().message, "too many levels of symbolic links")) << r.error().message;
  }
  EXPECT_FALSE(fs->Stat("/loop2").ok());
  EXPECT_FALSE(fs->ListDir("/loop1").ok());
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(2));
  auto raw = fs->ReadLink("/loop1");  // the link itself is readable
  ASSERT_TRUE(raw.ok()) << raw.error().message;
  EXPECT_EQ(*raw, "loop2");
}

TEST_F(SysrootTest, FortyLinksAreFollowedFortyOneAreNot) {
  Write("target", "end");
  for (int i = 0; i < 41; ++i) {
    std::string target = "target";
    if (i < 40) target = std::string("l").append(std::to_string(i + 1));
    LINK_OR_SKIP(target, std::string("l").append(std::to_string(i)));
  }
  auto fs = Fs();
  auto forty = fs->ReadFile("/l1");
  ASSERT_TRUE(forty.ok()) << forty.error().message;
  EXPECT_EQ(*forty, "end");
  EXPECT_FALSE(fs->ReadFile("/l0").ok());
}

TEST_F(SysrootTest, ReadFileHonoursMaxBytes) {
  Write("big", std::string(100000, 'z'));
  auto fs = Fs();
  auto head = fs->ReadFile("/big", 10);
  ASSERT_TRUE(head.ok());
  EXPECT_EQ(*head, std::string(10, 'z'));
  auto all = fs->ReadFile("/big");
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 100000u);
  EXPECT_FALSE(fs->ReadFile("/etc").ok());
  EXPECT_FALSE(fs->ReadFile("/missing/file").ok());
}

TEST(LiveRoot, ReadsThisMachinesFilesByAbsolutePath) {
  auto fs = MakeRootedFileSystem("/");
  EXPECT_TRUE(fs->IsLiveRoot());
  EXPECT_EQ(fs->Root(), "/");
  // Also proves that the source folder's path works where the tests run (under wine: Z:).
  auto text = fs->ReadFile(std::string(GPUDOCTOR_SOURCE_DIR) + "/CMakeLists.txt");
  ASSERT_TRUE(text.ok()) << text.error().message;
  EXPECT_TRUE(Contains(*text, "project(gpudoctor"));
  EXPECT_TRUE(fs->IsDir(std::string(GPUDOCTOR_SOURCE_DIR) + "/tests/fixtures"));
}

// ---- Dynamic libraries

TEST(DynamicLibrary, MissingLibraryErrorNamesIt) {
  auto lib = DynamicLibrary::Open("libgpudoctor-no-such-library.so.9");
  ASSERT_FALSE(lib.ok());
  EXPECT_TRUE(Contains(lib.error().message, "libgpudoctor-no-such-library.so.9")) << lib.error().message;
}

TEST(DynamicLibrary, OpensTheSystemCLibraryOrKernel32) {
  LibraryLoadReport report;
  auto lib = OpenFirst({"libgpudoctor-no-such-library.so.9", "libc.so.6", "kernel32.dll"}, report);
  ASSERT_TRUE(lib.ok()) << lib.error().message;
  EXPECT_GE(report.tried.size(), 2u);
  EXPECT_FALSE(report.loaded_path.empty());
  EXPECT_FALSE(lib->LoadedPath().empty());
  EXPECT_TRUE(lib->Symbol("strlen") != nullptr || lib->Symbol("GetTickCount") != nullptr);
  EXPECT_EQ(lib->Symbol("gpudoctor_no_such_symbol"), nullptr);
  DynamicLibrary moved = std::move(*lib);
  EXPECT_FALSE(moved.LoadedPath().empty());
}

// ---- Environment and identity

TEST(Environment, ParsesRecordedFiles) {
  Environment env =
      ParseEnvironmentFile("A=1\nB=x=y\n=no-name\nno equals sign\nC=\nHIP_VISIBLE_DEVICES=0,1\n");
  EXPECT_EQ(env.All().size(), 4u);
  EXPECT_EQ(env.Get("A"), "1");
  EXPECT_EQ(env.Get("B"), "x=y");
  EXPECT_EQ(env.Get("C"), "");
  EXPECT_EQ(env.Get("HIP_VISIBLE_DEVICES"), "0,1");
  EXPECT_FALSE(env.Has("D"));
}

TEST(Environment, CapturesThisProcess) {
  Environment env = CaptureProcessEnvironment();
  bool has_path = false;
  for (const auto& [name, value] : env.All()) has_path |= (ToLower(name) == "path" && !value.empty());
  EXPECT_TRUE(has_path);
}

TEST(Identity, NamesTheCurrentUser) {
  EXPECT_FALSE(CurrentUserIdentity().user_name.empty());
}

}  // namespace
}  // namespace gpudoctor
