// The JSON form of Snapshot::windows (docs/snapshot-schema.md, `windows`), kept beside the rest of
// snapshot_json.cpp's conversions so that file only calls these two.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

#include "snapshot/windows_info.h"

namespace gpudoctor {

nlohmann::ordered_json WindowsInfoToJson(const WindowsInfo& info);

// Reads what WindowsInfoToJson wrote; missing fields keep their empty value. The first field of the
// wrong type is named in `error` (left alone when already set).
void WindowsInfoFromJson(const nlohmann::ordered_json& object, WindowsInfo& info, std::string& error);

}  // namespace gpudoctor
