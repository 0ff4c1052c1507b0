// Readers of status_codes.toml ([[status_code]]: what a status code of a GPU API means) and components.toml
// ([[component]]: a part of the GPU stack a failing line may name, and how to see its state).
#include <algorithm>
#include <cctype>

#include "knowledge/section_parsers.h"

namespace gpudoctor {
namespace {

bool AllOf(std::string_view s, int (*accept)(int)) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [&](char c) { return accept(static_cast<unsigned char>(c)) != 0; });
}

int ApiChar(int c) {
  return std::islower(c) || std::isdigit(c) || c == '_';
}
int CodeChar(int c) {
  return std::isalnum(c) || c == '_';
}

}  // namespace

void ParseStatusCode(EntryReader& r, KnowledgeDb& db) {
  LabelFromField(r, "code");
  StatusCode s;
  s.api = r.Text("api", Need::kRequired).value_or("");
  s.code = r.Text("code", Need::kRequired).value_or("");
  s.value = r.Integer("value", Need::kOptional, INT64_MIN, INT64_MAX);
  s.meaning = r.Text("meaning", Need::kRequired).value_or("");
  s.provenance = r.ReadProvenance();
  r.Finish();
  if (!s.api.empty() && !AllOf(s.api, ApiChar))
    r.Error(0, "api '" + s.api + "' must be lower-case letters, digits and '_'");
  if (!s.code.empty() && !AllOf(s.code, CodeChar))
    r.Error(0, "code '" + s.code + "' must be letters, digits and '_' as the API's header spells it");
  for (const StatusCode& other : db.status_codes)
    if (other.api == s.api && other.code == s.code) r.Error(0, "code '" + s.code + "' is listed twice");
  if (!s.api.empty() && !s.code.empty() && !s.meaning.empty()) db.status_codes.push_back(std::move(s));
}

void ParseStackComponent(EntryReader& r, KnowledgeDb& db) {
  LabelFromField(r, "name");
  StackComponent c;
  c.name = r.Text("name", Need::kRequired).value_or("");
  c.tokens = r.TextList("tokens", Need::kRequired);
  c.what = r.Text("what", Need::kRequired).value_or("");
  c.state = r.Text("state", Need::kRequired).value_or("");
  c.provenance = r.ReadProvenance();
  r.Finish();
  for (const std::string& t : c.tokens)
    if (t.size() < 3 || std::any_of(t.begin(), t.end(), [](unsigned char ch) { return std::isupper(ch); }))
      r.Error(0, "token '" + t + "' must be lower case and at least 3 characters");
  if (!c.name.empty() && !c.tokens.empty()) db.components.push_back(std::move(c));
}

}  // namespace gpudoctor
