// POSIX: there is no live Windows to read; recorded Windows machines come from
// probe/windows/recorded_windows_source.cpp instead.
#include "platform/windows_system.h"

namespace gpudoctor {

std::unique_ptr<WindowsSystemSource> MakeLiveWindowsSystemSource() {
  return nullptr;
}

}  // namespace gpudoctor
