// Ends a child's whole process group when this process dies abruptly (issue 35, grandchildren).
// SIGKILL runs no handler, and PR_SET_PDEATHSIG reaches only the direct child, so a child's own
// children (Python's multiprocessing workers, a compiler's jobs) would run on with PPID 1.
//
// The reaper is a small process forked from this one, never exec'ed, that joins the child's group
// and blocks reading a pipe whose only write end this process holds. However this process ends,
// the kernel closes that end: the read returns end-of-file and the reaper kills the group, itself
// included. While the reaper is in the group, the group's id cannot be given to another process.
// When the child's run ends in this process (normally, by its timeout or a forwarded signal),
// Dismiss kills the reaper alone and reaps it, so nothing else is touched.
#pragma once

#include <sys/types.h>

#include "core/result.h"

namespace gpudoctor {

class GroupReaper {
 public:
  GroupReaper() = default;
  GroupReaper(const GroupReaper&) = delete;
  GroupReaper& operator=(const GroupReaper&) = delete;
  ~GroupReaper() { Dismiss(); }

  // Starts the reaper of the group `group`, which must exist (its leader is this process's child,
  // not yet reaped). An error when the pipe or the process cannot be made.
  Status Start(pid_t group);

  // Kills and reaps the reaper, then closes the pipe; nothing when none runs.
  void Dismiss();

 private:
  pid_t pid_ = -1;
  int write_fd_ = -1;
};

}  // namespace gpudoctor
