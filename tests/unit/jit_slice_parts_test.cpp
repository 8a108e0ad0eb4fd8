// A seeded stream generated where the slices read it (codegen/slice_parts.h,
// JitRunOptions::stream_contents, "[jit-parts]"): on every corpus kernel and 1, 2 and 3 threads the
// run equals the interpreter's on the tensor filled whole, and it never reads the tensor it was
// given (zeros there would change the output). Both ways the run takes are taken: slice by slice
// where the parts are disjoint, a filled copy where they overlap.
#include "codegen/slice_parts.h"
#include "runtime/tensor/sha256.h"
#include "tests/support/corpus_programs.h"
#include "tests/unit/jit_test_support.h"

using namespace tujit;
using namespace tujit::testing::jit;

TEST_CASE("jit parts: a generated stream equals the stream filled whole, on every corpus kernel",
          "[jit-parts]") {
  std::uint64_t seed = 7000, per_slice = 0, overlapping = 0, digested = 0;
  for (const auto& chain : testing::corpus_programs()) {
    INFO(chain.kernel_name);
    const Operands o = operands_for(chain, ++seed);
    const testing::interp::ImageInputs in = testing::interp::image_inputs(chain, o.stream, o.trf);
    const ir::seq::RunProgram& program = in.run.program;
    const runtime::SeededContents contents{seed,
                                           runtime::tile_index(in.stream.axes, in.stream.axes)};
    runtime::LogicalTensor filled = in.stream, given = in.stream;
    runtime::fill_random(filled, contents.seed, contents.index);
    std::fill(given.data.begin(), given.data.end(), std::uint8_t{0});
    auto want = runtime::interpret(program, testing::chain_inputs(filled, in.trf));
    REQUIRE(want.ok());

    const codegen::StreamParts parts = codegen::stream_parts(program, program.live_slices());
    CHECK(parts.reach >= 1);
    if (parts.slices >= 4 && parts.disjoint)
      ++per_slice;
    else if (parts.slices > 1)
      ++overlapping;
    const auto code = compile(program);
    for (unsigned t : {1u, 2u, 3u}) {
      INFO("threads " << t);
      codegen::JitRunOptions ro;
      ro.threads = t;
      ro.stream_contents = &contents;
      ro.digest_output = true;
      auto got =
          codegen::run_contraction_jit(*code, program, testing::chain_inputs(given, in.trf), ro);
      REQUIRE(got.ok());
      CHECK(differences(*want, *got) == 0);
      // The digest that followed the slices is the output's.
      const bool blocks = codegen::output_blocks(program, program.live_slices()).cells > 0;
      CHECK(got->sha256.empty() == !blocks);
      if (blocks) {
        CHECK(got->sha256 == runtime::sha256_hex(runtime::tensor_bytes(got->output)));
        digested += t == 1;
      }
    }
  }
  UNSCOPED_INFO(per_slice << " kernels generate their stream slice by slice, " << overlapping
                          << " fill a copy");
  CHECK(per_slice >= 5);
  CHECK(overlapping >= 1);
  UNSCOPED_INFO(digested << " kernels digest their output as the slices finish");
  CHECK(digested >= 1);
}

TEST_CASE("jit parts: each slice's part, and whether the parts overlap", "[jit-parts]") {
  // The book's batched matmul as the tests lower it: slice s reads the stream from its spatial
  // offset through the largest cell offset, found here by walking every live cell. Its stream
  // tensor holds V innermost, so the slices' parts interleave.
  const ir::seq::RunProgram program = testing::chain_run_of(bmatmul()).program;
  const ir::seq::TensorStreams& s = program.contraction().stream.streams;
  std::uint64_t largest = 0;
  for (std::uint64_t u = 0; u < s.cells.outer_size; ++u)
    for (std::uint64_t j = 0; j < s.cells.inner_size; ++j)
      if (s.cells.at(u, j).state == ir::CellState::Live)
        largest = std::max(largest, s.cells.at(u, j).offset);
  const std::vector<std::uint64_t> live = program.live_slices();
  REQUIRE(live.size() >= 2);
  const codegen::StreamParts parts = codegen::stream_parts(program, live);
  CHECK(parts.reach == largest + 1);
  CHECK(parts.slices == live.size());
  CHECK(s.spatial.at(live[1]).offset - s.spatial.at(live[0]).offset < parts.reach);
  CHECK_FALSE(parts.disjoint);
  // The slices placed one part after another (V outermost) are disjoint; one element less
  // between the first two, and they overlap.
  std::vector<ir::seq::CellAddress> spatial;
  for (std::uint64_t p = 0; p < s.spatial.size(); ++p) spatial.push_back(s.spatial.at(p));
  for (std::size_t k = 0; k < live.size(); ++k) spatial[live[k]].offset = k * parts.reach;
  ir::seq::RunProgram apart = program;
  apart.contraction().stream.streams.spatial = ir::seq::AddressTable::explicit_cells(spatial);
  CHECK(codegen::stream_parts(apart, live).disjoint);
  spatial[live[1]].offset -= 1;
  apart.contraction().stream.streams.spatial = ir::seq::AddressTable::explicit_cells(spatial);
  CHECK_FALSE(codegen::stream_parts(apart, live).disjoint);
}
