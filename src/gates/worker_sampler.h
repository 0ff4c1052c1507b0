// The telemetry sampler a GPU worker's gates and benchmarks read: for the CUDA backend NVML's sampler of the
// GPU the worker opened, for HIP the AMD chain's (amd_smi, rocm_smi, sysfs; the libraries found by the same
// search as the backend's), for the fake backend the scripted readings of its script.
#pragma once

#include "gpu/backend.h"
#include "platform/environment.h"
#include "telemetry/gpu_sampler.h"
#include "worker/worker_backend.h"

namespace gpudoctor {

// `backend` (its file system) must outlive the opener.
GpuSamplerOpener WorkerSamplerOpener(BackendKind kind, const WorkerBackend& backend, const Environment& env);

// The sampler of the backend's device `ordinal` (opened), found by its PCI address through `open`; an
// error when there is no opener or it fails.
Result<std::unique_ptr<GpuSampler>> OpenDeviceSampler(Backend& backend, int ordinal,
                                                      const GpuSamplerOpener& open);

// The vendor whose telemetry a backend's GPUs have: "nvidia" (CUDA), "amd" (HIP), "fake".
const char* TelemetryVendorOf(BackendKind kind);

}  // namespace gpudoctor
