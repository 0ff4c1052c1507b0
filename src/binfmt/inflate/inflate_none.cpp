// InflateRaw in a build without zlib (the mingw-w64 cross build): stored zip entries still read.
#include "binfmt/inflate.h"

namespace gpudoctor {

Result<std::vector<uint8_t>> InflateRaw(const ByteSource& in, uint64_t /*max_size*/) {
  return UserError(in.Name() + ": this build of gpudoctor cannot inflate deflate data (built without zlib)",
                   "unpack the wheel (python -m zipfile -e FILE.whl DIR) and give the folder instead");
}

uint32_t Crc32(const std::vector<uint8_t>& bytes) {
  uint32_t crc = 0xFFFFFFFFu;
  for (uint8_t b : bytes) {
    crc ^= b;
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

bool InflateAvailable() {
  return false;
}

}  // namespace gpudoctor
