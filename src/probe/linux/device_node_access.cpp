// Parsers of the recorded device-node list and /etc/group, and the access verdict with its fix.
#include "probe/linux/device_node_access.h"

#include <algorithm>
#include <limits>

#include "core/strings.h"
#include "probe/linux/sysfs_reader.h"

namespace gpudoctor {
namespace {

std::optional<uint32_t> ParseId(std::string_view s) {
  auto v = ParseU64(s);
  if (!v || *v > std::numeric_limits<uint32_t>::max()) return std::nullopt;
  return static_cast<uint32_t>(*v);
}

std::string ModeText(uint32_t mode) {
  return "0" + std::to_string((mode >> 6) & 7) + std::to_string((mode >> 3) & 7) + std::to_string(mode & 7);
}

const GroupEntry* FindGroup(const std::vector<GroupEntry>& groups, uint32_t gid) {
  for (const auto& g : groups)
    if (g.gid == gid) return &g;
  return nullptr;
}

}  // namespace

const RecordedDeviceNode* RecordedDeviceNodes::Find(std::string_view path) const {
  for (const auto& n : nodes)
    if (n.path == path) return &n;
  return nullptr;
}

RecordedDeviceNodes ParseRecordedDeviceNodes(std::string_view text) {
  RecordedDeviceNodes out;
  size_t line_no = 0;
  for (auto line : SplitLines(text)) {
    ++line_no;
    std::string_view t = Trim(line);
    if (t.empty() || t.front() == '#') continue;
    std::vector<std::string_view> fields;
    for (auto f : Split(t, ' '))
      if (!Trim(f).empty()) fields.push_back(Trim(f));
    std::optional<uint64_t> mode;
    std::optional<uint32_t> uid, gid;
    if (fields.size() == 4) {
      mode = ParseU64(fields[1], 8);
      uid = ParseId(fields[2]);
      gid = ParseId(fields[3]);
    }
    if (fields.size() != 4 || fields[0].front() != '/' || !mode || *mode > 0177777 || !uid || !gid) {
      out.problems.push_back("line " + std::to_string(line_no) + ": not 'path mode uid gid' (" +
                             QuoteForWarning(t) + ")");
      continue;
    }
    out.nodes.push_back({std::string(fields[0]), static_cast<uint32_t>(*mode) & 0777u, *uid, *gid});
  }
  return out;
}

std::vector<GroupEntry> ParseEtcGroup(std::string_view text) {
  std::vector<GroupEntry> out;
  for (auto line : SplitLines(text)) {
    std::string_view t = Trim(line);
    if (t.empty() || t.front() == '#') continue;
    auto fields = Split(t, ':');
    if (fields.size() != 4 || fields[0].empty()) continue;
    auto gid = ParseId(fields[2]);
    if (!gid) continue;
    GroupEntry g{std::string(fields[0]), *gid, {}};
    if (!Trim(fields[3]).empty())
      for (auto m : Split(fields[3], ','))
        if (!Trim(m).empty()) g.members.emplace_back(Trim(m));
    out.push_back(std::move(g));
  }
  return out;
}

DeviceNodeAccess JudgeDeviceNodeAccess(std::string path, bool exists,
                                       const std::optional<NodeOwnership>& owner, const UserIdentity& user,
                                       const std::vector<GroupEntry>& groups) {
  DeviceNodeAccess a;
  a.path = std::move(path);
  a.exists = exists;
  if (!exists) {
    a.accessible = false;
    a.reason = "does not exist (is the amdgpu driver loaded?)";
    return a;
  }
  if (user.is_admin) {
    a.accessible = true;
    a.reason = "running as root";
    return a;
  }
  if (!owner) {
    a.reason = "not recorded";
    return a;
  }
  const GroupEntry* group = FindGroup(groups, owner->gid);
  if (group) a.group = group->name;
  const std::string gid_text = "gid " + std::to_string(owner->gid);
  const std::string group_text = group ? "group " + group->name + " (" + gid_text + ")" : "group " + gid_text;
  const std::string who = user.user_name.empty() ? std::string("this user") : "user " + user.user_name;

  if (user.uid && owner->uid && *user.uid == *owner->uid && (owner->mode & 0600) == 0600) {
    a.accessible = true;
    a.reason = "owned by " + who;
    return a;
  }
  bool member = std::find(user.group_ids.begin(), user.group_ids.end(), owner->gid) != user.group_ids.end() ||
                (group && std::find(user.group_names.begin(), user.group_names.end(), group->name) !=
                              user.group_names.end());
  if (member && (owner->mode & 060) == 060) {
    a.accessible = true;
    a.reason = "granted by " + group_text + ", which " + who + " is in";
    return a;
  }
  if ((owner->mode & 006) == 006) {
    a.accessible = true;
    a.reason = "read-write for everyone (mode " + ModeText(owner->mode) + ")";
    return a;
  }
  if (member) {
    a.accessible = false;
    a.reason = "owned by " + group_text + " with mode " + ModeText(owner->mode) +
               ": the group has no read-write access (check the udev rules)";
    return a;
  }
  if (!user.uid && user.group_ids.empty() && user.group_names.empty()) {
    a.reason = "owned by " + group_text + "; the user's groups are unknown";
    return a;
  }
  a.accessible = false;
  a.reason = "owned by " + group_text + "; " + who + " is not a member";
  std::string name = user.user_name.empty() ? std::string("$USER") : user.user_name;
  if (group) {
    bool listed =
        std::find(group->members.begin(), group->members.end(), user.user_name) != group->members.end();
    if (listed && !user.user_name.empty()) {
      a.reason +=
          " in this login session (/etc/group lists it): log out and back in, or run: newgrp " + group->name;
    } else {
      std::string add = (group->name == "render" || group->name == "video") ? "render,video" : group->name;
      a.reason += ": sudo usermod -aG " + add + " " + name;
    }
  } else {
    a.reason += ": add " + name + " to the group with " + gid_text;
  }
  return a;
}

}  // namespace gpudoctor
