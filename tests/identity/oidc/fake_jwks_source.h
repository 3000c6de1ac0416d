// FakeJwksSource: an in-memory JwksSource for tests: serves whatever document
// it was last given (or an error) and counts the fetches.
#pragma once

#include <string>

#include "identity/oidc/jwks_source.h"

namespace allot::oidc::testing {

class FakeJwksSource final : public JwksSource {
 public:
  explicit FakeJwksSource(std::string document) : document_(std::move(document)) {}

  Result<std::string> fetch_jwks() override {
    ++fetches_;
    if (down_) return Status(ErrorCode::kUnavailable, "issuer down");
    return document_;
  }

  void serve(std::string document) { document_ = std::move(document); }
  void set_down(bool down) { down_ = down; }
  [[nodiscard]] int fetches() const { return fetches_; }

 private:
  std::string document_;
  bool down_ = false;
  int fetches_ = 0;
};

}  // namespace allot::oidc::testing
