// Issue 13: the invariants across knowledge files hold for today's data, and each one fails when a
// contradiction is planted into a copy of the embedded files. Also: every entry of the files the
// knowledge-data refresh owns carries a `checked` date, and the database's as-of date is the newest one.
// Issue 30: the errors the audit of 2026-12-05 planted and lint missed (a since, a wheel's gfx, a driver
// typo, an index typo, a TheRock target in both lists, old dates, unconfirmed notes) are caught.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <chrono>
#include <set>

#include "core/calendar_date.h"
#include "knowledge/knowledge_lint.h"
#include "knowledge/knowledge_loader.h"
#include "knowledge_test_util.h"

namespace gpudoctor {
namespace {

using testing::DaysAfter;

std::string FileBaseName(const std::string& path) {
  size_t slash = path.find_last_of("/\\");
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The embedded files with `text` appended to the one named `base`; the load's errors, one a line.
std::string ErrorsWithPlanted(const std::string& base, const std::string& text) {
  std::vector<KnowledgeFileText> files = EmbeddedKnowledgeTexts();
  bool found = false;
  for (KnowledgeFileText& f : files) {
    if (FileBaseName(f.name) != base) continue;
    f.text += "\n" + text + "\n";
    found = true;
  }
  EXPECT_TRUE(found) << base;
  std::string out;
  for (const KnowledgeError& e : ParseKnowledge(files).errors) out += e.ToString() + "\n";
  return out;
}

// The embedded files with the first `from` in the one named `base` replaced by `to`.
std::vector<KnowledgeFileText> EmbeddedWithEdit(const std::string& base, const std::string& from,
                                                const std::string& to) {
  std::vector<KnowledgeFileText> files = EmbeddedKnowledgeTexts();
  bool found = false;
  for (KnowledgeFileText& f : files) {
    if (FileBaseName(f.name) != base) continue;
    size_t at = f.text.find(from);
    if (at == std::string::npos) continue;
    f.text.replace(at, from.size(), to);
    found = true;
  }
  EXPECT_TRUE(found) << base << ": " << from;
  return files;
}

std::string JoinedErrors(const std::vector<KnowledgeError>& errors) {
  std::string out;
  for (const KnowledgeError& e : errors) out += e.ToString() + "\n";
  return out;
}

std::string ErrorsWithEdit(const std::string& base, const std::string& from, const std::string& to) {
  return JoinedErrors(ParseKnowledge(EmbeddedWithEdit(base, from, to)).errors);
}

std::set<std::string> EmbeddedBaseNames() {
  std::set<std::string> names;
  for (const KnowledgeFileText& f : EmbeddedKnowledgeTexts()) names.insert(FileBaseName(f.name));
  return names;
}

TEST(KnowledgeInvariants, TodaysDataPasses) {
  KnowledgeLoad load = ParseKnowledge(EmbeddedKnowledgeTexts());
  std::string errors;
  for (const KnowledgeError& e : load.errors) errors += e.ToString() + "\n";
  EXPECT_TRUE(errors.empty()) << errors;
}

TEST(KnowledgeInvariants, WheelRocmVersionMustBeAReleaseSeries) {
  std::string errors = ErrorsWithPlanted("pytorch_wheels.toml", R"([[torch_wheel]]
torch = "2.14"
variant = "rocm9.9"
rocm = "9.9"
gfx = ["gfx1100"]
source = "https://example.org/planted")");
  EXPECT_NE(errors.find("ROCm 9.9 has no [[rocm_release]] series"), std::string::npos) << errors;
  EXPECT_NE(errors.find("pytorch_wheels.toml:"), std::string::npos) << errors;
}

TEST(KnowledgeInvariants, DriverFloorsMustRiseWithCuda) {
  std::string errors = ErrorsWithPlanted("cuda_drivers.toml", R"([[cuda_toolkit_driver]]
cuda = "13.9"
linux = "575.51"
source = "https://example.org/planted")");
  EXPECT_NE(errors.find("CUDA 13.9 needs Linux driver 575.51, lower than CUDA 13.4"), std::string::npos)
      << errors;
}

TEST(KnowledgeInvariants, RouteIndexMustBeAKnownVariant) {
  std::string errors = ErrorsWithPlanted("pytorch_routes.toml", R"([[torch_route]]
id = "planted"
name = "planted"
vendor = "amd"
status = "official"
os = ["linux"]
gfx_any = true
python = []
source = "https://example.org/planted"
[torch_route.install]
bash = "python3 -m pip install torch --index-url https://download.pytorch.org/whl/rocm1.0")");
  EXPECT_NE(errors.find("installs from https://download.pytorch.org/whl/rocm1.0, a variant no"),
            std::string::npos)
      << errors;
}

TEST(KnowledgeInvariants, ReleaseDatesFollowVersions) {
  std::string errors = ErrorsWithPlanted("pytorch_wheels.toml", R"([[torch_release]]
version = "2.99"
date = "2020-01-01"
python = ["3.12"]
source = "https://example.org/planted")");
  EXPECT_NE(errors.find("torch 2.99 (2020-01-01) is dated before torch 2.14"), std::string::npos) << errors;
}

TEST(KnowledgeInvariants, NoReleaseListsAGpuBeforeTheOneThatAddedIt) {
  std::string errors = ErrorsWithPlanted("rocm_releases.toml", R"([[rocm_release]]
series = "5.9"
gfx = ["gfx1201"]
points = [ { version = "5.9.0", date = "2023-11-01" } ]
source = "https://example.org/planted")");
  EXPECT_NE(errors.find("ROCm 5.9 lists gfx1201, which ROCm 6.4.1 added"), std::string::npos) << errors;
}

TEST(KnowledgeInvariants, EveryGfxIsAKnownTarget) {
  std::string errors = ErrorsWithPlanted("overrides.toml", R"([[override_pitfall]]
id = "planted"
when = "listed"
gfx = ["gfx1299"]
values = ["10.3.0"]
severity = "error"
problem = "planted"
fix = "planted"
source = "https://example.org/planted")");
  EXPECT_NE(errors.find("'gfx1299', which is not in gfx_targets.toml"), std::string::npos) << errors;
}

// Audit 2026-12-05 (a): gfx1201's first ROCm release 6.4.1 changed to 6.4.0, whose list lacks it.
TEST(KnowledgeInvariants, SinceMustComeAfterTheSeriesFirstRelease) {
  std::string errors =
      ErrorsWithEdit("rocm_releases.toml", R"(gfx1201 = "6.4.1" })", R"(gfx1201 = "6.4.0" })");
  EXPECT_NE(errors.find("since.gfx1201 = 6.4.0 is not after ROCm 6.4's first release (6.4.0)"),
            std::string::npos)
      << errors;
  EXPECT_NE(errors.find("rocm_releases.toml:"), std::string::npos) << errors;
  std::string late = ErrorsWithEdit("rocm_releases.toml", R"(gfx1201 = "6.4.1" })", R"(gfx1201 = "6.4.9" })");
  EXPECT_NE(late.find("since.gfx1201 = 6.4.9 is after the newest point release in points (6.4.4)"),
            std::string::npos)
      << late;
}

// Audit 2026-12-05 (b): gfx1200/gfx1201 re-added to torch 2.6 rocm6.2.4, whose builds lacked them.
TEST(KnowledgeInvariants, WheelCarriesOnlyTargetsItsReleaseBuilt) {
  std::string errors = ErrorsWithEdit("pytorch_wheels.toml", R"("gfx1030", "gfx1100", "gfx1101"]
note = "2.6 shipped)",
                                      R"("gfx1030", "gfx1100", "gfx1101", "gfx1200", "gfx1201"]
note = "2.6 shipped)");
  EXPECT_NE(
      errors.find("wheel 2.6 rocm6.2.4 lists gfx1200, but PyTorch's ROCm builds gained gfx1200 in torch 2.7"),
      std::string::npos)
      << errors;
  EXPECT_NE(errors.find("wheel 2.6 rocm6.2.4 lists gfx1201"), std::string::npos) << errors;
  EXPECT_NE(errors.find("[[torch_build_gfx]] at "), std::string::npos) << errors;
}

// Audit 2026-12-05 (c): 580.95.05 typed 580.95.5 (a Version drops leading zeros, so only the text tells).
TEST(KnowledgeInvariants, DriverVersionIsWrittenAsNvidiaSmiPrintsIt) {
  std::string errors = ErrorsWithEdit("cuda_drivers.toml", R"(linux = "580.95.05")", R"(linux = "580.95.5")");
  EXPECT_NE(errors.find("'linux' = \"580.95.5\" is not an NVIDIA driver version"), std::string::npos)
      << errors;
  EXPECT_NE(errors.find("cuda_drivers.toml:"), std::string::npos) << errors;
  for (std::string bad : {"58.95.05", "580.9", "580.95.05.1", "580.1234"}) {
    std::string e =
        ErrorsWithEdit("cuda_drivers.toml", R"(ga_linux = "580.65.06")", "ga_linux = \"" + bad + "\"");
    EXPECT_NE(e.find("is not an NVIDIA driver version"), std::string::npos) << bad << "\n" << e;
  }
}

// Audit 2026-12-05 (d): a typo in an index's host or path.
TEST(KnowledgeInvariants, IndexUrlsStartWithAKnownPackageIndex) {
  std::string path = ErrorsWithEdit("pytorch_routes.toml", "https://stable.repo.amd.com/rocm/whl-next/",
                                    "https://stable.repo.amd.com/rocm/whl-nxt/");
  EXPECT_NE(
      path.find("route 'amd-rocm-stable-linux' names the index https://stable.repo.amd.com/rocm/whl-nxt/, "
                "which starts with no known [[package_index]] url"),
      std::string::npos)
      << path;
  std::string host = ErrorsWithEdit("pytorch_routes.toml", "--index-url https://download.pytorch.org/whl/cpu",
                                    "--index-url https://download.pytorh.org/whl/cpu");
  EXPECT_NE(host.find("names the index https://download.pytorh.org/whl/cpu"), std::string::npos) << host;
  std::string wheel = ErrorsWithPlanted("pytorch_wheels.toml", R"([[torch_wheel]]
torch = "2.14"
variant = "rocm7.2.9"
rocm = "7.2.9"
index_url = "https://repo.amd.co/rocm/whl-multi-arch/"
gfx = ["gfx1100"]
checked = 2026-12-05
source = "https://example.org/planted")");
  EXPECT_NE(wheel.find("wheel 2.14 rocm7.2.9 names the index https://repo.amd.co/rocm/whl-multi-arch/"),
            std::string::npos)
      << wheel;
}

// Audit 2026-12-05 (e): gfx942 both release-ready and build-only.
TEST(KnowledgeInvariants, TheRockTargetIsNotBothReleaseReadyAndBuildOnly) {
  std::string errors = ErrorsWithEdit("rocm_releases.toml", R"(build_only = ["gfx950",)",
                                      R"(build_only = ["gfx942", "gfx950",)");
  EXPECT_NE(errors.find("TheRock on linux lists gfx942 as both release_ready and build_only"),
            std::string::npos)
      << errors;
}

// Audit 2026-12-05 (f): every date a year back; today's data is within the maximum age of its as-of day.
TEST(KnowledgeProvenance, CheckedOlderThanTheMaximumAgeIsAWarning) {
  KnowledgeLoad load = ParseKnowledge(EmbeddedKnowledgeTexts());
  const std::string as_of = load.db.AsOf();
  ProvenanceLint fresh = LintProvenance(load.db, EmbeddedBaseNames(), as_of);
  EXPECT_TRUE(fresh.errors.empty()) << JoinedErrors(fresh.errors);
  EXPECT_TRUE(fresh.warnings.empty()) << JoinedErrors(fresh.warnings);
  std::string oldest = as_of;
  load.db.VisitProvenance(
      [&](std::string_view, const Provenance& p) { oldest = std::min(oldest, p.checked); });
  EXPECT_TRUE(
      LintProvenance(load.db, EmbeddedBaseNames(), DaysAfter(oldest, kCheckedMaxAgeDays)).warnings.empty());
  ProvenanceLint old =
      LintProvenance(load.db, EmbeddedBaseNames(), DaysAfter(oldest, kCheckedMaxAgeDays + 1));
  ASSERT_FALSE(old.warnings.empty());
  EXPECT_TRUE(old.errors.empty()) << JoinedErrors(old.errors);
  const std::string first = old.warnings.front().ToString();
  EXPECT_NE(
      first.find("was last checked " + oldest + ", 181 days ago (more than 180): compare it with its source"),
      std::string::npos)
      << first;
}

// Audit 2026-12-05 (f): a missing checked is an error in the tables as in the explain catalog.
TEST(KnowledgeProvenance, MissingCheckedIsALintError) {
  std::vector<KnowledgeFileText> files = EmbeddedKnowledgeTexts();
  for (KnowledgeFileText& f : files)
    if (FileBaseName(f.name) == "torch_companions.toml")
      f.text +=
          "\n[[torch_companion]]\ntorch = \"2.99\"\ntorchvision = [\"0.99\"]\ntorchaudio = [\"2.11\"]\n"
          "source = \"https://example.org/planted\"\n";
  KnowledgeLoad load = ParseKnowledge(files);
  ProvenanceLint lint = LintProvenance(load.db, EmbeddedBaseNames(), load.db.AsOf());
  std::string errors = JoinedErrors(lint.errors);
  EXPECT_NE(errors.find("torch_companions.toml:"), std::string::npos) << errors;
  EXPECT_NE(errors.find("torch_companion entry has no checked date"), std::string::npos) << errors;
}

// Issue 30 item 2: a note that says the entry was not compared needs confirmed = false.
TEST(KnowledgeProvenance, UnverifiedNoteNeedsConfirmedFalse) {
  EXPECT_TRUE(NoteSaysUnverified("the arch list of this build is Not Verified"));
  EXPECT_TRUE(NoteSaysUnverified("per the audit, not re-read in this pass"));
  EXPECT_TRUE(NoteSaysUnverified("unverified: from a forum post"));
  EXPECT_FALSE(NoteSaysUnverified("verified against Table 3"));
  std::vector<KnowledgeFileText> files =
      EmbeddedWithEdit("cuda_drivers.toml", R"(note = "the 13.0 GA driver is 580.65.06")",
                       R"x(note = "the 13.0 GA driver is 580.65.06 (not re-read)")x");
  KnowledgeLoad load = ParseKnowledge(files);
  ASSERT_TRUE(load.errors.empty()) << JoinedErrors(load.errors);
  ProvenanceLint lint = LintProvenance(load.db, EmbeddedBaseNames(), load.db.AsOf());
  std::string errors = JoinedErrors(lint.errors);
  EXPECT_NE(errors.find("cuda_drivers.toml:"), std::string::npos) << errors;
  EXPECT_NE(errors.find("note says it was not verified, but it lacks confirmed = false"), std::string::npos)
      << errors;
}

TEST(KnowledgeProvenance, CheckedMustBeAFullDate) {
  std::string errors = ErrorsWithPlanted("torch_companions.toml", R"([[torch_companion]]
torch = "2.99"
torchvision = ["0.99"]
torchaudio = ["2.11"]
checked = "2026-12"
source = "https://example.org/planted")");
  EXPECT_NE(errors.find("'checked' must be a full date"), std::string::npos) << errors;
}

TEST(KnowledgeProvenance, EveryRefreshedEntryHasACheckedDateAndAsOfIsTheNewest) {
  auto db = LoadEmbeddedKnowledge();
  ASSERT_TRUE(db.ok()) << db.error().message;
  std::string newest;
  size_t dated = 0;
  db->VisitProvenance([&](std::string_view section, const Provenance& p) {
    EXPECT_FALSE(p.checked.empty()) << p.origin.file << ":" << p.origin.line << " " << section
                                    << " has no checked date";
    if (p.checked > newest) newest = p.checked;
    ++dated;
  });
  EXPECT_GT(dated, 100u);
  EXPECT_EQ(db->AsOf(), newest);
  EXPECT_EQ(db->AsOf().size(), 10u);
}

}  // namespace
}  // namespace gpudoctor
