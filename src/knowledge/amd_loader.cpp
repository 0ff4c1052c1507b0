// Reads the AMD sections: [[gfx_target]] (gfx_targets.toml), [[amd_device]] (gpus_amd*.toml),
// [[amd_model]] (gpus_amd_specs.toml), and [[override_rule]] / [[override_pitfall]] (overrides.toml).
// Checks that need other files are in knowledge_checks.cpp.
#include <algorithm>
#include <array>

#include "knowledge/section_parsers.h"

namespace gpudoctor {
namespace {

constexpr uint32_t kMaxPciId = 0xffff;

struct FamilyName {
  GfxFamily family;
  std::string_view name;
};
constexpr std::array<FamilyName, 16> kFamilies{{
    {GfxFamily::kGcn1, "GCN1"},
    {GfxFamily::kGcn2, "GCN2"},
    {GfxFamily::kGcn3, "GCN3"},
    {GfxFamily::kGcn4, "GCN4"},
    {GfxFamily::kGcn5, "GCN5"},
    {GfxFamily::kGcn5_1, "GCN5.1"},
    {GfxFamily::kCdna1, "CDNA1"},
    {GfxFamily::kCdna2, "CDNA2"},
    {GfxFamily::kCdna3, "CDNA3"},
    {GfxFamily::kCdna4, "CDNA4"},
    {GfxFamily::kCdnaNext, "CDNA-next"},
    {GfxFamily::kRdna1, "RDNA1"},
    {GfxFamily::kRdna2, "RDNA2"},
    {GfxFamily::kRdna3, "RDNA3"},
    {GfxFamily::kRdna3_5, "RDNA3.5"},
    {GfxFamily::kRdna4, "RDNA4"},
}};

const std::vector<std::string_view> kDerivableFields = {
    "vram_gib", "compute_units", "fp32_tflops", "tf32_tflops", "fp16_tflops", "bf16_tflops", "bandwidth_gbs"};

std::vector<std::string_view> FamilyNames() {
  std::vector<std::string_view> names;
  for (const auto& f : kFamilies) names.push_back(f.name);
  return names;
}

const std::vector<std::string_view> kVerdicts = {"works", "risky", "unverified"};
const std::vector<std::string_view> kSituations = {"code-lacks-target"};  // FixSituation
const std::vector<std::string_view> kFixKinds = {"native-build", "override",
                                                 "community-build"};  // TargetFixKind
const std::vector<std::string_view> kWhen = {"listed",  "cross-family", "native-target",
                                             "windows", "mixed-gpus",   "invalid-value"};
const std::vector<std::string_view> kAmdSeverities = {"info", "warning", "error"};

}  // namespace

const char* ToString(GfxFamily f) {
  for (const auto& e : kFamilies) {
    if (e.family == f) return e.name.data();
  }
  return "unknown";
}

std::optional<GfxFamily> GfxFamilyFromString(std::string_view s) {
  for (const auto& e : kFamilies) {
    if (e.name == s) return e.family;
  }
  return std::nullopt;
}

void ParseGfxTarget(EntryReader& r, KnowledgeDb& db) {
  LabelFromField(r, "name");
  GpuTarget t;
  t.name = r.Text("name", Need::kRequired).value_or("");
  if (auto f = r.Choice("family", Need::kRequired, FamilyNames())) t.family = kFamilies[*f].family;
  // Absent for targets KFD never reports (Southern Islands, most Sea Islands chips, Stoney).
  t.kfd_version = static_cast<uint32_t>(r.Integer("kfd_version", Need::kOptional, 1, 999999).value_or(0));
  t.gc_ip = r.TextList("gc_ip", Need::kOptional);
  for (const std::string& ip : t.gc_ip) {
    if (!Version::Parse(ip)) r.Error(0, "gc_ip '" + ip + "' is not a version such as \"10.3.2\"");
  }
  t.generic = r.Text("generic", Need::kOptional).value_or("");
  t.override_value = r.Text("override", Need::kOptional).value_or("");
  t.wave_size = static_cast<uint32_t>(r.Integer("wave_size", Need::kRequired, 32, 64).value_or(64));
  if (t.wave_size != 32 && t.wave_size != 64) r.Error(0, "wave_size must be 32 or 64");
  t.chips = r.TextList("chips", Need::kOptional);
  t.provenance = r.ReadProvenance();
  r.Finish();
  if (!t.name.empty()) db.gfx_targets.push_back(std::move(t));
}

void ParseAmdDevice(EntryReader& r, KnowledgeDb& db) {
  LabelFromField(r, "device_id");
  AmdPciDevice d;
  d.device_id = static_cast<uint32_t>(r.Integer("device_id", Need::kRequired, 0, kMaxPciId).value_or(0));
  d.name = r.Text("name", Need::kRequired).value_or("");
  d.chip = r.Text("chip", Need::kOptional).value_or("");
  d.gfx = r.Text("gfx", Need::kRequired).value_or("");
  d.integrated = r.Boolean("integrated", Need::kOptional).value_or(false);
  if (const TomlNode* revs = r.Node("revisions", TomlNode::Kind::kArray, Need::kOptional)) {
    size_t index = 0;
    for (const TomlNode& item : revs->items) {
      ++index;
      if (item.kind != TomlNode::Kind::kTable) {
        r.Error(item.line, "revisions must be inline tables { revision = 0xC8, name = \"...\" }");
        continue;
      }
      EntryReader sub(item, r.sink(), r.label() + " revision #" + std::to_string(index));
      std::vector<int64_t> ids = sub.IntegerList("revision", Need::kRequired, 0, 0xff);
      std::string name = sub.Text("name", Need::kRequired).value_or("");
      sub.Finish();
      for (int64_t id : ids) {
        const auto rev = static_cast<uint32_t>(id);
        bool dup = std::any_of(d.revisions.begin(), d.revisions.end(),
                               [&](const AmdRevisionName& n) { return n.revision == rev; });
        if (dup)
          r.Error(item.line, "revision " + HexId(rev) + " is listed twice");
        else if (!name.empty())
          d.revisions.push_back(AmdRevisionName{rev, name});
      }
    }
  }
  d.provenance = r.ReadProvenance();
  r.Date("checked", Need::kOptional);  // when a person last checked it (issue 13)
  r.Finish();
  db.amd_devices.push_back(std::move(d));
}

void ParseAmdModel(EntryReader& r, KnowledgeDb& db) {
  LabelFromField(r, "name");
  AmdGpuModel m;
  m.name = r.Text("name", Need::kRequired).value_or("");
  m.gfx = r.Text("gfx", Need::kRequired).value_or("");
  for (int64_t v : r.IntegerList("vram_gib", Need::kOptional, 1, 4096))
    m.vram_gib.push_back(static_cast<uint32_t>(v));
  m.memory = r.Text("memory", Need::kOptional).value_or("");
  if (auto cu = r.Integer("compute_units", Need::kOptional, 1, 4096))
    m.compute_units = static_cast<uint32_t>(*cu);
  m.fp32_tflops = r.Number("fp32_tflops", Need::kOptional);
  m.tf32_tflops = r.Number("tf32_tflops", Need::kOptional);
  m.fp16_tflops = r.Number("fp16_tflops", Need::kOptional);
  m.bf16_tflops = r.Number("bf16_tflops", Need::kOptional);
  m.bandwidth_gbs = r.Number("bandwidth_gbs", Need::kOptional);
  m.derived = r.TextList("derived", Need::kOptional);
  for (const std::string& f : m.derived) {
    if (std::find(kDerivableFields.begin(), kDerivableFields.end(), f) == kDerivableFields.end()) {
      r.Error(0, "derived names '" + f + "', which is not a figure of this entry");
    } else if (r.Peek(f) == nullptr) {
      r.Error(0, "derived names '" + f + "', which is not set");
    }
  }
  m.provenance = r.ReadProvenance();
  if (!m.derived.empty() && m.provenance.confirmed) {
    r.Error(0, "has derived figures, so it needs confirmed = false");
  }
  r.Finish();
  if (!m.name.empty()) db.amd_models.push_back(std::move(m));
}

// ---- HSA_OVERRIDE_GFX_VERSION (overrides.toml) ----

void ParseOverrideRule(EntryReader& r, KnowledgeDb& db) {
  LabelFromField(r, "value");
  OverrideRule o;
  o.gfx = r.TextList("gfx", Need::kRequired);
  if (!o.gfx.empty()) r.SetLabel(o.gfx.front() + " -> " + r.label());
  o.value = r.Text("value", Need::kRequired).value_or("");
  if (!o.value.empty() && !GfxNameFromOverride(o.value)) {
    r.Error(
        0, "value '" + o.value + "' is not a valid HSA_OVERRIDE_GFX_VERSION (major.minor.stepping, decimal)");
  }
  if (auto v = r.Choice("verdict", Need::kRequired, kVerdicts)) o.verdict = static_cast<OverrideVerdict>(*v);
  o.native_wheels = r.Text("native_wheels", Need::kOptional).value_or("");
  o.provenance = r.ReadProvenance();
  r.Finish();
  if (!o.gfx.empty() && !o.value.empty()) db.override_rules.push_back(std::move(o));
}

void ParseFixRanking(EntryReader& r, KnowledgeDb& db) {
  LabelFromField(r, "situation");
  FixRanking k;
  if (auto s = r.Choice("situation", Need::kRequired, kSituations))
    k.situation = static_cast<FixSituation>(*s);
  k.gfx = r.TextList("gfx", Need::kOptional);
  if (!k.gfx.empty()) r.SetLabel(r.label() + " for " + k.gfx.front());
  bool bad = false;
  for (const std::string& name : r.TextList("order", Need::kRequired)) {
    auto at = std::find(kFixKinds.begin(), kFixKinds.end(), name);
    if (at == kFixKinds.end()) {
      r.Error(0, "order names '" + name + "'; the kinds are native-build, override and community-build");
      bad = true;
      continue;
    }
    const auto kind = static_cast<TargetFixKind>(at - kFixKinds.begin());
    if (std::find(k.order.begin(), k.order.end(), kind) != k.order.end()) {
      r.Error(0, "order names '" + name + "' twice");
      bad = true;
    }
    k.order.push_back(kind);
  }
  k.provenance = r.ReadProvenance();
  r.Finish();
  if (!bad && !k.order.empty()) db.fix_rankings.push_back(std::move(k));
}

void ParseOverridePitfall(EntryReader& r, KnowledgeDb& db) {
  LabelFromField(r, "id");
  OverridePitfall p;
  p.id = r.Text("id", Need::kRequired).value_or("");
  if (auto w = r.Choice("when", Need::kRequired, kWhen)) p.when = static_cast<PitfallWhen>(*w);
  p.gfx = r.TextList("gfx", Need::kOptional);
  p.values = r.TextList("values", Need::kOptional);
  if (auto s = r.Choice("severity", Need::kRequired, kAmdSeverities))
    p.severity = SeverityFromString(kAmdSeverities[*s]).value_or(Severity::kWarning);
  p.problem = r.Text("problem", Need::kRequired).value_or("");
  p.fix = r.Text("fix", Need::kRequired).value_or("");
  p.symptoms = r.TextList("symptoms", Need::kOptional);
  p.native_wrong = r.Boolean("native_wrong", Need::kOptional).value_or(false);
  p.provenance = r.ReadProvenance();
  r.Finish();
  if (p.when == PitfallWhen::kListed && (p.gfx.empty() || p.values.empty())) {
    r.Error(0, "a 'listed' pitfall needs gfx and values");
  }
  if (p.native_wrong && p.when != PitfallWhen::kListed) {
    r.Error(0, "native_wrong needs a 'listed' pitfall (it names the GPUs whose own code is wrong)");
  }
  if (!p.id.empty()) db.override_pitfalls.push_back(std::move(p));
}

}  // namespace gpudoctor
