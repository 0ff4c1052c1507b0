// Windows: positioned reads with ReadFile and an OVERLAPPED offset on a handle opened once, shared
// for reading and writing so that a library in use by another process can still be examined.
#include <windows.h>

#include <algorithm>

#include "platform/random_access_file.h"
#include "platform/windows/windows_text.h"

namespace gpudoctor {
namespace {

class WindowsRandomAccessFile final : public RandomAccessFile {
 public:
  WindowsRandomAccessFile(HANDLE h, uint64_t size, std::string path)
      : h_(h), size_(size), path_(std::move(path)) {}
  ~WindowsRandomAccessFile() override { CloseHandle(h_); }
  WindowsRandomAccessFile(const WindowsRandomAccessFile&) = delete;
  WindowsRandomAccessFile& operator=(const WindowsRandomAccessFile&) = delete;

  uint64_t Size() const override { return size_; }
  const std::string& Path() const override { return path_; }

  Status ReadAt(uint64_t offset, std::span<uint8_t> out) const override {
    size_t done = 0;
    while (done < out.size()) {
      uint64_t at = offset + done;
      OVERLAPPED ov{};
      ov.Offset = static_cast<DWORD>(at & 0xFFFFFFFFu);
      ov.OffsetHigh = static_cast<DWORD>(at >> 32);
      DWORD want = static_cast<DWORD>(std::min<size_t>(out.size() - done, 1u << 30));
      DWORD got = 0;
      if (!ReadFile(h_, out.data() + done, want, &got, &ov)) {
        DWORD err = GetLastError();
        if (err != ERROR_HANDLE_EOF)
          return EnvError(path_ + ": reading " + std::to_string(out.size()) + " bytes at offset " +
                          std::to_string(offset) + " failed: " + WindowsErrorText(err));
      }
      if (got == 0)
        return EnvError(path_ + ": the file ends before offset " + std::to_string(offset + out.size()) +
                        " (did it change while it was read?)");
      done += got;
    }
    return Ok{};
  }

 private:
  HANDLE h_;
  uint64_t size_;
  std::string path_;
};

}  // namespace

Result<std::unique_ptr<RandomAccessFile>> OpenRandomAccessFile(const std::string& host_path) {
  std::wstring wide = Utf8ToWide(host_path);
  DWORD attrs = GetFileAttributesW(wide.c_str());
  if (attrs != INVALID_FILE_ATTRIBUTES && (attrs & FILE_ATTRIBUTE_DIRECTORY))
    return UserError(host_path + " is a folder, not a file");
  HANDLE h = CreateFileW(wide.c_str(), GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                         nullptr, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr);
  if (h == INVALID_HANDLE_VALUE)
    return EnvError("cannot open " + host_path + ": " + WindowsErrorText(GetLastError()));
  LARGE_INTEGER size{};
  if (!GetFileSizeEx(h, &size)) {
    std::string why = WindowsErrorText(GetLastError());
    CloseHandle(h);
    return EnvError("cannot examine " + host_path + ": " + why);
  }
  return std::unique_ptr<RandomAccessFile>(
      std::make_unique<WindowsRandomAccessFile>(h, static_cast<uint64_t>(size.QuadPart), host_path));
}

}  // namespace gpudoctor
