// The peer-to-peer matrix through the vendor-neutral Backend (issue 15), on two fake GPUs: direct access
// allowed, refused for a pair (the copy still goes, staged, and comes back right), a copy that fails or comes
// back wrong, and the matrix job run as a worker is run, reading the fake script named in its request.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "collectives/collective_job.h"
#include "collectives/collective_request.h"
#include "collectives/collectives_runner.h"
#include "collectives/p2p_matrix.h"
#include "gpu/fake/fake_backend.h"
#include "unique_temp_dir.h"
#include "worker/worker_job.h"

namespace gpudoctor {
namespace {

// Two fake GPUs with distinct names and addresses, plus `extra` (JSON members, comma first).
std::string TwoGpus(const std::string& extra = "") {
  return R"({"devices": [{"name": "Fake A", "pci_address": "0000:17:00.0"},
                         {"name": "Fake B", "pci_address": "0000:65:00.0"}])" +
         extra + "}";
}

P2pMatrix Measure(const std::string& script, uint64_t bytes = 64 * 1024) {
  auto backend = FakeBackend::FromScript(script);
  EXPECT_TRUE(backend.ok()) << backend.error().message;
  if (!backend.ok()) return {};
  EXPECT_TRUE((*backend)->LoadRuntime().ok());
  return MeasureP2pMatrix(**backend, bytes);
}

TEST(P2pMatrix, EveryPairOfTwoGpusWithPeerAccessIsMeasuredAndChecked) {
  P2pMatrix m = Measure(TwoGpus());
  ASSERT_TRUE(m.error.empty()) << m.error;
  ASSERT_EQ(m.devices.size(), 2u);
  EXPECT_EQ(m.devices[1].name, "Fake B");
  EXPECT_EQ(m.devices[1].pci_address, "0000:65:00.0");
  EXPECT_EQ(m.bytes, 64u * 1024);
  for (size_t src = 0; src < 2; ++src) {
    for (size_t dst = 0; dst < 2; ++dst) {
      EXPECT_TRUE(m.peer_access[src][dst]) << src << " -> " << dst;
      EXPECT_TRUE(m.correct[src][dst]) << src << " -> " << dst;
      EXPECT_GT(m.bandwidth_gbs[src][dst], 0) << src << " -> " << dst;
      EXPECT_GT(m.latency_us[src][dst], 0) << src << " -> " << dst;
    }
  }
}

TEST(P2pMatrix, APairWithoutPeerAccessIsStillCopiedAndSaysSo) {
  // GPU0 may map GPU1's memory, not the other way round.
  P2pMatrix m = Measure(TwoGpus(R"(, "peer_access": [[0, 1]])"));
  ASSERT_TRUE(m.error.empty()) << m.error;
  EXPECT_TRUE(m.peer_access[0][1]);
  EXPECT_FALSE(m.peer_access[1][0]);
  EXPECT_TRUE(m.peer_access[1][1]);  // the diagonal is one GPU
  EXPECT_TRUE(m.correct[1][0]);
  EXPECT_GT(m.bandwidth_gbs[1][0], 0);
}

TEST(P2pMatrix, AFailingCopyStopsTheMatrixNamingThePair) {
  P2pMatrix m = Measure(TwoGpus(R"(, "fail": {"copy_peer": "link down"})"));
  EXPECT_NE(m.error.find("GPU0 -> GPU0"), std::string::npos) << m.error;
  EXPECT_NE(m.error.find("link down"), std::string::npos) << m.error;
  // A refusal to enable access is not a failure of the matrix: the pair is measured without it.
  P2pMatrix refused = Measure(TwoGpus(R"(, "fail": {"enable_peer_access": "busy"})"));
  EXPECT_TRUE(refused.error.empty()) << refused.error;
  EXPECT_FALSE(refused.peer_access[0][1]);
  EXPECT_TRUE(refused.correct[0][1]);
}

TEST(P2pMatrix, ACopyThatComesBackWrongFailsTheCheckAndTheReport) {
  P2pMatrix m = Measure(TwoGpus(R"(, "corrupt": "copy_peer")"));
  ASSERT_TRUE(m.error.empty()) << m.error;
  EXPECT_FALSE(m.correct[0][1]);
  CollectivesReport report;
  report.p2p_status = "ran";
  report.p2p = m;
  FinishReport(report);
  EXPECT_EQ(report.p2p_status, "failed");
  EXPECT_EQ(report.exit_code, 1);
}

TEST(P2pMatrix, NoGpuIsAnErrorOfTheMatrix) {
  P2pMatrix m = Measure(R"({"devices": []})");
  EXPECT_NE(m.error.find("sees no GPU"), std::string::npos) << m.error;
}

TEST(FakePeers, ACopyMustUseMemoryOfTheDevicesItNames) {
  auto backend = FakeBackend::FromScript(TwoGpus());
  ASSERT_TRUE(backend.ok());
  Backend& b = **backend;
  ASSERT_TRUE(b.LoadRuntime().ok());
  ASSERT_TRUE(b.OpenDevice(0).ok());
  DevicePtr on0 = *b.Allocate(64);
  ASSERT_TRUE(b.OpenDevice(1).ok());
  DevicePtr on1 = *b.Allocate(64);
  EXPECT_TRUE(b.CopyPeer(on1, 1, on0, 0, 64).ok());
  EXPECT_FALSE(b.CopyPeer(on1, 0, on0, 0, 64).ok());   // on1 is GPU1's memory
  EXPECT_FALSE(b.CopyPeer(on1, 1, on0, 0, 128).ok());  // past the allocation
  EXPECT_FALSE(b.EnablePeerAccess(5).ok());
}

TEST(FakePeers, PeerAccessFollowsTheScript) {
  auto backend = FakeBackend::FromScript(TwoGpus(R"(, "peer_access": [])"));
  ASSERT_TRUE(backend.ok());
  Backend& b = **backend;
  ASSERT_TRUE(b.LoadRuntime().ok());
  EXPECT_FALSE(*b.CanAccessPeer(0, 1));
  EXPECT_TRUE(*b.CanAccessPeer(1, 1));
  ASSERT_TRUE(b.OpenDevice(0).ok());
  auto refused = b.EnablePeerAccess(1);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("not supported"), std::string::npos);
}

TEST(P2pMatrixJob, TheWorkerMeasuresOnTheBackendItsRequestNames) {
  auto dir = testing::UniqueTempDir("gpudoctor_p2p_job");
  ASSERT_FALSE(dir.empty());
  std::string script = (dir / "fake.json").string();
  std::ofstream(script) << TwoGpus(R"(, "peer_access": [[1, 0]])");
  WorkerRequest r;
  r.job = kWorkerP2pMatrix;
  r.backend = BackendKind::kFake;
  r.fake_script_path = script;
  r.settings["p2p-bytes"] = "4096";
  std::FILE* out = std::tmpfile();
  std::FILE* err = std::tmpfile();
  ASSERT_TRUE(out && err);
  EXPECT_EQ(RunWorker({P2pMatrixJob()}, EncodeWorkerRequest(r), Environment{}, out, err), 0);
  std::rewind(out);
  std::string line;
  for (int c = std::fgetc(out); c != EOF && c != '\n'; c = std::fgetc(out)) line += static_cast<char>(c);
  std::fclose(out);
  std::fclose(err);
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  auto m = P2pMatrixFromJson(line);
  ASSERT_TRUE(m.ok()) << line;
  EXPECT_TRUE(m->error.empty()) << m->error;
  ASSERT_EQ(m->devices.size(), 2u);
  EXPECT_EQ(m->bytes, 4096u);
  EXPECT_TRUE(m->peer_access[1][0]);
  EXPECT_FALSE(m->peer_access[0][1]);
}

}  // namespace
}  // namespace gpudoctor
