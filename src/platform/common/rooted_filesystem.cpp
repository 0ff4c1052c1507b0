// FileSystem over a folder: the live machine ("/") or a recorded sysroot.
// Built on std::filesystem so the same code serves Linux and Windows builds;
// stat details that std::filesystem cannot give come from platform code where live.
// Under a recorded root, paths are resolved here component by component, the way
// the kernel would if the root were "/" (as chroot does): an absolute link target
// starts again at the root and ".." stops there, so a tree can never reach the
// host's files, and a loop of links ends with an error after kMaxLinks links. A recorded Windows
// machine keeps drive C: as the folder C of the tree (RecordedWindowsPath).
#include <algorithm>
#include <deque>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "core/strings.h"
#include "core/windows_path.h"
#include "platform/filesystem.h"

namespace gpudoctor {
namespace fs = std::filesystem;

std::string JoinPath(std::string_view dir, std::string_view name) {
  if (IsWindowsAbsolutePath(dir)) return JoinWindowsPath(dir, name);
  std::string out(dir);
  if (out.empty() || out.back() != '/') out += '/';
  while (!name.empty() && name.front() == '/') name.remove_prefix(1);
  out += name;
  return out;
}

std::string_view BaseName(std::string_view path) {
  const bool windows = IsWindowsAbsolutePath(path);
  auto is_sep = [windows](char c) { return c == '/' || (windows && c == '\\'); };
  while (path.size() > 1 && is_sep(path.back())) path.remove_suffix(1);
  size_t pos = path.find_last_of(windows ? "/\\" : "/");
  return pos == std::string_view::npos ? path : path.substr(pos + 1);
}

std::string RecordedWindowsPath(std::string_view path) {
  if (path.empty() || (path[0] != '\\' && path.size() >= 2 && path[1] != ':')) return std::string(path);
  WindowsPathRoot r = SplitWindowsRoot(path);
  std::string_view root = r.root;
  if (StartsWith(root, "\\\\?\\") || StartsWith(root, "\\\\.\\")) root.remove_prefix(4);
  std::string out;
  if (root.size() == 2 && root[1] == ':') {
    if (!r.rest.empty() && r.rest[0] != '\\' && r.rest[0] != '/') return std::string(path);  // "C:x"
    out = "/" + std::string(1, root[0]);
  } else if (StartsWith(root, "\\\\") || StartsWith(ToLower(root), "unc\\")) {
    out = "/UNC";
    for (char c : root.substr(root[0] == '\\' ? 1 : 3)) out += c == '\\' ? '/' : c;
  } else {
    return std::string(path);
  }
  for (char c : r.rest) out += c == '\\' ? '/' : c;
  return out;
}

// Live-only stat details (owner, group, device type); see platform/<os>/file_owner.cpp.
std::optional<FileStat> PlatformStat(const std::string& host_path);

namespace {

bool IsRootSlash(const std::string& root) {
  return root == "/" || root.empty();
}

// Linux's limit (MAXSYMLINKS in fs/namei.c is 40).
constexpr int kMaxLinks = 40;

// Appends the non-empty components of `path` ("a//b/" -> a, b) to the front of `pending`, in order.
void PushFrontComponents(std::string_view path, std::deque<std::string>& pending) {
  std::vector<std::string> parts;
  for (auto part : Split(path, '/')) {
    if (!part.empty()) parts.emplace_back(part);
  }
  pending.insert(pending.begin(), parts.begin(), parts.end());
}

class RootedFileSystem final : public FileSystem {
 public:
  explicit RootedFileSystem(std::string root) : root_(std::move(root)) {
    while (root_.size() > 1 && root_.back() == '/') root_.pop_back();
    live_ = IsRootSlash(root_);
  }

  Result<std::string> ReadFile(std::string_view path, size_t max_bytes) const override {
    auto resolved = Host(path);
    if (!resolved) return resolved.error();
    const std::string& host = *resolved;
    std::error_code ec;
    if (fs::is_directory(host, ec)) return EnvError(std::string(path) + " is a folder, not a file");
    if (auto special = NotRegularFile(host, path)) return *special;
    std::ifstream in(host, std::ios::binary);
    if (!in) return EnvError("cannot read " + std::string(path) + Why(host));
    std::string data;
    data.resize(std::min<size_t>(max_bytes, 64 * 1024));
    size_t used = 0;
    while (in && used < max_bytes) {
      if (used == data.size()) data.resize(std::min(max_bytes, data.size() * 2));
      in.read(data.data() + used, static_cast<std::streamsize>(data.size() - used));
      used += static_cast<size_t>(in.gcount());
    }
    if (in.bad()) return EnvError("error while reading " + std::string(path));
    data.resize(used);
    return data;
  }

  Result<std::vector<std::string>> ListDir(std::string_view path) const override {
    auto host = Host(path);
    if (!host) return host.error();
    std::error_code ec;
    std::vector<std::string> names;
    fs::directory_iterator it(*host, ec), end;
    if (ec) return EnvError("cannot list " + std::string(path) + ": " + ec.message());
    for (; it != end; it.increment(ec)) {
      if (ec) return EnvError("error while listing " + std::string(path) + ": " + ec.message());
      names.push_back(it->path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
  }

  Result<std::string> ReadLink(std::string_view path) const override {
    auto host = Host(path, /*follow_last=*/false);
    if (!host) return host.error();
    std::error_code ec;
    fs::path target = fs::read_symlink(*host, ec);
    if (ec) return EnvError("cannot read link " + std::string(path) + ": " + ec.message());
    return target.generic_string();
  }

  Result<FileStat> Stat(std::string_view path) const override {
    auto resolved = Host(path);
    if (!resolved) return resolved.error();
    const std::string& host = *resolved;
    std::error_code ec;
    fs::file_status st = fs::status(host, ec);
    if (ec || !fs::exists(st)) {
      std::string why = ec ? ec.message() : "no such file";
      return EnvError(std::string(path) + ": " + why);
    }
    FileStat out;
    out.is_dir = fs::is_directory(st);
    out.is_char_device = fs::is_character_file(st);
    out.mode = static_cast<uint32_t>(st.permissions()) & 0777u;
    if (live_) {
      if (auto p = PlatformStat(host)) {
        out.uid = p->uid;
        out.gid = p->gid;
        out.is_char_device = p->is_char_device;
        out.mode = p->mode;
      }
    }
    return out;
  }

  Result<DiskSpace> Space(std::string_view path) const override {
    auto host = Host(path);
    if (!host) return host.error();
    std::error_code ec;
    fs::space_info info = fs::space(*host, ec);
    if (ec) return EnvError("cannot measure free space of " + std::string(path) + ": " + ec.message());
    return DiskSpace{info.capacity, info.available};
  }

  Result<std::unique_ptr<RandomAccessFile>> OpenForReading(std::string_view path) const override {
    auto host = Host(path);
    if (!host) return host.error();
    if (auto special = NotRegularFile(*host, path)) return *special;
    auto file = OpenRandomAccessFile(*host);
    if (!file.ok() && !live_) return file.error().With(std::string(path) + " (under " + root_ + ")");
    return file;
  }

  std::string Root() const override { return live_ ? "/" : root_; }
  bool IsLiveRoot() const override { return live_; }

 private:
  // Maps a machine path to the host path under the root. The live root passes
  // paths through untouched (the kernel resolves them); a recorded root resolves
  // every link itself, the last one only when `follow_last`.
  Result<std::string> Host(std::string_view path, bool follow_last = true) const {
    if (live_) return std::string(path);
    return ResolveUnderRoot(RecordedWindowsPath(path), follow_last);
  }

  Result<std::string> ResolveUnderRoot(std::string_view path, bool follow_last) const {
    std::deque<std::string> pending;
    PushFrontComponents(path, pending);
    std::vector<std::string> done;  // resolved components below the root, none a link
    int links = 0;
    auto host_of = [this](const std::vector<std::string>& parts) {
      std::string host = root_;
      for (const auto& part : parts) host += "/" + part;
      return host;
    };
    while (!pending.empty()) {
      std::string part = std::move(pending.front());
      pending.pop_front();
      if (part == ".") continue;
      if (part == "..") {
        if (!done.empty()) done.pop_back();  // never above the root
        continue;
      }
      done.push_back(std::move(part));
      if (pending.empty() && !follow_last) break;
      std::string host = host_of(done);
      std::error_code ec;
      fs::file_status st = fs::symlink_status(host, ec);
      if (!fs::exists(st) || st.type() == fs::file_type::none) {
        if (pending.empty()) break;  // the caller reports the missing last component
        return EnvError(std::string(path) + ": no such file or folder (" + JoinPath("/", Join(done)) + ")");
      }
      if (!fs::is_symlink(st)) continue;
      if (++links > kMaxLinks) return EnvError(std::string(path) + ": too many levels of symbolic links");
      fs::path target = fs::read_symlink(host, ec);
      if (ec) return EnvError("cannot read link " + JoinPath("/", Join(done)) + ": " + ec.message());
      std::string text = target.generic_string();
      done.pop_back();
      if (!text.empty() && text.front() == '/') done.clear();  // absolute: from the root
      PushFrontComponents(text, pending);
    }
    return host_of(done);
  }
  // Under a recorded root only regular files are opened: a FIFO planted in the tree would block the open
  // forever (issue 35), and a device or a socket is nothing a recording holds. The live root reads what
  // the kernel gives. (The last component of `host` is no link here: Host() resolved it.)
  std::optional<Error> NotRegularFile(const std::string& host, std::string_view path) const {
    if (live_) return std::nullopt;
    std::error_code ec;
    const fs::file_status st = fs::symlink_status(host, ec);
    if (ec || !fs::exists(st) || fs::is_regular_file(st) || fs::is_directory(st)) return std::nullopt;
    return EnvError(std::string(path) + ": not a regular file (under " + root_ + ")");
  }
  static std::string Join(const std::vector<std::string>& parts) {
    std::string out;
    for (const auto& part : parts) out += (out.empty() ? "" : "/") + part;
    return out;
  }
  static std::string Why(const std::string& host) {
    std::error_code ec;
    if (!fs::exists(host, ec)) return ec ? ": " + ec.message() : ": no such file";
    return "";
  }

  std::string root_;
  bool live_ = false;
};

}  // namespace

std::unique_ptr<FileSystem> MakeRootedFileSystem(std::string root) {
  return std::make_unique<RootedFileSystem>(std::move(root));
}

}  // namespace gpudoctor
