// The JSON field reader and the schema convention (see json_reader.h). nlohmann::json parses without
// exceptions here; every member is type-checked before it is read, so nothing below throws.
#include "core/json_reader.h"

#include <algorithm>
#include <new>

#include "core/json_depth.h"

namespace gpudoctor {
namespace {

constexpr std::string_view kSchemaPrefix = "gpudoctor.";

// "17" -> 17; nullopt for anything but a small positive number.
std::optional<int64_t> SmallNumber(std::string_view s) {
  if (s.empty() || s.size() > 6) return std::nullopt;
  int64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

}  // namespace

const char* JsonTypeName(const JsonValue& j) {
  switch (j.type()) {
    case JsonValue::value_t::null:
      return "null";
    case JsonValue::value_t::boolean:
      return "true/false";
    case JsonValue::value_t::string:
      return "a string";
    case JsonValue::value_t::array:
      return "an array";
    case JsonValue::value_t::object:
      return "an object";
    case JsonValue::value_t::number_integer:
    case JsonValue::value_t::number_unsigned:
    case JsonValue::value_t::number_float:
      return "a number";
    default:
      return "something else";
  }
}

size_t JsonErrorLine(std::string_view text) {
  try {
    JsonValue ignored = JsonValue::parse(text.begin(), text.end());
    (void)ignored;
  } catch (const nlohmann::json::parse_error& e) {
    size_t end = std::min(text.size(), e.byte > 0 ? e.byte - 1 : 0);
    return 1 + static_cast<size_t>(
                   std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(end), '\n'));
  } catch (const std::exception&) {
  }
  return 1;
}

Result<JsonValue> ParseJsonObject(std::string_view text, const std::string& origin, const std::string& hint) {
  if (auto too_deep = JsonTooDeep(text, origin)) return UserError(*too_deep, hint);
  JsonValue doc;
  try {
    doc = JsonValue::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  } catch (const std::bad_alloc&) {  // parsed JSON takes about 25 times its text (issue 35)
    return EnvError(origin + ": not enough memory to read it (" + std::to_string(text.size() >> 20) + " MiB)",
                    "free some memory, or check that the file is what was asked for");
  }
  if (doc.is_discarded())
    return UserError(origin + ":" + std::to_string(JsonErrorLine(text)) + ": not valid JSON", hint);
  if (!doc.is_object())
    return UserError(origin + ": expected a JSON object, found " + JsonTypeName(doc), hint);
  return doc;
}

// ---- JsonReader ----

std::string JsonReader::PathOf(std::string_view key) const {
  return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

void JsonReader::Fail(const std::string& path, const std::string& message) const {
  if (error_->empty()) *error_ = path + ": " + message;
}

const JsonValue* JsonReader::Find(std::string_view key, bool required) const {
  auto it = obj_.find(key);
  if (it == obj_.end()) {
    if (required) Fail(path_.empty() ? "document" : path_, "\"" + std::string(key) + "\" is missing");
    return nullptr;
  }
  return &*it;
}

void JsonReader::String(std::string_view key, std::string& out, bool required) const {
  const JsonValue* j = Find(key, required);
  if (!j || j->is_null()) return;
  if (!j->is_string()) return Expected(key, "a string", *j);
  out = j->get<std::string>();
}

void JsonReader::Bool(std::string_view key, bool& out) const {
  const JsonValue* j = Find(key, false);
  if (!j || j->is_null()) return;
  if (!j->is_boolean()) return Expected(key, "true or false", *j);
  out = j->get<bool>();
}

void JsonReader::Number(std::string_view key, std::optional<double>& out, bool required) const {
  const JsonValue* j = Find(key, required);
  if (!j || j->is_null()) return;
  if (!j->is_number()) return Expected(key, "a number", *j);
  out = j->get<double>();
}

void JsonReader::Number(std::string_view key, double& out, bool required) const {
  std::optional<double> v;
  Number(key, v, required);
  if (v) out = *v;
}

void JsonReader::Integer(std::string_view key, std::optional<int64_t>& out, bool required) const {
  const JsonValue* j = Find(key, required);
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

void JsonReader::Unsigned(std::string_view key, std::optional<uint64_t>& out) const {
  const JsonValue* j = Find(key, false);
  if (!j || j->is_null()) return;
  if (!j->is_number_unsigned()) return Expected(key, "a whole number >= 0", *j);
  out = j->get<uint64_t>();
}

void JsonReader::Strings(std::string_view key, std::vector<std::string>& out) const {
  const JsonValue* j = Find(key, false);
  if (!j || j->is_null()) return;
  if (!j->is_array()) return Expected(key, "an array of strings", *j);
  for (size_t i = 0; i < j->size(); ++i) {
    const JsonValue& e = (*j)[i];
    if (!e.is_string())
      return Fail(PathOf(key) + "[" + std::to_string(i) + "]",
                  std::string("expected a string, found ") + JsonTypeName(e));
    out.push_back(e.get<std::string>());
  }
}

const JsonValue* JsonReader::Array(std::string_view key, bool required) const {
  const JsonValue* j = Find(key, required);
  if (!j || (j->is_null() && !required)) return nullptr;
  if (!j->is_array()) {
    Expected(key, "an array", *j);
    return nullptr;
  }
  return j;
}

const JsonValue* JsonReader::Object(std::string_view key, bool required) const {
  const JsonValue* j = Find(key, required);
  if (!j || (j->is_null() && !required)) return nullptr;
  if (!j->is_object()) {
    Expected(key, "an object", *j);
    return nullptr;
  }
  return j;
}

void JsonReader::Expected(std::string_view key, const char* what, const JsonValue& found) const {
  Fail(PathOf(key), std::string("expected ") + what + ", found " + JsonTypeName(found));
}

JsonValue StringOrNull(const std::string& s) {
  return s.empty() ? JsonValue(nullptr) : JsonValue(s);
}

// ---- the schema convention ----

std::string SchemaName(std::string_view kind, int64_t major) {
  return std::string(kSchemaPrefix) + std::string(kind) + "/" + std::to_string(major);
}

DocumentSchema ReadDocumentSchema(const JsonValue& doc) {
  if (!doc.is_object()) return {};
  std::optional<int64_t> version;
  if (auto v = doc.find("schema_version"); v != doc.end() && v->is_number_integer())
    version = v->get<int64_t>();
  auto schema = doc.find("schema");
  std::string name;
  if (schema != doc.end()) {
    if (!schema->is_string()) return {};
    name = schema->get<std::string>();
  }
  return SchemaFromFields(schema == doc.end() ? nullptr : &name, version, doc.contains("gates"));
}

DocumentSchema SchemaFromFields(const std::string* schema, std::optional<int64_t> old_version,
                                bool has_gates) {
  DocumentSchema out;
  if (!schema) {
    // verify wrote no name before the convention: "schema_version" beside "gates".
    if (old_version && has_gates) {
      out.kind = "verify";
      out.major = *old_version;
    }
    return out;
  }
  out.name = *schema;
  std::string_view name = out.name;
  if (name.substr(0, kSchemaPrefix.size()) != kSchemaPrefix) return out;
  name.remove_prefix(kSchemaPrefix.size());
  const size_t slash = name.find('/');
  out.kind = std::string(name.substr(0, slash));
  if (slash != std::string_view::npos)
    out.major = SmallNumber(name.substr(slash + 1)).value_or(0);
  else
    out.major = old_version.value_or(1);  // "gpudoctor.check" with "schema_version": 1 (none: the first)
  return out;
}

std::string DescribeDocumentKind(std::string_view kind) {
  if (kind == "snapshot") return "a snapshot from `gpudoctor info --save`";
  if (kind == "verify" || kind == "bench" || kind == "check" || kind == "collectives" || kind == "explain" ||
      kind == "topo" || kind == "port" || kind == "tune")
    return "a `gpudoctor " + std::string(kind) + " --json` document";
  return "";
}

Result<int64_t> ExpectSchema(const JsonValue& doc, std::string_view kind, int64_t newest_major,
                             const std::string& origin, const std::string& hint) {
  const DocumentSchema schema = ReadDocumentSchema(doc);
  const std::string wanted = DescribeDocumentKind(kind);
  if (schema.kind != kind) {
    std::string other = DescribeDocumentKind(schema.kind);
    if (other.empty() && !schema.name.empty()) other = "a document with schema \"" + schema.name + "\"";
    return UserError(origin + ": not " + wanted + (other.empty() ? "" : ": it is " + other), hint);
  }
  const std::string written = schema.name.empty() ? "version " + std::to_string(schema.major) : schema.name;
  if (schema.major > newest_major)
    return UserError(
        origin + ": " + std::string(kind) + " schema \"" + written +
            "\" is newer than this gpudoctor reads (\"" + SchemaName(kind, newest_major) + "\")",
        "update gpudoctor, or make the file with this version's `gpudoctor " + std::string(kind) + "`");
  if (schema.major < 1)
    return UserError(origin + ": " + std::string(kind) + " schema \"" + written + "\" names no valid version",
                     hint);
  return schema.major;
}

}  // namespace gpudoctor
