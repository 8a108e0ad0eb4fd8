#include "tests/support/fetch_streams_check.h"

#include "ir/seq/operand_streams.h"
#include "runtime/engine/operand_read.h"
#include "runtime/layout/layout.h"
#include "runtime/tensor/random_fill.h"
#include "tests/support/adversarial_dm.h"
#include "tests/support/device_layout.h"
#include "tests/support/fetch_exec.h"

#include <fmt/format.h>

namespace tujit::testing {

std::optional<std::string> fetch_streams_difference(const ir::seq::FetchProgram& p,
                                                    const ir::KernelParam& dm,
                                                    const ir::AxisTable& axes, std::uint64_t seed) {
  const std::vector<ir::Axis> whole = ir::seq::type_axes(p.dm, axes);
  auto t = runtime::make_logical_tensor(p.dm_type, whole);
  if (!t) return "the DM tensor cannot be made: " + t.diagnostics().front().message;
  for (std::uint64_t k = 0; k < t->elements(); ++k)
    t->set(k, adversarial_code(p.dm_type,
                               runtime::SplitMix64(seed ^ (k * 0x9E3779B97F4A7C15ull)).next()));
  auto image = testing::to_device(*t, p.dm);
  if (!image) return "the DM image cannot be laid out: " + image.diagnostics().front().message;
  auto want = testing::run_fetch(p, *image, axes);
  auto got = ir::seq::fetched_operand(p, dm, whole, axes);
  if (!want || !got) {
    if (!want && !got) {
      if (want.diagnostics().front().code != got.diagnostics().front().code)
        return fmt::format("the interpreter refuses with {}, the streams with {}",
                           want.diagnostics().front().code, got.diagnostics().front().code);
      return std::nullopt;
    }
    return fmt::format(
        "the {} refuses the fetch of `{}`: {}", want ? "streams" : "interpreter", p.source,
        want ? got.diagnostics().front().message : want.diagnostics().front().message);
  }
  const runtime::DeviceImage& w = *want;
  const ir::seq::TensorStreams& s = got->streams;
  if (s.spatial.size() != w.spatial || s.cells.outer_size != w.outer ||
      s.cells.inner_size != w.inner)
    return fmt::format("the streams are [{}][{}][{}], the interpreter's image [{}][{}][{}]",
                       s.spatial.size(), s.cells.outer_size, s.cells.inner_size, w.spatial, w.outer,
                       w.inner);
  for (std::uint64_t sp = 0; sp < w.spatial; ++sp)
    for (std::uint64_t o = 0; o < w.outer; ++o)
      for (std::uint64_t i = 0; i < w.inner; ++i) {
        const std::uint64_t k = w.index(sp, o, i);
        const ir::seq::CellAddress a = s.at(sp, o, i);
        if (a.state != w.state[k])
          return fmt::format("collected cell (slice {}, time {}, element {}): state {} in the "
                             "streams, {} in the interpreter",
                             sp, o, i, static_cast<int>(a.state), static_cast<int>(w.state[k]));
        if (a.state != ir::CellState::Live) continue;
        const std::uint32_t v = runtime::adapt_element(*got, t->dtype, t->get(a.offset));
        if (v != w.bits[k])
          return fmt::format("collected cell (slice {}, time {}, element {}): {:#010x} through "
                             "the streams, {:#010x} in the interpreter",
                             sp, o, i, v, w.bits[k]);
      }
  return std::nullopt;
}

} // namespace tujit::testing
