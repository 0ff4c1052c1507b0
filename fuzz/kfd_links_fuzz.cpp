// libFuzzer target: the KFD link parser (io_links / p2p_links properties) and the path search over the links
// it yields, on arbitrary bytes.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "topo/kfd_links.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpudoctor;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<KfdLink> links;
  // Each line group separated by a blank line is one link's properties file.
  size_t start = 0;
  while (start <= text.size() && links.size() < 64) {
    size_t end = text.find("\n\n", start);
    std::string_view one =
        text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    KfdLinkParse p = KfdLinkFromProperties(ParseKfdProperties(one), links.size() % 2 == 1);
    if (p.link) links.push_back(*p.link);
    if (end == std::string_view::npos) break;
    start = end + 2;
  }
  for (const auto& a : links) {
    auto path = KfdPathBetween(links, a.node_from, a.node_to);
    if (a.node_from != a.node_to && !path) __builtin_trap();  // a direct link always gives a path
    if (path && (path->hops == 0 || path->hops > 8)) __builtin_trap();
  }
  return 0;
}
