// The edits for what hipcc needs that nvcc gave implicitly (hip_needs.h).
#include "port/hip_needs.h"

#include <set>
#include <string>

namespace gpudoctor {
namespace {

constexpr const char* kRuntimeHeader = "hip/hip_runtime.h";

// Words that only mean something with the runtime header in scope: nvcc includes cuda_runtime.h before every
// .cu file; hipcc includes nothing.
bool NeedsRuntime(std::string_view word) {
  static const std::set<std::string_view> kWords = {
      "__global__", "__device__", "__shared__",    "__constant__",   "__managed__",       "threadIdx",
      "blockIdx",   "blockDim",   "gridDim",       "warpSize",       "__syncthreads",     "dim3",
      "__half",     "__half2",    "__nv_bfloat16", "__nv_bfloat162", "cooperative_groups"};
  return kWords.count(word) > 0;
}

class HipNeeds {
 public:
  HipNeeds(const CodeTokens& code, const PortMap& map, PortFileReport& report, std::vector<PortEdit>& edits)
      : code_(code), map_(map), report_(report), edits_(edits) {}

  void Run() {
    bool has_runtime = false, needs_runtime = false, includes_cuda = false, uses_api = false;
    size_t first_include = code_.size();
    for (size_t i = 0; i < code_.size(); ++i) {
      const Token& t = code_[i];
      if (t.kind == TokenKind::kLaunchOpen) needs_runtime = true;
      if (t.kind == TokenKind::kDirective && first_include == code_.size() &&
          code_.Text(i).find("include") != std::string_view::npos)
        first_include = i;
      if (t.kind == TokenKind::kHeaderName) {
        has_runtime = has_runtime || ProvidesRuntime(i);
        includes_cuda = includes_cuda || IsTableHeader(i);
      }
      if (t.kind != TokenKind::kIdentifier) continue;
      std::string_view name = code_.Text(i);
      if (!needs_runtime && NeedsRuntime(name)) needs_runtime = true;
      if (!uses_api && !needs_runtime && IsRuntimeApi(name)) uses_api = true;
      if (IsDeclarationSpecifier(name)) SeparateFromString(i);
      if (!code_.Is(i + 1, "(")) continue;  // only calls are cast or rewritten: no lookup for the rest
      auto it = map_.names.find(std::string(name));
      if (it == map_.names.end()) continue;
      std::string_view before = code_.Text(code_.Prev(i));
      if (before == "." || before == "->" || before == "::") continue;
      if (it->second.kernel_arg >= 0) CastKernel(i, it->second);
      if (it->second.rewrite != PortRewrite::kNone) PlainAccess(i, it->second);
    }
    // A file that includes a CUDA header (nccl.h, cublas_v2.h) has the runtime API through it.
    if (uses_api && !includes_cuda) needs_runtime = true;
    if (needs_runtime && !has_runtime && code_.size() > 0) {
      uint32_t at = code_.LineStart(first_include < code_.size() ? first_include : 0);
      // A call written across that line (a mask argument the translator drops, say) would swallow the
      // include: then it goes at the very top.
      for (const PortEdit& e : edits_)
        if (e.offset < at && at < e.offset + e.length) at = 0;
      edits_.push_back(PortEdit{at, 0, std::string("#include <") + kRuntimeHeader + ">\n"});
      report_.runtime_include_added = true;
      ++report_.conversions["implicit"];
    }
  }

 private:
  // A name of CUDA's runtime or driver API (cudaMalloc, cudaError_t, cudaSuccess, CUDART_INF, cuInit): a
  // host-only .cu file that uses them and includes no CUDA header is still compiled by nvcc, never by hipcc.
  bool IsRuntimeApi(std::string_view name) const {
    if (name.substr(0, 2) != "cu" && name.substr(0, 4) != "CUDA") return false;
    auto it = map_.names.find(std::string(name));
    if (it == map_.names.end() || it->second.unsupported) return false;
    const std::string& f = it->second.family;
    return f == "runtime" || f == "driver" || f == "types" || f == "enums" || f == "macros";
  }

  // `extern "C"__global__`: nvcc reads the attribute, clang a string literal with a user-defined suffix.
  static bool IsDeclarationSpecifier(std::string_view name) {
    return name == "__global__" || name == "__device__" || name == "__host__" || name == "__forceinline__";
  }

  void SeparateFromString(size_t i) {
    if (i == 0) return;
    const Token& before = code_[i - 1];
    if (before.kind != TokenKind::kString || before.offset + before.length != code_[i].offset) return;
    edits_.push_back(PortEdit{code_[i].offset, 0, " "});
    ++report_.conversions["implicit"];
  }

  bool IsTableHeader(size_t i) const {
    std::string_view text = code_.Text(i);
    return text.size() >= 2 && map_.headers.count(std::string(text.substr(1, text.size() - 2))) > 0;
  }

  // An include of a header that is (or is translated to) hip/hip_runtime.h.
  bool ProvidesRuntime(size_t i) const {
    std::string_view text = code_.Text(i);
    if (text.size() < 2) return false;
    std::string name(text.substr(1, text.size() - 2));
    if (name == kRuntimeHeader) return true;
    auto it = map_.headers.find(name);
    return it != map_.headers.end() && it->second.hip == kRuntimeHeader;
  }

  // hipFuncSetAttribute(kernel, ...) -> hipFuncSetAttribute(reinterpret_cast<const void*>(kernel), ...): HIP
  // declares the kernel argument `const void*`, and a function does not convert to it implicitly.
  void CastKernel(size_t i, const PortEntry& e) {
    auto args = code_.Arguments(i + 1);
    if (static_cast<size_t>(e.kernel_arg) >= args.size()) return;
    auto [first, last] = args[static_cast<size_t>(e.kernel_arg)];
    std::string_view head = code_.Text(first);
    if (head == "(" || head == "reinterpret_cast" || head == "static_cast" || head == "nullptr" ||
        head == "NULL" || head == "0")
      return;  // already a cast or a null pointer
    edits_.push_back(PortEdit{code_[first].offset, 0, "reinterpret_cast<const void*>("});
    edits_.push_back(PortEdit{code_[last].offset + code_[last].length, 0, ")"});
    ++report_.conversions["implicit"];
  }

  // __ldcs(p) -> (*(p)); __stcs(p, v) -> (*(p) = (v)): HIP has no cache-hinted loads and stores.
  void PlainAccess(size_t i, const PortEntry& e) {
    const size_t open = i + 1, close = code_.Matching(open);
    auto args = code_.Arguments(open);
    const bool load = e.rewrite == PortRewrite::kLoad;
    if (args.size() != (load ? 1u : 2u)) return;
    const Token& name = code_[i];
    edits_.push_back(PortEdit{name.offset, code_[open].offset + 1 - name.offset, "(*("});
    if (!load) {
      const size_t comma = args[0].second + 1;
      const uint32_t from = code_[comma].offset, to = code_[comma + 1].offset;
      std::string_view gap = code_.source().substr(from + 1, to - from - 1);
      const bool blank = gap.find('\n') == std::string_view::npos;
      edits_.push_back(PortEdit{from, blank ? to - from : 1u, ") = ("});
    }
    edits_.push_back(PortEdit{code_[close].offset, 1, "))"});
    ++report_.conversions[e.family];
    report_.findings.push_back(
        PortFinding{PortFindingKind::kCacheHint, Severity::kInfo, name.line, name.column, e.cuda,
                    e.cuda + " has no HIP counterpart: translated as a plain " + (load ? "load" : "store") +
                        " (the cache hint is dropped)",
                    load ? "for data read once, __builtin_nontemporal_load(p) keeps the hint"
                         : "for data written once, __builtin_nontemporal_store(v, p) keeps the hint"});
  }

  const CodeTokens& code_;
  const PortMap& map_;
  PortFileReport& report_;
  std::vector<PortEdit>& edits_;
};

}  // namespace

void AddHipNeeds(const CodeTokens& code, const PortMap& map, PortFileReport& report,
                 std::vector<PortEdit>& edits) {
  HipNeeds(code, map, report, edits).Run();
}

}  // namespace gpudoctor
