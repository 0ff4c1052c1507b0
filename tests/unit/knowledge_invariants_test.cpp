// Issue 13: the invariants across knowledge files hold for today's data, and each one fails when a
// contradiction is planted into a copy of the embedded files. Also: every entry of the files the
// knowledge-data refresh owns carries a `checked` date, and the database's as-of date is the newest one.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "knowledge/knowledge_loader.h"

namespace gpudoctor {
namespace {

std::string BaseName(const std::string& path) {
  size_t slash = path.find_last_of("/\\");
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The embedded files with `text` appended to the one named `base`; the load's errors, one a line.
std::string ErrorsWithPlanted(const std::string& base, const std::string& text) {
  std::vector<KnowledgeFileText> files = EmbeddedKnowledgeTexts();
  bool found = false;
  for (KnowledgeFileText& f : files) {
    if (BaseName(f.name) != base) continue;
    f.text += "\n" + text + "\n";
    found = true;
  }
  EXPECT_TRUE(found) << base;
  std::string out;
  for (const KnowledgeError& e : ParseKnowledge(files).errors) out += e.ToString() + "\n";
  return out;
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
linux = "575.0"
source = "https://example.org/planted")");
  EXPECT_NE(errors.find("CUDA 13.9 needs Linux driver 575.0, lower than CUDA 13.4"), std::string::npos)
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
