// A fix that reinstalls a package the user's project pins lasts only until the next `pip install -r
// requirements.txt`, `uv sync`, `poetry install` or `conda env update`. Given what a fix installs, this
// names each pin that would put the old build back (an evidence line with file:line and the pinned text),
// puts a first step to edit that line, and in a uv, poetry or conda project runs the project's own tool
// instead of pip. An environment without pins (PythonEnv::project) leaves the finding as it was.
#pragma once

#include <string>
#include <vector>

#include "rules/finding.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

// What a fix installs (or removes) of one package.
struct FixInstall {
  std::string package;    // PEP 503 name: "torch"
  std::string write;      // the requirement a pin should say instead: "torch", "bitsandbytes"; "" removes it
  std::string index_url;  // the index the fix installs from ("" for PyPI)
  std::string variant;    // the local version tag it installs ("rocm7.14", "cu126"); "" when none is known
  std::string version;    // the version it installs ("0.0.29.post3", a series "0.22.*"); "" for the newest
};

// `wanted` says what the fix installs, for the evidence: "a torch from the rocm7.14 index".
void ApplyProjectPins(const PythonEnv* env, const std::vector<FixInstall>& installs,
                      const std::string& wanted, Finding& f);

// The URL after --index-url (else --extra-index-url) in a command line; "" when none.
std::string IndexUrlOf(const std::string& command);

// Whether `pin` would put back what `install` replaces: it removes the package, the pin names another
// index, another local build (+cpu), a URL or conda's cpuonly, or an exact version or upper bound the
// install does not meet.
bool PinInTheWay(const ProjectPin& pin, const FixInstall& install);

}  // namespace gpudoctor
