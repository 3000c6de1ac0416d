// Mutex, SharedMutex, their scoped locks and CondVar, with Clang's
// thread-safety annotations, so that lock discipline is written in the code
// and checked by the compiler (-Wthread-safety, the `tsan` preset builds with
// Clang and makes it an error) instead of being described in comments.
//
// Contract:
// - A member guarded by a mutex is declared `ALLOT_GUARDED_BY(mu_)`; a
//   function that needs a lock held says `ALLOT_REQUIRES(mu_)` (exclusive) or
//   `ALLOT_REQUIRES_SHARED(mu_)`, one that takes it says `ALLOT_EXCLUDES(mu_)`.
// - MutexLock, WriterLock and ReaderLock hold their mutex for their scope.
// - CondVar waits release and retake a held Mutex, as std::condition_variable.
// - Under GCC the annotations are empty: the behaviour is std::mutex's.
// Thin wrappers over the standard types; no extra state.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <shared_mutex>

#if defined(__clang__)
#define ALLOT_THREAD_ANNOTATION(x) __attribute__((x))
#else
#define ALLOT_THREAD_ANNOTATION(x)
#endif

#define ALLOT_CAPABILITY(x) ALLOT_THREAD_ANNOTATION(capability(x))
#define ALLOT_SCOPED_CAPABILITY ALLOT_THREAD_ANNOTATION(scoped_lockable)
#define ALLOT_GUARDED_BY(x) ALLOT_THREAD_ANNOTATION(guarded_by(x))
#define ALLOT_PT_GUARDED_BY(x) ALLOT_THREAD_ANNOTATION(pt_guarded_by(x))
#define ALLOT_ACQUIRED_BEFORE(...) ALLOT_THREAD_ANNOTATION(acquired_before(__VA_ARGS__))
#define ALLOT_REQUIRES(...) ALLOT_THREAD_ANNOTATION(requires_capability(__VA_ARGS__))
#define ALLOT_REQUIRES_SHARED(...) ALLOT_THREAD_ANNOTATION(requires_shared_capability(__VA_ARGS__))
#define ALLOT_ACQUIRE(...) ALLOT_THREAD_ANNOTATION(acquire_capability(__VA_ARGS__))
#define ALLOT_ACQUIRE_SHARED(...) ALLOT_THREAD_ANNOTATION(acquire_shared_capability(__VA_ARGS__))
#define ALLOT_RELEASE(...) ALLOT_THREAD_ANNOTATION(release_capability(__VA_ARGS__))
#define ALLOT_RELEASE_SHARED(...) ALLOT_THREAD_ANNOTATION(release_shared_capability(__VA_ARGS__))
#define ALLOT_RELEASE_GENERIC(...) ALLOT_THREAD_ANNOTATION(release_generic_capability(__VA_ARGS__))
#define ALLOT_EXCLUDES(...) ALLOT_THREAD_ANNOTATION(locks_excluded(__VA_ARGS__))
#define ALLOT_RETURN_CAPABILITY(x) ALLOT_THREAD_ANNOTATION(lock_returned(x))
#define ALLOT_NO_THREAD_SAFETY_ANALYSIS ALLOT_THREAD_ANNOTATION(no_thread_safety_analysis)

namespace allot {

class ALLOT_CAPABILITY("mutex") Mutex {
 public:
  Mutex() = default;
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  void lock() ALLOT_ACQUIRE() { mu_.lock(); }
  void unlock() ALLOT_RELEASE() { mu_.unlock(); }

 private:
  friend class CondVar;
  std::mutex mu_;
};

class ALLOT_CAPABILITY("mutex") SharedMutex {
 public:
  SharedMutex() = default;
  SharedMutex(const SharedMutex&) = delete;
  SharedMutex& operator=(const SharedMutex&) = delete;

  void lock() ALLOT_ACQUIRE() { mu_.lock(); }
  void unlock() ALLOT_RELEASE() { mu_.unlock(); }
  void lock_shared() ALLOT_ACQUIRE_SHARED() { mu_.lock_shared(); }
  void unlock_shared() ALLOT_RELEASE_SHARED() { mu_.unlock_shared(); }

 private:
  std::shared_mutex mu_;
};

// Holds a Mutex for its scope.
class ALLOT_SCOPED_CAPABILITY MutexLock {
 public:
  explicit MutexLock(Mutex& mu) ALLOT_ACQUIRE(mu) : mu_(mu) { mu_.lock(); }
  ~MutexLock() ALLOT_RELEASE() { mu_.unlock(); }
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;

 private:
  Mutex& mu_;
};

// Holds a SharedMutex exclusively for its scope.
class ALLOT_SCOPED_CAPABILITY WriterLock {
 public:
  explicit WriterLock(SharedMutex& mu) ALLOT_ACQUIRE(mu) : mu_(mu) { mu_.lock(); }
  ~WriterLock() ALLOT_RELEASE() { mu_.unlock(); }
  WriterLock(const WriterLock&) = delete;
  WriterLock& operator=(const WriterLock&) = delete;

 private:
  SharedMutex& mu_;
};

// Holds a SharedMutex shared for its scope.
class ALLOT_SCOPED_CAPABILITY ReaderLock {
 public:
  explicit ReaderLock(SharedMutex& mu) ALLOT_ACQUIRE_SHARED(mu) : mu_(mu) { mu_.lock_shared(); }
  ~ReaderLock() ALLOT_RELEASE() { mu_.unlock_shared(); }
  ReaderLock(const ReaderLock&) = delete;
  ReaderLock& operator=(const ReaderLock&) = delete;

 private:
  SharedMutex& mu_;
};

// A condition variable over a held Mutex. Callers wait in a loop on their
// condition, written in the caller's body, where the analysis sees the lock:
//   while (!done_) cv_.wait(mu_);
class CondVar {
 public:
  // Releases mu, waits for a notify (or a spurious wake), retakes mu.
  void wait(Mutex& mu) ALLOT_REQUIRES(mu) {
    std::unique_lock lock(mu.mu_, std::adopt_lock);
    cv_.wait(lock);
    lock.release();
  }
  // As wait(), until `deadline` at the latest; false once it passed.
  bool wait_until(Mutex& mu, std::chrono::steady_clock::time_point deadline) ALLOT_REQUIRES(mu) {
    std::unique_lock lock(mu.mu_, std::adopt_lock);
    const bool notified = cv_.wait_until(lock, deadline) == std::cv_status::no_timeout;
    lock.release();
    return notified;
  }
  void notify_all() { cv_.notify_all(); }
  void notify_one() { cv_.notify_one(); }

 private:
  std::condition_variable cv_;
};

}  // namespace allot
