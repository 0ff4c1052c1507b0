// `gpudoctor monitor` and `serve` from the command line (issue 18): replay of recorded machines of both
// vendors in JSON and CSV, no GPU, bad flags, the listen address rules.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/monitor_settings.h"
#include "platform/process.h"
#include "telemetry/telemetry_text.h"
#include "test_common.h"

namespace gpudoctor {
namespace {

using testing::kFixtures;

// Runs this build's gpudoctor with `args` in the test's own environment, for at most 20 s (cli_test_util.h's
// Gpudoctor also sets NO_COLOR=1).
ProcessResult RunGpudoctor(std::vector<std::string> args) {
  ProcessRequest req;
  req.argv = {GPUDOCTOR_BINARY_PATH};
  req.argv.insert(req.argv.end(), args.begin(), args.end());
  req.timeout = std::chrono::milliseconds(20000);
  auto r = RunProcess(req);
  EXPECT_TRUE(r.ok());
  return r.ok() ? *r : ProcessResult{};
}

TEST(MonitorCli, OnceJsonOnAnAmdMachine) {
  auto r = RunGpudoctor({"monitor", "--once", "--json", "--sysroot", kFixtures + "rx7900xtx-raphael"});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  ASSERT_EQ(std::count(r.stdout_text.begin(), r.stdout_text.end(), '\n'), 1) << r.stdout_text;
  auto line = nlohmann::json::parse(r.stdout_text, nullptr, false);
  ASSERT_FALSE(line.is_discarded()) << r.stdout_text;
  EXPECT_EQ(line["sample"], 1);
  ASSERT_EQ(line["gpus"].size(), 2u);
  const auto& dgpu = line["gpus"][0];
  EXPECT_EQ(dgpu["vendor"], "amd");
  EXPECT_EQ(dgpu["pci_bus_id"], "0000:03:00.0");
  EXPECT_NE(dgpu["name"].get<std::string>().find("7900 XTX"), std::string::npos) << dgpu["name"];
  EXPECT_EQ(dgpu["source"], "sysfs");
  EXPECT_EQ(dgpu["memory_used_bytes"], 1459617792ull);
  EXPECT_EQ(dgpu["memory_total_bytes"], 25769803776ull);
  EXPECT_EQ(dgpu["utilization_percent"], 2.0);
  EXPECT_EQ(dgpu["power_watts"], 27.0);
  EXPECT_EQ(dgpu["temperature_c"], 47.0);
  EXPECT_EQ(dgpu["temperature_hotspot_c"], 52.0);
  EXPECT_EQ(dgpu["sm_clock_mhz"], 137);
  EXPECT_EQ(dgpu["mem_clock_mhz"], 456);
  EXPECT_TRUE(dgpu["uuid"].is_null());
  EXPECT_TRUE(line["gpus"][1]["fan_rpm"].is_null());  // the iGPU has no fan of its own
  EXPECT_EQ(line["gpus"][1]["sm_clock_mhz"], 600);
}

TEST(MonitorCli, OnceJsonOnAnNvidiaMachine) {
  auto r = RunGpudoctor({"monitor", "--once", "--json", "--sysroot", kFixtures + "h100-sxm-server"});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  auto line = nlohmann::json::parse(r.stdout_text, nullptr, false);
  ASSERT_FALSE(line.is_discarded()) << r.stdout_text;
  ASSERT_EQ(line["gpus"].size(), 8u);
  const auto& g0 = line["gpus"][0];
  EXPECT_EQ(g0["vendor"], "nvidia");
  EXPECT_EQ(g0["name"], "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(g0["uuid"], "GPU-6f1d8a52-3c7e-4b19-9a0d-2e5c7b18f403");
  EXPECT_EQ(g0["source"], "nvml-recorded");
  EXPECT_EQ(g0["power_watts"], 612.418);
  EXPECT_EQ(g0["utilization_percent"], 97.0);
  EXPECT_EQ(g0["sm_clock_mhz"], 1980);
  EXPECT_EQ(g0["mem_clock_mhz"], 2619);
  EXPECT_EQ(g0["temperature_c"], 61.0);
  EXPECT_EQ(g0["processes"][0]["pid"], 48213);
  EXPECT_EQ(line["gpus"][7]["throttle_reasons"][0], "gpu_idle");
  EXPECT_TRUE(line["warnings"].empty()) << line["warnings"];
}

TEST(MonitorCli, CsvHasAHeaderAndARowPerGpuPerSample) {
  auto r = RunGpudoctor(
      {"monitor", "--csv", "--count", "2", "--interval", "0.1", "--sysroot", kFixtures + "mi300x-8gpu-node"});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  std::vector<std::string> lines;
  std::stringstream in(r.stdout_text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  ASSERT_EQ(lines.size(), 1u + 2 * 8);
  EXPECT_EQ(lines[0].rfind("sample,time_unix_ms,gpu,vendor,name,pci_bus_id,", 0), 0u);
  EXPECT_NE(lines[2].find(",1,amd,"), std::string::npos) << lines[2];
  EXPECT_NE(lines[2].find(",0000:26:00.0,"), std::string::npos);
  EXPECT_NE(lines[2].find(",133.000,39.000,39.000,34.000,,,132,1300,"), std::string::npos) << lines[2];
  EXPECT_EQ(lines[9].rfind("2,", 0), 0u);  // the second sample's rows
}

TEST(MonitorCli, PlainTextIntoAPipeIsAppendedLines) {
  auto r = RunGpudoctor(
      {"monitor", "--count", "2", "--interval", "0.1", "--sysroot", kFixtures + "rx6700xt-desktop"});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(r.stdout_text.find("\x1b["), std::string::npos);  // no cursor movement into a pipe
  EXPECT_EQ(std::count(r.stdout_text.begin(), r.stdout_text.end(), '\n'), 2);
  EXPECT_NE(r.stdout_text.find("power 9.0 W"), std::string::npos) << r.stdout_text;
  EXPECT_NE(r.stdout_text.find("sm 500 MHz"), std::string::npos) << r.stdout_text;
}

TEST(MonitorCli, NoGpuIsExitTwoAndBadFlagsExitThree) {
  auto none = RunGpudoctor({"monitor", "--once", "--sysroot", kFixtures + "vm-no-gpu"});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.stderr_text.find("No GPU to watch"), std::string::npos) << none.stderr_text;
  EXPECT_EQ(RunGpudoctor({"monitor", "--interval", "0", "--sysroot", kFixtures + "vm-no-gpu"}).exit_code, 3);
  EXPECT_EQ(RunGpudoctor({"monitor", "--once", "--count", "3"}).exit_code, 3);
  EXPECT_EQ(RunGpudoctor({"monitor", "--json", "--csv"}).exit_code, 3);
  auto all = RunGpudoctor({"serve", "--prometheus", "0.0.0.0:9400", "--sysroot", kFixtures + "vm-no-gpu"});
  EXPECT_EQ(all.exit_code, 3);
  EXPECT_NE(all.stderr_text.find("--listen-all"), std::string::npos) << all.stderr_text;
  EXPECT_EQ(RunGpudoctor({"serve", "--prometheus", "--sysroot", kFixtures + "vm-no-gpu"}).exit_code, 2);
}

// Issue 35, attempt #63: a recorded GPU name with a colour escape, an OSC title, BEL, a C1 CSI (raw and as
// UTF-8) and CR LF was quoted in --csv but reached the terminal with its control bytes.
TEST(MonitorCsv, FieldsFromTheMachineCarryNoControlBytes) {
  TelemetrySample s;
  s.device.index = 0;
  s.device.vendor = "nvidia\x1b[0m";
  s.device.name =
      "H100\x1b[31mRED\x1b]0;pwned\x07\x9b"
      "2J\xc2\x9b"
      "2J\r\nX";
  s.device.pci_address = "0000:18:00.0\x07";
  s.device.uuid = "GPU-1\x1b[2K";
  s.throttle_reasons = {
      "sw_power_cap\x9b"
      "1m"};
  std::string out = TelemetryCsvRows(1, 1796638259447, {s});
  for (size_t i = 0; i < out.size(); ++i) {
    auto c = static_cast<unsigned char>(out[i]);
    EXPECT_FALSE((c < 0x20 && c != '\n') || (c >= 0x7f && c <= 0x9f))
        << "byte " << int(c) << " at " << i << " in " << out;
  }
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << out;  // one row, no line forged
  EXPECT_NE(out.find("H100?[31mRED?]0;pwned??2J??2J??X"), std::string::npos) << out;
  EXPECT_NE(out.find(",0000:18:00.0?,"), std::string::npos) << out;
  EXPECT_NE(out.find("sw_power_cap?1m"), std::string::npos) << out;
}

TEST(MonitorSettings, IntervalsCountsAndAddresses) {
  EXPECT_DOUBLE_EQ(ParseMonitorSettings("0.5", "", false)->interval_seconds, 0.5);
  EXPECT_EQ(ParseMonitorSettings("1", "", true)->count, 1u);
  EXPECT_FALSE(ParseMonitorSettings("1", "", false)->count);
  EXPECT_FALSE(ParseMonitorSettings("0.01", "", false).ok());
  EXPECT_FALSE(ParseMonitorSettings("nan", "", false).ok());
  EXPECT_FALSE(ParseMonitorSettings("1", "0", false).ok());
  auto a = ParseListenAddress("127.0.0.1:9400", false);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->host, "127.0.0.1");
  EXPECT_EQ(a->port, 9400);
  EXPECT_EQ(ParseListenAddress("[::1]:9401", false)->host, "::1");
  EXPECT_EQ(ParseListenAddress("9402", false)->host, "127.0.0.1");
  EXPECT_EQ(ParseListenAddress(":9403", false)->host, "127.0.0.1");
  EXPECT_FALSE(ParseListenAddress("0.0.0.0:9400", false).ok());
  EXPECT_FALSE(ParseListenAddress("[::]:9400", false).ok());
  EXPECT_TRUE(ParseListenAddress("0.0.0.0:9400", true).ok());
  EXPECT_FALSE(ParseListenAddress("::1:9400", false).ok());  // IPv6 needs brackets
  EXPECT_FALSE(ParseListenAddress("127.0.0.1:70000", false).ok());
  EXPECT_FALSE(ParseListenAddress("127.0.0.1:", false).ok());
}

}  // namespace
}  // namespace gpudoctor
