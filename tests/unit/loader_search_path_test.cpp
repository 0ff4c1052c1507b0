// LD_LIBRARY_PATH's current-folder elements never give the loader a library (issue 35, attempt 126): an
// empty element ("/nonexistent:") made a bare dlopen("libcuda.so.1") load the file of that name in the
// current folder.
#include <gtest/gtest.h>

#include <set>

#include "platform/loader_search_path.h"

namespace gpudoctor {
namespace {

struct Files {
  std::set<std::string> paths;
  std::function<bool(const std::string&)> IsFile() const {
    return [this](const std::string& p) { return paths.count(p) > 0; };
  }
};

TEST(LoaderSearchPath, WithoutCurrentFolderElementsTheNameIsGivenAsItIs) {
  Files files{{"./libcuda.so.1", "/opt/lib/libcuda.so.1"}};
  EXPECT_EQ(*NameForSystemLoader("libcuda.so.1", "", files.IsFile()), "libcuda.so.1");
  EXPECT_EQ(*NameForSystemLoader("libcuda.so.1", "/opt/lib:/usr/lib", files.IsFile()), "libcuda.so.1");
  EXPECT_EQ(*NameForSystemLoader("/x/libcuda.so.1", ":", files.IsFile()), "/x/libcuda.so.1");  // a path
}

TEST(LoaderSearchPath, AnEmptyOrRelativeElementHoldingTheFileIsRefused) {
  Files files{{"./libcuda.so.1", "lib/libcuda.so.1"}};
  for (const char* search_path : {"/nonexistent:", ":/x", "/a::/b", ".", "lib"}) {
    auto name = NameForSystemLoader("libcuda.so.1", search_path, files.IsFile());
    ASSERT_FALSE(name.ok()) << search_path;
    EXPECT_NE(name.error().message.find("not loading "), std::string::npos) << name.error().message;
    EXPECT_NE(name.error().message.find("current folder"), std::string::npos) << name.error().message;
    EXPECT_NE(name.error().hint.find("unset LD_LIBRARY_PATH"), std::string::npos);
  }
}

TEST(LoaderSearchPath, TheCurrentFolderIsSkippedForTheAbsoluteElements) {
  Files files{{"./libcuda.so.1", "/usr/lib/x/libcuda.so.1", "/opt/lib/libcuda.so.1"}};
  // The loader would take ./libcuda.so.1 first; the first absolute folder holding it is given instead.
  EXPECT_EQ(*NameForSystemLoader("libcuda.so.1", ":/usr/lib/x:/opt/lib", files.IsFile()),
            "/usr/lib/x/libcuda.so.1");
  // Nothing in the current folder: the loader's own search (its cache, the system folders) is safe.
  EXPECT_EQ(*NameForSystemLoader("libnvidia-ml.so.1", "/nonexistent:", files.IsFile()), "libnvidia-ml.so.1");
}

}  // namespace
}  // namespace gpudoctor
