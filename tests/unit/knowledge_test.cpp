// Tests of the knowledge base: the data files themselves (sources, unique ids, references between
// files, spot checks a ROCm/CUDA expert would make), the embedded copy, and the loader's errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "knowledge/knowledge_db.h"
#include "knowledge/knowledge_loader.h"
#include "knowledge/version.h"
#include "knowledge_test_util.h"
#include "test_common.h"
#include "unique_temp_dir.h"

namespace gpudoctor {
namespace {

using testing::ReadFileText;
using testing::V;

namespace fs = std::filesystem;

const std::string kDataDir = std::string(GPUDOCTOR_SOURCE_DIR) + "/data";

// Loaded once per test; loading takes a few milliseconds.
KnowledgeDb LoadOrDie() {
  auto db = LoadEmbeddedKnowledge();
  EXPECT_TRUE(db.ok()) << (db.ok() ? "" : db.error().message);
  return db.ok() ? std::move(db).value() : KnowledgeDb{};
}

void WriteText(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
}

// 1-based line of the first occurrence of `needle` in `text`.
uint32_t LineOf(const std::string& text, const std::string& needle) {
  size_t pos = text.find(needle);
  EXPECT_NE(pos, std::string::npos) << needle;
  return static_cast<uint32_t>(std::count(text.begin(), text.begin() + static_cast<long>(pos), '\n') + 1);
}

// A copy of data/ in a fresh temporary folder, removed at the end of the test.
class TempDataDir {
 public:
  TempDataDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = testing::ProcessTempPath("knowledge_" + std::string(info->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    for (const auto& e : fs::directory_iterator(kDataDir))
      if (e.is_regular_file() && e.path().extension() == ".toml")
        fs::copy_file(e.path(), dir_ / e.path().filename());
  }
  ~TempDataDir() { fs::remove_all(dir_); }
  fs::path path(const std::string& name) const { return dir_ / name; }
  std::string dir() const { return dir_.string(); }

  // Replaces the first `from` in `file` by `to`; returns the line where it was.
  uint32_t Edit(const std::string& file, const std::string& from, const std::string& to) {
    std::string text = ReadFileText(path(file));
    uint32_t line = LineOf(text, from);
    text.replace(text.find(from), from.size(), to);
    WriteText(path(file), text);
    return line;
  }

 private:
  fs::path dir_;
};

// The errors of loading `dir`, one a line.
std::string LoadErrors(const std::string& dir) {
  auto files = ReadKnowledgeDir(dir);
  if (!files) return files.error().message;
  std::string out;
  for (const KnowledgeError& e : ParseKnowledge(*files).errors) out += e.ToString() + "\n";
  return out;
}

TEST(KnowledgeVersion, ParsesAndCompares) {
  EXPECT_EQ(V("6.2.4").parts(), (std::vector<uint32_t>{6, 2, 4}));
  EXPECT_EQ(V("2.9.1").ToString(), "2.9.1");
  EXPECT_EQ(V("535.54.03").patch(), 3u);
  EXPECT_EQ(V("535.54.03").ToString(), "535.54.03");
  EXPECT_EQ(V("13"), V("13.0"));
  EXPECT_LT(V("6.2"), V("6.2.4"));
  EXPECT_LT(V("2.9.1"), V("2.10"));
  EXPECT_GT(V("535.104"), V("535.54.03"));
  EXPECT_TRUE(V("2.7.1").HasPrefix(V("2.7")));
  EXPECT_FALSE(V("2.70").HasPrefix(V("2.7")));
  EXPECT_FALSE(V("7.14").HasPrefix(V("7.1")));
  for (const char* bad : {"", "6.", ".6", "v6", "6.x", "1.2.3.4.5", "6..2", "1234567890", "6.2 "}) {
    EXPECT_FALSE(Version::Parse(bad)) << bad;
  }
}

TEST(KnowledgeDecode, KfdVersionsAndOverrides) {
  EXPECT_EQ(GfxNameFromKfdVersion(100300), "gfx1030");
  EXPECT_EQ(GfxNameFromKfdVersion(90010), "gfx90a");
  EXPECT_EQ(GfxNameFromKfdVersion(90012), "gfx90c");
  EXPECT_EQ(GfxNameFromKfdVersion(110501), "gfx1151");
  EXPECT_EQ(GfxNameFromKfdVersion(120001), "gfx1201");
  EXPECT_FALSE(GfxNameFromKfdVersion(0));  // a CPU node
  EXPECT_EQ(GfxNameFromOverride("10.3.0"), "gfx1030");
  EXPECT_EQ(GfxNameFromOverride("9.0.10"), "gfx90a");
  EXPECT_EQ(GfxNameFromOverride("11.0.0"), "gfx1100");
  for (const char* bad : {"10.3", "gfx1030", "64.0.0", "10.3.0.0", "10.3.x", "", "10.256.0"}) {
    EXPECT_FALSE(GfxNameFromOverride(bad)) << bad;
  }
}

TEST(KnowledgeEmbedded, LoadsCleanAndMatchesDataFolder) {
  KnowledgeDb embedded = LoadOrDie();
  auto from_dir = LoadKnowledgeFromDir(kDataDir);
  ASSERT_TRUE(from_dir.ok()) << from_dir.error().message;
  EXPECT_EQ(from_dir->origin, std::string(kDataDir) + " over embedded");
  from_dir->origin = embedded.origin;
  EXPECT_TRUE(embedded == *from_dir) << "rebuild: the embedded copy differs from data/";
  std::set<std::string> on_disk;
  for (const auto& e : fs::directory_iterator(kDataDir)) {
    if (e.path().extension() == ".toml") on_disk.insert(e.path().filename().string());
  }
  EXPECT_EQ(std::set<std::string>(embedded.files.begin(), embedded.files.end()), on_disk);

  std::map<std::string, int> total, unconfirmed;
  embedded.VisitProvenance([&](std::string_view section, const Provenance& p) {
    ++total[std::string(section)];
    if (!p.confirmed) ++unconfirmed[std::string(section)];
  });
  int all = 0, unsure = 0;
  for (const auto& [section, n] : total) {
    std::cout << "  " << section << ": " << n << " entries, " << unconfirmed[section] << " unconfirmed\n";
    all += n;
    unsure += unconfirmed[section];
  }
  std::cout << "  total: " << all << " entries, " << unsure << " unconfirmed\n";
}

TEST(KnowledgeData, EveryEntryHasSourcesAndAnOrigin) {
  KnowledgeDb db = LoadOrDie();
  int entries = 0;
  db.VisitProvenance([&](std::string_view section, const Provenance& p) {
    ++entries;
    ASSERT_FALSE(p.sources.empty()) << section << " at " << p.origin.file << ":" << p.origin.line;
    for (const std::string& s : p.sources) {
      EXPECT_TRUE(s.rfind("https://", 0) == 0 || s.rfind("http://", 0) == 0) << s;
    }
    EXPECT_GT(p.origin.line, 0u);
    EXPECT_FALSE(p.origin.file.empty());
    if (!p.confirmed) {
      EXPECT_FALSE(p.note.empty()) << p.origin.file << ":" << p.origin.line;
    }
  });
  EXPECT_GT(entries, 400);
}

TEST(KnowledgeData, IdsAreUnique) {
  KnowledgeDb db = LoadOrDie();
  std::set<std::pair<uint32_t, uint32_t>> pci;
  for (const AmdPciDevice& d : db.amd_devices) {
    EXPECT_TRUE(pci.insert({d.device_id, 0x100}).second) << d.device_id;  // 0x100: the device-level name
    for (const AmdRevisionName& r : d.revisions) EXPECT_TRUE(pci.insert({d.device_id, r.revision}).second);
  }
  std::set<std::string> gfx, wheels, models;
  for (const GpuTarget& t : db.gfx_targets) EXPECT_TRUE(gfx.insert(t.name).second) << t.name;
  for (const TorchWheel& w : db.torch_wheels) {
    EXPECT_TRUE(wheels.insert(w.torch.ToString() + "/" + w.variant).second) << w.variant;
  }
  for (const AmdGpuModel& m : db.amd_models) EXPECT_TRUE(models.insert(m.name).second) << m.name;
  std::set<uint32_t> nvidia;
  for (const NvidiaGpuModel& g : db.nvidia_gpus) EXPECT_TRUE(nvidia.insert(g.device_id).second) << g.name;
}

TEST(KnowledgeData, EveryGfxNamedExists) {
  KnowledgeDb db = LoadOrDie();
  auto known = [&](const std::string& g) { return db.FindGfxTarget(g) != nullptr; };
  for (const AmdPciDevice& d : db.amd_devices) EXPECT_TRUE(known(d.gfx)) << d.gfx;
  for (const AmdGpuModel& m : db.amd_models) EXPECT_TRUE(known(m.gfx)) << m.gfx;
  for (const TorchWheel& w : db.torch_wheels) {
    for (const std::string& g : w.gfx) EXPECT_TRUE(known(g)) << g << " in torch " << w.variant;
  }
  for (const RocmRelease& r : db.rocm_releases) {
    for (const std::string& g : r.gfx) EXPECT_TRUE(known(g)) << g;
  }
  for (const GpuTarget& t : db.gfx_targets) {
    // kfd_version 0: a target KFD has no device for (Southern Islands, Bonaire, Kabini, Stoney).
    if (t.kfd_version != 0) {
      EXPECT_EQ(GfxNameFromKfdVersion(t.kfd_version), t.name);
    }
    if (t.override_value.empty()) continue;
    auto target = GfxNameFromOverride(t.override_value);
    ASSERT_TRUE(target) << t.name;
    EXPECT_TRUE(known(*target)) << t.name << " -> " << *target;
  }
  for (const OverrideRule& r : db.override_rules) {
    auto target = GfxNameFromOverride(r.value);
    ASSERT_TRUE(target) << r.value;
    EXPECT_TRUE(known(*target)) << r.value;
  }
}

TEST(KnowledgeData, AmdSpotChecks) {
  KnowledgeDb db = LoadOrDie();
  const GpuTarget* gfx1031 = db.FindGfxTarget("gfx1031");
  ASSERT_NE(gfx1031, nullptr);
  EXPECT_EQ(gfx1031->override_value, "10.3.0");
  EXPECT_EQ(gfx1031->family, GfxFamily::kRdna2);
  EXPECT_EQ(db.FindGfxTargetByKfdVersion(90010)->name, "gfx90a");
  EXPECT_TRUE(db.FindGfxTarget("gfx1010")->override_value.empty());  // RDNA1 has no override route

  auto xtx = db.FindAmdModel(0x744C, 0xC8);
  ASSERT_TRUE(xtx);
  EXPECT_EQ(xtx->name, "Radeon RX 7900 XTX");
  EXPECT_TRUE(xtx->revision_known);
  ASSERT_NE(xtx->model, nullptr);
  EXPECT_EQ(xtx->model->compute_units, 96u);
  EXPECT_EQ(xtx->target->name, "gfx1100");
  auto unknown_rev = db.FindAmdModel(0x744C, 0x01);
  ASSERT_TRUE(unknown_rev);
  EXPECT_FALSE(unknown_rev->revision_known);
  EXPECT_EQ(db.FindAmdModel(0x73DF, 0xC1)->name, "Radeon RX 6700 XT");
  EXPECT_EQ(db.FindAmdModel(0x7551, 0xC0)->name, "Radeon AI PRO R9700");  // not an RX 9070
  EXPECT_TRUE(db.FindAmdModel(0x1586, 0xC1)->device->integrated);
  EXPECT_FALSE(db.FindAmdModel(0x0001, std::nullopt));

  const RocmRelease* r64 = db.FindRocmRelease(V("6.4.2"));
  ASSERT_NE(r64, nullptr);
  EXPECT_EQ(r64->series, V("6.4"));
  EXPECT_NE(std::find(r64->gfx.begin(), r64->gfx.end(), "gfx1201"), r64->gfx.end());
  EXPECT_EQ(std::find(r64->gfx.begin(), r64->gfx.end(), "gfx906"), r64->gfx.end());
  // Issue 13: RX 9000 and gfx1101 arrive in 6.4.1 (the matrix's 6.4.1 column), not 6.4.2.
  EXPECT_EQ(r64->since.at("gfx1201"), V("6.4.1"));
  EXPECT_EQ(r64->since.at("gfx1101"), V("6.4.1"));
  const RocmRelease* r714 = db.FindRocmRelease(V("7.14.1"));
  ASSERT_NE(r714, nullptr);
  EXPECT_EQ(r714->series, V("7.14"));
  for (const char* g : {"gfx1030", "gfx1102", "gfx1103", "gfx1150", "gfx1151", "gfx1152", "gfx1153"})
    EXPECT_NE(std::find(r714->gfx.begin(), r714->gfx.end(), g), r714->gfx.end()) << g;
  EXPECT_EQ(std::find(r714->gfx.begin(), r714->gfx.end(), "gfx1250"), r714->gfx.end());  // not on the list
  EXPECT_EQ(db.FindRocmRelease(V("10.0.0"))->series, V("10.0"));
  // torch 2.6's rocm6.2.4 wheels predate gfx1102 and gfx12 (pytorch PRs #147761, #148562).
  const TorchWheel* w26 = db.FindTorchWheel(V("2.6"), "rocm6.2.4");
  ASSERT_NE(w26, nullptr);
  EXPECT_FALSE(WheelHasGfx(*w26, "gfx1102"));
  EXPECT_FALSE(WheelHasGfx(*w26, "gfx1201"));
  EXPECT_TRUE(WheelHasGfx(*db.FindTorchWheel(V("2.7"), "rocm6.2.4"), "gfx1201"));
  const TorchWheel* w214 = db.FindTorchWheel(V("2.14"), "rocm7.14");
  ASSERT_NE(w214, nullptr);
  EXPECT_TRUE(WheelHasGfx(*w214, "gfx1103"));
  EXPECT_FALSE(WheelHasGfx(*w214, "gfx906"));

  const OverrideRule* rule = db.FindOverrideRule("gfx1032");
  ASSERT_NE(rule, nullptr);
  EXPECT_EQ(rule->value, "10.3.0");
  EXPECT_EQ(rule->verdict, OverrideVerdict::kWorks);
  EXPECT_EQ(db.FindPitfall("rdna1-no-override")->severity, Severity::kError);
  EXPECT_EQ(db.FindTheRockFamilies("gfx1151").size(), 2u);  // gfx115X-all and its own legacy index
}

TEST(KnowledgeData, TorchAndCudaSpotChecks) {
  KnowledgeDb db = LoadOrDie();
  const TorchWheel* cu128 = db.FindTorchWheel(V("2.7"), "cu128");
  ASSERT_NE(cu128, nullptr);
  EXPECT_EQ(WheelSupportsCc(*cu128, V("12.0")), CcSupport::kExactCubin);
  EXPECT_EQ(WheelSupportsCc(*cu128, V("6.1")), CcSupport::kNone);
  EXPECT_EQ(WheelSupportsCc(*cu128, V("7.0")), CcSupport::kNone);  // 2.7 cu128 dropped Volta
  EXPECT_EQ(WheelSupportsCc(*cu128, V("8.9")), CcSupport::kCompatibleCubin);
  EXPECT_EQ(cu128->index_url, "https://download.pytorch.org/whl/cu128");

  const TorchWheel* cu126 = db.FindTorchWheel(V("2.6.0"), "cu126");
  ASSERT_NE(cu126, nullptr);
  std::vector<std::string> archs;
  for (const CompiledCudaArch& a : cu126->cuda_archs)
    archs.push_back(a.cc.ToString() + (a.ptx ? "+PTX" : ""));
  EXPECT_EQ(archs, (std::vector<std::string>{"5.0", "6.0", "7.0", "7.5", "8.0", "8.6", "9.0"}));
  EXPECT_EQ(WheelSupportsCc(*cu126, V("6.1")), CcSupport::kCompatibleCubin);  // GTX 10xx via sm_60
  EXPECT_EQ(WheelSupportsCc(*cu126, V("12.0")), CcSupport::kNone);
  EXPECT_EQ(cu126->python.front(), "3.9");

  const TorchWheel* cu130 = db.FindTorchWheel(V("2.9.1"), "cu130");
  ASSERT_NE(cu130, nullptr);
  EXPECT_EQ(WheelSupportsCc(*cu130, V("12.1")), CcSupport::kCompatibleCubin);
  EXPECT_EQ(WheelSupportsCc(*cu130, V("13.0")), CcSupport::kPtxJit);

  const TorchWheel* rocm72 = db.FindTorchWheel(V("2.11"), "rocm7.2");
  ASSERT_NE(rocm72, nullptr);
  EXPECT_TRUE(WheelHasGfx(*rocm72, "gfx1151"));
  EXPECT_FALSE(WheelHasGfx(*rocm72, "gfx1031"));
  EXPECT_EQ(db.FindTorchWheels(V("2.7.1")).size(), 5u);
  EXPECT_TRUE(db.FindTorchWheels(V("1.13")).empty());

  auto floor13 = db.CudaDriverFloor(V("13.0"));
  ASSERT_TRUE(floor13);
  EXPECT_EQ(floor13->minor_compat->linux_driver, V("580"));
  ASSERT_NE(floor13->toolkit, nullptr);
  EXPECT_EQ(floor13->toolkit->linux_driver, V("580.95.05"));  // 13.0 Update 2
  EXPECT_EQ(floor13->toolkit->ga_linux, V("580.65.06"));
  // CUDA 13.4's notes name a branch, R615, not a version; floors keep rising with the CUDA version.
  auto floor134 = db.CudaDriverFloor(V("13.4"));
  ASSERT_TRUE(floor134 && floor134->toolkit);
  EXPECT_EQ(floor134->minor_compat->linux_driver, V("580"));
  EXPECT_EQ(floor134->toolkit->linux_driver, V("615"));
  EXPECT_EQ(floor134->toolkit->windows_driver, V("615"));
  EXPECT_GT(*floor134->toolkit->linux_driver, *db.CudaDriverFloor(V("13.3"))->toolkit->linux_driver);
  auto floor124 = db.CudaDriverFloor(V("12.4"));
  ASSERT_TRUE(floor124);
  EXPECT_EQ(floor124->minor_compat->linux_driver, V("525.60.13"));
  EXPECT_EQ(floor124->minor_compat->windows_driver, V("528.33"));
  EXPECT_EQ(floor124->toolkit->linux_driver, V("550.54"));
  EXPECT_FALSE(db.CudaDriverFloor(V("7.5")));
  // Before CUDA 11 only the toolkit's own row exists (Table 3): old CUDA images still ask for them.
  const CudaToolkitDriver* cuda92 = nullptr;
  for (const auto& t : db.cuda_toolkit_drivers)
    if (t.cuda == V("9.2")) cuda92 = &t;
  ASSERT_NE(cuda92, nullptr);
  EXPECT_EQ(cuda92->linux_driver, V("396.37"));  // 9.2.148 Update 1
  EXPECT_EQ(cuda92->ga_linux, V("396.26"));

  const NvidiaGpuModel* h100 = db.FindNvidiaModel(0x2330);
  ASSERT_NE(h100, nullptr);
  EXPECT_EQ(h100->cc, V("9.0"));
  EXPECT_DOUBLE_EQ(h100->bf16_tflops.value(), 989.4);
  EXPECT_DOUBLE_EQ(h100->bandwidth_gbs.value(), 3350);
  const NvidiaGpuModel* h200 = db.FindNvidiaModel(0x2335);
  ASSERT_NE(h200, nullptr);
  EXPECT_EQ(h200->vram_gib, 141u);
  EXPECT_EQ(h200->bf16_tflops, h100->bf16_tflops);
  EXPECT_EQ(SmName(V("8.9")), "sm_89");

  const TorchRoute* multi = db.FindRoute("therock-multi-arch");
  ASSERT_NE(multi, nullptr);
  EXPECT_NE(multi->install.bash.find("device-{gfx}"), std::string::npos);
  EXPECT_FALSE(multi->install.powershell.empty());
}

TEST(KnowledgeLoaderErrors, SyntaxErrorNamesFileAndLine) {
  TempDataDir tmp;
  uint32_t line = tmp.Edit("gfx_targets.toml", "name = \"gfx1031\"", "name = = \"gfx1031\"");
  std::string errors = LoadErrors(tmp.dir());
  EXPECT_NE(errors.find(tmp.path("gfx_targets.toml").string() + ":" + std::to_string(line) + ": TOML syntax"),
            std::string::npos)
      << errors;
}

TEST(KnowledgeLoaderErrors, MissingSourceNamesEntry) {
  TempDataDir tmp;
  std::string text = ReadFileText(tmp.path("gpus_amd_specs.toml"));
  uint32_t entry_line = LineOf(text, "[[amd_model]]\nname = \"Radeon RX 6700 XT\"");
  size_t at = text.find("source", text.find("name = \"Radeon RX 6700 XT\""));
  text.erase(at, text.find('\n', at) - at);
  WriteText(tmp.path("gpus_amd_specs.toml"), text);
  std::string errors = LoadErrors(tmp.dir());
  EXPECT_NE(errors.find(tmp.path("gpus_amd_specs.toml").string() + ":" + std::to_string(entry_line) +
                        ": entry 'Radeon RX 6700 XT' has no source"),
            std::string::npos)
      << errors;
}

TEST(KnowledgeLoaderErrors, DuplicateIdNamesBothPlaces) {
  TempDataDir tmp;
  std::string text = ReadFileText(tmp.path("gpus_amd.toml"));
  uint32_t first = LineOf(text, "device_id = 0x744C") - 1;
  uint32_t dup = static_cast<uint32_t>(std::count(text.begin(), text.end(), '\n')) + 2;
  text +=
      "\n[[amd_device]]\ndevice_id = 0x744C\nname = \"copy\"\ngfx = \"gfx1100\"\nsource = "
      "\"https://example.org\"\n";
  WriteText(tmp.path("gpus_amd.toml"), text);
  std::string errors = LoadErrors(tmp.dir());
  std::string file = tmp.path("gpus_amd.toml").string();
  EXPECT_NE(
      errors.find(file + ":" + std::to_string(dup) + ": AMD device '0x744c' is defined twice (first at " +
                  file + ":" + std::to_string(first) + ")"),
      std::string::npos)
      << errors;
}

TEST(KnowledgeLoaderErrors, WrongTypeAndUnknownFieldAndBadReference) {
  TempDataDir tmp;
  uint32_t type_line = tmp.Edit("gpus_nvidia.toml", "sms = 132", "sms = \"132\"");
  uint32_t typo_line = tmp.Edit("gpus_amd_specs.toml", "compute_units = 96", "compute_unit = 96");
  uint32_t ref_line = tmp.Edit("gpus_amd.toml", "gfx = \"gfx1201\"", "gfx = \"gfx1299\"") - 4;
  std::string errors = LoadErrors(tmp.dir());
  EXPECT_NE(errors.find(tmp.path("gpus_nvidia.toml").string() + ":" + std::to_string(type_line) +
                        ": entry 'H100 SXM5 80GB': 'sms' must be an integer, found string"),
            std::string::npos)
      << errors;
  EXPECT_NE(errors.find(":" + std::to_string(typo_line) +
                        ": entry 'Radeon RX 7900 XTX': unknown field 'compute_unit'"),
            std::string::npos)
      << errors;
  EXPECT_NE(errors.find(tmp.path("gpus_amd.toml").string() + ":" + std::to_string(ref_line) +
                        ": gfx names 'gfx1299', which is not in gfx_targets.toml"),
            std::string::npos)
      << errors;
}

// [[fix_ranking]]: an unknown kind, a kind twice, a target ranked in two rows and a second row for every
// target are each an error naming the line.
TEST(KnowledgeLoaderErrors, FixRankingKindsAndRows) {
  TempDataDir kind;
  const uint32_t entry = LineOf(ReadFileText(kind.path("overrides.toml")), "[[fix_ranking]]\nsituation");
  kind.Edit("overrides.toml", "order = [\"native-build\", \"override\", \"community-build\"]",
            "order = [\"native-build\", \"overide\"]");
  std::string errors = LoadErrors(kind.dir());
  EXPECT_NE(errors.find("overrides.toml:" + std::to_string(entry) + ": entry 'code-lacks-target'"),
            std::string::npos)
      << errors;
  EXPECT_NE(errors.find("order names 'overide'"), std::string::npos) << errors;

  TempDataDir twice;
  twice.Edit("overrides.toml", "order = [\"native-build\", \"override\", \"community-build\"]",
             "order = [\"override\", \"override\"]");
  errors = LoadErrors(twice.dir());
  EXPECT_NE(errors.find("order names 'override' twice"), std::string::npos) << errors;

  TempDataDir ranked_twice;
  ranked_twice.Edit("overrides.toml", "gfx = [\"gfx1035\", \"gfx1036\", \"gfx1103\"",
                    "gfx = [\"gfx1031\", \"gfx1035\", \"gfx1036\", \"gfx1103\"");
  ranked_twice.Edit("overrides.toml", "situation = \"code-lacks-target\"\norder",
                    "situation = \"code-lacks-target\"\ngfx = [\"gfx1031\"]\norder");
  errors = LoadErrors(ranked_twice.dir());
  EXPECT_NE(errors.find("gfx1031 is ranked twice"), std::string::npos) << errors;

  TempDataDir two_defaults;
  two_defaults.Edit("overrides.toml",
                    "gfx = [\"gfx1035\", \"gfx1036\", \"gfx1103\", \"gfx1152\", \"gfx1153\", \"gfx1200\", "
                    "\"gfx90c\", \"gfx902\", \"gfx904\"]\n",
                    "");
  errors = LoadErrors(two_defaults.dir());
  EXPECT_NE(errors.find("a second row for every target"), std::string::npos) << errors;
}

TEST(KnowledgeLoaderErrors, KernelFloorNeedsAVersionAndKnownTargets) {
  TempDataDir tmp;
  uint32_t version_line =
      tmp.Edit("rocm_releases.toml", "min_kernel = \"6.18.4\"", "min_kernel = \"recent\"");
  std::string errors = LoadErrors(tmp.dir());
  EXPECT_NE(errors.find(tmp.path("rocm_releases.toml").string() + ":" + std::to_string(version_line)),
            std::string::npos)
      << errors;
  EXPECT_NE(errors.find("min_kernel"), std::string::npos) << errors;

  TempDataDir other;
  other.Edit("rocm_releases.toml", "gfx = [\"gfx1151\"]\nmin_kernel", "gfx = [\"gfx1159\"]\nmin_kernel");
  errors = LoadErrors(other.dir());
  EXPECT_NE(errors.find("gfx names 'gfx1159', which is not in gfx_targets.toml"), std::string::npos)
      << errors;
}

// Issue 13: the architectures only the open kernel modules drive name a known [[cuda_arch]] architecture;
// a misspelt one, a last_for naming none, or a first_branch the branch table lacks, is an error.
TEST(KnowledgeData, OpenModulesOnlyForBlackwell) {
  KnowledgeDb db = LoadOrDie();
  ASSERT_EQ(db.nvidia_open_modules_only.size(), 1u);
  EXPECT_EQ(db.nvidia_open_modules_only[0].architecture, "Blackwell");
  EXPECT_EQ(db.nvidia_open_modules_only[0].first_branch, "R570");
  EXPECT_EQ(db.nvidia_open_modules_only[0].provenance.checked, "2026-12-05");

  TempDataDir tmp;
  uint32_t line =
      tmp.Edit("cuda_drivers.toml", "architecture = \"Blackwell\"", "architecture = \"Blackwel\"");
  std::string errors = LoadErrors(tmp.dir());
  EXPECT_NE(errors.find(tmp.path("cuda_drivers.toml").string() + ":" + std::to_string(line - 1)),
            std::string::npos)
      << errors;
  EXPECT_NE(errors.find("architecture 'Blackwel' is not one a [[cuda_arch]] names"), std::string::npos)
      << errors;

  TempDataDir other;
  other.Edit("cuda_drivers.toml", "last_for = [\"Maxwell\", \"Pascal\", \"Volta\"]",
             "last_for = [\"Maxwell\", \"Pascal\", \"Volt\"]");
  errors = LoadErrors(other.dir());
  EXPECT_NE(errors.find("last_for names 'Volt', which no [[cuda_arch]] has"), std::string::npos) << errors;

  TempDataDir branch;
  branch.Edit("cuda_drivers.toml", "first_branch = \"R570\"", "first_branch = \"R571\"");
  errors = LoadErrors(branch.dir());
  EXPECT_NE(errors.find("first_branch 'R571' is not a [[nvidia_driver_branch]]"), std::string::npos)
      << errors;
}

// Issue 13: Windows numbers R580's drivers 580.xx and 581.xx, so a driver's branch depends on the OS; a
// numbering naming an unknown branch, or a number claimed by two branches, is an error.
TEST(KnowledgeData, WindowsDriverNumbersMapToTheirBranch) {
  KnowledgeDb db = LoadOrDie();
  EXPECT_EQ(db.DriverBranchNumber(V("581.57"), /*windows=*/true), 580u);
  EXPECT_EQ(db.DriverBranchNumber(V("580.88"), /*windows=*/true), 580u);
  EXPECT_EQ(db.DriverBranchNumber(V("591.86"), /*windows=*/true),
            591u);  // no numbering listed: its first number
  EXPECT_EQ(db.DriverBranchNumber(V("581.57"), /*windows=*/false), 581u);
  EXPECT_EQ(db.DriverBranchNumber(V("580.105.08"), /*windows=*/false), 580u);

  TempDataDir tmp;
  tmp.Edit("cuda_drivers.toml", "branch = \"R580\"\nmajors", "branch = \"R581\"\nmajors");
  std::string errors = LoadErrors(tmp.dir());
  EXPECT_NE(errors.find("branch 'R581' is not an [[nvidia_driver_branch]]"), std::string::npos) << errors;

  TempDataDir twice;
  twice.Edit("cuda_drivers.toml", "[[nvidia_windows_branch]]",
             "[[nvidia_windows_branch]]\nbranch = \"R595\"\nmajors = [581]\nchecked = 2026-12-03\n"
             "source = \"https://docs.nvidia.com/datacenter/tesla/\"\n\n[[nvidia_windows_branch]]");
  errors = LoadErrors(twice.dir());
  EXPECT_NE(errors.find("Windows drivers 581.xx are also listed for R580"), std::string::npos) << errors;
}

// Issue 13: Blackwell ids against NVIDIA's own tables (CUDA GPU list; the device names of the open kernel
// modules, 595.45.04): B200/GB200 10.0, B300/GB300 10.3, Jetson Thor 11.0, RTX 50 and
// RTX PRO Blackwell 12.0, GB10 (DGX Spark) 12.1.
TEST(KnowledgeData, BlackwellIdsHaveNvidiasComputeCapability) {
  KnowledgeDb db = LoadOrDie();
  const std::vector<std::pair<uint32_t, const char*>> expected = {
      {0x2901, "10.0"}, {0x2941, "10.0"}, {0x3182, "10.3"}, {0x31C2, "10.3"},
      {0x2B00, "11.0"}, {0x2B85, "12.0"}, {0x2BB1, "12.0"}, {0x2C02, "12.0"},
      {0x2D04, "12.0"}, {0x2D83, "12.0"}, {0x2F04, "12.0"}, {0x2E12, "12.1"}};
  for (const auto& [id, cc] : expected) {
    const NvidiaGpuModel* g = db.FindNvidiaModel(id);
    ASSERT_NE(g, nullptr) << std::hex << id;
    EXPECT_EQ(g->cc, V(cc)) << std::hex << id << " " << g->name;
  }
  // B300/GB300 as 10.3 is NVIDIA's own statement now, no longer unconfirmed.
  EXPECT_TRUE(db.FindNvidiaModel(0x3182)->provenance.confirmed);
  EXPECT_TRUE(db.FindNvidiaModel(0x31C2)->provenance.confirmed);
}

// Issue 13: Southern Islands, Bonaire/Kabini and Stoney are known targets without a KFD version, so an
// unrelated KFD node never matches them.
TEST(KnowledgeData, TargetsWithoutKfd) {
  KnowledgeDb db = LoadOrDie();
  for (const char* name : {"gfx600", "gfx601", "gfx602", "gfx702", "gfx703", "gfx704", "gfx705", "gfx810"}) {
    const GpuTarget* t = db.FindGfxTarget(name);
    ASSERT_NE(t, nullptr) << name;
    EXPECT_EQ(t->kfd_version, 0u) << name;
  }
  EXPECT_EQ(db.FindGfxTarget("gfx600")->family, GfxFamily::kGcn1);
  EXPECT_EQ(db.FindGfxTargetByKfdVersion(0), nullptr);
  EXPECT_EQ(db.FindGfxTargetByKfdVersion(70001)->name, "gfx701");
}

TEST(KnowledgeData, KernelFloorForStrixHalo) {
  KnowledgeDb db = LoadOrDie();
  ASSERT_EQ(db.kernel_floors.size(), 1u);
  EXPECT_EQ(db.kernel_floors[0].gfx, (std::vector<std::string>{"gfx1151"}));
  EXPECT_EQ(db.kernel_floors[0].min_kernel.ToString(), "6.18.4");
  for (const std::string& g : db.kernel_floors[0].gfx) EXPECT_NE(db.FindGfxTarget(g), nullptr) << g;
}

// Audit 2026-12-05: torch 2.11, 2.12 and 2.13 shipped rocm7.1 wheels beside rocm7.2 (test-infra's release
// matrices); their gfx lists are assumed from the same release's rocm7.2 build, so they stay unconfirmed.
TEST(KnowledgeData, Torch211To213HaveRocm71Wheels) {
  KnowledgeDb db = LoadOrDie();
  for (const char* torch : {"2.11", "2.12", "2.13"}) {
    const TorchWheel* w71 = db.FindTorchWheel(V(torch), "rocm7.1");
    const TorchWheel* w72 = db.FindTorchWheel(V(torch), "rocm7.2");
    ASSERT_TRUE(w71 != nullptr && w72 != nullptr) << torch;
    EXPECT_EQ(w71->rocm, V("7.1")) << torch;
    EXPECT_EQ(w71->gfx, w72->gfx) << torch;
    EXPECT_FALSE(w71->provenance.confirmed) << torch;
  }
  // gfx1103 arrives with 2.13 (pytorch PR #179653, after 2.12's branch cut).
  EXPECT_FALSE(WheelHasGfx(*db.FindTorchWheel(V("2.12"), "rocm7.2"), "gfx1103"));
  EXPECT_TRUE(WheelHasGfx(*db.FindTorchWheel(V("2.13"), "rocm7.2"), "gfx1103"));
}

// Audit 2026-12-05: the ROCm 10.0.0 notes say operating-system support is unchanged from 7.14 (the data had
// added Ubuntu 26.04.1 and 24.04.5), and a release has one date wherever it is recorded (10.1.0 was dated
// 2026-10-05 as a ROCm point release and 2026-09 as a TheRock version).
TEST(KnowledgeData, Rocm10OsListAndOneDatePerRelease) {
  KnowledgeDb db = LoadOrDie();
  const RocmRelease* r10 = db.FindRocmRelease(V("10.0.0"));
  const RocmRelease* r714 = db.FindRocmRelease(V("7.14.0"));
  ASSERT_TRUE(r10 != nullptr && r714 != nullptr);
  EXPECT_EQ(r10->os, r714->os);
  size_t compared = 0;
  for (const TheRockVersion& t : db.therock_versions) {
    for (const RocmRelease& r : db.rocm_releases) {
      for (const RocmPointRelease& p : r.points) {
        if (p.version != t.version) continue;
        EXPECT_EQ(p.date, t.date) << t.version.ToString();
        ++compared;
      }
    }
  }
  EXPECT_GE(compared, 3u);  // 7.14.0, 10.0.0, 10.1.0
  const RocmRelease* r101 = db.FindRocmRelease(V("10.1.0"));
  ASSERT_TRUE(r101 != nullptr && !r101->points.empty());
  EXPECT_FALSE(r101->points.front().confirmed);
}

// CUDA 13.2 Update 2 needs driver 595.71.05 (Table 3 of its release notes); Update 1's 595.58.03 was the
// recorded floor before the 2026-12-05 audit.
TEST(KnowledgeData, Cuda132ToolkitDriverIsUpdate2s) {
  KnowledgeDb db = LoadOrDie();
  auto floor = db.CudaDriverFloor(V("13.2"));
  ASSERT_TRUE(floor && floor->toolkit);
  EXPECT_EQ(floor->toolkit->linux_driver, V("595.71.05"));
  EXPECT_EQ(floor->toolkit->ga_linux, V("595.45.04"));
}

// Audit 2026-12-05: AMD names its gfx1153 products Ryzen AI 5 430/435, AI 5 PRO 435 and AI 7 445 (ROCm 7.14.0
// notes) while the Ryzen AI 5 330's Radeon 820M is gfx1152; PCI 1902 -> gfx1153 ("Krackan 2 / Radeon 820M")
// had no KFD or IP-discovery source, so no PCI id maps to gfx1153 and no die is named for it.
TEST(KnowledgeData, Gfx1153HasNoUnsourcedPciIdOrChip) {
  KnowledgeDb db = LoadOrDie();
  for (const AmdPciDevice& d : db.amd_devices) EXPECT_NE(d.gfx, "gfx1153") << std::hex << d.device_id;
  EXPECT_FALSE(db.FindAmdModel(0x1902, 0xC2));
  const GpuTarget* t = db.FindGfxTarget("gfx1153");
  ASSERT_NE(t, nullptr);
  EXPECT_TRUE(t->chips.empty());
  EXPECT_NE(t->provenance.note.find("AI 7 445"), std::string::npos) << t->provenance.note;
  EXPECT_EQ(t->kfd_version, 110503u);
}

// Audit 2026-12-05, section-0 leftovers: the HIP SDK 6.0.2 already lists gfx1101 (W7700, RX 7800 XT/7700 XT),
// and PCI 1002:7590 is "Radeon RX 9050 / 9060 XT" in pci.ids (the RX 9050's revision is in no id list).
TEST(KnowledgeData, HipSdk602AndTheRx9050) {
  KnowledgeDb db = LoadOrDie();
  const HipSdkWindows* sdk602 = nullptr;
  for (const HipSdkWindows& s : db.hip_sdks_windows)
    if (s.version == V("6.0.2")) sdk602 = &s;
  ASSERT_NE(sdk602, nullptr);
  for (const char* g : {"gfx1100", "gfx1101", "gfx1102", "gfx1030"})
    EXPECT_NE(std::find(sdk602->gfx_sdk.begin(), sdk602->gfx_sdk.end(), g), sdk602->gfx_sdk.end()) << g;
  EXPECT_NE(std::find(sdk602->gfx_unsupported.begin(), sdk602->gfx_unsupported.end(), "gfx1012"),
            sdk602->gfx_unsupported.end());
  auto unknown_revision = db.FindAmdModel(0x7590, 0xCF);
  ASSERT_TRUE(unknown_revision);
  EXPECT_NE(unknown_revision->name.find("9050"), std::string::npos) << unknown_revision->name;
  EXPECT_EQ(db.FindAmdModel(0x7590, 0xC0)->name, "Radeon RX 9060 XT");
}

TEST(KnowledgeLoaderErrors, BadDirAndGarbageNeverThrow) {
  auto missing = LoadKnowledgeFromDir("/nonexistent/gpudoctor/db");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("/nonexistent/gpudoctor/db"), std::string::npos);
  for (const char* text : {"", "[[gfx_target]]\n", "gfx_target = 3\n", "[[nope]]\nx = 1\n",
                           "[[torch_wheel]]\ntorch = \"2.7\"\nvariant = \"cu128\"\ncuda = \"12.8\"\n"
                           "cuda_archs = [\"12.0+PTX\", \"x\"]\nsource = \"ftp://x\"\n",
                           "[[amd_device]]\ndevice_id = 99999999\nrevisions = [1, {revision = 300}]\n",
                           // toml++ 3.3 asserted / reached __builtin_unreachable on these (found by
                           // fuzz/knowledge_fuzz.cpp; see toml_tree.cpp).
                           "[[%x]]\n", "b\xc3\xa9 = 1\n", "J\xef\xbb\xbb"}) {
    KnowledgeLoad load = ParseKnowledgeFile({"fuzz.toml", text});
    for (const KnowledgeError& e : load.errors) EXPECT_EQ(e.file, "fuzz.toml");
    if (std::string(text).size() > 0) {
      EXPECT_FALSE(load.errors.empty()) << text;
    }
  }
}

}  // namespace
}  // namespace gpudoctor
