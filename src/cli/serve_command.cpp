// `gpudoctor serve --prometheus`: the exporter. Flags, the reader and the server wired together; the
// server and the format are exporter/, the readings telemetry/.
#include "cli/serve_command.h"

#include <chrono>
#include <filesystem>
#include <system_error>

#include "cli/monitor_settings.h"
#include "cli/output.h"
#include "cli/snapshot_options.h"
#include "exporter/exporter_routes.h"
#include "exporter/prometheus_text.h"
#include "exporter/shared_scrape.h"
#include "knowledge/knowledge_loader.h"
#include "platform/terminal.h"
#include "probe/probe_inputs.h"
#include "telemetry/telemetry_libraries.h"
#include "telemetry/telemetry_reader.h"
#include "topo/machine_pass.h"

namespace gpudoctor {
namespace {

// How long a scrape waits for a read of the GPUs that started after it came.
constexpr std::chrono::milliseconds kScrapeWait{5000};

HttpResponse ScrapeBusyResponse(const std::string& why) {
  HttpResponse r;
  r.status = 503;
  r.headers.emplace_back("Retry-After", "1");
  r.body = "503 Service Unavailable: " + why + "\n";
  return r;
}

}  // namespace

std::string ServeCommand::Description() const {
  return "Serve the numbers of `gpudoctor monitor` to Prometheus: GET /metrics answers in the text "
         "exposition "
         "format, one series per GPU labelled gpu, vendor, pci_bus_id, uuid (NVIDIA) and name, read afresh "
         "at "
         "each scrape; GET /healthz answers ok. Metric names and how they map to dcgm-exporter's "
         "DCGM_FI_DEV_* "
         "and AMD device-metrics-exporter's names: docs/monitor.md.\n\n"
         "It listens on this machine only (127.0.0.1:9400, dcgm-exporter's port) unless told otherwise; an "
         "address on every interface (0.0.0.0, [::], or any spelling of them: 0, [::ffff:0.0.0.0]) needs "
         "--listen-all, as the metrics are then open to the "
         "whole network. It serves up to 128 connections at once (1,024 open, more are answered 503), each "
         "with a request head of at most 8 KiB and 5 s in all to send it (0.5 s while others wait): a slow "
         "client cannot hold the others or make it hold more memory. Ctrl-C stops it.\n\n"
         "Exit codes: 0 stopped, 2 no GPU to watch, 3 bad flags, or the address cannot be used.\n\n"
         "Examples:\n"
         "  gpudoctor serve --prometheus                     http://127.0.0.1:9400/metrics\n"
         "  gpudoctor serve --prometheus 10.0.0.5:9400       one interface of this machine\n"
         "  gpudoctor serve --prometheus 0.0.0.0:9400 --listen-all\n"
         "  gpudoctor serve --prometheus --sysroot ./machine a machine recorded with `gpudoctor gather`\n\n"
         "Prometheus scrape config:\n"
         "  scrape_configs:\n"
         "    - job_name: gpudoctor\n"
         "      static_configs: [{targets: ['127.0.0.1:9400']}]";
}

void ServeCommand::DefineFlags(FlagSet& flags) {
  flags.Bool("--prometheus", &prometheus_,
             "Serve /metrics in Prometheus' text format (the one protocol so far).");
  flags.Positional("ADDR", &address_,
                   "Address to listen on: HOST:PORT, [IPv6]:PORT or PORT (default 127.0.0.1:9400)", false);
  flags.Bool("--listen-all", &listen_all_,
             "Allow an address on every interface (0.0.0.0, [::] or another spelling of them).");
  flags.String("--sysroot", &sysroot_, "DIR",
               "Serve a machine recorded with `gpudoctor gather` instead of this one.");
}

int ServeCommand::Run(const CliContext& ctx) {
  if (!prometheus_)
    return ReportError(ctx.err,
                       UserError("say which protocol to serve", "gpudoctor serve --prometheus [ADDR]"));
  auto address = ParseListenAddress(address_, listen_all_);
  if (!address.ok()) return ReportError(ctx.err, address.error());
  auto db = LoadEmbeddedKnowledge();
  auto machine = MachineInputs(sysroot_, ctx.env, db.ok() ? &db.value() : nullptr);
  if (!machine.ok()) return ReportError(ctx.err, machine.error());
  ProbeInputs& inputs = *machine;
  TelemetryReader reader(
      *inputs.fs, inputs.live, ProbeMachine(inputs),
      FindTelemetryLibraries(*inputs.fs, inputs.env, inputs.live, inputs.windows != nullptr));
  std::string setup;
  for (const auto& w : reader.setup_warnings()) setup += "warning: " + w + "\n";
  WriteAll(ctx.err, setup);
  if (reader.devices().empty()) {
    WriteAll(ctx.err,
             "No GPU to watch: no AMD GPU bound to amdgpu (Linux) or answering ADL (Windows) and no NVIDIA "
             "GPU answering NVML.\n"
             "hint: `gpudoctor check` says why the GPU is not usable\n");
    return kExitErrors;
  }
  auto listener = TcpListener::Listen(address->host, address->port);
  if (!listener.ok()) return ReportError(ctx.err, listener.error());
  const std::string shown =
      (address->host.find(':') != std::string::npos ? "[" + address->host + "]" : address->host) + ":" +
      std::to_string((*listener)->port());
  WriteAll(ctx.err, "serving " + std::to_string(reader.devices().size()) + " GPU(s) at http://" + shown +
                        "/metrics (Ctrl-C stops)\n");
  std::fflush(ctx.err);

  auto metrics = [&]() {
    auto start = std::chrono::steady_clock::now();
    std::vector<std::string> warnings;
    std::vector<TelemetrySample> samples = reader.Read(warnings);
    for (const auto& w : warnings) WriteAll(ctx.err, "warning: " + w + "\n");
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return RenderPrometheusText(samples, warnings.size(), seconds);
  };
  // The server answers from several workers at once and the reader is not thread-safe: scrapes that arrive
  // together share one read (SharedScrape). /healthz needs no read and always answers; a scrape whose read
  // does not come within kScrapeWait (a read that hangs) is answered 503 and frees its worker.
  SharedScrape shared_scrape(metrics);
  auto handler = [&](const HttpRequest& request) {
    if (request.path != "/metrics" || (request.method != "GET" && request.method != "HEAD"))
      return RouteExporterRequest(request, metrics);  // does not read the GPUs
    auto page = shared_scrape.Page(kScrapeWait);
    if (!page.ok()) return ScrapeBusyResponse(page.error().message);
    return RouteExporterRequest(request, [&] { return std::move(*page); });
  };
  InstallStopRequestHandler();
  auto status = ServeHttp(
      **listener, handler, HttpServerOptions{}, [] { return StopRequested(); },
      [&](const std::string& line) { WriteAll(ctx.err, "note: " + line + "\n"); });
  if (!status.ok()) return ReportError(ctx.err, status.error());
  WriteAll(ctx.err, "stopped\n");
  return kExitOk;
}

}  // namespace gpudoctor
