// What the exporter answers at each path: GET /metrics (the exposition text), GET /healthz ("ok"), GET / (a
// short page naming both); 404 for other paths, 405 for methods other than GET and HEAD.
#pragma once

#include <functional>
#include <string>

#include "exporter/http_server.h"

namespace gpudoctor {

// `metrics` renders the /metrics page when asked (so a scrape reads the GPUs, nothing else does).
HttpResponse RouteExporterRequest(const HttpRequest& request, const std::function<std::string()>& metrics);

}  // namespace gpudoctor
