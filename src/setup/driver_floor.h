// Whether this machine's NVIDIA driver runs the CUDA wheel a setup plan installs. A cuXYZ wheel bundles
// the CUDA XY.Z runtime; through minor-version compatibility it loads on any driver at or above the floor
// of its CUDA major (data/cuda_drivers.toml [[cuda_minor_compat]]: 12.x >= 525.60.13 on Linux, >= 528.33
// on Windows; 13.x >= 580), whatever the toolkit's own driver is.
//
// What the plan does with the answer, the way an expert would:
//  - the driver runs the wheel: say so, and name a newer CUDA build of the same torch release that
//    this driver cannot load (an optional driver upgrade, nothing needs it);
//  - the driver runs the wheel, but only because check fell back to an older torch release (the newest
//    release for this GPU needs a newer driver): keep the wheel that works now, and name the driver
//    upgrade as a recommended admin step, with the release it opens;
//  - the driver is older than the wheel needs: the driver upgrade is an admin step first (the wheel
//    would not load), naming the newest recorded wheel this driver does run as the alternative;
//  - no driver version is known: say so, with the floor to check against.
// A torch from PyPI itself (no index) is judged by the CUDA build PyPI carries for that release on Linux
// (data/pytorch_wheels.toml [[torch_pypi_default]]: cu130 from 2.11); on Windows PyPI's wheels are
// CPU-only, which the step says instead. The driver step gives the distribution's own commands
// ([[nvidia_driver_install]], by os-release ID, then ID_LIKE).
#pragma once

#include <optional>
#include <string>

#include "knowledge/knowledge_types.h"
#include "rules/rule_context.h"
#include "setup/setup_plan.h"

namespace gpudoctor {

struct DriverFloorOutcome {
  std::optional<DriverFloorCheck> check;  // for the package step; nullopt for a non-CUDA wheel
  std::optional<ManualStep> upgrade;      // the driver upgrade for the user or an admin, when due
  std::string step_note;                  // said under the step instead: a PyPI torch on Windows is CPU-only
};

// `step` installs torch; `pinned` is the recorded wheel its pins came from (nullptr when none).
DriverFloorOutcome CheckDriverFloor(const RuleContext& ctx, const PackageStep& step,
                                    const TorchWheel* pinned);

}  // namespace gpudoctor
