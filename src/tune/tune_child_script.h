// The framework child's Python text: data/tune/tune_child.py, compiled into the binary by
// cmake/EmbedData.cmake so that a packaged gpudoctor needs no file beside it. Embedded rather than
// installed as a data file: one binary runs from anywhere (a copied executable, the Windows .exe, a
// CI job) and the script always matches the parser that reads its lines.
#pragma once

#include <string_view>

namespace gpudoctor {

std::string_view TuneChildScript();

}  // namespace gpudoctor
