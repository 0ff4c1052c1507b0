// Parsing `monitor`'s and `serve`'s flags (see monitor_settings.h).
#include "cli/monitor_settings.h"

#include "core/strings.h"
#include "platform/tcp_socket.h"

namespace gpudoctor {

Result<MonitorSettings> ParseMonitorSettings(const std::string& interval, const std::string& count,
                                             bool once) {
  MonitorSettings s;
  auto seconds = ParseDouble(interval);
  if (!seconds || !(*seconds >= 0.1) || *seconds > 86400)
    return UserError("--interval " + interval + ": not a number of seconds from 0.1 to 86400",
                     "for example --interval 2 or --interval 0.5");
  s.interval_seconds = *seconds;
  if (!count.empty()) {
    auto n = ParseU64(count);
    if (!n || *n == 0) return UserError("--count " + count + ": not a whole number of samples, 1 or more");
    if (once && *n != 1) return UserError("--once and --count " + count + " disagree", "give one of them");
    s.count = *n;
  }
  if (once) s.count = 1;
  return s;
}

Result<ListenAddress> ParseListenAddress(const std::string& text, bool listen_all) {
  ListenAddress a;
  std::string host;
  std::string port;
  if (!text.empty() && text.front() == '[') {
    size_t close = text.find(']');
    if (close == std::string::npos || close + 1 >= text.size() || text[close + 1] != ':')
      return UserError("address " + text + ": write an IPv6 address as [::1]:9400");
    host = text.substr(1, close - 1);
    port = text.substr(close + 2);
  } else if (size_t colon = text.rfind(':'); colon != std::string::npos) {
    if (text.find(':') != colon)
      return UserError("address " + text + ": write an IPv6 address in brackets, as [::1]:9400");
    host = text.substr(0, colon);
    port = text.substr(colon + 1);
    if (host.empty()) host = "127.0.0.1";
  } else {
    host = "127.0.0.1";
    port = text;
  }
  auto p = ParseU64(port);
  if (!p || *p == 0 || *p > 65535) return UserError("address " + text + ": the port must be 1 to 65535");
  if (host == "*") host = "0.0.0.0";
  // Checked as an address, not as text: "0", "0x0", "[::0]" and "[::ffff:0.0.0.0]" are every interface too.
  auto every_interface = IsEveryInterfaceHost(host);
  if (!every_interface.ok()) return every_interface.error().With("address " + text);
  if (*every_interface && !listen_all)
    return UserError(
        "address " + text + " listens on every network interface (" + host + " is the unspecified address)",
        "add --listen-all to serve GPU metrics to the whole network, or give one address of this "
        "machine (the default 127.0.0.1:9400 is this machine only)");
  a.host = host;
  a.port = static_cast<uint16_t>(*p);
  return a;
}

}  // namespace gpudoctor
