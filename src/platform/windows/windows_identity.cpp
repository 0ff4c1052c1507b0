// Windows: the user running the tool (GetUserNameW) and whether the process
// token is elevated. There are no numeric uid/gid.
#include <windows.h>

#include "platform/identity.h"
#include "platform/windows/windows_text.h"

namespace gpudoctor {
namespace {

bool IsElevated() {
  HANDLE token = nullptr;
  if (!::OpenProcessToken(::GetCurrentProcess(), TOKEN_QUERY, &token)) return false;
  TOKEN_ELEVATION elevation{};
  DWORD size = 0;
  bool elevated = ::GetTokenInformation(token, TokenElevation, &elevation, sizeof elevation, &size) &&
                  elevation.TokenIsElevated != 0;
  ::CloseHandle(token);
  return elevated;
}

}  // namespace

UserIdentity CurrentUserIdentity() {
  UserIdentity id;
  wchar_t name[257] = {};  // UNLEN + 1
  DWORD size = sizeof name / sizeof name[0];
  if (::GetUserNameW(name, &size) && size > 0) id.user_name = WideToUtf8(std::wstring_view(name, size - 1));
  id.is_admin = IsElevated();
  return id;
}

}  // namespace gpudoctor
