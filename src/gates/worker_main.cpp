// The worker process (see worker_main.h): builds the backend the request names, runs the gate, prints the
// result. Anything that goes wrong before the gate runs is still a JSON result, so the parent always has a
// reason to show.
#include "gates/worker_main.h"

#include <exception>
#include <fstream>
#include <sstream>

#include "gates/gate_context.h"
#include "gates/worker_protocol.h"
#include "gpu/backend_inputs.h"

namespace gpudoctor {
namespace {

void Print(std::FILE* out, const GateResult& r) {
  std::string line = GateResultToJson(r) + "\n";
  std::fwrite(line.data(), 1, line.size(), out);
  std::fflush(out);
}

Result<std::string> ReadScript(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return UserError("cannot read the fake backend's script " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

int RunWorkerMode(const std::vector<std::string>& args, const Environment& env, std::FILE* out,
                  std::FILE* err) {
  if (args.size() < 2 || args[0] != kWorkerModeArg || args[1] != kWorkerVerifyGate) {
    std::fprintf(err, "gpudoctor worker: usage: __worker verify-gate GATE [options]\n");
    return 3;
  }
  auto request = ParseWorkerArguments(std::vector<std::string>(args.begin() + 2, args.end()));
  if (!request) {
    std::fprintf(err, "gpudoctor worker: %s\n", request.error().message.c_str());
    return 3;
  }
  const char* gate_name = SpecOf(request->gate).name;
  auto fs = MakeRootedFileSystem("/");
  BackendInputs inputs;
  inputs.fs = fs.get();
  inputs.env = env;
  inputs.site_packages = FindSitePackages(*fs, env);
  inputs.arch_by_pci = request->arch_by_pci;
  if (request->backend == BackendKind::kFake) {
    auto script = ReadScript(request->fake_script_path);
    if (!script) {
      Print(out, FailedGate(gate_name, script.error()));
      return 0;
    }
    inputs.fake_script = *script;
  }
  auto backend = MakeBackend(request->backend, inputs);
  if (!backend) {
    Print(out, FailedGate(gate_name, backend.error()));
    return 0;
  }
  GateContext ctx{**backend, request->options, err};
  GateResult result;
  try {
    result = RunGate(request->gate, ctx);
  } catch (const std::exception& e) {
    result = FailedGate(gate_name, InternalError(std::string("gate raised an exception: ") + e.what()));
  }
  Print(out, result);
  return 0;
}

}  // namespace gpudoctor
