// The OS-neutral parts of the Windows facts interface: registry value helpers.
#include <cstring>

#include "platform/windows_system.h"

namespace gpudoctor {

const char* ToString(RegistryRoot root) {
  switch (root) {
    case RegistryRoot::kLocalMachine:
      return "HKLM";
    case RegistryRoot::kCurrentUser:
      return "HKCU";
  }
  return "HKLM";
}

RegistryValue RegistryValue::String(std::string s) {
  RegistryValue v;
  v.type = Type::kString;
  v.text = std::move(s);
  return v;
}

RegistryValue RegistryValue::Dword(uint32_t value) {
  RegistryValue v;
  v.type = Type::kDword;
  v.number = value;
  return v;
}

RegistryValue RegistryValue::Qword(uint64_t value) {
  RegistryValue v;
  v.type = Type::kQword;
  v.number = value;
  return v;
}

std::optional<uint64_t> RegistryValue::AsNumber() const {
  switch (type) {
    case Type::kDword:
    case Type::kQword:
      return number;
    case Type::kBinary:
      if (bytes.size() == 4 || bytes.size() == 8) {
        uint64_t out = 0;
        for (size_t i = bytes.size(); i-- > 0;) out = (out << 8) | static_cast<unsigned char>(bytes[i]);
        return out;
      }
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

std::optional<std::string> RegistryValue::AsText() const {
  switch (type) {
    case Type::kString:
    case Type::kExpandString:
      return text;
    case Type::kMultiString:
      if (strings.empty()) return std::string();
      return strings.front();
    default:
      return std::nullopt;
  }
}

}  // namespace gpudoctor
