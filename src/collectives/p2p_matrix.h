// Peer-to-peer copy bandwidth and latency between every pair of GPUs one process sees (the diagonal is a copy
// within one GPU), measured in one worker through the vendor-neutral Backend, so on CUDA and HIP alike:
// CanAccessPeer and EnablePeerAccess where the pair allows it (cuDeviceCanAccessPeer / cuCtxEnablePeerAccess,
// hipDeviceCanAccessPeer / hipDeviceEnablePeerAccess), then CopyPeer (cuMemcpyPeer / hipMemcpyPeer, staged
// through the host by the runtime where direct access is off). Bandwidth: `bytes` copied 10 times after one
// untimed copy, wall time to the synchronize, GB/s = 1e9 bytes/s. Latency: the mean wall time of 100 copies
// of 4 bytes, in microseconds (what a program waiting on a small copy sees, launch cost included). Every
// large copy is checked: the destination is read back and compared with the source's pattern.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/gpu_ref.h"
#include "core/result.h"
#include "gpu/backend.h"

namespace gpudoctor {

struct P2pMatrix {
  std::vector<GpuRef> devices;
  uint64_t bytes = 0;
  std::vector<std::vector<double>> bandwidth_gbs;  // [src][dst]
  std::vector<std::vector<double>> latency_us;
  std::vector<std::vector<bool>> peer_access;  // direct access enabled (true on the diagonal)
  std::vector<std::vector<bool>> correct;      // the copy came back intact
  std::string error;                           // set when the matrix could not be measured at all
};

std::string P2pMatrixToJson(const P2pMatrix& m);
Result<P2pMatrix> P2pMatrixFromJson(std::string_view text);

// Measures every device `backend` sees (at most 64), its runtime loaded. What could not be measured is the
// matrix's `error` (the pair it stopped at named); a pair without direct access is measured all the same.
P2pMatrix MeasureP2pMatrix(Backend& backend, uint64_t bytes);

}  // namespace gpudoctor
