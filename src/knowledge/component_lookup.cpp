// KnowledgeDb's lookup of components.toml: the parts of the GPU stack a failing line names as whole words.
#include <algorithm>
#include <cctype>

#include "core/strings.h"
#include "knowledge/knowledge_db.h"

namespace gpudoctor {
namespace {

bool WordChar(unsigned char c) {
  return std::isalnum(c) || c == '_';
}

// Whether `lower` (lower case) holds `token` as a whole word: not inside a longer identifier.
bool NamesWord(std::string_view lower, std::string_view token) {
  for (size_t at = lower.find(token); at != std::string_view::npos; at = lower.find(token, at + 1)) {
    const bool start = at == 0 || !WordChar(static_cast<unsigned char>(lower[at - 1]));
    const size_t end = at + token.size();
    if (start && (end == lower.size() || !WordChar(static_cast<unsigned char>(lower[end])))) return true;
  }
  return false;
}

}  // namespace

std::vector<const StackComponent*> KnowledgeDb::ComponentsNamedIn(std::string_view text) const {
  const std::string lower = ToLower(text);
  std::vector<const StackComponent*> out;
  for (const StackComponent& c : components)
    if (std::any_of(c.tokens.begin(), c.tokens.end(),
                    [&](const std::string& t) { return NamesWord(lower, t); }))
      out.push_back(&c);
  return out;
}

}  // namespace gpudoctor
