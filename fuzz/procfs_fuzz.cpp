// libFuzzer target for the parsers of machine files behind the OS and NVIDIA probes: os-release,
// /proc/cpuinfo (with its hypervisor flag and the DMI names that classify a virtual machine), /proc/meminfo,
// /proc/version, /proc/1/cgroup, /proc/driver/nvidia/version, Secure Boot's efivarfs variable, the NVIDIA
// module file names under /lib/modules and the recorded nvml.json (whose accepted
// answers must survive a write/read round trip). Text that is not JSON reaches the nvml.json reader in one
// input of four only (by its length): its refusal is the same every time.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/json_reader.h"
#include "core/pci_address.h"
#include "probe/common/virtual_machine.h"
#include "probe/linux/kernel_modules.h"
#include "probe/linux/nvidia_record.h"
#include "probe/linux/procfs_parse.h"

namespace {

void Check(bool condition) {
  if (!condition) std::abort();
}

void FuzzNvmlJson(std::string_view text) {
  using namespace gpudoctor;
  auto answers = ParseNvidiaAnswersJson(text);
  if (!answers.ok()) return;
  NvidiaInfo info;
  info.driver_version = answers->driver_version;
  info.cuda_driver_version = answers->cuda_driver_version;
  info.devices = answers->devices;
  auto again = ParseNvidiaAnswersJson(NvidiaAnswersToJson(info));
  Check(again.ok());
  Check(again->problems.empty());
  Check(again->driver_version == info.driver_version);
  Check(again->cuda_driver_version == info.cuda_driver_version);
  Check(again->devices.size() == info.devices.size());
  for (size_t i = 0; i < info.devices.size(); ++i) {
    Check(again->devices[i].pci_address == info.devices[i].pci_address);
    Check(again->devices[i].memory_total_bytes == info.devices[i].memory_total_bytes);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpudoctor;
  std::string_view text(reinterpret_cast<const char*>(data), size);

  if (auto r = ParseOsRelease(text); r.ok()) Check(r->id.size() <= 512 && r->pretty_name.size() <= 512);
  (void)UnquoteOsReleaseValue(text);
  if (auto c = ParseCpuInfo(text); c.ok()) {
    Check(c->logical_cores >= 1);
    if (c->physical_cores) Check(*c->physical_cores <= c->logical_cores && c->sockets && *c->sockets >= 1);
  }
  if (auto m = ParseMemInfo(text); m.ok()) Check(m->total_bytes % 1024 == 0);
  if (auto v = ParseNvidiaProcVersion(text); v.ok()) Check(LooksLikeVersion(*v));
  // A flavour is only ever read from an "NVRM version: ... Kernel Module" line; "open" needs the word Open.
  NvidiaKernelModule module = NvidiaKernelModuleFromProcVersion(text);
  if (module != NvidiaKernelModule::kUnknown)
    Check(text.find("NVRM version:") != std::string_view::npos &&
          text.find("Kernel Module") != std::string_view::npos);
  if (module == NvidiaKernelModule::kOpen) Check(text.find("Open") != std::string_view::npos);
  (void)KernelVersionTextMentionsWsl(text);
  // The hypervisor flag needs the word itself; the DMI names (one input split at its first newline) give a
  // verdict only with evidence to show for it.
  if (CpuInfoHasHypervisorFlag(text)) Check(text.find("hypervisor") != std::string_view::npos);
  {
    const size_t nl = text.find('\n');
    VirtualMachineEvidence e;
    e.cpu_hypervisor_flag = size % 2 == 1;
    e.dmi_sys_vendor = std::string(text.substr(0, nl));
    e.dmi_product_name = nl == std::string_view::npos ? std::string() : std::string(text.substr(nl + 1));
    VirtualMachineVerdict v = ClassifyVirtualMachine(e);
    if (v.name) Check(!v.evidence.empty());
    if (!e.cpu_hypervisor_flag && v.name) Check(!e.dmi_sys_vendor.empty() || !e.dmi_product_name.empty());
  }
  // Secure Boot's efivarfs variable: a verdict only from exactly 4 attribute bytes and a 0 or 1.
  if (auto sb = ParseSecureBootVariable(text))
    Check(size == 5 && static_cast<unsigned char>(text[4]) == (*sb ? 1 : 0));
  if (IsNvidiaModuleFile(text)) Check(text.rfind("nvidia.ko", 0) == 0);
  (void)KernelReleaseFromVersionText(text);
  (void)ContainerFromCgroup(text);
  std::string normalized = NormalizeNvidiaBusId(text);
  if (!normalized.empty()) Check(NormalizeNvidiaBusId(normalized) == normalized);
  if (size % 4 == 0 || JsonValue::accept(text)) FuzzNvmlJson(text);
  return 0;
}
