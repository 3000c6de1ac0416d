#include "identity/oidc/jws_signature.h"

#include <memory>
#include <optional>
#include <string>

#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/rsa.h>

#include "base/check.h"

namespace allot::oidc {
namespace {

constexpr size_t kEs256CoordinateBytes = 32;

struct MdCtxFree {
  void operator()(EVP_MD_CTX* ctx) const { EVP_MD_CTX_free(ctx); }
};
struct EcdsaSigFree {
  void operator()(ECDSA_SIG* sig) const { ECDSA_SIG_free(sig); }
};

// OpenSSL's per-thread error queue is emptied so that failures do not pile up.
Status bad_signature() {
  ERR_clear_error();
  return {ErrorCode::kUnauthenticated, "token refused: bad signature"};
}

const unsigned char* bytes_of(std::string_view text) {
  return reinterpret_cast<const unsigned char*>(text.data());  // NOLINT: OpenSSL takes bytes
}

// R||S (each 32 bytes, big-endian) as the DER SEQUENCE OpenSSL verifies.
std::optional<std::string> es256_to_der(std::string_view raw) {
  if (raw.size() != 2 * kEs256CoordinateBytes) return std::nullopt;
  std::unique_ptr<ECDSA_SIG, EcdsaSigFree> sig(ECDSA_SIG_new());
  BIGNUM* r = BN_bin2bn(bytes_of(raw), kEs256CoordinateBytes, nullptr);
  BIGNUM* s =
      BN_bin2bn(bytes_of(raw.substr(kEs256CoordinateBytes)), kEs256CoordinateBytes, nullptr);
  if (!sig || r == nullptr || s == nullptr || ECDSA_SIG_set0(sig.get(), r, s) != 1) {
    BN_free(r);
    BN_free(s);
    return std::nullopt;
  }
  const int length = i2d_ECDSA_SIG(sig.get(), nullptr);
  if (length <= 0) return std::nullopt;
  std::string der(static_cast<size_t>(length), '\0');
  auto* cursor = reinterpret_cast<unsigned char*>(der.data());  // NOLINT: OpenSSL writes bytes
  if (i2d_ECDSA_SIG(sig.get(), &cursor) != length) return std::nullopt;
  return der;
}

bool key_fits(JwsAlg alg, EVP_PKEY* key) {
  switch (alg) {
    case JwsAlg::kRs256:
    case JwsAlg::kPs256: return EVP_PKEY_is_a(key, "RSA") == 1;
    case JwsAlg::kEs256: return EVP_PKEY_is_a(key, "EC") == 1;
  }
  return false;
}

}  // namespace

Status verify_jws_signature(JwsAlg alg, EVP_PKEY* key, std::string_view signing_input,
                            std::string_view signature) {
  ALLOT_CHECK(key != nullptr);
  if (!key_fits(alg, key)) return bad_signature();
  std::string der;
  if (alg == JwsAlg::kEs256) {
    auto converted = es256_to_der(signature);
    if (!converted) return bad_signature();
    der = std::move(*converted);
    signature = der;
  }
  std::unique_ptr<EVP_MD_CTX, MdCtxFree> ctx(EVP_MD_CTX_new());
  EVP_PKEY_CTX* pkey_ctx = nullptr;  // owned by ctx
  if (!ctx || EVP_DigestVerifyInit_ex(ctx.get(), &pkey_ctx, "SHA256", nullptr, nullptr, key,
                                      nullptr) != 1) {
    return bad_signature();
  }
  if (alg == JwsAlg::kPs256 &&
      (EVP_PKEY_CTX_set_rsa_padding(pkey_ctx, RSA_PKCS1_PSS_PADDING) != 1 ||
       EVP_PKEY_CTX_set_rsa_mgf1_md_name(pkey_ctx, "SHA256", nullptr) != 1 ||
       EVP_PKEY_CTX_set_rsa_pss_saltlen(pkey_ctx, 32) != 1)) {
    return bad_signature();
  }
  const int verified = EVP_DigestVerify(ctx.get(), bytes_of(signature), signature.size(),
                                        bytes_of(signing_input), signing_input.size());
  if (verified != 1) return bad_signature();
  return {};
}

}  // namespace allot::oidc
