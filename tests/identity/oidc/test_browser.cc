#include "test_browser.h"

#include <httplib.h>

#include "identity/oidc/oidc_http_client.h"

namespace allot::oidc::testing {
namespace {

std::string between(const std::string& text, const std::string& before, const std::string& after) {
  const size_t start = text.find(before);
  if (start == std::string::npos) return "";
  const size_t end = text.find(after, start + before.size());
  return text.substr(start + before.size(), end - start - before.size());
}

}  // namespace

TestBrowser::TestBrowser(std::string issuer)
    : issuer_(std::move(issuer)), client_(std::make_unique<httplib::Client>(issuer_)) {
  client_->set_follow_location(false);
}

TestBrowser::~TestBrowser() = default;

TestBrowser::Page TestBrowser::request(const std::string& method, const std::string& path,
                                       const std::string& form) {
  if (method == "GET") last_path_ = path;
  httplib::Headers headers;
  std::string cookie;
  for (const auto& [name, value] : cookies_) cookie += name + "=" + value + "; ";
  if (!cookie.empty()) headers.emplace("Cookie", cookie);
  httplib::Result result =
      method == "GET" ? client_->Get(path, headers)
                      : client_->Post(path, headers, form, "application/x-www-form-urlencoded");
  Page page;
  if (!result) return page;
  page.status = result->status;
  page.body = result->body;
  for (const auto& [name, value] : result->headers) {
    if (name == "Set-Cookie") {
      const size_t eq = value.find('=');
      const size_t end = value.find(';');
      cookies_[value.substr(0, eq)] = value.substr(eq + 1, end - eq - 1);
    }
  }
  page.location = result->get_header_value("Location");
  if (page.location.starts_with(issuer_)) page.location = page.location.substr(issuer_.size());
  return page;
}

// Follows redirects; answers the sign-in and consent prompts on the way.
std::string TestBrowser::follow(Page page, const std::string& login, const std::string& password,
                                std::string* leaving) {
  for (int hops = 0; hops < 16; ++hops) {
    if ((page.status == 302 || page.status == 303) && leaving != nullptr &&
        !page.location.starts_with("/")) {
      *leaving = page.location;
      return "";
    }
    if (page.status == 302 || page.status == 303) {
      page = request("GET", page.location, "");
      continue;
    }
    if (page.status != 200) return "HTTP " + std::to_string(page.status) + ": " + page.body;
    if (page.body.find("id=\"success\"") != std::string::npos) return "";
    const std::string prompt = between(page.body, "<p id=\"prompt\">", "</p>");
    if (prompt.empty()) return "an unexpected page: " + page.body.substr(0, 200);
    // The last GET was the interaction page; its path is the one we came from.
    const std::string path = last_path_;
    if (prompt == "login") {
      page = request("POST", path + "/login",
                     form_urlencode({{"login", login}, {"password", password}}));
    } else {
      page = request("POST", path + "/confirm", "");
    }
  }
  return "too many redirects";
}

std::string TestBrowser::approve(const std::string& user_code, const std::string& login,
                                 const std::string& password) {
  Page input = request("GET", "/device", "");
  const std::string xsrf = between(input.body, "name=\"xsrf\" value=\"", "\"");
  if (input.status != 200 || xsrf.empty()) return "no device form";
  Page confirm =
      request("POST", "/device", form_urlencode({{"xsrf", xsrf}, {"user_code", user_code}}));
  if (confirm.status != 200) return "user code refused: HTTP " + std::to_string(confirm.status);
  Page next =
      request("POST", "/device",
              form_urlencode({{"xsrf", xsrf}, {"user_code", user_code}, {"confirm", "yes"}}));
  return follow(next, login, password);
}

std::string TestBrowser::authorize(const std::string& url, const std::string& login,
                                   const std::string& password, std::string& redirect) {
  if (!url.starts_with(issuer_ + "/")) return "not the issuer's URL: " + url;
  redirect.clear();
  const std::string error =
      follow(request("GET", url.substr(issuer_.size()), ""), login, password, &redirect);
  if (!error.empty()) return error;
  return redirect.empty() ? "the issuer sent the browser nowhere" : "";
}

}  // namespace allot::oidc::testing
