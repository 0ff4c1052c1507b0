// Test helper for the hardware probes: builds a small synthetic sysroot in a fresh temporary folder
// (files, folders, relative symbolic links) and removes it afterwards.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <system_error>

namespace gpudoctor::testing {

class SysrootBuilder {
 public:
  SysrootBuilder() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = info ? std::string(info->test_suite_name()) + "-" + info->name() : "sysroot";
    auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
    root_ = std::filesystem::temp_directory_path() / ("gpudoctor-" + name + "-" + std::to_string(stamp));
    std::filesystem::create_directories(root_);
  }
  ~SysrootBuilder() {
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
  }
  SysrootBuilder(const SysrootBuilder&) = delete;
  SysrootBuilder& operator=(const SysrootBuilder&) = delete;

  // Writes a file at a machine path ("/sys/bus/pci/devices/0000:03:00.0/vendor").
  void Write(std::string_view machine_path, std::string_view content) const {
    auto p = Host(machine_path);
    std::filesystem::create_directories(p.parent_path());
    std::ofstream out(p, std::ios::binary);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
  }
  void Mkdir(std::string_view machine_path) const { std::filesystem::create_directories(Host(machine_path)); }
  // A symbolic link with a relative target; false when the platform cannot make one.
  bool Symlink(std::string_view machine_path, std::string_view target) const {
    auto p = Host(machine_path);
    std::error_code ec;
    std::filesystem::create_directories(p.parent_path(), ec);
    std::filesystem::create_symlink(std::string(target), p, ec);
    return !ec;
  }
  std::string root() const { return root_.string(); }

 private:
  std::filesystem::path Host(std::string_view machine_path) const {
    while (!machine_path.empty() && machine_path.front() == '/') machine_path.remove_prefix(1);
    return root_ / std::string(machine_path);
  }
  std::filesystem::path root_;
};

// True when some warning contains every given fragment.
inline bool HasWarning(const std::vector<std::string>& warnings, std::string_view a,
                       std::string_view b = {}) {
  for (const auto& w : warnings)
    if (w.find(a) != std::string::npos && w.find(b) != std::string::npos) return true;
  return false;
}

}  // namespace gpudoctor::testing
