// Writing a user's output file through FILE.tmp-gpudoctor (cli/output.h): the temporary is created
// exclusively, so a link planted at its name is never written through (issue 35, attempt 95).
#include <gtest/gtest.h>

#ifndef _WIN32
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/output.h"
#include "cli_test_util.h"
#include "test_common.h"

namespace gpudoctor {
namespace {

using testing::ReadFileText;

namespace fs = std::filesystem;

#ifndef _WIN32  // symbolic links need a privilege on Windows
TEST(OutputFile, PlantedTemporaryLinkIsNotWrittenThrough) {
  const fs::path dir = testing::FreshTempDir("output_file_planted_link");
  std::ofstream(dir / "victim.txt") << "victim\n";
  fs::create_symlink(dir / "victim.txt", dir / "p.env.tmp-gpudoctor");
  const std::string target = (dir / "p.env").string();

  Status st = WriteFileAtomically(target, "NEW=1\n", /*overwrite=*/false);

  EXPECT_EQ(ReadFileText(dir / "victim.txt"), "victim\n");
  ASSERT_TRUE(st.ok()) << st.error().message;
  EXPECT_FALSE(fs::is_symlink(target));
  EXPECT_EQ(ReadFileText(target), "NEW=1\n");
  EXPECT_FALSE(fs::exists(fs::symlink_status(dir / "p.env.tmp-gpudoctor")));
  fs::remove_all(dir);
}

TEST(OutputFile, PlantedDanglingTemporaryLinkCreatesNothingAtItsTarget) {
  const fs::path dir = testing::FreshTempDir("output_file_dangling_link");
  fs::create_symlink(dir / "elsewhere.txt", dir / "r.html.tmp-gpudoctor");

  Status st = WriteFileAtomically((dir / "r.html").string(), "<p>page</p>", /*overwrite=*/true);

  EXPECT_FALSE(fs::exists(dir / "elsewhere.txt"));
  ASSERT_TRUE(st.ok()) << st.error().message;
  EXPECT_EQ(ReadFileText(dir / "r.html"), "<p>page</p>");
  fs::remove_all(dir);
}

// A run killed while it writes (Ctrl-C during a large `report -o`; issue 35, attempt 118) leaves no
// half-written FILE.tmp-gpudoctor behind. The kill comes from RLIMIT_FSIZE: the child's write past 4 KiB
// raises SIGXFSZ, whose default action ends it in the middle of the write, as a signal would.
TEST(OutputFile, KilledInTheMiddleOfTheWriteLeavesNoFileBehind) {
  const fs::path dir = testing::FreshTempDir("output_file_killed_mid_write");
  const std::string target = (dir / "r.html").string();
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::signal(SIGXFSZ, SIG_DFL);
    const struct rlimit limit = {4096, 4096};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    (void)WriteFileAtomically(target, std::string(1 << 20, 'x'), /*overwrite=*/false);
    ::_exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the write was not interrupted; status " << status;
  EXPECT_EQ(WTERMSIG(status), SIGXFSZ);
  std::vector<std::string> left;
  for (const auto& entry : fs::directory_iterator(dir)) left.push_back(entry.path().filename().string());
  EXPECT_TRUE(left.empty()) << "left behind: " << left.front();
  fs::remove_all(dir);
}
#endif

TEST(OutputFile, StaleTemporaryFromAnInterruptedRunIsReplaced) {
  const fs::path dir = testing::FreshTempDir("output_file_stale_tmp");
  std::ofstream(dir / "s.json.tmp-gpudoctor") << "half a snapshot";

  Status st = WriteFileAtomically((dir / "s.json").string(), "{}\n", /*overwrite=*/false);

  ASSERT_TRUE(st.ok()) << st.error().message;
  EXPECT_EQ(ReadFileText(dir / "s.json"), "{}\n");
  EXPECT_FALSE(fs::exists(dir / "s.json.tmp-gpudoctor"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace gpudoctor
