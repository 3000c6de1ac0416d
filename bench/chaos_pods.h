// The pod processes of one allotd, found in /proc: the local executor gives
// every pod ALLOT_WORKLOAD_ID, ALLOT_POD_INDEX, ALLOT_NAMESPACE,
// ALLOT_WORKLOAD and ALLOT_SHARED_DIR (under allotd's data folder) in its
// environment (src/backends/local/pod_command.cc). The chaos bench checks
// with them that no pod of a stopped or deleted workload is alive and that no
// pod runs twice.
//
// Contract: reads /proc only (root reads every process's environ; other users
// see their own processes only). Zombies and exiting processes are skipped.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <sys/types.h>

namespace allot::bench {

struct PodProcess {
  pid_t pid = 0;
  uint64_t workload_id = 0;
  int32_t pod_index = 0;
  std::string ns;
  std::string name;

  [[nodiscard]] std::string key() const { return ns + "/" + name; }
};

// The live pods whose ALLOT_SHARED_DIR lies under `data_dir` (absolute).
std::vector<PodProcess> scan_pod_processes(const std::string& data_dir);

}  // namespace allot::bench
