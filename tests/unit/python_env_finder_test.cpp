// Finding Python environments from files and the environment alone: PATH interpreters and the venv
// they belong to, VIRTUAL_ENV / CONDA_PREFIX, conda and pyenv trees, ./.venv, --python-env, the user's
// and the system's site-packages, and the same folder reached twice kept once. Each case builds a
// small sysroot (probe_sysroot_builder.h).
#include <gtest/gtest.h>

#include <algorithm>

#include "probe/common/machine_paths.h"
#include "probe/common/python_env_finder.h"
#include "probe/common/python_probe.h"
#include "probe_sysroot_builder.h"

namespace gpudoctor {
namespace {

using testing::SysrootBuilder;

struct Found {
  std::vector<PythonSite> sites;
  std::vector<std::string> warnings;
};

Found FindSites(const SysrootBuilder& root, std::map<std::string, std::string> vars,
                const std::string& cwd = "", std::vector<std::string> given = {}) {
  auto fs = MakeRootedFileSystem(root.root());
  Environment env(std::move(vars));
  UserIdentity id;
  ProbeContext ctx{*fs, env, id};
  PythonSearch search;
  search.cwd = cwd;
  search.given = std::move(given);
  Found out;
  out.sites = FindPythonSites(ctx, search, out.warnings);
  return out;
}

const PythonSite* Site(const Found& f, const std::string& folder) {
  for (const auto& s : f.sites)
    if (s.site_packages == folder) return &s;
  return nullptr;
}

bool FoundBy(const PythonSite& s, const std::string& how) {
  return std::find(s.found_by.begin(), s.found_by.end(), how) != s.found_by.end();
}

// A venv whose python links to /usr/bin/python3.12, as `python3 -m venv` makes it.
bool MakeVenv(const SysrootBuilder& r, const std::string& prefix, const std::string& version = "3.12") {
  r.Write(prefix + "/pyvenv.cfg",
          "home = /usr/bin\ninclude-system-site-packages = false\nversion = " + version + ".1\n");
  r.Mkdir(prefix + "/lib/python" + version + "/site-packages");
  r.Write("/usr/bin/python" + version, "");
  return r.Symlink(prefix + "/bin/python3", "/usr/bin/python" + version) &&
         r.Symlink(prefix + "/bin/python", "python3");
}

TEST(PythonEnvFinder, PathInterpreterInsideAVenvMakesItTheEnvironment) {
  SysrootBuilder r;
  if (!MakeVenv(r, "/opt/torch/.venv")) GTEST_SKIP() << "no symbolic links here";
  auto f = FindSites(r, {{"PATH", "/opt/torch/.venv/bin:/usr/bin"}});
  const PythonSite* s = Site(f, "/opt/torch/.venv/lib/python3.12/site-packages");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->prefix, "/opt/torch/.venv");
  EXPECT_EQ(s->kind, "venv");
  EXPECT_EQ(s->interpreter, "/opt/torch/.venv/bin/python3");
  EXPECT_EQ(s->python_version, "3.12");
  EXPECT_EQ(s->python_version_source, "pyvenv.cfg");
  EXPECT_TRUE(s->on_path);
  EXPECT_TRUE(FoundBy(*s, "PATH"));
  EXPECT_EQ(&f.sites.front(), s) << "the first python on PATH comes first";
}

TEST(PythonEnvFinder, SystemPythonOnPathListsUserSiteFirst) {
  SysrootBuilder r;
  r.Write("/usr/bin/python3.11", "");
  if (!r.Symlink("/usr/bin/python3", "python3.11") || !r.Symlink("/bin", "usr/bin"))
    GTEST_SKIP() << "no links";
  r.Mkdir("/usr/lib/python3/dist-packages");
  r.Mkdir("/usr/local/lib/python3.11/dist-packages");
  r.Mkdir("/home/u/.local/lib/python3.11/site-packages");
  r.Mkdir("/home/u/.local/lib/python3.9/site-packages");
  // /bin is a link to /usr/bin (merged /usr): the same interpreter twice on PATH gives each folder once.
  auto f = FindSites(r, {{"PATH", "/bin:/usr/bin"}, {"HOME", "/home/u"}});
  ASSERT_GE(f.sites.size(), 3u);
  EXPECT_EQ(f.sites[0].site_packages, "/home/u/.local/lib/python3.11/site-packages");
  EXPECT_EQ(f.sites[0].kind, "user");
  EXPECT_EQ(f.sites[1].site_packages, "/usr/local/lib/python3.11/dist-packages");
  EXPECT_EQ(f.sites[2].site_packages, "/usr/lib/python3/dist-packages");
  EXPECT_EQ(f.sites[2].python_version, "3.11");
  EXPECT_EQ(f.sites[2].python_version_source, "interpreter name");
  EXPECT_EQ(f.sites[2].interpreter, "/bin/python3");
  size_t dist = std::count_if(f.sites.begin(), f.sites.end(), [](const PythonSite& s) {
    return s.canonical == "/usr/lib/python3/dist-packages";
  });
  EXPECT_EQ(dist, 1u);
  // The 3.9 user site is not what this python imports, but it is still a standard location.
  const PythonSite* old = Site(f, "/home/u/.local/lib/python3.9/site-packages");
  ASSERT_NE(old, nullptr);
  EXPECT_FALSE(old->on_path);
}

TEST(PythonEnvFinder, ActiveEnvironmentsComeFirst) {
  SysrootBuilder r;
  r.Mkdir("/work/env/lib/python3.12/site-packages");
  r.Mkdir("/home/u/miniforge3/conda-meta");
  r.Mkdir("/home/u/miniforge3/lib/python3.12/site-packages");
  r.Mkdir("/home/u/miniforge3/envs/sd/conda-meta");
  r.Mkdir("/home/u/miniforge3/envs/sd/lib/python3.10/site-packages");
  auto f = FindSites(
      r, {{"HOME", "/home/u"}, {"VIRTUAL_ENV", "/work/env"}, {"CONDA_PREFIX", "/home/u/miniforge3/envs/sd"}});
  ASSERT_GE(f.sites.size(), 3u);
  EXPECT_EQ(f.sites[0].prefix, "/work/env");
  EXPECT_TRUE(f.sites[0].active);
  EXPECT_EQ(f.sites[1].prefix, "/home/u/miniforge3/envs/sd");
  EXPECT_EQ(f.sites[1].kind, "conda");
  EXPECT_TRUE(f.sites[1].active);
  // The base is found through ~/miniforge3; the active env is not listed twice.
  const PythonSite* base = Site(f, "/home/u/miniforge3/lib/python3.12/site-packages");
  ASSERT_NE(base, nullptr);
  EXPECT_EQ(base->kind, "conda");
  EXPECT_FALSE(base->active);
  EXPECT_EQ(std::count_if(f.sites.begin(), f.sites.end(),
                          [](const PythonSite& s) { return s.prefix == "/home/u/miniforge3/envs/sd"; }),
            1);
}

TEST(PythonEnvFinder, CondaFromCondaExeMambaRootAndEnvironmentsTxt) {
  SysrootBuilder r;
  r.Mkdir("/opt/conda/conda-meta");
  r.Mkdir("/opt/conda/lib/python3.11/site-packages");
  r.Mkdir("/srv/mamba/envs/jax/conda-meta");
  r.Mkdir("/srv/mamba/envs/jax/lib/python3.12/site-packages");
  r.Mkdir("/data/envs/tf/conda-meta");
  r.Mkdir("/data/envs/tf/lib/python3.10/site-packages");
  r.Write("/home/u/.conda/environments.txt", "/data/envs/tf\n/does/not/exist\n");
  auto f = FindSites(
      r, {{"HOME", "/home/u"}, {"CONDA_EXE", "/opt/conda/bin/conda"}, {"MAMBA_ROOT_PREFIX", "/srv/mamba"}});
  for (const char* site :
       {"/opt/conda/lib/python3.11/site-packages", "/srv/mamba/envs/jax/lib/python3.12/site-packages",
        "/data/envs/tf/lib/python3.10/site-packages"}) {
    const PythonSite* s = Site(f, site);
    ASSERT_NE(s, nullptr) << site;
    EXPECT_EQ(s->kind, "conda") << site;
  }
  EXPECT_TRUE(f.warnings.empty());
}

TEST(PythonEnvFinder, PyenvVersionsAndTheShimOnPath) {
  SysrootBuilder r;
  r.Mkdir("/home/u/.pyenv/versions/3.12.4/lib/python3.12/site-packages");
  r.Write("/home/u/.pyenv/versions/3.12.4/bin/python3", "");
  r.Mkdir("/home/u/.pyenv/versions/3.9.19/lib/python3.9/site-packages");
  r.Write("/home/u/.pyenv/shims/python3", "#!/usr/bin/env bash\n");
  r.Write("/home/u/.pyenv/version", "3.12.4\n");
  auto f = FindSites(r, {{"HOME", "/home/u"}, {"PATH", "/home/u/.pyenv/shims:/usr/bin"}});
  ASSERT_GE(f.sites.size(), 2u);
  // The shim runs the global version: it is the PATH python, and comes first.
  EXPECT_EQ(f.sites[0].site_packages, "/home/u/.pyenv/versions/3.12.4/lib/python3.12/site-packages");
  EXPECT_EQ(f.sites[0].kind, "pyenv");
  EXPECT_TRUE(f.sites[0].on_path);
  EXPECT_EQ(f.sites[0].interpreter, "/home/u/.pyenv/versions/3.12.4/bin/python3");
  const PythonSite* other = Site(f, "/home/u/.pyenv/versions/3.9.19/lib/python3.9/site-packages");
  ASSERT_NE(other, nullptr);
  EXPECT_FALSE(other->on_path);
}

TEST(PythonEnvFinder, VenvInTheCurrentFolder) {
  SysrootBuilder r;
  if (!MakeVenv(r, "/home/u/proj/.venv", "3.11")) GTEST_SKIP() << "no symbolic links here";
  r.Mkdir("/home/u/proj/venv/lib/python3.11/site-packages");  // no pyvenv.cfg: not a venv
  auto f = FindSites(r, {{"HOME", "/home/u"}}, "/home/u/proj");
  const PythonSite* s = Site(f, "/home/u/proj/.venv/lib/python3.11/site-packages");
  ASSERT_NE(s, nullptr);
  EXPECT_TRUE(FoundBy(*s, "current folder"));
  EXPECT_EQ(Site(f, "/home/u/proj/venv/lib/python3.11/site-packages"), nullptr);
}

TEST(PythonEnvFinder, GivenFoldersPrefixOrSitePackages) {
  SysrootBuilder r;
  r.Mkdir("/envs/a/lib/python3.12/site-packages");
  r.Write("/envs/a/pyvenv.cfg", "version = 3.12.0\n");
  r.Mkdir("/envs/b/lib/python3.10/site-packages");
  auto f = FindSites(r, {}, "/envs", {"a", "/envs/b/lib/python3.10/site-packages", "/nope", "/envs"});
  ASSERT_GE(f.sites.size(), 2u);
  EXPECT_EQ(f.sites[0].prefix, "/envs/a");
  EXPECT_EQ(f.sites[0].kind, "venv");
  EXPECT_TRUE(f.sites[0].given);
  EXPECT_EQ(f.sites[1].prefix, "/envs/b");
  EXPECT_EQ(f.sites[1].python_version, "3.10");
  ASSERT_EQ(f.warnings.size(), 2u) << ::testing::PrintToString(f.warnings);
  EXPECT_NE(f.warnings[0].find("/nope"), std::string::npos);
  EXPECT_NE(f.warnings[1].find("no site-packages"), std::string::npos);
}

TEST(PythonEnvFinder, NothingAtAllIsNotAnError) {
  SysrootBuilder r;
  auto f = FindSites(r, {{"PATH", "/usr/bin:relative/bin:"}, {"HOME", "/home/u"}});
  EXPECT_TRUE(f.sites.empty());
  EXPECT_TRUE(f.warnings.empty());
}

TEST(PythonProbe, ListsEnvironmentsWithFrameworksAndTheActiveOne) {
  SysrootBuilder r;
  if (!MakeVenv(r, "/home/u/.venv")) GTEST_SKIP() << "no symbolic links here";
  r.Write("/home/u/.venv/lib/python3.12/site-packages/torch/version.py",
          "__version__ = '2.7.1+cu128'\ncuda = '12.8'\n");
  r.Mkdir("/home/u/.local/lib/python3.12/site-packages/requests");  // nothing of interest: not listed
  r.Mkdir("/empty/venv/lib/python3.12/site-packages");
  auto fs = MakeRootedFileSystem(r.root());
  Environment env({{"HOME", "/home/u"}, {"VIRTUAL_ENV", "/empty/venv"}});
  UserIdentity id;
  Snapshot snap;
  ProbePythonEnvs(ProbeContext{*fs, env, id}, snap);
  ASSERT_EQ(snap.python_envs.size(), 2u);
  EXPECT_EQ(snap.python_envs[0].path, "/empty/venv");
  EXPECT_TRUE(snap.python_envs[0].active);
  EXPECT_FALSE(snap.python_envs[0].torch);
  EXPECT_EQ(snap.python_envs[1].path, "/home/u/.venv");
  ASSERT_TRUE(snap.python_envs[1].torch);
  EXPECT_EQ(snap.python_envs[1].interpreter, "/home/u/.venv/bin/python3");
  EXPECT_NE(std::find(snap.looked_at.begin(), snap.looked_at.end(),
                      "/home/u/.local/lib/python3.12/site-packages (Python packages)"),
            snap.looked_at.end());
}

TEST(MachinePaths, LexicalHelpers) {
  EXPECT_EQ(ParentPath("/a/b/c"), "/a/b");
  EXPECT_EQ(ParentPath("/a"), "/");
  EXPECT_EQ(ParentPath("a"), "");
  EXPECT_EQ(NormalizePath("/a/./b/../c//"), "/a/c");
  EXPECT_EQ(NormalizePath("/../.."), "/");
  EXPECT_EQ(AbsolutePath("/w", "x/../y"), "/w/y");
  EXPECT_EQ(AbsolutePath("/w", "/abs"), "/abs");
  EXPECT_TRUE(PathIsUnder("/a/b/torch/__init__.py", "/a/b"));
  EXPECT_FALSE(PathIsUnder("/a/bc", "/a/b"));
  EXPECT_TRUE(PathIsUnder("/x", "/"));
}

TEST(MachinePaths, CanonicalPathFollowsLinksInsideTheSysroot) {
  SysrootBuilder r;
  r.Mkdir("/usr/lib/python3/dist-packages");
  if (!r.Symlink("/lib", "usr/lib") || !r.Symlink("/loop/a", "b") || !r.Symlink("/loop/b", "a"))
    GTEST_SKIP() << "no symbolic links here";
  auto fs = MakeRootedFileSystem(r.root());
  EXPECT_EQ(CanonicalPath(*fs, "/lib/python3/dist-packages"), "/usr/lib/python3/dist-packages");
  EXPECT_EQ(CanonicalPath(*fs, "/lib/../lib/python3"), "/usr/lib/python3");
  // A loop ends; the path comes back as it was given.
  EXPECT_EQ(CanonicalPath(*fs, "/loop/a/x"), "/loop/a/x");
}

}  // namespace
}  // namespace gpudoctor
