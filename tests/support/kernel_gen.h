// Random valid kernels built the way the book's strategies build them (contraction.md §11):
// the contraction axis K in the packet (PackSize 1 or 2 flits), an outer axis M (or V) in Time,
// 1/2/4/8 TRF lanes, an optional TRF-only axis B broadcast in time, the K time digit reduced by
// the Time Reducer, and either LaneMode. Each kernel is emitted as spec TEXT (kernel-language.md),
// a whole chain from DM parameters, so the front end, the verifiers, the interpreter and the JIT
// can all consume it. Deterministic for a given seed.
#pragma once

#include <cstdint>
#include <random>
#include <string>

namespace tujit::testing {

struct KernelGenOptions {
  bool allow_i8 = true;         // i8 × i8 → i32 as well as bf16 × bf16 → f32
  bool allow_broadcast = true;  // a TRF-only axis B broadcast in OutTime
  bool allow_sequential = true; // LaneMode::Sequential as well as Interleaved
};

/// The values the book's formulas give for a generated kernel (independent of the verifiers).
struct KernelGenExpected {
  std::uint64_t pack_size = 1;
  std::uint64_t time_broadcast = 1; // |B|, 1 without broadcast
  std::uint64_t lanes = 1;
  std::uint64_t read_size = 1;      // |OP| elements (one full packet per read)
  std::uint64_t depth = 0;          // log2 |OP| (P2 = [1])
  std::uint64_t inner_time = 1;     // |B| when the K time digit is reduced outside B, else 1
  std::uint64_t flits_per_lane = 1; // |B| · |K| / FE
};

struct GeneratedKernel {
  std::string spec;        // the whole file
  std::string kernel_name; // the fn name
  std::string description; // e.g. "bf16 L=4 PS=2 M=4 K=64 B=3 Sequential"
  KernelGenExpected expected;
};

class KernelGenerator {
public:
  KernelGenerator(std::uint64_t seed, KernelGenOptions options = {});
  GeneratedKernel next();

private:
  std::mt19937_64 rng_;
  KernelGenOptions opt_;
  std::uint64_t count_ = 0;
  std::uint64_t pick(std::initializer_list<std::uint64_t> choices);
};

} // namespace tujit::testing
