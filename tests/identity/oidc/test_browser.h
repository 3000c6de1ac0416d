// TestBrowser: what a person's browser does during `allot login`, as plain
// HTTP for the real-provider test: keeps cookies, follows redirects, enters
// the user code at the provider's /device page (or opens an authorization
// request), signs in with a password and consents (the pages of
// scripts/oidc-provider/server.mjs).
#pragma once

#include <map>
#include <memory>
#include <string>

namespace httplib {  // NOLINT(readability-identifier-naming): cpp-httplib's namespace
class Client;
}  // namespace httplib

namespace allot::oidc::testing {

class TestBrowser {
 public:
  explicit TestBrowser(std::string issuer);
  ~TestBrowser();

  // Enters `user_code`, signs in as `login`/`password` and consents. Returns
  // "" on success, else what went wrong (the step and HTTP status).
  std::string approve(const std::string& user_code, const std::string& login,
                      const std::string& password);
  // The authorization code grant: opens `url` (the issuer's authorization
  // request), signs in as `login`/`password` and consents. Returns "" and
  // sets `redirect` to where the issuer sends the browser back (the client's
  // redirect URI with code and state, or its error), else what went wrong.
  std::string authorize(const std::string& url, const std::string& login,
                        const std::string& password, std::string& redirect);

 private:
  struct Page {
    int status = 0;
    std::string location;  // a path on the issuer
    std::string body;
  };
  Page request(const std::string& method, const std::string& path, const std::string& form);
  // Follows redirects on the issuer, answering the prompts; a redirect off
  // the issuer ends it with `leaving` set (when not null).
  std::string follow(Page page, const std::string& login, const std::string& password,
                     std::string* leaving = nullptr);

  std::string issuer_;
  std::unique_ptr<httplib::Client> client_;
  std::map<std::string, std::string> cookies_;
  std::string last_path_;  // of the last GET: the interaction page a prompt came from
};

}  // namespace allot::oidc::testing
