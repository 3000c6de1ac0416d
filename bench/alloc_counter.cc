// Replaces every form of the global operator new and delete with malloc-based
// ones that count bytes. Only the allot-bench binary links this file.
#include "bench/alloc_counter.h"

#include <atomic>
#include <cstdlib>
#include <new>

#include <malloc.h>

namespace allot::bench {
namespace {

std::atomic<int64_t> g_current{0};
std::atomic<int64_t> g_peak{0};

void count_allocated(void* p) {
  const auto bytes = static_cast<int64_t>(malloc_usable_size(p));
  const int64_t now = g_current.fetch_add(bytes, std::memory_order_relaxed) + bytes;
  int64_t peak = g_peak.load(std::memory_order_relaxed);
  while (now > peak && !g_peak.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
  }
}

void* allocate(std::size_t size) noexcept {
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p != nullptr) count_allocated(p);
  return p;
}

void* allocate_aligned(std::size_t size, std::align_val_t align) noexcept {
  const auto alignment = static_cast<std::size_t>(align);
  void* p = nullptr;
  if (posix_memalign(&p, alignment < sizeof(void*) ? sizeof(void*) : alignment,
                     size == 0 ? 1 : size) != 0) {
    return nullptr;
  }
  count_allocated(p);
  return p;
}

void deallocate(void* p) noexcept {
  if (p == nullptr) return;
  g_current.fetch_sub(static_cast<int64_t>(malloc_usable_size(p)), std::memory_order_relaxed);
  std::free(p);
}

void* allocate_or_throw(std::size_t size) {
  void* p = allocate(size);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

void* allocate_aligned_or_throw(std::size_t size, std::align_val_t align) {
  void* p = allocate_aligned(size, align);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

}  // namespace

int64_t allocated_bytes() { return g_current.load(std::memory_order_relaxed); }
int64_t peak_allocated_bytes() { return g_peak.load(std::memory_order_relaxed); }
void reset_peak() { g_peak.store(g_current.load(std::memory_order_relaxed)); }

}  // namespace allot::bench

using allot::bench::allocate;
using allot::bench::allocate_aligned;
using allot::bench::allocate_aligned_or_throw;
using allot::bench::allocate_or_throw;
using allot::bench::deallocate;

void* operator new(std::size_t size) { return allocate_or_throw(size); }
void* operator new[](std::size_t size) { return allocate_or_throw(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return allocate(size); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return allocate(size); }
void* operator new(std::size_t size, std::align_val_t align) {
  return allocate_aligned_or_throw(size, align);
}
void* operator new[](std::size_t size, std::align_val_t align) {
  return allocate_aligned_or_throw(size, align);
}
void* operator new(std::size_t size, std::align_val_t align, const std::nothrow_t&) noexcept {
  return allocate_aligned(size, align);
}
void* operator new[](std::size_t size, std::align_val_t align, const std::nothrow_t&) noexcept {
  return allocate_aligned(size, align);
}

void operator delete(void* p) noexcept { deallocate(p); }
void operator delete[](void* p) noexcept { deallocate(p); }
void operator delete(void* p, std::size_t) noexcept { deallocate(p); }
void operator delete[](void* p, std::size_t) noexcept { deallocate(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { deallocate(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { deallocate(p); }
void operator delete(void* p, std::align_val_t) noexcept { deallocate(p); }
void operator delete[](void* p, std::align_val_t) noexcept { deallocate(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { deallocate(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { deallocate(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { deallocate(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { deallocate(p); }
