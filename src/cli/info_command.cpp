// `gpudoctor info`: what is on this machine, from the hardware up.
#include "cli/info_command.h"

#include "cli/output.h"
#include "knowledge/knowledge_loader.h"
#include "report/info_text.h"
#include "snapshot/snapshot_json.h"

namespace gpudoctor {

std::string InfoCommand::Description() const {
  return "Show what is on this machine: OS, CPU, memory, disk, every GPU on the PCI bus with its "
         "architecture (gfx target or compute capability), drivers, GPU runtimes, the environment "
         "variables that matter, and the Python environments with the frameworks in them (PyTorch and the "
         "GPU code compiled into it, torchvision, TensorFlow, JAX, ONNX Runtime, ...), read from files "
         "without starting Python. Needs no GPU software installed.\n\n"
         "Examples:\n"
         "  gpudoctor info                      this machine, as text\n"
         "  gpudoctor info --json               the snapshot as JSON (schema: docs/snapshot-schema.md)\n"
         "  gpudoctor info --save snap.json     also save the snapshot, to attach to a bug report\n"
         "  gpudoctor info --from snap.json     show a snapshot saved on another machine\n"
         "  gpudoctor info --sysroot ./machine  read a machine recorded with `gpudoctor gather`\n"
         "  gpudoctor info --python-env ~/sd/venv   also look at the Python environment in ~/sd/venv";
}

void InfoCommand::DefineFlags(FlagSet& flags) {
  flags.Bool("--json", &json_, "Print the snapshot as JSON instead of text.");
  flags.String("--save", &save_, "FILE",
               "Also write the snapshot as JSON to FILE (never overwrites; see --force).");
  flags.Bool("--force", &force_, "Let --save replace an existing file.");
  source_.Define(flags);
  source_.DefinePythonEnvs(flags);
}

int InfoCommand::Run(const CliContext& ctx) {
  // The built-in knowledge base names GPUs the machine's own name files do not know.
  auto db = LoadEmbeddedKnowledge();
  auto snap = source_.Acquire(ctx, db.ok() ? &db.value() : nullptr);
  if (!snap.ok()) return ReportError(ctx.err, snap.error());
  if (!db.ok()) snap->warnings.push_back("built-in knowledge base unusable: " + db.error().message);
  if (!save_.empty()) {
    auto st = WriteFileAtomically(save_, SnapshotToJson(*snap), force_);
    if (!st.ok()) return ReportError(ctx.err, st.error());
    WriteAll(ctx.err, "snapshot saved to " + save_ + "\n");
  }
  TextStyle style;
  style.color = ctx.stdout_is_tty && !ctx.env.Has("NO_COLOR");
  std::string text = json_ ? SnapshotToJson(*snap) : RenderInfoText(*snap, style);
  if (!json_ && db.ok() && !db->AsOf().empty())
    text += "\nKnowledge base\n  As of  " + db->AsOf() + " (" + db->origin + ")\n";
  WriteAll(ctx.out, text);
  return kExitOk;
}

}  // namespace gpudoctor
