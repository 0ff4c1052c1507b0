// The one list of the worker layer's jobs (`gpudoctor __worker JOB ...`), next to the list of commands.
#pragma once

#include <vector>

#include "worker/worker_job.h"

namespace gpudoctor {

std::vector<WorkerJob> MakeWorkerJobs();

}  // namespace gpudoctor
