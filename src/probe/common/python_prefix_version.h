// The Python version of an environment read from the files at its root, for layouts whose
// site-packages folder does not name it (Windows' Lib\site-packages): a venv's pyvenv.cfg, conda's
// conda-meta/python-X.Y.Z-*.json, and on Windows the interpreter's own files beside python.exe
// (python311.dll, python311._pth of an embeddable install, python311.zip).
#pragma once

#include <string>
#include <string_view>

#include "platform/filesystem.h"
#include "probe/common/machine_path_style.h"

namespace gpudoctor {

struct PrefixPythonVersion {
  std::string version;  // "3.11"; "" when no file says
  std::string source;   // "pyvenv.cfg", "conda-meta", "python DLL"; "" when no file says
};

// The first of pyvenv.cfg, conda-meta and (Windows paths only) the interpreter's files that names a
// version. An unreadable file is passed over: the caller reports what it could not read.
PrefixPythonVersion PythonVersionOfPrefix(const FileSystem& fs, const MachinePathStyle& paths,
                                          std::string_view prefix);

}  // namespace gpudoctor
