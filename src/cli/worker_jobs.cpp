// The one list of worker jobs (see worker_jobs.h). A new job (tune, monitor) is a file beside the code it
// runs, with a function returning its WorkerJob, and one line here.
#include "cli/worker_jobs.h"

#include "bench/bench_job.h"
#include "collectives/collective_job.h"
#include "gates/gate_job.h"

namespace gpudoctor {

std::vector<WorkerJob> MakeWorkerJobs() {
  return {VerifyGateJob(), BenchJob(), CollectiveRankJob(), P2pMatrixJob()};
}

}  // namespace gpudoctor
