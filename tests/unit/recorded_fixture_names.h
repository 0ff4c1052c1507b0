// The recorded machines under tests/fixtures/sysroot as the parameterized golden tests list them (check's
// reports and setup's plans), and what a build that cannot see or make symbolic links must skip.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "platform/filesystem.h"
#include "test_common.h"
#include "unique_temp_dir.h"

namespace gpudoctor::testing {

// Every recorded machine's folder name, sorted.
inline std::vector<std::string> RecordedMachineNames() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(kFixtures, ec))
    if (e.is_directory()) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// rx6700xt-x8-slot's verdict is read through the links of its sysfs path (sys/bus/pci/devices ->
// sys/devices): a build that cannot see links as links (the Windows build under wine) cannot follow that
// path, and skips that machine with kLinkSkip.
inline bool ThisBuildSeesLinks() {
  auto fs = MakeRootedFileSystem(kFixtures + "rx6700xt-x8-slot");
  return fs->ReadLink("/sys/bus/pci/devices/0000:03:00.0").ok();
}
inline constexpr const char* kLinkSkip =
    "this build cannot see symbolic links, which rx6700xt-x8-slot's PCIe path uses";

// The recorded trees hold symbolic links; a build that cannot make them (Windows under wine) cannot record
// them. Decided from the file system, not from what the code under test makes.
inline bool ThisBuildMakesLinks() {
  std::error_code ec;
  std::filesystem::path probe = ProcessTempPath("link_probe");
  std::filesystem::remove(probe, ec);
  std::filesystem::create_symlink("target", probe, ec);
  bool ok = !ec && MakeRootedFileSystem("/")->ReadLink(probe.generic_string()).ok();
  std::filesystem::remove(probe, ec);
  return ok;
}

// A machine's name as a gtest parameter name: every character but letters and digits becomes '_'.
inline std::string MachineTestName(const ::testing::TestParamInfo<std::string>& p) {
  std::string n = p.param;
  std::replace_if(
      n.begin(), n.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
  return n;
}

}  // namespace gpudoctor::testing
