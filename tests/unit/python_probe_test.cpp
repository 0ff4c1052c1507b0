// The small Python text files (version.py, pyvenv.cfg, environments.txt, folder names) and the Python
// environment probe on small sysroots built in the test.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "platform/filesystem.h"
#include "probe/common/python_probe.h"

namespace gpudoctor {
namespace {

TEST(TorchVersionFile, ParsesTheGeneratedFile) {
  auto v = ParseTorchVersionFile(
      "from typing import Optional\n__all__ = ['__version__', 'debug', 'cuda']\n__version__ = '2.7.1+cu128'\n"
      "debug = False\ncuda: Optional[str] = '12.8'\ngit_version = 'abc'\nhip: Optional[str] = None\n");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->version, "2.7.1+cu128");
  EXPECT_EQ(v->cuda, "12.8");
  EXPECT_EQ(v->hip, "");
}

TEST(TorchVersionFile, OlderStyleAndRocm) {
  auto v =
      ParseTorchVersionFile("__version__ = \"2.5.1+rocm6.2\"\ncuda = None\nhip = '6.2.41133-dd7f95766'\n");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->version, "2.5.1+rocm6.2");
  EXPECT_EQ(v->cuda, "");
  EXPECT_EQ(v->hip, "6.2.41133-dd7f95766");
}

TEST(TorchVersionFile, RejectsWhatIsNotAnAssignment) {
  EXPECT_FALSE(ParseTorchVersionFile(""));
  EXPECT_FALSE(ParseTorchVersionFile("__version__ = get_version()\n"));
  auto v = ParseTorchVersionFile("__version__ = '2.6.0'\ncuda_version = '9.9'\ncuda = '12.4' # comment\n");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->cuda, "12.4");
}

TEST(TorchVersionFile, ReadsGitVersionAndDebug) {
  auto v =
      ParseTorchVersionFile("__version__ = '2.9.1+rocm6.4'\ndebug = True\ngit_version = 'd38164a545b'\n");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->git_version, "d38164a545b");
  ASSERT_TRUE(v->debug);
  EXPECT_TRUE(*v->debug);
  auto w = ParseTorchVersionFile(
      "__version__ = '1.13.0a0'\ndebug = False\ncuda = None\ngit_version = 'Unknown'\n");
  ASSERT_TRUE(w);
  EXPECT_EQ(w->debug, false);
  EXPECT_EQ(w->cuda, "");
  // A boolean where a string belongs is not a version.
  EXPECT_FALSE(ParseTorchVersionFile("__version__ = True\n"));
}

TEST(PyvenvConfig, VenvVirtualenvAndUv) {
  auto venv = ParsePyvenvConfig(
      "home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.11.2\nexecutable = "
      "/usr/bin/python3.11\n");
  EXPECT_EQ(venv.home, "/usr/bin");
  EXPECT_EQ(venv.python_version, "3.11");
  EXPECT_FALSE(venv.include_system_site_packages);
  auto uv = ParsePyvenvConfig(
      "home = /opt/py/bin\nimplementation = CPython\nversion_info = 3.12.11\n"
      "include-system-site-packages = true\nprompt = torch\n");
  EXPECT_EQ(uv.python_version, "3.12");
  EXPECT_TRUE(uv.include_system_site_packages);
  EXPECT_EQ(uv.prompt, "torch");
  auto old = ParsePyvenvConfig("version_info = 3.8.10.final.0\r\n");
  EXPECT_EQ(old.python_version, "3.8");
  EXPECT_EQ(ParsePyvenvConfig("version = three\nnonsense\n").python_version, "");
}

TEST(PythonMajorMinor, NeedsTwoNumbers) {
  EXPECT_EQ(PythonMajorMinor("3.12.1"), "3.12");
  EXPECT_EQ(PythonMajorMinor("3.10"), "3.10");
  EXPECT_FALSE(PythonMajorMinor("3"));
  EXPECT_FALSE(PythonMajorMinor("3.x"));
  EXPECT_FALSE(PythonMajorMinor("system"));
}

TEST(CondaEnvironments, OneAbsolutePathPerLine) {
  auto envs = ParseCondaEnvironments("/home/a/miniconda3\n\n  /home/a/miniconda3/envs/sd  \nrelative/x\n");
  ASSERT_EQ(envs.size(), 2u);
  EXPECT_EQ(envs[1], "/home/a/miniconda3/envs/sd");
}

TEST(PythonVersionFromFolder, OnlyPythonXY) {
  EXPECT_EQ(PythonVersionFromFolder("python3.10"), "3.10");
  EXPECT_FALSE(PythonVersionFromFolder("python3"));
  EXPECT_FALSE(PythonVersionFromFolder("python3.10-config"));
  EXPECT_FALSE(PythonVersionFromFolder("perl5"));
}

TEST(PythonProbe, FindsVirtualEnvAndUserSite) {
  namespace fs = std::filesystem;
  fs::path root =
      fs::temp_directory_path() /
      ("gpudoctor_python_probe_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  fs::remove_all(root);
  auto write = [&](const std::string& rel, const std::string& text) {
    fs::create_directories((root / rel).parent_path());
    std::ofstream(root / rel) << text;
  };
  write("work/env/lib/python3.12/site-packages/torch/version.py",
        "__version__ = '2.9.1+rocm6.4'\nhip = '6.4.1'\n");
  write("home/u/.local/lib/python3.10/site-packages/torch/version.py",
        "__version__ = '2.7.1+cpu'\ncuda = None\n");
  fs::create_directories(root / "home/u/.local/lib/python3.11/site-packages");  // no torch: not listed
  auto files = MakeRootedFileSystem(root.string());
  Environment env({{"HOME", "/home/u"}, {"VIRTUAL_ENV", "/work/env"}});
  UserIdentity id;
  Snapshot snap;
  ProbePythonEnvs(ProbeContext{*files, env, id, false}, snap);
  ASSERT_EQ(snap.python_envs.size(), 2u);
  EXPECT_EQ(snap.python_envs[0].kind, "venv");
  EXPECT_EQ(snap.python_envs[0].python_version, "3.12");
  ASSERT_TRUE(snap.python_envs[0].torch);
  EXPECT_EQ(snap.python_envs[0].torch->version, "2.9.1+rocm6.4");
  EXPECT_EQ(snap.python_envs[1].kind, "user");
  EXPECT_EQ(snap.python_envs[1].torch->version, "2.7.1+cpu");
  fs::remove_all(root);
}

}  // namespace
}  // namespace gpudoctor
