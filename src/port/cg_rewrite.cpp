// The cooperative-groups rewrites and version checks (cg_rewrite.h). Every rewrite keeps the line count: the
// replacement of a call is written on the call's own line, and the arguments are left where they are (their
// own renames still apply).
#include "port/cg_rewrite.h"

#include <map>
#include <optional>

namespace gpudoctor {

std::set<std::string> CooperativeGroupsNames(const CodeTokens& code) {
  std::set<std::string> names;
  for (size_t i = 0; i < code.size(); ++i) {
    if (code[i].kind != TokenKind::kIdentifier || !code.Is(i, "cooperative_groups")) continue;
    names.insert("cooperative_groups");
    if (i >= 3 && code.Is(i - 1, "=") && code.Is(i - 3, "namespace"))
      names.insert(std::string(code.Text(i - 2)));
  }
  return names;
}

namespace {

// The reduction operators of cooperative_groups/functional.h as the expression of two values a_ and b_.
const std::map<std::string_view, std::string_view>& Operators() {
  static const std::map<std::string_view, std::string_view> kOps = {
      {"plus", "a_ + b_"},    {"less", "b_ < a_ ? b_ : a_"}, {"greater", "a_ < b_ ? b_ : a_"},
      {"bit_and", "a_ & b_"}, {"bit_or", "a_ | b_"},         {"bit_xor", "a_ ^ b_"}};
  return kOps;
}

// The lambdas are typed (no `auto` parameters: hipcc 5.2 compiles C++11 by default), so the operator's
// template argument gives the value's type.
std::string OperatorLambda(std::string_view op, std::string_view type) {
  const std::string t(type);
  return "[](" + t + " a_, " + t + " b_) { return " + std::string(Operators().at(op)) + "; }";
}

// Every lane ends with the reduction of the whole group, as cg::reduce gives it; a tile's size is a power of
// two, so the butterfly of shfl_xor covers it exactly, on 32- and 64-lane wavefronts alike.
std::string ReduceLambda(std::string_view group, std::string_view op, std::string_view type) {
  const std::string t(type);
  return "[&](const decltype(" + std::string(group) + ")& g_, " + t +
         " v_) { for (unsigned o_ = g_.size() / 2; o_ > 0; o_ /= 2) { " + t +
         " a_ = v_, b_ = g_.shfl_xor(v_, o_); v_ = " + std::string(Operators().at(op)) + "; } return v_; }(";
}

class CgRewriter {
 public:
  CgRewriter(const CodeTokens& code, const std::set<std::string>& names, const PortMap& map,
             const PortOptions& options, PortFileReport& report, std::vector<PortEdit>& edits)
      : code_(code), map_(map), options_(options), report_(report), edits_(edits), names_(names) {}

  void Run() {
    if (names_.empty()) return;  // the common case: the file never names cooperative_groups
    for (size_t i = 2; i < code_.size(); ++i) {
      if (code_[i].kind != TokenKind::kIdentifier) continue;
      std::string_view name = code_.Text(i);
      if (code_.Is(i - 1, "::") && names_.count(std::string(code_.Text(i - 2))) > 0) {
        if (name == "reduce") Reduce(i);
        if (Operators().count(name) > 0) Operator(i);
      }
      if ((code_.Is(i - 1, ".") || code_.Is(i - 1, "->")) && code_.Is(i + 1, "(")) Member(i);
    }
  }

 private:
  void Add(PortFindingKind kind, Severity severity, const Token& at, std::string name, std::string message,
           std::string advice) {
    report_.findings.push_back(PortFinding{kind, severity, at.line, at.column, std::move(name),
                                           std::move(message), std::move(advice)});
  }

  // cg::plus<T>() at k (the name): the operator's name and its type, or nothing for another form.
  struct CgOperator {
    std::string_view name, type;
    size_t end = 0;  // the index of the closing ")" of "()" (or "}" of "{}")
  };
  std::optional<CgOperator> OperatorAt(size_t k) const {
    if (k >= code_.size() || Operators().count(code_.Text(k)) == 0 || !code_.Is(k + 1, "<"))
      return std::nullopt;
    size_t close = k + 2;
    int depth = 1;
    for (; close < code_.size() && depth > 0; ++close) {
      std::string_view t = code_.Text(close);
      if (t == "<") ++depth;
      if (t == ">") --depth;
      if (t == ";" || t == "{" || t == ">>") return std::nullopt;
    }
    --close;  // the ">"
    // cg::plus<T>() or, brace-initialized, cg::plus<T>{}
    const bool parens = code_.Is(close + 1, "(") && code_.Is(close + 2, ")");
    const bool braces = code_.Is(close + 1, "{") && code_.Is(close + 2, "}");
    if (close == k + 2 || (!parens && !braces)) return std::nullopt;
    const uint32_t from = code_[k + 2].offset;
    return CgOperator{code_.Text(k), code_.source().substr(from, code_[close].offset - from), close + 2};
  }

  bool OneLine(uint32_t from, uint32_t to) const {
    return code_.source().substr(from, to - from).find('\n') == std::string_view::npos;
  }

  // cg::reduce(tile, v, cg::plus<T>()) -> [&](const decltype(tile)& g_, T v_) { shuffle loop }(tile, v)
  void Reduce(size_t i) {
    const Token& ns = code_[i - 2];
    auto args = code_.Is(i + 1, "(") ? code_.Arguments(i + 1) : std::vector<std::pair<size_t, size_t>>{};
    std::optional<CgOperator> op;
    if (args.size() == 3 && args[2].first + 2 < code_.size() && code_.Is(args[2].first + 1, "::") &&
        names_.count(std::string(code_.Text(args[2].first))) > 0)
      op = OperatorAt(args[2].first + 2);
    const Token& g_first = code_[args.empty() ? i : args[0].first];
    const Token& g_last = code_[args.empty() ? i : args[0].second];
    const uint32_t cut = args.size() == 3 ? code_[args[1].second + 1].offset : 0;
    if (!op || op->end != args[2].second || !OneLine(g_first.offset, g_last.offset) ||
        !OneLine(cut, code_[op->end].offset)) {
      Add(PortFindingKind::kCooperativeGroups, Severity::kError, code_[i], "reduce",
          "cooperative_groups::reduce does not exist in HIP, and this call is not reduce(tile, value, "
          "cg::plus<T>()) (or less, greater, bit_and, bit_or, bit_xor) on one line",
          "reduce over the tile with shfl_xor: for (o = tile.size() / 2; o > 0; o /= 2) v = op(v, "
          "tile.shfl_xor(v, o))");
      return;
    }
    std::string_view group =
        code_.source().substr(g_first.offset, g_last.offset + g_last.length - g_first.offset);
    edits_.push_back(
        PortEdit{ns.offset, code_[i + 1].offset + 1 - ns.offset, ReduceLambda(group, op->name, op->type)});
    const Token& last = code_[op->end];
    edits_.push_back(PortEdit{cut, last.offset + 1 - cut, ""});  // ", cg::plus<T>()"
    consumed_.insert(args[2].first + 2);
    ++report_.conversions["cooperative_groups"];
    Add(PortFindingKind::kCgRewritten, Severity::kInfo, code_[i], "reduce",
        "cooperative_groups::reduce (absent from HIP) rewritten as a shfl_xor reduction over the group",
        "the group must be a thread_block_tile (a power-of-two size); for a coalesced group reduce through "
        "shared memory");
  }

  // cg::plus<T>() -> [](T a_, T b_) { return a_ + b_; }
  void Operator(size_t i) {
    if (consumed_.count(i) > 0) return;
    auto op = OperatorAt(i);
    const Token& ns = code_[i - 2];
    // Written over several lines, it stays (the one-line lambda would move every later line).
    if (!op || !OneLine(ns.offset, code_[op->end].offset)) return Unrewritten(i);
    edits_.push_back(
        PortEdit{ns.offset, code_[op->end].offset + 1 - ns.offset, OperatorLambda(op->name, op->type)});
    ++report_.conversions["cooperative_groups"];
  }

  void Unrewritten(size_t i) {
    std::string name(code_.Text(i));
    Add(PortFindingKind::kCooperativeGroups, Severity::kError, code_[i], name,
        "cooperative_groups::" + name + " does not exist in HIP",
        "pass a lambda instead: " + OperatorLambda(name, "T"));
  }

  // tile.meta_group_rank(): absent from HIP up to the release the table names.
  void Member(size_t i) {
    std::string_view name = code_.Text(i);
    for (const HipMember& m : map_.cooperative_groups_members) {
      if (m.name != name) continue;
      if (options_.hip_version && m.missing_through < *options_.hip_version) return;
      if (options_.hip_version && Older(i, m)) return;
      const bool known = options_.hip_version.has_value();
      Add(PortFindingKind::kCooperativeGroups, known ? Severity::kError : Severity::kWarning, code_[i],
          m.name,
          m.name + "() is missing from HIP " + m.missing_through.ToString() + " and older" +
              (known ? " (--hip-version " + options_.hip_version->ToString() + ")" : ""),
          m.advice);
      return;
    }
  }

  // tile.meta_group_size() -> the table's expression for that tile, when the object is a plain name and
  // the call is empty: "{object}" in `older` becomes the name.
  bool Older(size_t i, const HipMember& m) {
    if (m.older.empty() || i < 2 || !code_.Is(i - 1, ".") || !code_.IsKind(i - 2, TokenKind::kIdentifier) ||
        !code_.Is(i + 2, ")") || !OneLine(code_[i - 2].offset, code_[i + 2].offset))
      return false;
    const size_t before = code_.Prev(i - 2);
    if (before < code_.size() && (code_.Is(before, ".") || code_.Is(before, "->") || code_.Is(before, "::")))
      return false;
    const Token& object = code_[i - 2];
    std::string text = m.older;
    const std::string name(code_.Text(i - 2));
    for (size_t at = text.find("{object}"); at != std::string::npos;
         at = text.find("{object}", at + name.size()))
      text.replace(at, 8, name);
    edits_.push_back(PortEdit{object.offset, code_[i + 2].offset + 1 - object.offset, text});
    ++report_.conversions["cooperative_groups"];
    Add(PortFindingKind::kOlderHip, Severity::kWarning, code_[i], m.name,
        m.name + "() is missing from HIP " + m.missing_through.ToString() + " and older: written as " + text +
            " for HIP " + options_.hip_version->ToString(),
        m.advice);
    return true;
  }

  const CodeTokens& code_;
  const PortMap& map_;
  const PortOptions& options_;
  PortFileReport& report_;
  std::vector<PortEdit>& edits_;
  const std::set<std::string>& names_;
  std::set<size_t> consumed_;  // operators rewritten with their reduce
};

}  // namespace

void RewriteCooperativeGroups(const CodeTokens& code, const std::set<std::string>& cg_names,
                              const PortMap& map, const PortOptions& options, PortFileReport& report,
                              std::vector<PortEdit>& edits) {
  CgRewriter(code, cg_names, map, options, report, edits).Run();
}

}  // namespace gpudoctor
