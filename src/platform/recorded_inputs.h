// Where `gather` records, inside a sysroot, what is not a file on the machine (the environment, the
// user's identity, vendor library answers): the probes, the topology and telemetry read them back from
// here when they replay a sysroot. Names only; each file's codec lives with its reader.
#pragma once

namespace gpudoctor {

// The folder, relative to the sysroot.
inline constexpr const char* kRecordedInputsDir = "/.gpudoctor";

// NVML's and the CUDA driver's answers (probe/linux/nvidia_record.h), kRecordedInputsDir + "/nvml.json".
inline constexpr const char* kRecordedNvmlFile = "/.gpudoctor/nvml.json";

}  // namespace gpudoctor
