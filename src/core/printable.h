// Text from outside (a log line, a host or GPU name, an environment value) made safe for a terminal:
// escape sequences (ESC, CSI as U+009B), carriage returns and line feeds would move the cursor, retitle
// the window or forge lines in gpudoctor's own output (issue 35). Shared by explain and every text report.
#pragma once

#include <cstddef>
#include <limits>
#include <string>
#include <string_view>

namespace gpudoctor {

// `text` with every byte that is not printable UTF-8 (C0 and C1 controls, DEL, NUL, invalid sequences)
// replaced by '?' (a tab by a space), cut to `max_bytes` with "..." after the cut.
std::string Printable(std::string_view text, size_t max_bytes = std::numeric_limits<size_t>::max());

}  // namespace gpudoctor
