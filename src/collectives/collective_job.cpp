// The worker side of `gpudoctor collectives`: one rank, or the P2P matrix, and one JSON line on stdout.
#include "collectives/collective_job.h"

#include <exception>

#include "collectives/collective_libraries.h"
#include "collectives/collective_rank.h"
#include "collectives/collective_request.h"
#include "collectives/p2p_matrix.h"
#include "worker/worker_backend.h"

namespace gpudoctor {
namespace {

RankReport RunRank(const CollectiveWorkerRequest& request, const BackendInputs& inputs) {
  RankReport report;
  report.rank = request.rank;
  report.device = request.device;
  auto backend = MakeBackend(request.backend, inputs);
  if (!backend) {
    report.error = backend.error().message;
    return report;
  }
  if (auto s = (*backend)->LoadRuntime(); !s) {
    report.error = s.error().message;
    return report;
  }
  BackendLibrary record;
  auto nccl = LoadCollectiveLibrary(inputs, request.backend, record);
  if (nccl.status != LoadStatus::kLoaded) {
    report.error = DescribeCollectiveLibrary(record) + " is " + std::string(LoadStatusName(record.status)) +
                   ": " + record.detail;
    return report;
  }
  report = RunCollectiveRank(**backend, nccl.api, request);
  report.library = DescribeCollectiveLibrary(record);
  return report;
}

// Runs `answer` on the request, the live machine's inputs and prints what it returns.
template <typename Answer>
int RunJob(const WorkerRequest& worker_request, const Environment& env, std::FILE* out, std::FILE* err,
           Answer answer) {
  auto request = CollectiveRequestFromWorker(worker_request);
  if (!request) {
    std::fprintf(err, "gpudoctor worker: %s\n", request.error().message.c_str());
    return 3;
  }
  auto fs = MakeRootedFileSystem("/");
  BackendInputs inputs = LiveBackendInputs(*fs, env);
  try {
    PrintWorkerLine(out, answer(*request, inputs));
  } catch (const std::exception& e) {
    std::fprintf(err, "gpudoctor worker: internal error: %s\n", e.what());
    return 3;
  }
  return 0;
}

// The P2P matrix on the request's backend (the fake one reads its script), every device it sees.
std::string MeasureP2p(const WorkerRequest& worker_request, const CollectiveWorkerRequest& request,
                       const Environment& env) {
  P2pMatrix m;
  auto backend = MakeWorkerBackend(worker_request, env);
  if (!backend) {
    m.error = backend.error().message;
  } else if (auto s = backend->backend->LoadRuntime(); !s) {
    m.error = s.error().message;
  } else {
    m = MeasureP2pMatrix(*backend->backend, request.p2p_bytes);
  }
  return P2pMatrixToJson(m);
}

}  // namespace

WorkerJob CollectiveRankJob() {
  return {kWorkerCollectiveRank,
          [](const WorkerRequest& r, const Environment& env, std::FILE* out, std::FILE* err) {
            return RunJob(r, env, out, err,
                          [](const CollectiveWorkerRequest& request, const BackendInputs& inputs) {
                            return RankReportToJson(RunRank(request, inputs));
                          });
          }};
}

WorkerJob P2pMatrixJob() {
  return {kWorkerP2pMatrix,
          [](const WorkerRequest& r, const Environment& env, std::FILE* out, std::FILE* err) {
            return RunJob(r, env, out, err,
                          [&r, &env](const CollectiveWorkerRequest& request, const BackendInputs&) {
                            return MeasureP2p(r, request, env);
                          });
          }};
}

}  // namespace gpudoctor
