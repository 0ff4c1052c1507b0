// Telemetry samples in Prometheus' text exposition format (version 0.0.4): a HELP and a TYPE line per metric,
// one series per GPU labelled gpu, vendor, pci_bus_id, uuid (when known) and name. Names are ours,
// `gpudoctor_` and the unit last; docs/monitor.md maps each to dcgm-exporter's DCGM_FI_DEV_* and AMD
// device-metrics-exporter's gpu_* names.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "telemetry/telemetry_sample.h"

namespace gpudoctor {

// The Content-Type of the exposition format.
inline constexpr const char* kPrometheusContentType = "text/plain; version=0.0.4; charset=utf-8";

// The whole /metrics page. `warnings` (of this reading) is exported as a count, scrape_seconds as the time
// the reading took.
std::string RenderPrometheusText(const std::vector<TelemetrySample>& samples, size_t warnings,
                                 double scrape_seconds);

// A label value escaped as the format wants: backslash, double quote and line feed.
std::string EscapePrometheusLabel(std::string_view value);

// A sample value: integers (up to 2^53) without a decimal point, others with up to 10 significant digits.
std::string PrometheusNumber(double value);

}  // namespace gpudoctor
