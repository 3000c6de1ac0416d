// ProcHidepid: whether /proc hides each user's processes from the others
// (the `hidepid` option of procfs), so that a pod cannot read another team's
// command lines and environments' names there; and the remount that turns it
// on, for an allotd that is allowed to change its host (opt-in).
//
// Contract:
// - parse_proc_mount(mountinfo) is pure: it finds the procfs mounted at /proc
//   in a /proc/self/mountinfo text (the last such line wins, as mounts stack)
//   and says whether its options hide other users' processes: hidepid=1, 2
//   or 4 (noaccess, invisible, ptraceable). kNotFound when /proc is not a
//   procfs mount there.
// - read_proc_mount(path) reads the file and parses it.
// - remount_proc_hidepid() remounts /proc with hidepid=invisible (hidepid=2
//   on kernels before 5.8); it changes the whole mount namespace (the host,
//   outside containers). Needs CAP_SYS_ADMIN.
// - kHidepidHostSetting is the host setting to name in warnings.
// Thread-safe (no shared state).
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"
#include "base/status.h"

namespace allot::local {

inline constexpr const char* kHidepidHostSetting =
    "mount -o remount,hidepid=invisible,gid=<a group allowed to see all> /proc "
    "(or in /etc/fstab: proc /proc proc defaults,hidepid=invisible 0 0)";

struct ProcMount {
  std::string options;  // mount and superblock options, comma-separated
  bool hides_other_users = false;
};

Result<ProcMount> parse_proc_mount(std::string_view mountinfo);
Result<ProcMount> read_proc_mount(const std::string& path = "/proc/self/mountinfo");
Status remount_proc_hidepid();

}  // namespace allot::local
