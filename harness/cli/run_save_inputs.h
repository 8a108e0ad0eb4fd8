// `tujit run --save-inputs DIR` (docs/ci.md): the inputs a run used, as .npy files a failure can
// be reproduced from outside tujit (numpy, the reference) or with `tujit run --input`.
#pragma once

#include "harness/run/run_plan.h"
#include "harness/run/run_request.h"
#include "ir/lang/kernel.h"

#include <string>
#include <vector>

namespace tujit::cli {

struct SavedInput {
  std::string name; // the kernel parameter
  std::string path; // DIR/NAME.npy
  std::vector<std::uint64_t> shape;
};

/// Makes each input's contents as the run would (run::make_inputs: given, or seeded random over
/// the tile the kernel reads), puts them into `req.given` so the run reads exactly these, and
/// writes each to DIR/NAME.npy as raw codes (bf16 <u2, f8 |u1), so the round trip is lossless. DIR
/// is created when missing; an existing file is E-IO-002 unless `overwrite`, a DIR that is not a
/// directory E-IO-002.
/// A kernel run command by command saves each kernel input once, made for the first command
/// reading it.
Result<std::vector<SavedInput>> save_run_inputs(const ir::SpecFile& file, const run::RunPlan& plan,
                                                run::RunRequest& req, const std::string& dir,
                                                bool overwrite);

} // namespace tujit::cli
