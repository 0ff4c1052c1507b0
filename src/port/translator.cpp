// The translator (translator.h): one pass over the code tokens collects edits (offset, length, new text);
// the edits are applied in order to the untouched source, so everything between tokens survives byte for
// byte.
#include "port/translator.h"

#include <algorithm>
#include <set>

#include "port/cg_rewrite.h"
#include "port/hazard_scan.h"
#include "port/hip_needs.h"
#include "port/port_edit.h"
#include "port/token_cursor.h"

namespace gpudoctor {
namespace {

using Edit = PortEdit;

// Source text as one line for a message: each run of white space becomes one space.
std::string OneLine(std::string_view text) {
  std::string out;
  for (char c : text) {
    const bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r';
    if (!space)
      out += c;
    else if (!out.empty() && out.back() != ' ')
      out += ' ';
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

bool IsKeywordBeforeCall(std::string_view word) {
  static const std::set<std::string_view> kWords = {"return", "else",   "new",      "delete",    "throw",
                                                    "case",   "sizeof", "decltype", "co_return", "do"};
  return kWords.count(word) > 0;
}

// Names of the mapping table that this file declares itself (a function, type or macro of its own, in its
// own namespace or at file scope): those are the user's and are never renamed in this file.
class DeclaredNames {
 public:
  DeclaredNames(const CodeTokens& code, const PortMap& map) {
    enum class Scope { kNamespace, kClass, kOther };
    std::vector<Scope> scopes;
    Scope pending = Scope::kOther;
    for (size_t i = 0; i < code.size(); ++i) {
      std::string_view t = code.Text(i);
      const Token& tok = code[i];
      if (tok.kind == TokenKind::kPunct) {
        if (t == "{") {
          scopes.push_back(pending);
          pending = Scope::kOther;
        } else if (t == "}") {
          if (!scopes.empty()) scopes.pop_back();
          pending = Scope::kOther;
        } else if (t == ";" || t == "(" || t == ")") {
          pending = Scope::kOther;
        }
        continue;
      }
      if (tok.kind == TokenKind::kString && code.Is(code.Prev(i), "extern")) pending = Scope::kNamespace;
      if (tok.kind != TokenKind::kIdentifier) continue;
      if (t == "namespace") pending = Scope::kNamespace;
      if (t == "struct" || t == "class" || t == "union") pending = Scope::kClass;
      if (map.names.find(std::string(t)) == map.names.end()) continue;
      std::string_view prev = code.Text(code.Prev(i));
      const bool file_scope =
          std::all_of(scopes.begin(), scopes.end(), [](Scope s) { return s != Scope::kOther; });
      // `struct cudaDeviceProp p;` names CUDA's struct; only `struct X {`, `struct X : B {` and `struct X;`
      // declare one of the file's own (issue 32).
      const bool tag = prev == "struct" || prev == "class" || prev == "enum" || prev == "union";
      bool declared =
          (tag && (code.Is(i + 1, "{") || code.Is(i + 1, ":") || code.Is(i + 1, ";"))) ||
          (prev == "using" && code.Is(i + 1, "=")) ||
          (code.IsKind(code.Prev(i), TokenKind::kDirective) && prev.find("define") != std::string_view::npos);
      // A function, variable or member declared at file, namespace or class scope: `T name(`, `T name;`, ...
      const bool declarator_follows = code.Is(i + 1, "(") || code.Is(i + 1, ";") || code.Is(i + 1, "=") ||
                                      code.Is(i + 1, "[") || code.Is(i + 1, "{");
      if (!declared && file_scope && declarator_follows && code.Prev(i) < code.size() &&
          !code[code.Prev(i)].in_directive) {
        const Token& p = code[code.Prev(i)];
        declared = (p.kind == TokenKind::kIdentifier && !IsKeywordBeforeCall(prev)) || prev == "*" ||
                   prev == "&" || prev == ">";
      }
      if (declared && names_.insert(std::string(t)).second) where_.push_back(i);
    }
  }
  bool Has(std::string_view name) const { return names_.count(std::string(name)) > 0; }
  const std::vector<size_t>& where() const { return where_; }

 private:
  std::set<std::string> names_;
  std::vector<size_t> where_;
};

class Translator {
 public:
  Translator(std::string_view source, const CodeTokens& code, const PortMap& map, const PortOptions& options,
             PortFileReport& report)
      : src_(source), code_(code), map_(map), options_(options), report_(report), declared_(code, map) {}

  std::vector<Edit> Run() {
    for (size_t i : declared_.where()) {
      const Token& t = code_[i];
      Add(PortFindingKind::kUserName, Severity::kInfo, t, std::string(code_.Text(i)),
          "the file declares its own " + std::string(code_.Text(i)) +
              ": kept as written everywhere in this file",
          "rename it if it was meant to be the CUDA one");
    }
    for (size_t i = 0; i < code_.size(); ++i) {
      switch (code_[i].kind) {
        case TokenKind::kHeaderName:
          Header(i);
          break;
        case TokenKind::kIdentifier:
          Identifier(i);
          break;
        case TokenKind::kLaunchOpen:
          Launch(i);
          break;
        default:
          break;
      }
    }
    return std::move(edits_);
  }

 private:
  void Add(PortFindingKind kind, Severity severity, const Token& at, std::string name, std::string message,
           std::string advice) {
    report_.findings.push_back(PortFinding{kind, severity, at.line, at.column, std::move(name),
                                           std::move(message), std::move(advice)});
  }

  void Replace(const Token& t, std::string text) {
    edits_.push_back(Edit{t.offset, t.length, std::move(text)});
  }

  std::string Advice(const PortEntry& e) const {
    const PortFamily* f = map_.Family(e.family);
    return f != nullptr && !f->unsupported_hint.empty() ? f->unsupported_hint
                                                        : "HIP has no equivalent: rewrite this part";
  }

  // --hip-version is older than the HIP name and the table gives what that release has instead.
  bool UsesOlder(const PortEntry& e) const {
    return !e.older.empty() && options_.hip_version && e.since && *e.since > *options_.hip_version;
  }
  const std::string& HipName(const PortEntry& e) const { return UsesOlder(e) ? e.older : e.hip; }

  // Version checks, the count, and the edit of one mapped reference.
  void Apply(const PortEntry& e, size_t i, std::string replacement) {
    const Token& t = code_[i];
    if (e.unsupported) {
      const PortFamily* f = map_.Family(e.family);
      Add(PortFindingKind::kUnsupported, Severity::kError, t, e.cuda,
          e.cuda + " has no HIP equivalent (" + (f != nullptr ? f->title : e.family) + ")", Advice(e));
      return;
    }
    if (UsesOlder(e)) {
      Add(PortFindingKind::kOlderHip, Severity::kWarning, t, e.cuda,
          e.hip + " (for " + e.cuda + ") appeared in HIP " + e.since->ToString() + ": written as " + e.older +
              ", which HIP " + options_.hip_version->ToString() + " has",
          e.older_note);
    } else if (options_.hip_version && e.since && *e.since > *options_.hip_version)
      Add(PortFindingKind::kNewerHip, Severity::kError, t, e.cuda,
          e.hip + " (for " + e.cuda + ") appeared in HIP " + e.since->ToString() + "; HIP " +
              options_.hip_version->ToString() + " lacks it",
          "use HIP " + e.since->ToString() + " or newer, or rewrite this call for HIP " +
              options_.hip_version->ToString());
    if (options_.hip_version && e.removed && !(*options_.hip_version < *e.removed))
      Add(PortFindingKind::kRemovedHip, Severity::kError, t, e.cuda,
          e.hip + " (for " + e.cuda + ") was removed in HIP " + e.removed->ToString(),
          "rewrite this part with the HIP API that replaced it");
    ++report_.conversions[e.family];
    if (replacement != code_.Text(i)) Replace(t, std::move(replacement));
  }

  void Header(size_t i) {
    std::string_view text = code_.Text(i);
    if (text.size() < 2) return;
    std::string name(text.substr(1, text.size() - 2));
    auto it = map_.headers.find(name);
    if (it == map_.headers.end()) return;
    const PortEntry& e = it->second;
    Apply(e, i, std::string(1, text.front()) + HipName(e) + std::string(1, text.back()));
  }

  void Identifier(size_t i) {
    std::string_view name = code_.Text(i);
    const size_t prev = code_.Prev(i);
    std::string_view before = code_.Text(prev);
    if (before == "." || before == "->") return StructMember(i);  // a member: renamed only for an older HIP
    if (before == "::") {
      const size_t q = code_.Prev(prev);
      if (code_.IsKind(q, TokenKind::kIdentifier)) {
        // Qualified: only the table's own qualified names ("thrust::cuda"); a user's namespace is never
        // touched.
        auto it = map_.qualified.find(std::string(code_.Text(q)) + "::" + std::string(name));
        if (it != map_.qualified.end()) {
          const std::string& hip = it->second.hip;
          size_t colons = hip.rfind("::");
          Apply(it->second, i, colons == std::string::npos ? hip : hip.substr(colons + 2));
        }
        return;
      }
    }
    auto it = map_.names.find(std::string(name));
    if (it == map_.names.end() || declared_.Has(name)) return;
    const PortEntry& e = it->second;
    if (e.rewrite != PortRewrite::kNone) return;  // the whole call is rewritten (hip_needs.h)
    if (e.kind == PortKind::kNamespace && !code_.Is(i + 1, "::") && before != "namespace") return;
    if (e.kind == PortKind::kNamespace && before == "namespace" && code_.Is(i + 1, "{"))
      return;  // reopened by the user
    Apply(e, i, HipName(e));
    if (e.drop_mask && !e.unsupported) DropMask(i, e);
    if (UsesOlder(e) && e.older.find('(') != std::string::npos) DropEmptyArguments(i);
  }

  // An older form that is a whole call (__activemask() -> __ballot(1)) takes the place of the call: its empty
  // argument list goes.
  void DropEmptyArguments(size_t i) {
    if (!code_.Is(i + 1, "(") || !code_.Is(i + 2, ")")) return;
    const uint32_t from = code_[i + 1].offset;
    edits_.push_back(Edit{from, code_[i + 2].offset + 1 - from, ""});
  }

  // prop.sharedMemPerBlockOptin: a field of a runtime struct that older HIP lacks ([[struct_member]]).
  void StructMember(size_t i) {
    std::string_view name = code_.Text(i);
    for (const HipMember& m : map_.struct_members) {
      if (m.name != name) continue;
      if (options_.hip_version && m.missing_through < *options_.hip_version) return;
      const std::string missing =
          m.name + " is missing from HIP " + m.missing_through.ToString() + " and older";
      if (!options_.hip_version) {
        Add(PortFindingKind::kNewerHip, Severity::kWarning, code_[i], m.name, missing, m.advice);
        return;
      }
      if (m.older.empty()) {
        Add(PortFindingKind::kNewerHip, Severity::kError, code_[i], m.name,
            missing + " (--hip-version " + options_.hip_version->ToString() + ")", m.advice);
        return;
      }
      Add(PortFindingKind::kOlderHip, Severity::kWarning, code_[i], m.name,
          missing + ": written as " + m.older + " for HIP " + options_.hip_version->ToString(), m.advice);
      ++report_.conversions["runtime"];
      Replace(code_[i], m.older);
      return;
    }
  }

  // __shfl_down_sync(mask, v, d) -> __shfl_down(v, d): HIP's wavefront-wide forms take no mask.
  void DropMask(size_t i, const PortEntry& e) {
    if (!code_.Is(i + 1, "(")) return;
    const size_t open = i + 1, close = code_.Matching(open);
    if (close >= code_.size() || close == open + 1) return;
    size_t comma = close;
    int depth = 0;
    for (size_t k = open + 1; k < close; ++k) {
      std::string_view t = code_.Text(k);
      if (t == "(" || t == "[" || t == "{") ++depth;
      if (t == ")" || t == "]" || t == "}") --depth;
      if (t == "," && depth == 0) {
        comma = k;
        break;
      }
    }
    const uint32_t from = code_[open + 1].offset;
    // Up to the comma and the blanks after it: a comment or a line break after the comma stays.
    uint32_t to = comma == close ? code_[close].offset : code_[comma].offset + 1;
    while (comma != close && to < code_[comma + 1].offset && (src_[to] == ' ' || src_[to] == '\t')) ++to;
    std::string_view mask_text =
        src_.substr(from, (comma == close ? code_[close].offset : code_[comma].offset) - from);
    std::string mask = OneLine(mask_text);
    // A mask written over several lines keeps its line breaks, so every later line keeps its number.
    std::string_view dropped = src_.substr(from, to - from);
    edits_.push_back(
        Edit{from, to - from, std::string(std::count(dropped.begin(), dropped.end(), '\n'), '\n')});
    std::string lower = mask;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    bool full = lower.find("0xffffffff") != std::string::npos || lower.find("full") != std::string::npos ||
                lower.find("all") != std::string::npos || lower.find("__activemask") != std::string::npos ||
                lower.find("~0") != std::string::npos || lower == "-1";
    if (!full)
      Add(PortFindingKind::kMaskDropped, Severity::kWarning, code_[i], e.cuda,
          "the lane mask '" + mask + "' was dropped: " + e.hip +
              " acts on every active lane of the wavefront",
          "make sure the lanes outside the mask do not reach this call, or guard it with an if on the lane "
          "id");
  }

  // kernel<<<grid, block[, shared[, stream]]>>>(args) -> hipLaunchKernelGGL(kernel, grid, block, shared,
  // stream, args)
  void Launch(size_t open) {
    ++report_.launches;
    if (!options_.launch_macro) return;
    const Token& at = code_[open];
    auto keep = [&](const std::string& why) {
      Add(PortFindingKind::kLaunchKept, Severity::kInfo, at, "<<<", "launch kept as <<<...>>>: " + why,
          "<<<...>>> is valid HIP; rewrite it by hand if hipLaunchKernelGGL is wanted");
    };
    if (at.in_directive) return keep("it is inside a macro");
    // The kernel: name, optional template arguments, optional qualifiers.
    size_t k = code_.Prev(open);
    bool templated = false;
    if (code_.Is(k, ">")) {
      templated = true;
      int depth = 0;
      for (;; k = code_.Prev(k)) {
        if (k >= code_.size()) return keep("the kernel's template arguments were not understood");
        std::string_view t = code_.Text(k);
        if (t == ">") ++depth;
        if (t == ">>") depth += 2;
        if (t == "<" && --depth == 0) break;
      }
      k = code_.Prev(k);
    }
    if (!code_.IsKind(k, TokenKind::kIdentifier)) return keep("the kernel is not a plain name");
    size_t start = k;
    while (code_.Is(code_.Prev(start), "::") &&
           code_.IsKind(code_.Prev(code_.Prev(start)), TokenKind::kIdentifier))
      start = code_.Prev(code_.Prev(start));
    // The configuration.
    size_t close = open + 1;
    int depth = 0, commas = 0;
    bool empty_argument = code_.Is(open + 1, ",");  // <<<, block>>>: nothing before a comma
    for (; close < code_.size(); ++close) {
      std::string_view t = code_.Text(close);
      if (code_[close].kind == TokenKind::kLaunchClose && depth == 0) break;
      if (t == "(" || t == "[" || t == "{") ++depth;
      if (t == ")" || t == "]" || t == "}") --depth;
      if (t == "," && depth == 0) {
        ++commas;
        const size_t next = close + 1;
        if (next >= code_.size() || code_.Is(next, ",") || code_[next].kind == TokenKind::kLaunchClose)
          empty_argument = true;
      }
      if (t == ";") return keep("the launch configuration was not understood");
    }
    if (close >= code_.size() || close == open + 1 || commas < 1 || commas > 3 || empty_argument)
      return keep("the launch configuration was not understood");
    if (!code_.Is(close + 1, "(") || code_.Matching(close + 1) >= code_.size())
      return keep("no argument list follows");
    const bool no_args = code_.Matching(close + 1) == close + 2;
    const Token& name_end = code_[code_.Prev(open)];
    edits_.push_back(
        Edit{code_[start].offset, 0, templated ? "hipLaunchKernelGGL((" : "hipLaunchKernelGGL("});
    const uint32_t after_kernel = name_end.offset + name_end.length;
    const uint32_t before_config = code_[open + 1].offset;
    edits_.push_back(Edit{after_kernel, before_config - after_kernel,
                          (templated ? "), " : ", ") + LineBreaks(after_kernel, before_config)});
    const Token& last = code_[close - 1];
    const uint32_t after_config = last.offset + last.length;
    const uint32_t after_paren = code_[close + 1].offset + 1;
    std::string pad = commas == 1 ? ", 0, 0" : commas == 2 ? ", 0" : "";
    edits_.push_back(Edit{after_config, after_paren - after_config,
                          pad + (no_args ? "" : ", ") + LineBreaks(after_config, after_paren)});
  }

  // The line breaks of the source between two offsets: a replaced span keeps them, so every later line
  // stays where it was (<<<\n grid, ...>>>\n(args) written over several lines).
  std::string LineBreaks(uint32_t from, uint32_t to) const {
    return std::string(static_cast<size_t>(std::count(src_.begin() + from, src_.begin() + to, '\n')), '\n');
  }

  std::string_view src_;
  const CodeTokens& code_;
  const PortMap& map_;
  const PortOptions& options_;
  PortFileReport& report_;
  DeclaredNames declared_;
  std::vector<Edit> edits_;
};

std::string ApplyEdits(std::string_view source, std::vector<Edit> edits) {
  std::stable_sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) {
    if (a.offset != b.offset) return a.offset < b.offset;
    if ((a.length == 0) != (b.length == 0)) return a.length == 0;  // insertions first
    return a.length > b.length;                                    // then the widest
  });
  std::string out;
  out.reserve(source.size() + source.size() / 16);
  size_t at = 0;
  for (const Edit& e : edits) {
    if (e.offset < at) continue;  // inside a wider edit (a dropped mask holding a renamed name)
    out.append(source.substr(at, e.offset - at));
    out.append(e.text);
    at = e.offset + e.length;
  }
  out.append(source.substr(at));
  return out;
}

uint64_t CountLines(std::string_view s) {
  uint64_t n = static_cast<uint64_t>(std::count(s.begin(), s.end(), '\n'));
  return n + (!s.empty() && s.back() != '\n' ? 1 : 0);
}

}  // namespace

Result<Translation> TranslateCuda(std::string_view source, const PortMap& map, const PortOptions& options) {
  auto tokens = LexCuda(source);
  if (!tokens.ok()) return tokens.error();
  CodeTokens code(source, *tokens);
  Translation result;
  result.report.lines = CountLines(source);
  std::vector<Edit> edits = Translator(source, code, map, options, result.report).Run();
  AddHipNeeds(code, map, result.report, edits);
  const std::set<std::string> cg_names = CooperativeGroupsNames(code);
  RewriteCooperativeGroups(code, cg_names, map, options, result.report, edits);
  ScanHazards(code, cg_names, map, result.report.findings);
  std::stable_sort(result.report.findings.begin(), result.report.findings.end(),
                   [](const PortFinding& a, const PortFinding& b) {
                     return a.line != b.line ? a.line < b.line : a.column < b.column;
                   });
  result.report.changed = !edits.empty();
  result.text = ApplyEdits(source, std::move(edits));
  return result;
}

}  // namespace gpudoctor
