// Finds Python environments (python_env_finder.h) and reads what each site-packages folder holds
// (framework_scan.h) and the project files that pin their GPU packages (project_probe.h): no interpreter is
// started (importing torch takes seconds; knowledge-facts 4.4 describes torch/version.py). Every path goes
// through the sysroot's FileSystem.
#include "probe/common/python_probe.h"

#include "probe/common/framework_scan.h"
#include "probe/common/project_probe.h"
#include "probe/common/python_env_finder.h"

namespace gpudoctor {

void ProbePythonEnvs(const ProbeContext& ctx, Snapshot& snap, std::vector<PythonCandidate> installs) {
  PythonSearch search;
  search.given = ctx.python_env_dirs;
  search.cwd = ctx.cwd;
  search.windows = snap.os.family == OsFamily::kWindows;
  search.installs = std::move(installs);
  for (PythonSite& site : FindPythonSites(ctx, search, snap.warnings)) {
    snap.looked_at.push_back(site.site_packages + " (Python packages)");
    SitePackagesContents contents = ScanSitePackages(ctx.fs, site.site_packages, snap.warnings);
    const bool holds = contents.torch.has_value() || !contents.frameworks.empty();
    const bool env_on_path = site.on_path && (site.kind == "venv" || site.kind == "conda");
    if (!holds && !site.active && !site.given && !env_on_path) continue;
    PythonEnv env;
    env.path = site.prefix;
    env.kind = site.kind;
    env.python_version = site.python_version;
    env.site_packages = site.site_packages;
    env.torch = std::move(contents.torch);
    env.interpreter = site.interpreter;
    env.python_version_source = site.python_version_source;
    env.found_by = site.found_by;
    env.active = site.active;
    env.frameworks = std::move(contents.frameworks);
    env.gpu_libraries = std::move(contents.gpu_libraries);
    snap.python_envs.push_back(std::move(env));
  }
  ProbeProjects(ctx, snap);
}

}  // namespace gpudoctor
