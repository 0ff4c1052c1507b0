// Reads the framework child's JSON lines (tune_protocol.h). Field by field, type-checked, bounded.
#include "tune/tune_protocol.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "core/strings.h"

namespace gpudoctor {
namespace {

using Json = nlohmann::json;

constexpr size_t kMaxText = 400;
constexpr size_t kMaxTried = 256;
constexpr size_t kMaxEntries = 4096;  // per list: a child looping on one line cannot eat the memory

std::string Text(const Json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_string()) return {};
  std::string s = it->get<std::string>();
  if (s.size() > kMaxText) s = s.substr(0, kMaxText) + "...";
  return s;
}

bool Flag(const Json& j, const char* key, bool fallback = false) {
  auto it = j.find(key);
  return it != j.end() && it->is_boolean() ? it->get<bool>() : fallback;
}

std::optional<double> Number(const Json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  double v = it->get<double>();
  return std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

std::optional<uint32_t> Count(const Json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number_integer()) return std::nullopt;
  if (it->is_number_unsigned()) {
    auto v = it->get<uint64_t>();
    return v <= UINT32_MAX ? std::optional<uint32_t>(static_cast<uint32_t>(v)) : std::nullopt;
  }
  auto v = it->get<int64_t>();
  return v >= 0 && v <= INT64_C(4294967295) ? std::optional<uint32_t>(static_cast<uint32_t>(v))
                                            : std::nullopt;
}

TuneHello ReadHello(const Json& j) {
  TuneHello h;
  h.torch_version = Text(j, "torch");
  h.torchvision_version = Text(j, "torchvision");
  h.backend = Text(j, "backend");
  h.device = Text(j, "device");
  h.bf16 = Flag(j, "bf16");
  h.size = Text(j, "size");
  h.warmup_steps = Count(j, "warmup").value_or(0);
  h.timed_steps = Count(j, "steps").value_or(0);
  h.image_side = Count(j, "image").value_or(0);
  h.sequence_length = Count(j, "seq").value_or(0);
  h.mode = Text(j, "mode");
  if (auto it = j.find("alloc_conf"); it != j.end() && it->is_object())
    for (const auto& [name, value] : it->items())
      if (value.is_string() && h.alloc_conf.size() < 8)
        h.alloc_conf.emplace_back(name.substr(0, kMaxText), Text(*it, name.c_str()));
  return h;
}

TuneMeasurement ReadMeasurement(const Json& j) {
  TuneMeasurement m;
  m.item = Text(j, "item");
  m.role = Text(j, "role");
  m.model = Text(j, "model");
  m.precision = Text(j, "precision");
  m.channels_last = Flag(j, "channels_last");
  m.benchmark = Flag(j, "benchmark");
  m.batch = Count(j, "batch").value_or(0);
  m.warmup_steps = Count(j, "warmup").value_or(0);
  m.timed_steps = Count(j, "steps").value_or(0);
  m.seconds = Number(j, "seconds").value_or(0);
  m.samples_per_s = Number(j, "samples_per_s").value_or(0);
  m.units_per_s = Number(j, "units_per_s").value_or(0);
  m.unit = Text(j, "unit");
  m.loss = Number(j, "loss");
  m.loss_finite = Flag(j, "loss_finite", m.loss.has_value());
  m.peak_allocated_bytes = Number(j, "peak_allocated_bytes");
  m.peak_reserved_bytes = Number(j, "peak_reserved_bytes");
  return m;
}

TuneBatchSearch ReadSearch(const Json& j) {
  TuneBatchSearch s;
  s.model = Text(j, "model");
  s.precision = Text(j, "precision");
  s.largest = Count(j, "largest").value_or(0);
  s.failed_at = Count(j, "failed_at");
  s.cap = Count(j, "cap").value_or(0);
  s.seconds = Number(j, "seconds").value_or(0);
  if (auto it = j.find("tried"); it != j.end() && it->is_array()) {
    for (const auto& pair : *it) {
      if (s.tried.size() >= kMaxTried) break;
      if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number_unsigned() || !pair[1].is_boolean())
        continue;
      auto batch = pair[0].get<uint64_t>();
      if (batch <= UINT32_MAX) s.tried.emplace_back(static_cast<uint32_t>(batch), pair[1].get<bool>());
    }
  }
  return s;
}

TuneLoaderRate ReadLoader(const Json& j) {
  TuneLoaderRate l;
  l.item = Text(j, "item");
  l.workers = Count(j, "workers").value_or(0);
  l.pin_memory = Flag(j, "pin_memory");
  l.batch = Count(j, "batch").value_or(0);
  l.images = Count(j, "images").value_or(0);
  l.seconds = Number(j, "seconds").value_or(0);
  l.images_per_s = Number(j, "images_per_s").value_or(0);
  l.decode = Text(j, "decode");
  l.image_side = Count(j, "image").value_or(0);
  l.cpus = Count(j, "cpus").value_or(0);
  return l;
}

template <typename T>
void Keep(std::vector<T>& list, T value) {
  if (list.size() < kMaxEntries) list.push_back(std::move(value));
}

}  // namespace

bool ReadTuneLine(std::string_view line, TuneChildOutput& out) {
  line = Trim(line);
  if (line.empty() || line.front() != '{') {
    if (!line.empty()) ++out.ignored_lines;
    return false;
  }
  Json j = Json::parse(line.begin(), line.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    ++out.ignored_lines;
    return false;
  }
  const std::string type = Text(j, "type");
  if (type == "hello") {
    out.hello = ReadHello(j);
  } else if (type == "begin") {
    out.last_begun = Text(j, "item");
  } else if (type == "result") {
    Keep(out.measurements, ReadMeasurement(j));
  } else if (type == "search") {
    Keep(out.searches, ReadSearch(j));
  } else if (type == "loader") {
    Keep(out.loader, ReadLoader(j));
  } else if (type == "skip") {
    Keep(out.skips, TuneSkip{Text(j, "item"), Text(j, "reason")});
  } else if (type == "error") {
    Keep(out.errors, TuneChildError{Text(j, "item"), Text(j, "code"), Text(j, "message")});
  } else if (type == "progress") {
    out.last_progress =
        TuneProgress{Count(j, "done").value_or(0), Count(j, "total").value_or(0), Text(j, "item")};
  } else if (type == "end") {
    out.ended = true;
  } else {
    ++out.ignored_lines;
    return false;
  }
  return true;
}

TuneChildOutput ParseTuneOutput(std::string_view text) {
  TuneChildOutput out;
  for (auto line : SplitLines(text)) ReadTuneLine(line, out);
  return out;
}

}  // namespace gpudoctor
