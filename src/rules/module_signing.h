// The one fix for a DKMS kernel module that Secure Boot refuses, shared by the NVIDIA and amdgpu checks:
// enroll the key DKMS signs with (its path depends on the distribution), reboot, confirm it in MOK Manager.
#pragma once

#include "rules/rule_context.h"

namespace gpudoctor {

// Adds the enrollment steps, the "turn Secure Boot off" alternative and the distribution's guide as link.
void AddDkmsKeyEnrollment(const RuleContext& ctx, Finding& f);

}  // namespace gpudoctor
