// The HTML report's escaping (report/html_escape.h): markup in machine names and input files stays
// text, attribute values cannot be broken out of, broken UTF-8 and forbidden characters become U+FFFD,
// and only http(s) links become links.
#include <gtest/gtest.h>

#include "report/html_escape.h"

namespace gpudoctor {
namespace {

const std::string kFffd = "\xEF\xBF\xBD";

TEST(ReportEscape, ScriptTagsBecomeText) {
  EXPECT_EQ(EscapeHtml("<script>alert(1)</script>"), "&lt;script&gt;alert(1)&lt;/script&gt;");
  EXPECT_EQ(EscapeHtml("</title><script src=//x>"), "&lt;/title&gt;&lt;script src=//x&gt;");
}

TEST(ReportEscape, QuotesAndAmpersands) {
  EXPECT_EQ(EscapeHtml("say \"hi\" it's"), "say &quot;hi&quot; it&#39;s");
  EXPECT_EQ(EscapeHtml("AT&T Radeon & Co"), "AT&amp;T Radeon &amp; Co");
  // Already-escaped text is escaped again: the page shows exactly what the file said.
  EXPECT_EQ(EscapeHtml("&amp; &#60;"), "&amp;amp; &amp;#60;");
}

TEST(ReportEscape, PlainTextIsUnchanged) {
  const std::string text =
      "NVIDIA H200 (sm_90), 141.0 GiB \xC2\xB5s \xE4\xB8\xAD \xF0\x9F\x98\x80\ttab\nline";
  EXPECT_EQ(EscapeHtml(text), text);
}

TEST(ReportEscape, AttributeValuesCannotBreakOut) {
  const std::string evil = "x\" onmouseover=\"alert(1)";
  const std::string escaped = EscapeHtmlAttribute(evil);
  EXPECT_EQ(escaped.find('"'), std::string::npos) << escaped;
  EXPECT_EQ(escaped, "x&quot; onmouseover&#61;&quot;alert(1)");
  EXPECT_EQ(EscapeHtmlAttribute("a'b`c=d"), "a&#39;b&#96;c&#61;d");
  EXPECT_EQ(EscapeHtmlAttribute("two\nlines\r\tx"), "two&#10;lines&#13;&#9;x");
  EXPECT_EQ(EscapeHtmlAttribute("<>&"), "&lt;&gt;&amp;");
}

TEST(ReportEscape, InvalidUtf8BecomesReplacementCharacters) {
  EXPECT_EQ(EscapeHtml("a\xFFz"), "a" + kFffd + "z");
  EXPECT_EQ(EscapeHtml("\xC0\xAF"), kFffd + kFffd);                          // overlong '/': two bad bytes
  EXPECT_EQ(EscapeHtml("\xED\xA0\x80"), kFffd + kFffd + kFffd);              // a UTF-16 surrogate
  EXPECT_EQ(EscapeHtml("\xF4\x90\x80\x80"), kFffd + kFffd + kFffd + kFffd);  // above U+10FFFF
  // A truncated sequence is one replacement (its maximal valid prefix), the next character survives.
  EXPECT_EQ(EscapeHtml("\xE2\x82<"), kFffd + "&lt;");
  EXPECT_EQ(EscapeHtml("end\xE2\x82"), "end" + kFffd);
  EXPECT_EQ(EscapeHtml("\x80"), kFffd);
}

TEST(ReportEscape, ForbiddenCharactersBecomeReplacementCharacters) {
  EXPECT_EQ(EscapeHtml(std::string("a\0b", 3)), "a" + kFffd + "b");
  EXPECT_EQ(EscapeHtml("\x01\x1b[31m"), kFffd + kFffd + "[31m");  // a terminal colour code
  EXPECT_EQ(EscapeHtml("\x7F"), kFffd);
  EXPECT_EQ(EscapeHtml("\xC2\x85"), kFffd);      // C1 control NEL
  EXPECT_EQ(EscapeHtml("\xEF\xBF\xBE"), kFffd);  // noncharacter U+FFFE
  EXPECT_EQ(EscapeHtml("\xEF\xB7\x90"), kFffd);  // noncharacter U+FDD0
  EXPECT_EQ(SanitizeUtf8("ok\xFF"), "ok" + kFffd);
  EXPECT_EQ(SanitizeUtf8("<kept>&"), "<kept>&");  // sanitizing is not escaping
}

TEST(ReportEscape, OnlyHttpLinksBecomeHrefs) {
  EXPECT_EQ(SafeLinkHref("https://rocm.docs.amd.com/a?b=1&c=2").value_or("none"),
            "https://rocm.docs.amd.com/a?b&#61;1&amp;c&#61;2");
  EXPECT_TRUE(SafeLinkHref("HTTP://EXAMPLE.COM/").has_value());
  EXPECT_FALSE(SafeLinkHref("javascript:alert(1)").has_value());
  EXPECT_FALSE(SafeLinkHref("JavaScript:alert(1)").has_value());
  EXPECT_FALSE(SafeLinkHref("data:text/html,<script>alert(1)</script>").has_value());
  EXPECT_FALSE(SafeLinkHref("/etc/passwd").has_value());
  EXPECT_FALSE(SafeLinkHref("https://").has_value());
  EXPECT_FALSE(SafeLinkHref("https://x.org/\" onclick=\"alert(1)").has_value());
  EXPECT_FALSE(SafeLinkHref("https://x.org/a b").has_value());
  EXPECT_FALSE(SafeLinkHref("https://x.org/\xFF").has_value());
}

}  // namespace
}  // namespace gpudoctor
