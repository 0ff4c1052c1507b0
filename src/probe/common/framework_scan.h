// What one site-packages folder holds for GPU work, read from files alone: PyTorch (torch/version.py
// and the GPU code in its libraries), the frameworks and GPU packages beside it (torchvision,
// torchaudio, torch-directml, TensorFlow, JAX and its CUDA/ROCm plugins, ONNX Runtime flavours,
// bitsandbytes, the ROCm SDK wheels, and the add-ons built on torch: xformers, flash-attn, vllm, triton,
// deepspeed) from their *.dist-info/METADATA (with the one torch release it pins, if any), the folders of
// GPU libraries (torch/lib, nvidia/*/lib, _rocm_sdk_*/lib) and which copy of the CUDA or HIP runtime each
// framework would load.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "platform/filesystem.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

struct SitePackagesContents {
  std::optional<TorchInstall> torch;
  std::vector<FrameworkInstall> frameworks;
  std::vector<GpuLibraryFolder> gpu_libraries;
};

// Lists `folder` once, reads the version files of the packages it knows and the headers of torch's
// GPU libraries. Unreadable files become warnings.
SitePackagesContents ScanSitePackages(const FileSystem& fs, const std::string& folder,
                                      std::vector<std::string>& warnings);

// The family and backend of a distribution gpudoctor follows, by its normalized name
// ("onnxruntime-rocm" -> {"onnxruntime", "rocm"}); nullopt for any other distribution.
struct KnownDistribution {
  std::string family;
  std::string backend;
};
std::optional<KnownDistribution> ClassifyDistribution(std::string_view normalized_name);

// Vendor runtime file names: "libcudart.so.12" and "cudart64_12.dll" -> "libcudart"; "libamdhip64.so.6"
// and "amdhip64_6.dll" -> "libamdhip64"; "libhsa-runtime64.so.1" -> "libhsa-runtime64"; "" otherwise.
std::string RuntimeOfFile(std::string_view file_name);

}  // namespace gpudoctor
