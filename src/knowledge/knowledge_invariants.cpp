// Invariants across the knowledge files (issue 13), so a refresh cannot leave the data contradicting
// itself: every wheel's ROCm/CUDA version is in the release tables, driver floors rise with the CUDA
// version, every route's download.pytorch.org index is a wheel variant the tables know, every index URL
// starts with a [[package_index]], release dates run in version order, no release lists a GPU before
// the one that added it (a `since` inside its series' point releases, no wheel with a target its torch
// release's builds lacked), and no TheRock target is both release-ready and build-only. The reference
// checks (every gfx named anywhere is a known target) live in knowledge_checks.cpp.
#include "knowledge/knowledge_invariants.h"

#include <algorithm>
#include <string_view>

namespace gpudoctor {
namespace {

// "2025-04" against "2025-04-16": compare on the common prefix, so a month never contradicts its days.
int CompareDates(std::string_view a, std::string_view b) {
  size_t n = std::min(a.size(), b.size());
  return a.substr(0, n).compare(b.substr(0, n));
}

class Invariants {
 public:
  Invariants(const KnowledgeDb& db, const std::map<std::string, std::string>& names,
             std::vector<KnowledgeError>& errors)
      : db_(db), names_(names), errors_(errors) {}

  void Add(const Origin& at, std::string message) {
    auto it = names_.find(at.file);
    errors_.push_back(KnowledgeError{it == names_.end() ? at.file : it->second, at.line, std::move(message)});
  }

  void WheelVersionsKnown();
  void DriverFloorsRise();
  void RouteIndexesKnown();
  void ReleaseDatesOrdered();
  void NothingSupportedBeforeAdded();
  void SinceInsideItsSeries();
  void WheelGfxInItsBuilds();
  void IndexUrlsKnown();
  void TheRockListsDisjoint();

 private:
  void IndexUrl(const Origin& at, std::string_view what, std::string_view url);

  const KnowledgeDb& db_;
  const std::map<std::string, std::string>& names_;
  std::vector<KnowledgeError>& errors_;
};

void Invariants::WheelVersionsKnown() {
  // The ROCm table starts at 5.7: older wheels (rocm5.4.2, rocm5.6) predate it.
  std::optional<Version> oldest;
  for (const RocmRelease& r : db_.rocm_releases)
    if (!oldest || r.series < *oldest) oldest = r.series;
  for (const TorchWheel& w : db_.torch_wheels) {
    const Origin& at = w.provenance.origin;
    if (w.rocm && oldest && *w.rocm >= *oldest && db_.FindRocmRelease(*w.rocm) == nullptr) {
      Add(at, "wheel " + w.torch.ToString() + " " + w.variant + ": ROCm " + w.rocm->ToString() +
                  " has no [[rocm_release]] series");
    }
    if (w.cuda && !db_.CudaDriverFloor(*w.cuda)) {
      Add(at, "wheel " + w.torch.ToString() + " " + w.variant + ": CUDA " + w.cuda->ToString() +
                  " has no [[cuda_minor_compat]] row covering it");
    }
  }
}

void Invariants::DriverFloorsRise() {
  std::vector<const CudaToolkitDriver*> toolkits;
  for (const CudaToolkitDriver& t : db_.cuda_toolkit_drivers) toolkits.push_back(&t);
  std::sort(toolkits.begin(), toolkits.end(),
            [](const CudaToolkitDriver* a, const CudaToolkitDriver* b) { return a->cuda < b->cuda; });
  const CudaToolkitDriver* prev_linux = nullptr;
  for (const CudaToolkitDriver* t : toolkits) {
    if (!t->linux_driver) continue;
    if (prev_linux && *t->linux_driver < *prev_linux->linux_driver) {
      Add(t->provenance.origin,
          "CUDA " + t->cuda.ToString() + " needs Linux driver " + t->linux_driver->ToString() +
              ", lower than CUDA " + prev_linux->cuda.ToString() + "'s " +
              prev_linux->linux_driver->ToString() + ": driver floors must rise with the CUDA version");
    }
    prev_linux = t;
  }
  std::vector<const CudaMinorCompat*> compat;
  for (const CudaMinorCompat& c : db_.cuda_minor_compat) compat.push_back(&c);
  std::sort(compat.begin(), compat.end(),
            [](const CudaMinorCompat* a, const CudaMinorCompat* b) { return a->cuda < b->cuda; });
  for (size_t i = 1; i < compat.size(); ++i) {
    if (compat[i]->linux_driver < compat[i - 1]->linux_driver) {
      Add(compat[i]->provenance.origin,
          "CUDA " + compat[i]->cuda.ToString() + " loads from driver " + compat[i]->linux_driver.ToString() +
              ", lower than CUDA " + compat[i - 1]->cuda.ToString() + "'s " +
              compat[i - 1]->linux_driver.ToString() + ": driver floors must rise with the CUDA version");
    }
  }
}

void Invariants::RouteIndexesKnown() {
  constexpr std::string_view kPrefix = "https://download.pytorch.org/whl/";
  for (const TorchRoute& r : db_.torch_routes) {
    const Origin& at = r.provenance.origin;
    if (!r.wheels.empty()) {
      bool any = std::any_of(db_.torch_wheels.begin(), db_.torch_wheels.end(), [&](const TorchWheel& w) {
        return r.wheels == "rocm" ? w.rocm.has_value() : w.cuda.has_value();
      });
      if (!any) Add(at, "route '" + r.id + "' takes " + r.wheels + " wheels, but no [[torch_wheel]] is one");
    }
    for (const std::string* command : {&r.install.bash, &r.install.powershell, &r.install.cmd}) {
      for (size_t pos = command->find(kPrefix); pos != std::string::npos;
           pos = command->find(kPrefix, pos + 1)) {
        size_t start = pos + kPrefix.size();
        size_t end = command->find_first_of(" \"'/", start);
        std::string variant = command->substr(start, end == std::string::npos ? end : end - start);
        if (variant == "{variant}" || variant == "cpu" || variant == "nightly") continue;
        bool known = std::any_of(db_.torch_wheels.begin(), db_.torch_wheels.end(),
                                 [&](const TorchWheel& w) { return w.variant == variant; });
        if (!known) {
          Add(at, "route '" + r.id + "' installs from " + std::string(kPrefix) + variant +
                      ", a variant no [[torch_wheel]] has");
        }
      }
    }
  }
}

void Invariants::ReleaseDatesOrdered() {
  // Point releases inside a series, and the first point of each series, follow the version order.
  std::vector<const RocmRelease*> series;
  for (const RocmRelease& r : db_.rocm_releases) {
    series.push_back(&r);
    std::vector<RocmPointRelease> points = r.points;
    std::sort(points.begin(), points.end(),
              [](const RocmPointRelease& a, const RocmPointRelease& b) { return a.version < b.version; });
    for (size_t i = 1; i < points.size(); ++i) {
      if (CompareDates(points[i].date, points[i - 1].date) < 0) {
        Add(r.provenance.origin, "ROCm " + points[i].version.ToString() + " (" + points[i].date +
                                     ") is dated before " + points[i - 1].version.ToString() + " (" +
                                     points[i - 1].date + ")");
      }
    }
  }
  std::sort(series.begin(), series.end(),
            [](const RocmRelease* a, const RocmRelease* b) { return a->series < b->series; });
  auto first_date = [](const RocmRelease* r) {
    std::string best;
    Version lowest;
    for (const RocmPointRelease& p : r->points) {
      if (best.empty() || p.version < lowest) {
        best = p.date;
        lowest = p.version;
      }
    }
    return best;
  };
  const RocmRelease* prev = nullptr;
  for (const RocmRelease* r : series) {
    std::string date = first_date(r);
    if (date.empty()) continue;
    if (prev && CompareDates(date, first_date(prev)) < 0) {
      Add(r->provenance.origin, "ROCm " + r->series.ToString() + " (first release " + date +
                                    ") is dated before ROCm " + prev->series.ToString() + " (" +
                                    first_date(prev) + ")");
    }
    prev = r;
  }
  std::vector<const TorchRelease*> torch;
  for (const TorchRelease& t : db_.torch_releases) torch.push_back(&t);
  std::sort(torch.begin(), torch.end(),
            [](const TorchRelease* a, const TorchRelease* b) { return a->version < b->version; });
  for (size_t i = 1; i < torch.size(); ++i) {
    if (CompareDates(torch[i]->date, torch[i - 1]->date) < 0) {
      Add(torch[i]->provenance.origin, "torch " + torch[i]->version.ToString() + " (" + torch[i]->date +
                                           ") is dated before torch " + torch[i - 1]->version.ToString() +
                                           " (" + torch[i - 1]->date + ")");
    }
  }
}

void Invariants::NothingSupportedBeforeAdded() {
  // A target added in a point release of series S (since = { gfx = "S.x" }) is on no older series' list.
  for (const RocmRelease& r : db_.rocm_releases) {
    for (const auto& [gfx, point] : r.since) {
      for (const RocmRelease& older : db_.rocm_releases) {
        if (!(older.series < r.series)) continue;
        if (std::find(older.gfx.begin(), older.gfx.end(), gfx) != older.gfx.end()) {
          Add(older.provenance.origin, "ROCm " + older.series.ToString() + " lists " + gfx + ", which ROCm " +
                                           point.ToString() + " added (since in series " +
                                           r.series.ToString() + ")");
        }
      }
    }
  }
  // An override rule's native_wheels is the FIRST variant carrying the target: no older torch release
  // carries it in a wheel of that kind (ROCm) released before.
  for (const OverrideRule& rule : db_.override_rules) {
    if (rule.native_wheels.empty()) continue;
    for (const std::string& gfx : rule.gfx) {
      std::optional<Version> first_native;  // oldest torch with a native_wheels wheel carrying gfx
      for (const TorchWheel& w : db_.torch_wheels)
        if (w.variant == rule.native_wheels && WheelHasGfx(w, gfx) &&
            (!first_native || w.torch < *first_native))
          first_native = w.torch;
      if (!first_native) continue;  // knowledge_checks.cpp reports it
      for (const TorchWheel& w : db_.torch_wheels) {
        if (w.rocm && w.torch < *first_native && WheelHasGfx(w, gfx)) {
          Add(rule.provenance.origin, "native_wheels '" + rule.native_wheels + "' for " + gfx +
                                          " is not the first: torch " + w.torch.ToString() + " " + w.variant +
                                          " already carries it");
        }
      }
    }
  }
}

// A target in `since` arrived after the series' first release (x.y.0, or the oldest point recorded) and
// no later than the newest point recorded: since = the first release would put it on that release's
// list, which the series' gfx without a since already says.
void Invariants::SinceInsideItsSeries() {
  for (const RocmRelease& r : db_.rocm_releases) {
    std::optional<Version> first, last;
    for (const RocmPointRelease& p : r.points) {
      if (!first || p.version < *first) first = p.version;
      if (!last || *last < p.version) last = p.version;
    }
    const Version series_start = Version::Parse(r.series.ToString() + ".0").value_or(r.series);
    if (!first || series_start < *first) first = series_start;
    for (const auto& [gfx, point] : r.since) {
      if (!point.HasPrefix(r.series)) continue;  // knowledge_checks.cpp reports it
      if (!(*first < point)) {
        Add(r.provenance.origin,
            "since." + gfx + " = " + point.ToString() + " is not after ROCm " + r.series.ToString() +
                "'s first release (" + first->ToString() +
                "): a since names the later point release whose support list first has " + gfx +
                "; give that release, or drop the since if " + first->ToString() + " already listed it");
      } else if (last && *last < point) {
        Add(r.provenance.origin, "since." + gfx + " = " + point.ToString() +
                                     " is after the newest point release in points (" + last->ToString() +
                                     "): add that release to points, or correct the since");
      }
    }
  }
}

// A download.pytorch.org ROCm wheel carries only targets its torch release's builds had: a target of a
// [[torch_build_gfx]] is in no wheel of a torch older than its first_torch.
void Invariants::WheelGfxInItsBuilds() {
  constexpr std::string_view kPytorchIndex = "https://download.pytorch.org/whl/";
  for (const TorchBuildGfx& b : db_.torch_build_gfx) {
    for (const TorchWheel& w : db_.torch_wheels) {
      if (!w.rocm || !(w.torch < b.first_torch) || w.index_url.rfind(kPytorchIndex, 0) != 0) continue;
      for (const std::string& gfx : b.gfx) {
        if (!WheelHasGfx(w, gfx)) continue;
        std::string where = names_.count(b.provenance.origin.file) ? names_.at(b.provenance.origin.file)
                                                                   : b.provenance.origin.file;
        Add(w.provenance.origin, "wheel " + w.torch.ToString() + " " + w.variant + " lists " + gfx +
                                     ", but PyTorch's ROCm builds " + "gained " + gfx + " in torch " +
                                     b.first_torch.ToString() + " ([[torch_build_gfx]] at " + where + ":" +
                                     std::to_string(b.provenance.origin.line) +
                                     "): remove it from this wheel's gfx, or move " +
                                     "first_torch if the release's build script had it");
      }
    }
  }
}

void Invariants::IndexUrl(const Origin& at, std::string_view what, std::string_view url) {
  bool known = std::any_of(db_.package_indexes.begin(), db_.package_indexes.end(),
                           [&](const PackageIndex& p) { return url.substr(0, p.url.size()) == p.url; });
  if (known) return;
  std::string list;
  for (const PackageIndex& p : db_.package_indexes) list += (list.empty() ? "" : ", ") + p.url;
  Add(at, std::string(what) + " names the index " + std::string(url) +
              ", which starts with no known [[package_index]] url (" + list +
              "): fix a typo in the host or path, or add the index with its source to pytorch_routes.toml");
}

// Every URL after --index-url, --extra-index-url or --find-links (or -i / -f) in a route's install
// commands, and every wheel's index_url, starts with a [[package_index]] url.
void Invariants::IndexUrlsKnown() {
  if (db_.package_indexes.empty()) return;  // a data set without the list (an old --db folder)
  for (const TorchWheel& w : db_.torch_wheels)
    IndexUrl(w.provenance.origin, "wheel " + w.torch.ToString() + " " + w.variant, w.index_url);
  for (const TorchRoute& r : db_.torch_routes) {
    for (const std::string* command : {&r.install.bash, &r.install.powershell, &r.install.cmd}) {
      for (std::string_view flag : {"--index-url ", "--extra-index-url ", "--find-links ", "-i ", "-f "}) {
        for (size_t pos = command->find(flag); pos != std::string::npos; pos = command->find(flag, pos + 1)) {
          if (pos > 0 && (*command)[pos - 1] != ' ') continue;
          size_t start = pos + flag.size();
          size_t end = command->find_first_of(" \"'\n", start);
          std::string_view url =
              std::string_view(*command).substr(start, end == std::string::npos ? end : end - start);
          if (url.rfind("http", 0) == 0) IndexUrl(r.provenance.origin, "route '" + r.id + "'", url);
        }
      }
    }
  }
}

void Invariants::TheRockListsDisjoint() {
  for (const TheRockStatus& s : db_.therock_status) {
    for (const std::string& gfx : s.release_ready) {
      if (std::find(s.build_only.begin(), s.build_only.end(), gfx) != s.build_only.end()) {
        Add(s.provenance.origin,
            "TheRock on " + s.platform + " lists " + gfx +
                " as both release_ready and build_only: keep it in the one its source "
                "says (release_ready: prebuilt packages exist; build_only: build it yourself)");
      }
    }
  }
}

}  // namespace

void CheckInvariants(const KnowledgeDb& db, const std::map<std::string, std::string>& display_names,
                     std::vector<KnowledgeError>& errors) {
  Invariants inv(db, display_names, errors);
  inv.WheelVersionsKnown();
  inv.DriverFloorsRise();
  inv.RouteIndexesKnown();
  inv.ReleaseDatesOrdered();
  inv.NothingSupportedBeforeAdded();
  inv.SinceInsideItsSeries();
  inv.WheelGfxInItsBuilds();
  inv.IndexUrlsKnown();
  inv.TheRockListsDisjoint();
}

}  // namespace gpudoctor
