// Reads the verify and bench JSON documents back for the report. nlohmann::json parses without
// exceptions; a small Reader walks the tree, checks each field's type, and keeps the first problem
// with its JSON path ("benchmarks[2].points[0].x: expected a number, found a string"). A file of the
// wrong kind (a bench document given as --verify, a snapshot, check's JSON) is named as such.
#include "report/report_inputs.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "snapshot/snapshot_json.h"

namespace gpudoctor {
namespace {

using Json = nlohmann::json;

const char* TypeName(const Json& j) {
  switch (j.type()) {
    case Json::value_t::null:
      return "null";
    case Json::value_t::boolean:
      return "true/false";
    case Json::value_t::string:
      return "a string";
    case Json::value_t::array:
      return "an array";
    case Json::value_t::object:
      return "an object";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float:
      return "a number";
    default:
      return "something else";
  }
}

// What another gpudoctor document is, to say so when it is passed to the wrong flag.
std::string KindOfDocument(const Json& doc) {
  auto schema = doc.find("schema");
  if (schema != doc.end() && schema->is_string()) {
    const std::string s = schema->get<std::string>();
    if (s.rfind("gpudoctor.bench", 0) == 0)
      return "a `gpudoctor bench --json` document (give it with --bench)";
    if (s == "gpudoctor.snapshot") return "a snapshot from `gpudoctor info --save` (give it with --from)";
    if (s == "gpudoctor.check") return "`gpudoctor check --json` output (report runs the checks itself)";
    if (s.rfind("gpudoctor.explain", 0) == 0) return "`gpudoctor explain --json` output";
    return "a document with schema \"" + s + "\"";
  }
  if (doc.contains("gates") && doc.contains("schema_version"))
    return "a `gpudoctor verify --json` document (give it with --verify)";
  return "";
}

class Reader {
 public:
  Reader(const Json& object, std::string path, std::string* error)
      : obj_(object), path_(std::move(path)), error_(error) {}

  std::string PathOf(std::string_view key) const {
    return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
  }
  void Fail(const std::string& path, const std::string& message) const {
    if (error_->empty()) *error_ = path + ": " + message;
  }
  bool ok() const { return error_->empty(); }

  // The member, or nullptr when absent (an error when `required`).
  const Json* Find(std::string_view key, bool required) const {
    auto it = obj_.find(key);
    if (it == obj_.end()) {
      if (required) Fail(path_.empty() ? "document" : path_, "\"" + std::string(key) + "\" is missing");
      return nullptr;
    }
    return &*it;
  }

  // A string; null reads as "".
  void String(std::string_view key, std::string& out, bool required = false) const {
    const Json* j = Find(key, required);
    if (!j || j->is_null()) return;
    if (!j->is_string()) return Expected(key, "a string", *j);
    out = j->get<std::string>();
  }
  void Bool(std::string_view key, bool& out) const {
    const Json* j = Find(key, false);
    if (!j || j->is_null()) return;
    if (!j->is_boolean()) return Expected(key, "true or false", *j);
    out = j->get<bool>();
  }
  // A number; null reads as nullopt.
  void Number(std::string_view key, std::optional<double>& out, bool required = false) const {
    const Json* j = Find(key, required);
    if (!j || j->is_null()) return;
    if (!j->is_number()) return Expected(key, "a number", *j);
    out = j->get<double>();
  }
  void Integer(std::string_view key, std::optional<int64_t>& out, bool required = false) const {
    const Json* j = Find(key, required);
    if (!j || j->is_null()) return;
    if (j->is_number_unsigned()) {
      const auto v = j->get<uint64_t>();
      if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
        return Fail(PathOf(key), "number too large");
      out = static_cast<int64_t>(v);
      return;
    }
    if (!j->is_number_integer()) return Expected(key, "a whole number", *j);
    out = j->get<int64_t>();
  }
  void Unsigned(std::string_view key, std::optional<uint64_t>& out) const {
    const Json* j = Find(key, false);
    if (!j || j->is_null()) return;
    if (!j->is_number_unsigned()) return Expected(key, "a whole number >= 0", *j);
    out = j->get<uint64_t>();
  }
  void Strings(std::string_view key, std::vector<std::string>& out) const {
    const Json* j = Find(key, false);
    if (!j || j->is_null()) return;
    if (!j->is_array()) return Expected(key, "an array of strings", *j);
    for (size_t i = 0; i < j->size(); ++i) {
      const Json& e = (*j)[i];
      if (!e.is_string())
        return Fail(PathOf(key) + "[" + std::to_string(i) + "]",
                    std::string("expected a string, found ") + TypeName(e));
      out.push_back(e.get<std::string>());
    }
  }
  // An array member (an error when it is something else); nullptr when absent or null.
  const Json* Array(std::string_view key, bool required) const {
    const Json* j = Find(key, required);
    if (!j || (j->is_null() && !required)) return nullptr;
    if (!j->is_array()) {
      Expected(key, "an array", *j);
      return nullptr;
    }
    return j;
  }
  const Json* Object(std::string_view key, bool required) const {
    const Json* j = Find(key, required);
    if (!j || (j->is_null() && !required)) return nullptr;
    if (!j->is_object()) {
      Expected(key, "an object", *j);
      return nullptr;
    }
    return j;
  }

 private:
  void Expected(std::string_view key, const char* what, const Json& found) const {
    Fail(PathOf(key), std::string("expected ") + what + ", found " + TypeName(found));
  }
  const Json& obj_;
  std::string path_;
  std::string* error_;
};

// Parses `text` as a JSON object, or the error naming the file and line.
Result<Json> ParseObject(std::string_view text, const std::string& origin, const std::string& hint) {
  Json doc = Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded())
    return UserError(origin + ":" + std::to_string(JsonErrorLine(text)) + ": not valid JSON", hint);
  if (!doc.is_object()) return UserError(origin + ": expected a JSON object, found " + TypeName(doc), hint);
  return doc;
}

// Iterates the objects of an array member; a member that is no object is the error.
template <typename Fn>
void ForEachObject(const Reader& parent, const Json* array, std::string_view key, Fn&& fn) {
  if (!array) return;
  for (size_t i = 0; i < array->size() && parent.ok(); ++i) {
    const std::string path = parent.PathOf(key) + "[" + std::to_string(i) + "]";
    const Json& e = (*array)[i];
    if (!e.is_object()) return parent.Fail(path, std::string("expected an object, found ") + TypeName(e));
    fn(e, path);
  }
}

std::optional<GateOutcome> GateOutcomeFrom(const std::string& s) {
  if (s == "pass") return GateOutcome::kPass;
  if (s == "fail") return GateOutcome::kFail;
  if (s == "skip") return GateOutcome::kSkip;
  return std::nullopt;
}

std::optional<BenchVerdict> BenchVerdictFrom(const std::string& s) {
  if (s == "ok") return BenchVerdict::kOk;
  if (s == "low") return BenchVerdict::kLow;
  if (s == "failed") return BenchVerdict::kFailed;
  if (s == "skipped") return BenchVerdict::kSkipped;
  return std::nullopt;
}

std::optional<BenchCheck> BenchCheckFrom(const std::string& s) {
  if (s == "passed") return BenchCheck::kPassed;
  if (s == "not run") return BenchCheck::kNotRun;
  if (s == "failed" || s.rfind("failed:", 0) == 0) return BenchCheck::kFailed;
  return std::nullopt;
}

void ReadVerifyGate(const Json& j, const std::string& path, std::string* error, VerifyGateEntry& g) {
  Reader r(j, path, error);
  r.String("gate", g.gate, true);
  r.String("title", g.title);
  std::string status;
  r.String("status", status, true);
  if (r.ok()) {
    auto outcome = GateOutcomeFrom(status);
    if (!outcome) return r.Fail(r.PathOf("status"), "\"" + status + "\" is not pass, fail or skip");
    g.status = *outcome;
  }
  r.String("summary", g.summary);
  r.String("hint", g.hint);
  r.Number("elapsed_ms", g.elapsed_ms);
  r.Strings("details", g.details);
  r.Strings("findings", g.findings);
  const Json* figures = r.Array("figures", false);
  if (!figures) return;
  for (size_t i = 0; i < figures->size() && r.ok(); ++i) {
    const std::string fpath = r.PathOf("figures") + "[" + std::to_string(i) + "]";
    const Json& f = (*figures)[i];
    if (!f.is_object()) return r.Fail(fpath, std::string("expected an object, found ") + TypeName(f));
    Reader fr(f, fpath, error);
    VerifyFigure fig;
    fr.String("label", fig.label);
    fr.Number("value", fig.value);
    fr.String("unit", fig.unit);
    g.figures.push_back(std::move(fig));
  }
}

void ReadBenchEntry(const Json& j, const std::string& path, std::string* error, BenchEntry& b) {
  Reader r(j, path, error);
  r.String("id", b.id, true);
  if (r.ok() && b.id.empty()) return r.Fail(r.PathOf("id"), "is empty");
  r.String("group", b.group);
  if (b.group.empty()) b.group = b.id.substr(0, b.id.find('.'));
  r.String("title", b.title);
  if (b.title.empty()) b.title = b.id;
  r.String("unit", b.unit);
  r.Bool("higher_is_better", b.higher_is_better);
  r.String("x_label", b.x_label);
  r.String("x_unit", b.x_unit);
  r.Number("best", b.best);
  r.Number("peak", b.peak);
  r.Number("percent_of_peak", b.percent_of_peak);
  std::string verdict;
  r.String("verdict", verdict, true);
  if (r.ok()) {
    auto v = BenchVerdictFrom(verdict);
    if (!v) return r.Fail(r.PathOf("verdict"), "\"" + verdict + "\" is not ok, low, failed or skipped");
    b.verdict = *v;
  }
  r.String("check", b.check_text, true);
  if (r.ok()) {
    auto c = BenchCheckFrom(b.check_text);
    if (!c)
      return r.Fail(r.PathOf("check"), "\"" + b.check_text + "\" is not passed, \"failed: ...\" or not run");
    b.check = *c;
  }
  r.String("note", b.note);
  const Json* points = r.Array("points", true);
  if (!points) return;
  for (size_t i = 0; i < points->size() && r.ok(); ++i) {
    const std::string ppath = r.PathOf("points") + "[" + std::to_string(i) + "]";
    const Json& p = (*points)[i];
    if (!p.is_object()) return r.Fail(ppath, std::string("expected an object, found ") + TypeName(p));
    Reader pr(p, ppath, error);
    std::optional<double> x, value;
    pr.Number("x", x, true);
    pr.Number("value", value, true);
    if (!pr.ok()) return;
    if (!x) return pr.Fail(pr.PathOf("x"), "is null");
    b.points.push_back({*x, value.value_or(std::nan(""))});
  }
}

}  // namespace

const char* ToString(GateOutcome g) {
  switch (g) {
    case GateOutcome::kPass:
      return "pass";
    case GateOutcome::kFail:
      return "fail";
    case GateOutcome::kSkip:
      return "skip";
  }
  return "skip";
}

const char* ToString(BenchVerdict v) {
  switch (v) {
    case BenchVerdict::kOk:
      return "ok";
    case BenchVerdict::kLow:
      return "low";
    case BenchVerdict::kFailed:
      return "failed";
    case BenchVerdict::kSkipped:
      return "skipped";
  }
  return "skipped";
}

Result<VerifyDocument> ParseVerifyJson(std::string_view text, const std::string& origin) {
  const std::string hint = "give the file `gpudoctor verify --json > verify.json` wrote";
  auto parsed = ParseObject(text, origin, hint);
  if (!parsed.ok()) return parsed.error();
  const Json& doc = *parsed;
  const bool has_schema = doc.contains("schema");
  if (has_schema || !doc.contains("gates") || !doc.contains("schema_version")) {
    std::string kind = KindOfDocument(doc);
    return UserError(
        origin + ": not a `gpudoctor verify --json` document" + (kind.empty() ? "" : ": it is " + kind),
        hint);
  }
  std::string error;
  Reader r(doc, "", &error);
  VerifyDocument v;
  std::optional<int64_t> version;
  r.Integer("schema_version", version, true);
  if (!r.ok()) return UserError(origin + ": " + error, hint);
  if (*version > kVerifyInputSchemaVersion)
    return UserError(origin + ": verify schema version " + std::to_string(*version) +
                         " is newer than this gpudoctor reads (" + std::to_string(kVerifyInputSchemaVersion) +
                         ")",
                     "update gpudoctor, or make the file with this version's `gpudoctor verify --json`");
  if (*version < 1)
    return UserError(origin + ": schema_version " + std::to_string(*version) + " is not valid", hint);
  v.schema_version = *version;
  r.String("tool_version", v.tool_version);
  r.String("level", v.level);
  r.String("backend", v.backend);
  r.String("runtime_version", v.runtime_version);
  if (const Json* d = r.Object("device", false)) {
    Reader dr(*d, "device", &error);
    VerifyDeviceEntry dev;
    std::optional<int64_t> index;
    dr.Integer("index", index);
    dev.index = index.value_or(0);
    dr.String("name", dev.name);
    dr.String("pci_address", dev.pci_address);
    dr.String("arch", dev.arch);
    dr.Unsigned("memory_total_bytes", dev.memory_total_bytes);
    dr.Integer("compute_units", dev.compute_units);
    v.device = std::move(dev);
  }
  const Json* gates = r.Array("gates", true);
  ForEachObject(r, gates, "gates", [&](const Json& g, const std::string& path) {
    VerifyGateEntry entry;
    ReadVerifyGate(g, path, &error, entry);
    v.gates.push_back(std::move(entry));
  });
  r.Strings("findings", v.findings);
  r.String("advice", v.advice);
  r.String("inject", v.inject);
  r.Number("elapsed_ms", v.elapsed_ms);
  r.String("verdict", v.verdict);
  r.Integer("exit_code", v.exit_code);
  if (!error.empty()) return UserError(origin + ": " + error, hint);
  return v;
}

Result<BenchDocument> ParseBenchJson(std::string_view text, const std::string& origin) {
  const std::string hint = "give the file `gpudoctor bench --json > bench.json` wrote";
  auto parsed = ParseObject(text, origin, hint);
  if (!parsed.ok()) return parsed.error();
  const Json& doc = *parsed;
  auto schema = doc.find("schema");
  const std::string schema_text =
      schema != doc.end() && schema->is_string() ? schema->get<std::string>() : "";
  if (schema_text != kBenchSchema) {
    if (schema_text.rfind("gpudoctor.bench/", 0) == 0)
      return UserError(origin + ": bench schema \"" + schema_text + "\" is not one this gpudoctor reads (\"" +
                           std::string(kBenchSchema) + "\")",
                       "update gpudoctor, or make the file with this version's `gpudoctor bench --json`");
    std::string kind = KindOfDocument(doc);
    return UserError(
        origin + ": not a `gpudoctor bench --json` document" +
            (kind.empty() ? " (\"schema\" is not \"" + std::string(kBenchSchema) + "\")" : ": it is " + kind),
        hint);
  }
  std::string error;
  Reader r(doc, "", &error);
  BenchDocument b;
  b.schema = schema_text;
  r.String("tool_version", b.tool_version);
  if (const Json* d = r.Object("device", false)) {
    Reader dr(*d, "device", &error);
    std::optional<int64_t> index;
    dr.Integer("index", index);
    b.device.index = index.value_or(0);
    dr.String("name", b.device.name);
    dr.String("arch", b.device.arch);
    dr.String("pci_address", b.device.pci_address);
    dr.String("backend", b.device.backend);
  }
  r.String("level", b.level);
  r.Number("duration_s", b.duration_s);
  const Json* benchmarks = r.Array("benchmarks", true);
  ForEachObject(r, benchmarks, "benchmarks", [&](const Json& e, const std::string& path) {
    BenchEntry entry;
    ReadBenchEntry(e, path, &error, entry);
    b.benchmarks.push_back(std::move(entry));
  });
  const Json* findings = r.Array("findings", false);
  ForEachObject(r, findings, "findings", [&](const Json& f, const std::string& path) {
    Reader fr(f, path, &error);
    BenchFindingEntry finding;
    fr.String("id", finding.id);
    fr.String("severity", finding.severity);
    if (fr.ok() && !finding.severity.empty() && finding.severity != "ok" && finding.severity != "info" &&
        finding.severity != "warning" && finding.severity != "error")
      return fr.Fail(fr.PathOf("severity"), "\"" + finding.severity + "\" is not ok, info, warning or error");
    fr.String("title", finding.title);
    fr.Strings("evidence", finding.evidence);
    fr.String("fix", finding.fix);
    b.findings.push_back(std::move(finding));
  });
  if (!error.empty()) return UserError(origin + ": " + error, hint);
  return b;
}

}  // namespace gpudoctor
