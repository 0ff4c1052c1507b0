// The Python finder on Windows paths (issue 31): VIRTUAL_ENV and CONDA_PREFIX as drive, UNC and long
// (\\?\) paths, Lib\site-packages and Scripts\python.exe, PATH split on ';' with cmd's quotes and the
// Store's aliases skipped, pip's --user folder under %APPDATA%, .venv in the current and home folders,
// conda's environments.txt, --python-env C:\..., and one folder reached by two spellings kept once.
// Each case builds a small recorded tree: drive C: is its folder C, a share its folder UNC.
#include <gtest/gtest.h>

#include <algorithm>

#include "platform/filesystem.h"
#include "probe/common/python_env_finder.h"
#include "probe_sysroot_builder.h"

namespace gpudoctor {
namespace {

using testing::SysrootBuilder;

// Writes a file at a Windows path of the tree.
void PutWindowsFile(const SysrootBuilder& r, const std::string& windows_path, const std::string& text = "") {
  r.Write(RecordedWindowsPath(windows_path), text);
}

// A venv as `python -m venv` makes it on Windows.
void Venv(const SysrootBuilder& r, const std::string& prefix, const std::string& version) {
  PutWindowsFile(r, prefix + "\\pyvenv.cfg",
                 "home = C:\\Python" + version + "\nversion = " + version + ".4\n");
  PutWindowsFile(r, prefix + "\\Scripts\\python.exe");
  PutWindowsFile(r, prefix + "\\Lib\\site-packages\\pip\\__init__.py");
}

struct FoundOnWindows {
  std::vector<PythonSite> sites;
  std::vector<std::string> warnings;
};

FoundOnWindows FindSitesOnWindows(const SysrootBuilder& r, std::map<std::string, std::string> vars,
                                  const std::string& cwd = "", std::vector<std::string> given = {}) {
  auto fs = MakeRootedFileSystem(r.root());
  Environment env(std::move(vars));
  UserIdentity id;
  ProbeContext ctx{*fs, env, id};
  PythonSearch search;
  search.windows = true;
  search.cwd = cwd;
  search.given = std::move(given);
  FoundOnWindows out;
  out.sites = FindPythonSites(ctx, search, out.warnings);
  return out;
}

std::string Sites(const FoundOnWindows& f) {
  std::string out;
  for (const auto& s : f.sites) out += s.site_packages + " [" + s.kind + "]\n";
  return out;
}

TEST(PythonEnvFinderWindows, ActiveVenvAndCondaOnDriveAndUncPaths) {
  SysrootBuilder r;
  Venv(r, "D:\\proj\\.venv", "3.11");
  PutWindowsFile(r, "\\\\nas\\ml\\envs\\sd\\conda-meta\\python-3.12.4-h14ffc60_0.json", "{}");
  PutWindowsFile(r, "\\\\nas\\ml\\envs\\sd\\python.exe");
  PutWindowsFile(r, "\\\\nas\\ml\\envs\\sd\\Lib\\site-packages\\x.py");
  auto f =
      FindSitesOnWindows(r, {{"VIRTUAL_ENV", "d:/proj/.venv/"}, {"CONDA_PREFIX", "\\\\nas\\ml\\envs\\sd"}});
  ASSERT_EQ(f.sites.size(), 2u) << Sites(f);
  const PythonSite& venv = f.sites[0];
  EXPECT_EQ(venv.site_packages, "D:\\proj\\.venv\\Lib\\site-packages");
  EXPECT_EQ(venv.prefix, "D:\\proj\\.venv");
  EXPECT_EQ(venv.kind, "venv");
  EXPECT_EQ(venv.interpreter, "D:\\proj\\.venv\\Scripts\\python.exe");
  EXPECT_EQ(venv.python_version, "3.11");
  EXPECT_EQ(venv.python_version_source, "pyvenv.cfg");
  EXPECT_TRUE(venv.active);
  const PythonSite& conda = f.sites[1];
  EXPECT_EQ(conda.site_packages, "\\\\nas\\ml\\envs\\sd\\Lib\\site-packages");
  EXPECT_EQ(conda.kind, "conda");
  EXPECT_EQ(conda.interpreter, "\\\\nas\\ml\\envs\\sd\\python.exe");
  EXPECT_EQ(conda.python_version, "3.12");
  EXPECT_EQ(conda.python_version_source, "conda-meta");
  EXPECT_TRUE(f.warnings.empty());
}

TEST(PythonEnvFinderWindows, PathInterpretersWithTheUserSiteFirst) {
  SysrootBuilder r;
  const std::string py = "C:\\Program Files\\Python312";
  PutWindowsFile(r, py + "\\python.exe");
  PutWindowsFile(r, py + "\\python312.dll");
  PutWindowsFile(r, py + "\\Lib\\site-packages\\x.py");
  PutWindowsFile(r, "C:\\Users\\u\\AppData\\Roaming\\Python\\Python312\\site-packages\\x.py");
  PutWindowsFile(r, "C:\\Users\\u\\AppData\\Local\\Microsoft\\WindowsApps\\python.exe");  // a Store alias
  Venv(r, "C:\\work\\venv", "3.12");
  auto f = FindSitesOnWindows(
      r, {{"PATH", "C:\\WINDOWS\\system32;C:\\Users\\u\\AppData\\Local\\Microsoft\\WindowsApps;\"" + py +
                       "\";relative\\bin;C:\\work\\venv\\Scripts"},
          {"APPDATA", "C:\\Users\\u\\AppData\\Roaming"}});
  std::vector<std::string> got;
  for (const auto& s : f.sites) got.push_back(s.kind + " " + s.python_version + " " + s.site_packages);
  EXPECT_EQ(got, (std::vector<std::string>{
                     "user 3.12 C:\\Users\\u\\AppData\\Roaming\\Python\\Python312\\site-packages",
                     "system 3.12 " + py + "\\Lib\\site-packages",
                     "venv 3.12 C:\\work\\venv\\Lib\\site-packages"}));
  ASSERT_EQ(f.sites.size(), 3u);
  EXPECT_EQ(f.sites[0].interpreter, py + "\\python.exe");
  EXPECT_EQ(f.sites[1].python_version_source, "python DLL");
  EXPECT_TRUE(f.sites[2].on_path);
  EXPECT_EQ(f.sites[2].interpreter, "C:\\work\\venv\\Scripts\\python.exe");
}

TEST(PythonEnvFinderWindows, CurrentAndHomeVenvsAndCondaFolders) {
  SysrootBuilder r;
  Venv(r, "C:\\Users\\u\\proj\\.venv", "3.13");
  Venv(r, "C:\\Users\\u\\.venv", "3.12");
  PutWindowsFile(r, "C:\\Users\\u\\miniforge3\\conda-meta\\python-3.12.7-h0_0.json", "{}");
  PutWindowsFile(r, "C:\\Users\\u\\miniforge3\\Lib\\site-packages\\x.py");
  PutWindowsFile(r, "C:\\Users\\u\\miniforge3\\envs\\ml\\conda-meta\\python-3.10.14-h0_0.json", "{}");
  PutWindowsFile(r, "C:\\Users\\u\\miniforge3\\envs\\ml\\Lib\\site-packages\\x.py");
  PutWindowsFile(r, "E:\\envs\\other\\conda-meta\\python-3.11.9-h0_0.json", "{}");
  PutWindowsFile(r, "E:\\envs\\other\\Lib\\site-packages\\x.py");
  PutWindowsFile(r, "C:\\Users\\u\\.conda\\environments.txt",
                 "C:\\Users\\u\\miniforge3\r\nE:\\envs\\other\r\n/home/u/x\r\n");
  // The live Windows build gives the current folder with forward slashes.
  auto f = FindSitesOnWindows(r, {{"USERPROFILE", "C:\\Users\\u"}}, "C:/Users/u/proj");
  std::vector<std::string> got;
  for (const auto& s : f.sites)
    got.push_back(s.kind + " " + s.python_version + " " + s.prefix + " (" + s.found_by.front() + ")");
  EXPECT_EQ(got, (std::vector<std::string>{"venv 3.13 C:\\Users\\u\\proj\\.venv (current folder)",
                                           "venv 3.12 C:\\Users\\u\\.venv (~/.venv)",
                                           "conda 3.12 C:\\Users\\u\\miniforge3 (conda)",
                                           "conda 3.10 C:\\Users\\u\\miniforge3\\envs\\ml (conda)",
                                           "conda 3.11 E:\\envs\\other (conda)"}));
}

TEST(PythonEnvFinderWindows, GivenFoldersInEveryPathForm) {
  SysrootBuilder r;
  Venv(r, "C:\\Users\\u\\envs\\a", "3.11");
  Venv(r, "C:\\Users\\u\\envs\\b", "3.12");
  Venv(r, "\\\\nas\\ml\\venv", "3.10");
  PutWindowsFile(r, "C:\\Users\\u\\envs\\c\\python311._pth", "python311.zip\n.\nLib/site-packages\n");
  PutWindowsFile(r, "C:\\Users\\u\\envs\\c\\Lib\\site-packages\\x.py");
  auto f = FindSitesOnWindows(r, {}, "C:\\Users\\u",
                              {"C:\\Users\\u\\envs\\a", "\\\\?\\C:\\Users\\u\\envs\\b\\Lib\\site-packages",
                               "\\\\nas\\ml\\venv", "envs\\c", "C:\\nowhere"});
  ASSERT_EQ(f.sites.size(), 4u) << Sites(f);
  EXPECT_EQ(f.sites[0].prefix, "C:\\Users\\u\\envs\\a");
  EXPECT_EQ(f.sites[1].site_packages, "\\\\?\\C:\\Users\\u\\envs\\b\\Lib\\site-packages");
  EXPECT_EQ(f.sites[1].prefix, "\\\\?\\C:\\Users\\u\\envs\\b");
  EXPECT_EQ(f.sites[1].kind, "venv");
  EXPECT_EQ(f.sites[1].python_version, "3.12");
  EXPECT_EQ(f.sites[1].interpreter, "\\\\?\\C:\\Users\\u\\envs\\b\\Scripts\\python.exe");
  EXPECT_EQ(f.sites[2].site_packages, "\\\\nas\\ml\\venv\\Lib\\site-packages");
  EXPECT_EQ(f.sites[3].prefix, "C:\\Users\\u\\envs\\c");
  EXPECT_EQ(f.sites[3].python_version, "3.11");
  for (const auto& s : f.sites) EXPECT_TRUE(s.given) << s.site_packages;
  ASSERT_EQ(f.warnings.size(), 1u);
  EXPECT_NE(f.warnings[0].find("--python-env C:\\nowhere: no such folder"), std::string::npos)
      << f.warnings[0];
}

TEST(PythonEnvFinderWindows, OneFolderBySeveralSpellingsIsListedOnce) {
  SysrootBuilder r;
  Venv(r, "C:\\Users\\u\\.venv", "3.12");
  // (A recorded tree compares names with case, as the folder it lives in does: the spellings differ in
  // form here, not in case; WindowsPath.OneFolderOneKey shows case folded.)
  auto f = FindSitesOnWindows(
      r, {{"VIRTUAL_ENV", "\\\\?\\C:\\Users\\u\\.venv"}, {"USERPROFILE", "c:\\Users\\u\\"}}, "",
      {"c:/Users/u/.venv/Lib/site-packages/"});
  ASSERT_EQ(f.sites.size(), 1u) << Sites(f);
  EXPECT_EQ(f.sites[0].found_by, (std::vector<std::string>{"--python-env", "VIRTUAL_ENV", "~/.venv"}));
  EXPECT_TRUE(f.sites[0].active);
  EXPECT_TRUE(f.sites[0].given);
}

TEST(PythonEnvFinderWindows, CandidatesComeAfterTheCommonPlacesAndMergeWithThem) {
  SysrootBuilder r;
  PutWindowsFile(r, "C:\\Py\\Lib\\site-packages\\x.py");
  PutWindowsFile(r, "C:\\Py\\python.exe");
  Venv(r, "C:\\Users\\u\\.venv", "3.12");
  auto fs = MakeRootedFileSystem(r.root());
  Environment env(std::map<std::string, std::string>{{"USERPROFILE", "C:\\Users\\u"}});
  UserIdentity id;
  ProbeContext ctx{*fs, env, id};
  PythonSearch search;
  search.windows = true;
  search.installs = {
      {"C:\\Py", "C:\\Py\\Lib\\site-packages", "system", "3.11", "registry", "", "registry"},
      {"C:\\Users\\u\\.venv", "C:/Users/u/.venv/Lib/site-packages", "venv", "", "", "", "~/.venv"},
      {"C:\\Gone", "C:\\Gone\\Lib\\site-packages", "system", "3.10", "registry", "", "registry"}};
  std::vector<std::string> warnings;
  auto sites = FindPythonSites(ctx, search, warnings);
  ASSERT_EQ(sites.size(), 2u);
  EXPECT_EQ(sites[0].prefix, "C:\\Users\\u\\.venv");
  EXPECT_EQ(sites[0].found_by, (std::vector<std::string>{"~/.venv"}));
  EXPECT_EQ(sites[1].prefix, "C:\\Py");
  EXPECT_EQ(sites[1].python_version, "3.11");
  EXPECT_EQ(sites[1].python_version_source, "registry");
  EXPECT_EQ(sites[1].interpreter, "C:\\Py\\python.exe");
  EXPECT_EQ(sites[1].found_by, (std::vector<std::string>{"registry"}));
}

}  // namespace
}  // namespace gpudoctor
