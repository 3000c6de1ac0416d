// Query parameters of the API's routes: whole numbers and the paging limit.
//
// Contract: unsigned_param() answers `fallback` when the parameter is absent,
// its value when it is a whole decimal number up to `max`, and otherwise an
// invalid_argument naming the parameter and quoting its value. Pure.
#pragma once

#include <cstddef>
#include <cstdint>

#include "base/result.h"
#include "server/http/http_message.h"

namespace allot::server {

// The most items one page of a list may ask for (`limit`).
inline constexpr size_t kMaxListLimit = 10000;

Result<uint64_t> unsigned_param(const HttpRequest& req, const char* name, uint64_t fallback,
                                uint64_t max);

}  // namespace allot::server
