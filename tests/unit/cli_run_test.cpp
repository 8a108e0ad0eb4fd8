// `tujit run` in-process (docs/cli.md §6): the reference interpreter on seeded and given
// inputs, --verify against the float64 oracle, --output / --force, and the exit statuses.
#include "harness/cli/command.h"
#include "harness/run/run_pipeline.h"
#include "runtime/npy/npy.h"
#include "runtime/tensor/logical_tensor.h"
#include "runtime/tensor/sha256.h"
#include "tests/support/checked.h"
#include "tests/support/cli_capture.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstring>
#include <fstream>
#include <iterator>

using namespace tujit::cli;
namespace rt = tujit::runtime;

namespace {

using Run = tujit::testing::CliRun;
using tujit::testing::TempDir;
const auto spec = &tujit::testing::source_path;

const tujit::testing::TujitCommand run{"run"};

std::vector<std::uint8_t> file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_npy(const std::string& path, rt::NpyDtype dtype, std::vector<std::uint64_t> shape,
               const std::vector<std::uint8_t>& data) {
  rt::NpyArray a;
  a.dtype = dtype;
  a.shape = std::move(shape);
  a.data = data;
  const auto bytes = rt::serialize_npy(a);
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
}

template <class T>
std::vector<std::uint8_t> raw_bytes(const std::vector<T>& v) {
  std::vector<std::uint8_t> b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

// i8 × i8 → i32 (docs/contraction.md §2.1): the types of specs/derived/i8_contract.rs without its
// DmTensor fetch path. `trf_param` is the TRF parameter (the TrfTensor itself, or a second
// CollectTensor), `store` the `let` that stores it in the kernel by `.to_trf()` (or nothing).
std::string i8_kernel(const std::string& name, const std::string& trf_param,
                      const std::string& store, const std::string& trf_operand) {
  return fmt::format(R"(axes![A = 8, K8 = 32, R = 8];
type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];
fn {}<'l, const T: Tu>(
    input: CollectTensor<'l, T, i8, Chip, Cluster, Slice, m![A], m![K8]>,
    {},
) -> ContractTensor<'l, T, i32, Chip, Cluster, Slice, m![A], m![R]> {{
{}    input
        .contract_outer::<m![A], m![K8], _, _, _>({})
        .contract_packet::<m![1]>()
        .contract_time::<m![A]>()
        .contract_lane::<m![A], m![R]>(LaneMode::Interleaved)
}}
)",
                     name, trf_param, store, trf_operand);
}

// The TRF as a parameter.
const std::string kI8Contract =
    i8_kernel("i8_param", "trf: &TrfTensor<i8, Chip, Cluster, Slice, m![R], m![K8]>", "", "trf");

// The same, with the TRF stored in the kernel by `.to_trf()` of a second CollectTensor.
const std::string kI8Store =
    i8_kernel("i8_store", "weights: CollectTensor<'l, T, i8, Chip, Cluster, Slice, m![R], m![K8]>",
              "    let trf: TrfTensor<i8, Chip, Cluster, Slice, m![R], m![K8]> = "
              "weights.to_trf();\n",
              "&trf");

} // namespace

TEST_CASE("run: bmatmul_m_in_time on seeded inputs matches the oracle", "[cli-run]") {
  Run r = run({spec("specs/bmatmul_m_in_time.rs"), "--verify", "--json"});
  INFO(r.err);
  REQUIRE(r.status == kExitOk);
  auto j = r.json();
  CHECK(j["kernel"] == "bmatmul_m_in_time");
  CHECK(j["engine"] == "jit"); // the default engine
  CHECK(j["threads"].get<unsigned>() >= 1);
  // The ContractTensor's axes: V (Cluster, Slice), M (Time), N (Packet), declaration order.
  CHECK(j["output"]["axes"] == nlohmann::json::array({"V", "M", "N"}));
  CHECK(j["output"]["shape"] == nlohmann::json::array({32, 32, 8}));
  CHECK(j["output"]["dtype"] == "f32");
  CHECK(j["output"]["sha256"].get<std::string>().size() == 64);
  CHECK(j["verify"]["oracle_ok"] == true);
  CHECK(j["verify"]["poisoned_outputs"] == 0);
  CHECK(j["verify"]["oracle_max_abs_err"].get<double>() < 1e-4);
  // --verify ran the interpreter on the same images: bit for bit the same.
  CHECK(j["verify"]["engines_bit_exact"] == true);
  CHECK(j["verify"]["other_engine"] == "interp");
  // V·M·N outputs, each a sum over K = 32 products.
  CHECK(j["simulated_macs"] == 32u * 32u * 8u * 32u);
  for (const char* k : {"parse", "lower", "compile", "run", "verify"})
    CHECK(j["time_ms"].contains(k));
  // The cycle summary of both models (docs/cli.md: `tujit run --json` carries it).
  CHECK(j["cycles"]["analytic"]["total"].get<std::uint64_t>() > 0);
  CHECK(j["cycles"]["trace"]["total"].get<std::uint64_t>() > 0);

  Run text = run({spec("specs/bmatmul_m_in_time.rs"), "--verify"});
  CHECK(text.status == kExitOk);
  CHECK(text.out.find("oracle: ok") != std::string::npos);
  CHECK(text.out.find(j["output"]["sha256"].get<std::string>()) != std::string::npos);
}

TEST_CASE("run: the seed fixes the output", "[cli-run]") {
  auto sha = [](const std::string& seed) {
    Run r = run({spec("specs/bmatmul_m_in_time.rs"), "--seed", seed, "--json"});
    REQUIRE(r.status == kExitOk);
    return r.json()["output"]["sha256"].get<std::string>();
  };
  const std::string a = sha("7");
  CHECK(sha("7") == a);
  CHECK(sha("8") != a);
  CHECK(sha("0") == run({spec("specs/bmatmul_m_in_time.rs"), "--json"})
                        .json()["output"]["sha256"]
                        .get<std::string>());
}

TEST_CASE("run: given all-ones inputs give K in every output", "[cli-run]") {
  TempDir dir("cli_run_ones");
  // Parameter shapes over their axes in declaration order: input [V, M, K], trf [V, N, K]
  // (V % 16 in Slice, V / 16 in Cluster; the TRF holds every V).
  const std::vector<float> ones_in(32 * 32 * 32, 1.0f), ones_trf(32 * 8 * 32, 1.0f);
  const std::string in = dir.file("in.npy"), w = dir.file("w.npy"), out = dir.file("out.npy");
  write_npy(in, rt::NpyDtype::F4, {32, 32, 32}, raw_bytes(ones_in));
  write_npy(w, rt::NpyDtype::F4, {32, 8, 32}, raw_bytes(ones_trf));
  Run r = run({spec("specs/bmatmul_m_in_time.rs"), "--input", "input=" + in, "--input", "trf=" + w,
               "--output", out, "--verify", "--json"});
  INFO(r.err);
  REQUIRE(r.status == kExitOk);
  CHECK(r.json()["verify"]["oracle_max_abs_err"] == 0.0);
  auto npy = rt::read_npy_file(out);
  REQUIRE(npy.ok());
  CHECK(npy->dtype == rt::NpyDtype::F4);
  CHECK(npy->shape == std::vector<std::uint64_t>{32, 32, 8});
  std::vector<float> v(npy->elements());
  std::memcpy(v.data(), npy->data.data(), npy->data.size());
  for (float x : v) REQUIRE(x == 32.0f);
}

TEST_CASE("run: --output writes the logical tensor and refuses to overwrite", "[cli-run]") {
  TempDir dir("cli_run_output");
  const std::string out = dir.file("o.npy");
  Run r = run({spec("specs/bmatmul_m_in_time.rs"), "--output", out, "--json"});
  INFO(r.err);
  REQUIRE(r.status == kExitOk);
  auto npy = rt::read_npy_file(out);
  REQUIRE(npy.ok());
  CHECK(npy->shape == std::vector<std::uint64_t>{32, 32, 8});
  // sha256 is over the logical tensor's little-endian bytes: the .npy data exactly (f32 = <f4).
  CHECK(rt::sha256_hex(npy->data) == r.json()["output"]["sha256"].get<std::string>());

  const auto before = file_bytes(out);
  Run again = run({spec("specs/bmatmul_m_in_time.rs"), "--seed", "3", "--output", out});
  CHECK(again.status == kExitUsage);
  CHECK(file_bytes(out) == before);
  Run forced = run({spec("specs/bmatmul_m_in_time.rs"), "--seed", "3", "--output", out, "--force"});
  CHECK(forced.status == kExitOk);
  CHECK(file_bytes(out) != before);
}

TEST_CASE("run: an i8 kernel matches the oracle exactly", "[cli-run]") {
  TempDir dir("cli_run_i8");
  for (const std::string& text : {kI8Contract, kI8Store}) {
    const std::string path = dir.file("k.rs", text);
    Run r = run({path, "--verify", "--json", "--seed", "11"});
    INFO(text << r.err);
    REQUIRE(r.status == kExitOk);
    auto j = r.json();
    CHECK(j["output"]["dtype"] == "i32");
    CHECK(j["output"]["axes"] == nlohmann::json::array({"A", "R"}));
    CHECK(j["output"]["shape"] == nlohmann::json::array({8, 8}));
    CHECK(j["verify"]["oracle_ok"] == true);
    CHECK(j["verify"]["oracle_max_abs_err"] == 0.0);
    CHECK(j["simulated_macs"] == 8 * 8 * 32);
  }
}

TEST_CASE("run: given i8 inputs give the brute-force products", "[cli-run]") {
  TempDir dir("cli_run_i8given");
  const std::string path = dir.file("k.rs", kI8Store);
  std::vector<std::int8_t> a(8 * 32), w(8 * 32);
  for (int i = 0; i < 8; ++i)
    for (int k = 0; k < 32; ++k) {
      a[static_cast<std::size_t>(i * 32 + k)] =
          static_cast<std::int8_t>((i * 37 + k * 11) % 256 - 128);
      w[static_cast<std::size_t>(k * 8 + i)] = static_cast<std::int8_t>((i * 13 - k * 7) % 100);
    }
  const std::string in = dir.file("a.npy"), wf = dir.file("w.npy"), out = dir.file("o.npy");
  write_npy(in, rt::NpyDtype::I1, {8, 32}, raw_bytes(a));
  // weights' axes in declaration order (A, K8, R): [K8, R].
  write_npy(wf, rt::NpyDtype::I1, {32, 8}, raw_bytes(w));
  Run r = run({path, "--input", "input=" + in, "--input", "weights=" + wf, "--output", out});
  INFO(r.err);
  REQUIRE(r.status == kExitOk);
  auto npy = rt::read_npy_file(out);
  REQUIRE(npy.ok());
  REQUIRE(npy->dtype == rt::NpyDtype::I4);
  std::vector<std::int32_t> o(npy->elements());
  std::memcpy(o.data(), npy->data.data(), npy->data.size());
  for (int i = 0; i < 8; ++i)
    for (int r8 = 0; r8 < 8; ++r8) {
      std::int32_t sum = 0;
      for (int k = 0; k < 32; ++k)
        sum += a[static_cast<std::size_t>(i * 32 + k)] * w[static_cast<std::size_t>(k * 8 + r8)];
      CHECK(o[static_cast<std::size_t>(i * 8 + r8)] == sum);
    }
}

// A tile kernel: the DM input holds AA < 8 of AA = 64 (specs' i8_contract with A cut from a
// larger axis), so `tujit run` reads it over the tile [AA=8, K8=32] (ir/seq/run_program.h
// input_tiles).
const char* const kI8Tile = R"(use furiosa_opt_std::prelude::*;
axes![AA = 64, K8 = 32, R = 8];
type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];
type Lane = m![R];
pub fn tile<'l>(
    ctx: &'l mut Context,
    input_dm: &DmTensor<i8, Chip, Cluster, Slice, m![AA % 8, K8]>,
    trf_dm: &DmTensor<i8, Chip, Cluster, Slice, m![R, K8]>,
) -> ContractTensor<'l, { Tu::Main }, i32, Chip, Cluster, Slice, m![AA % 8], m![R]> {
    let trf: TrfTensor<i8, Chip, Cluster, Slice, Lane, m![K8]> = ctx
        .sub
        .begin(trf_dm.view())
        .fetch::<m![R], m![K8]>()
        .collect::<m![R], m![K8]>()
        .to_trf();
    ctx.main
        .begin(input_dm.view())
        .fetch::<m![AA % 8], m![K8]>()
        .collect::<m![AA % 8], m![K8]>()
        .contract_outer::<m![AA % 8], m![K8], _, _, _>(&trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![AA % 8]>()
        .contract_lane::<m![AA % 8], m![R]>(LaneMode::Interleaved)
}
)";

TEST_CASE("run: a tile kernel takes its tile or the whole tensor as --input", "[cli-run]") {
  TempDir dir("cli_run_tile");
  const std::string path = dir.file("tile.rs", kI8Tile);
  // The whole input [AA=64, K8=32]; rows 8.. must not matter. Weights [K8=32, R=8].
  std::vector<std::int8_t> whole(64 * 32), w(32 * 8);
  for (std::size_t i = 0; i < whole.size(); ++i)
    whole[i] = static_cast<std::int8_t>((i * 37 + 11) % 251 - 125);
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<std::int8_t>((i * 13) % 97 - 48);
  const std::vector<std::int8_t> tile(whole.begin(), whole.begin() + 8 * 32);
  const std::string whole_npy = dir.file("whole.npy"), tile_npy = dir.file("tile.npy"),
                    wrong_npy = dir.file("wrong.npy"), w_npy = dir.file("w.npy");
  write_npy(whole_npy, rt::NpyDtype::I1, {64, 32}, raw_bytes(whole));
  write_npy(tile_npy, rt::NpyDtype::I1, {8, 32}, raw_bytes(tile));
  write_npy(wrong_npy, rt::NpyDtype::I1, {16, 32}, raw_bytes(std::vector<std::int8_t>(16 * 32)));
  write_npy(w_npy, rt::NpyDtype::I1, {32, 8}, raw_bytes(w));

  std::string digest;
  for (const std::string& in : {whole_npy, tile_npy}) {
    INFO(in);
    const std::string out = dir.file("o.npy");
    Run r = run({path, "--input", "input_dm=" + in, "--input", "trf_dm=" + w_npy, "--output", out,
                 "--force", "--verify", "--json"});
    INFO(r.err);
    REQUIRE(r.status == kExitOk);
    CHECK(r.json()["verify"]["engines_bit_exact"] == true);
    CHECK(r.json()["verify"]["oracle_ok"] == true);
    auto npy = rt::read_npy_file(out);
    REQUIRE(npy.ok());
    REQUIRE(npy->shape == std::vector<std::uint64_t>{8, 8});
    std::vector<std::int32_t> o(npy->elements());
    std::memcpy(o.data(), npy->data.data(), npy->data.size());
    for (std::size_t a = 0; a < 8; ++a)
      for (std::size_t r8 = 0; r8 < 8; ++r8) {
        std::int32_t sum = 0;
        for (std::size_t k = 0; k < 32; ++k) sum += tile[a * 32 + k] * w[k * 8 + r8];
        CHECK(o[a * 8 + r8] == sum);
      }
    if (digest.empty()) digest = r.json()["output"]["sha256"];
    CHECK(r.json()["output"]["sha256"] == digest);
  }
  // Neither the whole tensor nor the tile: refused, naming both shapes.
  Run bad = run({path, "--input", "input_dm=" + wrong_npy});
  CHECK(bad.status == kExitUserError);
  CHECK(bad.err.find("tile [AA=8, K8=32] of [AA=64, K8=32]") != std::string::npos);
  // Through the API, contents that do not cover the tile are E-RUN-007.
  auto file = tujit::ir::analyze_spec(tujit::SourceBuffer("tile.rs", kI8Tile));
  REQUIRE(file.ok());
  auto ops = tujit::ir::seq::find_run_operands(file->kernels.at(0));
  REQUIRE(ops.ok());
  tujit::run::RunRequest req;
  auto short_input = rt::make_logical_tensor(tujit::ir::ScalarType::I8, {{"AA", 4}, {"K8", 32}});
  REQUIRE(short_input.ok());
  req.given["input_dm"] = std::move(*short_input);
  auto refused =
      tujit::run::run_kernel(*file, tujit::testing::checked(file->kernels.at(0)), *ops, req);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.diagnostics().front().code == "E-RUN-007");
}

TEST_CASE("run: --verify judges partial sums per block and parts of a chain", "[cli-run]") {
  // weighted_sum keeps T / 16 in its output's Slice: one partial sum per block of 16 T (the einsum
  // over T / 16 × T % 16); lane_interleaved runs the Lane Folder alone (the output moves its
  // ContractTime input); trf_sequencer_partial_read runs contract_outer alone (products, nothing
  // summed).
  for (const char* f : {"specs/derived/weighted_sum.rs", "specs/lane_interleaved.rs",
                        "specs/trf_sequencer_partial_read.rs"}) {
    Run r = run({spec(f), "--verify", "--json"});
    INFO(f << "\n" << r.err);
    REQUIRE(r.status == kExitOk);
    auto j = r.json();
    CHECK(!j["verify"].contains("oracle_not_applicable"));
    CHECK(j["verify"]["oracle_ok"] == true);
  }
}

TEST_CASE("run: a TRF Lane that divides an axis holds every fourth coordinate (docs/mapping.md "
          "§3.1)",
          "[cli-run]") {
  // Lane `R / 4` (R = 8) holds R = 0 and R = 4: lane p takes the weights at R = 4p, and the output
  // Packet `R / 4 # 8` holds out[a, R = 4p] = Σ_b input[a, b] · trf[b, R = 4p], read back over an
  // axis `R / 4` of 2. The weights at the other R are not held: they must not matter.
  TempDir dir("cli_run_lane_divides");
  std::vector<std::int8_t> a(8 * 64), w(64 * 8);
  for (std::size_t i = 0; i < a.size(); ++i)
    a[i] = static_cast<std::int8_t>((i * 37 + 5) % 255 - 127);
  for (std::size_t b = 0; b < 64; ++b)
    for (std::size_t r8 = 0; r8 < 8; ++r8)
      w[b * 8 + r8] =
          static_cast<std::int8_t>(r8 % 4 == 0 ? static_cast<int>((b * 29 + r8 * 7) % 201) - 100
                                               : 127 - static_cast<int>(r8));
  const std::string in = dir.file("a.npy"), wf = dir.file("w.npy"), out = dir.file("o.npy");
  write_npy(in, rt::NpyDtype::I1, {8, 64}, raw_bytes(a)); // input_dm [A, B]
  write_npy(wf, rt::NpyDtype::I1, {64, 8}, raw_bytes(w)); // trf [B, R]
  Run r = run({spec("specs/derived/lane_divides_axis.rs"), "--input", "input_dm=" + in, "--input",
               "trf=" + wf, "--output", out, "--verify", "--json"});
  INFO(r.err);
  REQUIRE(r.status == kExitOk);
  auto j = r.json();
  CHECK(j["output"]["axes"] == nlohmann::json::array({"A", "R / 4"}));
  CHECK(j["output"]["shape"] == nlohmann::json::array({8, 2}));
  CHECK(j["verify"]["engines_bit_exact"] == true);
  CHECK(!j["verify"].contains("oracle_not_applicable"));
  CHECK(j["verify"]["oracle_ok"] == true);
  CHECK(j["verify"]["oracle_max_abs_err"] == 0.0);
  auto npy = rt::read_npy_file(out);
  REQUIRE(npy.ok());
  REQUIRE(npy->shape == std::vector<std::uint64_t>{8, 2});
  std::vector<std::int32_t> o(npy->elements());
  std::memcpy(o.data(), npy->data.data(), npy->data.size());
  for (std::size_t i = 0; i < 8; ++i)
    for (std::size_t p = 0; p < 2; ++p) {
      std::int32_t sum = 0;
      for (std::size_t b = 0; b < 64; ++b) sum += a[i * 64 + b] * w[b * 8 + 4 * p];
      CHECK(o[i * 2 + p] == sum);
    }
  // Seeded inputs too.
  Run seeded = run({spec("specs/derived/lane_divides_axis.rs"), "--verify", "--json"});
  INFO(seeded.err);
  CHECK(seeded.status == kExitOk);
}

TEST_CASE("run: kernels with nothing tujit can run are refused", "[cli-run]") {
  // A kernel body without any Tensor Unit stage: no contraction, store or collect to run.
  TempDir dir("cli_run_nothing");
  const std::string path = dir.file("nothing.rs", R"(
use furiosa_opt_std::prelude::*;
axes![A = 8];
pub fn nothing(ctx: &mut Context, x: &DmTensor<i8, m![1], m![1 # 2], m![1 # 256], m![A]>) {}
)");
  Run r = run({path});
  CHECK(r.status == kExitUserError);
  CHECK(r.err.find("error[E-RUN-101]") != std::string::npos);
  CHECK(r.err.find("nothing") != std::string::npos);
}

TEST_CASE("run: part of a contraction chain runs on both engines", "[cli-run]") {
  // lane_interleaved starts from a ContractTime tensor: only the Lane Folder runs, as a part of
  // the chain's Sequencer IR program, on the JIT by default; --verify runs the interpreter too
  // (bit for bit), and the oracle checks that every value moved to its place.
  Run r = run({spec("specs/lane_interleaved.rs"), "--verify", "--json"});
  INFO(r.err);
  REQUIRE(r.status == kExitOk);
  auto j = r.json();
  CHECK(j["engine"] == "jit");
  CHECK(j["verify"]["other_engine"] == "interp");
  CHECK(j["verify"]["engines_bit_exact"] == true);
  CHECK(j["verify"]["oracle_ok"] == true);
  CHECK(j["verify"]["oracle_max_abs_err"] == 0.0);
  CHECK(j.count("cycles") == 0);
  // trf_sequencer_partial_read ends at contract_outer: the JIT forms every product.
  Run o = run({spec("specs/trf_sequencer_partial_read.rs"), "--verify", "--json"});
  INFO(o.err);
  REQUIRE(o.status == kExitOk);
  auto k = o.json();
  CHECK(k["engine"] == "jit");
  CHECK(k["verify"]["engines_bit_exact"] == true);
  CHECK(k["verify"]["oracle_ok"] == true);
  // |O|·|M|·|L|·|K| products per lane, 8 lanes, one live slice (the book's example).
  CHECK(k["simulated_macs"] == 2 * 32 * 2 * 16 * 8);
}

TEST_CASE("run: a kernel that fetches its operands from DM matches the oracle", "[cli-run]") {
  // i8_contract fetches both operands from DmTensor parameters (docs/datapath.md §5): i8 × i8 sums
  // in i32 are exact, so the float64 oracle agrees to the bit.
  Run r = run({spec("specs/derived/i8_contract.rs"), "--verify", "--json"});
  INFO(r.err);
  REQUIRE(r.status == kExitOk);
  auto j = r.json();
  CHECK(j["output"]["dtype"] == "i32");
  CHECK(j["output"]["axes"] == nlohmann::json::array({"A", "R"}));
  CHECK(j["output"]["shape"] == nlohmann::json::array({8, 8}));
  CHECK(j["simulated_macs"] == 8 * 8 * 32); // A·R outputs, each over K8 = 32
  CHECK(j["verify"]["engines_bit_exact"] == true);
  CHECK(j["verify"]["oracle_ok"] == true);
  CHECK(j["verify"]["oracle_max_abs_err"] == 0.0);
}

TEST_CASE("run: usage errors and wrong inputs", "[cli-run]") {
  TempDir dir("cli_run_usage");
  const std::string bm = spec("specs/bmatmul_m_in_time.rs");
  Run k = run({bm, "--kernel", "nope"});
  CHECK(k.status == kExitUsage);
  CHECK(k.err.find("bmatmul_m_in_time") != std::string::npos);

  Run engine = run({bm, "--engine", "gpu"});
  CHECK(engine.status == kExitUsage);
  CHECK(engine.err.find("jit, interp") != std::string::npos);

  const std::string small = dir.file("s.npy");
  write_npy(small, rt::NpyDtype::F4, {2, 3}, raw_bytes(std::vector<float>(6, 0.5f)));
  Run name = run({bm, "--input", "nobody=" + small});
  CHECK(name.status == kExitUsage);
  CHECK(name.err.find("input, trf") != std::string::npos);

  Run shape = run({bm, "--input", "input=" + small});
  CHECK(shape.status == kExitUserError);
  CHECK(shape.err.find("[2, 3]") != std::string::npos);
  CHECK(shape.err.find("[32, 32, 32]") != std::string::npos);

  CHECK(run({bm, "--input", "input"}).status == kExitUsage);
  CHECK(run({}).status == kExitUsage);
  CHECK(run({bm, "--input", "input=" + dir.file("missing.npy")}).status == kExitUsage);
}
