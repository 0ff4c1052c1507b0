// `gpudoctor fleet merge` output: text and JSON (docs/fleet.md, schema "gpudoctor.fleet" version 1).
#pragma once

#include <string>

#include "fleet/fleet_analysis.h"

namespace gpudoctor {

std::string RenderFleetText(const FleetSummary& summary);
std::string RenderFleetJson(const FleetSummary& summary);

}  // namespace gpudoctor
