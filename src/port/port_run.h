// One run of `gpudoctor port` over a file or a folder: finds the sources and build files, translates the
// sources on several threads (the report and the output do not depend on how many), and writes the results
// through the caller's file functions (whole files only: a temporary, then a rename).
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "core/result.h"
#include "port/port_map.h"
#include "port/port_types.h"
#include "port/translator.h"

namespace gpudoctor {

struct PortJob {
  std::string input;   // a file or a folder
  std::string output;  // -o: a file for a file, a folder for a folder; empty: stdout (a file only)
  bool in_place = false;
  bool backup = false;  // with in_place: FILE.orig keeps the original
  bool examine = false;
  bool force = false;          // replace existing output files
  bool skip_existing = false;  // -o: keep an output file that exists (an earlier, interrupted run wrote it)
  unsigned threads = 0;        // 0: one per core
  PortOptions options;
};

struct PortIo {
  std::function<Result<std::string>(const std::string& path)> read;
  // Writes the whole text or nothing; refuses to replace an existing file unless `overwrite`.
  std::function<Status(const std::string& path, const std::string& text, bool overwrite)> write;
  // The entries of one folder of the input; empty: the folder on disk. A folder it cannot list is reported
  // as a file that could not be read, and the rest of the input is ported.
  std::function<Result<std::vector<std::filesystem::directory_entry>>(const std::string& folder)> list;
  // Asked before each file is read and before each is written; true (Ctrl-C, SIGTERM) stops the run there,
  // with the report of the files done and `interrupted` set. Empty: never stopped.
  std::function<bool()> stop_requested;
};

struct PortRunResult {
  PortReport report;
  std::string translation;  // a single file without -o, --in-place or --examine: the text for stdout
};

// True for the file names translated as CUDA/C++ sources (.cu, .cuh, .cpp, .h, ...).
bool IsPortSourceName(std::string_view file_name);

// Errors: the input does not exist, a folder without -o/--in-place/--examine, -o naming the input folder,
// a write that failed. An output folder inside the input is left out of the walk (said once in `notes`).
// A file that cannot be read or lexed is not an error of the run: it is reported in its PortFileReport.
Result<PortRunResult> RunPort(const PortJob& job, const PortMap& map, const PortIo& io);

// The translation of each text by `threads` threads, in the order given.
std::vector<Result<Translation>> TranslateAll(const std::vector<std::string>& texts, const PortMap& map,
                                              const PortOptions& options, unsigned threads);

}  // namespace gpudoctor
