// bench's job in the worker layer: `gpudoctor __worker bench --items ID[,ID...] --set group=GROUP ...` runs
// some of one group's benchmarks in this process and prints their results as JSON lines (bench_protocol.h).
// A watchdog (worker/worker_watchdog.h) holds each benchmark to its time limit.
#pragma once

#include "worker/worker_job.h"

namespace gpudoctor {

// The job for cli/worker_jobs.cpp's list.
WorkerJob BenchJob();

}  // namespace gpudoctor
