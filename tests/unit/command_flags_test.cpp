// The numbers, sizes, durations and devices of verify, bench and collectives are parsed once into typed
// settings before any work (issue 15): one bad value per flag is refused with exit code 3, nothing on stdout,
// and a message that names the flag, the text given and what the flag accepts. A run that got past its flags
// would have printed a report (the fake script named does not exist, so a worker would fail, not refuse).
// Then every command's valued flags (issue 34 item 6), one bad value each: exit code 3 (gpudoctor's code for
// bad flags, docs/check.md), nothing on stdout, the flag and the text in an `error:` line, and no exception.
// The choice flags are checked by ChoiceFlag after parsing (cli/main.cpp), the numbers, dates and devices by
// each command before any probe or worker.
#include <gtest/gtest.h>

#include <array>
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
  EXPECT_EQ(r.stderr_text.find("internal error"), std::string::npos) << shown << r.stderr_text;
  EXPECT_EQ(r.stderr_text.find("terminate called"), std::string::npos) << shown << r.stderr_text;
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
const std::vector<BadFlag>& EveryCommandsBadValues() {
  static const std::vector<BadFlag> table = {
      {{"verify", "--level", "fast"}, "--level fast: not one of quick, standard, long"},
      {{"verify", "--level", ""}, "--level '': not one of quick, standard, long"},
      {{"verify", "--backend", "cuda9"}, "--backend cuda9: not one of auto, cuda, hip"},
      {{"bench", "--backend", "opencl"}, "--backend opencl: not one of auto, cuda, hip"},
      {{"bench", "--inject", "crash"}, "--inject crash: not one of none, wrong-result"},
      {{"collectives", "--launcher", "slurm"}, "--launcher slurm: not one of auto, local, mpi"},
      {{"collectives", "--backend", "x"}, "--backend x: not one of auto, cuda, hip"},
      {{"check", "--shell", "zsh"}, "--shell zsh: not one of auto, bash, powershell, cmd"},
      {{"check", "--today", "2026-13-45"}, "--today 2026-13-45: not a date; give YYYY-MM-DD"},
      {{"db", "show", "--today", "tomorrow"}, "--today tomorrow: not a date"},
      {{"targets", "--wheel-toml", "w.whl", "--checked", "yesterday"}, "--checked yesterday: not a date"},
      {{"setup", "--installer", "brew"}, "--installer brew: not one of auto, pip, uv, conda"},
      {{"setup", "--shell", "fish"}, "--shell fish: not one of auto, bash, powershell, cmd"},
      {{"setup", "--device", "first-gpu"}, "--device first-gpu: not a device index or a PCI address"},
      {{"report", "--shell", "tcsh"}, "--shell tcsh: not one of auto, bash, powershell, cmd"},
      {{"tune", "--shell", "fish"}, "--shell fish: not one of auto, bash, powershell, cmd"},
      {{"tune", "--max-batch", "0"}, "--max-batch 0: not a whole number from 1 to 1000000"},
      {{"tune", "--timeout", "10m"}, "--timeout 10m: not a whole number of seconds"},
      {{"tune", "--device", "gpu"}, "--device gpu: not a GPU number"},
      {{"port", "/nonexistent/a.cu", "--threads", "0"}, "--threads 0: not a whole number from 1 to 1024"},
      {{"monitor", "--interval", "0"}, "--interval 0: not a number of seconds from 0.1 to 86400"},
      {{"monitor", "--count", "many"}, "--count many: not a whole number"},
      {{"serve", "--prometheus", "99999"}, "address 99999: the port must be 1 to 65535"},
      {{"fleet", "merge", "/nonexistent", "--threshold", "100"}, "--threshold 100: not a percentage"},
      {{"fleet", "split", "/nonexistent"}, "ACTION split: not one of merge"},
      {{"completions", "tcsh"}, "SHELL tcsh: not one of bash, zsh, fish, powershell"},
  };
  return table;
}

TEST(EveryCommandFlags, EachBadValueStopsItsCommandNamingTheFlag) {
  for (const BadFlag& bad : EveryCommandsBadValues()) ExpectRefused(bad);
}

// A choice flag lists its words in --help, since the check moved from CLI11 to ChoiceFlag.
TEST(EveryCommandFlags, HelpListsEachChoiceFlagsWords) {
  ProcessResult r = testing::Gpudoctor({"verify", "--help"});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_NE(r.stdout_text.find("--level quick|standard|long"), std::string::npos) << r.stdout_text;
}

// A word of the set still runs its command: the check refuses only what is outside it.
TEST(EveryCommandFlags, GoodChoicesPassTheCheck) {
  ProcessResult fish = testing::Gpudoctor({"completions", "fish"});
  EXPECT_EQ(fish.exit_code, 0) << fish.stderr_text;
  EXPECT_NE(fish.stdout_text.find("complete -c gpudoctor"), std::string::npos);
  ProcessResult check = testing::Gpudoctor({"check", "--shell", "cmd"});
  EXPECT_NE(check.exit_code, 3) << check.stderr_text;
  EXPECT_EQ(check.stderr_text.find("--shell"), std::string::npos) << check.stderr_text;
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

TEST(FlagValues, ChoiceTakesOnlyItsWordsAndListsThem) {
  const std::vector<std::string> levels = {"quick", "standard", "long"};
  EXPECT_FALSE(ChoiceFlag("--level", "", levels)->has_value());
  EXPECT_EQ(**ChoiceFlag("--level", "long", levels), "long");
  EXPECT_FALSE(ChoiceFlag("--level", "Long", levels).ok());  // exact words only
  auto refused = ChoiceFlag("--level", "fast", levels);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message, "--level fast: not one of quick, standard, long");
  EXPECT_EQ(refused.error().kind, ErrorKind::kUser);
}

enum class Fruit { kApple, kPear };
constexpr std::array<EnumName<Fruit>, 2> kFruitNames = {{{Fruit::kApple, "apple"}, {Fruit::kPear, "pear"}}};

TEST(FlagValues, ChoiceReadsAnEnumNameTableAsItsValues) {
  EXPECT_EQ(ChoiceWords(kFruitNames), (std::vector<std::string>{"apple", "pear"}));
  EXPECT_EQ(**ChoiceFlag("--fruit", "pear", kFruitNames), Fruit::kPear);
  EXPECT_FALSE(ChoiceFlag("--fruit", "", kFruitNames)->has_value());
  auto refused = ChoiceFlag("--fruit", "plum", kFruitNames);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message, "--fruit plum: not one of apple, pear");
}

TEST(FlagValues, DateTakesOnlyRealDays) {
  EXPECT_FALSE(DateFlag("--today", "")->has_value());
  EXPECT_EQ(**DateFlag("--today", "2026-12-05"), "2026-12-05");
  EXPECT_FALSE(DateFlag("--today", "2026-02-30").ok());
  EXPECT_FALSE(DateFlag("--today", "12/05/2026").ok());
  auto refused = DateFlag("--today", "soon");
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message, "--today soon: not a date; give YYYY-MM-DD (2026-12-05)");
}

}  // namespace
}  // namespace gpudoctor
