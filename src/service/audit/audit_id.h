// auditIDs: time-ordered (version 7) UUIDs, as Kubernetes' auditID, and
// where their random bits come from.
//
// Contract:
// - audit_id_of() formats one from `at` (48 bits of its milliseconds since
//   the epoch) and the first 10 bytes of `random` (74 of their bits; the
//   version and variant take the rest). Pure. IDs of later records sort
//   after earlier ones, so that a request's outbox row, named by its
//   auditID (audit_outbox.h), goes to the end of the store's key order
//   rather than to a random page of it.
// - AuditIdSource::next() gives a new one from a pool of random bytes that
//   it draws from the operating system's generator (identity::random_bytes,
//   or the function it was given) kAuditIdPoolBytes at a time: one draw, and
//   one system call, per kAuditIdPoolBytes / 10 IDs rather than one per ID
//   (a request's record costs one ID; docs/benchmarks.md). Each byte of a
//   pool serves one ID only. Thread-safe.
#pragma once

#include <cstddef>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>

#include "base/time.h"

namespace allot::audit {

inline constexpr size_t kAuditIdRandomBytes = 10;
inline constexpr size_t kAuditIdPoolBytes = 4000;  // 400 IDs a draw

std::string audit_id_of(Timestamp at, std::string_view random);

class AuditIdSource {
 public:
  using RandomBytes = std::function<std::string(size_t count)>;
  AuditIdSource();
  explicit AuditIdSource(RandomBytes random);

  std::string next(Timestamp at);

 private:
  RandomBytes random_;
  std::mutex mu_;
  std::string pool_;
  size_t used_ = 0;
};

}  // namespace allot::audit
