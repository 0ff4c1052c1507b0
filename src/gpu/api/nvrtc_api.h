// NVRTC (libnvrtc / nvrtc64_*.dll), the CUDA run-time compiler, as gpudoctor uses it: our own minimal
// typedefs, one table of function pointers, and the loader that fills it at run time. No CUDA header is
// included. Kernels are compiled from embedded source for the GPU at hand, so one binary serves every
// architecture.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "platform/symbol_binder.h"

namespace gpudoctor {

using nvrtcResult = int;  // 0 = NVRTC_SUCCESS
inline constexpr nvrtcResult kNvrtcSuccess = 0;
inline constexpr nvrtcResult kNvrtcErrorCompilation = 6;  // NVRTC_ERROR_COMPILATION
struct _nvrtcProgram;
using nvrtcProgram = _nvrtcProgram*;

struct NvrtcApi {
  // Required.
  nvrtcResult (*Version)(int*, int*) = nullptr;          // nvrtcVersion
  const char* (*GetErrorString)(nvrtcResult) = nullptr;  // nvrtcGetErrorString
  // nvrtcCreateProgram(prog, source, name, header count, headers, include names)
  nvrtcResult (*CreateProgram)(nvrtcProgram*, const char*, const char*, int, const char* const*,
                               const char* const*) = nullptr;
  nvrtcResult (*DestroyProgram)(nvrtcProgram*) = nullptr;                          // nvrtcDestroyProgram
  nvrtcResult (*CompileProgram)(nvrtcProgram, int, const char* const*) = nullptr;  // nvrtcCompileProgram
  nvrtcResult (*GetProgramLogSize)(nvrtcProgram, size_t*) = nullptr;               // nvrtcGetProgramLogSize
  nvrtcResult (*GetProgramLog)(nvrtcProgram, char*) = nullptr;                     // nvrtcGetProgramLog
  nvrtcResult (*GetPTXSize)(nvrtcProgram, size_t*) = nullptr;                      // nvrtcGetPTXSize
  nvrtcResult (*GetPTX)(nvrtcProgram, char*) = nullptr;                            // nvrtcGetPTX
  // Optional (CUDA 11.1+): machine code for a real architecture (sm_90) instead of PTX.
  nvrtcResult (*GetCUBINSize)(nvrtcProgram, size_t*) = nullptr;  // nvrtcGetCUBINSize
  nvrtcResult (*GetCUBIN)(nvrtcProgram, char*) = nullptr;        // nvrtcGetCUBIN
};

// File names, newest first, both systems' spellings: libnvrtc.so.13, .so.12, .so.11.2, libnvrtc.so,
// nvrtc64_130_0.dll, nvrtc64_120_0.dll, nvrtc64_112_0.dll.
std::vector<std::string> NvrtcLibraryNames();

LoadedTable<NvrtcApi> LoadNvrtc(const std::vector<std::string>& candidates);

// "NVRTC_ERROR_COMPILATION (6)".
std::string NvrtcErrorText(const NvrtcApi& api, nvrtcResult rc);

}  // namespace gpudoctor
