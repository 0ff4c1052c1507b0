// Two reading rules of explain that no catalog pattern expresses: CUDA's words printed by a HIP port on an
// AMD GPU are read as the HIP error (log_scanner.cpp, ReadCudaNamesAsHipOnAmdLogs), and a traceback a
// library caught and logged through a frame a harmless entry names is not the program's failure
// (explain_report.cpp, EndsACaughtTraceback).
#include <gtest/gtest.h>

#include <string>

#include "explain_test_util.h"

namespace gpudoctor {
namespace {

TEST(CudaWordsOnAmd, AHipPortOnARadeonGetsTheHipEntry) {
  const ExplainReport r = ReportOnLinux(
      "ggml_cuda_init: found 1 ROCm devices:\n"
      "  Device 0: AMD Radeon RX 6600, compute capability 10.3, VMM: no\n"
      "CUDA error: invalid device function\n");
  EXPECT_EQ(FirstId(r), "hip.invalid_device_function");
}

TEST(CudaWordsOnAmd, NvidiaOrZludaEvidenceKeepsTheCudaEntry) {
  // An NVIDIA GPU named anywhere: the CUDA reading stands.
  EXPECT_EQ(
      FirstId(ReportOnLinux("Device 0: NVIDIA GeForce RTX 3060\nCUDA error: invalid device function\n")),
      "cuda.invalid_device_function");
  // ZLUDA runs CUDA programs on AMD GPUs; its failures have their own fixes, not HIP's.
  EXPECT_EQ(FirstId(ReportOnLinux("ZLUDA detected\nDevice 0: AMD Radeon RX 6600\n"
                                  "CUDA error: invalid device function\n")),
            "cuda.invalid_device_function");
  // No GPU named at all: nothing to move it by.
  EXPECT_EQ(FirstId(ReportOnLinux("CUDA error: invalid device function\n")), "cuda.invalid_device_function");
  // rocminfo's CPU agent is not an NVIDIA GPU.
  EXPECT_EQ(FirstId(ReportOnLinux("  Marketing Name:          AMD Ryzen 9 7950X 16-Core Processor\n"
                                  "  Name:                    gfx1100\n"
                                  "CUDA error: out of memory\n")),
            "hip.out_of_memory");
}

// The Vulkan loader and ld.so skipping a 32-bit driver, layer or preload are noise; a 32-bit CUDA library a
// program itself loads is its failure.
TEST(WrongElfClass, VulkanMultilibNoiseIsHarmlessAProgramsOwnLibraryIsNot) {
  const ExplainReport noise = ReportOnLinux(
      "ERROR: [Loader Message] Code 0 : /usr/lib/i386-linux-gnu/libvulkan_radeon.so: wrong ELF class: "
      "ELFCLASS32\n"
      "ERROR: ld.so: object '/home/u/.steam/ubuntu12_32/gameoverlayrenderer.so' from LD_PRELOAD cannot be "
      "preloaded (wrong ELF class: ELFCLASS32): ignored.\n"
      "amdvlk32.so: wrong ELF class: ELFCLASS32\n");
  EXPECT_TRUE(noise.matches.empty()) << FirstId(noise);
  EXPECT_FALSE(noise.harmless.empty());
  const ExplainReport own =
      ReportOnLinux("OSError: /usr/lib/i386-linux-gnu/libcuda.so: wrong ELF class: ELFCLASS32\n");
  EXPECT_EQ(FirstId(own), "loader.wrong_architecture");
}

TEST(CaughtTraceback, XformersLoggedImportOfTritonIsNotAFailure) {
  const std::string caught =
      "WARNING  A matching Triton is not available, some optimizations will not be enabled\n"
      "Traceback (most recent call last):\n"
      "  File \"D:\\venv\\Lib\\site-packages\\xformers\\__init__.py\", line 57, in "
      "_is_triton_available\n"
      "    import triton  # noqa\n"
      "    ^^^^^^^^^^^^^\n"
      "ModuleNotFoundError: No module named 'triton'\n";
  const ExplainReport r = ReportOnLinux(caught);
  EXPECT_TRUE(r.matches.empty()) << FirstId(r);
  EXPECT_FALSE(r.harmless.empty());

  // A failure of the program's own, far below the caught traceback, is still reported.
  std::string later = caught;
  for (int i = 0; i < 60; ++i) later += "step " + std::to_string(i) + " loss 0.5\n";
  later +=
      "Traceback (most recent call last):\n  File \"train.py\", line 3, in <module>\n"
      "RuntimeError: the dataset folder is empty\n";
  EXPECT_EQ(FirstId(ReportOnLinux(later)), "unrecognized.error");
}

}  // namespace
}  // namespace gpudoctor
