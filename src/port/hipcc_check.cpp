// Finding hipcc and compiling the translated files with it (hipcc_check.h).
#include "port/hipcc_check.h"

#include <chrono>
#include <regex>

namespace gpudoctor {
namespace {

#ifdef _WIN32
constexpr const char* kNullDevice = "NUL";
#else
constexpr const char* kNullDevice = "/dev/null";
#endif

std::string JoinPath(const std::string& dir, const std::string& name) {
  if (dir.empty()) return name;
  return dir.back() == '/' ? dir + name : dir + "/" + name;
}

// The compiler's first error line ("file:12:3: error: ..."), else its first line, else the exit status.
std::string FirstError(const ProcessResult& r) {
  std::string_view text =
      r.stderr_text.empty() ? std::string_view(r.stdout_text) : std::string_view(r.stderr_text);
  std::string_view first;
  for (size_t at = 0; at < text.size();) {
    size_t end = text.find('\n', at);
    std::string_view line =
        text.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
    if (first.empty() && !line.empty()) first = line;
    if (line.find("error:") != std::string_view::npos) return std::string(line.substr(0, 400));
    if (end == std::string_view::npos) break;
    at = end + 1;
  }
  if (r.timed_out) return "hipcc ran past its time limit";
  if (!first.empty()) return std::string(first.substr(0, 400));
  if (r.term_signal) return "hipcc ended by signal " + std::to_string(*r.term_signal);
  return "hipcc exited with " + std::to_string(r.exit_code.value_or(-1));
}

}  // namespace

std::optional<Version> ParseHipVersionHeader(std::string_view text) {
  static const std::regex kDefine(R"(#define[ \t]+HIP_VERSION_(MAJOR|MINOR|PATCH)[ \t]+([0-9]{1,9})\b)");
  std::string major, minor, patch;
  const std::string owned(text.substr(0, 64 * 1024));  // the header is a few hundred bytes
  for (std::sregex_iterator it(owned.begin(), owned.end(), kDefine), end; it != end; ++it) {
    const std::string part = (*it)[1].str();
    (part == "MAJOR" ? major : part == "MINOR" ? minor : patch) = (*it)[2].str();
  }
  if (major.empty() || minor.empty()) return std::nullopt;
  return Version::Parse(major + "." + minor + (patch.empty() ? "" : "." + patch));
}

std::string HipVersionHeaderOf(const std::string& hipcc) {
  const size_t slash = hipcc.find_last_of("/\\");
  const std::string bin = slash == std::string::npos ? "." : hipcc.substr(0, slash);
  const size_t up = bin.find_last_of("/\\");
  const std::string root = up == std::string::npos ? "." : bin.substr(0, up);
  return root + "/include/hip/hip_version.h";
}

Result<std::string> FindHipcc(const HipccSearch& search) {
  std::vector<std::string> dirs;
  for (size_t at = 0; at <= search.path_env.size();) {
    size_t end = search.path_env.find(search.list_separator, at);
    if (end == std::string::npos) end = search.path_env.size();
    if (end > at) dirs.push_back(search.path_env.substr(at, end - at));
    at = end + 1;
  }
  if (!search.hip_path.empty()) dirs.push_back(JoinPath(search.hip_path, "bin"));
  if (!search.rocm_path.empty()) dirs.push_back(JoinPath(search.rocm_path, "bin"));
  dirs.push_back("/opt/rocm/bin");
  dirs.push_back("/usr/bin");
  for (const std::string& d : dirs)
    if (std::string p = JoinPath(d, "hipcc"); search.is_file && search.is_file(p)) return p;
  return UserError("--check-build: no hipcc in PATH, HIP_PATH/bin, ROCM_PATH/bin, /opt/rocm/bin or /usr/bin",
                   "install hipcc (Debian: apt install hipcc) or set HIP_PATH to the HIP install");
}

bool IsCompiledSourceName(std::string_view name) {
  for (std::string_view ext : {".cu", ".cpp", ".cc", ".cxx", ".hip"})
    if (name.size() > ext.size() && name.substr(name.size() - ext.size()) == ext) return true;
  return false;
}

void CheckBuild(const BuildCheckRequest& request, const PortProcessRunner& run, PortReport& report) {
  PortBuildCheck check;
  check.hipcc = request.hipcc;
  check.offload_arch = request.offload_arch;
  for (PortFileReport& f : report.files) {
    const std::string target = !f.output.empty() ? f.output : request.in_place ? f.path : "";
    if (!f.error.empty() || f.build_file || target.empty() || !IsCompiledSourceName(target)) continue;
    ProcessRequest r;
    r.argv = {request.hipcc, "-c", "--offload-arch=" + request.offload_arch};
    for (const std::string& dir : request.include_dirs) r.argv.push_back("-I" + dir);
    if (!request.temp_dir.empty())
      for (const char* name : {"TMPDIR", "TMP", "TEMP"}) r.extra_env[name] = request.temp_dir;
    r.argv.insert(r.argv.end(), {target, "-o", kNullDevice});
    r.timeout = std::chrono::seconds(300);
    auto result = run(r);
    PortFileBuild build;
    build.compiled = result.ok() && !result->timed_out && result->exit_code && *result->exit_code == 0;
    if (!result.ok())
      build.first_error = "hipcc could not be started: " + result.error().message;
    else if (!build.compiled)
      build.first_error = FirstError(*result);
    ++check.files;
    check.compiled += build.compiled ? 1 : 0;
    f.build = std::move(build);
  }
  report.build_check = std::move(check);
}

}  // namespace gpudoctor
