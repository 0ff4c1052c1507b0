// ChooseDevice and its helpers (see device_choice.h).
#include "gates/device_choice.h"

#include "core/pci_address.h"
#include "core/strings.h"
#include "gates/device_match.h"

namespace gpudoctor {

bool BackendAttempt::SeesDevice() const {
  return devices && devices->status == GateStatus::kPass && !devices->devices.empty();
}

std::vector<BackendKind> CandidateBackends(const std::optional<BackendKind>& requested, bool fake,
                                           const Snapshot& snapshot) {
  if (fake) return {BackendKind::kFake};
  if (requested) return {*requested};
  return BackendOrder(snapshot);
}

DeviceChoice ChooseDevice(const std::vector<BackendKind>& order, const GateRequest& base,
                          const std::string& device_selector, GateExecutor& executor) {
  DeviceChoice choice;
  for (BackendKind kind : order) {
    GateRequest w = base;
    w.gates = {GateId::kRuntime, GateId::kDevices};
    w.target.backend = kind;
    auto results = executor.Run(w);
    BackendAttempt attempt;
    attempt.kind = kind;
    if (results.empty()) {  // an executor that broke its contract
      attempt.runtime.gate = SpecOf(GateId::kRuntime).name;
      attempt.runtime.status = GateStatus::kFail;
      attempt.runtime.summary = "internal error: the gate's executor returned nothing";
    } else {
      attempt.runtime = results[0];
    }
    if (attempt.runtime.status == GateStatus::kPass) {
      if (results.size() > 1) {
        attempt.devices = results[1];
      } else {
        GateResult none;
        none.gate = SpecOf(GateId::kDevices).name;
        none.status = GateStatus::kFail;
        none.summary = "internal error: the devices gate did not answer";
        attempt.devices = none;
      }
    }
    choice.attempts.push_back(std::move(attempt));
    const BackendAttempt& last = choice.attempts.back();
    if (last.SeesDevice()) {
      choice.chosen = choice.attempts.size() - 1;
      break;
    }
    if (!choice.chosen && last.devices) choice.chosen = choice.attempts.size() - 1;
  }
  if (const BackendAttempt* c = choice.Chosen(); c && c->SeesDevice())
    choice.device = SelectDevice(c->devices->devices, device_selector);
  return choice;
}

Status CheckDeviceSelector(const std::string& selector) {
  if (selector.empty() || ParseU64(selector) || ParsePciAddress(selector)) return Ok{};
  return UserError("--device " + selector + ": not a device index or a PCI address",
                   "give the runtime's index (0, 1, ...) or a PCI address such as 0000:17:00.0 "
                   "(`gpudoctor info` lists the GPUs on the bus)");
}

}  // namespace gpudoctor
