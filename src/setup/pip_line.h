// A pip command line of one of check's fixes, read back into its parts: which python runs pip, install or
// uninstall, the requirements, the index or download folder and the other options. `setup` plans from
// check's own fix actions (so its wheel and index are check's by construction) and needs them as data to
// carry them out in another environment or with another installer (uv).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

struct PipLine {
  std::string python;  // what runs pip: "python3", "py -3.12", "/home/u/.venv/bin/python"
  bool uninstall = false;
  std::vector<std::string> requirements;  // as written, unquoted: "torch", "torch[device-gfx1101]"
  std::string index_url;                  // after --index-url (or --extra-index-url); "" for PyPI
  std::string find_links;                 // after --find-links
  std::vector<std::string> options;       // the other flags: "--no-deps", "-y"
};

// nullopt for anything but one `PYTHON -m pip install|uninstall ...` (a compound line with && or ;,
// a comment, `uv sync`).
std::optional<PipLine> ParsePipLine(std::string_view line);

// The distribution a requirement names, PEP 503 normalized: "torch[device-gfx1101]" -> "torch",
// "Torch_Vision==0.22.*" -> "torch-vision".
std::string RequirementName(std::string_view requirement);

}  // namespace gpudoctor
