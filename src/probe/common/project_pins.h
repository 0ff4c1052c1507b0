// The user's project files that say which build of a GPU package gets installed: requirements*.txt (and
// the files its -r / -c lines name), pyproject.toml ([project] dependencies, [tool.poetry.dependencies],
// [tool.uv.sources] with [[tool.uv.index]]), uv.lock, poetry.lock and conda's environment.yml. A fix that
// reinstalls torch from another index is undone by the next `pip install -r requirements.txt`, `uv sync`,
// `poetry install` or `conda env update` when one of these pins the old build, so the probe records each
// pinning line (file, line, text, package, version spec, index). Pure functions of the text: the files
// are found and read by project_probe.h.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "snapshot/snapshot.h"

namespace gpudoctor {

enum class PinFileKind { kRequirements, kPyproject, kUvLock, kPoetryLock, kCondaEnvironment };

// By file name: requirements*.txt, pyproject.toml, uv.lock, poetry.lock, environment.yml / .yaml.
std::optional<PinFileKind> PinFileKindOf(std::string_view file_name);

struct PinFileContents {
  std::vector<ProjectPin> pins;       // the lines pinning one of the wanted packages, in file order
  std::vector<std::string> includes;  // requirements files: what -r / -c lines name, as written
  bool uv = false;                    // pyproject.toml has a [tool.uv...] table
  bool poetry = false;                // pyproject.toml has a [tool.poetry...] table
  std::vector<std::string> warnings;  // "FILE:LINE: why" for lines that could not be read
};

// `path` is written into each pin and warning; `wanted` holds PEP 503 names ("torch", "flash-attn").
PinFileContents ParsePinFile(PinFileKind kind, std::string_view path, std::string_view text,
                             const std::vector<std::string>& wanted);

// One PEP 508 requirement as requirements files and pyproject arrays write it: "torch==2.7.1+cpu",
// "torch[opt] >= 2.5 ; sys_platform == 'linux'", "torch @ https://.../torch-2.7.1%2Bcpu-...whl", or a
// wheel's URL alone (the name and version come from the wheel's file name). nullopt when no name parses.
struct Requirement {
  std::string package;  // normalized
  std::string spec;     // "==2.7.1+cpu", "@ https://...", ""
  std::string marker;   // "sys_platform == 'linux'", ""
};
std::optional<Requirement> ParseRequirement(std::string_view text);

}  // namespace gpudoctor
