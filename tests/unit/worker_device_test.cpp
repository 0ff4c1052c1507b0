// The worker's side of the device reference (worker/worker_device.h): a PCI address maps to the backend's
// own ordinal through its device list, whatever order a visible-devices variable gives the runtime
// (issue 15).
#include <gtest/gtest.h>

#include "gpu/fake/fake_backend.h"
#include "worker/worker_device.h"
#include "worker/worker_request.h"

namespace gpudoctor {
namespace {

// What CUDA_VISIBLE_DEVICES=1,0 shows on a machine whose GPUs sit at 17:00.0 and 41:00.0.
std::vector<DeviceInfo> Reordered() {
  return {{0, "GPU at 41", "0000:41:00.0", "sm_90", 1ull << 30, 132u},
          {1, "GPU at 17", "0000:17:00.0", "sm_90", 1ull << 30, 132u}};
}

TEST(WorkerDevice, AReferenceIsAnAddressAnIndexOrNothing) {
  EXPECT_TRUE(IsWorkerDeviceRef(""));
  EXPECT_TRUE(IsWorkerDeviceRef("3"));
  EXPECT_TRUE(IsWorkerDeviceRef("0000:c1:00.0"));
  EXPECT_FALSE(IsWorkerDeviceRef("0000:C1:00.0")) << "the parent sends the backends' lowercase form";
  EXPECT_FALSE(IsWorkerDeviceRef("c1:00.0"));
  EXPECT_FALSE(IsWorkerDeviceRef("0000:c1:00.8"));
  EXPECT_FALSE(IsWorkerDeviceRef("gpu0"));
  EXPECT_FALSE(IsWorkerDeviceRef("-1"));
}

TEST(WorkerDevice, TheRequestCarriesTheAddressAndRefusesAnythingElse) {
  WorkerRequest r;
  r.job = "bench";
  r.device = "0000:17:00.0";
  auto back = DecodeWorkerRequest(EncodeWorkerRequest(r));
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->device, "0000:17:00.0");
  EXPECT_FALSE(DecodeWorkerRequest({"__worker", "bench", "--device", "gpu0"}).ok());
  EXPECT_FALSE(DecodeWorkerRequest({"__worker", "bench", "--device", ""}).ok());
  r.device.clear();  // the runtime's first device: no --device at all
  auto first = DecodeWorkerRequest(EncodeWorkerRequest(r));
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->device, "");
}

TEST(WorkerDevice, AnAddressMapsToTheOrdinalTheRuntimeGivesIt) {
  auto devices = Reordered();
  EXPECT_EQ(*WorkerDeviceOrdinal(devices, "0000:17:00.0"), 1);
  EXPECT_EQ(*WorkerDeviceOrdinal(devices, "0000:41:00.0"), 0);
  EXPECT_EQ(*WorkerDeviceOrdinal(devices, ""), 0);
  EXPECT_EQ(*WorkerDeviceOrdinal(devices, "1"), 1);
  auto gone = WorkerDeviceOrdinal(devices, "0000:9a:00.0");
  ASSERT_FALSE(gone.ok());
  EXPECT_NE(gone.error().message.find("0000:9a:00.0"), std::string::npos);
  EXPECT_NE(gone.error().hint.find("CUDA_VISIBLE_DEVICES"), std::string::npos);
  EXPECT_FALSE(WorkerDeviceOrdinal(devices, "2").ok());
  EXPECT_FALSE(WorkerDeviceOrdinal({}, "").ok());
}

TEST(WorkerDevice, TheFakeBackendOpensTheAddressedGpu) {
  // Devices without an address get one each (0000:03:00.0, 0000:04:00.0); the second is opened by address.
  auto fake = FakeBackend::FromScript(
      R"({"devices": [{"memory_total_bytes": 1048576}, {"memory_total_bytes": 2097152}]})", {});
  ASSERT_TRUE(fake.ok()) << fake.error().message;
  auto ordinal = OpenWorkerDevice(**fake, "0000:04:00.0");
  ASSERT_TRUE(ordinal.ok()) << ordinal.error().message;
  EXPECT_EQ(*ordinal, 1);
  auto memory = (*fake)->MemoryInfo();
  ASSERT_TRUE(memory.ok());
  EXPECT_EQ(memory->total_bytes, 2097152u);
  EXPECT_FALSE(OpenWorkerDevice(**fake, "0000:05:00.0").ok());
}

}  // namespace
}  // namespace gpudoctor
