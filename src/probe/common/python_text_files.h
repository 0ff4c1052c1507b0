// The small text files that say what a Python environment is, parsed without running Python:
// torch/version.py (and torchvision's, torchaudio's), a venv's pyvenv.cfg, conda's
// ~/.conda/environments.txt and the pythonX.Y folder names. Every parser takes outside data and
// never fails loudly: what it cannot read it leaves empty (fuzz/python_config_fuzz.cpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

// What a version.py records about a build (torch; torchvision and torchaudio write __version__ and
// git_version too).
struct TorchVersionFile {
  std::string version;        // __version__ = '2.7.1+cu128'
  std::string cuda;           // cuda = '12.8' (or cuda: Optional[str] = '12.8'); "" for None
  std::string hip;            // hip = '6.2.41133-dd7f95766'; "" for None
  std::string git_version;    // git_version = '...'
  std::optional<bool> debug;  // debug = True / False
};

// Parses the text of torch/version.py. nullopt when no `__version__` assignment is found. Reads only
// simple assignments of a quoted string, None, True or False; anything else on a line is ignored.
std::optional<TorchVersionFile> ParseTorchVersionFile(std::string_view text);

// "python3.10" -> "3.10"; nullopt for anything else ("python3", "python3.10-config").
std::optional<std::string> PythonVersionFromFolder(std::string_view name);

// The Windows names that carry a Python version: an install folder ("Python311", "Python312-32",
// "Python313t"), the interpreter's DLL, path file or library zip beside python.exe ("python311.dll",
// "python311._pth", "python311.zip"); "3.11", any case. nullopt for anything else ("python3.dll").
std::optional<std::string> PythonVersionFromWindowsName(std::string_view name);

// "3.12.1", "3.12.1.final.0", "3.12" -> "3.12"; nullopt unless it starts with two numbers.
std::optional<std::string> PythonMajorMinor(std::string_view version);

// A venv's pyvenv.cfg ("key = value" lines, written by venv, virtualenv and uv).
struct PyvenvConfig {
  std::string home;            // the base interpreter's folder
  std::string python_version;  // "3.12", from `version`, `version_info` or `python`; "" when absent
  bool include_system_site_packages = false;
  std::string prompt;
};
PyvenvConfig ParsePyvenvConfig(std::string_view text);

// ~/.conda/environments.txt: one environment prefix per line; blank lines and lines that are not
// absolute paths (POSIX, or Windows: "C:\\Users\\u\\miniconda3\\envs\\ml") are skipped.
std::vector<std::string> ParseCondaEnvironments(std::string_view text);

}  // namespace gpudoctor
