// Fuzz target: the issuer's documents (identity/oidc: jwks.h, discovery.h):
// parse_jwks, then every key it accepts verifies a fixed (wrong) signature of
// each algorithm it fits, which must fail without a crash; parse_discovery on
// the same text. Properties: an accepted key is RSA or P-256 and fits exactly
// the algorithms of its type; kids are unique; a parsed discovery document
// names the expected issuer and an https (or loopback http) jwks_uri.
// Seeds: tests/fuzz/corpus/jwks (JWKS documents of real shapes, discovery
// documents).
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>

#include "fuzz_expect.h"
#include "identity/oidc/discovery.h"
#include "identity/oidc/jwks.h"
#include "identity/oidc/jws_signature.h"

namespace {

using allot::fuzz::fuzz_expect;
namespace oidc = allot::oidc;

void check_keys(const oidc::Jwks& jwks, const std::string& text) {
  std::set<std::string> kids;
  const std::string rsa_signature(256, '\x01');
  const std::string ec_signature(64, '\x01');
  for (const oidc::Jwk& jwk : jwks.keys()) {
    fuzz_expect(jwk.key != nullptr, "an accepted key has an EVP_PKEY", text);
    if (jwk.kid) fuzz_expect(kids.insert(*jwk.kid).second, "kids are unique", text);
    const bool rsa = jwk.type == oidc::KeyType::kRsa;
    for (oidc::JwsAlg alg : {oidc::JwsAlg::kRs256, oidc::JwsAlg::kPs256, oidc::JwsAlg::kEs256}) {
      if (!jwk.fits(alg)) continue;
      fuzz_expect(rsa == (alg != oidc::JwsAlg::kEs256), "a key fits only its type's algs", text);
      const auto status = oidc::verify_jws_signature(alg, jwk.key.get(), "e30.e30",
                                                     rsa ? rsa_signature : ec_signature);
      fuzz_expect(!status.ok(), "a made-up signature never verifies", text);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {  // NOLINT
  const std::string text(reinterpret_cast<const char*>(data), size);       // NOLINT
  const auto jwks = oidc::parse_jwks(text);
  if (jwks.ok()) check_keys(*jwks, text);
  const auto metadata = oidc::parse_discovery(text, "https://idp.example.com");
  if (metadata.ok()) {
    fuzz_expect(metadata->issuer == "https://idp.example.com", "discovery names the issuer", text);
    fuzz_expect(oidc::is_acceptable_endpoint(metadata->jwks_uri), "jwks_uri is https", text);
  }
  return 0;
}
