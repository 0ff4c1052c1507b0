// The hazard scans of `gpudoctor port` (hazard_scan.h). They look at tokens, never inside comments or
// strings, and report at most one finding of a kind per line. They go by what the code does (a tile of 32, a
// shuffle loop from offset 16, a mask handed to a warp intrinsic), not by what its names are (issue 32).
#include "port/hazard_scan.h"

#include <algorithm>
#include <set>
#include <string>

namespace gpudoctor {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

// "0xFFFFFFFFu" -> "0xffffffff", "32U" -> "32".
std::string NumberValue(std::string_view text) {
  std::string v = Lower(text);
  bool hex = v.rfind("0x", 0) == 0;
  while (!v.empty() && (v.back() == 'u' || v.back() == 'l')) v.pop_back();
  if (!hex) v.erase(std::remove(v.begin(), v.end(), '\''), v.end());
  return v;
}

bool IsWarpIntrinsic(std::string_view name) {
  return name == "__shfl_sync" || name == "__shfl_up_sync" || name == "__shfl_down_sync" ||
         name == "__shfl_xor_sync" || name == "__ballot_sync" || name == "__any_sync" ||
         name == "__all_sync" || name == "__syncwarp" || name == "__match_any_sync" ||
         name == "__match_all_sync" ||
         (name.rfind("__reduce_", 0) == 0 && name.size() > 5 && name.substr(name.size() - 5) == "_sync");
}

class Scanner {
 public:
  Scanner(const CodeTokens& code, const std::set<std::string>& cg_names, const PortMap& map,
          std::vector<PortFinding>& out)
      : code_(code),
        map_(map),
        out_(out),
        cg_missing_(map.cooperative_groups_missing.begin(), map.cooperative_groups_missing.end()),
        cg_names_(cg_names) {}

  void Run() {
    FindLaneMaskNames();
    for (size_t i = 0; i < code_.size(); ++i) {
      const Token& t = code_[i];
      if (t.kind == TokenKind::kNumber) Number(i);
      if (t.kind != TokenKind::kIdentifier) continue;
      std::string_view name = code_.Text(i);
      if (IsWarpIntrinsic(name) && code_.Is(i + 1, "(")) mask_calls_.push_back(code_.Matching(i + 1));
      if (name == "__ballot_sync" || name == "__ballot" || name == "__activemask") Ballot(i);
      if ((name == "asm" || name == "__asm__" || name == "__asm") &&
          (code_.Is(i + 1, "(") || code_.Is(i + 1, "volatile") || code_.Is(i + 1, "__volatile__")))
        Add(PortFindingKind::kInlinePtx, Severity::kError, t, std::string(name),
            "inline assembly: PTX has no meaning on AMD GPUs",
            "replace it with a HIP intrinsic or plain C++ (keep the PTX under #ifdef "
            "__HIP_PLATFORM_NVIDIA__)");
      if ((name == "texture" || name == "surface") && code_.Is(i + 1, "<"))
        Add(PortFindingKind::kTexture, Severity::kWarning, t, std::string(name),
            std::string(name) +
                " reference: deprecated in HIP, which has texture and surface objects instead",
            name == "texture"
                ? "use a texture object (hipTextureObject_t, hipCreateTextureObject, tex1Dfetch<T>)"
                : "use a surface object (hipSurfaceObject_t, hipCreateSurfaceObject)");
      if (cg_missing_.count(std::string(name)) > 0 && code_.Is(code_.Prev(i), "::") &&
          cg_names_.count(std::string(code_.Text(code_.Prev(code_.Prev(i))))) > 0)
        Add(PortFindingKind::kCooperativeGroups, Severity::kError, t, std::string(name),
            "cooperative_groups::" + std::string(name) + " does not exist in HIP",
            map_.cooperative_groups_advice);
      if (name == "__launch_bounds__") LaunchBounds(i);
      if (name == "__CUDA_ARCH__") CudaArch(i);
      if ((name == "tiled_partition" || name == "thread_block_tile") && code_.Is(i + 1, "<") &&
          code_.IsKind(i + 2, TokenKind::kNumber) && NumberValue(code_.Text(i + 2)) == "32")
        Add(PortFindingKind::kWarpSize, Severity::kWarning, code_[i + 2], std::string(name) + "<32>",
            "a tile of 32 threads taken as a warp: a 64-lane wavefront (CDNA GPUs) holds two such tiles, so "
            "per-warp indices (threadIdx.x / 32), per-warp shared slots and wavefront-wide intrinsics no "
            "longer "
            "match the tile",
            "use the tile's own rank and size (tile.thread_rank(), tile.size()); size per-warp storage by "
            "warpSize");
      if (name == "__shared__") SharedArray(i);
      if ((name == "__shfl_down_sync" || name == "__shfl_xor_sync" || name == "__shfl_down" ||
           name == "__shfl_xor") &&
          code_.Is(i + 1, "("))
        ShuffleOffset(i);
      if (name == "for" && code_.Is(i + 1, "(")) ShuffleLoop(i);
      if (name == "warpSize" || Lower(name).find("warp") != std::string::npos) WarpConstant(i);
    }
  }

 private:
  void Add(PortFindingKind kind, Severity severity, const Token& at, std::string name, std::string message,
           std::string advice) {
    auto key = std::make_pair(static_cast<int>(kind), at.line);
    if (!reported_.insert(key).second) return;
    out_.push_back(PortFinding{kind, severity, at.line, at.column, std::move(name), std::move(message),
                               std::move(advice)});
  }

  bool InsideMaskCall(size_t i) {
    while (!mask_calls_.empty() && mask_calls_.back() < i) mask_calls_.pop_back();
    return !mask_calls_.empty();
  }

  // Does the line of token i speak of lanes, warps or thread indices?
  bool LaneContext(size_t i) const {
    const uint32_t line = code_[i].line;
    for (size_t k = i; k < code_.size() && code_[k].line == line; ++k)
      if (LaneWord(k)) return true;
    for (size_t k = i; k < code_.size() && code_[k].line == line; k = code_.Prev(k))
      if (LaneWord(k)) return true;
    return false;
  }
  bool LaneWord(size_t k) const {
    if (code_[k].kind != TokenKind::kIdentifier) return false;
    std::string w = Lower(code_.Text(k));
    return w.find("lane") != std::string::npos || w.find("warp") != std::string::npos || w == "threadidx" ||
           w == "tid";
  }

  void Number(size_t i) {
    const Token& t = code_[i];
    std::string v = NumberValue(code_.Text(i));
    std::string_view prev = code_.Text(code_.Prev(i)), next = code_.Text(i + 1);
    if (v == "0xffffffff") {
      FullMask(i);
      return;
    }
    static const std::set<std::string_view> kArith = {"%", "/", "*", "<", ">", "<=", ">=", "==", "!="};
    if (v == "31" && (prev == "==" || next == "==") && LaneContext(i))
      Add(PortFindingKind::kWave64, Severity::kWarning, t, std::string(code_.Text(i)),
          "lane 31 taken as the last lane of the warp: on a 64-lane wavefront it is in the middle, so what "
          "the last lane holds (a scan's total, a reduction's result) is read too early",
          "compare with warpSize - 1");
    bool lane_math = (v == "32" && (kArith.count(prev) > 0 || kArith.count(next) > 0)) ||
                     (v == "31" && (prev == "&" || next == "&")) ||
                     (v == "5" && (prev == ">>" || prev == "<<"));
    if (lane_math && LaneContext(i))
      Add(PortFindingKind::kWarpSize, Severity::kWarning, t, std::string(code_.Text(i)),
          "lane arithmetic with the literal " + std::string(code_.Text(i)) +
              " assumes 32-lane warps; AMD wavefronts have 64 lanes on CDNA GPUs",
          "write it in terms of warpSize (lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize)");
  }

  // Names a warp intrinsic is given as its mask: `__shfl_sync(kFull, ...)` makes kFull a lane mask. A name
  // set to 0xffffffff and never given to one is a data mask, and not reported.
  void FindLaneMaskNames() {
    for (size_t i = 0; i + 1 < code_.size(); ++i) {
      if (code_[i].kind != TokenKind::kIdentifier || code_.Text(i)[0] != '_' || !code_.Is(i + 1, "(") ||
          !IsWarpIntrinsic(code_.Text(i)))
        continue;
      auto args = code_.Arguments(i + 1);
      if (!args.empty() && args[0].first == args[0].second &&
          code_.IsKind(args[0].first, TokenKind::kIdentifier))
        lane_mask_names_.insert(std::string(code_.Text(args[0].first)));
    }
  }

  // 0xffffffff: a lane mask when it is given to a warp intrinsic or names one that is; compared with a ballot
  // it tests 32 lanes of 64.
  void FullMask(size_t i) {
    const Token& t = code_[i];
    std::string_view prev = code_.Text(code_.Prev(i));
    std::string_view named = prev == "=" ? code_.Text(code_.Prev(code_.Prev(i))) : prev;
    if ((prev == "==" || prev == "!=" || code_.Is(i + 1, "==") || code_.Is(i + 1, "!=")) && BallotOnLine(i)) {
      Add(PortFindingKind::kWave64, Severity::kWarning, t, std::string(code_.Text(i)),
          "a ballot compared with a 32-lane full mask: on a 64-lane wavefront the ballot is 64 bits, so the "
          "test is false whenever lanes 32-63 vote, and the branch silently goes the other way",
          "compare with __ballot(1) (the 64-bit mask of the active lanes in every HIP release; newer HIP "
          "also "
          "has __activemask()), or test __all(pred) instead");
      return;
    }
    if (InsideMaskCall(i) || lane_mask_names_.count(std::string(named)) > 0)
      Add(PortFindingKind::kFullMask, Severity::kWarning, t, std::string(code_.Text(i)),
          "a 32-lane full mask: a wavefront has 64 lanes on CDNA GPUs (MI100, MI200, MI300), so lanes 32-63 "
          "are left out",
          "use the maskless HIP intrinsic (port drops the mask of *_sync calls) or a 64-bit mask of the "
          "active "
          "lanes: __ballot(1) (every HIP release; newer HIP also has __activemask())");
  }

  bool BallotOnLine(size_t i) const {
    const uint32_t line = code_[i].line;
    for (size_t k = i; k < code_.size() && code_[k].line == line; k = code_.Prev(k))
      if (IsBallot(code_.Text(k))) return true;
    for (size_t k = i; k < code_.size() && code_[k].line == line; ++k)
      if (IsBallot(code_.Text(k))) return true;
    return false;
  }
  static bool IsBallot(std::string_view w) {
    return w == "__ballot_sync" || w == "__ballot" || w == "__activemask";
  }

  // __shared__ float partial[32]: one slot per lane (or per warp) of 32-lane warps.
  void SharedArray(size_t i) {
    for (size_t k = i + 1; k + 3 < code_.size() && k < i + 8; ++k) {
      std::string_view t = code_.Text(k);
      if (t == ";" || t == "{" || t == "(") return;
      if (t != "[" || !code_.IsKind(k + 1, TokenKind::kNumber) || !code_.Is(k + 2, "]")) continue;
      if (NumberValue(code_.Text(k + 1)) == "32" && !code_.Is(k + 3, "["))
        Add(PortFindingKind::kWarpSize, Severity::kWarning, code_[k + 1], "__shared__ [32]",
            "a shared array of 32 sized for 32-lane warps: filled one slot per lane, a 64-lane wavefront "
            "writes past its end; filled one slot per warp, it holds a different count",
            "size it by the wavefront: [1024 / 32] per warp covers both widths, or use warpSize-based "
            "indexing with room for 64 lanes");
      return;
    }
  }

  // __shfl_xor_sync(m, v, 16) with no width: the butterfly stops at 32 lanes.
  void ShuffleOffset(size_t i) {
    auto args = code_.Arguments(i + 1);
    const bool sync = code_.Text(i).size() > 5 && code_.Text(i).substr(code_.Text(i).size() - 5) == "_sync";
    if (args.size() != (sync ? 3u : 2u)) return;  // a width argument sets the segment: no hazard
    const size_t off = args.back().first;
    if (off != args.back().second || !code_.IsKind(off, TokenKind::kNumber) ||
        NumberValue(code_.Text(off)) != "16")
      return;
    Wave64Offset(off);
  }

  // for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(...): the reduction covers lanes 0-31 only.
  void ShuffleLoop(size_t i) {
    const size_t close = code_.Matching(i + 1);
    if (close >= code_.size()) return;
    size_t start = code_.size();
    for (size_t k = i + 2; k < close && code_.Text(k) != ";"; ++k)
      if (code_.Is(k, "=") && code_.IsKind(k + 1, TokenKind::kNumber) &&
          NumberValue(code_.Text(k + 1)) == "16")
        start = k + 1;
    if (start == code_.size()) return;
    // The body: a braced block or one statement.
    size_t end = code_.Is(close + 1, "{") ? code_.Matching(close + 1) : close + 1;
    if (!code_.Is(close + 1, "{"))
      while (end < code_.size() && !code_.Is(end, ";")) ++end;
    for (size_t k = close + 1; k < end && k < code_.size(); ++k) {
      std::string_view w = code_.Text(k);
      if (w == "__shfl_down_sync" || w == "__shfl_xor_sync" || w == "__shfl_down" || w == "__shfl_xor") {
        Wave64Offset(start);
        return;
      }
    }
  }

  void Wave64Offset(size_t at) {
    Add(PortFindingKind::kWave64, Severity::kWarning, code_[at], std::string(code_.Text(at)),
        "a shuffle reduction that starts at offset 16 combines 32 lanes: on a 64-lane wavefront lanes 32-63 "
        "are never added in, and the result is silently partial",
        "start at warpSize / 2 (for (int o = warpSize / 2; o > 0; o /= 2)), or use a tile of 32 "
        "(tile.shfl_down)");
  }

  // WARP_SIZE 32, kWarpSize = 32, warpSize == 32.
  void WarpConstant(size_t i) {
    for (size_t k = i + 1; k < code_.size() && k <= i + 3; ++k) {
      if (code_[k].line != code_[i].line) return;
      if (code_[k].kind == TokenKind::kNumber) {
        if (NumberValue(code_.Text(k)) == "32")
          Add(PortFindingKind::kWarpSize, Severity::kWarning, code_[k], std::string(code_.Text(i)),
              std::string(code_.Text(i)) + " is taken to be 32; AMD wavefronts have 64 lanes on CDNA GPUs",
              "use warpSize (a run-time value on AMD) instead of a constant 32");
        return;
      }
      std::string_view t = code_.Text(k);
      if (t != "=" && t != "==" && t != "!=" && t != "(" && t != "{") return;
    }
  }

  // unsigned m = __ballot_sync(...); __popc(__ballot_sync(...))
  void Ballot(size_t i) {
    const size_t prev = code_.Prev(i);
    std::string_view p = code_.Text(prev);
    bool narrow = false;
    std::string why;
    if (p == "=" && code_.IsKind(code_.Prev(prev), TokenKind::kIdentifier)) {
      std::string_view type = code_.Text(code_.Prev(code_.Prev(prev)));
      narrow =
          type == "int" || type == "unsigned" || type == "uint32_t" || type == "int32_t" || type == "uint";
      why = "stored in a 32-bit " + std::string(type);
    } else if (p == "(") {
      std::string_view fn = code_.Text(code_.Prev(prev));
      narrow = fn == "__popc" || fn == "__ffs" || fn == "__clz" || fn == "__brev";
      why = "passed to the 32-bit " + std::string(fn);
    }
    if (narrow)
      Add(PortFindingKind::kBallotWidth, Severity::kWarning, code_[i], std::string(code_.Text(i)),
          std::string(code_.Text(i)) + " returns a 64-bit mask on HIP but is " + why +
              ": lanes 32-63 are lost",
          "keep it in uint64_t (unsigned long long) and count with __popcll / __ffsll / __clzll");
  }

  // A directive's name without '#' and blanks: "# if" -> "if".
  std::string DirectiveName(size_t d) const {
    std::string n(code_.Text(d));
    n.erase(std::remove_if(n.begin(), n.end(), [](char c) { return c == '#' || c == ' ' || c == '\t'; }),
            n.end());
    return n;
  }

  // The directive that ends the branch opened at directive d: its #elif, #else or #endif.
  size_t BranchEnd(size_t d) const {
    int depth = 0;
    for (size_t j = d + 1; j < code_.size(); ++j) {
      if (code_[j].kind != TokenKind::kDirective) continue;
      const std::string n = DirectiveName(j);
      if (n.rfind("if", 0) == 0) ++depth;
      if (depth == 0 && (n == "endif" || n == "else" || n == "elif")) return j;
      if (n == "endif") --depth;
    }
    return code_.size();
  }

  // __CUDA_ARCH__, never defined by hipcc: in an #if, #ifdef, #ifndef or #elif, the lines it hides from the
  // GPU pass or gives to it.
  void CudaArch(size_t i) {
    const std::string advice =
        "test __HIP_DEVICE_COMPILE__ for device code; for a feature of newer NVIDIA GPUs, keep the CUDA "
        "branch under __HIP_PLATFORM_NVIDIA__ and write the AMD one";
    size_t d = i;
    while (d < code_.size() && code_[d].in_directive && code_[d].kind != TokenKind::kDirective)
      d = code_.Prev(d);
    const std::string n = d < code_.size() && code_[d].line == code_[i].line ? DirectiveName(d) : "";
    if (n != "if" && n != "ifdef" && n != "ifndef" && n != "elif") {
      Add(PortFindingKind::kCudaArch, Severity::kWarning, code_[i], "__CUDA_ARCH__",
          "__CUDA_ARCH__ is never defined by hipcc, in the GPU pass too: a test of it is false there, and a "
          "use of its value does not compile",
          advice);
      return;
    }
    const bool negated = n == "ifndef" || code_.Is(code_.Prev(i), "!") ||
                         (code_.Is(code_.Prev(i), "(") && code_.Is(i - 2, "defined") && code_.Is(i - 3, "!"));
    const size_t end = BranchEnd(d);
    const uint32_t first = code_[i].line + 1;
    const uint32_t last = (end < code_.size() ? code_[end].line : code_[code_.size() - 1].line + 1) - 1;
    const std::string lines = last < first    ? "the (empty) branch"
                              : last == first ? "line " + std::to_string(first)
                                              : "lines " + std::to_string(first) + "-" + std::to_string(last);
    std::string other;
    if (end < code_.size() && DirectiveName(end) != "endif")
      other = ", and the #" + DirectiveName(end) + " branch from line " + std::to_string(code_[end].line) +
              " is compiled for the GPU instead";
    Add(PortFindingKind::kCudaArch, Severity::kWarning, code_[i], "__CUDA_ARCH__",
        negated ? "__CUDA_ARCH__ is never defined by hipcc: " + lines +
                      ", meant for the host pass only, go to the GPU compile too"
                : "__CUDA_ARCH__ is never defined by hipcc: " + lines + ", the device code under this #" + n +
                      ", never reach the GPU compile" + other,
        advice);
  }

  void LaunchBounds(size_t i) {
    if (!code_.Is(i + 1, "(") || !code_.IsKind(i + 2, TokenKind::kNumber)) return;
    std::string v = NumberValue(code_.Text(i + 2));
    unsigned long long threads = 0;
    try {
      threads = std::stoull(v, nullptr, 0);
    } catch (...) {
      return;
    }
    if (threads > 1024)
      Add(PortFindingKind::kLaunchBounds, Severity::kError, code_[i + 2], "__launch_bounds__",
          "__launch_bounds__(" + std::string(code_.Text(i + 2)) +
              "): AMD GPUs run at most 1024 threads per block, so the kernel cannot launch",
          "lower the block size to 1024 or fewer threads and the bound with it");
  }

  const CodeTokens& code_;
  const PortMap& map_;
  std::vector<PortFinding>& out_;
  std::set<std::string> cg_missing_;
  const std::set<std::string>& cg_names_;
  std::set<std::string> lane_mask_names_;
  std::vector<size_t> mask_calls_;  // closing-parenthesis indices of the open warp-intrinsic calls
  std::set<std::pair<int, uint32_t>> reported_;
};

}  // namespace

void ScanHazards(const CodeTokens& code, const std::set<std::string>& cg_names, const PortMap& map,
                 std::vector<PortFinding>& findings) {
  Scanner(code, cg_names, map, findings).Run();
}

}  // namespace gpudoctor
