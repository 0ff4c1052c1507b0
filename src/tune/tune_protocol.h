// The lines `gpudoctor tune`'s framework child (data/tune/tune_child.py) writes on stdout, read into
// plain structs. The reader is pure and tolerant: a line that is not one of the protocol's JSON objects
// is counted and skipped, a field of the wrong type is left unset, and nothing the child prints can
// make it throw (fuzz/tune_protocol_fuzz.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpudoctor {

// "hello": what the child found before measuring anything.
struct TuneHello {
  std::string torch_version;
  std::string torchvision_version;  // "" when torchvision is missing
  std::string backend;              // "cuda", "rocm", "cpu"
  std::string device;               // "NVIDIA H200"
  bool bf16 = false;
  std::string size;  // "full", "quick", "tiny"
  uint32_t warmup_steps = 0;
  uint32_t timed_steps = 0;
  uint32_t image_side = 0;
  uint32_t sequence_length = 0;
  std::string mode;  // "knobs" (the first run), "allocator" (the allocator's run), "library" (a library
                     // knob's run); "" from older children
  std::vector<std::pair<std::string, std::string>> alloc_conf;  // the allocator variables the child saw set
};

// "result": one timed run of training steps.
struct TuneMeasurement {
  std::string item;
  std::string role;   // "generic" (fp32 at the guides' batch), "knob" (at the knob batch), "large_batch" or
                      // "checkpointing" (activation checkpointing's run, and the large batch again eager)
  std::string model;  // "resnet50", "transformer"
  std::string precision;  // "fp32", "fp16", "bf16"
  bool channels_last = false;
  bool benchmark = false;  // torch.backends.cudnn.benchmark (MIOpen find on ROCm)
  uint32_t batch = 0;
  uint32_t warmup_steps = 0;
  uint32_t timed_steps = 0;
  double seconds = 0;
  double samples_per_s = 0;
  double units_per_s = 0;  // images/s or tokens/s
  std::string unit;        // "images/s", "tokens/s"
  std::optional<double> loss;
  bool loss_finite = true;
  // torch.cuda.max_memory_allocated / max_memory_reserved over the run (none on the CPU): reserved far above
  // allocated is memory the caching allocator holds but cannot use (fragmentation).
  std::optional<double> peak_allocated_bytes;
  std::optional<double> peak_reserved_bytes;
  // The other knobs (docs/tune.md, "The other knobs"), all off in the runs of older children:
  bool tf32 = false;    // TF32 for fp32 matmuls (set_float32_matmul_precision("high")) and convolutions
  bool fused = false;   // torch.optim.SGD(..., fused=True)
  std::string sdpa;     // the attention backend forced: "flash", "efficient", "math"; "": torch's own choice
  std::string compile;  // torch.compile's mode: "default", "reduce-overhead", "max-autotune"; "": eager
  std::optional<double> compile_seconds;  // the warm-up's time less as many steady steps (compiled runs)
  bool checkpointing = false;  // activation checkpointing (torch.utils.checkpoint) around the model's blocks
};

// "search": the largest batch that fits, by doubling then bisection.
struct TuneBatchSearch {
  std::string model;
  std::string precision;
  uint32_t largest = 0;               // 0: not even the first batch fitted
  std::optional<uint32_t> failed_at;  // the smallest batch seen to fail (none: the cap was reached)
  uint32_t cap = 0;
  std::vector<std::pair<uint32_t, bool>> tried;  // (batch, fitted) in the order tried
  double seconds = 0;
};

// "loader": the input pipeline's rate (a synthetic JPEG dataset decoded and augmented on the CPU) through
// torch.utils.data.DataLoader at one worker count, pinned or not, copied to the device.
struct TuneLoaderRate {
  std::string item;
  uint32_t workers = 0;
  bool pin_memory = false;
  uint32_t batch = 0;
  uint32_t images = 0;
  double seconds = 0;
  double images_per_s = 0;
  std::string decode;  // "jpeg" (torchvision.io.decode_jpeg) or "raw" (a torchvision without libjpeg)
  uint32_t image_side = 0;
  uint32_t cpus = 0;
};

struct TuneSkip {
  std::string item;
  std::string reason;
};

struct TuneChildError {
  std::string item;
  std::string code;  // "no_gpu", "no_device", "no_torch", "oom", "failed"
  std::string message;
};

struct TuneProgress {
  uint32_t done = 0;
  uint32_t total = 0;
  std::string item;
};

// Everything read from a child's stdout.
struct TuneChildOutput {
  std::optional<TuneHello> hello;
  std::vector<TuneMeasurement> measurements;
  std::vector<TuneBatchSearch> searches;
  std::vector<TuneLoaderRate> loader;
  std::vector<TuneSkip> skips;
  std::vector<TuneChildError> errors;
  std::optional<TuneProgress> last_progress;
  std::string last_begun;  // the item of the last "begin" line (what a hang or crash is blamed on)
  bool ended = false;      // the "end" line came
  size_t ignored_lines = 0;
};

// Reads one line into `out`; false when it is not a line of the protocol (and counts it as ignored).
bool ReadTuneLine(std::string_view line, TuneChildOutput& out);

// Reads a whole stdout.
TuneChildOutput ParseTuneOutput(std::string_view text);

// Splits a stream of stdout pieces into lines and hands each complete one on (for progress).
class TuneLineSplitter {
 public:
  template <typename OnLine>
  void Feed(std::string_view piece, OnLine&& on_line) {
    pending_.append(piece);
    size_t start = 0;
    for (size_t nl; (nl = pending_.find('\n', start)) != std::string::npos; start = nl + 1)
      on_line(std::string_view(pending_).substr(start, nl - start));
    pending_.erase(0, start);
    if (pending_.size() > kMaxPending) pending_.clear();  // a runaway line without an end is not ours
  }

 private:
  static constexpr size_t kMaxPending = 1 << 20;
  std::string pending_;
};

}  // namespace gpudoctor
