// The JSON form of a TelemetrySample: one object per GPU, every metric present and null when missing.
// `monitor --json` prints it, gather records NVML's samples in it (the "telemetry" member of
// .gpudoctor/nvml.json), the bench worker sends its readings under load in it and the fake backend's script
// holds its readings in it, so one codec serves all (docs/monitor.md).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "telemetry/gpu_sampler.h"
#include "telemetry/telemetry_sample.h"

namespace gpudoctor {

// {"gpu": 0, "vendor": "amd", "name": ..., "pci_bus_id": ..., "uuid": null, "source": "sysfs",
//  "memory_used_bytes": ..., ..., "throttle_reasons": [...], "processes": [{"pid": 1, "used_bytes": 2}]}
std::string SampleToJsonText(const TelemetrySample& sample);

// A sample back from SampleToJsonText's form; the GPU index and every metric may be missing. Fields of the
// wrong type are left empty and named in `problems`. Never throws.
Result<TelemetrySample> ParseSampleJson(std::string_view text, std::vector<std::string>& problems);

// The scripted sampler of a fake backend's script (gpu/fake/fake_backend.h): its "telemetry" readings in
// this codec's form, cycled, or every reading the error of "fail": {"telemetry": "message"}; a script
// without readings gives one ordinary reading (1500 MHz, 50 C, 100 W, no ECC error). Fails on a script that
// is not a JSON object or readings that are not a list of objects.
Result<std::unique_ptr<GpuSampler>> ScriptedSamplerFromJson(std::string_view script_json);

// One `monitor --json` line: {"sample": N, "time_unix_ms": T, "gpus": [...], "warnings": [...]}.
std::string SampleLineJson(uint64_t sample_number, int64_t time_unix_ms,
                           const std::vector<TelemetrySample>& samples,
                           const std::vector<std::string>& warnings);

// The samples recorded in an nvml.json text (its "telemetry" array); empty when it has none. Fields of the
// wrong type are left empty and named in `problems`. Never throws.
Result<std::vector<TelemetrySample>> ParseRecordedTelemetry(std::string_view nvml_json,
                                                            std::vector<std::string>& problems);

// {"telemetry": [samples]}: a recording of samples on its own (.gpudoctor/adl.json), read back by
// ParseRecordedTelemetry.
std::string RecordedTelemetryToJson(const std::vector<TelemetrySample>& samples);

// `nvml_json` (an object) with the "telemetry" member set to `samples`.
std::string AddTelemetryToNvmlJson(std::string_view nvml_json, const std::vector<TelemetrySample>& samples);

}  // namespace gpudoctor
