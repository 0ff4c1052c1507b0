// A WindowsSystemSource that answers from the files `gather` recorded under /.gpudoctor/windows/ of a
// sysroot (formats: recorded_windows_json.h), so a Windows machine replays on any OS.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "platform/filesystem.h"
#include "platform/windows_system.h"

namespace gpudoctor {

// True when `fs` holds a recorded Windows machine (/.gpudoctor/windows/os.json).
bool HasRecordedWindows(const FileSystem& fs);

// Reads every recorded file once. A missing or malformed file leaves its part empty and adds one line
// to `warnings`; the source itself is always returned.
std::unique_ptr<WindowsSystemSource> LoadRecordedWindowsSource(const FileSystem& fs,
                                                               std::vector<std::string>& warnings);

}  // namespace gpudoctor
