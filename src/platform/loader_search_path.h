// The system loader's LD_LIBRARY_PATH without its current-folder elements. The loader reads an empty
// element ("/opt/x:", ":/opt/x", "a::b") or a relative one (".", "lib") as a folder of the current one, so a
// bare dlopen("libcuda.so.1") from a folder holding a file of that name would run that file's code (issue
// 35, attempt 126). DynamicLibrary::Open (POSIX) gives the loader the name this function picks instead.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "core/result.h"

namespace gpudoctor {

// What to give dlopen for `name`. A path (it holds a '/') and a name when LD_LIBRARY_PATH (`search_path`)
// has no current-folder element: as it is. Otherwise the elements are searched in the loader's order with
// the current-folder ones left out: the first absolute element holding the file gives its full path. None
// does: the bare name when no current-folder element holds the file either (the loader then reads its
// cache and system folders), else an Error that names the file and the variable, with the fix.
Result<std::string> NameForSystemLoader(const std::string& name, std::string_view search_path,
                                        const std::function<bool(const std::string& path)>& is_file);

}  // namespace gpudoctor
