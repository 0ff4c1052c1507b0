// How this machine installs or upgrades the NVIDIA driver: the one answer that check's fixes (a driver
// missing or too old) and setup's driver step both give. The distribution's own commands come from
// data/cuda_drivers.toml [[nvidia_driver_install]] (by os-release ID, then ID_LIKE, else the "*" row);
// two cases the knowledge base derives come first: a GPU whose architecture a driver branch is the last
// for (Pascal: R580) stays on that branch, and on Debian a GPU only the open kernel modules drive
// (Blackwell) needs NVIDIA's CUDA repository, since Debian's own packages are older than its first branch.
// Windows gets NVIDIA's driver page.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rules/finding.h"
#include "rules/rule_context.h"

namespace gpudoctor {

// An NVIDIA GPU whose architecture a driver branch is the last for (Pascal: R580), with that branch.
struct LastBranch {
  const NvidiaDriverBranch* branch = nullptr;
  const GpuView* gpu = nullptr;
  std::string architecture;  // "Pascal"
  uint32_t number = 0;       // 580
};
std::optional<LastBranch> LastBranchOf(const RuleContext& ctx);

// The first NVIDIA GPU whose architecture only the open kernel modules drive (Blackwell), with that rule.
struct OpenModulesGpu {
  const GpuView* gpu = nullptr;
  const NvidiaOpenModulesOnly* only = nullptr;
};
std::optional<OpenModulesGpu> OpenModulesOnlyGpu(const RuleContext& ctx);

// The newest driver of `last`'s branch, since a plain upgrade would leave the GPU behind (no reboot line).
std::vector<FixAction> BranchDriverInstall(const RuleContext& ctx, const LastBranch& last);

// Debian: the open kernel modules from NVIDIA's CUDA repository for Debian (no reboot line).
std::vector<FixAction> DebianNvidiaRepoOpen(const RuleContext& ctx, const NvidiaOpenModulesOnly& only);

// The distribution's way from the proprietary kernel modules to the open ones of `branch` ("570"): its
// [[nvidia_driver_install]] row's open_lines, else the "*" row's (no reboot line).
std::vector<FixAction> OpenModulesInstall(const RuleContext& ctx, const std::string& branch);

struct NvidiaDriverInstallSteps {
  std::string where;               // "on Fedora (RPM Fusion)", "within the R580 branch (...)"; "" on Windows
  std::vector<FixAction> actions;  // in order, without the reboot that follows them
  std::string link;                // the page the steps follow; "" for the last-branch case (its citation)
  std::optional<LastBranch> last;  // set when the GPU's last driver branch bounds the install
};

NvidiaDriverInstallSteps NvidiaDriverInstallFor(const RuleContext& ctx);

// Each action as one line: a command's bash text, an instruction's words.
std::vector<std::string> ActionLines(const std::vector<FixAction>& actions);

}  // namespace gpudoctor
