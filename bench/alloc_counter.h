// AllocCounter: counts the bytes held through the global operator new of the
// allot-bench binary (alloc_counter.cc replaces it), to measure what the
// scheduler allocates during plan().
//
// Contract: figures are malloc's usable sizes (what the allocator really
// hands out, so slightly above the requested sizes). Counters are atomic:
// safe from any thread, though the bench measures on one.
#pragma once

#include <cstdint>

namespace allot::bench {

// Bytes currently held through operator new.
int64_t allocated_bytes();
// The highest allocated_bytes() since the last reset_peak().
int64_t peak_allocated_bytes();
// Starts a new peak at the current allocated_bytes().
void reset_peak();

}  // namespace allot::bench
