// `gpudoctor setup`'s plan shown: the text a user reads before --apply, and its JSON form (schema
// gpudoctor.setup/1, docs/json-schemas.md and docs/setup.md).
#pragma once

#include <string>

#include "setup/setup_plan.h"

namespace gpudoctor {

inline constexpr int kSetupSchemaMajor = 1;

// The plan as numbered steps, machine strings through Printable(); "Nothing to do: ..." when it is empty.
std::string RenderPlanText(const SetupPlan& plan);
std::string RenderPlanJson(const SetupPlan& plan);

// The requirements and index options as one pip line's arguments: "torch==2.7.1 torchvision==0.22.*
// --index-url https://download.pytorch.org/whl/cu126".
std::string PipArguments(const PackageStep& step);

}  // namespace gpudoctor
