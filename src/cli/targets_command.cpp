// `gpudoctor targets PATH`: runs the binary readers on one file (or lists a kernel folder) and prints
// the targets found, as text or JSON, with every warning the readers gave.
#include "cli/targets_command.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <system_error>

#include "binfmt/gpu_targets.h"
#include "binfmt/kernel_libraries.h"
#include "cli/output.h"
#include "core/strings.h"
#include "platform/filesystem.h"

namespace gpudoctor {

namespace {

using nlohmann::ordered_json;

std::string JoinOr(const std::vector<std::string>& items, const std::string& none) {
  if (items.empty()) return none;
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : " ") + item;
  return out;
}

std::string TargetsText(const std::string& path, const GpuCodeTargets& t) {
  std::string out = path + ": " + t.container + "\n";
  out += "  GPU sections:  " + JoinOr(t.gpu_sections, "none") + "\n";
  out += "  CUDA cubins:   " + JoinOr(t.cuda_cubins, "none") + "\n";
  if (t.cuda_cubins.size() > 1) {
    std::string counts;
    for (const auto& arch : t.cuda_cubins) {
      auto n = t.cuda_cubin_images.find(arch);
      if (n == t.cuda_cubin_images.end()) continue;
      counts += (counts.empty() ? "" : ", ") + arch + " " + std::to_string(n->second);
    }
    out += "  per arch:      " + counts + "\n";
  }
  out += "  CUDA PTX:      " + JoinOr(t.cuda_ptx, "none") + "\n";
  if (!t.cuda_other.empty()) out += "  CUDA other:    " + JoinOr(t.cuda_other, "none") + "\n";
  out += "  AMD targets:   " + JoinOr(t.amd, "none") + "\n";
  if (t.cuda_images > 0)
    out += "  CUDA images:   " + std::to_string(t.cuda_images) + " (" +
           std::to_string(t.cuda_compressed_images) + " compressed)\n";
  if (t.hip_bundles > 0)
    out += "  HIP bundles:   " + std::to_string(t.hip_bundles) + " (" +
           std::to_string(t.hip_compressed_bundles) + " compressed, " + std::to_string(t.hip_unread_bundles) +
           " unread)\n";
  return out;
}

ordered_json TargetsJson(const std::string& path, const GpuCodeTargets& t) {
  ordered_json j;
  j["path"] = path;
  j["container"] = t.container;
  j["gpu_sections"] = t.gpu_sections;
  j["cuda_cubins"] = t.cuda_cubins;
  j["cuda_cubin_images"] = t.cuda_cubin_images;
  j["cuda_ptx"] = t.cuda_ptx;
  j["cuda_other"] = t.cuda_other;
  j["amd"] = t.amd;
  j["cuda_images"] = t.cuda_images;
  j["cuda_compressed_images"] = t.cuda_compressed_images;
  j["hip_bundles"] = t.hip_bundles;
  j["hip_compressed_bundles"] = t.hip_compressed_bundles;
  j["hip_unread_bundles"] = t.hip_unread_bundles;
  j["warnings"] = t.warnings;
  return j;
}

int RunFolder(const CliContext& ctx, const std::string& path, bool json) {
  std::error_code ec;
  std::string absolute = std::filesystem::absolute(std::filesystem::path(path), ec).generic_string();
  if (ec) return ReportError(ctx.err, UserError("cannot resolve " + path + ": " + ec.message()));
  auto fs = MakeRootedFileSystem("/");
  auto listed = ListKernelLibraryTargets(*fs, absolute);
  if (!listed.ok()) return ReportError(ctx.err, listed.error());
  if (json) {
    ordered_json j;
    j["path"] = path;
    j["kernel_library_gfx"] = listed->gfx;
    j["files_matched"] = listed->files_matched;
    WriteAll(ctx.out, j.dump(2) + "\n");
  } else {
    WriteAll(ctx.out, path + ": " + std::to_string(listed->files_matched) +
                          " kernel files\n  gfx targets:   " + JoinOr(listed->gfx, "none") + "\n");
  }
  return kExitOk;
}

}  // namespace

std::string TargetsCommand::Description() const {
  return "Read the GPU code compiled into a library without running it: CUDA cubins (sm_XX) and PTX "
         "(compute_XX) from .nv_fatbin, AMD targets (gfxNNNN with features) from the clang offload bundles "
         "in .hip_fatbin, in Linux ELF and Windows PE files. Given a folder, lists the gfx targets of its "
         "rocBLAS / hipBLASLt kernel files (TensileLibrary*_gfxNNNN*).\n\n"
         "Examples:\n"
         "  gpudoctor targets .venv/lib/python3.12/site-packages/torch/lib/libtorch_cuda.so\n"
         "  gpudoctor targets --json torch/lib/libtorch_hip.so\n"
         "  gpudoctor targets /opt/rocm/lib/rocblas/library";
}

void TargetsCommand::DefineFlags(FlagSet& flags) {
  flags.Positional("path", &path_, "A shared library (.so, .dll), a fat binary, or a kernel library folder.",
                   true);
  flags.Bool("--json", &json_, "Print the result as JSON.");
}

int TargetsCommand::Run(const CliContext& ctx) {
  std::error_code ec;
  if (std::filesystem::is_directory(std::filesystem::path(path_), ec)) return RunFolder(ctx, path_, json_);
  auto source = OpenFileByteSource(path_);
  if (!source.ok()) return ReportError(ctx.err, source.error());
  auto targets = ReadGpuTargets(**source);
  if (!targets.ok()) return ReportError(ctx.err, targets.error());
  if (json_) {
    WriteAll(ctx.out, TargetsJson(path_, *targets).dump(2) + "\n");
  } else {
    WriteAll(ctx.out, TargetsText(path_, *targets));
    for (const auto& w : targets->warnings) WriteAll(ctx.err, "warning: " + w + "\n");
  }
  return targets->warnings.empty() ? kExitOk : kExitWarnings;
}

}  // namespace gpudoctor
