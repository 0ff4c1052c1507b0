// What the tests of setup's plans share: a recorded machine probed as `setup --sysroot` probes it, and the
// plan's step that installs torch.
#pragma once

#include <string>

#include "probe/probe_inputs.h"
#include "setup/pip_line.h"
#include "setup/setup_plan.h"
#include "snapshot/snapshot.h"
#include "test_common.h"
#include "topo/machine_pass.h"
#include "topo/topology_probe.h"

namespace gpudoctor::testing {

// The recorded machine tests/fixtures/sysroot/<name>, probed with its topology.
inline Snapshot Recorded(const std::string& name) {
  return ProbeMachine(MakeRecordedInputs(kFixtures + name));
}

// The package step whose requirements name torch; nullptr when the plan has none.
inline const PackageStep* TorchStep(const SetupPlan& plan) {
  for (const PackageStep& p : plan.packages)
    for (const std::string& r : p.requirements)
      if (RequirementName(r) == "torch") return &p;
  return nullptr;
}

}  // namespace gpudoctor::testing
