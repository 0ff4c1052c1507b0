// The symbol lookups behind SymbolBinder and the one-line summary of what a table bound.
#include "platform/symbol_binder.h"

namespace gpudoctor {

void* SymbolBinder::Find(std::initializer_list<const char*> names, bool required) {
  for (const char* name : names) {
    if (void* p = library_.Symbol(name)) {
      if (names.size() > 1) report_.variants_bound.emplace_back(name);
      return p;
    }
  }
  std::string all;
  for (const char* name : names) {
    if (!all.empty()) all += "|";
    all += name;
  }
  (required ? report_.missing_required : report_.missing_optional).push_back(all);
  return nullptr;
}

std::string SymbolBindReport::Summary() const {
  std::string out;
  auto list = [&out](const char* label, const std::vector<std::string>& names) {
    if (names.empty()) return;
    if (!out.empty()) out += "; ";
    out += label;
    for (size_t i = 0; i < names.size(); ++i) out += (i ? ", " : " ") + names[i];
  };
  list("missing", missing_required);
  list("optional missing", missing_optional);
  list("bound", variants_bound);
  return out;
}

}  // namespace gpudoctor
