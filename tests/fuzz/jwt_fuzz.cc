// Fuzz target: OIDC tokens (identity/oidc: jwt.h, jws_signature.h,
// token_claims.h) as allotd will read them from an Authorization header:
// parse_jwt, then TokenVerifier::verify against a fixed JWKS (an RSA-2048 and
// a P-256 key; their private halves were thrown away after signing the seeds)
// at a fixed time. Properties: a verified token names the configured issuer,
// the client id among its audiences and a subject; only RS256, PS256 and ES256
// tokens verify; base64url decoding is canonical (what decodes encodes back to
// the same text). Seeds: tests/fuzz/corpus/jwt (tokens signed by the fixed
// keys, valid at the fixed time, and alg none / HS256 forgeries).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_expect.h"
#include "identity/oidc/base64url.h"
#include "identity/oidc/token_verifier.h"

namespace {

using allot::fuzz::fuzz_expect;
namespace oidc = allot::oidc;

constexpr char kJwks[] =
    "{\"keys\":[{\"e\":\"AQAB\",\"kid\":\"fuzz-rsa\",\"kty\":\"RSA\",\"n\":\"nJHszgTfSCeLl_"
    "OkO9EGcFAyAHl2W8vOT"
    "3ukPH7FFS1HmkscuxjNaCEQ05FDPGhLEPjYUjoL9lkXxwjDgnI5Uuia4SSBne2stGFrDfOFgEB6a_hlD-AaIslY9"
    "jjNYZ03jP1ZPEnFZssOfrZQKHxNJlwfyKRbnd2Q8E5Eosrp7O61HEE07ckEKcY1Lt978hc-8T15A-rT7IErp8fk3"
    "IYNkCtb3Vq-sbd7Be_IaW19j-oFNytCQl6iqkU-OHYB8WhOfMUs7MjwyJvaqpgbo6wkQm0j-VxYAJfUebHuLygac"
    "j_aGkwBGFa9RTU02vl4oljHWbmeWXcM9kPKcQ283ftJOw\",\"use\":\"sig\"},{\"alg\":\"ES256\",\"crv\":"
    "\"P-256\""
    ",\"kid\":\"fuzz-ec\",\"kty\":\"EC\",\"use\":\"sig\",\"x\":\"EcCylL4v76JcK5maf4HXk_"
    "r4nE3G9ZwSNhdv7GitsM8"
    "\",\"y\":\"KjMX2HcR0YTsoj2ALYqdLUO9wuknimCihJjP6h0VDDo\"}]}";

class FixedJwks final : public oidc::JwksSource {
 public:
  allot::Result<std::string> fetch_jwks() override { return std::string(kJwks); }
};

oidc::VerifierConfig config() {
  oidc::VerifierConfig config;
  config.issuer = "https://idp.example.com";
  config.client_id = "allot";
  config.allowed_algs = {oidc::JwsAlg::kRs256, oidc::JwsAlg::kPs256, oidc::JwsAlg::kEs256};
  return config;
}

void check_base64url(std::string_view text) {
  const auto decoded = oidc::base64url_decode(text, "fuzz");
  if (!decoded.ok()) return;
  fuzz_expect(oidc::base64url_encode(*decoded) == text, "base64url decoding is canonical",
              std::string(text));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {   // NOLINT
  const std::string_view token(reinterpret_cast<const char*>(data), size);  // NOLINT
  check_base64url(token.substr(0, token.find('.')));
  static FixedJwks source;
  static oidc::TokenVerifier verifier(config(), source);
  const auto now = allot::Timestamp::from_millis(2'000'000'100'000);
  const auto verified = verifier.verify(token, now);
  if (!verified.ok()) return 0;
  const auto parsed = oidc::parse_jwt(token, config().allowed_algs);
  fuzz_expect(parsed.ok(), "a verified token parses", std::string(token));
  fuzz_expect(verified->issuer == "https://idp.example.com" && !verified->subject.empty(),
              "a verified token names the issuer and a subject", std::string(token));
  const auto& aud = verified->claims["aud"];
  fuzz_expect(
      aud == "allot" || (aud.is_array() && std::find(aud.begin(), aud.end(), "allot") != aud.end()),
      "a verified token's audience holds the client id", std::string(token));
  fuzz_expect(now < verified->expires_at + allot::Duration::seconds(60),
              "a verified token has not expired", std::string(token));
  return 0;
}
