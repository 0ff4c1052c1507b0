// One gate's result as JSON (see gate_json.h).
#include "gates/gate_json.h"

#include <cmath>

#include "core/load_status.h"

namespace gpudoctor {

using Json = JsonValue;

Json DeviceToJson(const DeviceInfo& d) {
  return {{"index", d.index},
          {"name", d.name},
          {"pci_address", d.pci_address},
          {"arch", d.arch},
          {"memory_total_bytes", d.memory_total_bytes},
          {"compute_units", d.compute_units ? Json(*d.compute_units) : Json(nullptr)}};
}

Json LibraryToJson(const BackendLibrary& l) {
  return {{"role", l.role},
          {"name", l.name},
          {"status", LoadStatusName(l.status)},
          {"path", StringOrNull(l.path)},
          {"origin", StringOrNull(l.origin)},
          {"where", StringOrNull(l.where)},
          {"version", StringOrNull(l.version)},
          {"detail", l.detail}};
}

Json GateEntryToJson(const GateResult& g) {
  Json figures = Json::array();
  for (const auto& f : g.figures)
    figures.push_back({{"label", f.label}, {"value", f.value}, {"unit", f.unit}});
  auto id = GateIdFromName(g.gate);
  return {{"gate", g.gate},
          {"title", id ? SpecOf(*id).title : ""},
          {"status", ToString(g.status)},
          {"summary", g.summary},
          {"hint", StringOrNull(g.hint)},
          {"elapsed_ms", g.status == GateStatus::kSkip ? Json(nullptr) : Json(g.elapsed_ms)},
          {"figures", figures},
          {"details", g.details},
          {"findings", g.findings}};
}

DeviceInfo ReadDevice(const JsonReader& r) {
  DeviceInfo d;
  r.IntegerAs("index", d.index);
  r.String("name", d.name);
  r.String("pci_address", d.pci_address);
  r.String("arch", d.arch);
  r.IntegerAs("memory_total_bytes", d.memory_total_bytes);
  r.OptionalIntegerAs("compute_units", d.compute_units);
  return d;
}

BackendLibrary ReadLibrary(const JsonReader& r) {
  BackendLibrary l;
  r.String("role", l.role);
  r.String("name", l.name);
  r.Enum("status", l.status, LoadStatusFromName, LoadStatusNames());
  r.String("path", l.path);
  r.String("origin", l.origin);
  r.String("where", l.where);
  r.String("version", l.version);
  r.String("detail", l.detail);
  return l;
}

GateResult ReadGateEntry(const JsonReader& r) {
  GateResult g;
  r.String("gate", g.gate, true);
  r.Enum("status", g.status, GateStatusFromString, "pass, fail or skip", true);
  r.String("summary", g.summary);
  r.String("hint", g.hint);
  r.Number("elapsed_ms", g.elapsed_ms);
  r.Strings("details", g.details);
  r.Strings("findings", g.findings);
  r.ForEachObject("figures", false, [&](const JsonReader& f) {
    GateFigure figure;
    f.String("label", figure.label);
    std::optional<double> value;
    f.Number("value", value);
    figure.value = value.value_or(std::nan(""));  // null: could not be measured
    f.String("unit", figure.unit);
    g.figures.push_back(std::move(figure));
  });
  return g;
}

}  // namespace gpudoctor
