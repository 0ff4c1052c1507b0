// A library the probes read in pieces (a torch_cuda.dll or libtorch_hip.so can weigh gigabytes), written
// into a recording as a file of its original size that holds exactly those pieces, so the readers find
// the same headers, section tables and GPU code at the same offsets on replay. Used by both gather
// writers (Linux and Windows).
#pragma once

#include <filesystem>
#include <string_view>

#include "core/result.h"
#include "gather/recording_filesystem.h"

namespace gpudoctor {

// Writes `path` (which must not exist) with the recorded size, `file`'s pieces at their offsets and
// `head` (a whole read of the file's start, "" when none) at offset 0; the rest reads as zeros (a hole
// where the file system keeps them).
Status WritePiecesFile(const std::filesystem::path& path, const RecordedPieces& file, std::string_view head);

}  // namespace gpudoctor
