// One gate's result as JSON, the one shape shared by verify's document (verify_json.h: its "gates" entries,
// "devices" and "libraries") and the gate worker's result line (gate_protocol.h: the entry plus what the
// runtime and devices gates found). Written with nlohmann::json, read with core's JsonReader: a problem is a
// message with its JSON path, never an exception.
#pragma once

#include "core/json_reader.h"
#include "gates/gate_types.h"

namespace gpudoctor {

JsonValue DeviceToJson(const DeviceInfo& d);
DeviceInfo ReadDevice(const JsonReader& r);

JsonValue LibraryToJson(const BackendLibrary& l);
BackendLibrary ReadLibrary(const JsonReader& r);

// The gate's own fields (gate, title, status, summary, hint, elapsed_ms, figures, details, findings); the
// title is written for readers and not read back (SpecOf gives it); a figure that is null reads as NaN (not
// measured).
JsonValue GateEntryToJson(const GateResult& g);
GateResult ReadGateEntry(const JsonReader& r);

}  // namespace gpudoctor
