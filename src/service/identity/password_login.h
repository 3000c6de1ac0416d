// PasswordLogin: the local identity provider's check of a user name and
// password (POST /api/v1/sessions with {"username", "password"}), as
// AccessControl asks it.
//
// Contract: verify() returns the subject the session is for (the User's
// userName as stored) when the password is that User's and the User is
// active. Every other outcome is kUnauthenticated with one message that does
// not say whether the user exists; after repeated failures of one name the
// name is locked for a while (kUnauthenticated too, saying so, for known and
// unknown names alike). Neither the password nor its hash ever appears in an
// error or a log. Implementations are thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"

namespace allot {

class PasswordLogin {
 public:
  virtual ~PasswordLogin() = default;
  virtual Result<std::string> verify(std::string_view user_name, std::string_view password) = 0;
};

}  // namespace allot
