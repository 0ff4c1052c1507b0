// A job is one kind of work a worker process does (`gpudoctor __worker JOB ...`): verify's gates, bench's
// benchmarks, a collectives rank, the P2P matrix. The parent encodes a WorkerRequest (worker_request.h), the
// worker decodes it once, finds the job by name and runs it; the answers are worker_protocol.h's JSON lines.
// The list of jobs is explicit (cli/worker_jobs.cpp): adding one is a file with its Run function and one
// line in that list.
#pragma once

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "platform/environment.h"
#include "worker/worker_request.h"

namespace gpudoctor {

struct WorkerJob {
  std::string name;  // the JOB of `__worker JOB`
  // Runs the request in this process and prints its answers on `out` (logs on `err`). Returns the process
  // exit code: 0 when it answered (whatever the answers say), 3 when the request itself was wrong.
  std::function<int(const WorkerRequest& request, const Environment& env, std::FILE* out, std::FILE* err)>
      run;
};

// Runs a worker process: `args` are argv[1..] ("__worker", JOB, options). 3 with a message on `err` when the
// arguments are malformed or name no job of `jobs`.
int RunWorker(const std::vector<WorkerJob>& jobs, const std::vector<std::string>& args,
              const Environment& env, std::FILE* out, std::FILE* err);

// Prints one line (a newline added) and flushes, so the parent has it even if the process dies next.
void PrintWorkerLine(std::FILE* out, const std::string& line);

}  // namespace gpudoctor
