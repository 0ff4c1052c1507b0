// gpudoctor(1): the man page, written in roff from the flag table (cli/flag_table.h) and each command's
// --help text, so it says what `--help` says.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "cli/flag_table.h"

namespace gpudoctor {

// `version` goes in the page's footer; `date` (YYYY-MM-DD, may be empty) in its header.
std::string ManPage(const std::vector<CommandSpec>& commands, std::string_view version,
                    std::string_view date);

}  // namespace gpudoctor
