// Reads the ROCm sections of rocm_releases.toml: [[rocm_release]] (Linux series), [[hip_sdk_windows]],
// [[rocm_wsl]], and TheRock's [[therock_status]], [[therock_family]], [[therock_version]].
#include "knowledge/section_parsers.h"

namespace gpudoctor {
namespace {

void ReadPoints(EntryReader& r, RocmRelease& rel) {
  const TomlNode* points = r.Node("points", TomlNode::Kind::kArray, Need::kOptional);
  if (points == nullptr) return;
  for (const TomlNode& item : points->items) {
    if (item.kind != TomlNode::Kind::kTable) {
      r.Error(item.line, "points must be inline tables { version = \"6.2.0\", date = \"2024-08-02\" }");
      continue;
    }
    const TomlNode* v = item.Find("version");
    std::string name = v != nullptr && v->kind == TomlNode::Kind::kString ? v->text : "?";
    EntryReader sub(item, r.sink(), r.label() + " point " + name);
    RocmPointRelease p;
    auto version = sub.VersionText("version", Need::kRequired);
    p.date = sub.Date("date", Need::kRequired).value_or("");
    p.confirmed = sub.Boolean("confirmed", Need::kOptional).value_or(true);
    sub.Finish();
    if (!version) continue;
    if (!version->HasPrefix(rel.series)) sub.Error(0, "is not part of series " + rel.series.ToString());
    p.version = *version;
    rel.points.push_back(std::move(p));
  }
}

}  // namespace

void ParseRocmRelease(EntryReader& r, KnowledgeDb& db) {
  LabelFromField(r, "series");
  RocmRelease rel;
  auto series = r.VersionText("series", Need::kRequired);
  if (series) rel.series = *series;
  rel.gfx = r.TextList("gfx", Need::kRequired);
  rel.deprecated_gfx = r.TextList("deprecated_gfx", Need::kOptional);
  if (const TomlNode* since = r.Node("since", TomlNode::Kind::kTable, Need::kOptional)) {
    for (const TomlField& f : since->fields) {
      auto v = f.value.kind == TomlNode::Kind::kString ? Version::Parse(f.value.text) : std::nullopt;
      if (!v)
        r.Error(f.value.line, "since." + f.key + " must be a version string");
      else
        rel.since.emplace(f.key, *v);
    }
  }
  rel.os = r.TextList("os", Need::kOptional);
  ReadPoints(r, rel);
  rel.provenance = r.ReadProvenance();
  r.Finish();
  if (series) db.rocm_releases.push_back(std::move(rel));
}

void ParseKernelFloor(EntryReader& r, KnowledgeDb& db) {
  LabelFromField(r, "min_kernel");
  KernelFloor k;
  k.gfx = r.TextList("gfx", Need::kRequired);
  auto min = r.VersionText("min_kernel", Need::kRequired);
  if (min) k.min_kernel = *min;
  k.why = r.Text("why", Need::kRequired).value_or("");
  k.provenance = r.ReadProvenance();
  r.Finish();
  if (min && !k.gfx.empty()) db.kernel_floors.push_back(std::move(k));
}

void ParseHipSdkWindows(EntryReader& r, KnowledgeDb& db) {
  LabelFromField(r, "version");
  HipSdkWindows h;
  auto version = r.VersionText("version", Need::kRequired);
  h.os = r.TextList("os", Need::kRequired);
  h.gfx_sdk = r.TextList("gfx_sdk", Need::kRequired);
  h.gfx_runtime = r.TextList("gfx_runtime", Need::kOptional);
  h.gfx_unsupported = r.TextList("gfx_unsupported", Need::kOptional);
  h.provenance = r.ReadProvenance();
  r.Finish();
  if (!version) return;
  h.version = *version;
  db.hip_sdks_windows.push_back(std::move(h));
}

void ParseRocmWsl(EntryReader& r, KnowledgeDb& db) {
  LabelFromField(r, "id");
  RocmWslNote w;
  w.id = r.Text("id", Need::kRequired).value_or("");
  auto rocm = r.VersionText("rocm", Need::kRequired);
  w.driver = r.Text("driver", Need::kOptional).value_or("");
  w.setup = r.Text("setup", Need::kRequired).value_or("");
  w.gfx = r.TextList("gfx", Need::kOptional);
  w.provenance = r.ReadProvenance();
  r.Finish();
  if (!rocm || w.id.empty()) return;
  w.rocm = *rocm;
  db.rocm_wsl.push_back(std::move(w));
}

void ParseTheRockStatus(EntryReader& r, KnowledgeDb& db) {
  LabelFromField(r, "platform");
  TheRockStatus s;
  static const std::vector<std::string_view> kPlatforms = {"linux", "windows"};
  if (auto p = r.Choice("platform", Need::kRequired, kPlatforms)) s.platform = std::string(kPlatforms[*p]);
  s.release_ready = r.TextList("release_ready", Need::kRequired);
  s.build_only = r.TextList("build_only", Need::kOptional);
  s.provenance = r.ReadProvenance();
  r.Finish();
  if (!s.platform.empty()) db.therock_status.push_back(std::move(s));
}

void ParseTheRockFamily(EntryReader& r, KnowledgeDb& db) {
  LabelFromField(r, "name");
  TheRockFamily f;
  f.name = r.Text("name", Need::kRequired).value_or("");
  f.gfx = r.TextList("gfx", Need::kRequired);
  f.legacy_index = r.Boolean("legacy_index", Need::kOptional).value_or(false);
  f.provenance = r.ReadProvenance();
  r.Finish();
  if (!f.name.empty()) db.therock_families.push_back(std::move(f));
}

void ParseTheRockVersion(EntryReader& r, KnowledgeDb& db) {
  LabelFromField(r, "version");
  TheRockVersion v;
  auto version = r.VersionText("version", Need::kRequired);
  v.date = r.Date("date", Need::kRequired).value_or("");
  static const std::vector<std::string_view> kStreams = {"preview", "production"};
  if (auto s = r.Choice("stream", Need::kRequired, kStreams)) v.stream = std::string(kStreams[*s]);
  v.provenance = r.ReadProvenance();
  r.Finish();
  if (!version) return;
  v.version = *version;
  db.therock_versions.push_back(std::move(v));
}

}  // namespace gpudoctor
