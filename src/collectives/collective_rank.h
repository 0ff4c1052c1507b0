// One rank of the collective benchmarks, inside a worker process: its GPU opened through the vendor-neutral
// Backend, its communicator made with the NCCL/RCCL table, then every op at every size: warm-up, a barrier (a
// one-element all-reduce), the timed iterations on the legacy default stream (wall time up to the
// synchronize, as nccl-tests times them), then one more run whose output is copied back and compared with
// the expected values (collective_data.h). Relies on the CUDA and HIP backends' DevicePtr being the device
// address itself, which both are (cuMemAlloc / hipMalloc results).
#pragma once

#include "collectives/collective_request.h"
#include "collectives/collective_types.h"
#include "gpu/api/nccl_api.h"
#include "gpu/backend.h"

namespace gpudoctor {

// Runs the sweep of `request` on `backend` (runtime loaded, device not yet open) through `nccl`.
RankReport RunCollectiveRank(Backend& backend, const NcclApi& nccl, const CollectiveWorkerRequest& request);

}  // namespace gpudoctor
