// Who runs the tool: user name and groups decide whether /dev/kfd and the
// render nodes can be opened. Live values come from the OS; a sysroot brings
// the values `gather` recorded.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpudoctor {

struct UserIdentity {
  std::string user_name;
  std::optional<uint32_t> uid;
  std::vector<uint32_t> group_ids;
  std::vector<std::string> group_names;
  bool is_admin = false;  // root on Linux, elevated on Windows
};

// The identity of the current process (platform code).
UserIdentity CurrentUserIdentity();

}  // namespace gpudoctor
