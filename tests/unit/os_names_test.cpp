// The OS family and platform enums (core/os.h) against their JSON and data-file words, which snapshots,
// check reports and data/torch_routes.toml already use and must keep.
#include "core/os.h"

#include <gtest/gtest.h>

namespace gpudoctor {
namespace {

TEST(OsNames, FamilyNamesAreTheSnapshotWords) {
  EXPECT_EQ(OsFamilyName(OsFamily::kLinux), "linux");
  EXPECT_EQ(OsFamilyName(OsFamily::kWindows), "windows");
  EXPECT_EQ(OsFamilyName(OsFamily::kUnknown), "");
  for (OsFamily f : {OsFamily::kUnknown, OsFamily::kLinux, OsFamily::kWindows})
    EXPECT_EQ(OsFamilyFromName(OsFamilyName(f)), f);
  EXPECT_EQ(OsFamilyFromName("Windows"), OsFamily::kUnknown);  // the JSON form is lower case
  EXPECT_EQ(OsFamilyFromName("darwin"), OsFamily::kUnknown);
}

TEST(OsNames, WslIsItsOwnPlatformOnlyUnderLinux) {
  EXPECT_EQ(PlatformOf(OsFamily::kLinux, false), Platform::kLinux);
  EXPECT_EQ(PlatformOf(OsFamily::kLinux, true), Platform::kWsl);
  EXPECT_EQ(PlatformOf(OsFamily::kWindows, true), Platform::kWindows);
  EXPECT_EQ(PlatformOf(OsFamily::kUnknown, false), Platform::kLinux);
}

TEST(OsNames, PlatformNamesAreTheDataFileWords) {
  EXPECT_EQ(PlatformName(Platform::kLinux), "linux");
  EXPECT_EQ(PlatformName(Platform::kWsl), "wsl");
  EXPECT_EQ(PlatformName(Platform::kWindows), "windows");
  for (Platform p : {Platform::kLinux, Platform::kWsl, Platform::kWindows})
    EXPECT_EQ(PlatformFromName(PlatformName(p)), p);
  EXPECT_FALSE(PlatformFromName("macos").has_value());
  EXPECT_FALSE(PlatformFromName("").has_value());
}

}  // namespace
}  // namespace gpudoctor
