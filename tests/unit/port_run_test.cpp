// `gpudoctor port` over files and folders: what is written where, --in-place through whole-file writes only,
// output that does not depend on the thread count, build files scanned, flags that do not go together.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "port/hipcc_check.h"
#include "port/port_report.h"
#include "port/port_run.h"
#include "port/translator.h"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;

// An in-memory file system: the run's reads and writes go here, and a write can be made to fail.
struct FakeFiles {
  std::map<std::string, std::string> files;
  std::string fail_on;

  PortIo Io() {
    PortIo io;
    io.read = [this](const std::string& p) -> Result<std::string> {
      auto it = files.find(p);
      if (it == files.end()) return UserError(p + ": no such file");
      return it->second;
    };
    io.write = [this](const std::string& p, const std::string& text, bool overwrite) -> Status {
      if (p == fail_on) return EnvError("disk full while writing " + p);
      if (!overwrite && files.count(p) > 0) return UserError(p + " already exists");
      files[p] = text;
      return Ok{};
    };
    return io;
  }
};

class PortRun : public ::testing::Test {
 protected:
  void SetUp() override {
    auto m = EmbeddedPortMap();
    ASSERT_TRUE(m.ok()) << m.error().message;
    map_ = *m;
    dir_ = fs::temp_directory_path() /
           ("gpudoctor_port_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "src/sub");
    Write("src/a.cu", "#include <cuda_runtime.h>\nvoid f(void** p) { cudaMalloc(p, 4); }\n");
    Write("src/sub/b.cuh", "// no CUDA here\nint g();\n");
    Write("src/notes.txt", "cudaMalloc\n");
    Write("src/CMakeLists.txt",
          "project(x LANGUAGES CUDA CXX)\nset(CMAKE_CUDA_FLAGS \"-arch=sm_80\")\n# nvcc in a comment\n");
  }
  void TearDown() override { fs::remove_all(dir_); }

  void Write(const std::string& rel, const std::string& text) {
    std::ofstream(dir_ / rel, std::ios::binary) << text;
  }
  // Three more sources (five in all), so that a run can be stopped in the middle.
  void AddSources() {
    for (const char* rel : {"src/c.cu", "src/d.cu", "src/sub/e.cu"})
      Write(rel,
            "__global__ void k(float* x) { x[threadIdx.x] = 0; }\n"
            "void f(void** p) { cudaMalloc(p, 4); cudaDeviceSynchronize(); }\n");
  }
  std::string Read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  PortIo DiskIo() {
    PortIo io;
    io.read = [this](const std::string& p) -> Result<std::string> { return Read(p); };
    io.write = [](const std::string& p, const std::string& text, bool overwrite) -> Status {
      if (!overwrite && fs::exists(p)) return UserError(p + " already exists");
      std::ofstream(p, std::ios::binary) << text;
      return Ok{};
    };
    return io;
  }
  // DiskIo that counts its writes in `writes` and asks the run to stop once `stop_after` are written (a
  // Ctrl-C between two files).
  PortIo StoppingIo(size_t& writes, size_t stop_after) {
    PortIo io = DiskIo();
    io.write = [&writes, write = io.write](const std::string& p, const std::string& text, bool overwrite) {
      ++writes;
      return write(p, text, overwrite);
    };
    io.stop_requested = [&writes, stop_after] { return writes >= stop_after; };
    return io;
  }

  const PortMap* map_ = nullptr;
  fs::path dir_;
};

TEST_F(PortRun, FolderIntoNewFolderKeepsLayoutAndScansBuildFiles) {
  PortJob job;
  job.input = (dir_ / "src").string();
  job.output = (dir_ / "out").string();
  auto run = RunPort(job, *map_, DiskIo());
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_EQ(Read(dir_ / "out/a.cu"), "#include <hip/hip_runtime.h>\nvoid f(void** p) { hipMalloc(p, 4); }\n");
  EXPECT_EQ(Read(dir_ / "out/sub/b.cuh"), "// no CUDA here\nint g();\n");
  EXPECT_FALSE(fs::exists(dir_ / "out/notes.txt"));
  ASSERT_EQ(run->report.files.size(), 3u);
  const PortFileReport& cmake = run->report.files[0];
  EXPECT_TRUE(cmake.build_file);
  ASSERT_EQ(cmake.findings.size(), 2u);  // the comment line is not read
  EXPECT_EQ(cmake.findings[0].name, "LANGUAGES CUDA");
  EXPECT_EQ(cmake.findings[1].line, 2u);
  EXPECT_EQ(cmake.findings[1].name, "-arch=sm_");
  EXPECT_EQ(run->report.TotalConversions().at("runtime"), 1u);
  EXPECT_EQ(PortExitCode(run->report), 1);  // build-file warnings
}

TEST_F(PortRun, ExistingOutputIsNotReplacedWithoutForce) {
  PortJob job;
  job.input = (dir_ / "src/a.cu").string();
  job.output = (dir_ / "src/sub/b.cuh").string();
  auto run = RunPort(job, *map_, DiskIo());
  ASSERT_FALSE(run.ok());
  EXPECT_NE(run.error().message.find("already exists"), std::string::npos);
  job.force = true;
  ASSERT_TRUE(RunPort(job, *map_, DiskIo()).ok());
  EXPECT_NE(Read(dir_ / "src/sub/b.cuh").find("hipMalloc"), std::string::npos);
}

TEST_F(PortRun, InPlaceWithBackupAndAFailedWriteLeavesTheOriginal) {
  FakeFiles fake;
  fake.files["k.cu"] = "void f(void** p) { cudaMalloc(p, 4); }\n";
  PortJob job;
  job.input = (dir_ / "src/a.cu").string();  // exists on disk, so the job sees a file; reads go to the fake
  fake.files[job.input] = fake.files["k.cu"];
  job.in_place = true;
  job.backup = true;
  fake.fail_on = job.input;
  auto run = RunPort(job, *map_, fake.Io());
  ASSERT_FALSE(run.ok());
  EXPECT_NE(run.error().message.find("disk full"), std::string::npos);
  EXPECT_EQ(fake.files[job.input], fake.files["k.cu"]);  // untouched: the write is whole or nothing
  fake.fail_on.clear();
  fake.files.erase(job.input + ".orig");
  run = RunPort(job, *map_, fake.Io());
  ASSERT_TRUE(run.ok()) << run.error().message;
  // The runtime include is added: nvcc gave it to a .cu file implicitly (docs/port.md).
  EXPECT_EQ(fake.files[job.input], "#include <hip/hip_runtime.h>\nvoid f(void** p) { hipMalloc(p, 4); }\n");
  EXPECT_EQ(fake.files[job.input + ".orig"], fake.files["k.cu"]);
}

TEST_F(PortRun, SingleFileGoesToStdoutAndExamineWritesNothing) {
  PortJob job;
  job.input = (dir_ / "src/a.cu").string();
  auto run = RunPort(job, *map_, DiskIo());
  ASSERT_TRUE(run.ok());
  EXPECT_NE(run->translation.find("hipMalloc"), std::string::npos);
  job.examine = true;
  run = RunPort(job, *map_, DiskIo());
  ASSERT_TRUE(run.ok());
  EXPECT_TRUE(run->translation.empty());
  EXPECT_TRUE(run->report.files[0].changed);
  EXPECT_EQ(Read(dir_ / "src/a.cu").find("hipMalloc"), std::string::npos);
}

TEST_F(PortRun, FlagsThatDoNotGoTogether) {
  PortJob job;
  job.input = (dir_ / "src").string();
  EXPECT_NE(RunPort(job, *map_, DiskIo()).error().message.find("a folder needs -o"), std::string::npos);
  job.backup = true;
  job.output = "x";
  EXPECT_FALSE(RunPort(job, *map_, DiskIo()).ok());
  job = PortJob{};
  job.input = (dir_ / "missing.cu").string();
  EXPECT_NE(RunPort(job, *map_, DiskIo()).error().message.find("no such file"), std::string::npos);
}

TEST_F(PortRun, BadFilesAreReportedNotFatal) {
  Write("src/bad.cu", "int x; /* never closed\n");
  PortJob job;
  job.input = (dir_ / "src").string();
  job.examine = true;
  auto run = RunPort(job, *map_, DiskIo());
  ASSERT_TRUE(run.ok());
  bool seen = false;
  for (const PortFileReport& f : run->report.files)
    if (f.path.find("bad.cu") != std::string::npos) {
      seen = true;
      EXPECT_NE(f.error.find("1:8: a /* comment that is never closed"), std::string::npos) << f.error;
    }
  EXPECT_TRUE(seen);
  EXPECT_EQ(PortExitCode(run->report), 3);
  EXPECT_NE(RenderPortText(run->report).find("not translated"), std::string::npos);
  EXPECT_NE(RenderPortJson(run->report).find("\"files_not_translated\": 1"), std::string::npos);
}

#ifndef _WIN32  // symbolic links need a privilege on Windows
// A source file that is a link out of the input tree (a cloned repository can hold one) is reported and
// left alone: never translated, never written beside or over its target (issue 35, attempt 39).
TEST_F(PortRun, SourceLinkedOutOfTheTreeIsSkippedAndReported) {
  const std::string victim = "#include <cuda_runtime.h>\nint main(){void*p;cudaMalloc(&p,4);}\n";
  fs::create_directories(dir_ / "victim");
  Write("victim/keep.cu", victim);
  fs::create_symlink(dir_ / "victim/keep.cu", dir_ / "src/k.cu");
  fs::create_symlink("../../victim/keep.cu", dir_ / "src/sub/rel.cu");
  for (const bool in_place : {false, true}) {
    PortJob job;
    job.input = (dir_ / "src").string();
    if (in_place)
      job.in_place = job.backup = true;
    else
      job.output = (dir_ / "src-hip").string();
    job.force = true;
    auto run = RunPort(job, *map_, DiskIo());
    ASSERT_TRUE(run.ok()) << run.error().message;
    EXPECT_EQ(Read(dir_ / "victim/keep.cu"), victim);
    EXPECT_FALSE(fs::exists(dir_ / "victim/keep.cu.orig"));
    EXPECT_FALSE(fs::exists(dir_ / "src-hip/k.cu"));
    size_t reported = 0;
    for (const PortFileReport& f : run->report.files) {
      if (f.path.find("k.cu") == std::string::npos && f.path.find("rel.cu") == std::string::npos) continue;
      ++reported;
      EXPECT_NE(f.error.find("outside"), std::string::npos) << f.path << ": " << f.error;
      EXPECT_TRUE(f.output.empty()) << f.output;
    }
    EXPECT_EQ(reported, 2u);
  }
}
#endif

// The entries of `folder` on disk, as the run's own lister reads them.
std::vector<fs::directory_entry> Entries(const std::string& folder) {
  std::vector<fs::directory_entry> out;
  for (const fs::directory_entry& e : fs::directory_iterator(folder)) out.push_back(e);
  return out;
}

// A folder of the input that cannot be listed is reported (text, JSON, exit 3) and the rest is ported
// (issue 35, attempt 41: a mode-000 folder was skipped without a word). The lister fails as a mode-000
// folder does for a user who is not root (root reads it anyway, so the permission itself is not used).
TEST_F(PortRun, FolderThatCannotBeReadIsReported) {
  fs::create_directories(dir_ / "src/locked");
  Write("src/locked/x.cu", "void f(void** p) { cudaMalloc(p, 4); }\n");
  PortIo io = DiskIo();
  io.list = [](const std::string& folder) -> Result<std::vector<fs::directory_entry>> {
    if (fs::path(folder).filename() == "locked") return UserError("Permission denied");
    return Entries(folder);
  };
  PortJob job;
  job.input = (dir_ / "src").string();
  job.output = (dir_ / "out").string();
  auto run = RunPort(job, *map_, io);
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_TRUE(fs::exists(dir_ / "out/a.cu"));
  EXPECT_FALSE(fs::exists(dir_ / "out/locked"));
  const std::string locked = (dir_ / "src/locked").generic_string();
  size_t reported = 0;
  for (const PortFileReport& f : run->report.files)
    if (f.path == locked) {
      ++reported;
      EXPECT_NE(f.error.find("cannot be read"), std::string::npos) << f.error;
      EXPECT_NE(f.error.find("Permission denied"), std::string::npos) << f.error;
    }
  EXPECT_EQ(reported, 1u);
  EXPECT_EQ(PortExitCode(run->report), 3);
  EXPECT_NE(RenderPortText(run->report).find("1 file(s) could not be translated"), std::string::npos);
  EXPECT_NE(RenderPortJson(run->report).find("\"files_not_translated\": 1"), std::string::npos);

  io.list = [](const std::string&) -> Result<std::vector<fs::directory_entry>> {
    return UserError("Permission denied");
  };
  auto top = RunPort(job, *map_, io);  // the input folder itself: nothing to port at all
  ASSERT_FALSE(top.ok());
  EXPECT_NE(top.error().message.find("cannot list"), std::string::npos) << top.error().message;
}

// -o inside the input: that folder is left out of the walk and the report says so once; -o naming the
// input folder itself is refused before anything is read (issue 35, attempt 42).
TEST_F(PortRun, OutputFolderInsideTheInputIsLeftOutAndSaidOnce) {
  PortJob job;
  job.input = (dir_ / "src").string();
  job.output = (dir_ / "src/hip").string();
  auto first = RunPort(job, *map_, DiskIo());
  ASSERT_TRUE(first.ok()) << first.error().message;
  ASSERT_EQ(first->report.notes.size(), 1u);
  EXPECT_NE(first->report.notes[0].find("lies inside the input folder"), std::string::npos);
  EXPECT_NE(RenderPortText(first->report).find("note: the output folder"), std::string::npos);
  EXPECT_TRUE(fs::exists(dir_ / "src/hip/a.cu"));
  job.force = true;
  auto second = RunPort(job, *map_, DiskIo());
  ASSERT_TRUE(second.ok()) << second.error().message;
  EXPECT_EQ(second->report.files.size(), first->report.files.size());
  EXPECT_FALSE(fs::exists(dir_ / "src/hip/hip"));

  job.output = (dir_ / "src/").string();
  job.force = false;
  auto same = RunPort(job, *map_, DiskIo());
  ASSERT_FALSE(same.ok());
  EXPECT_NE(same.error().message.find("is the input folder itself"), std::string::npos)
      << same.error().message;
  EXPECT_NE(same.error().hint.find("--in-place"), std::string::npos);
  EXPECT_NE(same.error().hint.find("-o " + (dir_ / "src-hip").string()), std::string::npos)
      << same.error().hint;
  EXPECT_EQ(Read(dir_ / "src/a.cu").find("hipMalloc"), std::string::npos);
}

// Ctrl-C stops the run between two files: the files written are whole, the report says how many, and
// the same run with --skip-existing writes the others, the same as one run that was never stopped (issue
// 35, attempt 119: the re-run refused with "already exists").
TEST_F(PortRun, InterruptedRunIsFinishedWithSkipExisting) {
  AddSources();
  size_t writes = 0;
  PortIo io = StoppingIo(writes, 2);
  PortJob job;
  job.input = (dir_ / "src").string();
  job.output = (dir_ / "out").string();
  auto stopped = RunPort(job, *map_, io);
  ASSERT_TRUE(stopped.ok()) << stopped.error().message;
  EXPECT_TRUE(stopped->report.interrupted);
  EXPECT_EQ(stopped->report.FilesWritten(), 2u);
  EXPECT_EQ(stopped->report.sources, 5u);
  EXPECT_NE(RenderPortText(stopped->report).find("stopped after writing 2 of 5"), std::string::npos);
  EXPECT_NE(RenderPortJson(stopped->report).find("\"interrupted\": true"), std::string::npos);
  size_t on_disk = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir_ / "out")) on_disk += e.is_regular_file();
  EXPECT_EQ(on_disk, 2u);

  io.stop_requested = nullptr;
  auto refused = RunPort(job, *map_, io);  // without the flag, the first existing output stops the run
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("already exists"), std::string::npos);
  EXPECT_NE(refused.error().hint.find("--skip-existing"), std::string::npos) << refused.error().hint;
  job.skip_existing = true;
  auto finished = RunPort(job, *map_, io);
  ASSERT_TRUE(finished.ok()) << finished.error().message;
  EXPECT_FALSE(finished->report.interrupted);
  EXPECT_EQ(finished->report.FilesWritten(), 3u);
  size_t kept = 0;
  for (const PortFileReport& f : finished->report.files) kept += f.kept_existing;
  EXPECT_EQ(kept, 2u);

  PortJob whole = job;  // one run never stopped: the same files, byte for byte
  whole.output = (dir_ / "whole").string();
  whole.skip_existing = false;
  ASSERT_TRUE(RunPort(whole, *map_, DiskIo()).ok());
  for (const char* rel : {"a.cu", "c.cu", "d.cu", "sub/b.cuh", "sub/e.cu"})
    EXPECT_EQ(Read(dir_ / "out" / rel), Read(dir_ / "whole" / rel)) << rel;

  job.force = true;  // --skip-existing keeps what --force would replace: they do not go together
  EXPECT_FALSE(RunPort(job, *map_, io).ok());
}

// --in-place stopped in the middle leaves a tree part HIP, part CUDA; running it again translates the
// rest, and what is HIP already comes out unchanged (not translated twice), so the tree ends as one run
// would leave it, and a third run writes nothing (issue 35, attempt 120).
TEST_F(PortRun, InterruptedInPlaceRunIsFinishedByRunningItAgain) {
  AddSources();
  fs::copy(dir_ / "src", dir_ / "whole", fs::copy_options::recursive);
  size_t writes = 0;
  PortIo io = StoppingIo(writes, 2);
  PortJob job;
  job.input = (dir_ / "src").string();
  job.in_place = true;
  auto stopped = RunPort(job, *map_, io);
  ASSERT_TRUE(stopped.ok()) << stopped.error().message;
  EXPECT_TRUE(stopped->report.interrupted);
  EXPECT_EQ(stopped->report.FilesWritten(), 2u);

  io.stop_requested = nullptr;
  auto again = RunPort(job, *map_, io);
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_FALSE(again->report.interrupted);
  PortJob whole = job;
  whole.input = (dir_ / "whole").string();
  ASSERT_TRUE(RunPort(whole, *map_, DiskIo()).ok());
  for (const char* rel : {"a.cu", "c.cu", "d.cu", "sub/b.cuh", "sub/e.cu"})
    EXPECT_EQ(Read(dir_ / "src" / rel), Read(dir_ / "whole" / rel)) << rel;
  EXPECT_NE(Read(dir_ / "src/sub/e.cu").find("hipDeviceSynchronize"), std::string::npos);
  writes = 0;
  auto third = RunPort(job, *map_, io);  // HIP source through port: nothing changes, nothing is written
  ASSERT_TRUE(third.ok()) << third.error().message;
  EXPECT_EQ(writes, 0u);
  for (const PortFileReport& f : third->report.files) EXPECT_FALSE(f.changed) << f.path;
}

TEST(PortTranslateAll, SameOutputForAnyThreadCount) {
  auto map = EmbeddedPortMap();
  ASSERT_TRUE(map.ok());
  std::vector<std::string> texts;
  for (int i = 0; i < 40; ++i)
    texts.push_back("__global__ void k" + std::to_string(i) +
                    "(float* x) { x[threadIdx.x % 32] = 0; }\n"
                    "void h(void** p) { cudaMalloc(p, " +
                    std::to_string(i) + "); cudaDeviceSynchronize(); }\n");
  auto one = TranslateAll(texts, **map, {}, 1);
  auto many = TranslateAll(texts, **map, {}, 7);
  ASSERT_EQ(one.size(), many.size());
  for (size_t i = 0; i < one.size(); ++i) {
    ASSERT_TRUE(one[i].ok() && many[i].ok());
    EXPECT_EQ(one[i]->text, many[i]->text);
    EXPECT_EQ(one[i]->report.findings.size(), many[i]->report.findings.size());
    EXPECT_NE(one[i]->text.find("hipMalloc(p, " + std::to_string(i) + ")"), std::string::npos);
  }
}

// Issue 32: a line:column of eight characters or more ran into the severity ("10850:28warning").
TEST(PortReportText, LongLineColumnKeepsASpaceBeforeTheSeverity) {
  PortReport report;
  PortFileReport f;
  f.path = "big.cu";
  f.findings.push_back(
      PortFinding{PortFindingKind::kFullMask, Severity::kWarning, 10850, 28, "0xffffffff", "m", "a"});
  f.findings.push_back(PortFinding{PortFindingKind::kWarpSize, Severity::kWarning, 7, 3, "32", "m", "a"});
  report.files.push_back(f);
  const std::string text = RenderPortText(report);
  EXPECT_NE(text.find("  10850:28 warning  full_mask"), std::string::npos) << text;
  EXPECT_NE(text.find("  7:3     warning  warp_size"), std::string::npos) << text;
}

// Issue 32 item 4: hipcc is looked for on PATH first, then HIP_PATH, ROCM_PATH, /opt/rocm and /usr/bin.
TEST(PortBuildCheck, FindsHipccInTheDocumentedOrder) {
  std::set<std::string> files;
  HipccSearch search;
  search.is_file = [&](const std::string& p) { return files.count(p) > 0; };
  search.path_env = "/home/u/bin::/usr/local/bin";
  search.hip_path = "/opt/hip/";
  search.rocm_path = "/opt/rocm-6.2";
  EXPECT_FALSE(FindHipcc(search).ok());
  EXPECT_NE(FindHipcc(search).error().message.find("no hipcc in PATH"), std::string::npos);
  files = {"/usr/bin/hipcc"};
  EXPECT_EQ(FindHipcc(search).value(), "/usr/bin/hipcc");
  files.insert("/opt/rocm-6.2/bin/hipcc");
  EXPECT_EQ(FindHipcc(search).value(), "/opt/rocm-6.2/bin/hipcc");
  files.insert("/opt/hip/bin/hipcc");
  EXPECT_EQ(FindHipcc(search).value(), "/opt/hip/bin/hipcc");
  files.insert("/usr/local/bin/hipcc");
  EXPECT_EQ(FindHipcc(search).value(), "/usr/local/bin/hipcc");
}

// The HIP release beside a hipcc: hip_version.h's three defines, in the include folder next to its bin.
TEST(PortHipVersion, HeaderBesideHipccStatesTheRelease) {
  EXPECT_EQ(HipVersionHeaderOf("/usr/bin/hipcc"), "/usr/include/hip/hip_version.h");
  EXPECT_EQ(HipVersionHeaderOf("/opt/rocm-6.2/bin/hipcc"), "/opt/rocm-6.2/include/hip/hip_version.h");
  EXPECT_EQ(HipVersionHeaderOf("C:\\AMD\\ROCm\\6.1\\bin\\hipcc.bat"),
            "C:\\AMD\\ROCm\\6.1/include/hip/hip_version.h");
  const auto debian = ParseHipVersionHeader(
      "#define HIP_VERSION_MAJOR 5\n#define HIP_VERSION_MINOR 2\n#define HIP_VERSION_PATCH 21153\n"
      "#define HIP_VERSION    (HIP_VERSION_MAJOR * 10000000 + HIP_VERSION_MINOR * 100000 + "
      "HIP_VERSION_PATCH)\n");
  ASSERT_TRUE(debian);
  EXPECT_EQ(debian->ToString(), "5.2.21153");
  EXPECT_EQ(ParseHipVersionHeader("#define HIP_VERSION_MINOR 4\n#define HIP_VERSION_MAJOR 6\n")->ToString(),
            "6.4");
  EXPECT_FALSE(ParseHipVersionHeader("#define HIP_VERSION_MAJOR 6\n"));  // no minor: not a release
  EXPECT_FALSE(ParseHipVersionHeader("// HIP_VERSION_MAJOR 6\nint x;\n"));
}

// Each translated source is compiled once with -c --offload-arch; headers, build files and files that could
// not be translated are not; the compiler's first error line is what the report keeps.
TEST(PortBuildCheck, CompilesEachSourceAndKeepsTheFirstError) {
  PortReport report;
  auto file = [&](std::string path, std::string output) {
    PortFileReport f;
    f.path = std::move(path);
    f.output = std::move(output);
    report.files.push_back(f);
  };
  file("src/a.cu", "out/a.cu");
  file("src/b.cpp", "out/b.cpp");
  file("src/k.cuh", "out/k.cuh");
  file("src/c.cu", "");  // --in-place, unchanged: the file itself
  std::vector<std::vector<std::string>> calls;
  std::vector<std::string> temp_dirs;
  PortProcessRunner run = [&](const ProcessRequest& r) -> Result<ProcessResult> {
    calls.push_back(r.argv);
    temp_dirs.push_back(r.extra_env.count("TMPDIR") ? r.extra_env.at("TMPDIR") : "(none)");
    ProcessResult p;
    p.exit_code = r.argv[4] == "out/b.cpp" ? 1 : 0;
    if (*p.exit_code != 0)
      p.stderr_text =
          "In file included from out/b.cpp:1:\nout/b.cpp:3:7: error: unknown type name 'float4'\n1 error\n";
    return p;
  };
  CheckBuild({"/usr/bin/hipcc", "gfx90a", {"out"}, true, "/tmp/scratch-1"}, run, report);
  ASSERT_EQ(calls.size(), 3u);
  EXPECT_EQ(temp_dirs, (std::vector<std::string>(3, "/tmp/scratch-1")));  // hipcc's litter goes there
  EXPECT_EQ(calls[0], (std::vector<std::string>{"/usr/bin/hipcc", "-c", "--offload-arch=gfx90a", "-Iout",
                                                "out/a.cu", "-o", calls[0].back()}));
  EXPECT_EQ(calls[2][4], "src/c.cu");
  ASSERT_TRUE(report.files[0].build && report.files[1].build && report.files[3].build);
  EXPECT_FALSE(report.files[2].build.has_value());
  EXPECT_TRUE(report.files[0].build->compiled);
  EXPECT_FALSE(report.files[1].build->compiled);
  EXPECT_EQ(report.files[1].build->first_error, "out/b.cpp:3:7: error: unknown type name 'float4'");
  ASSERT_TRUE(report.build_check.has_value());
  EXPECT_EQ(report.build_check->files, 3u);
  EXPECT_EQ(report.build_check->compiled, 2u);
  EXPECT_EQ(PortExitCode(report), 2);
  const std::string text = RenderPortText(report);
  EXPECT_NE(text.find("  hipcc: does not compile: out/b.cpp:3:7: error: unknown type name 'float4'\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("build:     2 of 3 source(s) compile with /usr/bin/hipcc -c --offload-arch=gfx90a"),
            std::string::npos)
      << text;
  EXPECT_NE(RenderPortJson(report).find("\"compiled\": false"), std::string::npos);
}

// Issue 32 item 1: nvcc includes its runtime before every .cu file and hipcc does not, so port adds
// hip/hip_runtime.h where kernels, launches or device types are used and nothing includes it yet: before the
// first #include, else before the first line of code; never in plain host code.
TEST(PortRuntimeInclude, AddedOnlyWhereDeviceCodeLacksIt) {
  auto map = EmbeddedPortMap();
  ASSERT_TRUE(map.ok());
  auto translate = [&](const std::string& text) { return TranslateCuda(text, **map, {}).value(); };

  auto kernel = translate("// scale\n__global__ void k(float* x) { x[threadIdx.x] = 0; }\n");
  EXPECT_TRUE(kernel.report.runtime_include_added);
  EXPECT_EQ(kernel.text,
            "// scale\n#include <hip/hip_runtime.h>\n__global__ void k(float* x) { x[threadIdx.x] = 0; }\n");
  EXPECT_EQ(kernel.report.conversions.at("implicit"), 1u);

  auto cg = translate("#pragma once\n#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n");
  EXPECT_EQ(
      cg.text,
      "#pragma once\n#include <hip/hip_runtime.h>\n#include <hip/hip_cooperative_groups.h>\nnamespace cg = "
      "cooperative_groups;\n");

  auto has = translate("#include <cuda_runtime.h>\n__global__ void k() {}\n");
  EXPECT_FALSE(has.report.runtime_include_added);
  EXPECT_EQ(has.text, "#include <hip/hip_runtime.h>\n__global__ void k() {}\n");

  auto host = translate("#include <vector>\nint add(int a, int b) { return a + b; }\n");
  EXPECT_FALSE(host.report.runtime_include_added);
  EXPECT_FALSE(host.report.changed);
}

// Found by fuzz/port_fuzz.cpp while building issue 32: a dropped mask argument written across the first
// #include swallowed the added include (reported added, never written), and a cg::plus<T>() over two lines
// became a one-line lambda. Either moved every later line.
TEST(PortRuntimeInclude, NothingSwallowsTheIncludeOrMovesALine) {
  auto map = EmbeddedPortMap();
  ASSERT_TRUE(map.ok());
  auto lines = [](const std::string& s) { return std::count(s.begin(), s.end(), '\n'); };
  const std::string masked =
      "__device__ int f(int v) { return __shfl_sync(0xffffffff +\n#include <x.h>\n1, v, 0); }\n";
  auto t = TranslateCuda(masked, **map, {}).value();
  EXPECT_TRUE(t.report.runtime_include_added);
  EXPECT_EQ(t.text.rfind("#include <hip/hip_runtime.h>\n", 0), 0u) << t.text;
  EXPECT_EQ(lines(t.text), lines(masked) + 1) << t.text;

  const std::string split =
      "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\nauto op = cg::plus<\nfloat>();\n";
  auto u = TranslateCuda(split, **map, {}).value();
  EXPECT_EQ(lines(u.text), lines(split) + 1) << u.text;
  EXPECT_NE(u.text.find("cg::plus<\nfloat>()"), std::string::npos) << u.text;
  ASSERT_EQ(u.report.findings.size(), 1u);
  EXPECT_EQ(u.report.findings[0].kind, PortFindingKind::kCooperativeGroups);
  EXPECT_EQ(u.report.findings[0].line, 3u);
}

}  // namespace
}  // namespace gpudoctor
