// The backend and the device a GPU command runs on, chosen once and the same way for verify and bench: each
// candidate backend's runtime and devices gates run in one worker, in the order BackendOrder gives (or the
// one backend asked for); the first backend whose runtime sees a device wins, else the first whose runtime
// loads (to say "found, no device"). `--device` is then matched against what the winner sees. A selector
// that cannot name any device is refused before any worker starts (CheckDeviceSelector).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "gates/verify_runner.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

// One candidate backend's answers.
struct BackendAttempt {
  BackendKind kind = BackendKind::kCuda;
  GateResult runtime;
  std::optional<GateResult> devices;  // absent when the runtime did not load
  bool SeesDevice() const;
};

struct DeviceChoice {
  std::vector<BackendAttempt> attempts;  // in the order tried, up to the first that sees a device
  std::optional<size_t> chosen;          // that one, else the first whose runtime loaded; nullopt: none did
  Result<int> device = EnvError("no backend sees a device");  // the index `--device` names on the chosen one

  const BackendAttempt* Chosen() const { return chosen ? &attempts[*chosen] : nullptr; }
};

// The backends to try: the fake one when a script is given, else the one asked for, else BackendOrder.
std::vector<BackendKind> CandidateBackends(const std::optional<BackendKind>& requested, bool fake,
                                           const Snapshot& snapshot);

// Runs the runtime and devices gates of each backend of `order` (with `base`'s script, hints and limit).
DeviceChoice ChooseDevice(const std::vector<BackendKind>& order, const GateRequest& base,
                          const std::string& device_selector, GateExecutor& executor);

// "" (the first device), an index or a PCI address in any spelling; a user error otherwise, before any work.
Status CheckDeviceSelector(const std::string& selector);

}  // namespace gpudoctor
