// Can this user open /dev/kfd and /dev/dri/renderD*? The most common reason ROCm "finds no GPU" is a
// missing group membership, so the verdict names the group and the command that fixes it. The
// parsers (recorded device-node list, /etc/group) and the verdict are pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "platform/identity.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

// One line of `gather`'s record of device nodes (/.gpudoctor/devnodes): "path mode_octal uid gid",
// e.g. "/dev/kfd 20666 0 109" (the file-type bits above 0777 are allowed and ignored).
struct RecordedDeviceNode {
  std::string path;
  uint32_t mode = 0;  // permission bits only (0777 mask)
  uint32_t uid = 0;
  uint32_t gid = 0;
};

struct RecordedDeviceNodes {
  std::vector<RecordedDeviceNode> nodes;
  std::vector<std::string> problems;  // "line 2: not 'path mode uid gid' ('...')"
  const RecordedDeviceNode* Find(std::string_view path) const;
};

RecordedDeviceNodes ParseRecordedDeviceNodes(std::string_view text);

// One /etc/group line: "render:x:109:alice,bob".
struct GroupEntry {
  std::string name;
  uint32_t gid = 0;
  std::vector<std::string> members;
};

// Malformed lines are skipped (the file is advisory: it only names groups).
std::vector<GroupEntry> ParseEtcGroup(std::string_view text);

struct NodeOwnership {
  uint32_t mode = 0;  // 0777 mask
  std::optional<uint32_t> uid;
  uint32_t gid = 0;
};

// The verdict for one node. `owner` empty means the owner could not be learned ("not recorded").
DeviceNodeAccess JudgeDeviceNodeAccess(std::string path, bool exists,
                                       const std::optional<NodeOwnership>& owner, const UserIdentity& user,
                                       const std::vector<GroupEntry>& groups);

}  // namespace gpudoctor
