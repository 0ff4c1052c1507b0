// The corpus written for `gpudoctor port` (tests/port/corpus, one CUDA program per topic) is translated and
// compiled with hipcc (Debian's, `hipcc --offload-arch=gfx1030 -O0 -c`), several files at a time. Every file
// compiles except those tests/port/corpus/limitations.txt lists with the reason; a listed file that starts to
// compile fails the test too, so the list stays true. Skipped, with the reason, where hipcc is not installed.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "cli_test_util.h"
#include "platform/process.h"
#include "port/port_map.h"
#include "port/translator.h"
#include "test_common.h"

namespace gpudoctor {
namespace {

using testing::ReadFileText;

namespace fs = std::filesystem;

// limitations.txt: "FILE: why it does not compile with Debian 12's HIP", one a line; '#' starts a comment.
std::map<std::string, std::string> Limitations(const fs::path& list) {
  std::map<std::string, std::string> out;
  std::istringstream in(ReadFileText(list));
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    size_t colon = line.find(':');
    if (colon != std::string::npos) out[line.substr(0, colon)] = line.substr(colon + 1);
  }
  return out;
}

std::vector<std::string> CudaFiles(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ".cu") names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

struct Compiled {
  bool ok = false;
  std::string errors;  // the start of hipcc's output where it failed
};

// Runs hipcc with `flags` on each of `files`, several at a time.
std::vector<Compiled> CompileWithHipcc(const std::vector<fs::path>& files,
                                       const std::vector<std::string>& flags) {
  std::vector<Compiled> results(files.size());
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i; (i = next.fetch_add(1)) < files.size();) {
      ProcessRequest r;
      r.argv = {"hipcc", "--offload-arch=gfx1030"};
      r.argv.insert(r.argv.end(), flags.begin(), flags.end());
      r.argv.push_back(files[i].string());
      if (std::find(flags.begin(), flags.end(), "-c") != flags.end())
        r.argv.insert(r.argv.end(), {"-o", files[i].string() + ".o"});
      r.timeout = std::chrono::seconds(300);
      r.extra_env["TMPDIR"] = files[i].parent_path().string();  // clang leaves a folder per file there
      auto run = RunProcess(r);
      results[i].ok = run.ok() && run->exit_code && *run->exit_code == 0;
      if (!results[i].ok)
        results[i].errors = run.ok() ? run->stderr_text.substr(0, 600) : run.error().message;
    }
  };
  const unsigned threads = std::max(2u, std::thread::hardware_concurrency());
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(work);
  for (std::thread& t : pool) t.join();
  return results;
}

// Translates `names` from `from` into `to` (created), each with the built-in table.
void TranslateInto(const fs::path& from, const std::vector<std::string>& names, const fs::path& to,
                   const PortOptions& options = {}) {
  auto map = EmbeddedPortMap();
  ASSERT_TRUE(map.ok()) << map.error().message;
  fs::create_directories(to);
  for (const std::string& name : names) {
    auto t = TranslateCuda(ReadFileText(from / name), **map, options);
    ASSERT_TRUE(t.ok()) << name << ": " << t.error().message;
    std::ofstream(to / name, std::ios::binary) << t->text;
  }
}

fs::path ScratchDir(const std::string& what) {
  return fs::temp_directory_path() / ("gpudoctor_" + what + "_" + std::to_string(CurrentProcessId()));
}

TEST(PortCorpus, TranslatedCorpusCompilesWithHipcc) {
  if (!testing::HipccRuns()) GTEST_SKIP() << testing::kNoHipcc;

  const fs::path corpus = fs::path(GPUDOCTOR_SOURCE_DIR) / "tests/port/corpus";
  const fs::path out = ScratchDir("port_corpus");
  fs::remove_all(out);
  const std::vector<std::string> names = CudaFiles(corpus);
  ASSERT_GE(names.size(), 30u);
  TranslateInto(corpus, names, out);
  std::vector<fs::path> files;
  for (const std::string& name : names) files.push_back(out / name);
  const std::vector<Compiled> results = CompileWithHipcc(files, {"-O0", "-c"});
  fs::remove_all(out);
  std::vector<bool> compiled;
  std::vector<std::string> errors;
  for (const Compiled& c : results) {
    compiled.push_back(c.ok);
    errors.push_back(c.errors);
  }

  const auto limits = Limitations(corpus / "limitations.txt");
  size_t ok = 0;
  for (size_t i = 0; i < names.size(); ++i) {
    ok += compiled[i] ? 1 : 0;
    const bool listed = limits.count(names[i]) > 0;
    if (listed)
      EXPECT_FALSE(compiled[i]) << names[i]
                                << " compiles now: remove it from tests/port/corpus/limitations.txt";
    else
      EXPECT_TRUE(compiled[i]) << names[i] << " does not compile after translation:\n" << errors[i];
  }
  for (const auto& [name, why] : limits)
    EXPECT_TRUE(std::find(names.begin(), names.end(), name) != names.end())
        << "limitations.txt lists " << name;
  std::printf("port corpus: %zu of %zu translated files compile with hipcc (%.0f%%)\n", ok, names.size(),
              100.0 * static_cast<double>(ok) / static_cast<double>(names.size()));
}

// The headers of libraries Debian 12 does not package (hipBLAS, hipCUB, rocThrust, roctx, hipFFT, hipSOLVER,
// RCCL, MIOpen, rocWMMA, and NVML, which has no HIP counterpart), as a CUDA file includes them: a real-corpus
// file that includes one is scored apart. Kept in step with tests/port/real/score.sh.
bool NeedsLibraryDebianLacks(const std::string& cuda) {
  static const char* const kPrefixes[] = {"cublas",   "cub/", "thrust/", "nvtx",  "nvToolsExt", "cufft",
                                          "cusolver", "nccl", "cudnn",   "mma.h", "nvml"};
  std::istringstream in(cuda);
  for (std::string line; std::getline(in, line);) {
    size_t hash = line.find_first_not_of(" \t");
    if (hash == std::string::npos || line[hash] != '#' || line.find("include", hash) == std::string::npos)
      continue;
    size_t open = line.find_first_of("<\"", hash);
    if (open == std::string::npos) continue;
    for (const char* prefix : kPrefixes)
      if (line.compare(open + 1, std::strlen(prefix), prefix) == 0) return true;
  }
  return false;
}

struct RealScore {
  size_t compiled = 0, files = 0;              // files whose libraries Debian packages
  size_t apart_compiled = 0, apart_files = 0;  // files needing one it does not
};

// Translates and compiles one part of tests/port/real ("" the training part, "heldout/" the held-out one),
// prints each file's result and pins it against known_failures.txt (names there carry the part's prefix).
RealScore ScoreRealPart(const std::string& part, const std::map<std::string, std::string>& known) {
  const fs::path dir = fs::path(GPUDOCTOR_SOURCE_DIR) / "tests/port/real" / part;
  const fs::path out = ScratchDir("port_real") / (part.empty() ? "training" : "heldout");
  fs::remove_all(out);
  const std::vector<std::string> names = CudaFiles(dir);
  // For the HIP that compiles it (Debian 12's 5.2.3), as a user would: `port --hip-version 5.2`.
  PortOptions options;
  options.hip_version = Version::Parse("5.2");
  TranslateInto(dir, names, out, options);
  std::vector<fs::path> files;
  for (const std::string& name : names) files.push_back(out / name);
  // -fsyntax-only checks host and device code, writing nothing: 3-17% less CPU than -O0 -c (README.md).
  const std::vector<Compiled> results = CompileWithHipcc(files, {"-fsyntax-only", "-w"});
  RealScore score;
  for (size_t i = 0; i < names.size(); ++i) {
    const std::string key = part + names[i];
    const bool apart = NeedsLibraryDebianLacks(ReadFileText(dir / names[i]));
    (apart ? score.apart_files : score.files) += 1;
    (apart ? score.apart_compiled : score.compiled) += results[i].ok ? 1 : 0;
    std::printf("port real: %-70s %s%s\n", key.c_str(), results[i].ok ? "compiles" : "fails",
                apart ? " (library Debian lacks)" : "");
    if (known.count(key) > 0)
      EXPECT_FALSE(results[i].ok) << key
                                  << " compiles now: remove it from tests/port/real/known_failures.txt";
    else
      EXPECT_TRUE(results[i].ok) << key << " does not compile after translation:\n" << results[i].errors;
  }
  return score;
}

void PrintRealScore(const char* part, const RealScore& s) {
  std::printf(
      "port real corpus, %s: %zu of %zu compile (%.0f%%); needing a library Debian lacks: %zu of %zu\n", part,
      s.compiled, s.files, s.files ? 100.0 * static_cast<double>(s.compiled) / s.files : 0.0,
      s.apart_compiled, s.apart_files);
}

// tests/port/real: CUDA files from public repositories (README.md there), translated and compiled with
// Debian's hipcc; the held-out part is scored apart and port is never tuned on it. Every file's result is
// pinned by known_failures.txt: the test fails when a listed file starts to compile or an unlisted one stops.
TEST(PortRealCorpus, TranslatedFilesCompileWithHipcc) {
  if (!testing::HipccRuns()) GTEST_SKIP() << testing::kNoHipcc;

  const fs::path real = fs::path(GPUDOCTOR_SOURCE_DIR) / "tests/port/real";
  const auto known = Limitations(real / "known_failures.txt");
  const RealScore training = ScoreRealPart("", known);
  const RealScore heldout = ScoreRealPart("heldout/", known);
  fs::remove_all(ScratchDir("port_real"));
  EXPECT_GE(training.files + training.apart_files + heldout.files + heldout.apart_files, 60u);
  for (const auto& [name, why] : known)
    EXPECT_TRUE(fs::is_regular_file(real / name))
        << "known_failures.txt lists " << name << ", not in tests/port/real";
  PrintRealScore("training", training);
  PrintRealScore("held-out", heldout);
}

}  // namespace
}  // namespace gpudoctor
