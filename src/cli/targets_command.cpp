// `gpudoctor targets PATH`: runs the binary readers on one file (or lists a kernel folder) and prints
// the targets found, as text or JSON, with every warning the readers gave.
#include "cli/targets_command.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <system_error>

#include "binfmt/gpu_targets.h"
#include "binfmt/kernel_libraries.h"
#include "cli/flag_values.h"
#include "cli/output.h"
#include "core/strings.h"
#include "platform/filesystem.h"
#include "probe/common/wheel_code.h"
#include "probe/common/wheel_toml.h"

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

std::string UtcToday() {
  using namespace std::chrono;
  const year_month_day ymd{floor<days>(system_clock::now())};
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02u", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()));
  return buf;
}

bool IsDate(const std::string& s) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9})
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}

// --wheel-toml: the [[torch_wheel]] lines for data/pytorch_wheels.toml, warnings on stderr.
int RunWheelToml(const CliContext& ctx, const std::string& path, const std::string& checked) {
  if (!IsDate(checked))
    return ReportError(ctx.err, UserError("--checked '" + checked + "' is not a date YYYY-MM-DD"));
  auto code = ReadWheelCode(path);
  if (!code.ok()) return ReportError(ctx.err, code.error());
  auto text = WheelTomlText(*code, checked);
  if (!text.ok()) return ReportError(ctx.err, text.error());
  WriteAll(ctx.out, *text);
  size_t warnings = code->warnings.size();
  for (const auto& w : code->warnings) WriteAll(ctx.err, "warning: " + w + "\n");
  for (const auto& lib : code->libraries) {
    for (const auto& w : lib.warnings) WriteAll(ctx.err, "warning: " + lib.path + ": " + w + "\n");
    warnings += lib.warnings.size();
  }
  return warnings == 0 ? kExitOk : kExitWarnings;
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
         "  gpudoctor targets /opt/rocm/lib/rocblas/library\n\n"
         "For maintainers: --wheel-toml reads a downloaded PyTorch wheel (.whl) or an unpacked install "
         "(site-packages or its torch folder): torch/version.py and the GPU code of torch's own libraries "
         "(torch/lib/libtorch*, libc10*), and prints the [[torch_wheel]] entry for data/pytorch_wheels.toml "
         "(docs/knowledge-base.md).\n"
         "  gpudoctor targets --wheel-toml torch-2.7.1+cu128-cp312-cp312-manylinux_2_28_x86_64.whl\n"
         "  gpudoctor targets --wheel-toml .venv/lib/python3.12/site-packages --checked 2026-12-03";
}

void TargetsCommand::DefineFlags(FlagSet& flags) {
  flags.Positional("path", &path_, "A shared library (.so, .dll), a fat binary, or a kernel library folder.",
                   false);
  flags.Bool("--json", &json_, "Print the result as JSON.");
  flags.String(
      "--wheel-toml", &wheel_toml_, "WHEEL",
      "Print the [[torch_wheel]] TOML entry for a torch wheel (.whl) or an unpacked install folder.");
  flags.String("--checked", &checked_, "DATE",
               "The checked date of --wheel-toml's entry (default: today, UTC).");
}

int TargetsCommand::Run(const CliContext& ctx) {
  if (auto checked = DateFlag("--checked", checked_); !checked) return ReportError(ctx.err, checked.error());
  if (!wheel_toml_.empty()) {
    if (!path_.empty() || json_)
      return ReportError(ctx.err,
                         UserError("--wheel-toml takes the wheel as its value; give no PATH or --json"));
    return RunWheelToml(ctx, wheel_toml_, checked_.empty() ? UtcToday() : checked_);
  }
  if (path_.empty())
    return ReportError(ctx.err, UserError("targets needs a PATH (or --wheel-toml WHEEL)",
                                          "gpudoctor targets --help shows examples"));
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
