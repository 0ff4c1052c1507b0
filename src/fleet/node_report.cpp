// Reading one report into NodeFacts (see node_report.h): the document's schema says which codec reads it
// (the same that wrote it: report/check_json.h, snapshot/snapshot_json.h, gates/verify_json.h,
// bench/bench_json.h, collectives/collectives_json.h), and the facts are picked from the typed report.
#include "fleet/node_report.h"

#include <cmath>
#include <exception>

#include "bench/bench_json.h"
#include "collectives/collectives_json.h"
#include "core/json_reader.h"
#include "core/strings.h"
#include "gates/verify_json.h"
#include "report/check_json.h"
#include "snapshot/snapshot_json.h"

namespace gpudoctor {
namespace {

constexpr size_t kMaxItems = 10000;
constexpr size_t kMaxText = 256;

// Text from a file goes into tables and JSON of many nodes: bounded.
std::string Bounded(const std::string& s) {
  return s.substr(0, kMaxText);
}

void SetVersion(NodeFacts& n, const char* key, const std::string& value) {
  if (!value.empty()) n.versions[key] = Bounded(value);
}

bool LowerIsBetter(const std::string& unit) {
  return unit == "ms" || unit == "us" || unit == "s" || unit == "C";
}

void AddFigure(NodeFacts& n, std::string id, double value, const std::string& unit, bool higher_is_better) {
  if (std::isfinite(value)) n.figures.push_back({Bounded(id), value, Bounded(unit), higher_is_better});
}

void FromCheck(const CheckReport& c, NodeFacts& n) {
  n.host = Bounded(c.machine.host_name);
  if (c.machine.nvidia_driver) SetVersion(n, "nvidia_driver", *c.machine.nvidia_driver);
  if (!c.machine.torch.empty()) SetVersion(n, "torch", c.machine.torch.front().version);
  for (size_t i = 0; i < c.findings.size() && i < kMaxItems; ++i) {
    const Finding& f = c.findings[i];
    if (f.severity == Severity::kError) n.check_errors.push_back(Bounded(f.id) + ": " + Bounded(f.title));
  }
}

void FromSnapshot(const Snapshot& s, NodeFacts& n) {
  n.host = Bounded(s.host_name);
  if (s.nvidia.driver_version) SetVersion(n, "nvidia_driver", *s.nvidia.driver_version);
  if (s.amd.amdgpu_module_version) SetVersion(n, "amdgpu", *s.amd.amdgpu_module_version);
  for (const auto& r : s.runtimes)
    if (r.kind == "rocm" && !n.versions.count("rocm")) SetVersion(n, "rocm", r.version);
  for (const auto& e : s.python_envs)
    if (e.torch && !n.versions.count("torch")) SetVersion(n, "torch", e.torch->version);
  if (s.topology) n.topology = LinkMatrixOf(*s.topology);
}

void FromVerify(const VerifyReport& v, NodeFacts& n) {
  SetVersion(n, "runtime", v.runtime_version);
  for (size_t i = 0; i < v.gates.size() && i < kMaxItems; ++i) {
    const GateResult& g = v.gates[i];
    if (g.status == GateStatus::kFail)
      n.failures.push_back("verify gate " + Bounded(g.gate) + " failed: " + Bounded(g.summary));
    if (g.status != GateStatus::kPass || g.figures.empty() || g.figures.front().unit.empty()) continue;
    const GateFigure& f = g.figures.front();
    AddFigure(n, "verify." + g.gate, f.value, f.unit, !LowerIsBetter(f.unit));
  }
}

void FromBench(const BenchReport& b, NodeFacts& n) {
  SetVersion(n, "runtime", b.runtime_version);
  for (size_t i = 0; i < b.benchmarks.size() && i < kMaxItems; ++i) {
    const BenchResult& r = b.benchmarks[i];
    const bool failed = r.verdict == BenchVerdict::kFailed || r.check == BenchCheck::kFailed;
    if (failed) n.failures.push_back("bench " + Bounded(r.spec.id) + " failed: " + Bounded(CheckText(r)));
    if (!r.best || failed || r.verdict == BenchVerdict::kSkipped) continue;
    AddFigure(n, r.spec.id, *r.best, r.spec.unit, r.spec.higher_is_better);
  }
}

void FromCollectives(const CollectivesReport& c, NodeFacts& n) {
  std::string host;
  for (const auto& rank : c.ranks) {
    if (host.empty()) host = rank.host;
    if (rank.host != host) {
      host.clear();  // ranks on several hosts: not one node's report
      break;
    }
  }
  n.host = Bounded(host);
  SetVersion(n, "collectives_library", c.library.substr(0, c.library.find(" (")));
  if (c.collectives_status == "failed")
    n.failures.push_back("collectives failed: " + Bounded(c.collectives_reason));
  std::map<CollectiveOp, std::pair<double, double>> largest;  // op -> (size, busbw)
  for (size_t i = 0; i < c.rows.size() && i < kMaxItems; ++i) {
    const CollectiveRow& r = c.rows[i];
    auto& slot = largest[r.op];
    if (static_cast<double>(r.size_bytes) >= slot.first)
      slot = {static_cast<double>(r.size_bytes), r.busbw_gbs};
  }
  for (const auto& [op, v] : largest)
    AddFigure(n, std::string("collectives.") + ToString(op) + ".busbw", v.second, "GB/s", true);
}

// Reads `text` with the codec of `kind` into `n`; the codec's error when it does not read.
Result<bool> ReadWithCodec(const std::string& kind, std::string_view text, const std::string& origin,
                           NodeFacts& n) {
  if (kind == "check") {
    auto c = CheckReportFromJson(text, origin);
    if (!c.ok()) return c.error();
    FromCheck(*c, n);
  } else if (kind == "snapshot") {
    auto s = SnapshotFromJson(text, origin);
    if (!s.ok()) return s.error();
    FromSnapshot(*s, n);
  } else if (kind == "verify") {
    auto v = VerifyReportFromJson(text, origin);
    if (!v.ok()) return v.error();
    FromVerify(*v, n);
  } else if (kind == "bench") {
    auto b = BenchReportFromJson(text, origin);
    if (!b.ok()) return b.error();
    FromBench(*b, n);
  } else if (kind == "collectives") {
    auto c = CollectivesReportFromJson(text, origin);
    if (!c.ok()) return c.error();
    FromCollectives(*c, n);
  } else {
    return false;
  }
  return true;
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
  const std::string origin(file_name);
  try {
    auto doc = ParseJsonObject(text, origin, "");
    if (!doc.ok()) return doc.error();
    const DocumentSchema schema = ReadDocumentSchema(*doc);
    NodeFacts n;
    n.files.push_back(origin);
    auto read = ReadWithCodec(schema.kind, text, origin, n);
    if (!read.ok()) return read.error();
    if (!*read)
      return UserError(origin + ": not a gpudoctor check, info, verify, bench or collectives report" +
                       (schema.name.empty() ? "" : " (schema \"" + schema.name.substr(0, 64) + "\")"));
    n.kinds.push_back(schema.kind);
    if (n.host.empty()) {
      n.host = HostFromFileName(file_name);
      n.host_from_file_name = true;
    }
    return n;
  } catch (const std::exception& e) {
    return UserError(origin + ": unreadable (" + e.what() + ")");
  }
}

}  // namespace gpudoctor
