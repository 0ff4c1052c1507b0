// POSIX: the user running the tool and their groups (getuid, getgroups, getgrgid).
#include <grp.h>
#include <pwd.h>
#include <unistd.h>

#include <vector>

#include "platform/identity.h"

namespace gpudoctor {

UserIdentity CurrentUserIdentity() {
  UserIdentity id;
  uid_t uid = ::getuid();
  id.uid = static_cast<uint32_t>(uid);
  id.is_admin = (::geteuid() == 0);
  if (const passwd* pw = ::getpwuid(uid)) id.user_name = pw->pw_name;
  int n = ::getgroups(0, nullptr);
  std::vector<gid_t> groups(n > 0 ? static_cast<size_t>(n) : 0);
  if (n > 0) n = ::getgroups(n, groups.data());
  groups.resize(n > 0 ? static_cast<size_t>(n) : 0);
  gid_t primary = ::getgid();
  bool has_primary = false;
  for (gid_t g : groups) has_primary |= (g == primary);
  if (!has_primary) groups.push_back(primary);
  for (gid_t g : groups) {
    id.group_ids.push_back(static_cast<uint32_t>(g));
    const group* gr = ::getgrgid(g);
    id.group_names.push_back(gr ? gr->gr_name : std::to_string(g));
  }
  return id;
}

}  // namespace gpudoctor
