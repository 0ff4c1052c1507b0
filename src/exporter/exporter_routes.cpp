// The exporter's routes (see exporter_routes.h).
#include "exporter/exporter_routes.h"

#include "exporter/prometheus_text.h"

namespace gpudoctor {

HttpResponse RouteExporterRequest(const HttpRequest& request, const std::function<std::string()>& metrics) {
  HttpResponse r;
  if (request.method != "GET" && request.method != "HEAD") {
    r.status = 405;
    r.headers.emplace_back("Allow", "GET, HEAD");
    r.body = "405 Method Not Allowed: only GET and HEAD are served\n";
    return r;
  }
  if (request.path == "/metrics") {
    r.content_type = kPrometheusContentType;
    r.body = metrics();
  } else if (request.path == "/healthz") {
    r.body = "ok\n";
  } else if (request.path == "/") {
    r.body = "gpudoctor exporter\n/metrics  GPU metrics in Prometheus' text format\n/healthz  liveness\n";
  } else {
    r.status = 404;
    r.body = "404 Not Found: try /metrics or /healthz\n";
  }
  return r;
}

}  // namespace gpudoctor
