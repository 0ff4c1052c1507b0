// Reads the framework child's JSON lines (tune_protocol.h). Field by field, type-checked, bounded.
#include "tune/tune_protocol.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/strings.h"

namespace gpudoctor {
namespace {

using PlainJson = nlohmann::json;

constexpr size_t kMaxText = 400;
constexpr size_t kMaxTried = 256;
constexpr size_t kMaxEntries = 4096;  // per list: a child looping on one line cannot eat the memory
constexpr size_t kMaxAllocConf = 8;

// One top-level value of a line's object.
struct FieldValue {
  enum class Kind { kOther, kBool, kSigned, kUnsigned, kFloat, kString };
  Kind kind = Kind::kOther;  // kOther: null, an object or an array
  bool boolean = false;
  int64_t signed_number = 0;
  uint64_t unsigned_number = 0;
  double float_number = 0;
  std::string text;
};

// A line's object as the readers below need it: its top-level fields, and the two nested values the protocol
// has ("tried", "alloc_conf"). Read with nlohmann's SAX interface, so no tree is built: a tune run is ~60
// lines, and building each line's tree (a std::map node per key) was most of the reading's time.
struct LineFields {
  std::vector<std::pair<std::string, FieldValue>> fields;  // in the line's order
  std::vector<std::pair<uint32_t, bool>> tried;            // the last "tried" array's (batch, fitted) pairs
  // The last "alloc_conf" object's entries in the line's order; nullopt for a value that is not a string.
  // Both stay empty when the last field of their name is not an array or object respectively.
  std::vector<std::pair<std::string, std::optional<std::string>>> alloc_conf;

  // As a JSON object would answer: the value of the last field named `key`, or nullptr.
  const FieldValue* Find(std::string_view key) const {
    for (auto it = fields.rbegin(); it != fields.rend(); ++it)
      if (it->first == key) return &it->second;
    return nullptr;
  }
};

// nlohmann's SAX callbacks, filling LineFields. Depth 1 is inside the line's object.
class LineFieldsReader {
 public:
  explicit LineFieldsReader(LineFields& out) : out_(out) {}

  bool null() { return Value(FieldValue{}); }
  bool boolean(bool v) {
    FieldValue f;
    f.kind = FieldValue::Kind::kBool;
    f.boolean = v;
    return Value(std::move(f));
  }
  bool number_integer(int64_t v) {
    FieldValue f;
    f.kind = FieldValue::Kind::kSigned;
    f.signed_number = v;
    return Value(std::move(f));
  }
  bool number_unsigned(uint64_t v) {
    FieldValue f;
    f.kind = FieldValue::Kind::kUnsigned;
    f.unsigned_number = v;
    return Value(std::move(f));
  }
  bool number_float(double v, const std::string& /*spelling*/) {
    FieldValue f;
    f.kind = FieldValue::Kind::kFloat;
    f.float_number = v;
    return Value(std::move(f));
  }
  bool string(std::string& v) {
    FieldValue f;
    f.kind = FieldValue::Kind::kString;
    f.text = v;  // a copy: moving would take the lexer's buffer, which it would then allocate again
    return Value(std::move(f));
  }
  bool binary(PlainJson::binary_t& /*unused*/) { return Value(FieldValue{}); }

  bool start_object(size_t /*elements*/) {
    if (depth_ == 0) is_object_ = true;
    return Open(Nest::kObject);
  }
  bool end_object() { return Close(); }
  bool start_array(size_t /*elements*/) { return Open(Nest::kArray); }
  bool end_array() { return Close(); }
  bool key(std::string& k) {
    if (depth_ == 1) {
      key_ = k;  // copies, as in string()
    } else if (depth_ == 2 && in_ == In::kAllocConf) {
      out_.alloc_conf.emplace_back(k, std::nullopt);
    }
    return true;
  }
  bool parse_error(size_t /*position*/, const std::string& /*last_token*/,
                   const PlainJson::exception& /*e*/) {
    return false;
  }

  bool is_object() const { return is_object_; }

 private:
  enum class Nest { kObject, kArray };
  enum class In { kNone, kTried, kAllocConf };  // the nested value being read at depth 2 and below

  // A scalar: a top-level field, an alloc_conf entry, or an element of a "tried" pair.
  bool Value(FieldValue v) {
    if (depth_ == 0) return true;  // the line is a scalar, not an object
    if (depth_ == 1) {
      BeginField();
      out_.fields.emplace_back(std::move(key_), std::move(v));
    } else if (depth_ == 2 && in_ == In::kAllocConf && !out_.alloc_conf.empty()) {
      if (v.kind == FieldValue::Kind::kString) out_.alloc_conf.back().second = std::move(v.text);
    } else if (depth_ == 3 && in_ == In::kTried) {
      Element(&v);
    }
    return true;
  }

  bool Open(Nest n) {
    if (depth_ == 1) {  // a field whose value is an object or an array
      BeginField();
      in_ = key_ == "tried" && n == Nest::kArray         ? In::kTried
            : key_ == "alloc_conf" && n == Nest::kObject ? In::kAllocConf
                                                         : In::kNone;
      out_.fields.emplace_back(std::move(key_), FieldValue{});
    } else if (depth_ == 3 && in_ == In::kTried) {
      Element(nullptr);  // a pair's element that is itself an object or array
    } else if (depth_ == 2 && in_ == In::kTried) {
      pair_ = PairState{};
      pair_open_ = n == Nest::kArray;
    }
    ++depth_;
    return true;
  }

  bool Close() {
    --depth_;
    if (depth_ == 2 && in_ == In::kTried && pair_open_) {
      pair_open_ = false;
      if (pair_.elements == 2 && pair_.batch && pair_.fitted && *pair_.batch <= UINT32_MAX &&
          out_.tried.size() < kMaxTried)
        out_.tried.emplace_back(static_cast<uint32_t>(*pair_.batch), *pair_.fitted);
    }
    if (depth_ == 1) in_ = In::kNone;
    return true;
  }

  // A top-level field named key_ begins: a repeated "tried" or "alloc_conf" drops what the earlier one held,
  // since a JSON object keeps a repeated field's last value, whatever its type.
  void BeginField() {
    if (key_ == "tried") out_.tried.clear();
    if (key_ == "alloc_conf") out_.alloc_conf.clear();
  }

  // One element of a "tried" pair (nullptr: an object or array).
  void Element(const FieldValue* v) {
    if (!pair_open_) return;
    ++pair_.elements;
    if (pair_.elements == 1 && v && v->kind == FieldValue::Kind::kUnsigned) pair_.batch = v->unsigned_number;
    if (pair_.elements == 2 && v && v->kind == FieldValue::Kind::kBool) pair_.fitted = v->boolean;
  }

  struct PairState {
    size_t elements = 0;
    std::optional<uint64_t> batch;
    std::optional<bool> fitted;
  };

  LineFields& out_;
  size_t depth_ = 0;
  bool is_object_ = false;
  std::string key_;
  In in_ = In::kNone;
  PairState pair_;
  bool pair_open_ = false;
};

// The line's fields, or nullopt when the line is not one JSON object.
std::optional<LineFields> ReadLineFields(std::string_view line) {
  LineFields fields;
  fields.fields.reserve(24);  // the protocol's lines have up to 18 fields
  LineFieldsReader reader(fields);
  if (!PlainJson::sax_parse(line.begin(), line.end(), &reader) || !reader.is_object()) return std::nullopt;
  return fields;
}

// A text the child sent, cut to kMaxText with "..." after the cut.
std::string Clipped(const std::string& s) {
  return s.size() > kMaxText ? s.substr(0, kMaxText) + "..." : s;
}

std::string Text(const LineFields& j, const char* key) {
  const FieldValue* v = j.Find(key);
  return v != nullptr && v->kind == FieldValue::Kind::kString ? Clipped(v->text) : std::string();
}

bool Flag(const LineFields& j, const char* key, bool fallback = false) {
  const FieldValue* v = j.Find(key);
  return v != nullptr && v->kind == FieldValue::Kind::kBool ? v->boolean : fallback;
}

std::optional<double> Number(const LineFields& j, const char* key) {
  const FieldValue* v = j.Find(key);
  if (v == nullptr) return std::nullopt;
  double d = 0;
  switch (v->kind) {
    case FieldValue::Kind::kSigned:
      d = static_cast<double>(v->signed_number);
      break;
    case FieldValue::Kind::kUnsigned:
      d = static_cast<double>(v->unsigned_number);
      break;
    case FieldValue::Kind::kFloat:
      d = v->float_number;
      break;
    default:
      return std::nullopt;
  }
  return std::isfinite(d) ? std::optional<double>(d) : std::nullopt;
}

std::optional<uint32_t> Count(const LineFields& j, const char* key) {
  const FieldValue* v = j.Find(key);
  if (v == nullptr) return std::nullopt;
  if (v->kind == FieldValue::Kind::kUnsigned)
    return v->unsigned_number <= UINT32_MAX
               ? std::optional<uint32_t>(static_cast<uint32_t>(v->unsigned_number))
               : std::nullopt;
  if (v->kind == FieldValue::Kind::kSigned)
    return v->signed_number >= 0 && v->signed_number <= INT64_C(4294967295)
               ? std::optional<uint32_t>(static_cast<uint32_t>(v->signed_number))
               : std::nullopt;
  return std::nullopt;
}

// alloc_conf's string entries as a JSON object lists them: a repeated name keeps its last value, in name
// order.
std::vector<std::pair<std::string, std::string>> AllocConf(const LineFields& j) {
  std::vector<std::pair<std::string, std::optional<std::string>>> entries;
  for (auto it = j.alloc_conf.rbegin(); it != j.alloc_conf.rend(); ++it) {  // the last of a name wins
    bool seen =
        std::any_of(entries.begin(), entries.end(), [&](const auto& e) { return e.first == it->first; });
    if (!seen) entries.push_back(*it);
  }
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::pair<std::string, std::string>> conf;
  for (const auto& [name, value] : entries) {
    if (value && conf.size() < kMaxAllocConf) conf.emplace_back(name.substr(0, kMaxText), Clipped(*value));
  }
  return conf;
}

TuneHello ReadHello(const LineFields& j) {
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
  h.alloc_conf = AllocConf(j);  // empty unless the last "alloc_conf" field is an object
  return h;
}

TuneMeasurement ReadMeasurementLine(const LineFields& j) {
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
  m.tf32 = Flag(j, "tf32");
  m.fused = Flag(j, "fused");
  m.sdpa = Text(j, "sdpa");
  m.compile = Text(j, "compile");
  m.compile_seconds = Number(j, "compile_seconds");
  m.checkpointing = Flag(j, "checkpointing");
  return m;
}

TuneBatchSearch ReadSearchLine(const LineFields& j) {
  TuneBatchSearch s;
  s.model = Text(j, "model");
  s.precision = Text(j, "precision");
  s.largest = Count(j, "largest").value_or(0);
  s.failed_at = Count(j, "failed_at");
  s.cap = Count(j, "cap").value_or(0);
  s.seconds = Number(j, "seconds").value_or(0);
  s.tried = j.tried;
  return s;
}

TuneLoaderRate ReadLoaderLine(const LineFields& j) {
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
  std::optional<LineFields> fields = ReadLineFields(line);
  if (!fields) {
    ++out.ignored_lines;
    return false;
  }
  const LineFields& j = *fields;
  const std::string type = Text(j, "type");
  if (type == "hello") {
    out.hello = ReadHello(j);
  } else if (type == "begin") {  // the child protocol's "id"; children before it wrote "item"
    out.last_begun = Text(j, "id").empty() ? Text(j, "item") : Text(j, "id");
  } else if (type == "result") {
    Keep(out.measurements, ReadMeasurementLine(j));
  } else if (type == "search") {
    Keep(out.searches, ReadSearchLine(j));
  } else if (type == "loader") {
    Keep(out.loader, ReadLoaderLine(j));
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
