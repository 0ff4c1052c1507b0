// Where Python lives on Windows, found from the registry and folders alone (no interpreter is run):
// the PEP 514 registrations the `py` launcher lists (HKCU and HKLM Software\Python\<company>\<tag>),
// python.org installs (%LOCALAPPDATA%\Programs\Python\PythonXY, C:\Program Files\PythonXY), Microsoft
// Store installs (their per-user LocalCache\local-packages), conda (miniconda3, anaconda3, miniforge3
// and their envs), venvs (VIRTUAL_ENV, %USERPROFILE%\.venv) and pip's --user folders
// (%APPDATA%\Python\PythonXY). Each candidate names the site-packages folder to look in for torch.
#pragma once

#include <string>
#include <vector>

#include "probe/probe_context.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

struct WindowsPythonLocation {
  std::string prefix;          // the environment: "C:\Users\bob\AppData\Local\Programs\Python\Python311"
  std::string kind;            // "python.org", "store", "conda", "venv", "user", "other"
  std::string python_version;  // "3.11"; "" when nothing said it
  std::string site_packages;   // an existing folder: "<prefix>\Lib\site-packages"
  std::string source;          // "HKCU\Software\Python\PythonCore\3.11", "VIRTUAL_ENV", "folder"
};

// Every candidate, most specific first (VIRTUAL_ENV, CONDA_PREFIX, then the registry, then folders),
// without duplicates (paths compare without case). Only folders that exist are returned. Empty
// without ctx.windows. Paths are Windows paths; ctx.fs reads them on the live machine and under a
// recorded sysroot (drive C: is the folder C there).
std::vector<WindowsPythonLocation> WindowsPythonLocations(const ProbeContext& ctx);

// The interpreters among the locations (every kind but "user") into snapshot.windows.python_installs.
void ProbeWindowsPythonInstalls(const ProbeContext& ctx, Snapshot& snapshot);

}  // namespace gpudoctor
