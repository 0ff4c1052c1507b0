// Path arithmetic on machine paths ("/home/u/.venv/bin/python3") and symbolic-link resolution through
// a FileSystem, so that the same code follows the live machine's links and a sysroot's (which stay
// inside the sysroot). Used where two paths must be compared: is this the same site-packages?
#pragma once

#include <string>
#include <string_view>

#include "platform/filesystem.h"

namespace gpudoctor {

// "/a/b/c" -> "/a/b"; "/a" -> "/"; "a" -> "".
std::string ParentPath(std::string_view path);
// Collapses "//", "." and ".." lexically ("/a/./b/../c/" -> "/a/c"); ".." stops at the root.
std::string NormalizePath(std::string_view path);
// `path` when absolute, else `base`/`path`, normalized.
std::string AbsolutePath(std::string_view base, std::string_view path);
// Every symbolic link in every component resolved, as realpath(3) does; at most 40 links. A component
// that cannot be read is kept as it is, so the result is always a path.
std::string CanonicalPath(const FileSystem& fs, std::string_view path);
// True when `path` is `dir` or lies under it ("/a/b" is under "/a", "/ab" is not).
bool PathIsUnder(std::string_view path, std::string_view dir);

}  // namespace gpudoctor
