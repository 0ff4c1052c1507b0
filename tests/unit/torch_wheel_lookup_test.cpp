// The wheel lookups check's rules and `explain` share (knowledge/torch_wheel_lookup.h), on a small
// hand-made knowledge base so that each choice is visible: newest torch first, then the newest ROCm.
#include "knowledge/torch_wheel_lookup.h"

#include <gtest/gtest.h>

namespace gpudoctor {
namespace {

TorchWheel RocmWheel(const char* torch, const char* rocm, std::vector<std::string> gfx) {
  TorchWheel w;
  w.torch = *Version::Parse(torch);
  w.rocm = Version::Parse(rocm);
  w.variant = std::string("rocm") + rocm;
  w.gfx = std::move(gfx);
  return w;
}

TorchWheel CudaWheel(const char* torch, const char* cuda) {
  TorchWheel w;
  w.torch = *Version::Parse(torch);
  w.cuda = Version::Parse(cuda);
  w.variant = "cu" + std::string(cuda);
  return w;
}

TorchRelease Release(const char* version) {
  TorchRelease r;
  r.version = *Version::Parse(version);
  return r;
}

KnowledgeDb WheelDb() {
  KnowledgeDb db;
  db.torch_wheels = {RocmWheel("2.6", "6.2", {"gfx1100", "gfx90a"}), RocmWheel("2.7", "6.2", {"gfx1100"}),
                     RocmWheel("2.7", "6.3", {"gfx1100", "gfx1151"}), RocmWheel("2.5", "6.1", {"gfx1030"}),
                     CudaWheel("2.9", "12.8")};
  return db;
}

TEST(TorchWheelLookup, NewestRocmWheelIsTheNewestTorchThenTheNewestRocm) {
  const KnowledgeDb db = WheelDb();
  const TorchWheel* w = NewestRocmWheelWithGfx(db, "gfx1100");
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->torch.ToString(), "2.7");
  EXPECT_EQ(w->variant, "rocm6.3");
}

TEST(TorchWheelLookup, NewestRocmWheelCarriesTheTargetItself) {
  const KnowledgeDb db = WheelDb();
  const TorchWheel* older = NewestRocmWheelWithGfx(db, "gfx90a");  // dropped after torch 2.6
  ASSERT_NE(older, nullptr);
  EXPECT_EQ(older->variant, "rocm6.2");
  EXPECT_EQ(older->torch.ToString(), "2.6");
  EXPECT_EQ(NewestRocmWheelWithGfx(db, "gfx1030")->torch.ToString(), "2.5");
  EXPECT_EQ(NewestRocmWheelWithGfx(db, "gfx942"), nullptr);
  EXPECT_EQ(NewestRocmWheelWithGfx(db, ""), nullptr);
  EXPECT_EQ(NewestRocmWheelWithGfx(KnowledgeDb{}, "gfx1100"), nullptr);
}

TEST(TorchWheelLookup, NewestTorchReleaseIsTheHighestVersion) {
  KnowledgeDb db;
  EXPECT_EQ(NewestTorchRelease(db), nullptr);
  db.torch_releases = {Release("2.7"), Release("2.10"), Release("2.9")};
  const TorchRelease* newest = NewestTorchRelease(db);
  ASSERT_NE(newest, nullptr);
  EXPECT_EQ(newest->version.ToString(), "2.10");  // by version, not by text
}

}  // namespace
}  // namespace gpudoctor
