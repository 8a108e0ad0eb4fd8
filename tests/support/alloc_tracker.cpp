#include "tests/support/alloc_tracker.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <new>

namespace {

std::atomic<std::size_t> g_live{0};
std::atomic<std::size_t> g_peak{0};

// Every block carries its size in a header as wide as malloc's alignment guarantee.
constexpr std::size_t kHeader = alignof(std::max_align_t);

void* tracked_alloc(std::size_t n) noexcept {
  void* raw = std::malloc(n + kHeader);
  if (raw == nullptr) return nullptr;
  *static_cast<std::size_t*>(raw) = n;
  const std::size_t now = g_live.fetch_add(n, std::memory_order_relaxed) + n;
  std::size_t peak = g_peak.load(std::memory_order_relaxed);
  while (now > peak && !g_peak.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {}
  return static_cast<char*>(raw) + kHeader;
}

void tracked_free(void* p) noexcept {
  if (p == nullptr) return;
  void* raw = static_cast<char*>(p) - kHeader;
  g_live.fetch_sub(*static_cast<std::size_t*>(raw), std::memory_order_relaxed);
  std::free(raw);
}

// Over-aligned blocks: the size sits just below the block, which starts `align` bytes into an
// aligned allocation (align ≥ 16 leaves room for it).
void* tracked_aligned_alloc(std::size_t n, std::align_val_t al) noexcept {
  const auto a = std::max(static_cast<std::size_t>(al), sizeof(std::size_t) * 2);
  void* raw = std::aligned_alloc(a, (n + a + a - 1) / a * a);
  if (raw == nullptr) return nullptr;
  char* p = static_cast<char*>(raw) + a;
  *reinterpret_cast<std::size_t*>(p - sizeof(std::size_t)) = n;
  const std::size_t now = g_live.fetch_add(n, std::memory_order_relaxed) + n;
  std::size_t peak = g_peak.load(std::memory_order_relaxed);
  while (now > peak && !g_peak.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {}
  return p;
}

void tracked_aligned_free(void* p, std::align_val_t al) noexcept {
  if (p == nullptr) return;
  const auto a = std::max(static_cast<std::size_t>(al), sizeof(std::size_t) * 2);
  char* c = static_cast<char*>(p);
  g_live.fetch_sub(*reinterpret_cast<std::size_t*>(c - sizeof(std::size_t)),
                   std::memory_order_relaxed);
  std::free(c - a);
}

void* throwing_alloc(std::size_t n) {
  if (void* p = tracked_alloc(n)) return p;
  throw std::bad_alloc();
}

} // namespace

void* operator new(std::size_t n) {
  return throwing_alloc(n);
}
void* operator new[](std::size_t n) {
  return throwing_alloc(n);
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  return tracked_alloc(n);
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  return tracked_alloc(n);
}
void operator delete(void* p) noexcept {
  tracked_free(p);
}
void operator delete[](void* p) noexcept {
  tracked_free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  tracked_free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  tracked_free(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  tracked_free(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  tracked_free(p);
}

void* operator new(std::size_t n, std::align_val_t a) {
  if (void* p = tracked_aligned_alloc(n, a)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n, std::align_val_t a) {
  return operator new(n, a);
}
void operator delete(void* p, std::align_val_t a) noexcept {
  tracked_aligned_free(p, a);
}
void operator delete[](void* p, std::align_val_t a) noexcept {
  tracked_aligned_free(p, a);
}
void operator delete(void* p, std::size_t, std::align_val_t a) noexcept {
  tracked_aligned_free(p, a);
}
void operator delete[](void* p, std::size_t, std::align_val_t a) noexcept {
  tracked_aligned_free(p, a);
}

namespace tujit::testing {

std::size_t live_heap_bytes() {
  return g_live.load(std::memory_order_relaxed);
}

void reset_heap_peak() {
  g_peak.store(g_live.load(std::memory_order_relaxed));
}

std::size_t heap_peak_bytes() {
  return g_peak.load(std::memory_order_relaxed);
}

} // namespace tujit::testing
