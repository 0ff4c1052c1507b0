// Probe: the Python environments a user is likely to run and what each holds for GPU work — PyTorch
// with the GPU code compiled into it, torchvision, torchaudio, TensorFlow, JAX, ONNX Runtime,
// bitsandbytes, the ROCm SDK wheels — found from files alone, so `check` never starts Python
// (`check --live` does, through python_live.h).
#pragma once

#include <vector>

#include "probe/common/python_env_finder.h"
#include "probe/common/python_text_files.h"
#include "probe/probe_context.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

// Fills snapshot.python_envs from python_env_finder.h's folders, in that order. An environment is
// listed when it holds a framework, or is active (VIRTUAL_ENV, CONDA_PREFIX), named with
// --python-env, or a venv or conda environment whose python is on PATH. Appends each folder examined
// to snapshot.looked_at and unreadable or damaged files to snapshot.warnings. On Windows (the snapshot's
// OS family) paths are Windows paths and `installs` (the registry's and the installers' places) are
// looked at after the places every OS has.
void ProbePythonEnvs(const ProbeContext& ctx, Snapshot& snapshot, std::vector<PythonCandidate> installs = {});

}  // namespace gpudoctor
