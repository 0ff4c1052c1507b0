// Lexical path helpers and link resolution through FileSystem::ReadLink (machine_paths.h).
#include "probe/common/machine_paths.h"

#include <deque>
#include <vector>

#include "core/strings.h"

namespace gpudoctor {
namespace {

constexpr int kMaxLinks = 40;

std::string JoinParts(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& p : parts) out += "/" + p;
  return out.empty() ? "/" : out;
}

void PushFront(std::string_view path, std::deque<std::string>& pending) {
  std::vector<std::string> parts;
  for (auto part : Split(path, '/'))
    if (!part.empty()) parts.emplace_back(part);
  pending.insert(pending.begin(), parts.begin(), parts.end());
}

}  // namespace

std::string ParentPath(std::string_view path) {
  while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  size_t pos = path.find_last_of('/');
  if (pos == std::string_view::npos) return "";
  if (pos == 0) return "/";
  return std::string(path.substr(0, pos));
}

std::string NormalizePath(std::string_view path) {
  std::vector<std::string> parts;
  for (auto part : Split(path, '/')) {
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
      continue;
    }
    parts.emplace_back(part);
  }
  return JoinParts(parts);
}

std::string AbsolutePath(std::string_view base, std::string_view path) {
  if (!path.empty() && path.front() == '/') return NormalizePath(path);
  return NormalizePath(std::string(base) + "/" + std::string(path));
}

std::string CanonicalPath(const FileSystem& fs, std::string_view path) {
  std::deque<std::string> pending;
  PushFront(path, pending);
  std::vector<std::string> done;
  int links = 0;
  while (!pending.empty()) {
    std::string part = std::move(pending.front());
    pending.pop_front();
    if (part == ".") continue;
    if (part == "..") {
      if (!done.empty()) done.pop_back();
      continue;
    }
    done.push_back(std::move(part));
    auto target = fs.ReadLink(JoinParts(done));
    if (!target.ok() || target->empty()) continue;  // not a link (or unreadable): keep it
    if (++links > kMaxLinks) return NormalizePath(path);
    done.pop_back();
    if (target->front() == '/') done.clear();
    PushFront(*target, pending);
  }
  return JoinParts(done);
}

bool PathIsUnder(std::string_view path, std::string_view dir) {
  while (dir.size() > 1 && dir.back() == '/') dir.remove_suffix(1);
  if (!StartsWith(path, dir)) return false;
  return path.size() == dir.size() || dir == "/" || path[dir.size()] == '/';
}

}  // namespace gpudoctor
