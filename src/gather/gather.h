// `gather`: records a machine by watching the probes. The whole probe pass (every probe, and the
// topology) runs once through a RecordingFileSystem, and exactly what it read is written into a
// folder in the same layout: file contents, folder listings, links, which files exist, the pieces of
// large libraries read at an offset (Python frameworks' GPU code). The inputs that are not files
// (environment, user, NVML answers, device node owners, free space) go under .gpudoctor/. The folder
// is then a sysroot that replays the same `info`, `check` and `topo` as the machine itself: a bug
// report or a regression test.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "core/result.h"
#include "gather/recording_filesystem.h"
#include "probe/probe_inputs.h"

namespace gpudoctor {

// Records what the probes read from `machine` (the live machine, or a recorded sysroot) into
// `dest_dir` (a host path, created if missing). Refuses a dest_dir that exists and is not an empty
// folder, so nothing is ever overwritten. Never writes a link that leads out of the machine's root;
// each skip, cut or fallback adds one line to `notes`. `machine`'s file system is wrapped while the
// probes run and given back unchanged. `nvml_json` (NVML's answers and topology, asked live) is
// written to .gpudoctor/nvml.json when not empty; under a sysroot the recorded one is copied.
Status GatherMachine(ProbeInputs& machine, const std::string& nvml_json, const std::string& dest_dir,
                     std::vector<std::string>& notes);

// Makes `dest_dir` ready for a recording: creates it, or accepts it when it is an empty folder;
// refuses anything else, so nothing is ever overwritten.
Status PrepareGatherDestination(const std::string& dest_dir);

// True for the variables gather records: those the snapshot reports (env_probe.h), those the probes
// start from (HOME, PATH, PWD, PYENV_ROOT, PYENV_VERSION, CONDA_EXE, MAMBA_ROOT_PREFIX,
// KUBERNETES_SERVICE_HOST) and the GPU
// runtimes' own (HIP_*, ROCR_*, CUDA_*, HSA_*, ROCM_*, PYTORCH_*).
bool IsGatheredVariable(const std::string& name);

// The environ file gather writes: "NAME=value" lines of the variables the probes read (`read`, recorded
// through Environment::RecordReadsInto while they ran), the snapshot reports, or PWD, each only when `keep`
// accepts it (IsGatheredVariable on Linux: the privacy allow-list); those the snapshot keeps by name only
// are written without their value. A value holding a line break, and a variable a probe read that the
// allow-list refuses, is left out with a note.
std::string GatheredEnvironText(const Environment& env, const std::set<std::string>& read,
                                bool (*keep)(const std::string&), std::vector<std::string>& notes);

}  // namespace gpudoctor
