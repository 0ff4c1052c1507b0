#include "golden_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>

#include "core/strings.h"

namespace gpudoctor::testing {

bool& UpdateGoldensRequested() {
  static bool requested = false;
  return requested;
}

std::string FirstDifference(const std::string& want, const std::string& got) {
  auto a = SplitLines(want);
  auto b = SplitLines(got);
  size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  std::ostringstream out;
  out << "@@ line " << (i + 1) << " @@\n";
  size_t from = i >= 3 ? i - 3 : 0;
  for (size_t k = from; k < i; ++k) out << "  " << a[k] << "\n";
  for (size_t k = i; k < std::min(a.size(), i + 8); ++k) out << "- " << a[k] << "\n";
  for (size_t k = i; k < std::min(b.size(), i + 8); ++k) out << "+ " << b[k] << "\n";
  return out.str();
}

void CompareWithGolden(const std::filesystem::path& golden, const std::string& got) {
  if (UpdateGoldensRequested()) {
    std::filesystem::create_directories(golden.parent_path());
    std::ofstream(golden, std::ios::binary) << got;
    std::cout << "updated " << golden.string() << "\n";
    return;
  }
  std::ifstream in(golden, std::ios::binary);
  ASSERT_TRUE(in) << golden.string() << " is missing; run ./dev.sh update-goldens and review the diff";
  std::ostringstream want;
  want << in.rdbuf();
  EXPECT_TRUE(want.str() == got) << golden.string()
                                 << " differs (./dev.sh update-goldens rewrites it; review the diff):\n"
                                 << FirstDifference(want.str(), got);
}

}  // namespace gpudoctor::testing
