// `gpudoctor monitor`: samples every GPU at an interval and prints the samples (telemetry/ reads and
// renders them); here only the flags, the loop and its stop.
#include "cli/monitor_command.h"

#include <chrono>
#include <deque>
#include <filesystem>
#include <map>
#include <system_error>
#include <thread>

#include "cli/monitor_settings.h"
#include "cli/output.h"
#include "cli/snapshot_options.h"
#include "knowledge/knowledge_loader.h"
#include "platform/terminal.h"
#include "probe/probe_inputs.h"
#include "telemetry/telemetry_json.h"
#include "telemetry/telemetry_libraries.h"
#include "telemetry/telemetry_reader.h"
#include "telemetry/telemetry_text.h"
#include "topo/machine_pass.h"

namespace gpudoctor {
namespace {

constexpr size_t kHistoryLength = 20;

int64_t NowUnixMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// "14:03:07" (UTC) for a plain line's prefix.
std::string ClockText(int64_t unix_ms) {
  int64_t s = (unix_ms / 1000) % 86400;
  char buf[16];
  std::snprintf(buf, sizeof buf, "%02d:%02d:%02d", static_cast<int>(s / 3600), static_cast<int>(s / 60 % 60),
                static_cast<int>(s % 60));
  return buf;
}

// Sleeps `seconds` in short slices; false when a stop was requested meanwhile.
bool WaitOrStop(double seconds) {
  auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
    if (StopRequested()) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return !StopRequested();
}

}  // namespace

std::string MonitorCommand::Description() const {
  return "Watch every GPU while it works: memory used and total, utilization, power, temperature, fan, SM "
         "and "
         "memory clocks, clock throttle reasons and each process's memory (NVIDIA, and AMD through ROCm "
         "SMI). AMD GPUs are read through AMD SMI (libamd_smi) and ROCm SMI (librocm_smi64) when ROCm is "
         "installed, and from the amdgpu driver's sysfs files for whatever they leave out (any ROCm version, "
         "or none; --json names each metric's source); on Windows through ADL (atiadlxx.dll, which comes "
         "with "
         "AMD's display driver). NVIDIA GPUs through NVML (comes with the driver). On "
         "a terminal the view is redrawn in place with a short utilization history; into a pipe, "
         "a "
         "file or over a plain ssh session every sample is appended as plain lines. Ctrl-C stops it. A "
         "metric "
         "the GPU does not expose shows as n/a (null in JSON). JSON and CSV fields: docs/monitor.md.\n\n"
         "Exit codes: 0 done or stopped, 2 no GPU to watch, 3 bad flags or gpudoctor itself failed.\n\n"
         "Examples:\n"
         "  gpudoctor monitor                          redraw every second until Ctrl-C\n"
         "  gpudoctor monitor --interval 0.5 --count 20\n"
         "  gpudoctor monitor --once --json            one JSON line with every GPU, then exit\n"
         "  gpudoctor monitor --csv --interval 5 > gpu.csv\n"
         "  gpudoctor monitor --once --sysroot ./machine   a machine recorded with `gpudoctor gather`\n"
         "  gpudoctor serve --prometheus               the same numbers for Prometheus";
}

void MonitorCommand::DefineFlags(FlagSet& flags) {
  flags.String("--interval", &interval_, "SECONDS", "Time between samples (default 1; 0.1 to 86400).");
  flags.String("--count", &count_, "N", "Stop after N samples (default: until Ctrl-C).");
  flags.Bool("--once", &once_, "Take one sample, print it and exit (same as --count 1).");
  flags.Bool("--json", &json_, "One JSON object per sample on its own line (all GPUs; docs/monitor.md).");
  flags.Bool("--csv", &csv_, "CSV: a header, then one row per GPU per sample.");
  flags.Excludes("--json", "--csv");
  flags.String("--sysroot", &sysroot_, "DIR",
               "Replay a machine recorded with `gpudoctor gather` instead of watching this one.");
}

int MonitorCommand::Run(const CliContext& ctx) {
  auto settings = ParseMonitorSettings(interval_, count_, once_);
  if (!settings.ok()) return ReportError(ctx.err, settings.error());
  auto db = LoadEmbeddedKnowledge();
  auto machine = MachineInputs(sysroot_, ctx.env, db.ok() ? &db.value() : nullptr);
  if (!machine.ok()) return ReportError(ctx.err, machine.error());
  ProbeInputs& inputs = *machine;
  TelemetryReader reader(
      *inputs.fs, inputs.live, ProbeMachine(inputs),
      FindTelemetryLibraries(*inputs.fs, inputs.env, inputs.live, inputs.windows != nullptr));
  std::string setup;
  for (const auto& w : reader.setup_warnings()) setup += "warning: " + w + "\n";
  if (reader.devices().empty()) {
    WriteAll(
        ctx.err,
        setup +
            "No GPU to watch: no AMD GPU bound to amdgpu (Linux) or answering ADL (Windows) and no NVIDIA "
            "GPU answering NVML.\n"
            "hint: `gpudoctor check` says why the GPU is not usable\n");
    return kExitErrors;
  }
  if (!json_) WriteAll(ctx.err, setup);

  const bool redraw = ctx.stdout_is_tty && !json_ && !csv_ && settings->count != 1;
  InstallStopRequestHandler();
  std::map<size_t, std::deque<double>> history;
  if (csv_ && !WriteAll(ctx.out, TelemetryCsvHeader())) return kExitOk;
  for (uint64_t n = 1;; ++n) {
    std::vector<std::string> warnings =
        n == 1 && json_ ? reader.setup_warnings() : std::vector<std::string>{};
    std::vector<TelemetrySample> samples = reader.Read(warnings);
    int64_t now = NowUnixMs();
    std::string text;
    if (json_) {
      text = SampleLineJson(n, now, samples, warnings) + "\n";
    } else if (csv_) {
      text = TelemetryCsvRows(n, now, samples);
    } else if (redraw) {
      // Home and clear, as `watch` does: a line wider than the terminal wraps, and counting lines back up
      // would then leave old text behind.
      text += "\x1b[H\x1b[2J";
      text += "gpudoctor monitor  " + ClockText(now) + " UTC  every " + interval_ + " s  (Ctrl-C stops)\n";
      for (size_t i = 0; i < samples.size(); ++i) {
        auto& h = history[i];
        h.push_back(samples[i].utilization_percent.value_or(-1.0));
        if (h.size() > kHistoryLength) h.pop_front();
        text += SampleTextLine(samples[i], h) + "\n";
      }
      for (const auto& w : warnings) text += "warning: " + w + "\n";
    } else {
      for (const auto& s : samples) text += ClockText(now) + "  " + SampleTextLine(s, {}) + "\n";
      for (const auto& w : warnings) WriteAll(ctx.err, "warning: " + w + "\n");
    }
    if (!WriteAll(ctx.out, text)) return kExitOk;  // the reader went away: a quiet end
    std::fflush(ctx.out);
    if (settings->count && n >= *settings->count) break;
    if (!WaitOrStop(settings->interval_seconds)) break;
  }
  return kExitOk;
}

}  // namespace gpudoctor
