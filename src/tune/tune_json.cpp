// The codec of tune's result (tune_json.h): the writer and the field-by-field reader, side by side.
#include "tune/tune_json.h"

#include "core/json_reader.h"

namespace gpudoctor {
namespace {

using Json = nlohmann::ordered_json;

const char* kHint = "give the file `gpudoctor tune --json > tune.json` wrote";

Json OptionalNumber(std::optional<double> v) {
  return v ? Json(*v) : Json(nullptr);
}

template <typename T>
Json OptionalCount(std::optional<T> v) {
  return v ? Json(*v) : Json(nullptr);
}

// ---- writing ----

Json MeasurementsJson(const std::vector<TuneMeasurement>& list) {
  Json out = Json::array();
  for (const auto& m : list)
    out.push_back({{"model", m.model},
                   {"role", m.role},
                   {"precision", m.precision},
                   {"channels_last", m.channels_last},
                   {"benchmark", m.benchmark},
                   {"batch", m.batch},
                   {"warmup_steps", m.warmup_steps},
                   {"timed_steps", m.timed_steps},
                   {"seconds", m.seconds},
                   {"samples_per_s", m.samples_per_s},
                   {"rate", m.units_per_s},
                   {"unit", m.unit},
                   {"loss", OptionalNumber(m.loss)},
                   {"loss_finite", m.loss_finite},
                   {"peak_allocated_bytes", OptionalNumber(m.peak_allocated_bytes)},
                   {"peak_reserved_bytes", OptionalNumber(m.peak_reserved_bytes)},
                   {"tf32", m.tf32},
                   {"fused", m.fused},
                   {"sdpa", m.sdpa.empty() ? Json(nullptr) : Json(m.sdpa)},
                   {"compile", m.compile.empty() ? Json(nullptr) : Json(m.compile)},
                   {"compile_seconds", OptionalNumber(m.compile_seconds)},
                   {"checkpointing", m.checkpointing}});
  return out;
}

Json SearchesJson(const std::vector<TuneBatchSearch>& list) {
  Json out = Json::array();
  for (const auto& s : list) {
    Json tried = Json::array();
    for (auto [b, ok] : s.tried) tried.push_back({{"batch", b}, {"fitted", ok}});
    out.push_back({{"model", s.model},
                   {"precision", s.precision},
                   {"largest_batch", s.largest},
                   {"failed_batch", OptionalCount(s.failed_at)},
                   {"cap", s.cap},
                   {"seconds", s.seconds},
                   {"tried", tried}});
  }
  return out;
}

Json LoaderJson(const std::vector<TuneLoaderRate>& list) {
  Json out = Json::array();
  for (const auto& l : list)
    out.push_back({{"workers", l.workers},
                   {"pin_memory", l.pin_memory},
                   {"batch", l.batch},
                   {"images", l.images},
                   {"seconds", l.seconds},
                   {"images_per_s", l.images_per_s},
                   {"decode", l.decode},
                   {"image", l.image_side},
                   {"cpus", l.cpus}});
  return out;
}

Json SkipsJson(const std::vector<TuneSkip>& list) {
  Json out = Json::array();
  for (const auto& s : list) out.push_back({{"item", s.item}, {"reason", s.reason}});
  return out;
}

Json FrameworkJson(const std::optional<TuneHello>& h) {
  if (!h) return nullptr;
  return {{"torch", h->torch_version},
          {"torchvision", h->torchvision_version.empty() ? Json(nullptr) : Json(h->torchvision_version)},
          {"backend", h->backend},
          {"device", h->device},
          {"bf16", h->bf16},
          {"size", h->size},
          {"warmup_steps", h->warmup_steps},
          {"timed_steps", h->timed_steps}};
}

Json AllocatorJson(const std::optional<TuneAllocatorRun>& a) {
  if (!a) return nullptr;
  Json seen = Json::object();
  if (a->output.hello)
    for (const auto& [k, v] : a->output.hello->alloc_conf) seen[k] = v;
  return {{"variable", a->variable},
          {"value", a->value},
          {"status", a->status},
          {"seen_by_child", seen},
          {"measurements", MeasurementsJson(a->output.measurements)},
          {"batch_searches", SearchesJson(a->output.searches)},
          {"skipped", SkipsJson(a->output.skips)}};
}

Json LibraryJson(const std::vector<TuneLibraryRun>& runs) {
  Json out = Json::array();
  for (const auto& r : runs) {
    Json env = Json::object();
    for (const auto& [k, v] : r.knob.env) env[k] = v;
    out.push_back({{"knob", r.knob.name},
                   {"row", r.knob.row},
                   {"without", r.knob.without},
                   {"model", r.knob.model},
                   {"env", env},
                   {"status", r.status},
                   {"measurements", MeasurementsJson(r.output.measurements)},
                   {"skipped", SkipsJson(r.output.skips)}});
  }
  return out;
}

Json ModelsJson(const std::vector<TuneModelAdvice>& list) {
  Json out = Json::array();
  for (const auto& m : list) {
    Json knobs = Json::array();
    for (const auto& k : m.knobs)
      knobs.push_back({{"knob", k.knob},
                       {"without", k.without},
                       {"with", k.with},
                       {"without_rate", OptionalNumber(k.without_rate)},
                       {"with_rate", OptionalNumber(k.with_rate)},
                       {"change_percent", OptionalNumber(k.change_percent)},
                       {"recommended", k.recommended},
                       {"why", k.why}});
    out.push_back(
        {{"model", m.model},
         {"unit", m.unit},
         {"knob_batch", m.knob_batch ? Json(m.knob_batch) : Json(nullptr)},
         {"knobs", knobs},
         {"recommended",
          {{"precision", m.precision},
           {"channels_last", m.channels_last},
           {"benchmark", m.benchmark},
           {"batch", m.batch},
           {"rate", OptionalNumber(m.recommended_rate)},
           {"tf32", m.tf32},
           {"fused_optimizer", m.fused},
           {"sdpa", m.sdpa.empty() ? Json(nullptr) : Json(m.sdpa)},
           {"compile", m.compile.empty() ? Json(nullptr) : Json(m.compile)},
           {"compile_seconds", OptionalNumber(m.compile_seconds)},
           {"checkpointing", m.checkpointing},
           {"peak_allocated_bytes", OptionalNumber(m.peak_allocated_bytes)},
           {"speedup_vs_generic", m.generic_rate && m.recommended_rate && *m.generic_rate > 0
                                      ? Json(*m.recommended_rate / *m.generic_rate)
                                      : Json(nullptr)}}},
         {"generic",
          {{"precision", "fp32"}, {"batch", m.generic_batch}, {"rate", OptionalNumber(m.generic_rate)}}},
         {"largest_batch", OptionalCount(m.largest_batch)},
         {"failed_batch", OptionalCount(m.failed_batch)}});
  }
  return out;
}

// ---- reading ----

TuneMeasurement ReadMeasurement(const JsonReader& r) {
  TuneMeasurement m;
  r.String("model", m.model);
  r.String("role", m.role);
  r.String("precision", m.precision);
  r.Bool("channels_last", m.channels_last);
  r.Bool("benchmark", m.benchmark);
  r.IntegerAs("batch", m.batch);
  r.IntegerAs("warmup_steps", m.warmup_steps);
  r.IntegerAs("timed_steps", m.timed_steps);
  r.Number("seconds", m.seconds);
  r.Number("samples_per_s", m.samples_per_s);
  r.Number("rate", m.units_per_s);
  r.String("unit", m.unit);
  r.Number("loss", m.loss);
  m.loss_finite = m.loss.has_value();
  r.Bool("loss_finite", m.loss_finite);
  r.Number("peak_allocated_bytes", m.peak_allocated_bytes);
  r.Number("peak_reserved_bytes", m.peak_reserved_bytes);
  r.Bool("tf32", m.tf32);
  r.Bool("fused", m.fused);
  r.String("sdpa", m.sdpa);
  r.String("compile", m.compile);
  r.Number("compile_seconds", m.compile_seconds);
  r.Bool("checkpointing", m.checkpointing);
  m.item = m.model + "/" + m.precision + "/" + (m.channels_last ? "cl" : "nchw") + "/" +
           (m.benchmark ? "benchmark" : "default") + "/" + std::to_string(m.batch);
  return m;
}

TuneBatchSearch ReadSearch(const JsonReader& r) {
  TuneBatchSearch s;
  r.String("model", s.model);
  r.String("precision", s.precision);
  r.IntegerAs("largest_batch", s.largest);
  r.OptionalIntegerAs("failed_batch", s.failed_at);
  r.IntegerAs("cap", s.cap);
  r.Number("seconds", s.seconds);
  r.ForEachObject("tried", false, [&](const JsonReader& t) {
    uint32_t batch = 0;
    bool fitted = false;
    t.IntegerAs("batch", batch, /*required=*/true);
    t.Bool("fitted", fitted);
    s.tried.emplace_back(batch, fitted);
  });
  return s;
}

TuneLoaderRate ReadLoader(const JsonReader& r) {
  TuneLoaderRate l;
  r.IntegerAs("workers", l.workers);
  r.Bool("pin_memory", l.pin_memory);
  r.IntegerAs("batch", l.batch);
  r.IntegerAs("images", l.images);
  r.Number("seconds", l.seconds);
  r.Number("images_per_s", l.images_per_s);
  r.String("decode", l.decode);
  r.IntegerAs("image", l.image_side);
  r.IntegerAs("cpus", l.cpus);
  l.item = "loader/" + std::to_string(l.workers) + " workers/" + (l.pin_memory ? "pinned" : "pageable");
  return l;
}

// The lists a child's output and the allocator's share.
void ReadOutputLists(const JsonReader& r, TuneChildOutput& out) {
  r.ForEachObject("measurements", false,
                  [&](const JsonReader& m) { out.measurements.push_back(ReadMeasurement(m)); });
  r.ForEachObject("batch_searches", false,
                  [&](const JsonReader& s) { out.searches.push_back(ReadSearch(s)); });
  r.ForEachObject("skipped", false, [&](const JsonReader& s) {
    TuneSkip skip;
    s.String("item", skip.item);
    s.String("reason", skip.reason);
    out.skips.push_back(skip);
  });
}

std::optional<TuneHello> ReadFramework(const JsonReader& doc) {
  const JsonValue* f = doc.Object("framework", false);
  if (!f) return std::nullopt;
  JsonReader r(*f, doc.PathOf("framework"), doc.error());
  TuneHello h;
  r.String("torch", h.torch_version);
  r.String("torchvision", h.torchvision_version);
  r.String("backend", h.backend);
  r.String("device", h.device);
  r.Bool("bf16", h.bf16);
  r.String("size", h.size);
  r.IntegerAs("warmup_steps", h.warmup_steps);
  r.IntegerAs("timed_steps", h.timed_steps);
  return h;
}

std::optional<TuneAllocatorRun> ReadAllocator(const JsonReader& doc) {
  const JsonValue* a = doc.Object("allocator", false);
  if (!a) return std::nullopt;
  JsonReader r(*a, doc.PathOf("allocator"), doc.error());
  TuneAllocatorRun run;
  r.String("variable", run.variable, /*required=*/true);
  r.String("value", run.value);
  r.String("status", run.status);
  if (const JsonValue* seen = r.Object("seen_by_child", false)) {
    JsonReader s(*seen, r.PathOf("seen_by_child"), doc.error());
    TuneHello hello;
    hello.mode = "allocator";
    for (const auto& [name, value] : seen->items()) {
      std::string text;
      s.String(name, text);
      hello.alloc_conf.emplace_back(name, text);
    }
    run.output.hello = hello;
  }
  ReadOutputLists(r, run.output);
  return run;
}

std::vector<TuneLibraryRun> ReadLibrary(const JsonReader& doc) {
  std::vector<TuneLibraryRun> runs;
  doc.ForEachObject("library_knobs", false, [&](const JsonReader& r) {
    TuneLibraryRun run;
    r.String("knob", run.knob.name, /*required=*/true);
    r.String("row", run.knob.row);
    r.String("without", run.knob.without);
    r.String("model", run.knob.model);
    r.String("status", run.status);
    if (const JsonValue* env = r.Object("env", false)) {
      JsonReader e(*env, r.PathOf("env"), r.error());
      for (const auto& [name, value] : env->items()) {
        std::string text;
        e.String(name, text);
        run.knob.env.emplace_back(name, text);
      }
    }
    ReadOutputLists(r, run.output);
    runs.push_back(std::move(run));
  });
  return runs;
}

// A tune problem is a warning or an error; a result that says anything else is refused when read back.
std::optional<Severity> TuneProblemSeverity(std::string_view text) {
  auto s = SeverityFromString(text);
  if (s == Severity::kWarning || s == Severity::kError) return s;
  return std::nullopt;
}

}  // namespace

TuneAdvice AdviseRun(const TuneRun& run) {
  return BuildTuneAdvice(run.output, run.allocator ? &*run.allocator : nullptr, run.library);
}

std::string TuneResultToJson(const TuneResult& t) {
  const TuneRun& run = t.run;
  const TuneChildOutput& o = run.output;
  Json j;
  j["schema"] = SchemaName("tune", kTuneSchemaMajor);
  j["status"] = run.status;
  j["python_env"] = t.python_env;
  j["interpreter"] = run.interpreter;
  j["device_requested"] = t.device_requested;
  j["quick"] = t.quick;
  j["elapsed_ms"] = run.elapsed_ms;
  j["exit_code"] = OptionalCount(run.exit_code);
  j["signal"] = OptionalCount(run.signal);
  j["framework"] = FrameworkJson(o.hello);
  j["measurements"] = MeasurementsJson(o.measurements);
  j["batch_searches"] = SearchesJson(o.searches);
  j["loader"] = LoaderJson(o.loader);
  j["allocator"] = AllocatorJson(run.allocator);
  j["library_knobs"] = LibraryJson(run.library);
  j["models"] = ModelsJson(t.advice.models);
  j["python_lines"] = t.advice.python_lines;
  Json env = Json::object();
  for (const auto& [k, v] : t.advice.env) env[k] = v;
  j["env"] = env;
  j["notes"] = t.advice.notes;
  j["skipped"] = SkipsJson(o.skips);
  Json problems = Json::array();
  for (const auto& p : run.problems)
    problems.push_back(
        {{"severity", ToString(p.severity)}, {"id", p.id}, {"title", p.title}, {"evidence", p.evidence}});
  j["problems"] = problems;
  j["stderr_tail"] = run.stderr_tail;
  // The child's stderr is any bytes: text that is not UTF-8 is written with U+FFFD, never thrown on.
  return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

Result<TuneResult> TuneResultFromJson(std::string_view text, const std::string& origin) {
  auto doc = ParseJsonObject(text, origin, kHint);
  if (!doc.ok()) return doc.error();
  auto major = ExpectSchema(*doc, "tune", kTuneSchemaMajor, origin, kHint);
  if (!major.ok()) return major.error();
  std::string error;
  JsonReader r(*doc, "", &error);
  TuneResult t;
  TuneRun& run = t.run;
  r.String("status", run.status);
  r.String("python_env", t.python_env);
  r.String("interpreter", run.interpreter);
  r.String("device_requested", t.device_requested);
  r.Bool("quick", t.quick);
  r.IntegerAs("elapsed_ms", run.elapsed_ms);
  r.OptionalIntegerAs("exit_code", run.exit_code);
  r.OptionalIntegerAs("signal", run.signal);
  run.output.hello = ReadFramework(r);
  ReadOutputLists(r, run.output);
  r.ForEachObject("loader", false, [&](const JsonReader& l) { run.output.loader.push_back(ReadLoader(l)); });
  run.output.ended = run.status == "ok";
  run.allocator = ReadAllocator(r);
  run.library = ReadLibrary(r);
  r.ForEachObject("problems", false, [&](const JsonReader& p) {
    TuneProblem problem;
    p.Enum("severity", problem.severity, TuneProblemSeverity, "warning or error");
    p.String("id", problem.id);
    p.String("title", problem.title);
    p.Strings("evidence", problem.evidence);
    run.problems.push_back(problem);
  });
  r.Strings("stderr_tail", run.stderr_tail);
  if (!error.empty()) return UserError(origin + ": " + error, kHint);
  t.advice = AdviseRun(run);
  return t;
}

}  // namespace gpudoctor
