// Lexical arithmetic on Windows paths as users, installers and the registry write them: drive paths
// ("C:\Users\bob", "c:/x"), UNC shares ("\\server\share\x") and the long-path forms ("\\?\C:\x",
// "\\?\UNC\server\share\x"). Pure text: nothing here touches a disk, so the same functions serve the
// live Windows build and a recorded Windows machine replayed on Linux.
#pragma once

#include <string>
#include <string_view>

namespace gpudoctor {

// The parts of a Windows path: its root ("C:", "\\server\share", "\\?\C:", "\\?\UNC\server\share"; ""
// for a relative path) and what follows it.
struct WindowsPathRoot {
  std::string root;       // as written, separators made backslashes, the drive letter upper-case
  std::string_view rest;  // the text after the root (may start with a separator)
};

// True for a path that names one place whatever the current folder: a drive letter with a separator
// after it ("C:\", "C:/"), a UNC share ("\\server\share", "//server/share") or a long path ("\\?\...").
bool IsWindowsAbsolutePath(std::string_view path);

// Splits off the root; rest is "" for a bare root.
WindowsPathRoot SplitWindowsRoot(std::string_view path);

// Backslashes only, no repeated separators, "." and ".." resolved (never above the root), no trailing
// separator except the root's own ("C:\"). The long-path prefix is kept: it is how the path is opened.
// "C:/Users//bob/./x/.." -> "C:\Users\bob"; "\\?\C:\a\" -> "\\?\C:\a"; a relative path stays relative.
std::string NormalizeWindowsPath(std::string_view path);

// `rel` (either separator) below `dir`; an absolute `rel` is returned normalized instead.
std::string JoinWindowsPath(std::string_view dir, std::string_view rel);

// "C:\a\b" -> "C:\a"; "C:\a" -> "C:\"; "C:\" -> "" (a root has no parent); "a" -> "".
std::string WindowsParentPath(std::string_view path);

// The last component ("C:\a\Lib\" -> "Lib"); "" for a root.
std::string WindowsBaseName(std::string_view path);

// What makes two spellings of one folder equal on Windows: normalized, the long-path prefix removed
// ("\\?\C:\x" and "c:\X" give the same key, so do "\\?\UNC\s\share" and "\\s\share"), ASCII lower-case.
std::string WindowsPathKey(std::string_view path);

// True when `path` is `dir` or lies below it, compared by WindowsPathKey.
bool WindowsPathIsUnder(std::string_view path, std::string_view dir);

}  // namespace gpudoctor
