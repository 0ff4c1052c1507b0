// Every string that reaches the HTML report goes through one of these functions: text from the machine,
// the knowledge base and the JSON files a user passes in is data, never markup. Invalid UTF-8 and the
// characters HTML forbids (controls, noncharacters) become U+FFFD, so the page always parses cleanly.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gpudoctor {

// For element content (text between tags, <title>, SVG <text>): & < > " ' become character references.
std::string EscapeHtml(std::string_view text);

// For an attribute value (the report always quotes them with "): as EscapeHtml, and also the backtick,
// '=' and line breaks, so the value stays one token even if a caller forgot the quotes.
std::string EscapeHtmlAttribute(std::string_view text);

// Replaces each invalid UTF-8 sequence (overlong forms, surrogates, code points above U+10FFFF,
// truncated sequences) and each character HTML does not allow in a document (C0 controls except tab,
// line feed and carriage return; DEL; C1 controls; noncharacters) by U+FFFD. Valid text is unchanged.
std::string SanitizeUtf8(std::string_view text);

// The escaped value for href="..." when `url` is an absolute http:// or https:// address without
// spaces or control characters; nullopt otherwise (javascript:, data:, relative paths), and the caller
// shows the address as plain text.
std::optional<std::string> SafeLinkHref(std::string_view url);

}  // namespace gpudoctor
