// The human and spreadsheet forms of telemetry samples for `monitor`: one aligned line per GPU (with a
// short utilization history when the view is redrawn on a terminal) and CSV with a header. JSON is
// telemetry_json.h.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "telemetry/telemetry_sample.h"

namespace gpudoctor {

// "0  NVIDIA H100 80GB HBM3  0000:18:00.0  mem  62.8/79.6 GiB  util  97%  power 612.4 W  temp 61 C
//  sm 1980 MHz  mem 2619 MHz" ; a missing metric reads "n/a". `history` (oldest first, percent) is drawn as
// a row of block characters when not empty.
std::string SampleTextLine(const TelemetrySample& sample, const std::deque<double>& history);

// A utilization history as block characters, one per value (0-100 %), "?" where unknown (negative).
std::string Sparkline(const std::deque<double>& history);

// The CSV header line and one row per sample (RFC 4180 quoting), every metric's unit in its column name.
std::string TelemetryCsvHeader();
std::string TelemetryCsvRows(uint64_t sample_number, int64_t time_unix_ms,
                             const std::vector<TelemetrySample>& samples);

}  // namespace gpudoctor
