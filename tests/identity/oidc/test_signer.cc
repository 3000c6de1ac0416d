#include "test_signer.h"

#include <stdexcept>

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include "identity/oidc/base64url.h"

namespace allot::oidc::testing {
namespace {

using Json = nlohmann::json;

void require(bool ok, const char* what) {
  if (!ok) throw std::runtime_error(std::string("test signer: ") + what);
}

std::string bn_bytes(const BIGNUM* bn, int width) {
  std::string out(static_cast<size_t>(width > 0 ? width : BN_num_bytes(bn)), '\0');
  auto* to = reinterpret_cast<unsigned char*>(out.data());
  require(BN_bn2binpad(bn, to, static_cast<int>(out.size())) > 0, "bn2bin");
  return out;
}

std::string bn_param(EVP_PKEY* key, const char* name, int width) {
  BIGNUM* bn = nullptr;
  require(EVP_PKEY_get_bn_param(key, name, &bn) == 1, name);
  std::string out = bn_bytes(bn, width);
  BN_free(bn);
  return out;
}

// ECDSA DER signature to R||S (32 bytes each).
std::string der_to_raw(const std::string& der) {
  const auto* p = reinterpret_cast<const unsigned char*>(der.data());
  ECDSA_SIG* sig = d2i_ECDSA_SIG(nullptr, &p, static_cast<long>(der.size()));
  require(sig != nullptr, "d2i_ECDSA_SIG");
  std::string raw = bn_bytes(ECDSA_SIG_get0_r(sig), 32) + bn_bytes(ECDSA_SIG_get0_s(sig), 32);
  ECDSA_SIG_free(sig);
  return raw;
}

}  // namespace

TestSigner::TestSigner(std::string kid, bool is_rsa, EVP_PKEY* key)
    : kid_(std::move(kid)), is_rsa_(is_rsa), key_(key, EVP_PKEY_free) {
  require(key != nullptr, "keygen");
}

TestSigner TestSigner::rsa(std::string kid) {
  return {std::move(kid), true, EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", size_t{2048})};
}

TestSigner TestSigner::ec(std::string kid) {
  return {std::move(kid), false, EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256")};
}

TestSigner TestSigner::from_private_pem(std::string kid, const std::string& pem) {
  BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  require(bio != nullptr, "BIO");
  EVP_PKEY* key = PEM_read_bio_PrivateKey(bio, nullptr, nullptr, nullptr);
  BIO_free(bio);
  require(key != nullptr, "PEM private key");
  return {std::move(kid), EVP_PKEY_is_a(key, "RSA") == 1, key};
}

Json TestSigner::jwk() const {
  if (is_rsa_) {
    return {{"kty", "RSA"},
            {"kid", kid_},
            {"use", "sig"},
            {"alg", "RS256"},
            {"n", base64url_encode(bn_param(key_.get(), OSSL_PKEY_PARAM_RSA_N, 0))},
            {"e", base64url_encode(bn_param(key_.get(), OSSL_PKEY_PARAM_RSA_E, 0))}};
  }
  return {{"kty", "EC"},
          {"kid", kid_},
          {"use", "sig"},
          {"alg", "ES256"},
          {"crv", "P-256"},
          {"x", base64url_encode(bn_param(key_.get(), OSSL_PKEY_PARAM_EC_PUB_X, 32))},
          {"y", base64url_encode(bn_param(key_.get(), OSSL_PKEY_PARAM_EC_PUB_Y, 32))}};
}

std::string TestSigner::public_pem() const {
  BIO* bio = BIO_new(BIO_s_mem());
  require(PEM_write_bio_PUBKEY(bio, key_.get()) == 1, "PEM");
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio, &data);
  std::string pem(data, static_cast<size_t>(size));
  BIO_free(bio);
  return pem;
}

std::string TestSigner::sign(const Json& claims, const Json& header_overrides) const {
  Json header = {{"alg", is_rsa_ ? "RS256" : "ES256"}, {"typ", "JWT"}, {"kid", kid_}};
  header.update(header_overrides);
  for (auto it = header.begin(); it != header.end();) {  // a null override removes the member
    it = it->is_null() ? header.erase(it) : std::next(it);
  }
  const bool pss = header["alg"] == "PS256";
  const std::string input = base64url_encode(header.dump()) + "." + base64url_encode(claims.dump());
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  EVP_PKEY_CTX* pctx = nullptr;
  require(EVP_DigestSignInit_ex(ctx, &pctx, "SHA256", nullptr, nullptr, key_.get(), nullptr) == 1,
          "sign init");
  if (pss) {
    require(EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING) == 1, "pss");
    require(EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, 32) == 1, "salt");
  }
  size_t length = 0;
  const auto* in = reinterpret_cast<const unsigned char*>(input.data());
  require(EVP_DigestSign(ctx, nullptr, &length, in, input.size()) == 1, "sign size");
  std::string signature(length, '\0');
  require(EVP_DigestSign(ctx, reinterpret_cast<unsigned char*>(signature.data()), &length, in,
                         input.size()) == 1,
          "sign");
  EVP_MD_CTX_free(ctx);
  signature.resize(length);
  if (!is_rsa_) signature = der_to_raw(signature);
  return input + "." + base64url_encode(signature);
}

std::string jwks_of(std::initializer_list<Json> keys) {
  return Json{{"keys", Json::array_t(keys)}}.dump();
}

std::string assemble(const Json& header, const Json& claims, const std::string& signature) {
  return base64url_encode(header.dump()) + "." + base64url_encode(claims.dump()) + "." +
         base64url_encode(signature);
}

std::string unsigned_token(const Json& claims) {
  return base64url_encode(Json{{"alg", "none"}, {"typ", "JWT"}}.dump()) + "." +
         base64url_encode(claims.dump()) + ".";
}

std::string hs256_token(const Json& claims, const std::string& secret, const std::string& kid) {
  const std::string input = base64url_encode(Json{{"alg", "HS256"}, {"kid", kid}}.dump()) + "." +
                            base64url_encode(claims.dump());
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  require(HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()),
               reinterpret_cast<const unsigned char*>(input.data()), input.size(), mac,
               &length) != nullptr,
          "hmac");
  return input + "." + base64url_encode(std::string(reinterpret_cast<char*>(mac), length));
}

}  // namespace allot::oidc::testing
