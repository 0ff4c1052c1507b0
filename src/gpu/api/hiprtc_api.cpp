// The hiprtc loader: which files to try and which exports fill the table (see hiprtc_api.h).
#include "gpu/api/hiprtc_api.h"

namespace gpudoctor {

std::vector<std::string> HiprtcLibraryNames() {
  return {"libhiprtc.so.7", "libhiprtc.so.6", "libhiprtc.so.5", "libhiprtc.so",  "hiprtc0700.dll",
          "hiprtc0605.dll", "hiprtc0602.dll", "hiprtc0601.dll", "hiprtc0507.dll"};
}

LoadedTable<HiprtcApi> LoadHiprtc(const std::vector<std::string>& candidates) {
  return LoadTable<HiprtcApi>(candidates, [](SymbolBinder& b, HiprtcApi& t) {
    b.Required(t.Version, {"hiprtcVersion"});
    b.Required(t.GetErrorString, {"hiprtcGetErrorString"});
    b.Required(t.CreateProgram, {"hiprtcCreateProgram"});
    b.Required(t.DestroyProgram, {"hiprtcDestroyProgram"});
    b.Required(t.CompileProgram, {"hiprtcCompileProgram"});
    b.Required(t.GetProgramLogSize, {"hiprtcGetProgramLogSize"});
    b.Required(t.GetProgramLog, {"hiprtcGetProgramLog"});
    b.Required(t.GetCodeSize, {"hiprtcGetCodeSize"});
    b.Required(t.GetCode, {"hiprtcGetCode"});
  });
}

std::string HiprtcErrorText(const HiprtcApi& api, hiprtcResult rc) {
  const char* text = api.GetErrorString ? api.GetErrorString(rc) : nullptr;
  std::string out = text && text[0] ? text : "hiprtc error";
  return out + " (" + std::to_string(rc) + ")";
}

}  // namespace gpudoctor
