// The small shared pieces of the backend interface: names of enums, kernel argument slots, and which
// throttle reasons are alarming.
#include "gpu/backend.h"

#include "core/enum_names.h"

#include <cstring>

namespace gpudoctor {

constexpr std::array kBackendKindNames = {
    EnumName<BackendKind>{BackendKind::kCuda, "cuda"},
    EnumName<BackendKind>{BackendKind::kHip, "hip"},
    EnumName<BackendKind>{BackendKind::kFake, "fake"},
};

const char* ToString(BackendKind kind) {
  return NameIn(kBackendKindNames, kind);
}

std::optional<BackendKind> BackendKindFromString(std::string_view s) {
  return ValueIn(kBackendKindNames, s);
}

const char* ToString(GemmType t) {
  switch (t) {
    case GemmType::kF32:
      return "fp32";
    case GemmType::kF16:
      return "fp16";
    case GemmType::kBF16:
      return "bf16";
  }
  return "fp32";
}

size_t ElementBytes(GemmType t) {
  return t == GemmType::kF32 ? 4 : 2;
}

std::vector<void*> KernelArgs::Pointers() const {
  std::vector<void*> out;
  out.reserve(slots_.size());
  for (const auto& slot : slots_) out.push_back(const_cast<uint64_t*>(&slot));
  return out;
}

bool KernelArgs::PointersInto(void** out, size_t capacity) const {
  if (slots_.size() > capacity) return false;
  for (size_t i = 0; i < slots_.size(); ++i) out[i] = const_cast<uint64_t*>(&slots_[i]);
  return true;
}

float KernelArgs::RawF32(size_t i) const {
  float f = 0;
  uint64_t slot = slots_.at(i);
  std::memcpy(&f, &slot, sizeof f);
  return f;
}

KernelArgs& KernelArgs::Push(const void* v, size_t n) {
  uint64_t slot = 0;
  std::memcpy(&slot, v, n);  // little-endian: a 4-byte value sits at the slot's start, as the ABI reads it
  slots_.push_back(slot);
  return *this;
}

}  // namespace gpudoctor
