// The NVIDIA answers that `gather` records beside a machine's files (/.gpudoctor/nvml.json), so a
// sysroot reproduces what NVML and the CUDA driver said without loading them: writer and reader.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "platform/recorded_inputs.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

struct RecordedNvidiaAnswers {
  std::optional<std::string> driver_version;
  std::optional<uint32_t> cuda_driver_version;
  std::vector<NvidiaDevice> devices;
  std::vector<std::string> problems;  // one line per field or device skipped for a wrong type or value
};

// {"driver_version": "580.159.03", "cuda_driver_version": 13000, "devices": [{"index": 0, "name": ...,
//  "uuid": ..., "pci_address": "0000:17:00.0", "memory_total_bytes": ..., "cc_major": 9, "cc_minor": 0}]}
// Missing values are written as null.
std::string NvidiaAnswersToJson(const NvidiaInfo& info);

// Fails when the text is not a JSON object; fields of the wrong type are skipped and named in `problems`.
// Never throws.
Result<RecordedNvidiaAnswers> ParseNvidiaAnswersJson(std::string_view text);

}  // namespace gpudoctor
