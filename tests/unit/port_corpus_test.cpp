// The corpus written for `gpudoctor port` (tests/port/corpus, one CUDA program per topic) is translated and
// compiled with hipcc (Debian's, `hipcc --offload-arch=gfx1030 -O0 -c`), several files at a time. Every file
// compiles except those tests/port/corpus/limitations.txt lists with the reason; a listed file that starts to
// compile fails the test too, so the list stays true. Skipped, with the reason, where hipcc is not installed.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "cli_test_util.h"
#include "platform/process.h"
#include "port/port_map.h"
#include "port/translator.h"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;

std::string ReadText(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// limitations.txt: "FILE: why it does not compile with Debian 12's HIP", one a line; '#' starts a comment.
std::map<std::string, std::string> Limitations(const fs::path& dir) {
  std::map<std::string, std::string> out;
  std::istringstream in(ReadText(dir / "limitations.txt"));
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    size_t colon = line.find(':');
    if (colon != std::string::npos) out[line.substr(0, colon)] = line.substr(colon + 1);
  }
  return out;
}

TEST(PortCorpus, TranslatedCorpusCompilesWithHipcc) {
  if (!testing::HipccRuns()) GTEST_SKIP() << testing::kNoHipcc;

  auto map = EmbeddedPortMap();
  ASSERT_TRUE(map.ok()) << map.error().message;
  const fs::path corpus = fs::path(GPUDOCTOR_SOURCE_DIR) / "tests/port/corpus";
  const fs::path out =
      fs::temp_directory_path() / ("gpudoctor_port_corpus_" + std::to_string(CurrentProcessId()));
  fs::remove_all(out);
  fs::create_directories(out);
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(corpus))
    if (e.path().extension() == ".cu") names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  ASSERT_GE(names.size(), 30u);
  for (const std::string& name : names) {
    auto t = TranslateCuda(ReadText(corpus / name), **map, {});
    ASSERT_TRUE(t.ok()) << name << ": " << t.error().message;
    std::ofstream(out / name, std::ios::binary) << t->text;
  }

  std::vector<std::string> errors(names.size());
  std::vector<bool> compiled(names.size(), false);
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i; (i = next.fetch_add(1)) < names.size();) {
      ProcessRequest r;
      r.argv = {"hipcc", "--offload-arch=gfx1030",          "-O0", "-c", (out / names[i]).string(),
                "-o",    (out / (names[i] + ".o")).string()};
      r.timeout = std::chrono::seconds(300);
      auto run = RunProcess(r);
      compiled[i] = run.ok() && run->exit_code && *run->exit_code == 0;
      if (!compiled[i]) errors[i] = run.ok() ? run->stderr_text.substr(0, 600) : run.error().message;
    }
  };
  const unsigned threads = std::max(2u, std::thread::hardware_concurrency());
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(work);
  for (std::thread& t : pool) t.join();
  fs::remove_all(out);

  const auto limits = Limitations(corpus);
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

}  // namespace
}  // namespace gpudoctor
