#include "cli/verbs/device_login.h"

#include <utility>

#include "identity/oidc/device_flow.h"
#include "identity/oidc/discovery.h"

namespace allot::cli {
namespace {

std::string string_at(const nlohmann::json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The endpoints authconfig lacked, from the issuer's own discovery document.
Status discover(IssuerLogin& login, oidc::HttpPort& http) {
  const Result<oidc::HttpReply> reply = http.get(oidc::discovery_url(login.issuer));
  if (!reply.ok()) {
    return Status(ErrorCode::kUnavailable, "cannot reach the identity provider " + login.issuer +
                                               ": " + reply.status().message());
  }
  if (reply->status != 200) {
    return Status(ErrorCode::kUnavailable, "the identity provider " + login.issuer +
                                               " answered HTTP " + std::to_string(reply->status) +
                                               " for its discovery document");
  }
  ALLOT_ASSIGN_OR_RETURN(oidc::ProviderMetadata metadata,
                         oidc::parse_discovery(reply->body, login.issuer));
  login.device_authorization_endpoint = metadata.device_authorization_endpoint.value_or("");
  login.token_endpoint = metadata.token_endpoint.value_or("");
  return {};
}

void show(const oidc::DeviceAuthorization& authorization, std::ostream& out) {
  out << "To log in, open " << authorization.verification_uri << " and enter the code "
      << authorization.user_code << "\n";
  if (authorization.verification_uri_complete) {
    out << "(or open " << *authorization.verification_uri_complete << ")\n";
  }
  out << "Waiting for the login to be approved..." << std::endl;
}

// The device flow's errors, said for the person who ran allot login.
Status explained(const Status& status, const IssuerLogin& login) {
  switch (status.code()) {
    case ErrorCode::kPermissionDenied:
      return Status(status.code(),
                    "login refused: the identity provider answered access_denied "
                    "(the request was declined, or you may not use the client '" +
                        login.client_id + "')");
    case ErrorCode::kFailedPrecondition:
      return Status(status.code(),
                    "login timed out: the code expired before it was approved; run allot login "
                    "again and approve it sooner");
    case ErrorCode::kUnavailable:
      return Status(status.code(), "the identity provider " + login.issuer +
                                       " did not answer as expected: " + status.message());
    default:
      return Status(status.code(), "login failed at the identity provider: " + status.message());
  }
}

}  // namespace

Result<IssuerLogin> issuer_login_of(const nlohmann::json& authconfig,
                                    const std::string& server_url) {
  const auto oidc = authconfig.is_object() ? authconfig.find("oidc") : authconfig.end();
  if (!authconfig.is_object() || oidc == authconfig.end() || !oidc->is_object()) {
    return Status(ErrorCode::kFailedPrecondition,
                  "allotd at " + server_url +
                      " has no OIDC login (allotd --oidc-issuer); log in with --token-file FILE");
  }
  IssuerLogin login{
      .issuer = string_at(*oidc, "issuer"),
      .client_id = string_at(*oidc, "clientId"),
      .scopes = string_at(*oidc, "scopes"),
      .device_authorization_endpoint = string_at(*oidc, "deviceAuthorizationEndpoint"),
      .token_endpoint = string_at(*oidc, "tokenEndpoint")};
  if (login.issuer.empty() || login.client_id.empty()) {
    return Status(ErrorCode::kInternal, "allotd's authconfig names no OIDC issuer or client id",
                  server_url);
  }
  if (login.scopes.empty()) login.scopes = "openid profile email";
  return login;
}

Result<std::string> device_login(IssuerLogin login, const LoginTools& tools, std::ostream& out) {
  if (tools.identity_provider == nullptr || tools.clock == nullptr || !tools.sleep) {
    return Status(ErrorCode::kInternal, "this allot was built without an OIDC client");
  }
  if (login.device_authorization_endpoint.empty() || login.token_endpoint.empty()) {
    ALLOT_RETURN_IF_ERROR(discover(login, *tools.identity_provider));
  }
  if (login.device_authorization_endpoint.empty() || login.token_endpoint.empty()) {
    return Status(ErrorCode::kFailedPrecondition,
                  "the identity provider " + login.issuer +
                      " offers no device authorization grant: enable it for the client '" +
                      login.client_id + "' (docs/oidc.md)");
  }
  if (!oidc::is_acceptable_endpoint(login.device_authorization_endpoint) ||
      !oidc::is_acceptable_endpoint(login.token_endpoint)) {
    return Status(ErrorCode::kFailedPrecondition,
                  "the identity provider's endpoints must be https URLs");
  }
  const oidc::DeviceFlowConfig config{
      .client_id = login.client_id,
      .device_authorization_endpoint = login.device_authorization_endpoint,
      .token_endpoint = login.token_endpoint,
      .scope = login.scopes};
  Result<oidc::TokenSet> tokens =
      oidc::run_device_flow(config, *tools.identity_provider, *tools.clock, tools.sleep,
                            [&out](const oidc::DeviceAuthorization& a) { show(a, out); });
  if (!tokens.ok()) return explained(tokens.status(), login);
  if (!tokens->id_token) {
    return Status(ErrorCode::kUnauthenticated,
                  "the identity provider answered without an ID token: the scopes must include "
                  "openid (allotd --oidc-scopes)");
  }
  return std::move(*tokens->id_token);
}

}  // namespace allot::cli
