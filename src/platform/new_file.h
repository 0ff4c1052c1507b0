// Creating a file that must not exist yet: the temporary that a write goes through before its rename into
// place (cli/output.cpp). Created exclusively (O_CREAT|O_EXCL|O_NOFOLLOW; CREATE_NEW semantics on Windows),
// so a file or link planted at that name is never opened or written through (issue 35). On Linux the file
// gets its name only once the text is whole (O_TMPFILE + linkat): a run killed while writing leaves nothing.
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"

namespace gpudoctor {

// Creates `path` (a host path), writes `text` into it and closes it. An Error, with nothing written
// anywhere, when anything (a file, a link, a dangling link) already has that name; the half-written file
// is removed when a write fails.
Status WriteNewFile(const std::string& path, std::string_view text);

}  // namespace gpudoctor
