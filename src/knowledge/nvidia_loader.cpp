// Reads the NVIDIA sections: [[cuda_arch]] and [[nvidia_gpu]] (gpus_nvidia.toml), and the driver
// floors [[cuda_minor_compat]], [[cuda_toolkit_driver]], [[nvidia_driver_branch]] (cuda_drivers.toml).
#include "knowledge/section_parsers.h"

namespace gpudoctor {
namespace {

// A compute capability is "major.minor" exactly.
std::optional<Version> ReadCc(EntryReader& r, std::string_view key) {
  auto cc = r.VersionText(key, Need::kRequired);
  if (cc && cc->parts().size() != 2) {
    r.Error(0, "'" + std::string(key) + "' must be major.minor, such as \"8.9\"");
    return std::nullopt;
  }
  return cc;
}

}  // namespace

void ParseCudaArch(EntryReader& r, KnowledgeDb& db) {
  LabelFromField(r, "cc");
  CudaArch a;
  auto cc = ReadCc(r, "cc");
  a.architecture = r.Text("architecture", Need::kRequired).value_or("");
  a.examples = r.Text("examples", Need::kOptional).value_or("");
  a.provenance = r.ReadProvenance();
  r.Finish();
  if (!cc) return;
  a.cc = *cc;
  db.cuda_archs.push_back(std::move(a));
}

void ParseNvidiaGpu(EntryReader& r, KnowledgeDb& db) {
  LabelFromField(r, "name");
  NvidiaGpuModel g;
  g.device_id = static_cast<uint32_t>(r.Integer("device_id", Need::kRequired, 0, 0xffff).value_or(0));
  g.name = r.Text("name", Need::kRequired).value_or("");
  auto cc = ReadCc(r, "cc");
  if (auto v = r.Integer("vram_gib", Need::kOptional, 1, 4096)) g.vram_gib = static_cast<uint32_t>(*v);
  g.memory = r.Text("memory", Need::kOptional).value_or("");
  if (auto v = r.Integer("sms", Need::kOptional, 1, 4096)) g.sms = static_cast<uint32_t>(*v);
  g.fp32_tflops = r.Number("fp32_tflops", Need::kOptional);
  g.tf32_tflops = r.Number("tf32_tflops", Need::kOptional);
  g.fp16_tflops = r.Number("fp16_tflops", Need::kOptional);
  g.bf16_tflops = r.Number("bf16_tflops", Need::kOptional);
  g.bandwidth_gbs = r.Number("bandwidth_gbs", Need::kOptional);
  g.provenance = r.ReadProvenance();
  r.Date("checked", Need::kOptional);  // when a person last checked it (issue 13)
  r.Finish();
  if (!cc) return;
  g.cc = *cc;
  db.nvidia_gpus.push_back(std::move(g));
}

void ParseCudaMinorCompat(EntryReader& r, KnowledgeDb& db) {
  LabelFromField(r, "cuda");
  CudaMinorCompat c;
  auto cuda = r.VersionText("cuda", Need::kRequired);
  auto cuda_max = r.VersionText("cuda_max", Need::kRequired);
  auto linux_driver = r.VersionText("linux", Need::kRequired);
  auto windows_driver = r.VersionText("windows", Need::kRequired);
  c.provenance = r.ReadProvenance();
  r.Finish();
  if (!cuda || !cuda_max || !linux_driver || !windows_driver) return;
  if (*cuda_max < *cuda) r.Error(0, "cuda_max is below cuda");
  c.cuda = *cuda;
  c.cuda_max = *cuda_max;
  c.linux_driver = *linux_driver;
  c.windows_driver = *windows_driver;
  db.cuda_minor_compat.push_back(std::move(c));
}

void ParseCudaToolkitDriver(EntryReader& r, KnowledgeDb& db) {
  LabelFromField(r, "cuda");
  CudaToolkitDriver t;
  auto cuda = r.VersionText("cuda", Need::kRequired);
  t.linux_driver = r.VersionText("linux", Need::kOptional);
  t.windows_driver = r.VersionText("windows", Need::kOptional);
  t.ga_linux = r.VersionText("ga_linux", Need::kOptional);
  t.ga_windows = r.VersionText("ga_windows", Need::kOptional);
  t.provenance = r.ReadProvenance();
  r.Finish();
  if (!t.linux_driver && !t.windows_driver) r.Error(0, "needs a linux or a windows driver version");
  if (!cuda) return;
  t.cuda = *cuda;
  db.cuda_toolkit_drivers.push_back(std::move(t));
}

void ParseNvidiaDriverBranch(EntryReader& r, KnowledgeDb& db) {
  LabelFromField(r, "branch");
  NvidiaDriverBranch b;
  b.branch = r.Text("branch", Need::kRequired).value_or("");
  b.kind = r.Text("kind", Need::kRequired).value_or("");
  b.cuda_major = static_cast<uint32_t>(r.Integer("cuda_major", Need::kRequired, 1, 99).value_or(0));
  b.eol = r.Date("eol", Need::kOptional).value_or("");
  b.provenance = r.ReadProvenance();
  r.Finish();
  if (!b.branch.empty()) db.nvidia_driver_branches.push_back(std::move(b));
}

}  // namespace gpudoctor
