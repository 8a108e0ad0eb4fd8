// How the JIT compiles (JitOptions) and what a compile took (CompileStats): shared by the JIT core
// (jit_core.h) and every program kind's front (contraction_jit.h).
#pragma once

#include <cstdint>
#include <filesystem>

namespace tujit::codegen {

struct JitOptions {
  /// Reuse / store compiled objects on disk.
  bool use_cache = true;
  /// Cache directory; empty = $TUJIT_CACHE_DIR, else $XDG_CACHE_HOME/tujit, else ~/.cache/tujit.
  std::filesystem::path cache_dir;
  /// Bounds-check every generated load and store (`--checked`): an out-of-range address stops
  /// the run with a diagnostic instead of touching memory. Implies `poison_shadow`.
  bool checked = false;
  /// Compute a run's poisoned outputs with the JIT's own shadow code (codegen/poison_emit.h)
  /// instead of taking runtime::analyze_poison's (`tujit run --verify` compares the two).
  bool poison_shadow = false;
};

struct CompileStats {
  std::uint64_t fingerprint = 0;
  bool cache_hit = false;
  double codegen_ms = 0; // LLVM IR emission + optimisation
  double native_ms = 0;  // until the function pointer is available (includes codegen_ms)
};

} // namespace tujit::codegen
