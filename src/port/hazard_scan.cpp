// The hazard scans of `gpudoctor port` (hazard_scan.h). They look at tokens, never inside comments or
// strings, and report at most one finding of a kind per line.
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
  Scanner(const CodeTokens& code, const PortMap& map, std::vector<PortFinding>& out)
      : code_(code),
        map_(map),
        out_(out),
        cg_missing_(map.cooperative_groups_missing.begin(), map.cooperative_groups_missing.end()) {}

  void Run() {
    FindCooperativeGroupsAliases();
    for (size_t i = 0; i < code_.size(); ++i) {
      const Token& t = code_[i];
      if (t.kind == TokenKind::kNumber) Number(i);
      if (t.kind != TokenKind::kIdentifier) continue;
      std::string_view name = code_.Text(i);
      if (IsWarpIntrinsic(name) && code_.Is(i + 1, "(")) mask_calls_.push_back(code_.Matching(i + 1));
      if (name == "__ballot_sync" || name == "__ballot" || name == "__activemask") Ballot(i);
      if ((name == "asm" || name == "__asm__" || name == "__asm") &&
          (code_.Is(i + 1, "(") || code_.Is(i + 1, "volatile") || code_.Is(i + 1, "__volatile__")))
        Add(PortFindingKind::kInlinePtx, PortSeverity::kError, t, std::string(name),
            "inline assembly: PTX has no meaning on AMD GPUs",
            "replace it with a HIP intrinsic or plain C++ (keep the PTX under #ifdef "
            "__HIP_PLATFORM_NVIDIA__)");
      if ((name == "texture" || name == "surface") && code_.Is(i + 1, "<"))
        Add(PortFindingKind::kTexture, PortSeverity::kWarning, t, std::string(name),
            std::string(name) +
                " reference: deprecated in HIP, which has texture and surface objects instead",
            name == "texture"
                ? "use a texture object (hipTextureObject_t, hipCreateTextureObject, tex1Dfetch<T>)"
                : "use a surface object (hipSurfaceObject_t, hipCreateSurfaceObject)");
      if (cg_missing_.count(std::string(name)) > 0 && code_.Is(code_.Prev(i), "::") &&
          cg_names_.count(std::string(code_.Text(code_.Prev(code_.Prev(i))))) > 0)
        Add(PortFindingKind::kCooperativeGroups, PortSeverity::kError, t, std::string(name),
            "cooperative_groups::" + std::string(name) + " does not exist in HIP",
            map_.cooperative_groups_advice);
      if (name == "__launch_bounds__") LaunchBounds(i);
      if (name == "warpSize" || Lower(name).find("warp") != std::string::npos) WarpConstant(i);
    }
  }

 private:
  void Add(PortFindingKind kind, PortSeverity severity, const Token& at, std::string name,
           std::string message, std::string advice) {
    auto key = std::make_pair(static_cast<int>(kind), at.line);
    if (!reported_.insert(key).second) return;
    out_.push_back(PortFinding{kind, severity, at.line, at.column, std::move(name), std::move(message),
                               std::move(advice)});
  }

  // `namespace cg = cooperative_groups;` makes `cg::` a name of cooperative groups too.
  void FindCooperativeGroupsAliases() {
    cg_names_.insert("cooperative_groups");
    for (size_t i = 0; i + 3 < code_.size(); ++i)
      if (code_.Is(i, "namespace") && code_.Is(i + 2, "=") && code_.Is(i + 3, "cooperative_groups"))
        cg_names_.insert(std::string(code_.Text(i + 1)));
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
      std::string before = Lower(code_.Text(code_.Prev(i)));
      std::string two_before = Lower(code_.Text(code_.Prev(code_.Prev(i))));
      if (InsideMaskCall(i) || before.find("mask") != std::string::npos ||
          (prev == "=" && two_before.find("mask") != std::string::npos))
        Add(PortFindingKind::kFullMask, PortSeverity::kWarning, t, std::string(code_.Text(i)),
            "a 32-lane full mask: a wavefront has 64 lanes on CDNA GPUs (MI100, MI200, MI300), so lanes "
            "32-63 "
            "are left out",
            "use the maskless HIP intrinsic (port drops the mask of *_sync calls) or a 64-bit mask such as "
            "__activemask()");
      return;
    }
    static const std::set<std::string_view> kArith = {"%", "/", "*", "<", ">", "<=", ">=", "==", "!="};
    bool lane_math = (v == "32" && (kArith.count(prev) > 0 || kArith.count(next) > 0)) ||
                     (v == "31" && (prev == "&" || next == "&")) ||
                     (v == "5" && (prev == ">>" || prev == "<<"));
    if (lane_math && LaneContext(i))
      Add(PortFindingKind::kWarpSize, PortSeverity::kWarning, t, std::string(code_.Text(i)),
          "lane arithmetic with the literal " + std::string(code_.Text(i)) +
              " assumes 32-lane warps; AMD wavefronts have 64 lanes on CDNA GPUs",
          "write it in terms of warpSize (lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize)");
  }

  // WARP_SIZE 32, kWarpSize = 32, warpSize == 32.
  void WarpConstant(size_t i) {
    for (size_t k = i + 1; k < code_.size() && k <= i + 3; ++k) {
      if (code_[k].line != code_[i].line) return;
      if (code_[k].kind == TokenKind::kNumber) {
        if (NumberValue(code_.Text(k)) == "32")
          Add(PortFindingKind::kWarpSize, PortSeverity::kWarning, code_[k], std::string(code_.Text(i)),
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
      Add(PortFindingKind::kBallotWidth, PortSeverity::kWarning, code_[i], std::string(code_.Text(i)),
          std::string(code_.Text(i)) + " returns a 64-bit mask on HIP but is " + why +
              ": lanes 32-63 are lost",
          "keep it in uint64_t (unsigned long long) and count with __popcll / __ffsll / __clzll");
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
      Add(PortFindingKind::kLaunchBounds, PortSeverity::kError, code_[i + 2], "__launch_bounds__",
          "__launch_bounds__(" + std::string(code_.Text(i + 2)) +
              "): AMD GPUs run at most 1024 threads per block, so the kernel cannot launch",
          "lower the block size to 1024 or fewer threads and the bound with it");
  }

  const CodeTokens& code_;
  const PortMap& map_;
  std::vector<PortFinding>& out_;
  std::set<std::string> cg_missing_;
  std::set<std::string> cg_names_;
  std::vector<size_t> mask_calls_;  // closing-parenthesis indices of the open warp-intrinsic calls
  std::set<std::pair<int, uint32_t>> reported_;
};

}  // namespace

void ScanHazards(const CodeTokens& code, const PortMap& map, std::vector<PortFinding>& findings) {
  Scanner(code, map, findings).Run();
}

}  // namespace gpudoctor
