// Windows: the conversions every Windows platform file needs. The Win32 API
// speaks UTF-16; the rest of gpudoctor speaks UTF-8.
#pragma once

#include <string>
#include <string_view>

namespace gpudoctor {

std::string WideToUtf8(std::wstring_view wide);
std::wstring Utf8ToWide(std::string_view utf8);
// FormatMessageW's text for a GetLastError() code, with the code: "Access is denied. (error 5)".
std::string WindowsErrorText(unsigned long code);

}  // namespace gpudoctor
