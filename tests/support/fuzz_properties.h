// The properties the fuzz targets of tests/fuzz/ check on every input (in the ordinary build the
// same targets replay their corpora of tests/corpus/fuzz/ under CTest), shared with
// tests/unit/fuzz_regression_test.cpp. Each returns nullopt when every property holds,
// else a description of what broke (the fuzz target then aborts so libFuzzer keeps the input).
// A crash or sanitizer report inside is a finding as well.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace tujit::fuzz {

/// (a) ir/mapping/syntax.h. Input: an axes list (`A=8, B=512`), a newline, a mapping body.
/// Parse failures are diagnostics (code, message, span inside the text); an accepted mapping's
/// to_string() parses back to an equal tree; its normal form's rendering parses back with the same
/// size, normalises to the same list and (up to 4096 positions) maps every position alike.
std::optional<std::string> mapping_properties(std::string_view input);

/// (b) ir/lang analyze / analyze_spec and ir/verify check_kernel on every kernel found:
/// diagnostics well formed with spans inside the file, one StageCheck per stage, analyze_spec
/// agreeing with analyze.
std::optional<std::string> spec_properties(std::string_view input);

/// (c) runtime/npy: input[0] selects the parameter type (and bf16 raw bits), the rest is the
/// file. Accepted arrays re-serialise to the same array; tensor_from_npy over axes of the array's
/// shape either fails with diagnostics or round-trips through npy_from_tensor to the same bits.
std::optional<std::string> npy_properties(std::span<const std::uint8_t> input);

/// (d) spec → verify → find_run_operands → run_kernel on the reference interpreter with --verify,
/// for kernels whose run footprint (harness/run/run_footprint.h) is at most `max_bytes` and whose
/// contraction forms at most kFuzzRunMaxProducts logical products (the interpreter's time grows
/// with them, which the footprint does not bound: a 512³ GEMM holds 2 MB): the JIT (checked code)
/// agrees with the interpreter bit for bit, and an unpoisoned output agrees with the float64 oracle
/// wherever the oracle applies; the JIT never fails on a verified kernel.
inline constexpr std::uint64_t kFuzzRunMaxBytes = 8u << 20; // most book kernels fit
inline constexpr std::uint64_t kFuzzRunMaxProducts = 1u << 21;
std::optional<std::string> run_properties(std::string_view input,
                                          std::uint64_t max_bytes = kFuzzRunMaxBytes);

/// (e) the data path from DM: every fetch chain of every verified kernel lowers
/// (ir/seq/lower_fetches), and on a DM tensor of adversarial codes the address streams lowering
/// composes give every collected cell the state and the bits the image-based fetch interpreter
/// gives it (tests/support/fetch_streams_check.h). Programs whose DM or collected image exceeds
/// `max_cells` are skipped: the check costs about half a microsecond a cell unsanitised and ten
/// times that under `make fuzz`'s sanitizers, so 2^18 cells keep an input well within its timeout
/// (the reference's lm_head, 2^20 cells, took 27 s on a loaded 2-core host).
inline constexpr std::uint64_t kFuzzFetchMaxCells = 1u << 18;
std::optional<std::string> fetch_properties(std::string_view input,
                                            std::uint64_t max_cells = kFuzzFetchMaxCells);

/// (f) structure-aware: the input picks a kernel of tests/support/kernel_gen (byte 0 the form —
/// parameter-fed, DM-fed or mixed — and whether reduced Time cycles may be all padding; bytes 1–8
/// the seed). A generated kernel is valid by construction: it must analyze, pass every verifier and
/// be fed by `tujit run`; then (d) and (e) must hold on it. Byte-level mutation of spec text seldom
/// keeps a kernel valid, so this is what puts many valid kernels through the run and fetch checks.
std::optional<std::string> generated_properties(std::span<const std::uint8_t> input);

} // namespace tujit::fuzz
