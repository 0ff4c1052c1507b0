// Windows path arithmetic (core/windows_path.h) on every form a user, an installer or the registry
// writes: drive letters either case, both separators, UNC shares, the long-path prefix; and how a
// recorded machine stores them (RecordedWindowsPath: drive C: is the folder C, a share the folder UNC).
#include <gtest/gtest.h>

#include "core/windows_path.h"
#include "platform/filesystem.h"

namespace gpudoctor {
namespace {

TEST(WindowsPath, AbsoluteForms) {
  for (const char* p : {"C:\\", "c:/x", "D:\\proj\\.venv", "\\\\server\\share", "\\\\server\\share\\x",
                        "//server/share/x", "\\\\?\\C:\\x", "\\\\?\\UNC\\server\\share\\x", "\\\\.\\C:\\x"})
    EXPECT_TRUE(IsWindowsAbsolutePath(p)) << p;
  for (const char* p : {"", "x", ".venv", "C:x", "C:", "\\x", "/home/u", "1:\\x"})
    EXPECT_FALSE(IsWindowsAbsolutePath(p)) << p;
}

TEST(WindowsPath, NormalizeKeepsTheRootAndResolvesDots) {
  EXPECT_EQ(NormalizeWindowsPath("c:/Users//bob/./x/.."), "C:\\Users\\bob");
  EXPECT_EQ(NormalizeWindowsPath("C:\\Python311\\"), "C:\\Python311");
  EXPECT_EQ(NormalizeWindowsPath("C:\\.."), "C:\\");
  EXPECT_EQ(NormalizeWindowsPath("C:/"), "C:\\");
  EXPECT_EQ(NormalizeWindowsPath("\\\\nas\\ml\\envs\\..\\venv\\"), "\\\\nas\\ml\\venv");
  EXPECT_EQ(NormalizeWindowsPath("\\\\nas\\ml\\.."), "\\\\nas\\ml\\");
  EXPECT_EQ(NormalizeWindowsPath("//nas/ml/x"), "\\\\nas\\ml\\x");
  EXPECT_EQ(NormalizeWindowsPath("\\\\?\\c:\\very\\long\\"), "\\\\?\\C:\\very\\long");
  EXPECT_EQ(NormalizeWindowsPath("\\\\?\\UNC\\nas\\ml\\x"), "\\\\?\\UNC\\nas\\ml\\x");
  EXPECT_EQ(NormalizeWindowsPath("a/b/../../../c"), "..\\c");
}

TEST(WindowsPath, JoinParentBase) {
  EXPECT_EQ(JoinWindowsPath("C:\\Py311\\", "Lib/site-packages"), "C:\\Py311\\Lib\\site-packages");
  EXPECT_EQ(JoinWindowsPath("C:\\x", "D:\\y"), "D:\\y");
  EXPECT_EQ(JoinWindowsPath("\\\\nas\\ml", "venv"), "\\\\nas\\ml\\venv");
  EXPECT_EQ(WindowsParentPath("C:\\a\\b"), "C:\\a");
  EXPECT_EQ(WindowsParentPath("C:\\a"), "C:\\");
  EXPECT_EQ(WindowsParentPath("C:\\"), "");
  EXPECT_EQ(WindowsParentPath("\\\\nas\\ml\\venv\\Scripts"), "\\\\nas\\ml\\venv");
  EXPECT_EQ(WindowsParentPath("\\\\nas\\ml\\venv"), "\\\\nas\\ml\\");
  EXPECT_EQ(WindowsParentPath("\\\\?\\C:\\a\\b"), "\\\\?\\C:\\a");
  EXPECT_EQ(WindowsBaseName("C:\\a\\Lib\\"), "Lib");
  EXPECT_EQ(WindowsBaseName("C:\\"), "");
  EXPECT_EQ(WindowsBaseName("\\\\nas\\ml"), "");
}

TEST(WindowsPath, OneFolderOneKey) {
  EXPECT_EQ(WindowsPathKey("\\\\?\\C:\\Users\\Bob\\"), WindowsPathKey("c:/users/bob"));
  EXPECT_EQ(WindowsPathKey("\\\\?\\UNC\\nas\\ml\\x"), WindowsPathKey("\\\\NAS\\ml\\x"));
  EXPECT_NE(WindowsPathKey("C:\\a"), WindowsPathKey("D:\\a"));
  EXPECT_TRUE(WindowsPathIsUnder("c:\\users\\bob\\x", "C:\\Users\\Bob"));
  EXPECT_TRUE(WindowsPathIsUnder("C:\\x", "C:\\"));
  EXPECT_FALSE(WindowsPathIsUnder("C:\\Users\\bobby", "C:\\Users\\bob"));
}

TEST(WindowsPath, RecordedTreeLayout) {
  EXPECT_EQ(RecordedWindowsPath("c:\\Users\\bob\\x"), "/C/Users/bob/x");
  EXPECT_EQ(RecordedWindowsPath("C:"), "/C");
  EXPECT_EQ(RecordedWindowsPath("\\\\?\\C:\\Users\\bob"), "/C/Users/bob");
  EXPECT_EQ(RecordedWindowsPath("\\\\nas\\ml\\venv"), "/UNC/nas/ml/venv");
  EXPECT_EQ(RecordedWindowsPath("\\\\?\\UNC\\nas\\ml\\venv"), "/UNC/nas/ml/venv");
  for (const char* same : {"/sys/class/drm", "//host/x", "C:x", "relative\\x", "1:\\x"})
    EXPECT_EQ(RecordedWindowsPath(same), same);
}

TEST(WindowsPath, JoinPathAndBaseNameFollowAWindowsPath) {
  EXPECT_EQ(JoinPath("C:\\Py311\\Lib\\site-packages", "torch/version.py"),
            "C:\\Py311\\Lib\\site-packages\\torch\\version.py");
  EXPECT_EQ(JoinPath("/usr/lib", "python3"), "/usr/lib/python3");
  EXPECT_EQ(BaseName("C:\\Py311\\Lib\\site-packages\\"), "site-packages");
  EXPECT_EQ(BaseName("/a/b\\c"), "b\\c");  // a backslash is a name character on POSIX
}

}  // namespace
}  // namespace gpudoctor
