// The inputs of one run: every parameter the run reads, as a logical tensor the engines address
// in place. Given contents are used as they are (the whole logical tensor, or any shape that
// covers the tile the kernel reads: the address streams use its own strides, nothing is cut or
// copied); the others are generated over their tile (ir/seq/run_program.h input_tiles) by the
// counter-based generator (runtime::fill_random), indexed by each element's coordinates in the
// whole tensor, on the run's threads.
#pragma once

#include "harness/run/run_request.h"
#include "ir/lang/kernel.h"
#include "runtime/engine/run_io.h"
#include "runtime/tensor/random_fill.h"

#include <map>
#include <string>
#include <string_view>

namespace tujit::run {

struct RunInputTensors {
  RunInputTensors() = default;
  RunInputTensors(RunInputTensors&&) = default; // `tensors` points into `generated`: move only
  RunInputTensors& operator=(RunInputTensors&&) = default;
  RunInputTensors(const RunInputTensors&) = delete;
  RunInputTensors& operator=(const RunInputTensors&) = delete;

  std::map<std::string, runtime::LogicalTensor> generated; // the seeded random ones
  std::map<std::string, runtime::SeededContents> seeded;   // their contents, by name
  runtime::RunInputs tensors;                              // every input, by parameter name
  ir::seq::InputShapes shapes;                             // their axes (the streams' shapes)
};

/// The axes each input of the run will have (the given contents' own, else the tile): what
/// lowering needs, known before any input is made.
ir::seq::InputShapes input_shapes(const RunOperands& ops, const RunRequest& req,
                                  const ir::seq::InputShapes& tiles);

/// Every input of the run: given contents as they are, the others allocated over their tile with
/// their seeded fills added to `fill` (run it before reading them; the tensors stay in place
/// when the result is moved), except the one named `unfilled`: its memory is reserved, never
/// touched, and its contents (`seeded`) go to the engine that generates them where it reads them.
/// E-RUN-007 when given contents do not cover the tile; E-RUN-004 when their dtype is not the
/// parameter's.
Result<RunInputTensors> allocate_inputs(const ir::SpecFile& file, const RunOperands& ops,
                                        const RunRequest& req, const ir::seq::InputShapes& tiles,
                                        runtime::FillJob& fill, std::string_view unfilled = {});

/// Makes each interleaved pair the run reads (RunOperands::Interleaved) from its two sides, once
/// they are filled: allocate_inputs reserves it, with the generated inputs, but leaves it empty.
void interleave_inputs(const RunOperands& ops, RunInputTensors& in);

/// Parameter `p`'s whole logical tensor as a run generates it when no contents are given: the
/// seeded contents allocate_inputs gives it, over every axis.
Result<runtime::LogicalTensor> seeded_input(const ir::SpecFile& file, const ir::KernelParam& p,
                                            const RunRequest& req);

/// allocate_inputs, filled on the request's threads, the interleaved pairs made.
Result<RunInputTensors> make_inputs(const ir::SpecFile& file, const RunOperands& ops,
                                    const RunRequest& req, const ir::seq::InputShapes& tiles);

} // namespace tujit::run
