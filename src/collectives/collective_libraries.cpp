// NCCL / RCCL library specs and loading (see collective_libraries.h).
#include "collectives/collective_libraries.h"

namespace gpudoctor {

LibrarySpec CollectiveLibrarySpec(BackendKind kind) {
  if (kind == BackendKind::kHip) {
    return {RcclLibraryNames(),
            {"torch/lib", "_rocm_sdk_core/lib", "_rocm_sdk_libraries_*/lib"},
            {"ROCM_PATH", "HIP_PATH"},
            {"lib", "lib64"}};
  }
  return {NcclLibraryNames(),
          {"nvidia/nccl/lib", "nvidia/*/lib", "torch/lib"},
          {"CUDA_PATH", "CUDA_HOME"},
          {"lib64", "lib"}};
}

LoadedTable<NcclApi> LoadCollectiveLibrary(const BackendInputs& inputs, BackendKind kind,
                                           BackendLibrary& record) {
  record.role = "collectives";
  record.name = kind == BackendKind::kHip ? "rccl" : "nccl";
  auto table = LoadSearched<NcclApi>(
      inputs, CollectiveLibrarySpec(kind), [](const std::vector<std::string>& c) { return LoadNccl(c); },
      record);
  if (table.status == LoadStatus::kLoaded) {
    int version = 0;
    if (table.api.GetVersion(&version) == kNcclSuccess) record.version = NcclVersionText(version);
  }
  return table;
}

std::string DescribeCollectiveLibrary(const BackendLibrary& record) {
  std::string name = record.name == "rccl" ? "RCCL" : "NCCL";
  std::string out = name + (record.version.empty() ? "" : " " + record.version);
  if (!record.path.empty())
    out += " (" + record.path + (record.origin.empty() ? "" : ", " + record.origin) + ")";
  return out;
}

BackendInputs LiveBackendInputs(const FileSystem& fs, const Environment& env) {
  BackendInputs in;
  in.fs = &fs;
  in.env = env;
  in.site_packages = FindSitePackages(fs, env);
  return in;
}

}  // namespace gpudoctor
