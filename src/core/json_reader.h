// Reading gpudoctor's own JSON documents back (saved reports, snapshots) without exceptions, and the one
// schema convention they share. A JsonReader walks one object, checks each field's type and keeps the first
// problem with its JSON path ("benchmarks[2].points[0].x: expected a number, found a string"); the codecs
// beside each result type (gates/verify_json.h, bench/bench_json.h, ...) are written with it.
//
// Every document names itself `"schema": "gpudoctor.<kind>/<major>"` (docs/json-schemas.md). Files from
// before that convention still read: `"schema": "gpudoctor.<kind>"` with `"schema_version": N` (check,
// snapshot, collectives; no version there reads as version 1) and verify's document with
// `"schema_version": N` and no name at all.
#pragma once

#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace gpudoctor {

using JsonValue = nlohmann::json;

// "a string", "a number", "an array", ... for messages.
const char* JsonTypeName(const JsonValue& j);

// The line (from 1) of the first JSON syntax error in `text`; 1 when it parses. For the error path: it
// parses the text again.
size_t JsonErrorLine(std::string_view text);

// `text` as a JSON object, or the user error naming `origin` (the file) and the line.
Result<JsonValue> ParseJsonObject(std::string_view text, const std::string& origin, const std::string& hint);

class JsonReader {
 public:
  // `path` is the object's own JSON path ("" for the document, "benchmarks[2]"); the first problem found
  // by this reader or any other sharing `error` is kept there.
  JsonReader(const JsonValue& object, std::string path, std::string* error)
      : obj_(object), path_(std::move(path)), error_(error) {}

  std::string PathOf(std::string_view key) const;
  void Fail(const std::string& path, const std::string& message) const;
  bool ok() const { return error_->empty(); }
  const std::string& path() const { return path_; }
  std::string* error() const { return error_; }

  // The member, or nullptr when absent (an error when `required`).
  const JsonValue* Find(std::string_view key, bool required) const;

  // Each reads the member into `out` when it is there and of the right type; null leaves `out` as it was
  // (an absent optional); a member of the wrong type is the error.
  void String(std::string_view key, std::string& out, bool required = false) const;
  void Bool(std::string_view key, bool& out) const;
  void Number(std::string_view key, std::optional<double>& out, bool required = false) const;
  void Number(std::string_view key, double& out, bool required = false) const;
  void Integer(std::string_view key, std::optional<int64_t>& out, bool required = false) const;
  void Unsigned(std::string_view key, std::optional<uint64_t>& out) const;
  void Strings(std::string_view key, std::vector<std::string>& out) const;
  // A whole number that fits `T` (int, uint32_t, ...).
  template <typename T>
  void IntegerAs(std::string_view key, T& out, bool required = false) const {
    std::optional<int64_t> v;
    Integer(key, v, required);
    if (!v) return;
    constexpr bool kMaxFitsInt64 = static_cast<uint64_t>(std::numeric_limits<T>::max()) <=
                                   static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
    if (*v < static_cast<int64_t>(std::numeric_limits<T>::min()) ||
        (kMaxFitsInt64 && *v > static_cast<int64_t>(std::numeric_limits<T>::max())))
      return Fail(PathOf(key), "number out of range");
    out = static_cast<T>(*v);
  }

  // The same into an optional: absent or null leaves it empty.
  template <typename T>
  void OptionalIntegerAs(std::string_view key, std::optional<T>& out) const {
    const JsonValue* j = Find(key, false);
    if (!j || j->is_null()) return;
    T v{};
    IntegerAs(key, v);
    if (ok()) out = v;
  }

  // An enumerated value: a string that `from_string` (giving std::optional<E>) knows; `allowed` lists the
  // values for the message ("pass, fail or skip"). Absent or null leaves `out` as it was.
  template <typename E, typename FromString>
  void Enum(std::string_view key, E& out, FromString from_string, std::string_view allowed,
            bool required = false) const {
    const JsonValue* j = Find(key, required);
    if (!j || j->is_null()) return;
    std::string text;
    String(key, text);
    if (!ok()) return;
    if (auto v = from_string(text))
      out = *v;
    else
      Fail(PathOf(key), "\"" + text + "\" is not " + std::string(allowed));
  }

  // An array or object member (an error when it is something else); nullptr when absent or null.
  const JsonValue* Array(std::string_view key, bool required) const;
  const JsonValue* Object(std::string_view key, bool required) const;

  // Calls fn(element, its path) for each element of the array member `key`, which must be objects; stops
  // at the first problem.
  template <typename Fn>
  void ForEachObject(std::string_view key, bool required, Fn&& fn) const {
    const JsonValue* array = Array(key, required);
    if (!array) return;
    for (size_t i = 0; i < array->size() && ok(); ++i) {
      const std::string path = PathOf(key) + "[" + std::to_string(i) + "]";
      const JsonValue& e = (*array)[i];
      if (!e.is_object()) return Fail(path, std::string("expected an object, found ") + JsonTypeName(e));
      fn(JsonReader(e, path, error_));
    }
  }

 private:
  void Expected(std::string_view key, const char* what, const JsonValue& found) const;
  const JsonValue& obj_;
  std::string path_;
  std::string* error_;
};

// The writing side of JsonReader::String for an optional text: an empty string is written as null (not
// known), which String() reads back as empty.
JsonValue StringOrNull(const std::string& s);

// ---- the schema convention ----

// What a document says it is.
struct DocumentSchema {
  std::string kind;   // "verify", "bench", "check", "snapshot", "collectives", "explain", ...; "" when none
  int64_t major = 0;  // 0 when the document names no version
  std::string name;   // as written: "gpudoctor.bench/1", "gpudoctor.check", "" (old verify)
};

// "gpudoctor.bench/1".
std::string SchemaName(std::string_view kind, int64_t major);

// The schema of a parsed document, in the current form or an older one (see the top of this file).
DocumentSchema ReadDocumentSchema(const JsonValue& doc);
// The same from the fields that carry it, for readers of other JSON types: "schema" (nullptr when absent),
// "schema_version" (when a whole number) and whether the document has "gates" (verify's old form).
DocumentSchema SchemaFromFields(const std::string* schema, std::optional<int64_t> schema_version,
                                bool has_gates);

// "a `gpudoctor bench --json` document", "a snapshot from `gpudoctor info --save`"; "" when unknown.
std::string DescribeDocumentKind(std::string_view kind);

// Checks that `doc` is a `kind` document of a major version from 1 to `newest_major` and returns that
// version; otherwise the user error naming `origin` and what the document is instead.
Result<int64_t> ExpectSchema(const JsonValue& doc, std::string_view kind, int64_t newest_major,
                             const std::string& origin, const std::string& hint);

// The member `key` of `object` when it is a whole number that fits `T`, else `fallback` (absent, another
// type, a fraction, out of range). For the workers' own lines, read leniently: nlohmann's value() would
// convert 2e44 into an integer type, which is undefined behaviour (found by fuzz/fleet_fuzz.cpp).
template <typename T>
T WholeNumberOr(const JsonValue& object, std::string_view key, T fallback) {
  if (!object.is_object()) return fallback;
  auto it = object.find(key);
  if (it == object.end()) return fallback;
  if (it->is_number_unsigned()) {
    const uint64_t v = it->template get<uint64_t>();
    return v <= static_cast<uint64_t>(std::numeric_limits<T>::max()) ? static_cast<T>(v) : fallback;
  }
  if (it->is_number_integer()) {
    const int64_t v = it->template get<int64_t>();
    if (v < 0 && !std::numeric_limits<T>::is_signed) return fallback;
    if (std::numeric_limits<T>::is_signed && (v < static_cast<int64_t>(std::numeric_limits<T>::min()) ||
                                              v > static_cast<int64_t>(std::numeric_limits<T>::max())))
      return fallback;
    return static_cast<T>(v);
  }
  return fallback;
}

}  // namespace gpudoctor
