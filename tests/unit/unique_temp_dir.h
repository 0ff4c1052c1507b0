// A new, empty folder of its own under the system's temporary folder, for a test that writes files there:
// test runs that overlap (several builds' suites at once on one machine) never share or remove each
// other's files, as they did with fixed names such as /tmp/gpudoctor_fake_<test>.json.
#pragma once

#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <system_error>

namespace gpudoctor::testing {

// "<tmp>/<prefix>_<16 hex digits>", created; empty when none could be made.
inline std::filesystem::path UniqueTempDir(const std::string& prefix) {
  std::random_device random;
  std::error_code ec;
  for (int attempt = 0; attempt < 64; ++attempt) {
    char name[96];
    std::snprintf(name, sizeof name, "%s_%08x%08x", prefix.c_str(), random(), random());
    std::filesystem::path p = std::filesystem::temp_directory_path(ec) / name;
    if (!ec && std::filesystem::create_directory(p, ec)) return p;
  }
  return {};
}

}  // namespace gpudoctor::testing
