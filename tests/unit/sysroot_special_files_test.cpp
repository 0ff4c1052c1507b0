// A recorded machine (`--sysroot`) holding special files: FIFOs, sockets and devices are never opened as
// files, so a FIFO planted in a tree cannot block `info` forever (issue 35, attempts 59 and 60).
#include <gtest/gtest.h>

#ifndef _WIN32
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#endif

#include <cstring>
#include <filesystem>

#include "cli_test_util.h"
#include "platform/filesystem.h"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;

#ifndef _WIN32  // FIFOs and Unix sockets are POSIX files
// A copy of a recorded machine with its /proc/cpuinfo replaced by a FIFO that no one writes.
fs::path TreeWithFifo(const std::string& name) {
  const fs::path dir = testing::FreshTempDir(name);
  fs::copy(std::string(GPUDOCTOR_SOURCE_DIR) + "/tests/fixtures/sysroot/rx6700xt-desktop", dir / "B1",
           fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  fs::remove(dir / "B1/proc/cpuinfo");
  EXPECT_EQ(::mkfifo((dir / "B1/proc/cpuinfo").c_str(), 0600), 0) << std::strerror(errno);
  return dir;
}

// Through the FileSystem directly with a socket, which (unlike a FIFO) cannot block an open.
TEST(SysrootSpecialFiles, SocketIsNotOpenedAsAFile) {
  const fs::path dir = testing::FreshTempDir("sysroot_special_socket");
  fs::create_directories(dir / "proc");
  const int s = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(s, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  const std::string path = (dir / "proc/meminfo").string();
  ASSERT_LT(path.size(), sizeof addr.sun_path);
  std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
  ASSERT_EQ(::bind(s, reinterpret_cast<const sockaddr*>(&addr), sizeof addr), 0) << std::strerror(errno);
  auto machine = MakeRootedFileSystem(dir.string());
  auto text = machine->ReadFile("/proc/meminfo", 1 << 20);
  ::close(s);
  ASSERT_FALSE(text.ok());
  EXPECT_NE(text.error().message.find("not a regular file"), std::string::npos) << text.error().message;
  EXPECT_FALSE(machine->OpenForReading("/proc/meminfo").ok());
  fs::remove_all(dir);
}

TEST(SysrootSpecialFiles, InfoOnATreeWithAFifoReturns) {
  const fs::path dir = TreeWithFifo("sysroot_special_fifo_cli");
  // The timeout only bounds the hang this test exists to catch.
  auto r = testing::Gpudoctor({"info", "--sysroot", (dir / "B1").string()}, std::chrono::seconds(60));
  EXPECT_FALSE(r.timed_out);
  ASSERT_TRUE(r.exit_code.has_value());
  EXPECT_NE(r.stdout_text.find("RX 6700"), std::string::npos) << r.stdout_text << r.stderr_text;
  fs::remove_all(dir);
}
#endif

}  // namespace
}  // namespace gpudoctor
