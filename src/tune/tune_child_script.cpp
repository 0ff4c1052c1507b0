// Finds data/tune/tune_child.py among the embedded files (tune_child_script.h).
#include "tune/tune_child_script.h"

#include "knowledge/embedded_files.h"

namespace gpudoctor {

std::span<const EmbeddedFile* const> EmbeddedTuneFiles();

std::string_view TuneChildScript() {
  for (const EmbeddedFile* f : EmbeddedTuneFiles())
    if (std::string_view(f->name) == "data/tune/tune_child.py") return f->Text();
  return {};
}

}  // namespace gpudoctor
