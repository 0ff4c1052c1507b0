// The Debian/Ubuntu package database (/var/lib/dpkg/status) as text: one paragraph per package, fields
// "Package:", "Status:", "Version:". Only what is installed counts ("Status: install ok installed"); a
// package removed but not purged keeps its paragraph with another status.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

struct DpkgPackage {
  std::string name;     // "nvidia-fabricmanager-570"
  std::string version;  // "570.124.06-1", as dpkg records it
  bool operator==(const DpkgPackage&) const = default;
};

// The installed packages of the status file's text, in file order. Malformed paragraphs are skipped.
std::vector<DpkgPackage> InstalledDpkgPackages(std::string_view status_text);

// The upstream part of a Debian version: without the epoch ("1:") and the Debian revision (after the
// last '-'): "570.124.06-0ubuntu0.22.04.1" -> "570.124.06".
std::string DebianUpstreamVersion(std::string_view version);

}  // namespace gpudoctor
