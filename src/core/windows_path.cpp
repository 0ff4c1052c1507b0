// Windows path arithmetic (windows_path.h). The root is found first, by its form; the components after
// it are then handled like any path's, with "\" and "/" both separators as Windows takes them.
#include "core/windows_path.h"

#include <algorithm>
#include <vector>

namespace gpudoctor {
namespace {

bool IsSep(char c) {
  return c == '\\' || c == '/';
}

bool IsLetter(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

char Upper(char c) {
  return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
}

char Lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

bool StartsDrive(std::string_view s) {
  return s.size() >= 2 && IsLetter(s[0]) && s[1] == ':';
}

// The end of the next component of `s` from `pos` (the next separator or the end).
size_t ComponentEnd(std::string_view s, size_t pos) {
  while (pos < s.size() && !IsSep(s[pos])) ++pos;
  return pos;
}

// Appends "\server\share" from `s` at `pos` (just after the "\\" or "UNC\"); returns where the root
// ends (the separator after it, or the end). Separators between the two names count as one; a server
// without a share name is a root by itself.
size_t TakeShare(std::string_view s, size_t pos, std::string& root) {
  size_t end = ComponentEnd(s, pos);
  root += "\\";
  root += s.substr(pos, end - pos);
  size_t share = end;
  while (share < s.size() && IsSep(s[share])) ++share;
  if (share >= s.size()) return end;
  size_t share_end = ComponentEnd(s, share);
  root += "\\";
  root += s.substr(share, share_end - share);
  return share_end;
}

bool EqualsNoCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (Lower(a[i]) != Lower(b[i])) return false;
  return true;
}

}  // namespace

WindowsPathRoot SplitWindowsRoot(std::string_view path) {
  WindowsPathRoot out;
  const bool two_seps = path.size() >= 2 && IsSep(path[0]) && IsSep(path[1]);
  if (two_seps && path.size() >= 3 && (path[2] == '?' || path[2] == '.') &&
      (path.size() == 3 || IsSep(path[3]))) {
    out.root = std::string("\\\\") + path[2] + "\\";
    size_t pos = std::min<size_t>(4, path.size());
    while (pos < path.size() && IsSep(path[pos])) ++pos;
    std::string_view after = path.substr(pos);
    const bool unc = after.size() >= 4 && EqualsNoCase(after.substr(0, 3), "UNC") && IsSep(after[3]) &&
                     after.find_first_not_of("\\/", 4) != std::string_view::npos;
    if (unc) {
      out.root += "UNC";
      size_t server = after.find_first_not_of("\\/", 4) + pos;
      out.rest = path.substr(TakeShare(path, server, out.root));
      return out;
    }
    if (StartsDrive(after)) {
      out.root += std::string(1, Upper(after[0])) + ":";
      out.rest = after.substr(2);
      return out;
    }
    size_t end = ComponentEnd(path, pos);  // a device or volume name ("\\?\Volume{...}")
    out.root += path.substr(pos, end - pos);
    out.rest = path.substr(end);
    return out;
  }
  if (two_seps) {
    out.rest = path.substr(TakeShare(path, 2, out.root));
    out.root = "\\" + out.root;  // TakeShare wrote "\server\share"
    return out;
  }
  if (StartsDrive(path)) {
    out.root = std::string(1, Upper(path[0])) + ":";
    out.rest = path.substr(2);
    return out;
  }
  out.rest = path;
  return out;
}

bool IsWindowsAbsolutePath(std::string_view path) {
  WindowsPathRoot r = SplitWindowsRoot(path);
  if (r.root.empty()) return false;
  if (r.root.size() == 2 && r.root[1] == ':')
    return !r.rest.empty() && IsSep(r.rest[0]);  // "C:x" is relative
  return true;
}

std::string NormalizeWindowsPath(std::string_view path) {
  WindowsPathRoot r = SplitWindowsRoot(path);
  std::vector<std::string_view> parts;
  for (size_t pos = 0; pos < r.rest.size();) {
    size_t end = ComponentEnd(r.rest, pos);
    std::string_view part = r.rest.substr(pos, end - pos);
    pos = end + 1;
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      if (!parts.empty() && parts.back() != "..") {
        parts.pop_back();
      } else if (r.root.empty() && (r.rest.empty() || !IsSep(r.rest[0]))) {
        parts.push_back(part);  // a relative path keeps the ".." it cannot resolve
      }
      continue;
    }
    parts.push_back(part);
  }
  const bool rooted = !r.root.empty() || (!r.rest.empty() && IsSep(r.rest[0]));
  std::string out = r.root;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0 || rooted) out += "\\";
    out += parts[i];
  }
  if (parts.empty() && rooted) out += "\\";
  if (!rooted && StartsDrive(out)) out = ".\\" + out;  // a relative name like "C:x" stays one
  return out;
}

std::string JoinWindowsPath(std::string_view dir, std::string_view rel) {
  if (IsWindowsAbsolutePath(rel)) return NormalizeWindowsPath(rel);
  std::string joined(dir);
  joined += "\\";
  joined += rel;
  return NormalizeWindowsPath(joined);
}

std::string WindowsParentPath(std::string_view path) {
  std::string norm = NormalizeWindowsPath(path);
  WindowsPathRoot r = SplitWindowsRoot(norm);
  std::string_view rest = r.rest;
  const bool rooted = !rest.empty() && rest.front() == '\\';
  if (rooted) rest.remove_prefix(1);
  if (rest.empty()) return "";
  const std::string prefix = r.root + (rooted ? "\\" : "");
  size_t cut = rest.find_last_of('\\');
  return cut == std::string_view::npos ? prefix : prefix + std::string(rest.substr(0, cut));
}

std::string WindowsBaseName(std::string_view path) {
  std::string norm = NormalizeWindowsPath(path);
  WindowsPathRoot r = SplitWindowsRoot(norm);
  std::string_view rest = r.rest;
  size_t cut = rest.find_last_of('\\');
  return std::string(cut == std::string_view::npos ? rest : rest.substr(cut + 1));
}

std::string WindowsPathKey(std::string_view path) {
  std::string norm = NormalizeWindowsPath(path);
  if (norm.size() >= 8 && norm.compare(0, 4, "\\\\?\\") == 0 && EqualsNoCase(norm.substr(4, 4), "UNC\\")) {
    norm = "\\\\" + norm.substr(8);
  } else if (norm.size() >= 6 && (norm.compare(0, 4, "\\\\?\\") == 0 || norm.compare(0, 4, "\\\\.\\") == 0) &&
             StartsDrive(std::string_view(norm).substr(4))) {
    norm = norm.substr(4);
  }
  for (char& c : norm) c = Lower(c);
  return norm;
}

bool WindowsPathIsUnder(std::string_view path, std::string_view dir) {
  std::string p = WindowsPathKey(path), d = WindowsPathKey(dir);
  if (p.size() < d.size() || p.compare(0, d.size(), d) != 0) return false;
  return p.size() == d.size() || d.back() == '\\' || p[d.size()] == '\\';
}

}  // namespace gpudoctor
