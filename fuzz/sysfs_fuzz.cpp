// libFuzzer target: the PCI sysfs attribute parsers, the name-file scanners (amdgpu.ids, pci.ids),
// the recorded device-node list, /etc/group and PCI addresses, all fed the same bytes.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/pci_address.h"
#include "probe/linux/device_node_access.h"
#include "probe/linux/pci_name_files.h"
#include "probe/linux/pci_sysfs_parse.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpudoctor;
  std::string_view text(reinterpret_cast<const char*>(data), size);

  (void)ParsePciHexAttribute(text, 0xffff);
  (void)ParsePciHexAttribute(text, 0xffffff);
  (void)ParseLinkSpeedGts(text);
  (void)ParseLinkWidth(text);
  (void)ParseNumaNode(text);

  (void)ParseAmdgpuIdsLine(text);
  (void)FindAmdgpuIdsName(text, 0x744c, 0xc8);
  if (auto m = LookupPciIds(text, 0x1002, 0x744c, 0x1da2, 0xe471))
    (void)MarketingNameFromPciIds(m->device_name);
  (void)LookupPciIds(text, 0x10de, 0x2684);
  (void)MarketingNameFromPciIds(text);

  RecordedDeviceNodes nodes = ParseRecordedDeviceNodes(text);
  std::vector<GroupEntry> groups = ParseEtcGroup(text);
  UserIdentity user;
  user.user_name = "fuzz";
  user.uid = 1000;
  user.group_ids = {44};
  for (const auto& n : nodes.nodes)
    (void)JudgeDeviceNodeAccess(n.path, true, NodeOwnership{n.mode, n.uid, n.gid}, user, groups);

  std::string normalized = NormalizePciAddress(text);
  if (auto parsed = ParsePciAddress(text)) {
    // A parsed address must print back to something that parses to the same address.
    if (ParsePciAddress(FormatPciAddress(*parsed)) != parsed) __builtin_trap();
  }
  (void)PciAddressTextLess(text, normalized);
  return 0;
}
