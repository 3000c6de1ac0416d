#include "scim_client.h"

#include <cctype>
#include <fstream>

namespace allot::server_test {

std::string query_value(const std::string& text) {
  constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte) != 0 || c == '-' || c == '_' || c == '.' || c == '~') {
      out += c;
    } else {
      out += '%';
      out += kHex[byte >> 4];
      out += kHex[byte & 0x0f];
    }
  }
  return out;
}

std::vector<std::string> ScimTest::allotd_flags() {
  const std::string file = temp_file("scim-token");
  std::ofstream(file) << kScimToken << "\n";
  return {"--scim-token-file", file};
}

Reply ScimTest::call(const std::string& method, const std::string& path, const std::string& token,
                     const std::string& body) {
  httplib::Client http("127.0.0.1", allotd_.port());
  http.set_read_timeout(std::chrono::seconds(60));
  if (!token.empty()) http.set_bearer_token_auth(token);
  const char* type = path.starts_with("/scim/") ? "application/scim+json" : "application/json";
  httplib::Result res = method == "GET"     ? http.Get(path)
                        : method == "POST"  ? http.Post(path, body, type)
                        : method == "PUT"   ? http.Put(path, body, type)
                        : method == "PATCH" ? http.Patch(path, body, type)
                                            : http.Delete(path);
  Reply reply;
  if (!res) {
    reply.body = httplib::to_string(res.error());
    return reply;
  }
  reply.status = res->status;
  reply.body = res->body;
  reply.json = nlohmann::json::parse(res->body, nullptr, false);
  reply.headers = res->headers;
  return reply;
}

Reply ScimTest::scim(const std::string& method, const std::string& path, const nlohmann::json& body,
                     const std::string& token) {
  return call(method, "/scim/v2" + path, token, body.is_null() ? "" : body.dump());
}

std::string ScimTest::create_user(const std::string& user_name, const std::string& password) {
  nlohmann::json body = {{"schemas", {kUserSchema}}, {"userName", user_name}, {"active", true}};
  if (!password.empty()) body["password"] = password;
  const Reply reply = scim("POST", "/Users", body);
  EXPECT_EQ(reply.status, 201) << reply.describe();
  return reply.json.is_object() ? reply.json.value("id", "") : "";
}

std::string ScimTest::create_group(const std::string& name,
                                   const std::vector<std::string>& members) {
  nlohmann::json list = nlohmann::json::array();
  for (const std::string& id : members) list.push_back({{"value", id}});
  const Reply reply = scim("POST", "/Groups",
                           {{"schemas", {kGroupSchema}}, {"displayName", name}, {"members", list}});
  EXPECT_EQ(reply.status, 201) << reply.describe();
  return reply.json.is_object() ? reply.json.value("id", "") : "";
}

void ScimTest::patch(const std::string& path, const nlohmann::json& operation) {
  const Reply reply = scim("PATCH", path, patch_body(nlohmann::json::array({operation})));
  EXPECT_EQ(reply.status, 200) << path << ": " << reply.describe();
}

std::string ScimTest::login(const std::string& user_name, const std::string& password,
                            const std::string& role, const std::string& team) {
  const nlohmann::json body = {
      {"username", user_name}, {"password", password}, {"role", role}, {"team", team}};
  const Reply reply = call("POST", "/api/v1/sessions", "", body.dump());
  EXPECT_TRUE(reply.status == 201 || reply.status == 401) << user_name << ": " << reply.describe();
  return reply.status == 201 ? reply.json.value("token", "") : "";
}

nlohmann::json patch_body(const nlohmann::json& operations) {
  return {{"schemas", {kPatchOp}}, {"Operations", operations}};
}

void expect_scim_error(const Reply& reply, int status, const std::string& scim_type) {
  EXPECT_EQ(reply.status, status) << reply.describe();
  EXPECT_EQ(reply.header("Content-Type"), "application/scim+json") << reply.describe();
  ASSERT_TRUE(reply.json.is_object()) << reply.describe();
  EXPECT_EQ(reply.json["schemas"],
            nlohmann::json::array({"urn:ietf:params:scim:api:messages:2.0:Error"}));
  EXPECT_EQ(reply.json.value("status", ""), std::to_string(status));
  EXPECT_FALSE(reply.json.value("detail", "").empty());
  if (!scim_type.empty()) {
    EXPECT_EQ(reply.json.value("scimType", ""), scim_type) << reply.describe();
  }
}

}  // namespace allot::server_test
