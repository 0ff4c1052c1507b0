// `gpudoctor --version`: the text, from core/build_version.h and knowledge/knowledge_as_of.h.
#include "cli/version_text.h"

#include "core/build_version.h"
#include "knowledge/knowledge_as_of.h"

namespace gpudoctor {

std::string VersionText(std::string_view build_version, const std::optional<std::string>& knowledge_as_of) {
  std::string out = "gpudoctor " + std::string(build_version) + "\n";
  out += knowledge_as_of ? "knowledge as of " + *knowledge_as_of
                         : std::string("knowledge as of: unknown (no dated entry in the knowledge base)");
  return out;
}

std::string VersionText() {
  return VersionText(BuildVersion(), EmbeddedKnowledgeAsOf());
}

}  // namespace gpudoctor
