// Whether this machine has a GPU, read from the environment, never from the code under test: the device nodes
// and driver files the kernel drivers make. A test that needs a GPU skips only when these say there is none;
// where they say there is one, a runtime that finds no device is a failure, not a skip (a broken backend must
// not turn the real-GPU tests into silent skips). The Windows build answers "none": its runtimes are not read
// through these nodes, and under wine "/dev" would be the Linux host's (wine's Z: drive), whose GPU the
// Windows build cannot use.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

namespace gpudoctor::testing {

// The NVIDIA kernel driver is loaded and has made its control node.
inline bool NvidiaGpuInEnvironment() {
#ifdef _WIN32
  return false;
#endif
  std::error_code ec;
  return std::filesystem::exists("/dev/nvidiactl", ec) ||
         std::filesystem::exists("/proc/driver/nvidia/gpus", ec);
}

// amdgpu's compute interface (ROCm's, which HIP opens) is there.
inline bool AmdGpuInEnvironment() {
#ifdef _WIN32
  return false;
#endif
  std::error_code ec;
  return std::filesystem::exists("/dev/kfd", ec);
}

inline bool GpuInEnvironment() {
  return NvidiaGpuInEnvironment() || AmdGpuInEnvironment();
}

// How many GPUs the drivers list: /dev/nvidia<N> nodes, and the kfd topology nodes with a GPU id (CPU nodes
// have gpu_id 0).
inline int GpusInEnvironment() {
#ifdef _WIN32
  return 0;
#endif
  int count = 0;
  std::error_code ec;
  for (std::filesystem::directory_iterator it("/dev", ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() > 6 && name.rfind("nvidia", 0) == 0 &&
        name.find_first_not_of("0123456789", 6) == std::string::npos)
      ++count;
  }
  const std::filesystem::path nodes = "/sys/class/kfd/kfd/topology/nodes";
  for (std::filesystem::directory_iterator it(nodes, ec), end; !ec && it != end; it.increment(ec)) {
    std::ifstream in(it->path() / "gpu_id");
    unsigned long id = 0;
    if (in >> id && id != 0) ++count;
  }
  return count;
}

// The skip message of a test that needs a GPU on a machine whose drivers show none (tests/allowed_skips.txt
// allows it).
inline constexpr const char* kNoGpuSkip =
    "no NVIDIA or AMD GPU in this environment (no /dev/nvidiactl, no /dev/kfd): skipped";

}  // namespace gpudoctor::testing
