#include "codegen/drain_blocks.h"

namespace tujit::codegen {

namespace {

// Whether cells [o, o + 8) are consecutive output elements taking consecutive accumulator cells.
bool is_block(const std::vector<std::uint32_t>& acc, std::uint32_t no_acc,
              const std::vector<std::uint64_t>& out, std::uint64_t no_out, std::uint64_t o) {
  for (std::uint64_t j = 0; j < kDrainBlock; ++j) {
    if (acc[o + j] == no_acc || out[o + j] == no_out) return false;
    if (acc[o + j] != acc[o] + j || out[o + j] != out[o] + j) return false;
  }
  return true;
}

} // namespace

std::vector<DrainRun> drain_runs(const std::vector<std::uint32_t>& acc, std::uint32_t no_acc,
                                 const std::vector<std::uint64_t>& out, std::uint64_t no_out,
                                 std::size_t max_runs) {
  std::vector<DrainRun> runs;
  if (acc.size() != out.size() || acc.empty() || acc.size() % kDrainBlock != 0) return {};
  for (std::uint64_t o = 0; o < acc.size(); o += kDrainBlock) {
    if (!is_block(acc, no_acc, out, no_out, o)) return {};
    const std::uint64_t a = acc[o], e = out[o];
    if (!runs.empty()) {
      DrainRun& r = runs.back();
      if (r.blocks == 1 && e > r.out && a > r.acc) { // the second block sets the steps
        r.out_step = e - r.out;
        r.acc_step = a - r.acc;
        ++r.blocks;
        continue;
      }
      if (r.blocks > 1 && e == r.out + r.blocks * r.out_step &&
          a == r.acc + r.blocks * r.acc_step) {
        ++r.blocks;
        continue;
      }
    }
    if (runs.size() == max_runs) return {};
    runs.push_back(DrainRun{o, 1, e, 0, a, 0});
  }
  return runs;
}

} // namespace tujit::codegen
