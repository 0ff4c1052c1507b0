// What a log says about the machine it came from: GPU names, gfx/sm targets, PCI ids, driver, ROCm,
// CUDA, torch and Python versions, OS and kernel, WSL/container/portable markers and the application,
// each with the first line that states it. Found in the scanner's one pass (the fact patterns ride in
// the same literal automaton as the catalog); explain uses them to tell whose facts it shows.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "explain/explain_catalog.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

struct LogFact {
  std::string kind;     // "gpu", "gfx", "sm", "pci_id", "driver", "rocm", "cuda", "torch", "python", "os",
                        // "override", "kernel", "wsl", "container", "conda", "portable", "zluda", "package",
                        // "app", "nvcc", "xformers", "flash_attn", "vllm", "onnxruntime", "tensorflow"
  std::string value;    // "Radeon RX 6600", "gfx1032", "2.7.1+cu128", "yes"
  uint64_t line = 0;    // 1-based line that first states it
  std::string excerpt;  // that line (window), printable
  GpuVendor vendor = GpuVendor::kUnknown;  // a "gpu" fact's maker, when its pattern or its words say
};

// One way a fact is written: the regex's `v` capture is the value, or `value` when it is fixed.
struct LogFactPattern {
  std::string kind;
  ExplainPattern pattern;
  std::string value;
  GpuVendor vendor = GpuVendor::kUnknown;  // the maker of every GPU it names; kUnknown for a pattern naming
                                           // any device (rocminfo's "Marketing Name:" also names CPUs)
};

// The built-in table, compiled once; LogFactRowCount() is the number of rows written (tests check that
// every row compiled).
const std::vector<LogFactPattern>& LogFactPatterns();
size_t LogFactRowCount();

// The maker of the GPU `value`, found by `p`: the pattern's own, or for a pattern naming any device, that
// of the GPU patterns whose prefilter word the value holds ("Navi 10 [Radeon RX 5600]" -> AMD, "AMD Ryzen 9
// 7950X" -> kUnknown). kUnknown for the facts of other kinds.
GpuVendor LogGpuVendor(const LogFactPattern& p, std::string_view value);

// The first value the log states for a fact kind ("torch" -> "2.7.1+cu128"), "" when it states none.
std::string LogFactValue(const std::vector<LogFact>& facts, std::string_view kind);

// At most this many distinct values per kind are kept (a log of a 64-GPU job names many GPUs).
inline constexpr size_t kMaxLogFactValuesPerKind = 8;

// Whether the log comes from another machine than `snap`: it runs another OS than the snapshot's, or it
// names GPUs or targets (gpu, gfx, sm) none of which is the snapshot's. `reason` says which.
struct LogMachineCheck {
  bool other_machine = false;
  std::string reason;
};
LogMachineCheck CompareLogWithMachine(const std::vector<LogFact>& facts, const Snapshot& snap);

// Whether the log shows it comes from Windows (a Windows path, a portable install): fixes then show
// PowerShell.
bool LogSaysWindows(const std::vector<LogFact>& facts);

}  // namespace gpudoctor
