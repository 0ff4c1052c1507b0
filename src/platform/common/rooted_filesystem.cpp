// FileSystem over a folder: the live machine ("/") or a recorded sysroot.
// Built on std::filesystem so the same code serves Linux and Windows builds;
// stat details that std::filesystem cannot give come from platform code where live.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "core/strings.h"
#include "platform/filesystem.h"

namespace gpudoctor {
namespace fs = std::filesystem;

std::string JoinPath(std::string_view dir, std::string_view name) {
  std::string out(dir);
  if (out.empty() || out.back() != '/') out += '/';
  while (!name.empty() && name.front() == '/') name.remove_prefix(1);
  out += name;
  return out;
}

std::string_view BaseName(std::string_view path) {
  while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  size_t pos = path.find_last_of('/');
  return pos == std::string_view::npos ? path : path.substr(pos + 1);
}

// Live-only stat details (owner, group, device type); see platform/<os>/file_owner.cpp.
std::optional<FileStat> PlatformStat(const std::string& host_path);

namespace {

bool IsRootSlash(const std::string& root) { return root == "/" || root.empty(); }

class RootedFileSystem final : public FileSystem {
 public:
  explicit RootedFileSystem(std::string root) : root_(std::move(root)) {
    while (root_.size() > 1 && root_.back() == '/') root_.pop_back();
    live_ = IsRootSlash(root_);
  }

  Result<std::string> ReadFile(std::string_view path, size_t max_bytes) const override {
    std::string host = Host(path);
    std::error_code ec;
    if (fs::is_directory(host, ec)) return EnvError(std::string(path) + " is a folder, not a file");
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
    std::error_code ec;
    std::vector<std::string> names;
    fs::directory_iterator it(Host(path), ec), end;
    if (ec) return EnvError("cannot list " + std::string(path) + ": " + ec.message());
    for (; it != end; it.increment(ec)) {
      if (ec) return EnvError("error while listing " + std::string(path) + ": " + ec.message());
      names.push_back(it->path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
  }

  Result<std::string> ReadLink(std::string_view path) const override {
    std::error_code ec;
    fs::path target = fs::read_symlink(Host(path), ec);
    if (ec) return EnvError("cannot read link " + std::string(path) + ": " + ec.message());
    return target.generic_string();
  }

  Result<FileStat> Stat(std::string_view path) const override {
    std::string host = Host(path);
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
    std::error_code ec;
    fs::space_info info = fs::space(Host(path), ec);
    if (ec) return EnvError("cannot measure free space of " + std::string(path) + ": " + ec.message());
    return DiskSpace{info.capacity, info.available};
  }

  std::string Root() const override { return live_ ? "/" : root_; }
  bool IsLiveRoot() const override { return live_; }

 private:
  // Maps a machine path to the host path under the root.
  std::string Host(std::string_view path) const {
    if (live_) return std::string(path);
    return JoinPath(root_, path);
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
