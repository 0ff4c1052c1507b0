// Where Python environments are on a machine, found from files and the environment alone: the
// `--python-env` folders, the active VIRTUAL_ENV and CONDA_PREFIX, `.venv`/`venv` in the current
// folder, every python on PATH (links resolved; a pyvenv.cfg beside or above it makes it a venv),
// ~/.venv, conda and mamba environments, pyenv versions, and the user's and the system's
// site-packages. Each becomes one entry per site-packages folder, in the order a user is most likely
// to run them, the same folder reached twice listed once.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "probe/probe_context.h"

namespace gpudoctor {

struct PythonSite {
  std::string site_packages;          // as reached ("/home/u/.venv/lib/python3.12/site-packages")
  std::string canonical;              // with every link resolved: what makes two entries the same folder
  std::string prefix;                 // the environment ("/home/u/.venv", "/usr", "/home/u/.local")
  std::string kind;                   // venv, conda, pyenv, user, system, other
  std::string python_version;         // "3.12" or ""
  std::string python_version_source;  // "pyvenv.cfg", "interpreter name", "lib folder", ""
  std::string interpreter;            // the python that imports from it, "" when none was found
  std::vector<std::string> found_by;  // "--python-env", "VIRTUAL_ENV", "CONDA_PREFIX", "current folder",
                                      // "PATH", "~/.venv", "conda", "pyenv", "standard location"
  bool active = false;                // VIRTUAL_ENV or CONDA_PREFIX
  bool given = false;                 // --python-env
  bool on_path = false;               // the environment of a python on PATH
};

struct PythonSearch {
  std::vector<std::string> given;  // --python-env folders (prefixes or site-packages folders)
  std::string cwd;                 // the current folder ("" when unknown)
  bool windows = false;            // PATH separated by ';', interpreters named python.exe
};

// Problems (a --python-env folder that does not exist, an unreadable pyvenv.cfg) go to `warnings`.
std::vector<PythonSite> FindPythonSites(const ProbeContext& ctx, const PythonSearch& search,
                                        std::vector<std::string>& warnings);

// The user's home folder: $HOME, else /root for uid 0, else /home/<user>; "" when unknown.
std::string HomeFolder(const ProbeContext& ctx);

}  // namespace gpudoctor
