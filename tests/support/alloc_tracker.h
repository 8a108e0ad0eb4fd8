// Peak heap use of a region of test code: the test executable replaces the global operator
// new/delete (alloc_tracker.cpp) to count live bytes, so a test can assert that an engine's
// memory stays proportional to its operands and outputs (docs/design.md §5.5: no outer-product
// materialisation). Aligned (align_val_t) allocations are not counted.
#pragma once

#include <cstddef>

namespace tujit::testing {

/// Bytes currently allocated through operator new.
std::size_t live_heap_bytes();

/// Starts a measurement: the peak is reset to the current live bytes.
void reset_heap_peak();

/// The largest live byte count since reset_heap_peak().
std::size_t heap_peak_bytes();

} // namespace tujit::testing
