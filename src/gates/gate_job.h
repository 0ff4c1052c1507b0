// verify's job in the worker layer: `gpudoctor __worker verify-gate --items NAME[,NAME...] ...` runs the
// gates in this process, on one backend, and prints each GateResult as a result line (gate_protocol.h).
#pragma once

#include "worker/worker_job.h"

namespace gpudoctor {

// The job for cli/worker_jobs.cpp's list.
WorkerJob VerifyGateJob();

}  // namespace gpudoctor
