// The worker layer's jobs of `gpudoctor collectives` (see collective_request.h): one rank, or the P2P matrix,
// each answering with one JSON line.
#pragma once

#include "worker/worker_job.h"

namespace gpudoctor {

// The jobs for cli/worker_jobs.cpp's list.
WorkerJob CollectiveRankJob();
WorkerJob P2pMatrixJob();

}  // namespace gpudoctor
