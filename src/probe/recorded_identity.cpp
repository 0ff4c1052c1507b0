// Parser and writer for .gpudoctor/identity.json, the recorded user of a sysroot.
#include "probe/recorded_identity.h"

#include <cstdint>
#include <limits>

#include <nlohmann/json.hpp>
#include "core/json_depth.h"

namespace gpudoctor {
namespace {

using Json = nlohmann::json;

bool IsU32(const Json& v) {
  return v.is_number_unsigned() && v.get<uint64_t>() <= std::numeric_limits<uint32_t>::max();
}

}  // namespace

UserIdentity ParseRecordedIdentity(std::string_view json, std::vector<std::string>& warnings) {
  UserIdentity id;
  Json doc = ParseJsonWithinDepth<Json>(json);
  if (doc.is_discarded() || !doc.is_object()) {
    warnings.push_back("identity.json: not a JSON object; using an empty identity");
    return id;
  }
  if (auto it = doc.find("user_name"); it != doc.end() && it->is_string()) {
    id.user_name = it->get<std::string>();
  } else {
    warnings.push_back("identity.json: \"user_name\" missing or not a string");
  }
  if (auto it = doc.find("uid"); it != doc.end() && IsU32(*it)) {
    id.uid = it->get<uint32_t>();
  } else if (it != doc.end()) {
    warnings.push_back("identity.json: \"uid\" is not an unsigned 32-bit number");
  }
  if (auto it = doc.find("group_ids"); it != doc.end()) {
    if (!it->is_array()) {
      warnings.push_back("identity.json: \"group_ids\" is not an array");
    } else {
      for (const Json& g : *it) {
        if (IsU32(g)) {
          id.group_ids.push_back(g.get<uint32_t>());
        } else {
          warnings.push_back("identity.json: a \"group_ids\" entry is not an unsigned 32-bit number");
        }
      }
    }
  }
  if (auto it = doc.find("group_names"); it != doc.end()) {
    if (!it->is_array()) {
      warnings.push_back("identity.json: \"group_names\" is not an array");
    } else {
      for (const Json& g : *it) {
        if (g.is_string()) {
          id.group_names.push_back(g.get<std::string>());
        } else {
          warnings.push_back("identity.json: a \"group_names\" entry is not a string");
        }
      }
    }
  }
  if (!id.group_names.empty() && id.group_names.size() != id.group_ids.size()) {
    warnings.push_back("identity.json: \"group_names\" and \"group_ids\" differ in length");
  }
  if (auto it = doc.find("is_admin"); it != doc.end()) {
    if (it->is_boolean()) {
      id.is_admin = it->get<bool>();
    } else {
      warnings.push_back("identity.json: \"is_admin\" is not true or false");
    }
  }
  return id;
}

std::string RecordedIdentityToJson(const UserIdentity& identity) {
  Json doc = Json::object();
  doc["user_name"] = identity.user_name;
  if (identity.uid) doc["uid"] = *identity.uid;
  doc["group_ids"] = identity.group_ids;
  doc["group_names"] = identity.group_names;
  doc["is_admin"] = identity.is_admin;
  // Replace invalid UTF-8 rather than throw: a user or group name is outside data.
  return doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace gpudoctor
