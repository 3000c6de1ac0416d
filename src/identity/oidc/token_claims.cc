#include "identity/oidc/token_claims.h"

#include <cmath>

namespace allot::oidc {
namespace {

using Json = nlohmann::json;

// NumericDates beyond year 5000 are refused rather than risk overflow.
constexpr double kMaxNumericDate = 95'617'584'000.0;

Status refused(const std::string& claim, const std::string& why) {
  return {ErrorCode::kUnauthenticated, "token refused: claim " + claim + " " + why};
}

// A NumericDate claim, or none if absent; an error if present and not a date.
Result<std::optional<Timestamp>> numeric_date(const Json& claims, const char* name) {
  const auto it = claims.find(name);
  if (it == claims.end()) return std::optional<Timestamp>();
  if (!it->is_number()) return refused(name, "is not a number");
  const double seconds = it->get<double>();
  if (!std::isfinite(seconds) || seconds < 0 || seconds > kMaxNumericDate) {
    return refused(name, "is out of range");
  }
  return std::optional<Timestamp>(Timestamp::from_millis(static_cast<int64_t>(seconds * 1000)));
}

Status check_audience(const Json& claims, const ClaimRules& rules) {
  const auto aud = claims.find("aud");
  if (aud == claims.end()) return refused("aud", "is missing");
  bool ours = false;
  if (aud->is_string()) {
    ours = *aud == rules.client_id;
  } else if (aud->is_array()) {
    for (const Json& entry : *aud) ours = ours || (entry.is_string() && entry == rules.client_id);
  } else {
    return refused("aud", "is neither a string nor an array");
  }
  if (!ours) return refused("aud", "does not contain the client id");
  const auto azp = claims.find("azp");
  if (azp != claims.end() && *azp != rules.client_id) {
    return refused("azp", "is not the client id");
  }
  return {};
}

Status check_times(const Json& claims, const ClaimRules& rules, Timestamp now, VerifiedToken& out) {
  ALLOT_ASSIGN_OR_RETURN(auto exp, numeric_date(claims, "exp"));
  if (!exp) return refused("exp", "is missing");
  if (now >= *exp + rules.leeway) return refused("exp", "is past: the token has expired");
  ALLOT_ASSIGN_OR_RETURN(auto nbf, numeric_date(claims, "nbf"));
  if (nbf && now + rules.leeway < *nbf) return refused("nbf", "is in the future");
  ALLOT_ASSIGN_OR_RETURN(out.issued_at, numeric_date(claims, "iat"));
  if (out.issued_at && now + rules.leeway < *out.issued_at) {
    return refused("iat", "is in the future");
  }
  out.expires_at = *exp;
  return {};
}

std::optional<std::string> optional_string(const Json& claims, const char* name) {
  const auto it = claims.find(name);
  if (it == claims.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

Result<std::vector<std::string>> groups_of(const Json& claims, const std::string& name) {
  std::vector<std::string> groups;
  const auto it = claims.find(name);
  if (it == claims.end() || it->is_null()) return groups;
  if (it->is_string()) {
    groups.push_back(it->get<std::string>());
    return groups;
  }
  if (!it->is_array()) return refused(name, "is not a list of group names");
  for (const Json& entry : *it) {
    if (!entry.is_string()) return refused(name, "holds a member that is not a string");
    groups.push_back(entry.get<std::string>());
  }
  return groups;
}

}  // namespace

Result<VerifiedToken> check_claims(const Json& claims, const ClaimRules& rules, Timestamp now) {
  if (!claims.is_object()) return refused("set", "is not a JSON object");
  const auto iss = claims.find("iss");
  if (iss == claims.end() || !iss->is_string()) return refused("iss", "is missing");
  if (*iss != rules.issuer) return refused("iss", "is not the configured issuer");
  ALLOT_RETURN_IF_ERROR(check_audience(claims, rules));
  VerifiedToken out;
  ALLOT_RETURN_IF_ERROR(check_times(claims, rules, now, out));
  const auto sub = claims.find("sub");
  if (sub == claims.end() || !sub->is_string() || sub->get_ref<const std::string&>().empty()) {
    return refused("sub", "is missing");
  }
  out.issuer = rules.issuer;
  out.subject = sub->get<std::string>();
  out.email = optional_string(claims, "email");
  out.name = optional_string(claims, "name");
  if (!out.name) out.name = optional_string(claims, "preferred_username");
  ALLOT_ASSIGN_OR_RETURN(out.groups, groups_of(claims, rules.groups_claim));
  out.claims = claims;
  return out;
}

}  // namespace allot::oidc
