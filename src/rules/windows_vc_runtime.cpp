// Native Windows: the Visual C++ 2015-2022 runtime that torch's own DLLs (c10.dll, torch_cpu.dll) load
// from System32 — vcruntime140.dll, vcruntime140_1.dll and msvcp140.dll. Without one of them `import
// torch` fails with WinError 126 naming c10.dll; python.org's installer brings only the first two, so
// the Redistributable is the fix. A conda environment carries its own copy (the vc14_runtime package)
// beside its python.exe, so there a missing System32 copy is only a note.
#include <algorithm>

#include "core/strings.h"
#include "rules/rule_context.h"
#include "rules/rules.h"

namespace gpudoctor {
namespace {

constexpr const char* kRuntimeDlls[] = {"vcruntime140.dll", "vcruntime140_1.dll", "msvcp140.dll"};
constexpr const char* kRedistSource = "https://learn.microsoft.com/cpp/windows/latest-supported-vc-redist";
// c10.dll needs msvcp140.dll, which a Store or python.org Python lacks; the Redistributable fixed it.
constexpr const char* kMissingSource = "https://github.com/pytorch/pytorch/issues/39734";
constexpr const char* kRedistDownload = "https://aka.ms/vs/17/release/vc_redist.x64.exe";

// The recorded runtime DLL named `dll` ("msvcp140.dll"), or null.
const RuntimeInstall* RuntimeDll(const RuleContext& ctx, const std::string& dll) {
  for (const auto& r : ctx.snap.runtimes) {
    if (r.kind == "vc-runtime" && EndsWith(ToLower(r.path), "\\" + dll)) return &r;
  }
  return nullptr;
}

void Missing(const std::vector<std::string>& missing, const std::vector<std::string>& found, bool all_conda,
             std::vector<Finding>& out) {
  Finding f = MakeFinding(
      "windows.vc_runtime_missing", Layer::kRuntime, all_conda ? Severity::kInfo : Severity::kError,
      "System32", "The Visual C++ 2015-2022 runtime that torch loads is missing: " + JoinList(missing));
  f.evidence.push_back(
      "required vcruntime140.dll, vcruntime140_1.dll and msvcp140.dll in System32 (torch's "
      "c10.dll and torch_cpu.dll load them), found " +
      (found.empty() ? std::string("none") : JoinList(found)));
  if (all_conda) {
    f.evidence.push_back(
        "torch is only in conda environments, which carry their own copy beside python.exe "
        "(vc14_runtime): a Python outside conda would fail to import torch");
  } else {
    f.evidence.push_back(
        "without it `import torch` fails: [WinError 126] Error loading c10.dll or one of its "
        "dependencies");
  }
  f.fix_summary = "install the Visual C++ Redistributable 2015-2022 (x64), then open a new shell";
  f.fix.push_back(FixAction::PerShell({"", "winget install -e --id Microsoft.VCRedist.2015+.x64",
                                       "winget install -e --id Microsoft.VCRedist.2015+.x64"}));
  f.fix.push_back(FixAction::Manual(std::string("or download and run ") + kRedistDownload));
  f.link = kMissingSource;
  out.push_back(std::move(f));
}

}  // namespace

std::vector<Finding> WindowsVcRuntimeRules(const RuleContext& ctx) {
  std::vector<Finding> out;
  if (ctx.platform != Platform::kWindows) return out;
  const auto& envs = ctx.snap.python_envs;
  const bool torch =
      std::any_of(envs.begin(), envs.end(), [](const PythonEnv& e) { return e.torch.has_value(); });
  if (!torch) return out;
  const bool all_conda =
      std::all_of(envs.begin(), envs.end(), [](const PythonEnv& e) { return !e.torch || e.kind == "conda"; });
  std::vector<std::string> missing, found;
  for (const char* dll : kRuntimeDlls) {
    const RuntimeInstall* r = RuntimeDll(ctx, dll);
    if (!r) {
      missing.push_back(dll);
    } else {
      found.push_back(std::string(dll) + (r->version.empty() ? "" : " " + r->version));
    }
  }
  if (!missing.empty()) {
    Missing(missing, found, all_conda, out);
    return out;
  }
  Finding f = MakeFinding("windows.vc_runtime", Layer::kRuntime, Severity::kOk, "System32",
                          "The Visual C++ 2015-2022 runtime torch loads is installed");
  f.evidence.push_back("found " + JoinList(found));
  f.link = kRedistSource;
  out.push_back(std::move(f));
  return out;
}

}  // namespace gpudoctor
