// The numbers, sizes, durations and devices of verify, bench and collectives are parsed once into typed
// settings before any work (issue 15): one bad value per flag is refused with exit code 3, nothing on stdout,
// and a message that names the flag, the text given and what the flag accepts. A run that got past its flags
// would have printed a report (the fake script named does not exist, so a worker would fail, not refuse).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/flag_values.h"
#include "cli_test_util.h"

namespace gpudoctor {
namespace {

struct BadFlag {
  std::vector<std::string> args;
  std::string expected;  // in the error line
};

void ExpectRefused(const BadFlag& bad) {
  std::string shown;
  for (const auto& a : bad.args) shown += a + " ";
  ProcessResult r = testing::Gpudoctor(bad.args);
  EXPECT_EQ(r.exit_code, 3) << shown << r.stdout_text << r.stderr_text;
  EXPECT_EQ(r.stdout_text, "") << shown;
  EXPECT_NE(r.stderr_text.find("error: " + bad.expected), std::string::npos) << shown << r.stderr_text;
}

TEST(CommandFlags, VerifyRefusesEachBadNumberBeforeAnyWork) {
  const std::string fake = "/nonexistent/gpudoctor-fake.json";
  for (const BadFlag& bad : std::vector<BadFlag>{
           {{"verify", "--memtest-fraction", "2", "--fake-script", fake},
            "--memtest-fraction 2: not a number above 0 and at most 0.95"},
           {{"verify", "--sustain-seconds", "ten", "--fake-script", fake},
            "--sustain-seconds ten: not a number"},
           {{"verify", "--gate-timeout", "0", "--fake-script", fake}, "--gate-timeout 0: not a whole number"},
           {{"verify", "--device", "first-gpu", "--fake-script", fake}, "--device first-gpu: not a device"}})
    ExpectRefused(bad);
}

TEST(CommandFlags, BenchRefusesEachBadValueBeforeAnyWork) {
  const std::string fake = "/nonexistent/gpudoctor-fake.json";
  for (const BadFlag& bad : std::vector<BadFlag>{
           {{"bench", "--bench-timeout", "1.5", "--fake-script", fake},
            "--bench-timeout 1.5: not a whole number"},
           {{"bench", "--device", "0000:zz", "--fake-script", fake}, "--device 0000:zz: not a device"},
           {{"bench", "--only", "memory,disk", "--fake-script", fake}, "--only memory,disk: unknown group"}})
    ExpectRefused(bad);
}

TEST(CommandFlags, CollectivesRefusesEachBadValueBeforeAnyWork) {
  for (const BadFlag& bad : std::vector<BadFlag>{
           {{"collectives", "--min-bytes", "12Q"}, "--min-bytes 12Q: not a size"},
           {{"collectives", "--max-bytes", "0"}, "--max-bytes 0: not a size"},
           {{"collectives", "--p2p-bytes", "lots"}, "--p2p-bytes lots: not a size"},
           {{"collectives", "--factor", "1"}, "--factor 1: not a whole number from 2 to 1024"},
           {{"collectives", "--iters", "0"}, "--iters 0: not a whole number from 1 to 100000"},
           {{"collectives", "--warmup", "-3"}, "--warmup -3: not a whole number from 0 to 100000"},
           {{"collectives", "--gpus", "all"}, "--gpus all: not a whole number from 1 to 4096"},
           {{"collectives", "--timeout", "1h"}, "--timeout 1h: not a whole number of seconds"},
           {{"collectives", "--ops", "all_sum"}, "--ops all_sum: unknown collective"},
           {{"collectives", "--min-bytes", "2M", "--max-bytes", "1M"}, "--min-bytes 2097152 is larger than"}})
    ExpectRefused(bad);
}

TEST(FlagValues, EmptyIsNotGivenAndEachKindTakesWhatItSays) {
  EXPECT_FALSE(SizeFlag("--s", "")->has_value());
  EXPECT_EQ(**SizeFlag("--s", "64K"), 64u * 1024);
  EXPECT_EQ(**SizeFlag("--s", "1GB"), 1ull << 30);
  EXPECT_FALSE(SizeFlag("--s", "1.5M").ok());
  EXPECT_EQ(**WholeFlag("--n", "0", 0, 3), 0u);
  EXPECT_FALSE(WholeFlag("--n", "4", 0, 3).ok());
  EXPECT_DOUBLE_EQ(**NumberFlag("--f", "0.25", 0, 1), 0.25);
  EXPECT_FALSE(NumberFlag("--f", "0", 0, 1).ok());  // the lower bound is exclusive
  EXPECT_FALSE(NumberFlag("--f", "nan", 0, 1).ok());
  EXPECT_EQ(**SecondsFlag("--t", "90"), std::chrono::seconds(90));
  auto refused = SecondsFlag("--t", "86401");
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message, "--t 86401: not a whole number of seconds from 1 to 86400");
  EXPECT_EQ(refused.error().kind, ErrorKind::kUser);
}

}  // namespace
}  // namespace gpudoctor
