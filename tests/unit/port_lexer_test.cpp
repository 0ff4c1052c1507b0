// The CUDA lexer of `gpudoctor port`: what it finds, what it steps over, and the clear errors hostile input
// gets.
#include <gtest/gtest.h>

#include <string>

#include "port/cuda_lexer.h"

namespace gpudoctor {
namespace {

std::vector<std::string> Texts(std::string_view src, TokenKind kind) {
  auto tokens = LexCuda(src);
  EXPECT_TRUE(tokens.ok()) << (tokens.ok() ? "" : tokens.error().message);
  std::vector<std::string> out;
  if (!tokens.ok()) return out;
  for (const Token& t : *tokens)
    if (t.kind == kind) out.emplace_back(t.Text(src));
  return out;
}

std::string ErrorOf(std::string_view src) {
  auto tokens = LexCuda(src);
  return tokens.ok() ? "" : tokens.error().message;
}

TEST(PortLexer, IdentifiersOutsideCommentsAndStrings) {
  const std::string src =
      "cudaMalloc(p); // cudaFree\n/* cudaMemcpy */ x = \"cudaStream_t\" + u8\"a\" + L'c' + "
      "R\"d(cudaEvent_t)d\";";
  EXPECT_EQ(Texts(src, TokenKind::kIdentifier), (std::vector<std::string>{"cudaMalloc", "p", "x"}));
  EXPECT_EQ(Texts(src, TokenKind::kComment).size(), 2u);
  EXPECT_EQ(Texts(src, TokenKind::kString),
            (std::vector<std::string>{"\"cudaStream_t\"", "u8\"a\"", "L'c'", "R\"d(cudaEvent_t)d\""}));
}

TEST(PortLexer, LinesAndColumns) {
  auto tokens = LexCuda("a\n  /* x\n y */ bb\n\tc");
  ASSERT_TRUE(tokens.ok());
  std::vector<std::pair<uint32_t, uint32_t>> where;
  for (const Token& t : *tokens)
    if (t.kind == TokenKind::kIdentifier) where.emplace_back(t.line, t.column);
  EXPECT_EQ(where, (std::vector<std::pair<uint32_t, uint32_t>>{{1, 1}, {3, 7}, {4, 2}}));
}

TEST(PortLexer, DirectivesAndHeaderNames) {
  const std::string src =
      "#include <cuda_runtime.h>\n  # include \"k.cuh\"\n#define N cudaMalloc\nint a = b < c;\n";
  EXPECT_EQ(Texts(src, TokenKind::kHeaderName), (std::vector<std::string>{"<cuda_runtime.h>", "\"k.cuh\""}));
  auto tokens = LexCuda(src);
  ASSERT_TRUE(tokens.ok());
  for (const Token& t : *tokens) {
    if (t.Text(src) == "cudaMalloc") {
      EXPECT_TRUE(t.in_directive);
    }
    if (t.Text(src) == "a") {
      EXPECT_FALSE(t.in_directive);
    }
  }
}

TEST(PortLexer, ContinuedDirectiveStaysADirective) {
  const std::string src = "#define CALL(x) \\\n  cudaFree(x)\nint y;";
  auto tokens = LexCuda(src);
  ASSERT_TRUE(tokens.ok());
  for (const Token& t : *tokens) {
    if (t.Text(src) == "cudaFree") {
      EXPECT_TRUE(t.in_directive);
    }
    if (t.Text(src) == "y") {
      EXPECT_FALSE(t.in_directive);
    }
  }
}

TEST(PortLexer, LaunchChevronsAndNumbers) {
  const std::string src = "k<<<grid, 256>>>(x, 1'000, 0x1p-3, 1e+5f);";
  EXPECT_EQ(Texts(src, TokenKind::kLaunchOpen).size(), 1u);
  EXPECT_EQ(Texts(src, TokenKind::kLaunchClose).size(), 1u);
  EXPECT_EQ(Texts(src, TokenKind::kNumber), (std::vector<std::string>{"256", "1'000", "0x1p-3", "1e+5f"}));
}

TEST(PortLexer, HostileInputGetsAClearError) {
  EXPECT_NE(ErrorOf("int a; /* never closed").find("1:8: a /* comment that is never closed"),
            std::string::npos);
  EXPECT_NE(ErrorOf("x\nconst char* s = \"open\n").find("2:17: a string that is never closed"),
            std::string::npos);
  EXPECT_NE(ErrorOf("char c = 'a;\n").find("character literal"), std::string::npos);
  EXPECT_NE(ErrorOf("auto s = R\"x(never)y\";").find("raw string that is never closed"), std::string::npos);
  EXPECT_NE(ErrorOf(std::string("int a;\nint\0b;", 13)).find("2:4: a NUL byte"), std::string::npos);
  EXPECT_NE(ErrorOf("// caf\xe9\n").find("1:7: invalid UTF-8"), std::string::npos);
  EXPECT_NE(ErrorOf("x \xed\xa0\x80").find("invalid UTF-8"), std::string::npos);  // a UTF-16 surrogate
  EXPECT_EQ(ErrorOf("// caf\xc3\xa9 \xf0\x9f\x98\x80\nint a;"), "");
  std::string long_line(10u << 20, 'a');
  EXPECT_NE(ErrorOf("int x;\n" + long_line).find("2:1: the line is longer than"), std::string::npos);
}

TEST(PortLexer, TemplateClosersAreNotLaunchesUnlessOpened) {
  // The lexer reports >>> either way; the translator only pairs it with an open <<<.
  const std::string src = "std::vector<std::vector<std::vector<int>>> v;";
  EXPECT_EQ(Texts(src, TokenKind::kLaunchOpen).size(), 0u);
}

}  // namespace
}  // namespace gpudoctor
