// The project pin files (probe/common/project_pins.h, issue 30 item 5): each kind of file with the shapes its
// tool and its guides write, comments, markers, URLs, -r includes and broken input; and the probe that finds
// them beside a venv and above the current folder (probe/common/project_probe.h) on small sysroots.
#include <gtest/gtest.h>

#include "probe/common/project_pins.h"
#include "probe/common/project_probe.h"
#include "probe/common/python_probe.h"
#include "probe_sysroot_builder.h"

namespace gpudoctor {
namespace {

const std::vector<std::string> kWanted = {"torch",           "torchvision", "torchaudio", "flash-attn",
                                          "onnxruntime-gpu", "jax",         "jaxlib"};

PinFileContents Parse(PinFileKind kind, std::string_view text) {
  return ParsePinFile(kind, "/p/file", text, kWanted);
}

TEST(ProjectPins, FileKindsByName) {
  EXPECT_EQ(PinFileKindOf("requirements.txt"), PinFileKind::kRequirements);
  EXPECT_EQ(PinFileKindOf("requirements-gpu.txt"), PinFileKind::kRequirements);
  EXPECT_EQ(PinFileKindOf("pyproject.toml"), PinFileKind::kPyproject);
  EXPECT_EQ(PinFileKindOf("uv.lock"), PinFileKind::kUvLock);
  EXPECT_EQ(PinFileKindOf("poetry.lock"), PinFileKind::kPoetryLock);
  EXPECT_EQ(PinFileKindOf("environment.yaml"), PinFileKind::kCondaEnvironment);
  EXPECT_FALSE(PinFileKindOf("notes.txt"));
  EXPECT_FALSE(PinFileKindOf("setup.cfg"));
}

TEST(ProjectPins, RequirementsWithIndexCommentsMarkersAndUrls) {
  auto c = Parse(PinFileKind::kRequirements,
                 "# the GPU stack\n"
                 "--index-url https://download.pytorch.org/whl/cu124\n"
                 "numpy==2.2.6\n"
                 "torch==2.5.1+cu124 ; sys_platform == \"linux\"  # pinned by hand\n"
                 "TorchVision >= 0.20\n"
                 "torchaudio @ https://download.pytorch.org/whl/cu124/torchaudio-2.5.1%2Bcu124-cp312-cp312-"
                 "linux_x86_64.whl\n"
                 "https://example.org/wheels/flash_attn-2.7.0.post2-cp312-cp312-linux_x86_64.whl\n"
                 "jax[cuda12]==0.4.30 \\\n"
                 "    --hash=sha256:abc\n"
                 "onnxruntime-gpu#not a comment\n");
  ASSERT_EQ(c.pins.size(), 5u);
  EXPECT_EQ(c.pins[0].package, "torch");
  EXPECT_EQ(c.pins[0].line, 4u);
  EXPECT_EQ(c.pins[0].spec, "==2.5.1+cu124");
  EXPECT_EQ(c.pins[0].marker, "sys_platform == \"linux\"");
  EXPECT_EQ(c.pins[0].text, "torch==2.5.1+cu124 ; sys_platform == \"linux\"");
  EXPECT_EQ(c.pins[0].index_url, "https://download.pytorch.org/whl/cu124");
  EXPECT_EQ(c.pins[0].file, "/p/file");
  EXPECT_EQ(c.pins[1].package, "torchvision");
  EXPECT_EQ(c.pins[1].spec, ">=0.20");
  EXPECT_EQ(c.pins[2].package, "torchaudio");
  EXPECT_EQ(c.pins[2].spec,
            "@ https://download.pytorch.org/whl/cu124/torchaudio-2.5.1%2Bcu124-cp312-cp312-linux_x86_64.whl");
  EXPECT_EQ(c.pins[3].package, "flash-attn");  // from the wheel's file name
  EXPECT_EQ(c.pins[3].spec, "==2.7.0.post2");
  EXPECT_EQ(c.pins[4].package, "jax");  // continued line: the line it starts on
  EXPECT_EQ(c.pins[4].line, 8u);
  EXPECT_EQ(c.pins[4].spec, "==0.4.30");
  // "onnxruntime-gpu#not a comment" is no requirement (a '#' needs white space before it to start a comment).
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_NE(c.warnings[0].find("/p/file:10"), std::string::npos) << c.warnings[0];
}

TEST(ProjectPins, RequirementsIncludesAndExtraIndex) {
  auto c = Parse(PinFileKind::kRequirements,
                 "-r base.txt\n--constraint=constraints.txt\ntorch==2.7.1+cpu\n"
                 "--extra-index-url https://download.pytorch.org/whl/cpu\n");
  EXPECT_EQ(c.includes, (std::vector<std::string>{"base.txt", "constraints.txt"}));
  ASSERT_EQ(c.pins.size(), 1u);
  // pip applies the file's index options to every requirement, wherever they stand.
  EXPECT_EQ(c.pins[0].index_url, "https://download.pytorch.org/whl/cpu");
}

TEST(ProjectPins, PyprojectDependenciesAndUvSources) {
  auto c = Parse(PinFileKind::kPyproject,
                 "[project]\n"
                 "name = \"demo\"\n"
                 "dependencies = [\n"
                 "  \"numpy>=2\",\n"
                 "  \"torch==2.7.1\",  # the [ in a comment is no array\n"
                 "  'torchvision>=0.22; sys_platform != \"darwin\"',\n"
                 "]\n"
                 "[project.optional-dependencies]\n"
                 "jax = [\"jax[cuda12]>=0.4\"]\n"
                 "\n"
                 "[tool.uv.sources]\n"
                 "torch = [\n"
                 "  { index = \"pytorch-cpu\", marker = \"sys_platform == 'linux'\" },\n"
                 "]\n"
                 "torchvision = { index = \"pytorch-cpu\" }\n"
                 "\n"
                 "[[tool.uv.index]]\n"
                 "name = \"pytorch-cpu\"\n"
                 "url = \"https://download.pytorch.org/whl/cpu\"\n"
                 "explicit = true\n");
  EXPECT_TRUE(c.uv);
  EXPECT_FALSE(c.poetry);
  ASSERT_EQ(c.pins.size(), 5u);
  EXPECT_EQ(c.pins[0].package, "torch");
  EXPECT_EQ(c.pins[0].line, 5u);
  EXPECT_EQ(c.pins[0].spec, "==2.7.1");
  EXPECT_EQ(c.pins[0].index_url, "");  // the [tool.uv.sources] line names the index: that line is its pin
  EXPECT_EQ(c.pins[1].package, "torchvision");
  EXPECT_EQ(c.pins[1].marker, "sys_platform != \"darwin\"");
  EXPECT_EQ(c.pins[2].package, "jax");
  EXPECT_EQ(c.pins[2].line, 9u);
  EXPECT_EQ(c.pins[3].package, "torch");  // the [tool.uv.sources] entry
  EXPECT_EQ(c.pins[3].line, 13u);
  EXPECT_EQ(c.pins[3].spec, "");
  EXPECT_EQ(c.pins[3].marker, "sys_platform == 'linux'");
  EXPECT_EQ(c.pins[3].index_url, "https://download.pytorch.org/whl/cpu");
  EXPECT_EQ(c.pins[4].line, 15u);
  EXPECT_TRUE(c.warnings.empty());
}

TEST(ProjectPins, PoetryDependenciesWithASource) {
  auto c = Parse(PinFileKind::kPyproject,
                 "[tool.poetry.dependencies]\n"
                 "python = \"^3.11\"\n"
                 "torch = { version = \"2.1.0+cpu\", source = \"pytorch\" }\n"
                 "torchaudio = \"2.1.0\"\n"
                 "[tool.poetry.group.gpu.dependencies]\n"
                 "flash-attn = \"^2.5\"\n"
                 "[[tool.poetry.source]]\n"
                 "name = \"pytorch\"\n"
                 "url = \"https://download.pytorch.org/whl/cpu\"\n"
                 "priority = \"explicit\"\n");
  EXPECT_TRUE(c.poetry);
  ASSERT_EQ(c.pins.size(), 3u);
  EXPECT_EQ(c.pins[0].spec, "==2.1.0+cpu");
  EXPECT_EQ(c.pins[0].index_url, "https://download.pytorch.org/whl/cpu");
  EXPECT_EQ(c.pins[1].spec, "==2.1.0");  // a bare version is exactly that one
  EXPECT_EQ(c.pins[1].index_url, "");
  EXPECT_EQ(c.pins[2].package, "flash-attn");
  EXPECT_EQ(c.pins[2].spec, "^2.5");
}

TEST(ProjectPins, UvLockAndPoetryLock) {
  auto uv = Parse(PinFileKind::kUvLock,
                  "version = 1\n"
                  "[[package]]\n"
                  "name = \"numpy\"\n"
                  "version = \"2.2.6\"\n"
                  "source = { registry = \"https://pypi.org/simple\" }\n"
                  "\n"
                  "[[package]]\n"
                  "name = \"torch\"\n"
                  "version = \"2.7.1+cpu\"\n"
                  "source = { registry = \"https://download.pytorch.org/whl/cpu\" }\n"
                  "dependencies = [\n"
                  "    { name = \"filelock\" },\n"
                  "]\n");
  ASSERT_EQ(uv.pins.size(), 1u);
  EXPECT_EQ(uv.pins[0].line, 9u);
  EXPECT_EQ(uv.pins[0].spec, "==2.7.1+cpu");
  EXPECT_EQ(uv.pins[0].text, "version = \"2.7.1+cpu\"");
  EXPECT_EQ(uv.pins[0].index_url, "https://download.pytorch.org/whl/cpu");
  auto poetry = Parse(PinFileKind::kPoetryLock,
                      "[[package]]\n"
                      "name = \"torch\"\n"
                      "version = \"2.1.0+cpu\"\n"
                      "\n"
                      "[package.source]\n"
                      "type = \"legacy\"\n"
                      "url = \"https://download.pytorch.org/whl/cpu\"\n"
                      "reference = \"pytorch\"\n");
  ASSERT_EQ(poetry.pins.size(), 1u);
  EXPECT_EQ(poetry.pins[0].line, 3u);
  EXPECT_EQ(poetry.pins[0].index_url, "https://download.pytorch.org/whl/cpu");
}

TEST(ProjectPins, CondaEnvironmentWithChannelsAndPip) {
  auto c = Parse(PinFileKind::kCondaEnvironment,
                 "name: ml\n"
                 "channels:\n"
                 "  - pytorch\n"
                 "  - conda-forge\n"
                 "dependencies:\n"
                 "  - python=3.11\n"
                 "  - pytorch=2.1.0  # the CPU one\n"
                 "  - cpuonly\n"
                 "  - pytorch::torchvision\n"
                 "  - pip\n"
                 "  - pip:\n"
                 "    - --extra-index-url https://download.pytorch.org/whl/cu121\n"
                 "    - flash-attn==2.5.0\n");
  ASSERT_EQ(c.pins.size(), 4u);
  EXPECT_EQ(c.pins[0].package, "torch");
  EXPECT_EQ(c.pins[0].spec, "=2.1.0");
  EXPECT_EQ(c.pins[0].line, 7u);
  EXPECT_EQ(c.pins[0].index_url, "https://conda.anaconda.org/pytorch");
  EXPECT_EQ(c.pins[1].package, "torch");
  EXPECT_EQ(c.pins[1].spec, "cpuonly");
  EXPECT_EQ(c.pins[2].package, "torchvision");
  EXPECT_EQ(c.pins[3].package, "flash-attn");
  EXPECT_EQ(c.pins[3].line, 13u);
  EXPECT_EQ(c.pins[3].index_url, "https://download.pytorch.org/whl/cu121");
}

TEST(ProjectPins, MalformedInputGivesWarningsNotCrashes) {
  auto arr = Parse(PinFileKind::kPyproject, "[project]\ndependencies = [\n  \"torch==2.5\",\n");
  ASSERT_EQ(arr.pins.size(), 1u);
  ASSERT_EQ(arr.warnings.size(), 1u);
  EXPECT_NE(arr.warnings[0].find("/p/file:2: array not closed"), std::string::npos) << arr.warnings[0];
  auto bin = Parse(PinFileKind::kRequirements, std::string_view("torch\0\x01", 7));
  EXPECT_TRUE(bin.pins.empty());
  ASSERT_EQ(bin.warnings.size(), 1u);
  auto junk = Parse(PinFileKind::kRequirements, "torch[cuda\n== 2\n-i\n");
  EXPECT_TRUE(junk.pins.empty());
  EXPECT_EQ(junk.warnings.size(), 2u);
  // Found by fuzz/project_pins_fuzz.cpp: a key with no value, and a ".whl" line whose file name is no name.
  EXPECT_TRUE(Parse(PinFileKind::kPyproject, "[tool.uv.sources]\ntorch =\n").pins.empty());
  EXPECT_FALSE(ParseRequirement(".-1.0-py3-none-any.whl"));
  for (auto kind : {PinFileKind::kUvLock, PinFileKind::kPoetryLock, PinFileKind::kCondaEnvironment})
    EXPECT_TRUE(Parse(kind, "[[package\n\"\nname = \"torch\n  - pip:\n-").pins.size() <= 1u);
}

TEST(ProjectPins, RequirementLines) {
  auto r = ParseRequirement("Flash_Attn (>=2.5, <3)");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->package, "flash-attn");
  EXPECT_EQ(r->spec, ">=2.5,<3");
  EXPECT_FALSE(ParseRequirement("-e ."));
  EXPECT_FALSE(ParseRequirement("torch == 2.5 $(evil)"));
  r = ParseRequirement("torch @ https://h/x.whl ; python_version >= '3.10'");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->spec, "@ https://h/x.whl");
  EXPECT_EQ(r->marker, "python_version >= '3.10'");
}

// ---- the probe ----

using testing::SysrootBuilder;

Snapshot ProbeWith(const SysrootBuilder& r, const std::string& cwd, std::vector<PythonEnv> envs,
                   std::map<std::string, std::string> vars = {{"HOME", "/home/u"}}) {
  auto fs = MakeRootedFileSystem(r.root());
  Environment env(std::move(vars));
  UserIdentity id;
  ProbeContext ctx{*fs, env, id};
  ctx.cwd = cwd;
  Snapshot snap;
  snap.os.family = OsFamily::kLinux;
  snap.python_envs = std::move(envs);
  ProbeProjects(ctx, snap);
  return snap;
}

PythonEnv PythonVenv(const std::string& prefix, std::vector<std::string> found_by = {"PATH"}) {
  PythonEnv e;
  e.path = prefix;
  e.kind = "venv";
  e.found_by = std::move(found_by);
  return e;
}

TEST(ProjectProbe, FilesBesideTheVenvAndIncludesOneLevelDeep) {
  SysrootBuilder r;
  r.Write("/home/u/proj/requirements.txt", "-r requirements/gpu.txt\nnumpy\n");
  r.Write("/home/u/proj/requirements/gpu.txt", "torch==2.7.1+cpu\n-r deeper.txt\n");
  r.Write("/home/u/proj/requirements/deeper.txt", "torchvision==0.22.1+cpu\n");
  r.Write("/home/u/proj/uv.lock", "[[package]]\nname = \"torch\"\nversion = \"2.7.1+cpu\"\n");
  r.Write("/home/u/proj/notes.txt", "torch==1.0\n");
  Snapshot s = ProbeWith(r, "", {PythonVenv("/home/u/proj/.venv")});
  ASSERT_TRUE(s.python_envs[0].project);
  const PythonProject& p = *s.python_envs[0].project;
  EXPECT_EQ(p.folder, "/home/u/proj");
  EXPECT_EQ(p.manager, "uv");  // uv.lock outranks requirements.txt
  EXPECT_EQ(p.files, (std::vector<std::string>{"/home/u/proj/requirements.txt",
                                               "/home/u/proj/requirements/gpu.txt", "/home/u/proj/uv.lock"}));
  ASSERT_EQ(p.pins.size(), 2u);
  EXPECT_EQ(p.pins[0].file, "/home/u/proj/requirements/gpu.txt");
  EXPECT_EQ(p.pins[1].file, "/home/u/proj/uv.lock");
}

TEST(ProjectProbe, CurrentFolderAndParentsUpToHomeForTheEnvironmentInUse) {
  SysrootBuilder r;
  r.Write("/home/u/work/app/requirements.txt", "torch==2.7.1+cpu\n");
  r.Write("/home/u/work/environment.yml", "dependencies:\n  - cpuonly\n");
  r.Write("/home/requirements.txt", "torch==1.0\n");  // above home: not read
  PythonEnv active = PythonVenv("/home/u/.venvs/a", {"VIRTUAL_ENV"});
  active.active = true;
  Snapshot s = ProbeWith(r, "/home/u/work/app", {PythonVenv("/opt/other/.venv"), active});
  EXPECT_FALSE(s.python_envs[0].project);  // neither active nor in the current folder
  ASSERT_TRUE(s.python_envs[1].project);
  const PythonProject& p = *s.python_envs[1].project;
  EXPECT_EQ(p.folder, "/home/u/work/app");
  EXPECT_EQ(p.manager, "pip");
  ASSERT_EQ(p.pins.size(), 2u);
  EXPECT_EQ(p.pins[1].file, "/home/u/work/environment.yml");
  EXPECT_EQ(p.pins[1].spec, "cpuonly");
}

TEST(ProjectProbe, NoFilesNoProjectAndBrokenFilesWarn) {
  SysrootBuilder r;
  r.Mkdir("/home/u/proj/.venv");
  Snapshot none = ProbeWith(r, "/home/u/proj", {PythonVenv("/home/u/proj/.venv", {"current folder"})});
  EXPECT_FALSE(none.python_envs[0].project);
  r.Write("/home/u/proj/pyproject.toml", "[project]\ndependencies = [\n\"torch\"\n");
  Snapshot broken = ProbeWith(r, "/home/u/proj", {PythonVenv("/home/u/proj/.venv", {"current folder"})});
  ASSERT_TRUE(broken.python_envs[0].project);
  ASSERT_EQ(broken.warnings.size(), 1u);
  EXPECT_NE(broken.warnings[0].find("pyproject.toml:2: array not closed"), std::string::npos);
}

TEST(ProjectProbe, PackagesFromTheKnowledgeBase) {
  auto none = PinnedPackages(nullptr);
  EXPECT_EQ(none, (std::vector<std::string>{"torch", "torchvision", "torchaudio"}));
}

}  // namespace
}  // namespace gpudoctor
