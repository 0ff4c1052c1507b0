// The worker side of `gpudoctor collectives`: one rank, or the P2P matrix, and one JSON line on stdout.
#include "collectives/collective_worker.h"

#include <exception>

#include "collectives/collective_libraries.h"
#include "collectives/collective_rank.h"
#include "collectives/p2p_matrix.h"
#include "collectives/worker_args.h"

namespace gpudoctor {
namespace {

void PrintLine(std::FILE* out, const std::string& json) {
  std::string line = json + "\n";
  std::fwrite(line.data(), 1, line.size(), out);
  std::fflush(out);
}

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
    report.error = DescribeCollectiveLibrary(record) + " is " + record.status + ": " + record.detail;
    return report;
  }
  report = RunCollectiveRank(**backend, nccl.api, request);
  report.library = DescribeCollectiveLibrary(record);
  return report;
}

}  // namespace

int RunCollectiveWorkerMode(const std::vector<std::string>& args, const Environment& env, std::FILE* out,
                            std::FILE* err) {
  auto request = ParseCollectiveWorkerArguments(args);
  if (!request) {
    std::fprintf(err, "gpudoctor worker: %s\n", request.error().message.c_str());
    return 3;
  }
  auto fs = MakeRootedFileSystem("/");
  BackendInputs inputs = LiveBackendInputs(*fs, env);
  try {
    if (request->kind == kWorkerP2pMatrix) {
      P2pMatrix m;
      if (request->backend == BackendKind::kCuda)
        m = MeasureP2pMatrixCuda(inputs, request->p2p_bytes);
      else
        m.error = "the P2P matrix is measured through the CUDA driver API only (not yet on HIP)";
      PrintLine(out, P2pMatrixToJson(m));
    } else {
      PrintLine(out, RankReportToJson(RunRank(*request, inputs)));
    }
  } catch (const std::exception& e) {
    std::fprintf(err, "gpudoctor worker: internal error: %s\n", e.what());
    return 3;
  }
  return 0;
}

}  // namespace gpudoctor
