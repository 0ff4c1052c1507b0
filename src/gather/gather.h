// `gather`: records, from the live machine, exactly the files the probes read into a
// folder in the same layout, plus the inputs that are not files (environment, user,
// NVML answers) under .gpudoctor/. The folder is then a sysroot: a bug report or a
// regression test that drives the probes like the machine itself.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"
#include "platform/environment.h"
#include "platform/filesystem.h"
#include "platform/identity.h"

namespace gpudoctor {

// Largest file recorded; a longer one is cut there (with a note).
inline constexpr size_t kGatherMaxFileBytes = 1 << 20;

// Copies what the probes read from `live_fs` into `dest_dir` (a host path, created if
// missing). Refuses a dest_dir that exists and is not an empty folder, so nothing is
// ever overwritten. Never follows a link that leads out of live_fs's root; unreadable
// files are skipped. Each skip, cut or fallback adds one line to `notes`.
// `nvml_json` is written to .gpudoctor/nvml.json when not empty.
Status GatherMachine(const FileSystem& live_fs, const Environment& env, const UserIdentity& identity,
                     const std::string& nvml_json, const std::string& dest_dir,
                     std::vector<std::string>& notes);

// Makes `dest_dir` ready for a recording: creates it, or accepts it when it is an empty folder;
// refuses anything else, so nothing is ever overwritten.
Status PrepareGatherDestination(const std::string& dest_dir);

// True for the variables gather records (HIP_*, ROCR_*, CUDA_*, HSA_*, ROCM_*, PYTORCH_*,
// LD_LIBRARY_PATH, HOME).
bool IsGatheredVariable(const std::string& name);

}  // namespace gpudoctor
