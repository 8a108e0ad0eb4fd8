// The one JIT core every program kind shares (docs/design.md §2.4): the object-cache key, the
// compile path (the object from the cache, or made by the kind's code generator and stored; then
// placed by tujit's object loader, object_loader.h) and the partition of a program's slices over
// the thread pool. A program kind (a whole chain, a part of one, a data move, the poison shadow;
// the tests' fetch programs, tests/support/fetch_jit.h) brings only its object maker, its symbol
// and its runner. Nothing here uses LLVM: a cache hit never starts it (README "Performance").
// Internal to codegen/ and the tests.
#pragma once

#include "codegen/jit_options.h"
#include "codegen/linked_function.h"
#include "codegen/object_cache.h"
#include "ir/support/diagnostic.h"
#include "runtime/exec/thread_pool.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace tujit::codegen {

/// A program kind's identity in the object cache and the linker. Objects of different kinds never
/// collide: the cache compares the whole key, and each kind's label and code generator version
/// are part of it.
struct JitProgramKind {
  std::string_view cache_label;  // e.g. "tujit run object; codegen"
  std::uint32_t codegen_version; // the kind's code generator version
  std::string_view symbol;       // the function the object defines
};

/// A kind's code generator on a cache miss: the program compiled to an ELF object for this host
/// (native_compiler.h compile_object).
using ObjectMaker = std::function<Result<std::string>()>;

/// One compiled program: its statistics and its linked function.
struct JitObject {
  CompileStats stats;
  LinkedFunction fn;
};

class JitCore {
public:
  /// The JIT's options and its object cache; LLVM is started only by an object maker, on a miss.
  static Result<JitCore> create(JitOptions options);

  bool checked() const { return options_.checked; }
  /// The run programs' poison shadow is compiled too (JitOptions::poison_shadow).
  bool poison_shadow() const { return options_.checked || options_.poison_shadow; }

  /// The object of the program `fingerprint` of `kind`: from the cache, or made by `make` and
  /// stored; then placed by the object loader. A cached object the loader refuses is a miss.
  /// E-JIT-002 naming `kernel_name` when the maker fails or the loader refuses its object.
  Result<JitObject> compile(const JitProgramKind& kind, std::uint64_t fingerprint,
                            const ObjectMaker& make, const std::string& kernel_name);

private:
  explicit JitCore(JitOptions options);
  std::string cache_key(const JitProgramKind& kind, std::uint64_t fingerprint) const;

  JitOptions options_;
  std::optional<ObjectCache> cache_;
};

/// The most workers a runner's pool has, whatever `--threads` asks for.
inline constexpr std::uint64_t kMaxWorkers = 1024;

/// A pool of `threads` workers (0: every hardware thread), at least one and at most `most`.
unsigned pool_size(unsigned threads, std::uint64_t most);

/// The one slice partition: [0, n) cut into at most kSliceTasksPerWorker ranges per worker of
/// `pool`, `body(begin, end, worker)` run once per range. Slices cost the same, so a few ranges per
/// worker keep the tail short; every partition writes the same bits (a slice's cells depend on its
/// own data only).
inline constexpr std::uint64_t kSliceTasksPerWorker = 4;
void for_each_slice_range(
    runtime::exec::ThreadPool& pool, std::uint64_t n,
    const std::function<void(std::uint64_t begin, std::uint64_t end, unsigned worker)>& body);

} // namespace tujit::codegen
