// Where Python environments are on a machine, found from files and the environment alone: the
// `--python-env` folders, the active VIRTUAL_ENV and CONDA_PREFIX, `.venv`/`venv` in the current
// folder, every python on PATH (links resolved; a pyvenv.cfg beside or above it makes it a venv),
// ~/.venv, conda and mamba environments, pyenv versions, and the user's and the system's
// site-packages. Each becomes one entry per site-packages folder, in the order a user is most likely
// to run them, the same folder reached twice listed once. On Windows the same search runs on Windows
// paths (drive letters, UNC, \\?\ long paths; Lib\site-packages, Scripts\python.exe, PATH split on
// ';', %USERPROFILE% as home, compared without case), and the places only Windows has (the registry,
// the installers' folders: windows_python_locations.h) come in as candidates.
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
  std::string kind;                   // venv, conda, pyenv, user, system, portable, other
  std::string python_version;         // "3.12" or ""
  std::string python_version_source;  // "pyvenv.cfg", "interpreter name", "lib folder", "conda-meta",
                                      // "python DLL", "registry", "folder name", ""
  std::string interpreter;            // the python that imports from it, "" when none was found
  std::vector<std::string> found_by;  // "--python-env", "VIRTUAL_ENV", "CONDA_PREFIX", "current folder",
                                      // "PATH", "~/.venv", "conda", "pyenv", "standard location";
                                      // Windows: "registry", "python.org folder", "Store", "uv",
                                      // "portable", "user site"
  bool active = false;                // VIRTUAL_ENV or CONDA_PREFIX
  bool given = false;                 // --python-env
  bool on_path = false;               // the environment of a python on PATH
};

// A site-packages folder found by a search of its own (the Windows registry and installers' folders).
struct PythonCandidate {
  std::string prefix;
  std::string site_packages;  // an existing folder
  std::string kind;           // as PythonSite::kind
  std::string python_version;
  std::string python_version_source;
  std::string interpreter;  // "" to look for one in the prefix
  std::string found_by;
};

struct PythonSearch {
  std::vector<std::string> given;  // --python-env folders (prefixes or site-packages folders)
  std::string cwd;                 // the current folder ("" when unknown)
  bool windows = false;            // Windows paths, PATH separated by ';', interpreters named python.exe
  std::vector<PythonCandidate> installs;  // looked at after the places every OS has, in this order
};

// Problems (a --python-env folder that does not exist, an unreadable pyvenv.cfg) go to `warnings`.
std::vector<PythonSite> FindPythonSites(const ProbeContext& ctx, const PythonSearch& search,
                                        std::vector<std::string>& warnings);

// The user's home folder: $HOME, else /root for uid 0, else /home/<user>; on Windows %USERPROFILE%,
// else %HOMEDRIVE%%HOMEPATH%; "" when unknown.
std::string HomeFolder(const ProbeContext& ctx, bool windows = false);

}  // namespace gpudoctor
