#include "gather/pieces_file.h"

#include <fstream>
#include <system_error>

namespace gpudoctor {

Status WritePiecesFile(const std::filesystem::path& path, const RecordedPieces& file, std::string_view head) {
  {
    std::ofstream create(path, std::ios::binary | std::ios::trunc);
    if (!create) return EnvError("cannot write " + path.string());
  }
  std::error_code ec;
  std::filesystem::resize_file(path, file.size, ec);
  if (ec) return EnvError("cannot size " + path.string() + ": " + ec.message());
  std::fstream out(path, std::ios::binary | std::ios::in | std::ios::out);
  auto put = [&out](uint64_t offset, std::string_view bytes) {
    out.seekp(static_cast<std::streamoff>(offset));
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  };
  for (const auto& [offset, bytes] : file.pieces) put(offset, bytes);
  if (!head.empty()) put(0, head);
  out.close();
  if (!out) return EnvError("cannot write " + path.string());
  return Ok{};
}

}  // namespace gpudoctor
