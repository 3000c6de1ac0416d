// Checkpoint scan: when the newest file in a workload's checkpoint folder was
// last written, which the local backend reports as the workload's last
// checkpoint (backends/executor.h, last_checkpoint()).
//
// Contract: newest_file_time() walks `dir` and the folders below it, at most
// kMaxDepth deep and kMaxEntries entries in all (the newest seen so far counts
// beyond that), and returns the latest modification time of a regular file,
// or nullopt when there is none or `dir` cannot be opened. The folder is the
// pod's to write: the walk never follows a symbolic link (each folder is
// opened with O_NOFOLLOW relative to its parent, each entry looked at with
// AT_SYMLINK_NOFOLLOW), so a link planted there cannot point it elsewhere.
// Thread-safe (no state).
#pragma once

#include <optional>
#include <string>

#include "base/time.h"

namespace allot::local {

inline constexpr int kMaxCheckpointScanDepth = 8;
inline constexpr int kMaxCheckpointScanEntries = 100000;

std::optional<Timestamp> newest_file_time(const std::string& dir);

}  // namespace allot::local
