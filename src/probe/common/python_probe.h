// Probe: the Python environments a user is likely to run and the PyTorch in each, found from files
// alone (torch/version.py in the standard site-packages folders), so `check` never starts Python.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "probe/probe_context.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

// What torch/version.py records about a build.
struct TorchVersionFile {
  std::string version;  // __version__ = '2.7.1+cu128'
  std::string cuda;     // cuda = '12.8' (or cuda: Optional[str] = '12.8'); "" for None
  std::string hip;      // hip = '6.2.41133-dd7f95766'; "" for None
};

// Parses the text of torch/version.py. nullopt when no `__version__` assignment is found. Reads only
// simple assignments of a quoted string or None; anything else on a line is ignored.
std::optional<TorchVersionFile> ParseTorchVersionFile(std::string_view text);

// "python3.10" -> "3.10"; nullopt for anything else ("python3", "python3.10-config").
std::optional<std::string> PythonVersionFromFolder(std::string_view name);

// Fills snapshot.python_envs: the active VIRTUAL_ENV and CONDA_PREFIX, ~/.venv, the user's
// ~/.local site-packages, /usr/local/lib/pythonX.Y/dist-packages and /usr/lib/python3/dist-packages.
// Appends what it examined to snapshot.looked_at and unreadable files to snapshot.warnings.
void ProbePythonEnvs(const ProbeContext& ctx, Snapshot& snapshot);

}  // namespace gpudoctor
