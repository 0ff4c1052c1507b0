// The TelemetryReader (see telemetry_reader.h).
#include "telemetry/telemetry_reader.h"

#include <algorithm>

#include "core/strings.h"
#include "gpu/api/adl_api.h"
#include "gpu/api/amd_smi_api.h"
#include "gpu/api/rocm_smi_api.h"
#include "platform/recorded_inputs.h"
#include "telemetry/amd_sources.h"
#include "telemetry/amd_sysfs_telemetry.h"
#include "telemetry/telemetry_json.h"

namespace gpudoctor {
namespace {

constexpr uint32_t kAmdVendorId = 0x1002;
constexpr uint32_t kNvidiaVendorId = 0x10de;
constexpr size_t kMaxNvmlJson = 4u << 20;
constexpr size_t kMaxAdlJson = 4u << 20;
constexpr const char* kAmdLinuxDriver = "amdgpu";
constexpr const char* kAmdWindowsDriver = "amdkmdag";  // the Windows display driver's service name

bool HasNvidiaGpu(const Snapshot& snap) {
  return std::any_of(snap.pci_devices.begin(), snap.pci_devices.end(), [](const PciDevice& d) {
    return d.vendor_id == kNvidiaVendorId && d.driver == "nvidia";
  });
}

// The AMD GPUs of `snap` with a driver telemetry can read through, in PCI address order.
std::vector<const PciDevice*> AmdGpus(const Snapshot& snap) {
  std::vector<const PciDevice*> amd;
  for (const auto& d : snap.pci_devices) {
    if (d.vendor_id == kAmdVendorId && (d.driver == kAmdLinuxDriver || d.driver == kAmdWindowsDriver))
      amd.push_back(&d);
  }
  std::sort(amd.begin(), amd.end(),
            [](const PciDevice* a, const PciDevice* b) { return a->address < b->address; });
  return amd;
}

// ADL's samples recorded by gather on a Windows machine, by PCI address.
std::map<std::string, TelemetrySample> ReadRecordedAdl(const FileSystem& fs,
                                                       std::vector<std::string>& warnings) {
  std::map<std::string, TelemetrySample> out;
  auto text = fs.ReadFile(kRecordedAdlFile, kMaxAdlJson);
  if (!text.ok()) return out;
  auto parsed = ParseRecordedTelemetry(*text, warnings);
  if (!parsed.ok()) {
    warnings.push_back(std::string(kRecordedAdlFile) + ": " + parsed.error().message);
    return out;
  }
  for (auto& s : *parsed) {
    s.source = "adl-recorded";
    s.metric_sources.clear();
    if (!s.device.pci_address.empty()) out.emplace(s.device.pci_address, std::move(s));
  }
  return out;
}

}  // namespace

std::vector<TelemetryDevice> AmdTelemetryDevices(const Snapshot& snap) {
  std::vector<TelemetryDevice> out;
  for (const PciDevice* d : AmdGpus(snap)) {
    TelemetryDevice t;
    t.index = static_cast<uint32_t>(out.size());
    t.vendor = "amd";
    t.name = !d->name.empty() ? d->name : "AMD GPU " + Hex(d->vendor_id, 4) + ":" + Hex(d->device_id, 4);
    t.pci_address = d->address;
    out.push_back(std::move(t));
  }
  return out;
}

TelemetryReader::TelemetryReader(const FileSystem& fs, bool live, const Snapshot& snap,
                                 const TelemetryLibraries& libraries)
    : fs_(fs), live_(live) {
  if (live_ && libraries.nvml) {
    if (auto session = NvmlTelemetrySession::Open(); session.ok()) {
      nvml_ = std::move(session.value());
      devices_ = nvml_->Devices(setup_warnings_);
    } else if (HasNvidiaGpu(snap)) {
      setup_warnings_.push_back("NVIDIA GPUs are not watched: " + session.error().message);
    }
  } else if (!live_) {
    for (const auto& s : ReadRecordedNvml(setup_warnings_)) devices_.push_back(s.device);
    if (devices_.empty() && !snap.nvidia.devices.empty())
      setup_warnings_.push_back("the recording has NVIDIA GPUs but no NVML telemetry (gather it again)");
  }
  nvidia_count_ = devices_.size();
  AddAmdDevices(snap, libraries);
}

void TelemetryReader::AddAmdDevices(const Snapshot& snap, const TelemetryLibraries& libraries) {
  std::vector<TelemetryDevice> amd = AmdTelemetryDevices(snap);
  std::vector<const PciDevice*> pci = AmdGpus(snap);
  bool any_sysfs = false;
  bool any_windows = false;
  for (const PciDevice* p : pci) {
    any_sysfs |= p->driver == kAmdLinuxDriver;
    any_windows |= p->driver == kAmdWindowsDriver;
  }
  if (live_ && !amd.empty()) OpenAmdLibraries(libraries, amd, any_sysfs);
  std::map<std::string, TelemetrySample> recorded;
  if (!live_ && any_windows) recorded = ReadRecordedAdl(fs_, setup_warnings_);
  for (size_t i = 0; i < amd.size(); ++i) {
    AmdSources sources;
    sources.sysfs = pci[i]->driver == kAmdLinuxDriver;
    if (sources.sysfs) {
      sources.files = FindAmdSysfsFiles(fs_, amd[i].pci_address);
    } else if (live_ ? !AnyLibraryLists(amd[i].pci_address) : !recorded.count(amd[i].pci_address)) {
      // Windows has no sysfs: a GPU that ADL does not answer for has nothing to show.
      setup_warnings_.push_back("the AMD GPU at " + amd[i].pci_address + " is not watched: " +
                                (live_ ? "ADL (atiadlxx.dll, installed with AMD's display driver) gives "
                                         "nothing for it"
                                       : "the recording has no ADL telemetry for it (gather it again)"));
      continue;
    } else if (!live_) {
      sources.recorded = recorded[amd[i].pci_address];
    }
    amd[i].index = static_cast<uint32_t>(amd_.size());
    amd_.push_back(std::move(sources));
    devices_.push_back(std::move(amd[i]));
  }
}

void TelemetryReader::OpenAmdLibraries(const TelemetryLibraries& libraries,
                                       const std::vector<TelemetryDevice>& amd, bool any_sysfs) {
  // A library that is absent is no news (sysfs gives the same figures; on Windows the GPU is said to be
  // unwatched); one that is there and fails to initialize, or lists none of the GPUs, is said once.
  const std::string fallback = any_sysfs ? "; AMD metrics from sysfs" : "; no AMD metrics";
  auto open = [&](const std::vector<std::string>& candidates, auto opener, const char* name) {
    if (candidates.empty()) return;
    AmdLibraryOpening opening = opener(candidates);
    if (!opening.session) {
      if (!opening.problem.empty()) setup_warnings_.push_back(opening.problem + fallback);
      return;
    }
    bool lists_any = false;
    for (const auto& d : amd) lists_any |= opening.session->Lists(d.pci_address);
    if (!lists_any) {
      setup_warnings_.push_back(std::string(name) + " lists none of the AMD GPUs" + fallback);
      return;
    }
    amd_libraries_.push_back(std::move(opening.session));
  };
  open(libraries.amd_smi, OpenAmdSmiTelemetry, "AMD SMI");
  open(libraries.rocm_smi, OpenRocmSmiTelemetry, "ROCm SMI");
  open(libraries.adl, OpenAdlTelemetry, "ADL");
}

bool TelemetryReader::AnyLibraryLists(const std::string& pci_address) const {
  return std::any_of(amd_libraries_.begin(), amd_libraries_.end(),
                     [&](const auto& library) { return library->Lists(pci_address); });
}

TelemetrySample TelemetryReader::ReadAmd(size_t amd_index, std::vector<std::string>& warnings) {
  const TelemetryDevice& d = devices_[nvidia_count_ + amd_index];
  const AmdSources& sources = amd_[amd_index];
  if (sources.recorded) {
    TelemetrySample s = *sources.recorded;
    s.device = d;
    return s;
  }
  return ReadAmdSources(amd_libraries_, fs_, sources.sysfs ? &sources.files : nullptr, d, warnings);
}

std::vector<TelemetrySample> TelemetryReader::ReadRecordedNvml(std::vector<std::string>& warnings) const {
  auto text = fs_.ReadFile(kRecordedNvmlFile, kMaxNvmlJson);
  if (!text.ok()) return {};
  auto parsed = ParseRecordedTelemetry(*text, warnings);
  if (!parsed.ok()) {
    warnings.push_back(std::string(kRecordedNvmlFile) + ": " + parsed.error().message);
    return {};
  }
  for (auto& s : *parsed) {
    s.device.vendor = "nvidia";
    s.source = "nvml-recorded";
  }
  return std::move(parsed.value());
}

std::vector<TelemetrySample> TelemetryReader::Read(std::vector<std::string>& warnings) {
  std::vector<TelemetrySample> out;
  out.reserve(devices_.size());
  std::vector<TelemetrySample> recorded;
  if (!live_ && nvidia_count_ > 0) recorded = ReadRecordedNvml(warnings);
  for (size_t i = 0; i < devices_.size(); ++i) {
    const TelemetryDevice& d = devices_[i];
    if (i < nvidia_count_) {
      if (nvml_) {
        out.push_back(nvml_->Read(d, warnings));
        continue;
      }
      auto it = std::find_if(recorded.begin(), recorded.end(),
                             [&](const TelemetrySample& s) { return s.device.index == d.index; });
      TelemetrySample s = it != recorded.end() ? *it : TelemetrySample{};
      s.device = d;
      if (s.source.empty()) s.source = "nvml-recorded";
      out.push_back(std::move(s));
      continue;
    }
    out.push_back(ReadAmd(i - nvidia_count_, warnings));
  }
  return out;
}

}  // namespace gpudoctor
