// ReadWheelCode: the same questions of a zip (binfmt/zip_archive.h) or of a folder, answered by the
// binary readers (binfmt/gpu_targets.h) and the version.py parser (probe/common/python_text_files.h).
#include "probe/common/wheel_code.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "binfmt/gpu_targets.h"
#include "binfmt/zip_archive.h"
#include "platform/filesystem.h"
#include "probe/common/python_text_files.h"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;

// libtorch_cuda.so of a CUDA wheel is about 1.5 GB uncompressed; refuse what cannot be a library.
constexpr uint64_t kMaxLibraryBytes = 8ull << 30;
constexpr uint64_t kWheelInflateRatio = 16;
constexpr uint64_t kMaxVersionFileBytes = 64u << 10;

std::string LastPathPart(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool HasSuffix(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

void AddUnique(std::vector<std::string>& list, const std::string& item) {
  if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
}

// Reads one library's targets into `code` when it holds any.
void TakeLibrary(WheelCode& code, const std::string& path, const ByteSource& bytes) {
  auto t = ReadGpuTargets(bytes);
  if (!t.ok()) {
    code.warnings.push_back(path + ": " + t.error().message);
    return;
  }
  if (!t->HasGpuCode()) return;
  WheelLibraryCode lib;
  lib.path = path;
  lib.cuda_cubins = t->cuda_cubins;
  lib.cuda_ptx = t->cuda_ptx;
  for (const std::string& id : t->amd) AddUnique(lib.amd, id.substr(0, id.find(':')));
  lib.warnings = t->warnings;
  code.libraries.push_back(std::move(lib));
}

void TakeVersionFile(WheelCode& code, std::string_view text) {
  if (auto v = ParseTorchVersionFile(text)) {
    code.version = v->version;
    code.cuda = v->cuda;
    code.hip = v->hip;
  }
}

Result<WheelCode> ReadZip(const std::string& path) {
  auto file = OpenFileByteSource(path);
  if (!file.ok()) return file.error();
  auto entries = ReadZipDirectory(**file);
  if (!entries.ok()) return entries.error();
  WheelCode code;
  code.origin = path;
  // A big wheel (a ROCm torch wheel is several GB) gets a budget in proportion: its libraries inflate
  // to a few times its size, a bomb to hundreds.
  ZipInflateBudget budget(std::max(kMaxZipInflatedTotal, kWheelInflateRatio * (*file)->Size()));
  for (const ZipEntry& e : *entries) {
    const bool version_file = e.name == "torch/version.py";
    if (!version_file && !IsTorchOwnLibrary(e.name)) continue;
    auto bytes = OpenZipEntry(**file, e, version_file ? kMaxVersionFileBytes : kMaxLibraryBytes, &budget);
    if (!bytes.ok()) {
      code.warnings.push_back(bytes.error().message);
      continue;
    }
    if (version_file) {
      auto text = (*bytes)->Read(0, (*bytes)->Size());
      if (text.ok())
        TakeVersionFile(code, std::string_view(reinterpret_cast<const char*>(text->data()), text->size()));
    } else {
      TakeLibrary(code, e.name, **bytes);
    }
  }
  return code;
}

Result<WheelCode> ReadFolder(const FileSystem& files, const std::string& path) {
  // site-packages (holding torch/) or the torch folder itself.
  auto st = files.Stat(path + "/torch");
  const std::string torch = st.ok() && st->is_dir ? path + "/torch" : path;
  auto version = files.ReadFile(torch + "/version.py", kMaxVersionFileBytes);
  if (!version.ok())
    return UserError(path + " holds no torch/version.py",
                     "give the site-packages folder of the install, its torch folder, or the .whl file");
  WheelCode code;
  code.origin = path;
  TakeVersionFile(code, *version);
  auto names = files.ListDir(torch + "/lib");
  if (!names.ok()) {
    code.warnings.push_back(names.error().message);
    return code;
  }
  std::sort(names->begin(), names->end());
  for (const std::string& name : *names) {
    const std::string inside = "torch/lib/" + name;
    if (!IsTorchOwnLibrary(inside)) continue;
    auto bytes = OpenFileByteSource(files, torch + "/lib/" + name);
    if (!bytes.ok()) {
      code.warnings.push_back(bytes.error().message);
      continue;
    }
    TakeLibrary(code, inside, **bytes);
  }
  return code;
}

}  // namespace

bool IsTorchOwnLibrary(const std::string& path) {
  if (path.rfind("torch/lib/", 0) != 0) return false;
  const std::string name = LastPathPart(path);
  const bool so = HasSuffix(name, ".so") || name.find(".so.") != std::string::npos;
  const bool dll = HasSuffix(name, ".dll");
  if (so) return name.rfind("libtorch", 0) == 0 || name.rfind("libc10", 0) == 0;
  if (dll) return name.rfind("torch", 0) == 0 || name.rfind("c10", 0) == 0;
  return false;
}

Result<WheelCode> ReadWheelCode(const std::string& path) {
  std::error_code ec;
  const std::string absolute = fs::absolute(fs::path(path), ec).generic_string();
  if (ec) return UserError("cannot resolve " + path + ": " + ec.message());
  auto files = MakeRootedFileSystem("/");
  auto st = files->Stat(absolute);
  if (!st.ok()) return st.error();
  if (st->is_dir) {
    auto code = ReadFolder(*files, absolute);
    if (code.ok()) code->origin = path;
    return code;
  }
  return ReadZip(path);
}

}  // namespace gpudoctor
