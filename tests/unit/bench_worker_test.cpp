// `gpudoctor bench` end to end through real worker processes, with no GPU: the scripted fake backend (hidden
// --fake-script) with a tiny memory so every sweep is one or two points. A crash or a hang in one benchmark
// fails that benchmark alone and the tool writes its report; a planted wrong result says FAILED on stderr
// and in the report, with exit code 1; --only, --csv and bad flags.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "bench_test_util.h"
#include "load_scaled_timeout.h"
#include "platform/process.h"
#include "unique_temp_dir.h"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;

struct BenchCommandRun {
  int exit_code = -1;
  nlohmann::json report;
  std::string stdout_text, stderr_text;
};

class BenchWorker : public ::testing::Test {
 protected:
  void SetUp() override {
    // A folder of this run's own: overlapping test runs never share the script.
    dir_ = testing::UniqueTempDir("gpudoctor_bench_worker");
    ASSERT_FALSE(dir_.empty());
    script_ = (dir_ / "fake.json").string();
  }
  void TearDown() override {
    std::error_code ec;
    if (!dir_.empty()) fs::remove_all(dir_, ec);
  }

  // Healthy benchmarks keep their own generous limits; a run that plants a hang gives every benchmark
  // `bench_timeout` seconds, so the hang is found quickly.
  BenchCommandRun Bench(const std::string& extra_script, std::vector<std::string> args, bool json = true,
                        int bench_timeout = 0) {
    std::ofstream(script_) << FakeScript(512 * 1024, extra_script);
    ProcessRequest p;
    p.argv = {GPUDOCTOR_BINARY_PATH, "bench", "--quick", "--fake-script", script_};
    if (bench_timeout > 0) {
      p.argv.push_back("--bench-timeout");
      p.argv.push_back(std::to_string(bench_timeout));
    }
    if (json) p.argv.push_back("--json");
    p.argv.insert(p.argv.end(), args.begin(), args.end());
    p.timeout = std::chrono::seconds(240);
    p.extra_env["NO_COLOR"] = "1";
    BenchCommandRun out;
    auto r = RunProcess(p);
    if (!r.ok()) return out;
    out.exit_code = r->exit_code.value_or(-1);
    out.stdout_text = r->stdout_text;
    out.stderr_text = r->stderr_text;
    if (json) out.report = nlohmann::json::parse(r->stdout_text, nullptr, false);
    return out;
  }

  static nlohmann::json Entry(const BenchCommandRun& r, const std::string& id) {
    for (const auto& b : r.report["benchmarks"])
      if (b["id"] == id) return b;
    return {};
  }
  static std::vector<std::string> Failed(const BenchCommandRun& r) {
    std::vector<std::string> out;
    for (const auto& b : r.report["benchmarks"])
      if (b["verdict"] == "failed") out.push_back(b["id"]);
    return out;
  }
  fs::path dir_;
  std::string script_;
};

TEST_F(BenchWorker, AHealthyFakeRunsEveryBenchmark) {
  BenchCommandRun r = Bench("", {});
  ASSERT_FALSE(r.report.is_discarded()) << r.stdout_text << r.stderr_text;
  EXPECT_EQ(r.exit_code, 0) << r.stdout_text;
  EXPECT_EQ(r.report["schema"], "gpudoctor.bench/1");
  EXPECT_EQ(r.report["device"]["backend"], "fake");
  EXPECT_EQ(r.report["level"], "quick");
  EXPECT_EQ(r.report["benchmarks"].size(), 17u);
  EXPECT_TRUE(Failed(r).empty()) << r.stdout_text;
  EXPECT_NE(r.stderr_text.find("memory.triad"), std::string::npos);  // progress on stderr
}

TEST_F(BenchWorker, ACrashFailsOneBenchmarkAndTheRestStillRun) {
  BenchCommandRun r = Bench(R"("crash": "copy_on_device")", {"--only", "transfer,latency"});
  ASSERT_FALSE(r.report.is_discarded()) << r.stdout_text << r.stderr_text;
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(Failed(r), std::vector<std::string>{"transfer.d2d"});
  EXPECT_NE(Entry(r, "transfer.d2d")["note"].get<std::string>().find("during transfer.d2d"),
            std::string::npos)
      << Entry(r, "transfer.d2d")["note"];
  EXPECT_EQ(Entry(r, "latency.roundtrip")["check"], "passed");
  EXPECT_EQ(r.report["benchmarks"].size(), 8u);
}

TEST_F(BenchWorker, AHangTimesOutAsOneFailedBenchmark) {
  // 4 s on an idle machine; longer under load, where the other fake benchmarks of the run take seconds.
  const int limit = testing::LoadScaledSeconds(4);
  BenchCommandRun r = Bench(R"("hang": "gemm_bf16")", {"--only", "gemm,latency"}, true, limit);
  ASSERT_FALSE(r.report.is_discarded()) << r.stdout_text << r.stderr_text;
  EXPECT_EQ(Failed(r), std::vector<std::string>{"gemm.bf16"});
  EXPECT_NE(Entry(r, "gemm.bf16")["note"].get<std::string>().find("timed out after " + std::to_string(limit) +
                                                                  " s during gemm.bf16"),
            std::string::npos)
      << Entry(r, "gemm.bf16")["note"];
  EXPECT_EQ(Entry(r, "gemm.fp16")["check"], "passed");
  EXPECT_EQ(Entry(r, "latency.submit")["check"], "passed");
}

TEST_F(BenchWorker, APlantedWrongResultFailsLoudly) {
  BenchCommandRun r = Bench("", {"--only", "memory", "--inject", "wrong-result"});
  ASSERT_FALSE(r.report.is_discarded()) << r.stdout_text << r.stderr_text;
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(Failed(r), std::vector<std::string>{"memory.triad"});
  EXPECT_EQ(Entry(r, "memory.triad")["check"].get<std::string>().rfind("failed: ", 0), 0u);
  EXPECT_NE(r.stderr_text.find("FAILED: memory.triad: wrong results"), std::string::npos) << r.stderr_text;
  EXPECT_EQ(r.report["findings"][0]["id"], "bench.wrong_results");
}

TEST_F(BenchWorker, TextAndCsvGoToStdout) {
  BenchCommandRun text = Bench("", {"--only", "latency"}, false);
  EXPECT_EQ(text.exit_code, 0) << text.stderr_text;
  EXPECT_NE(text.stdout_text.find("Kernel launch latency (lower is better), us"), std::string::npos)
      << text.stdout_text;
  EXPECT_NE(text.stdout_text.find("3 benchmarks ran, every result checked right"), std::string::npos);
  BenchCommandRun csv = Bench("", {"--only", "latency", "--csv"}, false);
  EXPECT_EQ(csv.stdout_text.rfind("id,group,title,unit,", 0), 0u) << csv.stdout_text;
  EXPECT_EQ(std::count(csv.stdout_text.begin(), csv.stdout_text.end(), '\n'), 1 + 3 * 3);
}

TEST_F(BenchWorker, BadFlagsAreExitThree) {
  EXPECT_EQ(Bench("", {"--only", "memory,disk"}).exit_code, 3);
  EXPECT_EQ(Bench("", {"--csv"}).exit_code, 3);  // --json and --csv together
}

}  // namespace
}  // namespace gpudoctor
