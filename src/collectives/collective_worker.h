// The hidden worker modes of `gpudoctor collectives` (see worker_args.h): main.cpp dispatches
// `gpudoctor __worker collective-rank|p2p-matrix ...` here before any flag parsing.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "platform/environment.h"

namespace gpudoctor {

// `args` are argv[1..]. Returns 0 when an answer was printed (whatever it says), 3 when the request was
// wrong.
int RunCollectiveWorkerMode(const std::vector<std::string>& args, const Environment& env, std::FILE* out,
                            std::FILE* err);

}  // namespace gpudoctor
