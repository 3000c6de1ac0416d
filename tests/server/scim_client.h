// ScimTest: a real allotd serving SCIM (--scim-token-file), and a client that
// sends SCIM requests the way Entra ID and Okta do (application/scim+json,
// the SCIM token as bearer) or with any other token.
#pragma once

#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "allotd_test.h"

namespace allot::server_test {

inline constexpr const char* kScimToken = "allot-canary-secret-scim-5b1f0c9e7a2d";
inline constexpr const char* kPatchOp = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
inline constexpr const char* kUserSchema = "urn:ietf:params:scim:schemas:core:2.0:User";
inline constexpr const char* kGroupSchema = "urn:ietf:params:scim:schemas:core:2.0:Group";
inline constexpr const char* kEnterpriseUser =
    "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";

// Percent-encodes a query parameter's value.
std::string query_value(const std::string& text);

class ScimTest : public AllotdTest {
 protected:
  std::vector<std::string> allotd_flags() override;

  // METHOD /scim/v2PATH with the SCIM token (or `token`; "" sends none).
  Reply scim(const std::string& method, const std::string& path,
             const nlohmann::json& body = nullptr, const std::string& token = kScimToken);
  // Any request to allotd with `token` as bearer ("" sends none).
  Reply call(const std::string& method, const std::string& path, const std::string& token,
             const std::string& body = "");

  // POST /Users (or /Groups): expects 201; the resource's id.
  std::string create_user(const std::string& user_name, const std::string& password = "");
  std::string create_group(const std::string& name, const std::vector<std::string>& members = {});
  // PATCH with one operation; expects 200.
  void patch(const std::string& path, const nlohmann::json& operation);
  // A local login's session token ("" when refused), bound to `role` (and
  // `team`) when given: a cluster-wide one is for cluster admins only.
  std::string login(const std::string& user_name, const std::string& password,
                    const std::string& role = "", const std::string& team = "");
};

// A PatchOp body of `operations`.
nlohmann::json patch_body(const nlohmann::json& operations);

// Expects an RFC 7644 error body of `status` (and `scim_type` when not "").
void expect_scim_error(const Reply& reply, int status, const std::string& scim_type = "");

}  // namespace allot::server_test
