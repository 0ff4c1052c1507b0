// The test binary's main: GoogleTest's own flags, and one of ours, --update-goldens (golden_test_util.h),
// which
// `./dev.sh update-goldens` passes. Any other argument is an error, so a mistyped flag cannot run the suite
// with a setting nobody asked for.
#include <gtest/gtest.h>

#include <iostream>
#include <string>

#include "golden_test_util.h"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);  // removes the --gtest_* flags it knows
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--update-goldens") {
      gpudoctor::testing::UpdateGoldensRequested() = true;
    } else {
      std::cerr << "gpudoctor_tests: unknown argument " << arg
                << " (GoogleTest's --gtest_* flags, or --update-goldens)\n";
      return 2;
    }
  }
  return RUN_ALL_TESTS();
}
