// The ADL loader: which file to try and which exports fill the table (see adl_api.h).
#include "gpu/api/adl_api.h"

#include "core/strings.h"

namespace gpudoctor {

std::vector<std::string> AdlLibraryNames() {
  return {"atiadlxx.dll"};
}

LoadedTable<AdlApi> LoadAdl(const std::vector<std::string>& candidates) {
  return LoadTable<AdlApi>(candidates, [](SymbolBinder& b, AdlApi& t) {
    b.Required(t.MainControlCreate, {"ADL2_Main_Control_Create"});
    b.Required(t.MainControlDestroy, {"ADL2_Main_Control_Destroy"});
    b.Required(t.NumberOfAdapters, {"ADL2_Adapter_NumberOfAdapters_Get"});
    b.Required(t.AdapterInfo, {"ADL2_Adapter_AdapterInfo_Get"});
    b.Optional(t.QueryPmLogData, {"ADL2_New_QueryPMLogData_Get"});
    b.Optional(t.DedicatedVramUsage, {"ADL2_Adapter_DedicatedVRAMUsage_Get"});
    b.Optional(t.MemoryInfo2, {"ADL2_Adapter_MemoryInfo2_Get"});
  });
}

std::string AdlErrorText(int rc) {
  const char* name = nullptr;
  switch (rc) {
    case kAdlErr:
      name = "ADL_ERR";
      break;
    case kAdlErrNotInit:
      name = "ADL_ERR_NOT_INIT";
      break;
    case kAdlErrInvalidParam:
      name = "ADL_ERR_INVALID_PARAM";
      break;
    case kAdlErrInvalidParamSize:
      name = "ADL_ERR_INVALID_PARAM_SIZE";
      break;
    case kAdlErrInvalidAdlIdx:
      name = "ADL_ERR_INVALID_ADL_IDX";
      break;
    case kAdlErrNotSupported:
      name = "ADL_ERR_NOT_SUPPORTED";
      break;
    case kAdlErrNullPointer:
      name = "ADL_ERR_NULL_POINTER";
      break;
    case kAdlErrDisabledAdapter:
      name = "ADL_ERR_DISABLED_ADAPTER";
      break;
    case kAdlErrInvalidCallback:
      name = "ADL_ERR_INVALID_CALLBACK";
      break;
    default:
      name = "ADL error";
  }
  return std::string(name) + " (" + std::to_string(rc) + ")";
}

std::string FormatAdlPciAddress(int bus, int device, int function) {
  if (bus < 0 || bus > 0xff || device < 0 || device > 0x1f || function < 0 || function > 7) return {};
  return "0000:" + Hex(static_cast<uint64_t>(bus), 2) + ":" + Hex(static_cast<uint64_t>(device), 2) + "." +
         Hex(static_cast<uint64_t>(function), 1);
}

}  // namespace gpudoctor
