// What `gpudoctor check` concluded about one machine, as a document: the findings (worst first) with their
// fixes, the shell the fixes are written for, the knowledge base it judged with, and a short summary of the
// machine it is about. Its JSON (`check --json`, schema "gpudoctor.check/1") is report/check_json.h's one
// codec; `fleet merge` reads it back with the same codec.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rules/finding.h"
#include "rules/knowledge_age.h"
#include "rules/shell.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

// The few facts of the Snapshot a reader of `check --json` needs to know which machine it is.
struct CheckMachineGpu {
  std::string pci_address;
  GpuVendor vendor = GpuVendor::kUnknown;
  std::string name;
  std::string architecture;
  std::optional<bool> integrated;
  std::string driver;
};

struct CheckMachineTorch {
  std::string site_packages;
  std::string version;
  std::string cuda;  // "" when none
  std::string hip;
};

struct CheckMachine {
  std::string host_name;
  std::string sysroot;
  bool live_machine = false;
  OsFamily os_family = OsFamily::kUnknown;
  std::string distro_name;
  std::string kernel_release;
  bool wsl = false;
  std::vector<CheckMachineGpu> gpus;
  std::vector<CheckMachineTorch> torch;  // one per Python environment with torch
  std::optional<std::string> nvidia_driver;
};

struct CheckReport {
  std::string tool_version;
  int exit_code = 0;  // 0 no warning or error, 1 warnings, 2 errors
  Shell shell = Shell::kBash;
  CheckMachine machine;
  KnowledgeStamp knowledge;
  std::vector<Finding> findings;  // worst first
  std::vector<std::string> warnings;
};

// The report of `findings` (any order; sorted worst first) on `snapshot`.
CheckReport MakeCheckReport(const Snapshot& snapshot, std::vector<Finding> findings, Shell shell,
                            int exit_code, const KnowledgeStamp& knowledge);

}  // namespace gpudoctor
