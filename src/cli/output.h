// Writing results: stdout carries data only, diagnostics go to stderr, a closed
// pipe ends quietly, and files are written whole or not at all.
#pragma once

#include <cstdio>
#include <string>

#include "core/result.h"

namespace gpudoctor {

// Writes all of `text`; false if the reader went away (broken pipe) or the write failed.
bool WriteAll(std::FILE* stream, const std::string& text);

// Writes `text` to `path` through a temporary file and a rename. Refuses to
// replace an existing file unless `overwrite` is set.
Status WriteFileAtomically(const std::string& path, const std::string& text, bool overwrite);

// Whether WriteFileAtomically(path, ...) could create its temporary, asked before minutes of work (`tune
// --apply`): the folder exists and a uniquely named probe file can be created in it (then removed, so
// nothing is left behind). The Error has the words the late failure would have had.
Status CheckCanCreate(const std::string& path);

// "error: <message>" and "hint: <hint>" lines on stderr; returns kExitToolFailed.
int ReportError(std::FILE* err, const Error& error);

}  // namespace gpudoctor
