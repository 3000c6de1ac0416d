// ScriptSlots: the batch script files the Slurm executor hands to sbatch, one
// per submission in flight, reused (written, then emptied) instead of made and
// removed for every job. On ext4 a file made soon after many removals is
// expensive: the inode allocator skips inodes removed within the last half
// minute, reading their inode table blocks (find_inode_bit, recently_deleted),
// which was 40 % of allotd's CPU in the 1,000-job flood of `allot-bench slurm`
// while each job's script was made and removed (perf, docs/benchmarks.md
// "slurm15").
//
// Contract:
// - take() is a path that no other holder has until it is given back:
//   `<dir>/submit-<k>.sbatch`, k = 0, 1, ...: as many as were ever held at
//   once. Thread-safe.
// - Lease gives its path back when it goes out of scope.
#pragma once

#include <string>
#include <vector>

#include "base/mutex.h"

namespace allot::slurm {

class ScriptSlots {
 public:
  explicit ScriptSlots(std::string dir) : dir_(std::move(dir)) {}
  std::string take();
  void give_back(std::string path);

  class Lease {
   public:
    explicit Lease(ScriptSlots& slots) : slots_(slots), path_(slots.take()) {}
    ~Lease() { slots_.give_back(path_); }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    [[nodiscard]] const std::string& path() const { return path_; }

   private:
    ScriptSlots& slots_;
    std::string path_;
  };

 private:
  const std::string dir_;
  Mutex mu_;
  std::vector<std::string> free_ ALLOT_GUARDED_BY(mu_);
  int next_ ALLOT_GUARDED_BY(mu_) = 0;
};

}  // namespace allot::slurm
