// Reading one report into NodeFacts (see node_report.h), with nlohmann/json; every exception stays here.
#include "fleet/node_report.h"

#include <cmath>
#include <exception>
#include <nlohmann/json.hpp>

#include "core/strings.h"

namespace gpudoctor {
namespace {

using Json = nlohmann::json;
constexpr size_t kMaxItems = 10000;
constexpr size_t kMaxText = 256;

std::string Str(const Json& obj, const char* key) {
  if (!obj.is_object()) return {};
  auto it = obj.find(key);
  if (it == obj.end() || !it->is_string()) return {};
  return it->get<std::string>().substr(0, kMaxText);
}

const Json* Member(const Json& obj, const char* key) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

const Json* Array(const Json& obj, const char* key) {
  const Json* m = Member(obj, key);
  return m && m->is_array() ? m : nullptr;
}

std::optional<double> Number(const Json& obj, const char* key) {
  const Json* m = Member(obj, key);
  if (!m || !m->is_number()) return std::nullopt;
  double v = m->get<double>();
  if (!std::isfinite(v)) return std::nullopt;
  return v;
}

void SetVersion(NodeFacts& n, const char* key, const std::string& value) {
  if (!value.empty()) n.versions[key] = value;
}

bool LowerIsBetter(const std::string& unit) {
  return unit == "ms" || unit == "us" || unit == "s" || unit == "C";
}

void ReadCheck(const Json& doc, NodeFacts& n) {
  const Json* machine = Member(doc, "machine");
  if (machine) {
    n.host = Str(*machine, "host_name");
    SetVersion(n, "nvidia_driver", Str(*machine, "nvidia_driver"));
    if (const Json* torch = Array(*machine, "torch"); torch && !torch->empty())
      SetVersion(n, "torch", Str((*torch)[0], "version"));
  }
  if (const Json* findings = Array(doc, "findings")) {
    for (size_t i = 0; i < findings->size() && i < kMaxItems; ++i) {
      const Json& f = (*findings)[i];
      if (Str(f, "severity") == "error") n.check_errors.push_back(Str(f, "id") + ": " + Str(f, "title"));
    }
  }
}

void ReadSnapshot(const Json& doc, NodeFacts& n) {
  n.host = Str(doc, "host_name");
  if (const Json* nv = Member(doc, "nvidia")) SetVersion(n, "nvidia_driver", Str(*nv, "driver_version"));
  if (const Json* amd = Member(doc, "amd")) SetVersion(n, "amdgpu", Str(*amd, "amdgpu_module_version"));
  if (const Json* runtimes = Array(doc, "runtimes")) {
    for (size_t i = 0; i < runtimes->size() && i < kMaxItems; ++i) {
      const Json& r = (*runtimes)[i];
      if (Str(r, "kind") == "rocm" && !n.versions.count("rocm")) SetVersion(n, "rocm", Str(r, "version"));
    }
  }
  if (const Json* envs = Array(doc, "python_envs")) {
    for (size_t i = 0; i < envs->size() && i < kMaxItems && !n.versions.count("torch"); ++i)
      if (const Json* torch = Member((*envs)[i], "torch")) SetVersion(n, "torch", Str(*torch, "version"));
  }
}

void ReadVerify(const Json& doc, NodeFacts& n) {
  n.host = Str(doc, "host_name");
  SetVersion(n, "runtime", Str(doc, "runtime_version"));
  const Json* gates = Array(doc, "gates");
  for (size_t i = 0; gates && i < gates->size() && i < kMaxItems; ++i) {
    const Json& g = (*gates)[i];
    std::string gate = Str(g, "gate"), status = Str(g, "status");
    if (status == "fail") n.failures.push_back("verify gate " + gate + " failed: " + Str(g, "summary"));
    const Json* figures = Array(g, "figures");
    if (status != "pass" || !figures || figures->empty()) continue;
    auto value = Number((*figures)[0], "value");
    std::string unit = Str((*figures)[0], "unit");
    if (value && !unit.empty()) n.figures.push_back({"verify." + gate, *value, unit, !LowerIsBetter(unit)});
  }
}

void ReadBench(const Json& doc, NodeFacts& n) {
  n.host = Str(doc, "host_name");
  if (n.host.empty()) n.host = Str(doc, "host");
  SetVersion(n, "runtime", Str(doc, "runtime_version"));
  const Json* benchmarks = Array(doc, "benchmarks");
  for (size_t i = 0; benchmarks && i < benchmarks->size() && i < kMaxItems; ++i) {
    const Json& b = (*benchmarks)[i];
    std::string id = Str(b, "id"), verdict = Str(b, "verdict"), check = Str(b, "check");
    if (id.empty()) continue;
    if (verdict == "failed" || StartsWith(check, "failed"))
      n.failures.push_back("bench " + id + " failed" + (check.empty() ? "" : ": " + check));
    auto best = Number(b, "best");
    if (!best || verdict == "failed" || verdict == "skipped") continue;
    const Json* hib = Member(b, "higher_is_better");
    n.figures.push_back({id, *best, Str(b, "unit"), !(hib && hib->is_boolean() && !hib->get<bool>())});
  }
}

void ReadCollectives(const Json& doc, NodeFacts& n) {
  if (const Json* hosts = Array(doc, "hosts"); hosts && hosts->size() == 1) n.host = Str((*hosts)[0], "host");
  std::string library = Str(doc, "library");
  SetVersion(n, "collectives_library", library.substr(0, library.find(" (")));
  const Json* c = Member(doc, "collectives");
  if (!c) return;
  if (Str(*c, "status") == "failed") n.failures.push_back("collectives failed: " + Str(*c, "reason"));
  const Json* results = Array(*c, "results");
  std::map<std::string, std::pair<double, double>> largest;  // op -> (size, busbw)
  for (size_t i = 0; results && i < results->size() && i < kMaxItems; ++i) {
    const Json& r = (*results)[i];
    auto size = Number(r, "size_bytes"), busbw = Number(r, "busbw_gbs");
    std::string op = Str(r, "op");
    if (!size || !busbw || op.empty()) continue;
    auto& slot = largest[op];
    if (*size >= slot.first) slot = {*size, *busbw};
  }
  for (const auto& [op, v] : largest)
    n.figures.push_back({"collectives." + op + ".busbw", v.second, "GB/s", true});
}

}  // namespace

std::string HostFromFileName(std::string_view file_name) {
  std::string name(file_name);
  size_t slash = name.find_last_of("/\\");
  if (slash != std::string::npos) name = name.substr(slash + 1);
  for (const char* suffix : {".json", ".check", ".verify", ".bench", ".info", ".collectives", ".snapshot"}) {
    if (EndsWith(name, suffix) && name.size() > std::string_view(suffix).size())
      name.resize(name.size() - std::string_view(suffix).size());
  }
  return name;
}

Result<NodeFacts> ParseNodeReport(std::string_view text, std::string_view file_name) {
  try {
    Json doc = Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded()) return UserError(std::string(file_name) + ": not valid JSON");
    if (!doc.is_object()) return UserError(std::string(file_name) + ": not a JSON object");
    NodeFacts n;
    n.files.push_back(std::string(file_name));
    std::string schema = Str(doc, "schema");
    std::string kind;
    if (schema == "gpudoctor.check") {
      kind = "check";
      ReadCheck(doc, n);
    } else if (schema == "gpudoctor.snapshot") {
      kind = "snapshot";
      ReadSnapshot(doc, n);
    } else if (StartsWith(schema, "gpudoctor.bench")) {
      kind = "bench";
      ReadBench(doc, n);
    } else if (schema == "gpudoctor.collectives") {
      kind = "collectives";
      ReadCollectives(doc, n);
    } else if (schema.empty() && Array(doc, "gates") && Member(doc, "schema_version")) {
      kind = "verify";
      ReadVerify(doc, n);
    } else {
      return UserError(std::string(file_name) +
                       ": not a gpudoctor check, info, verify, bench or collectives report" +
                       (schema.empty() ? "" : " (schema \"" + schema.substr(0, 64) + "\")"));
    }
    n.kinds.push_back(kind);
    if (n.host.empty()) {
      n.host = HostFromFileName(file_name);
      n.host_from_file_name = true;
    }
    return n;
  } catch (const std::exception& e) {
    return UserError(std::string(file_name) + ": unreadable (" + e.what() + ")");
  }
}

}  // namespace gpudoctor
