// Reads the user identity that `gather` recorded (.gpudoctor/identity.json), so a
// recorded machine is checked as the user who recorded it, not as whoever runs the tests.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "platform/identity.h"

namespace gpudoctor {

// {"user_name":"alice","uid":1000,"group_ids":[1000,44],"group_names":["alice","video"],"is_admin":false}
// Missing or malformed fields are left at their defaults and each adds one line to `warnings`.
UserIdentity ParseRecordedIdentity(std::string_view json, std::vector<std::string>& warnings);

// The same document, as `gather` writes it.
std::string RecordedIdentityToJson(const UserIdentity& identity);

}  // namespace gpudoctor
