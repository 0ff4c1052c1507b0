// `monitor`'s and `serve`'s numbers, parsed once from their flags' text into typed settings.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/result.h"

namespace gpudoctor {

struct MonitorSettings {
  double interval_seconds = 1.0;
  std::optional<uint64_t> count;  // empty: until stopped
};

// --interval (0.1 to 86400 seconds), --count (1 or more), --once (count 1; not with another --count).
Result<MonitorSettings> ParseMonitorSettings(const std::string& interval, const std::string& count,
                                             bool once);

// "127.0.0.1:9400", "[::1]:9400", "localhost:9400", ":9400" (loopback), "9400": host and port. Refuses the
// unspecified address, which listens on every interface, unless `listen_all`: checked as an address
// (platform/tcp_socket.h's IsEveryInterfaceHost), so "0", "0x0", "[::0]", "[::ffff:0.0.0.0]" and "*" count.
struct ListenAddress {
  std::string host;
  uint16_t port = 0;
};
Result<ListenAddress> ParseListenAddress(const std::string& text, bool listen_all);

}  // namespace gpudoctor
