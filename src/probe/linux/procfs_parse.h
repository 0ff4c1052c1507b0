// Pure parsers for the Linux text files the OS and NVIDIA probes read (os-release, /proc/cpuinfo,
// /proc/meminfo, /proc/version, /proc/1/cgroup, /proc/driver/nvidia/version): no I/O, so they are fuzzed
// directly.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

// The os-release keys gpudoctor uses (freedesktop os-release(5): KEY=VALUE, values optionally quoted).
struct OsRelease {
  std::string id;                    // ID
  std::string pretty_name;           // PRETTY_NAME (NAME when PRETTY_NAME is absent)
  std::string version_id;            // VERSION_ID
  std::vector<std::string> id_like;  // ID_LIKE, split at blanks: "ubuntu debian" for Linux Mint
};

// Fails when the text holds none of ID, PRETTY_NAME, NAME.
Result<OsRelease> ParseOsRelease(std::string_view text);

// One os-release value with its quoting removed: "\"Debian GNU/Linux 12\"" -> "Debian GNU/Linux 12".
std::string UnquoteOsReleaseValue(std::string_view raw);

struct CpuSummary {
  std::string model;  // first "model name"
  uint32_t logical_cores = 0;
  std::optional<uint32_t>
      physical_cores;               // distinct (physical id, core id) pairs, when every processor names them
  std::optional<uint32_t> sockets;  // distinct physical ids, likewise
};

// Fails when no "processor" entry is found.
Result<CpuSummary> ParseCpuInfo(std::string_view text);

struct MemSummary {
  uint64_t total_bytes = 0;
  std::optional<uint64_t> available_bytes;
};

// Fails when MemTotal is missing or not a number of kB.
Result<MemSummary> ParseMemInfo(std::string_view text);

// The kernel module version from /proc/driver/nvidia/version ("580.159.03").
Result<std::string> ParseNvidiaProcVersion(std::string_view text);

// The module's flavour from the same line: "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64 ..."
// is the open one, "NVRM version: NVIDIA UNIX x86_64 Kernel Module ..." (or aarch64) the proprietary one
// (the driver README's chapter "Open Linux Kernel Modules" shows both). kUnknown when there is no such line.
NvidiaKernelModule NvidiaKernelModuleFromProcVersion(std::string_view text);

// True when /proc/version names a WSL kernel ("microsoft" or "WSL", any case).
bool KernelVersionTextMentionsWsl(std::string_view proc_version);

// The release field of /proc/version ("Linux version 6.8.0-45-generic (...) ..." -> "6.8.0-45-generic").
std::optional<std::string> KernelReleaseFromVersionText(std::string_view proc_version);

// The container runtime that /proc/1/cgroup names ("docker", "kubernetes", "lxc"), if any.
std::optional<std::string> ContainerFromCgroup(std::string_view cgroup_text);

// True for a plausible dotted version: "580.65.06", "6.2.4-120", "12.4.131"; at most 64 characters.
bool LooksLikeVersion(std::string_view s);

}  // namespace gpudoctor
