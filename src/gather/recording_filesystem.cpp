// Passes every call to the inner FileSystem and keeps what came back (see recording_filesystem.h).
#include "gather/recording_filesystem.h"

#include <algorithm>
#include <cstring>

namespace gpudoctor {
namespace {

// Hands out the inner file's bytes and keeps a copy of each piece read.
class RecordingFile final : public RandomAccessFile {
 public:
  RecordingFile(std::unique_ptr<RandomAccessFile> inner, RecordedPieces& kept)
      : inner_(std::move(inner)), kept_(kept) {}

  uint64_t Size() const override { return inner_->Size(); }
  const std::string& Path() const override { return inner_->Path(); }
  Status ReadAt(uint64_t offset, std::span<uint8_t> out) const override {
    Status st = inner_->ReadAt(offset, out);
    if (!st.ok() || out.empty()) return st;
    std::string& piece = kept_.pieces[offset];
    if (piece.size() >= out.size()) return st;
    if (kept_.kept_bytes + out.size() - piece.size() > kRecordedPiecesMaxBytes) {
      kept_.cut = true;
      return st;
    }
    kept_.kept_bytes += out.size() - piece.size();
    piece.assign(reinterpret_cast<const char*>(out.data()), out.size());
    return st;
  }

 private:
  std::unique_ptr<RandomAccessFile> inner_;
  RecordedPieces& kept_;  // owned by the RecordingFileSystem, which outlives the probe pass
};

}  // namespace

Result<std::string> RecordingFileSystem::ReadFile(std::string_view path, size_t max_bytes) const {
  auto out = inner_.ReadFile(path, max_bytes);
  if (!out.ok() || !keep_(path)) return out;
  std::string& kept = seen_.reads[std::string(path)];
  if (out->size() > kGatherMaxFileBytes) seen_.cut_reads.insert(std::string(path));
  if (out->size() > kept.size()) kept = out->substr(0, std::min(out->size(), kGatherMaxFileBytes));
  return out;
}

Result<std::vector<std::string>> RecordingFileSystem::ListDir(std::string_view path) const {
  auto out = inner_.ListDir(path);
  if (out.ok() && keep_(path)) seen_.listings[std::string(path)] = *out;
  return out;
}

Result<std::string> RecordingFileSystem::ReadLink(std::string_view path) const {
  auto out = inner_.ReadLink(path);
  if (out.ok() && keep_(path)) seen_.links.insert(std::string(path));
  return out;
}

Result<FileStat> RecordingFileSystem::Stat(std::string_view path) const {
  auto out = inner_.Stat(path);
  if (out.ok() && keep_(path)) seen_.stats[std::string(path)] = *out;
  return out;
}

Result<DiskSpace> RecordingFileSystem::Space(std::string_view path) const {
  auto out = inner_.Space(path);
  if (out.ok() && keep_(path)) seen_.spaces.emplace_back(path);
  return out;
}

Result<std::unique_ptr<RandomAccessFile>> RecordingFileSystem::OpenForReading(std::string_view path) const {
  auto out = inner_.OpenForReading(path);
  if (!out.ok() || !keep_(path)) return out;
  RecordedPieces& kept = seen_.opened[std::string(path)];
  kept.size = (*out)->Size();
  return std::unique_ptr<RandomAccessFile>(std::make_unique<RecordingFile>(std::move(out).value(), kept));
}

}  // namespace gpudoctor
