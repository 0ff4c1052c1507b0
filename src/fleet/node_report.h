// One node's facts out of one of gpudoctor's JSON reports, whatever command wrote it: `check --json`
// ("gpudoctor.check/1"), `info --json` ("gpudoctor.snapshot/2"), `verify --json` ("gpudoctor.verify/1"),
// `bench --json` ("gpudoctor.bench/1"), `collectives --json` ("gpudoctor.collectives/1"), or the forms of
// the release before those names (docs/json-schemas.md); each is read by its own type's codec. What `fleet
// merge` compares: the versions (driver, ROCm, runtime, framework), the GPU link matrix (a snapshot's
// topology), the figures (a benchmark's best, a gate's
// headline figure, a collective's busbw at its largest size), the failures (failed gates and benchmarks) and
// the check errors. The host is the document's own host name where it has one, else the file's name without
// its folder and its ".json" / ".check" / ".verify" / ".bench" / ".info" / ".collectives" endings
// (`srun ... --output=%N.verify.json` names files by node); a collectives run is one node's when all its
// ranks are on one host. Outside data: never throws (fuzzed).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "fleet/fleet_topology.h"

namespace gpudoctor {

struct FleetFigure {
  std::string id;  // "memory.triad", "verify.copy", "collectives.all_reduce.busbw"
  double value = 0;
  std::string unit;  // "GB/s"
  bool higher_is_better = true;
};

struct NodeFacts {
  std::string host;
  bool host_from_file_name = false;
  std::vector<std::string> files;
  std::vector<std::string> kinds;  // "check", "snapshot", "verify", "bench", "collectives"
  // "nvidia_driver", "amdgpu", "rocm", "cuda_driver", "runtime", "torch", "collectives_library"
  std::map<std::string, std::string> versions;
  std::vector<FleetFigure> figures;
  std::vector<std::string> failures;      // "verify gate memtest failed: ..."
  std::vector<std::string> check_errors;  // "runtime.device_access: This user cannot open ..."
  LinkMatrix topology;                    // from an `info --json` snapshot's topology; empty when none
};

// The kind of document and the facts in it; a user error when the text is not one of gpudoctor's reports.
Result<NodeFacts> ParseNodeReport(std::string_view text, std::string_view file_name);

// "out/node017.verify.json" -> "node017".
std::string HostFromFileName(std::string_view file_name);

}  // namespace gpudoctor
