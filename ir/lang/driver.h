// Driver code: the statements of a spec that build a kernel's inputs and call it — the book's
// snippets define a kernel, then (at the top level of the doc-test, or in a `fn main`) construct
// tensors, run a chain on them and pass the result to the kernel:
//
//   let a: CollectTensor<…> = CollectTensor::new(&mut ctx.main, Tensor::zero());
//   let b: TrfTensor<…> = TrfTensor::new();
//   let i: ContractTimeTensor<…> = a.contract_outer::<…>(&b).contract_packet::<…>()
//       .contract_time::<…>();
//   let _o = lane_interleaved(i);
//
// The driver is typed the way a kernel body is (sema.h): every `let NAME: TensorType = …` that
// constructs a tensor is an input, every `let` bound to a method chain on those is a statement,
// and each call `let _ = KERNEL(args)` passes values whose types must be the kernel's parameter
// types (E-TYPE-023). The stages of a driver that calls a kernel become Kernel::driver, which the
// kernel checker verifies with the same stage verifiers as the kernel's own stages
// (ir/verify/kernel_checker.h): a wrong driver is refused.
#pragma once

#include "ir/lang/ast.h"
#include "ir/lang/kernel.h"
#include "ir/lang/resolve.h"

#include <set>
#include <string>
#include <vector>

namespace tujit::ir::lang {

/// Types the driver code of `ast` — its top-level `let` statements and the bodies of its fns
/// that are neither kernels nor `helpers` (fns kernels call, sema.h helper_fns) — and sets
/// Kernel::driver of every kernel a driver calls. Diagnostics go to `diags`.
void type_drivers(const FileAst& ast, Resolver& resolver, std::vector<Kernel>& kernels,
                  const std::set<std::string>& helpers, Diagnostics& diags);

} // namespace tujit::ir::lang
