// libFuzzer target: the Windows identifier parsers (probe/windows/windows_ids.h) on arbitrary text —
// PnP hardware ids, LocationInformation, driver versions, product names. Seeds: fuzz/seeds/windows_ids_fuzz.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "probe/windows/windows_ids.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpudoctor;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  if (auto id = ParsePnpHardwareId(text)) {
    if (id->vendor_id > 0xffff || id->device_id > 0xffff) __builtin_trap();
  }
  if (auto address = PciAddressFromLocationInformation(text)) {
    if (address->size() != 12) __builtin_trap();  // "dddd:bb:dd.f"
  }
  if (auto release = NvidiaReleaseFromDriverVersion(text)) {
    if (release->size() != 6 || (*release)[3] != '.') __builtin_trap();
  }
  (void)AmdReleaseLabel(text);
  (void)WindowsProductName(static_cast<uint32_t>(size * 997), text);
  return 0;
}
