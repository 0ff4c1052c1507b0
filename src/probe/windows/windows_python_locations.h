// Where Python lives on Windows, found from the registry and folders alone (no interpreter is run):
// the PEP 514 registrations the `py` launcher lists (HKCU and HKLM Software\Python\<company>\<tag>),
// python.org installs (%LOCALAPPDATA%\Programs\Python\PythonXY, C:\Program Files\PythonXY), Microsoft
// Store installs (their per-user LocalCache\local-packages), conda (miniconda3, anaconda3, miniforge3
// and their envs), venvs (VIRTUAL_ENV, %USERPROFILE%\.venv), uv's managed Pythons
// (UV_PYTHON_INSTALL_DIR, %APPDATA%\uv\data\python, %APPDATA%\uv\python), portable apps' embedded
// Python (ComfyUI's python_embeded beside the app: in or above the current folder, or in a folder of
// the profile, Desktop, Documents, Downloads or the system drive) and pip's --user folders
// (%APPDATA%\Python\PythonXY). Each candidate names the site-packages folder to look in for torch.
#pragma once

#include <string>
#include <vector>

#include "probe/common/python_env_finder.h"
#include "probe/probe_context.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

struct WindowsPythonLocation {
  std::string prefix;          // the environment: "C:\Users\bob\AppData\Local\Programs\Python\Python311"
  std::string kind;            // "python.org", "store", "conda", "venv", "uv", "portable", "user", "other"
  std::string python_version;  // "3.11"; "" when nothing said it
  std::string version_source;  // "registry", "folder name", "pyvenv.cfg", "conda-meta", "python DLL", ""
  std::string site_packages;   // an existing folder: "<prefix>\Lib\site-packages"
  std::string interpreter;     // the python.exe that imports from it; "" when none was found
  std::string source;          // "HKCU\Software\Python\PythonCore\3.11", "VIRTUAL_ENV", "folder", "uv",
                               // "portable", "APPDATA"
};

// Every candidate, most specific first (VIRTUAL_ENV, CONDA_PREFIX, then the registry, then folders),
// without duplicates (paths compare without case). Only folders that exist are returned. Empty
// without ctx.windows. Paths are Windows paths; ctx.fs reads them on the live machine and under a
// recorded sysroot (drive C: is the folder C there).
std::vector<WindowsPythonLocation> WindowsPythonLocations(const ProbeContext& ctx);

// The interpreters among the locations (every kind but "user") into snapshot.windows.python_installs.
void RecordWindowsPythonInstalls(const std::vector<WindowsPythonLocation>& locations, Snapshot& snapshot);

// The locations as the Python finder's candidates (python_env_finder.h): kinds in the finder's words
// (python.org, Store and uv installs are "system"), found_by naming the place ("registry", "uv", ...),
// and pip's --user folder given the interpreter of its Python version.
std::vector<PythonCandidate> WindowsPythonCandidates(const std::vector<WindowsPythonLocation>& locations);

}  // namespace gpudoctor
