// A time limit for a test that plants a hang: short on an idle machine, so detecting the hang costs little,
// and longer in proportion to the machine's load (the 1-minute load average per CPU), so that the healthy
// items running under the same limit in the same run are not cut off when several test runs share a few
// cores (seen: the fake GEMM gates take 2-2.5 s at a load of 15 on 2 cores, against a 4 s limit).
#pragma once

#include <algorithm>
#include <cmath>
#include <fstream>
#include <thread>

namespace gpudoctor::testing {

// `idle_seconds` scaled by max(1, load average / CPUs), capped at 15x; `idle_seconds` where the load
// cannot be read (not Linux).
inline int LoadScaledSeconds(int idle_seconds) {
  std::ifstream in("/proc/loadavg");
  double load = 0;
  if (!(in >> load)) return idle_seconds;
  const double cpus = std::max(1u, std::thread::hardware_concurrency());
  const double factor = std::clamp(load / cpus, 1.0, 15.0);
  return static_cast<int>(std::ceil(idle_seconds * factor));
}

}  // namespace gpudoctor::testing
