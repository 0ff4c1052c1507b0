// Filling an entry's specific_fix: each value comes from the log (a capture of the match, a fact the log
// states) or is derived from one through the knowledge base, so that one sentence per entry names the exact
// version, package or index a thread's answer gives for every log of its family.
#include "explain/specific_fix.h"

#include <cctype>
#include <cstdio>
#include <optional>

#include "core/strings.h"
#include "explain/explain_facts.h"
#include "knowledge/wheel_variant.h"

namespace gpudoctor {
namespace {

// A CUDA version as PyTorch's wheel index names it: "11.8" -> "cu118", "12.1.105" -> "cu121"; "" otherwise.
std::string CudaIndexTag(std::string_view cuda) {
  const auto v = Version::Parse(cuda);
  if (!v || v->parts().size() < 2 || v->parts()[0] < 7 || v->parts()[0] > 99 || v->parts()[1] > 9) return "";
  return "cu" + std::to_string(v->parts()[0]) + std::to_string(v->parts()[1]);
}

// The reverse: "cu121", "+cu121", "2.1.0+cu121" or "121" -> "12.1" (the last digit is the minor); ""
// otherwise.
std::string CudaOfIndexTag(std::string_view tag) {
  if (const size_t cu = tag.rfind("cu"); cu != std::string_view::npos) tag = tag.substr(cu + 2);
  const auto cuda = CudaOfWheelVariant("cu" + std::string(tag));
  return cuda ? cuda->ToString() : "";
}

// A compute capability as a log writes it: "sm_120", "sm_86", "8.6", "compute_90a" -> 12.0, 8.6, 9.0.
std::optional<Version> Capability(std::string_view text) {
  if (const size_t us = text.find('_'); us != std::string_view::npos) text = text.substr(us + 1);
  while (!text.empty() && std::isalpha(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  if (text.find('.') != std::string_view::npos) return Version::Parse(text);
  if (text.size() < 2 || text.size() > 3) return std::nullopt;
  return Version::Parse(std::string(text.substr(0, text.size() - 1)) + "." +
                        std::string(text.substr(text.size() - 1)));
}

// Among the pytorch.org CUDA wheels with a cubin that runs on `cc` (its own, or an older one of the same
// major: 8.0 runs on 8.6; WheelSupportsCc), the one `before` ranks first, or nullptr. PTX alone is not
// counted: the threads' answers name the build with code for the GPU, not one that JIT-compiles for minutes.
template <typename Before>
const TorchWheel* WheelForCapability(const Version& cc, const KnowledgeDb& db, Before before) {
  const TorchWheel* best = nullptr;
  for (const TorchWheel& w : db.torch_wheels) {
    if (!w.cuda) continue;
    const CcSupport support = WheelSupportsCc(w, cc);
    if (support != CcSupport::kExactCubin && support != CcSupport::kCompatibleCubin) continue;
    if (best == nullptr || before(w, *best)) best = &w;
  }
  return best;
}

// The oldest CUDA variant carrying `cc`, its oldest torch (sm_120 -> cu128).
const TorchWheel* FirstWheelForCapability(const Version& cc, const KnowledgeDb& db) {
  return WheelForCapability(cc, db, [](const TorchWheel& a, const TorchWheel& b) {
    return *a.cuda < *b.cuda || (*a.cuda == *b.cuda && a.torch < b.torch);
  });
}

// The newest torch release carrying `cc`, its newest such variant (an old GPU that newer builds dropped:
// sm_50 -> the last cu126 build).
const TorchWheel* LastWheelForCapability(const Version& cc, const KnowledgeDb& db) {
  return WheelForCapability(cc, db, [](const TorchWheel& a, const TorchWheel& b) {
    return a.torch > b.torch || (a.torch == b.torch && *a.cuda > *b.cuda);
  });
}

// The release of `addon` built for exactly the torch `torch_text` names ("2.1.1+cu121" reads as 2.1.1).
std::string AddonReleaseForTorch(std::string_view addon, std::string_view torch_text, const KnowledgeDb& db,
                                 const Provenance** from) {
  const auto torch = Version::Parse(torch_text.substr(0, torch_text.find('+')));
  if (!torch) return "";
  const AddonTorchBuild* exact = db.AddonBuildForTorch(addon, *torch);
  if (exact != nullptr) *from = &exact->provenance;
  return exact != nullptr ? exact->version : "";
}

// Every release of `addon` built for a torch of the series of `torch_text` (2.1.0 -> the 2.1.x builds), each
// with its torch: "0.0.22.post7 (torch 2.1.0), 0.0.23 (torch 2.1.1)"; "" when none is recorded.
std::string AddonReleasesForSeries(std::string_view addon, std::string_view torch_text, const KnowledgeDb& db,
                                   const Provenance** from) {
  const auto torch = Version::Parse(torch_text.substr(0, torch_text.find('+')));
  const AddonLibrary* lib = db.FindAddon(addon);
  if (!torch || lib == nullptr) return "";
  std::string out;
  for (const AddonTorchBuild& b : db.addon_torch_builds)
    if (b.addon == lib->name && b.torch.Part(0) == torch->Part(0) && b.torch.Part(1) == torch->Part(1)) {
      out += (out.empty() ? "" : ", ") + b.version + " (torch " + b.torch.ToString() + ")";
      if (*from == nullptr || !b.provenance.confirmed) *from = &b.provenance;
    }
  return out;
}

// The torch release `addon`'s release `version` was built for ("0.0.23" of xformers -> 2.1.1).
std::string TorchForAddonRelease(std::string_view addon, std::string_view version, const KnowledgeDb& db,
                                 const Provenance** from) {
  const AddonLibrary* lib = db.FindAddon(addon);
  if (lib == nullptr) return "";
  for (const AddonTorchBuild& b : db.addon_torch_builds) {
    if (b.addon != lib->name || b.version != version) continue;
    *from = &b.provenance;
    return b.torch.ToString();
  }
  return "";
}

// The CUDA (and cuDNN) `addon`'s release `version` was built with ("1.15.1" of onnxruntime-gpu -> "CUDA 11.8
// and cuDNN 8"); "" when no [[addon_cuda_build]] range holds it.
std::string AddonCuda(std::string_view addon, std::string_view version, const KnowledgeDb& db,
                      const Provenance** from) {
  const AddonLibrary* lib = db.FindAddon(addon);
  const auto v = Version::ParseLeading(version);
  if (lib == nullptr || !v) return "";
  const AddonCudaBuild* b = db.AddonCudaBuildOf(lib->name, *v);
  if (b == nullptr) return "";
  *from = &b->provenance;
  return "CUDA " + b->cuda.ToString() + (b->cudnn ? " and cuDNN " + b->cudnn->ToString() : "");
}

// What the number in a library's file name stands for, from shared_libraries.toml's version_label:
// "libcudart.so.12" -> "CUDA 12"; "" for an unknown library or one whose name carries no number.
std::string LibraryVersion(std::string_view file, const KnowledgeDb& db, const Provenance** from) {
  std::string digits;
  const SharedLibrary* lib = db.FindSharedLibrary(file, &digits);
  if (lib == nullptr || digits.empty() || lib->version_label.empty()) return "";
  *from = &lib->provenance;
  std::string label = lib->version_label;
  for (size_t at = label.find("{v}"); at != std::string::npos; at = label.find("{v}", at + digits.size()))
    label.replace(at, 3, digits);
  return label;
}

// The [[cuda_minor_compat]] row whose range holds `cuda` (11.4 -> the 11.1 - 11.8 row), or nullptr.
const CudaMinorCompat* CompatRowOf(const Version& cuda, const KnowledgeDb& db) {
  for (const CudaMinorCompat& row : db.cuda_minor_compat)
    if (!(cuda < row.cuda) && !(row.cuda_max < cuda)) return &row;
  return nullptr;
}

// The newest toolkit recorded in a row's range: what "any runtime of the row" reaches (12.0 - 12.99 -> 12.9).
Version NewestOfRow(const CudaMinorCompat& row, const KnowledgeDb& db) {
  Version newest = row.cuda;
  for (const CudaToolkitDriver& t : db.cuda_toolkit_drivers)
    if (!(t.cuda < row.cuda) && !(row.cuda_max < t.cuda) && newest < t.cuda) newest = t.cuda;
  return newest;
}

// The oldest row (by CUDA) that `beyond` accepts, as "525.60.13 (CUDA 12.0)": its Linux driver floor and
// its CUDA; "" when none does. What {driver_after:X} and {driver_after_cuda:X} both name.
template <typename Beyond>
std::string FirstFloorBeyond(const KnowledgeDb& db, const Provenance** from, Beyond beyond) {
  const CudaMinorCompat* next = nullptr;
  for (const CudaMinorCompat& row : db.cuda_minor_compat)
    if (beyond(row) && (next == nullptr || row.cuda < next->cuda)) next = &row;
  if (next == nullptr) return "";
  *from = &next->provenance;
  return next->linux_driver.ToString() + " (CUDA " + next->cuda.ToString() + ")";
}

// The first row past `cuda`'s own, as "525.60.13 (CUDA 12.0)"; "" past the newest.
std::string FloorAfter(const Version& cuda, const KnowledgeDb& db, const Provenance** from) {
  const CudaMinorCompat* own = CompatRowOf(cuda, db);
  const Version& past = own != nullptr ? own->cuda_max : cuda;
  return FirstFloorBeyond(db, from, [&](const CudaMinorCompat& row) { return past < row.cuda; });
}

// "11040" -> "11.4", "12020" -> "12.2" (cudaDriverGetVersion's 1000 * major + 10 * minor); "" otherwise.
std::string CudaOfApiVersion(std::string_view text) {
  if (text.size() < 4 || text.size() > 5) return "";
  for (char c : text)
    if (!std::isdigit(static_cast<unsigned char>(c))) return "";
  const int v = std::atoi(std::string(text).c_str());
  if (v < 7000 || v > 99990) return "";
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

// The newest runtime a driver that reports CUDA `cuda_text` runs (11.4 -> 11.8); "" for an unknown CUDA.
std::string CudaReach(std::string_view cuda_text, const KnowledgeDb& db, const Provenance** from) {
  const auto cuda = Version::ParseLeading(cuda_text);
  if (!cuda) return "";
  const CudaMinorCompat* row = CompatRowOf(*cuda, db);
  if (row == nullptr) return "";
  *from = &row->provenance;
  return NewestOfRow(*row, db).ToString();
}

// The newest CUDA runtime the Linux driver `driver_text` runs ("470.82.01" -> "11.8": it meets 11.x's
// minor-version floor, 450.80.02, and any 11.x runtime loads; the newest 11.x toolkit recorded is 11.8); ""
// when it meets no floor. Before CUDA 11 a runtime needs its own release's floor.
std::string CudaOfDriver(std::string_view driver_text, const KnowledgeDb& db, const Provenance** from) {
  const auto driver = Version::ParseLeading(driver_text);
  if (!driver || driver->Part(0) < 100) return "";  // not an nvidia-smi driver number (a Windows 31.0.15.x)
  std::optional<Version> best;
  for (const CudaMinorCompat& row : db.cuda_minor_compat) {
    if (*driver < row.linux_driver) continue;
    const Version reach = NewestOfRow(row, db);
    if (!best || *best < reach) {
      best = reach;
      *from = &row.provenance;
    }
  }
  return best ? best->ToString() : "";
}

// The Linux driver floor of the first CUDA the driver `driver_text` does not run, with that CUDA:
// "470.82.01" -> "525.60.13 (CUDA 12.0)", "367.57" -> "375.26 (CUDA 8.0)"; "" past the newest floor.
std::string DriverAfter(std::string_view driver_text, const KnowledgeDb& db, const Provenance** from) {
  const auto driver = Version::ParseLeading(driver_text);
  if (!driver || driver->Part(0) < 100) return "";
  return FirstFloorBeyond(db, from, [&](const CudaMinorCompat& row) { return *driver < row.linux_driver; });
}

// The CUDA toolkits whose nvcc compiles for a capability, from its [[cuda_arch]] row: "CUDA 11.8 or newer",
// "CUDA 9.0 to 12.9" (dropped later), "CUDA 12.9 or older"; "" when the row records neither.
std::string CudaForCapability(const Version& cc, const KnowledgeDb& db, const Provenance** from) {
  const CudaArch* arch = db.FindCudaArch(cc);
  if (arch == nullptr || (!arch->first_cuda && !arch->last_cuda)) return "";
  *from = &arch->provenance;
  if (!arch->last_cuda) return "CUDA " + arch->first_cuda->ToString() + " or newer";
  if (!arch->first_cuda) return "CUDA " + arch->last_cuda->ToString() + " or older";
  return "CUDA " + arch->first_cuda->ToString() + " to " + arch->last_cuda->ToString();
}

// The capture `name` of `m`, or else of another match of the same entry (an entry often matches a header line
// and, further down, the line that carries the values); "" when none has it.
std::string EntryCapture(const ExplainMatch& m, const std::vector<ExplainMatch>& all, std::string_view name) {
  std::string value = m.Capture(name);
  for (const ExplainMatch& other : all)
    if (value.empty() && other.entry == m.entry) value = other.Capture(name);
  return value;
}

// "form:rest" split at its first colon; form empty when `field` names no derivation.
std::pair<std::string_view, std::string_view> SplitForm(std::string_view field) {
  const size_t colon = field.find(':');
  if (colon == std::string_view::npos) return {"", field};
  const std::string_view form = field.substr(0, colon);
  for (std::string_view known : kSpecificFixDerivations)
    if (form == known) return {form, field.substr(colon + 1)};
  return {"", field};
}

bool TakesAddon(std::string_view form) {
  return form == "release" || form == "release_series" || form == "torch_for_addon" || form == "addon_cuda";
}

// Forms whose first argument is a key (an add-on, an API) rather than a value.
bool TakesKey(std::string_view form) {
  return TakesAddon(form) || form == "status";
}

// Whether a key form's key names what the form looks up: an API of status_codes.toml, or an add-on.
bool KeyIsKnown(std::string_view form, std::string_view key, const KnowledgeDb& db) {
  if (key.empty()) return false;
  return form == "status" ? db.HasStatusApi(key) : db.FindAddon(key) != nullptr;
}

// "VK_ERROR_DEVICE_LOST (-4): the GPU stopped answering ..."; an HRESULT's number in hex.
std::string StatusMeaning(std::string_view api, std::string_view text, const KnowledgeDb& db,
                          const Provenance** from) {
  const StatusCode* s = db.FindStatusCode(api, text);
  if (s == nullptr) return "";
  *from = &s->provenance;
  std::string number;
  if (s->value) {
    char hex[24];
    std::snprintf(hex, sizeof hex, "0x%llX", static_cast<unsigned long long>(*s->value));
    number = " (" + (*s->value > 0xFFFF ? std::string(hex) : std::to_string(*s->value)) + ")";
  }
  return s->code + number + ": " + s->meaning;
}

// The driver a CUDA version the log requires needs (an image's cuda>=X): the toolkit's own driver where the
// knowledge base records it, else the oldest driver that runs that CUDA at all.
std::string DriverForCuda(const ExplainMatch& m, const std::vector<ExplainMatch>& all,
                          const KnowledgeDb& db) {
  const auto cuda = Version::Parse(EntryCapture(m, all, "cuda_required"));
  if (!cuda) return "";
  auto floors = db.CudaDriverFloor(*cuda);
  // Before CUDA 11 there is no minor-version compatibility: only the toolkit's own row (cuda>=9.2).
  if (!floors)
    if (const CudaToolkitDriver* toolkit = db.CudaToolkitDriverOf(*cuda))
      floors = CudaDriverFloors{*cuda, nullptr, toolkit};
  if (!floors) return "";
  std::optional<Version> linux_driver, windows_driver;
  const Provenance* from = nullptr;
  if (floors->toolkit != nullptr) {
    linux_driver = floors->toolkit->linux_driver;
    windows_driver = floors->toolkit->windows_driver;
    from = &floors->toolkit->provenance;
  }
  if (!linux_driver && floors->minor_compat != nullptr) {
    linux_driver = floors->minor_compat->linux_driver;
    windows_driver = floors->minor_compat->windows_driver;
    from = &floors->minor_compat->provenance;
  }
  if (!linux_driver) return "";
  // A row nobody has compared with its source says so (DataWhere: "cuda_drivers.toml:400, unconfirmed").
  const std::string unconfirmed = from != nullptr && !from->confirmed ? " (" + DataWhere(*from) + ")" : "";
  return "CUDA " + cuda->ToString() + " needs NVIDIA driver " + linux_driver->ToString() +
         " or newer on Linux" + (windows_driver ? " (" + windows_driver->ToString() + " on Windows)" : "") +
         unconfirmed + ".";
}

// `text` with each {field} resolved; "" when one is missing.
std::string Fill(const std::string& text, const ExplainMatch& m, const std::vector<ExplainMatch>& all,
                 const std::vector<LogFact>& log_facts, const KnowledgeDb& db,
                 std::vector<const Provenance*>& rests_on) {
  std::string out;
  size_t at = 0;
  while (at < text.size()) {
    const size_t open = text.find('{', at), close = open == std::string::npos ? open : text.find('}', open);
    if (close == std::string::npos) break;
    const std::string value = ResolvePlaceholder(std::string_view(text).substr(open + 1, close - open - 1), m,
                                                 all, log_facts, db, &rests_on);
    if (value.empty()) return "";
    out += text.substr(at, open - at) + value;
    at = close + 1;
  }
  return out + text.substr(at);
}

}  // namespace

std::string ResolvePlaceholder(std::string_view field, const ExplainMatch& m,
                               const std::vector<ExplainMatch>& all, const std::vector<LogFact>& log_facts,
                               const KnowledgeDb& db, std::vector<const Provenance*>* rests_on) {
  if (StartsWith(field, "log:")) return LogFactValue(log_facts, field.substr(4));
  auto [form, rest] = SplitForm(field);
  if (form.empty()) return EntryCapture(m, all, field);
  std::string_view addon;  // or the API of {status:API:arg}
  if (TakesKey(form)) {
    const size_t colon = rest.find(':');
    if (colon == std::string_view::npos) return "";
    addon = rest.substr(0, colon);
    rest = rest.substr(colon + 1);
  }
  const std::string arg = ResolvePlaceholder(rest, m, all, log_facts, db, rests_on);
  if (arg.empty()) return "";
  const Provenance* from = nullptr;  // the entry a derivation read
  auto read = [&](std::string value) {
    if (rests_on != nullptr && from != nullptr && !value.empty()) rests_on->push_back(from);
    return value;
  };
  if (form == "cu") return CudaIndexTag(arg);
  if (form == "cuda_of_index") return CudaOfIndexTag(arg);
  if (form == "release") return read(AddonReleaseForTorch(addon, arg, db, &from));
  if (form == "release_series") return read(AddonReleasesForSeries(addon, arg, db, &from));
  if (form == "addon_cuda") return read(AddonCuda(addon, arg, db, &from));
  if (form == "torch_for_addon") return read(TorchForAddonRelease(addon, arg, db, &from));
  if (form == "lib_version") return read(LibraryVersion(arg, db, &from));
  if (form == "status") return read(StatusMeaning(addon, arg, db, &from));
  if (form == "cuda_of_driver") return read(CudaOfDriver(arg, db, &from));
  if (form == "driver_after") return read(DriverAfter(arg, db, &from));
  if (form == "cuda_api") return CudaOfApiVersion(arg);
  if (form == "cuda_reach") return read(CudaReach(arg, db, &from));
  if (form == "driver_after_cuda") {
    const auto cuda = Version::ParseLeading(arg);
    return cuda ? read(FloorAfter(*cuda, db, &from)) : "";
  }
  if (form == "major") {
    const auto v = Version::ParseLeading(arg);
    return v && !v->parts().empty() ? std::to_string(v->parts()[0]) : "";
  }
  const auto cc = Capability(arg);
  if (form == "cuda_for_arch") return cc ? read(CudaForCapability(*cc, db, &from)) : "";
  const bool last = form == "last_wheel_for_arch" || form == "last_torch_for_arch";
  const TorchWheel* wheel = !cc    ? nullptr
                            : last ? LastWheelForCapability(*cc, db)
                                   : FirstWheelForCapability(*cc, db);
  if (wheel == nullptr) return "";
  from = &wheel->provenance;
  return read(form == "wheel_for_arch" || form == "last_wheel_for_arch" ? wheel->variant
                                                                        : wheel->torch.ToString());
}

PlaceholderReads PlaceholderArguments(std::string_view field, const KnowledgeDb& db) {
  PlaceholderReads out;
  while (true) {
    if (StartsWith(field, "log:")) {
      out.names.emplace_back(field);
      return out;
    }
    auto [form, rest] = SplitForm(field);
    if (form.empty()) {
      if (field.find(':') != std::string_view::npos)
        out.error = "unknown derivation in {" + std::string(field) + "}";
      out.names.emplace_back(field);
      return out;
    }
    if (TakesKey(form)) {
      const size_t colon = rest.find(':');
      const std::string_view key = colon == std::string_view::npos ? "" : rest.substr(0, colon);
      if (!KeyIsKnown(form, key, db)) {
        out.error =
            form == "status"
                ? "{status:API:argument} needs an API of status_codes.toml, got " + std::string(rest)
                : "{" + std::string(form) + ":ADDON:argument} needs a known add-on, got " + std::string(rest);
        return out;
      }
      rest = rest.substr(colon + 1);
    }
    field = rest;
  }
}

std::string SpecificFix(const ExplainMatch& m, const std::vector<ExplainMatch>& all,
                        const std::vector<LogFact>& log_facts, const KnowledgeDb& db) {
  std::string text;
  for (const std::string& sentence : m.entry->specific_fix) {
    std::vector<const Provenance*> rests_on;
    std::string filled = Fill(sentence, m, all, log_facts, db, rests_on);
    if (filled.empty()) continue;
    std::string unconfirmed;  // "(pytorch_wheels.toml:120, unconfirmed)" for each entry not compared yet
    for (const Provenance* p : rests_on)
      if (!p->confirmed && unconfirmed.find(DataWhere(*p)) == std::string::npos)
        unconfirmed += (unconfirmed.empty() ? "" : "; ") + DataWhere(*p);
    if (!unconfirmed.empty()) filled += " (" + unconfirmed + ")";
    text += (text.empty() ? "" : " ") + filled;
  }
  const std::string driver = DriverForCuda(m, all, db);
  if (!driver.empty()) text += (text.empty() ? "" : " ") + driver;
  return text;
}

}  // namespace gpudoctor
