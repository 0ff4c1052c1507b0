// `gather` on Windows: runs the whole probe pass through recording wrappers of the WindowsSystemSource
// and the FileSystem, then writes exactly what the probes read into a new folder — the registry keys
// and values, DXGI's adapters, the system facts and file versions as JSON under .gpudoctor/windows/
// (formats: probe/windows/recorded_windows_json.h), ADL's telemetry of the AMD GPUs as
// .gpudoctor/adl.json, and the files and folder listings under the drive's folder
// (C:\Users\bob\... -> C/Users/bob/...). `gpudoctor info --sysroot DIR` then replays the machine on any OS.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"
#include "probe/probe_inputs.h"

namespace gpudoctor {

// True for the variables gather records on Windows besides IsGatheredVariable's (the folders the
// Python locations start from, the active environments, PATH is not recorded).
bool IsGatheredWindowsVariable(const std::string& name);

// `live` must hold a Windows source (MakeLiveInputs on Windows, or a recorded Windows machine in
// tests); its file system and source are wrapped while the probes run and given back unchanged.
// `adl_json`: ADL's samples as telemetry_json.h's RecordedTelemetryToJson writes them, taken by the caller
// (`monitor --sysroot` replays them); empty: none, no adl.json. Refuses a dest_dir that exists and is not
// an empty folder. Each skip or cut adds one line to `notes`.
Status GatherWindowsMachine(ProbeInputs& live, const std::string& adl_json, const std::string& dest_dir,
                            std::vector<std::string>& notes);

}  // namespace gpudoctor
