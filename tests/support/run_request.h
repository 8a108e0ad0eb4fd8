// The run request the generated-kernel tests use: the reference interpreter, one thread, no
// object cache, the float64 oracle on (`tujit run --verify`), the seeded inputs of `seed`.
#pragma once

#include "harness/run/run_pipeline.h"

#include <cstdint>

namespace tujit::testing {

inline run::RunRequest interp_verify_request(std::uint64_t seed) {
  run::RunRequest req;
  req.engine = run::Engine::Interp;
  req.seed = seed;
  req.verify = true;
  req.threads = 1;
  req.jit.use_cache = false;
  return req;
}

} // namespace tujit::testing
