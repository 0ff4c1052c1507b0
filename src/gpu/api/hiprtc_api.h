// hiprtc, HIP's run-time compiler, as gpudoctor uses it: our own minimal typedefs, one table of function
// pointers and its loader. ROCm 5.3 and later ship it as libhiprtc.so.N (hiprtc0N0N.dll on Windows); up to
// ROCm 5.2 (Debian 12's HIP) the same exports live in libamdhip64 itself, so the HIP backend falls back to
// binding this table from the runtime it already loaded.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "platform/symbol_binder.h"

namespace gpudoctor {

using hiprtcResult = int;  // 0 = HIPRTC_SUCCESS
inline constexpr hiprtcResult kHiprtcSuccess = 0;
struct _hiprtcProgram;
using hiprtcProgram = _hiprtcProgram*;

struct HiprtcApi {
  // Required.
  hiprtcResult (*Version)(int*, int*) = nullptr;          // hiprtcVersion
  const char* (*GetErrorString)(hiprtcResult) = nullptr;  // hiprtcGetErrorString
  hiprtcResult (*CreateProgram)(hiprtcProgram*, const char*, const char*, int, const char**,
                                const char**) = nullptr;                       // hiprtcCreateProgram
  hiprtcResult (*DestroyProgram)(hiprtcProgram*) = nullptr;                    // hiprtcDestroyProgram
  hiprtcResult (*CompileProgram)(hiprtcProgram, int, const char**) = nullptr;  // hiprtcCompileProgram
  hiprtcResult (*GetProgramLogSize)(hiprtcProgram, size_t*) = nullptr;         // hiprtcGetProgramLogSize
  hiprtcResult (*GetProgramLog)(hiprtcProgram, char*) = nullptr;               // hiprtcGetProgramLog
  hiprtcResult (*GetCodeSize)(hiprtcProgram, size_t*) = nullptr;               // hiprtcGetCodeSize
  hiprtcResult (*GetCode)(hiprtcProgram, char*) = nullptr;                     // hiprtcGetCode
};

// libhiprtc.so.7, .so.6, .so.5, libhiprtc.so, hiprtc0700.dll, hiprtc0605.dll ... (the DLL carries the ROCm
// release in its name).
std::vector<std::string> HiprtcLibraryNames();

LoadedTable<HiprtcApi> LoadHiprtc(const std::vector<std::string>& candidates);

std::string HiprtcErrorText(const HiprtcApi& api, hiprtcResult rc);

}  // namespace gpudoctor
