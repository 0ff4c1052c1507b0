// The Container Device Interface specifications on a Linux host (/etc/cdi, /var/run/cdi): NVIDIA's Container
// Toolkit writes one (`nvidia-ctk cdi generate`) that lists the driver's libraries by their versioned file
// names. It is not rewritten when the driver is updated, so a spec that names another driver than the loaded
// one gives containers started through CDI (podman, Docker's CDI mode, Kubernetes) stale paths.
#pragma once

#include <string>
#include <string_view>

#include "probe/probe_context.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

// The NVIDIA driver version a CDI spec's text names in the host paths of the driver's libraries
// ("/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15" -> "550.54.15"); "" when the spec names none (not an
// NVIDIA spec, or one for another device kind).
std::string CdiSpecDriverVersion(std::string_view text);

// Reads every *.yaml / *.yml / *.json spec in /etc/cdi and /var/run/cdi (at most 4 MiB each) that names
// nvidia.com devices into snap.nvidia.cdi_specs, on a host (not a container, not WSL) with an NVIDIA PCI
// device.
void ProbeCdiSpecs(const ProbeContext& ctx, Snapshot& snap);

}  // namespace gpudoctor
