#include "identity/oidc/jwks.h"

#include <set>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/param_build.h>

#include "identity/oidc/base64url.h"
#include "identity/oidc/strict_json.h"

namespace allot::oidc {
namespace {

using Json = nlohmann::json;

constexpr int kMinRsaBits = 2048;
constexpr size_t kMaxRsaModulusBytes = 2048;  // 16384 bits
constexpr size_t kMaxRsaExponentBytes = 8;
constexpr size_t kP256CoordinateBytes = 32;

struct ParamBldFree {
  void operator()(OSSL_PARAM_BLD* bld) const { OSSL_PARAM_BLD_free(bld); }
};
struct ParamFree {
  void operator()(OSSL_PARAM* params) const { OSSL_PARAM_free(params); }
};
struct PkeyCtxFree {
  void operator()(EVP_PKEY_CTX* ctx) const { EVP_PKEY_CTX_free(ctx); }
};
struct BnFree {
  void operator()(BIGNUM* bn) const { BN_free(bn); }
};
using Bignum = std::unique_ptr<BIGNUM, BnFree>;

Status bad_key(size_t index, std::string why) {
  ERR_clear_error();
  return invalid_argument("JWKS key " + std::to_string(index) + " is malformed: " + std::move(why));
}

const unsigned char* bytes_of(const std::string& text) {
  return reinterpret_cast<const unsigned char*>(text.data());  // NOLINT: OpenSSL takes bytes
}

// A required base64url string member of a key.
Result<std::string> member_bytes(const Json& jwk, const char* name, size_t index) {
  const auto it = jwk.find(name);
  if (it == jwk.end() || !it->is_string()) return bad_key(index, std::string("no ") + name);
  auto bytes = base64url_decode(it->get_ref<const std::string&>(), name);
  if (!bytes.ok()) return bad_key(index, bytes.status().message());
  return std::move(bytes).value();
}

// Builds a public key of `type_name` ("RSA", "EC") from `params`.
Result<PublicKey> key_from_params(const char* type_name, OSSL_PARAM_BLD* bld, size_t index) {
  std::unique_ptr<OSSL_PARAM, ParamFree> params(OSSL_PARAM_BLD_to_param(bld));
  std::unique_ptr<EVP_PKEY_CTX, PkeyCtxFree> ctx(
      EVP_PKEY_CTX_new_from_name(nullptr, type_name, nullptr));
  EVP_PKEY* raw = nullptr;
  if (!params || !ctx || EVP_PKEY_fromdata_init(ctx.get()) != 1 ||
      EVP_PKEY_fromdata(ctx.get(), &raw, EVP_PKEY_PUBLIC_KEY, params.get()) != 1 ||
      raw == nullptr) {
    EVP_PKEY_free(raw);
    return bad_key(index, std::string("OpenSSL refused the ") + type_name + " key");
  }
  return PublicKey(raw, EvpPkeyFree{});
}

Result<PublicKey> rsa_key(const Json& jwk, size_t index) {
  ALLOT_ASSIGN_OR_RETURN(std::string n, member_bytes(jwk, "n", index));
  ALLOT_ASSIGN_OR_RETURN(std::string e, member_bytes(jwk, "e", index));
  if (n.empty() || n.size() > kMaxRsaModulusBytes || n[0] == '\0') return bad_key(index, "bad n");
  if (e.empty() || e.size() > kMaxRsaExponentBytes || e[0] == '\0') return bad_key(index, "bad e");
  Bignum bn_n(BN_bin2bn(bytes_of(n), static_cast<int>(n.size()), nullptr));
  Bignum bn_e(BN_bin2bn(bytes_of(e), static_cast<int>(e.size()), nullptr));
  if (!bn_n || !bn_e) return bad_key(index, "out of memory");
  if (BN_num_bits(bn_n.get()) < kMinRsaBits) return bad_key(index, "RSA key under 2048 bits");
  if (!BN_is_odd(bn_e.get()) || BN_is_one(bn_e.get())) return bad_key(index, "bad e");
  std::unique_ptr<OSSL_PARAM_BLD, ParamBldFree> bld(OSSL_PARAM_BLD_new());
  if (!bld || OSSL_PARAM_BLD_push_BN(bld.get(), OSSL_PKEY_PARAM_RSA_N, bn_n.get()) != 1 ||
      OSSL_PARAM_BLD_push_BN(bld.get(), OSSL_PKEY_PARAM_RSA_E, bn_e.get()) != 1) {
    return bad_key(index, "out of memory");
  }
  return key_from_params("RSA", bld.get(), index);
}

Result<PublicKey> ec_key(const Json& jwk, size_t index) {
  ALLOT_ASSIGN_OR_RETURN(std::string x, member_bytes(jwk, "x", index));
  ALLOT_ASSIGN_OR_RETURN(std::string y, member_bytes(jwk, "y", index));
  if (x.size() != kP256CoordinateBytes || y.size() != kP256CoordinateBytes) {
    return bad_key(index, "P-256 coordinates are not 32 bytes");
  }
  // The uncompressed point: 0x04 || x || y.
  std::string point = "\x04" + x + y;
  std::unique_ptr<OSSL_PARAM_BLD, ParamBldFree> bld(OSSL_PARAM_BLD_new());
  if (!bld ||
      OSSL_PARAM_BLD_push_utf8_string(bld.get(), OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0) !=
          1 ||
      OSSL_PARAM_BLD_push_octet_string(bld.get(), OSSL_PKEY_PARAM_PUB_KEY, point.data(),
                                       point.size()) != 1) {
    return bad_key(index, "out of memory");
  }
  ALLOT_ASSIGN_OR_RETURN(PublicKey key, key_from_params("EC", bld.get(), index));
  // fromdata decodes the point; the explicit check also refuses the point at infinity.
  std::unique_ptr<EVP_PKEY_CTX, PkeyCtxFree> check(
      EVP_PKEY_CTX_new_from_pkey(nullptr, key.get(), nullptr));
  if (!check || EVP_PKEY_public_check(check.get()) != 1) {
    return bad_key(index, "the point is not on P-256");
  }
  return key;
}

// Whether to skip this key: not for signatures, or a kind we do not verify with.
bool skipped(const Json& jwk) {
  const auto use = jwk.find("use");
  if (use != jwk.end() && *use != "sig") return true;
  const auto kty = jwk.find("kty");
  if (kty == jwk.end() || !kty->is_string()) return false;  // refused in parse_key
  if (*kty == "EC") return jwk.value("crv", Json()) != "P-256";
  return *kty != "RSA";
}

Result<Jwk> parse_key(const Json& jwk, size_t index) {
  Jwk out;
  const auto kty = jwk.find("kty");
  if (kty == jwk.end() || !kty->is_string()) return bad_key(index, "no kty");
  for (const char* secret : {"d", "p", "q", "dp", "dq", "qi", "k"}) {
    if (jwk.contains(secret)) return bad_key(index, "a public JWKS holds private members");
  }
  if (const auto kid = jwk.find("kid"); kid != jwk.end()) {
    if (!kid->is_string()) return bad_key(index, "kid is not a string");
    out.kid = kid->get<std::string>();
  }
  if (const auto alg = jwk.find("alg"); alg != jwk.end()) {
    if (!alg->is_string()) return bad_key(index, "alg is not a string");
    out.alg = jws_alg_from_name(alg->get_ref<const std::string&>());
  }
  if (*kty == "RSA") {
    out.type = KeyType::kRsa;
    ALLOT_ASSIGN_OR_RETURN(out.key, rsa_key(jwk, index));
  } else {
    out.type = KeyType::kEcP256;
    ALLOT_ASSIGN_OR_RETURN(out.key, ec_key(jwk, index));
  }
  return out;
}

}  // namespace

bool Jwk::fits(JwsAlg token_alg) const {
  if (alg && *alg != token_alg) return false;
  switch (token_alg) {
    case JwsAlg::kRs256:
    case JwsAlg::kPs256: return type == KeyType::kRsa;
    case JwsAlg::kEs256: return type == KeyType::kEcP256;
  }
  return false;
}

const Jwk* Jwks::find(const std::optional<std::string>& kid, JwsAlg alg) const {
  const Jwk* found = nullptr;
  for (const Jwk& jwk : keys_) {
    if (kid) {
      if (jwk.kid == kid) return jwk.fits(alg) ? &jwk : nullptr;
    } else if (jwk.fits(alg)) {
      if (found != nullptr) return nullptr;  // ambiguous without a kid
      found = &jwk;
    }
  }
  return found;
}

bool Jwks::has_kid(const std::string& kid) const {
  for (const Jwk& jwk : keys_) {
    if (jwk.kid == kid) return true;
  }
  return false;
}

Result<Jwks> parse_jwks(std::string_view document) {
  if (document.size() > kMaxJwksBytes) return invalid_argument("JWKS is larger than 512 KiB");
  ALLOT_ASSIGN_OR_RETURN(Json json, parse_strict_json(document, "JWKS"));
  if (!json.is_object()) return invalid_argument("JWKS is not a JSON object");
  const auto keys = json.find("keys");
  if (keys == json.end() || !keys->is_array()) return invalid_argument("JWKS has no keys array");
  if (keys->size() > kMaxJwksKeys) return invalid_argument("JWKS has more than 64 keys");
  std::vector<Jwk> out;
  std::set<std::string> kids;
  for (size_t i = 0; i < keys->size(); ++i) {
    const Json& jwk = (*keys)[i];
    if (!jwk.is_object()) return bad_key(i, "not a JSON object");
    if (skipped(jwk)) continue;
    ALLOT_ASSIGN_OR_RETURN(Jwk key, parse_key(jwk, i));
    if (key.alg == std::nullopt && jwk.contains("alg")) continue;  // an alg we do not verify
    if (key.kid && !kids.insert(*key.kid).second) return bad_key(i, "duplicate kid");
    out.push_back(std::move(key));
  }
  return Jwks(std::move(out));
}

}  // namespace allot::oidc
