// The collective benchmarks without a GPU: the nccl-tests formulas and sizes, the data each rank sends and
// must receive (checked against a CPU emulation of every collective, and shown to catch a wrong element),
// the worker protocol, the aggregation over ranks, the launcher detection, and the command itself: on this
// machine (no GPU) it reports the GPU parts skipped with a reason, alone and under `mpirun -np 4`.
#include <gtest/gtest.h>

#include <map>

#include <nlohmann/json.hpp>

#include "collectives/collective_data.h"
#include "collectives/collective_request.h"
#include "collectives/collective_types.h"
#include "collectives/collectives_report.h"
#include "collectives/collectives_runner.h"
#include "collectives/launcher_env.h"
#include "collectives/p2p_matrix.h"
#include "core/json_reader.h"
#include "gpu/api/mpi_api.h"
#include "gpu/api/nccl_api.h"
#include "gpu_environment.h"
#include "platform/process.h"

namespace gpudoctor {
namespace {

TEST(CollectiveFormulas, BusBandwidthFactorsAreNcclTests) {
  EXPECT_DOUBLE_EQ(BusBandwidthFactor(CollectiveOp::kAllReduce, 8), 2.0 * 7 / 8);
  EXPECT_DOUBLE_EQ(BusBandwidthFactor(CollectiveOp::kAllGather, 8), 7.0 / 8);
  EXPECT_DOUBLE_EQ(BusBandwidthFactor(CollectiveOp::kReduceScatter, 4), 3.0 / 4);
  EXPECT_DOUBLE_EQ(BusBandwidthFactor(CollectiveOp::kAllToAll, 2), 0.5);
  EXPECT_DOUBLE_EQ(BusBandwidthFactor(CollectiveOp::kBroadcast, 8), 1.0);
  EXPECT_DOUBLE_EQ(BusBandwidthFactor(CollectiveOp::kAllReduce, 1), 0.0)
      << "one rank moves nothing over a bus";
  EXPECT_DOUBLE_EQ(AlgorithmBandwidthGBs(1000000000, 0.5), 2.0);
  EXPECT_DOUBLE_EQ(AlgorithmBandwidthGBs(1000, 0), 0.0);
}

TEST(CollectiveFormulas, CountsFollowNcclTestsSizes) {
  auto ag = CountsFor(CollectiveOp::kAllGather, 1024, 4);  // 256 floats gathered, 64 per rank
  ASSERT_TRUE(ag);
  EXPECT_EQ(ag->param, 64u);
  EXPECT_EQ(ag->send, 64u);
  EXPECT_EQ(ag->recv, 256u);
  auto rs = CountsFor(CollectiveOp::kReduceScatter, 1024, 4);
  ASSERT_TRUE(rs);
  EXPECT_EQ(rs->send, 256u);
  EXPECT_EQ(rs->recv, 64u);
  auto a2a = CountsFor(CollectiveOp::kAllToAll, 1024, 4);
  ASSERT_TRUE(a2a);
  EXPECT_EQ(a2a->param, 64u);
  EXPECT_EQ(a2a->recv, 256u);
  EXPECT_EQ(CountsFor(CollectiveOp::kAllReduce, 8, 8)->param, 2u);
  EXPECT_FALSE(CountsFor(CollectiveOp::kAllGather, 8, 8)) << "2 floats cannot give 8 ranks one each";
  EXPECT_EQ(SizeSweep(8, 1ull << 30, 2).size(), 28u);  // 2^3 .. 2^30
  EXPECT_EQ(SizeSweep(8, 1ull << 30, 4).back(), 1ull << 29);
  EXPECT_EQ(SizeSweep(8, 64, 2), (std::vector<uint64_t>{8, 16, 32, 64}));
}

// The CPU emulation of each collective over every rank's send buffer.
std::vector<std::vector<float>> Emulate(CollectiveOp op, int n, const CollectiveCounts& c) {
  std::vector<std::vector<float>> send, recv(static_cast<size_t>(n), std::vector<float>(c.recv));
  for (int r = 0; r < n; ++r) send.push_back(CollectiveSendBuffer(op, r, n, c));
  for (int r = 0; r < n; ++r) {
    for (uint64_t i = 0; i < c.recv; ++i) {
      float v = 0;
      switch (op) {
        case CollectiveOp::kAllReduce:
          for (int s = 0; s < n; ++s) v += send[s][i];
          break;
        case CollectiveOp::kReduceScatter:
          for (int s = 0; s < n; ++s) v += send[s][r * c.param + i];
          break;
        case CollectiveOp::kAllGather:
          v = send[i / c.param][i % c.param];
          break;
        case CollectiveOp::kBroadcast:
          v = send[0][i];
          break;
        case CollectiveOp::kAllToAll:
          v = send[i / c.param][r * c.param + i % c.param];
          break;
      }
      recv[r][i] = v;
    }
  }
  return recv;
}

TEST(CollectiveData, ExpectedValuesMatchAnEmulationOfEveryCollective) {
  for (int n : {1, 2, 3, 8}) {
    for (CollectiveOp op : kAllCollectiveOps) {
      auto c = CountsFor(op, 4096, n);
      ASSERT_TRUE(c);
      auto recv = Emulate(op, n, *c);
      for (int r = 0; r < n; ++r)
        EXPECT_EQ(CountWrongElements(op, r, n, *c, recv[r]), 0u)
            << ToString(op) << " n=" << n << " rank " << r;
      recv[n - 1][c->recv / 2] += 1;  // one element off by one
      EXPECT_EQ(CountWrongElements(op, n - 1, n, *c, recv[n - 1]), 1u) << ToString(op);
      recv[0].pop_back();
      EXPECT_EQ(CountWrongElements(op, 0, n, *c, recv[0]), c->recv) << "a short buffer is all wrong";
    }
  }
}

TEST(CollectiveData, SumsStayExactForManyRanks) {
  // 4096 ranks: every sum below 2^24, so float addition in any order is exact.
  auto c = CountsFor(CollectiveOp::kAllReduce, 64, 4096);
  ASSERT_TRUE(c);
  float expected = CollectiveExpected(CollectiveOp::kAllReduce, 0, 4096, *c, 5);
  double exact = 0;
  for (int r = 0; r < 4096; ++r) exact += CollectiveInput(r, 5);
  EXPECT_EQ(static_cast<double>(expected), exact);
  EXPECT_LT(exact, 16777216.0);
}

TEST(CollectiveWorker, ArgumentsRoundTrip) {
  CollectiveWorkerRequest r;
  r.backend = BackendKind::kHip;
  r.rank = 3;
  r.ranks = 8;
  r.device = 3;
  r.unique_id_hex = std::string(256, 'a');
  r.options.ops = {CollectiveOp::kBroadcast, CollectiveOp::kAllToAll};
  r.options.max_bytes = 1 << 20;
  r.options.factor = 4;
  // Through the worker layer's one codec, as the worker process reads it.
  auto parse = [](const std::vector<std::string>& args) -> Result<CollectiveWorkerRequest> {
    auto decoded = DecodeWorkerRequest(args);
    if (!decoded) return decoded.error();
    return CollectiveRequestFromWorker(*decoded);
  };
  auto back = parse(EncodeWorkerRequest(ToWorkerRequest(r)));
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->backend, BackendKind::kHip);
  EXPECT_EQ(back->rank, 3);
  EXPECT_EQ(back->ranks, 8);
  EXPECT_EQ(back->options.ops, r.options.ops);
  EXPECT_EQ(back->options.max_bytes, 1u << 20);
  EXPECT_EQ(back->options.factor, 4u);
  EXPECT_EQ(back->device, 3);
  EXPECT_EQ(back->unique_id_hex, r.unique_id_hex);
  EXPECT_FALSE(parse({"__worker", "collective-rank", "--set", "rank=8", "--set", "ranks=8", "--set",
                      "id=" + std::string(256, 'a')})
                   .ok());
  EXPECT_FALSE(parse({"__worker", "collective-rank", "--bogus", "1"}).ok());
  EXPECT_FALSE(parse({"__worker", "collective-rank", "--set", "rank=0"}).ok());  // no id
  EXPECT_FALSE(
      parse({"__worker", "collective-rank", "--set", "iters=x", "--set", "id=" + std::string(256, 'a')})
          .ok());
  EXPECT_TRUE(parse({"__worker", "p2p-matrix", "--set", "p2p-bytes=4096"}).ok());
}

TEST(CollectiveWorker, HexAndSizes) {
  unsigned char id[4] = {0x00, 0x7f, 0xa0, 0xff};
  std::string hex = HexEncode(id, 4);
  EXPECT_EQ(hex, "007fa0ff");
  unsigned char back[4] = {};
  EXPECT_TRUE(HexDecode(hex, back, 4));
  EXPECT_EQ(back[3], 0xff);
  EXPECT_FALSE(HexDecode("007fa0f", back, 4));
  EXPECT_FALSE(HexDecode("007fa0fg", back, 4));
  EXPECT_EQ(ParseByteSize("8"), 8u);
  EXPECT_EQ(ParseByteSize("64K"), 65536u);
  EXPECT_EQ(ParseByteSize("256MB"), 256ull << 20);
  EXPECT_EQ(ParseByteSize("1g"), 1ull << 30);
  EXPECT_FALSE(ParseByteSize("1T"));
  EXPECT_FALSE(ParseByteSize("B"));
  EXPECT_EQ(NcclVersionText(22703), "2.27.3");
  EXPECT_EQ(NcclVersionText(2708), "2.7.8");
}

// A rank's numbers that are not whole numbers of their type (found by fuzz/fleet_fuzz.cpp: "checked": 2E44
// was converted into a uint64_t, undefined behaviour) read as absent, never as a wrapped value.
TEST(CollectiveRankReport, NumbersThatAreNotWholeNumbersOfTheirTypeReadAsAbsent) {
  auto r = RankReportFromJson(
      R"({"rank": 1e30, "device": -2.5, "results": [{"op": "broadcast", "checked": 2E44, "wrong": -1,)"
      R"( "size_bytes": 4096}]})");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->rank, 0);
  EXPECT_EQ(r->device, -1);
  ASSERT_EQ(r->results.size(), 1u);
  EXPECT_EQ(r->results[0].checked, 0u);
  EXPECT_EQ(r->results[0].wrong, 0u);
  EXPECT_EQ(r->results[0].size_bytes, 4096u);
}

TEST(JsonWholeNumber, TakesOnlyWholeNumbersThatFit) {
  const auto j = nlohmann::json::parse(
      R"({"a": 7, "b": -3, "c": 2.0, "d": 70000, "e": "7", "f": 18446744073709551615})");
  EXPECT_EQ(WholeNumberOr(j, "a", 0), 7);
  EXPECT_EQ(WholeNumberOr(j, "b", 0), -3);
  EXPECT_EQ(WholeNumberOr(j, "b", 5u), 5u);  // negative into unsigned
  EXPECT_EQ(WholeNumberOr(j, "c", 9), 9);    // a float, even a whole one, is not read
  EXPECT_EQ(WholeNumberOr(j, "d", uint16_t{1}), uint16_t{1});
  EXPECT_EQ(WholeNumberOr(j, "e", 1), 1);
  EXPECT_EQ(WholeNumberOr(j, "f", int64_t{4}), int64_t{4});
  EXPECT_EQ(WholeNumberOr(j, "f", uint64_t{4}), UINT64_MAX);
  EXPECT_EQ(WholeNumberOr(j, "missing", 11), 11);
}

TEST(CollectiveAggregate, MeanTimeOverRanksAndBusBandwidth) {
  RankReport a, b;
  a.rank = 0;
  b.rank = 1;
  a.results.push_back({CollectiveOp::kAllReduce, 1000000000, 100000.0, 0, 250000000, ""});
  b.results.push_back({CollectiveOp::kAllReduce, 1000000000, 300000.0, 2, 250000000, ""});
  a.results.push_back({CollectiveOp::kBroadcast, 4000, 10.0, 0, 1000, ""});
  b.results.push_back({CollectiveOp::kBroadcast, 4000, 0, 0, 0, "ncclBroadcast failed: x"});
  // Through JSON, as the workers send them.
  auto a2 = RankReportFromJson(RankReportToJson(a));
  ASSERT_TRUE(a2.ok());
  auto rows = AggregateRanks({*a2, b}, 2);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].op, CollectiveOp::kAllReduce);
  EXPECT_DOUBLE_EQ(rows[0].time_us, 200000.0);
  EXPECT_DOUBLE_EQ(rows[0].algbw_gbs, 5.0);
  EXPECT_DOUBLE_EQ(rows[0].busbw_gbs, 5.0);  // factor 2(n-1)/n = 1 for two ranks
  EXPECT_EQ(rows[0].wrong, 2u);
  EXPECT_EQ(rows[1].error, "rank 1: ncclBroadcast failed: x");
  CollectivesReport report;
  report.collectives_status = "ran";
  report.rows = rows;
  FinishReport(report);
  EXPECT_EQ(report.collectives_status, "failed");
  EXPECT_EQ(report.exit_code, 1);
}

TEST(CollectiveAggregate, ExitCodes) {
  CollectivesReport skipped;
  FinishReport(skipped);
  EXPECT_EQ(skipped.exit_code, 2);
  CollectivesReport ran;
  ran.collectives_status = "ran";
  ran.rows.push_back({CollectiveOp::kAllReduce, 8, 2, 1.0, 0.008, 0, 0, 2, 1, ""});
  FinishReport(ran);
  EXPECT_EQ(ran.exit_code, 0);
  CollectivesReport bad_copy;
  bad_copy.p2p_status = "ran";
  P2pMatrix m;
  m.devices = {{0, "g", "0000:01:00.0"}};
  m.bandwidth_gbs = {{1.0}};
  m.latency_us = {{1.0}};
  m.peer_access = {{true}};
  m.correct = {{false}};
  bad_copy.p2p = m;
  FinishReport(bad_copy);
  EXPECT_EQ(bad_copy.p2p_status, "failed");
  EXPECT_EQ(bad_copy.exit_code, 1);
  auto back = P2pMatrixFromJson(P2pMatrixToJson(m));
  ASSERT_TRUE(back.ok());
  EXPECT_FALSE(back->correct[0][0]);
  EXPECT_FALSE(P2pMatrixFromJson("{\"devices\": [{}], \"bandwidth_gbs\": []}").ok());
}

TEST(CollectiveRanks, HostRecordsRoundTrip) {
  RankHost h;
  h.rank = 2;
  h.host = "node7";
  h.local_rank = 2;
  h.gpus_visible = 8;
  h.device = 2;
  h.status = "ran";
  RankReport r;
  r.rank = 2;
  r.results.push_back({CollectiveOp::kAllGather, 4096, 12.5, 0, 1024, ""});
  auto back = RankHostFromJson(RankHostToJson(h, &r));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->first.host, "node7");
  EXPECT_EQ(back->first.device, 2);
  ASSERT_TRUE(back->second.has_value());
  EXPECT_EQ(back->second->host, "node7");
  EXPECT_EQ(back->second->results.size(), 1u);
  auto none = RankHostFromJson(RankHostToJson(h, nullptr));
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->second.has_value());
  EXPECT_FALSE(RankHostFromJson("[]").ok());
}

TEST(CollectiveLauncher, DetectsMpirunSrunAndMpich) {
  Environment none;
  EXPECT_EQ(DetectLauncher(none).launcher, Launcher::kNone);
  Environment ompi(
      {{"OMPI_COMM_WORLD_SIZE", "4"}, {"OMPI_COMM_WORLD_RANK", "2"}, {"OMPI_COMM_WORLD_LOCAL_RANK", "2"}});
  auto o = DetectLauncher(ompi);
  EXPECT_EQ(o.launcher, Launcher::kMpirun);
  EXPECT_EQ(o.size, 4);
  EXPECT_EQ(o.local_rank, 2);
  Environment srun(
      {{"SLURM_NTASKS", "16"}, {"SLURM_PROCID", "9"}, {"SLURM_LOCALID", "1"}, {"SLURM_STEP_ID", "0"}});
  auto s = DetectLauncher(srun);
  EXPECT_EQ(s.launcher, Launcher::kSrun);
  EXPECT_EQ(s.rank, 9);
  Environment batch({{"SLURM_NTASKS", "16"}, {"SLURM_PROCID", "0"}});
  EXPECT_EQ(DetectLauncher(batch).launcher, Launcher::kNone)
      << "a batch script outside a job step is no rank";
  Environment mpich({{"PMI_SIZE", "2"}, {"PMI_RANK", "0"}});
  EXPECT_EQ(DetectLauncher(mpich).launcher, Launcher::kMpich);
}

TEST(CollectiveLibraries, AbsentLibrariesAreReportedNotFatal) {
  auto nccl = LoadNccl({"libgpudoctor-no-such-nccl.so.2"});
  EXPECT_EQ(nccl.status, LoadStatus::kAbsent);
  auto mpi = LoadMpi({"libgpudoctor-no-such-mpi.so.40"});
  EXPECT_EQ(mpi.status, LoadStatus::kAbsent);
}

ProcessResult RunCommand(std::vector<std::string> argv, int seconds,
                         std::map<std::string, std::string> extra_env = {}) {
  ProcessRequest req;
  req.argv = std::move(argv);
  req.extra_env = std::move(extra_env);
  req.timeout = std::chrono::milliseconds(seconds * 1000);
  auto r = RunProcess(req);
  return r.ok() ? *r : ProcessResult{};
}

TEST(CollectivesCli, WithoutAGpuTheGpuPartsAreSkippedWithAReason) {
  // Every GPU hidden from both runtimes, so that a GPU machine tests the same path as CI (and does not run
  // the whole sweep, a minute on one H200 in a Debug build, inside this test's time limit).
  const std::map<std::string, std::string> no_gpu{
      {"CUDA_VISIBLE_DEVICES", "-1"}, {"HIP_VISIBLE_DEVICES", "-1"}, {"ROCR_VISIBLE_DEVICES", "-1"}};
  auto r = RunCommand({GPUDOCTOR_BINARY_PATH, "collectives", "--launcher", "local", "--json"}, 60, no_gpu);
  auto doc = nlohmann::json::parse(r.stdout_text, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << r.stdout_text << r.stderr_text;
  EXPECT_EQ(doc["schema"], "gpudoctor.collectives/1");
  ASSERT_EQ(doc["collectives"]["status"], "skipped") << doc["collectives"].dump();
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(doc["mode"], "local");
  EXPECT_NE(doc["collectives"]["reason"].get<std::string>().find("no usable GPU"), std::string::npos);
  EXPECT_EQ(doc["p2p"]["status"], "skipped");
  EXPECT_EQ(doc["exit_code"], 2);
}

TEST(CollectivesCli, MpirunBootstrapsFourRanksAndRankZeroAggregates) {
  auto version = RunCommand({"mpirun", "--version"}, 20);
  if (version.exit_code != 0 || version.stdout_text.find("Open MPI") == std::string::npos)
    GTEST_SKIP() << "Open MPI's mpirun is not installed here (Debian: openmpi-bin libopenmpi3)";
  // Under AddressSanitizer the ranks run without leak detection: Open MPI's plugins, which it opens and
  // closes itself, leave allocations that LeakSanitizer can only attribute to "<unknown module>" (it
  // would end every rank with exit 1). gpudoctor's own code is leak-checked by every other test.
  auto r =
      RunCommand({"mpirun", "--allow-run-as-root", "--oversubscribe", "-x", "ASAN_OPTIONS=detect_leaks=0",
                  "-np", "4", GPUDOCTOR_BINARY_PATH, "collectives", "--json"},
                 120);
  auto doc = nlohmann::json::parse(r.stdout_text, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << "one JSON document from rank 0 alone:\n"
                                   << r.stdout_text << r.stderr_text;
  EXPECT_EQ(doc["mode"], "mpi");
  EXPECT_EQ(doc["launcher"], "mpirun");
  EXPECT_EQ(doc["world_size"], 4);
  ASSERT_EQ(doc["ranks"].size(), 4u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(doc["ranks"][i]["rank"], i);
    EXPECT_EQ(doc["ranks"][i]["local_rank"], i);
    EXPECT_FALSE(doc["ranks"][i]["host"].get<std::string>().empty());
  }
  ASSERT_EQ(doc["hosts"].size(), 1u);
  EXPECT_EQ(doc["hosts"][0]["ranks"], 4);
  // Whether the job can run comes from the environment (the drivers' device nodes), never from the report
  // under test: with fewer GPUs than ranks a rank has none, and a report of "ok" or "failed" is a bug.
  if (testing::GpusInEnvironment() >= 4)
    GTEST_SKIP() << "this machine has a GPU for every rank (4 or more in /dev and the kfd topology)";
  ASSERT_EQ(doc["collectives"]["status"], "skipped")
      << "fewer GPUs here than ranks: " << doc["collectives"].dump();
  EXPECT_EQ(r.exit_code, 2) << "every rank exits with rank 0's verdict";
  // The job's reason names the first rank that cannot run: rank 0 with no GPU here (CI), rank 1 on a
  // machine of one GPU (the H200), whose ranks 1-3 have none.
  int first = 0;
  while (first < 4 && doc["ranks"][first]["reason"].is_null()) ++first;
  ASSERT_LT(first, 4) << "a skipped job has a rank that says why";
  EXPECT_NE(doc["collectives"]["reason"].get<std::string>().find("rank " + std::to_string(first) + " "),
            std::string::npos)
      << doc["collectives"]["reason"];
  EXPECT_FALSE(doc["ranks"][3]["reason"].is_null());
}

}  // namespace
}  // namespace gpudoctor
