#include "server/request_caller.h"

namespace allot::server {

Principal caller_of(const HttpRequest& /*req*/) { return Principal::anonymous_admin(); }

}  // namespace allot::server
