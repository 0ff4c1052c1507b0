// NameForSystemLoader (loader_search_path.h): LD_LIBRARY_PATH read as the loader reads it, its
// current-folder elements skipped.
#include "platform/loader_search_path.h"

#include <vector>

namespace gpudoctor {
namespace {

// The elements of a colon-separated list, empty ones kept (the loader reads them as the current folder).
std::vector<std::string> Elements(std::string_view list) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    const size_t colon = list.find(':', start);
    out.emplace_back(list.substr(start, colon == std::string_view::npos ? colon : colon - start));
    if (colon == std::string_view::npos) return out;
    start = colon + 1;
  }
}

}  // namespace

Result<std::string> NameForSystemLoader(const std::string& name, std::string_view search_path,
                                        const std::function<bool(const std::string& path)>& is_file) {
  if (name.find('/') != std::string::npos || search_path.empty()) return name;
  const std::vector<std::string> elements = Elements(search_path);
  bool relative = false;
  for (const std::string& e : elements) relative = relative || e.empty() || e[0] != '/';
  if (!relative) return name;
  std::string in_current_folder;  // the file a current-folder element would have given the loader
  for (const std::string& e : elements) {
    const std::string path = (e.empty() ? std::string(".") : e) + "/" + name;
    if (!is_file(path)) continue;
    if (e.empty() || e[0] != '/') {
      if (in_current_folder.empty()) in_current_folder = path;
      continue;
    }
    return path;
  }
  if (in_current_folder.empty()) return name;
  return EnvError("not loading " + in_current_folder + ": LD_LIBRARY_PATH=\"" + std::string(search_path) +
                      "\" has an empty or relative element, which the system loader reads as the current "
                      "folder",
                  "remove the empty element (no leading, trailing or doubled ':'), or unset LD_LIBRARY_PATH");
}

}  // namespace gpudoctor
