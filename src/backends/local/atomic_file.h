// write_file_atomically(): replaces a small file so that a reader (or an
// allotd restarted after a crash or a power loss) sees either the old content
// or the new one, never a mix.
//
// Contract: writes `text` to "<path>.tmp" (created with `mode`, whatever the
// umask, O_NOFOLLOW), fsyncs it, renames it over `path` and fsyncs the folder.
// With Survives::kProcessCrash it does not fsync: the new content survives a
// crash of the process (the page cache keeps it) but maybe not a power loss,
// which then leaves the old content, the new one, or none; for files that mean
// nothing after a reboot (pod pid files: the processes and cgroups they trace
// are gone then), whose writer must not wait for the disk.
// On error the temporary file is removed and the Status says which step
// failed on which path. read_small_file() reads a whole file (at most
// `max_bytes`), refusing a symlink. Stateless, thread-compatible per path.
#pragma once

#include <cstddef>
#include <string>

#include <sys/types.h>

#include "base/result.h"
#include "base/status.h"

namespace allot::local {

// The folder that holds `path`: "." for a bare name, "/" for a child of the root.
std::string parent_folder(const std::string& path);

// What the replaced file must survive.
enum class Survives { kPowerLoss, kProcessCrash };

Status write_file_atomically(const std::string& path, const std::string& text, mode_t mode,
                             Survives survives = Survives::kPowerLoss);

// kNotFound when the file does not exist.
Result<std::string> read_whole_file(const std::string& path, size_t max_bytes);

}  // namespace allot::local
