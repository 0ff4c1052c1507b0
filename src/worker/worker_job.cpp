// RunWorker (see worker_job.h).
#include "worker/worker_job.h"

namespace gpudoctor {

int RunWorker(const std::vector<WorkerJob>& jobs, const std::vector<std::string>& args,
              const Environment& env, std::FILE* out, std::FILE* err) {
  auto request = DecodeWorkerRequest(args);
  if (!request) {
    std::fprintf(err, "gpudoctor worker: %s\n", request.error().message.c_str());
    return 3;
  }
  for (const auto& job : jobs)
    if (job.name == request->job) return job.run(*request, env, out, err);
  std::fprintf(err, "gpudoctor worker: unknown job %s\n", request->job.c_str());
  return 3;
}

void PrintWorkerLine(std::FILE* out, const std::string& line) {
  std::string text = line + "\n";
  std::fwrite(text.data(), 1, text.size(), out);
  std::fflush(out);
}

}  // namespace gpudoctor
