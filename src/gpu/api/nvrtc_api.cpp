// The NVRTC loader: which files to try and which exports fill the table (see nvrtc_api.h).
#include "gpu/api/nvrtc_api.h"

namespace gpudoctor {

std::vector<std::string> NvrtcLibraryNames() {
  return {"libnvrtc.so.13",    "libnvrtc.so.12",    "libnvrtc.so.11.2", "libnvrtc.so",
          "nvrtc64_130_0.dll", "nvrtc64_120_0.dll", "nvrtc64_112_0.dll"};
}

LoadedTable<NvrtcApi> LoadNvrtc(const std::vector<std::string>& candidates) {
  return LoadTable<NvrtcApi>(candidates, [](SymbolBinder& b, NvrtcApi& t) {
    b.Required(t.Version, {"nvrtcVersion"});
    b.Required(t.GetErrorString, {"nvrtcGetErrorString"});
    b.Required(t.CreateProgram, {"nvrtcCreateProgram"});
    b.Required(t.DestroyProgram, {"nvrtcDestroyProgram"});
    b.Required(t.CompileProgram, {"nvrtcCompileProgram"});
    b.Required(t.GetProgramLogSize, {"nvrtcGetProgramLogSize"});
    b.Required(t.GetProgramLog, {"nvrtcGetProgramLog"});
    b.Required(t.GetPTXSize, {"nvrtcGetPTXSize"});
    b.Required(t.GetPTX, {"nvrtcGetPTX"});
    b.Optional(t.GetCUBINSize, {"nvrtcGetCUBINSize"});
    b.Optional(t.GetCUBIN, {"nvrtcGetCUBIN"});
  });
}

std::string NvrtcErrorText(const NvrtcApi& api, nvrtcResult rc) {
  const char* text = api.GetErrorString ? api.GetErrorString(rc) : nullptr;
  std::string out = text && text[0] ? text : "NVRTC error";
  return out + " (" + std::to_string(rc) + ")";
}

}  // namespace gpudoctor
