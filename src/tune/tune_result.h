// `gpudoctor tune`'s result: what the command was asked, what the framework child did (its run, with the
// allocator's second run), and the advice drawn from it. The one type of tune's JSON document
// (tune_json.h): `tune --json` writes it, `report --tune` reads it back with the same codec.
#pragma once

#include <string>

#include "tune/tune_advice.h"
#include "tune/tune_runner.h"

namespace gpudoctor {

struct TuneResult {
  std::string python_env;        // the environment's prefix
  std::string device_requested;  // what --device asked for ("0", "cpu")
  bool quick = false;
  TuneRun run;
  TuneAdvice advice;  // BuildTuneAdvice of the run; derived again when read back
};

// The advice of a run (its first child and, when it ran, the allocator's second).
TuneAdvice AdviseRun(const TuneRun& run);

}  // namespace gpudoctor
