// Runs one probe over a SysrootBuilder's tree the way a recorded machine is read (ctx.live false, an empty
// environment, no user), on a snapshot that holds what the passes before it found.
#pragma once

#include <cstdint>

#include "platform/environment.h"
#include "platform/filesystem.h"
#include "platform/identity.h"
#include "probe/probe_context.h"
#include "probe_sysroot_builder.h"
#include "snapshot/snapshot.h"

namespace gpudoctor::testing {

// `probe(ctx, snap)` on the tree, starting from `before`.
template <typename Probe>
Snapshot RunProbeOffline(const SysrootBuilder& root, Snapshot before, Probe probe) {
  auto fs = MakeRootedFileSystem(root.root());
  Environment env;
  UserIdentity who;
  ProbeContext ctx{*fs, env, who, false};
  probe(ctx, before);
  return before;
}

// A snapshot whose PCI pass found one NVIDIA GPU of this PCI class (0x030000 VGA, 0x030200 3D controller).
inline Snapshot WithOneNvidiaGpu(uint32_t class_code) {
  Snapshot snap;
  PciDevice gpu;
  gpu.vendor_id = 0x10de;
  gpu.class_code = class_code;
  snap.pci_devices.push_back(gpu);
  return snap;
}

}  // namespace gpudoctor::testing
