// The Transpose Engine's verifier (ir/verify/transpose.h, docs/transpose.md). Expected values come
// from the book page (furiosa-opt docs/src/computing-tensors/transpose-engine.md: each example's
// parameter table and the latency it prints), the reference's tests (furiosa-opt-std
// engine/transpose.rs: its accepted cases, and the refused cases of its earlier release, each with
// the reason it gave), and an independent model of the engine written here: each iteration's input
// matrix built from the flits, transposed, trimmed and aligned as arrays, whose every output cell
// must hold the element with the same logical coordinates as the input cell it came from.
#include "ir/verify/transpose.h"
#include "tests/support/mapping_fixture.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace tujit;
using namespace tujit::ir;
using tujit::testing::Axes;
using tujit::testing::expect_rule;

namespace {

struct Case {
  const char* axes;
  ScalarType dtype;
  const char *time, *packet, *out_time, *out_packet;
};

verify::TransposeInput input_of(const Axes& ax, const Case& c) {
  return {c.dtype, ax(c.time), ax(c.packet), ax(c.out_time), ax(c.out_packet)};
}

Result<verify::TransposeDerived> run(const Case& c) {
  const Axes ax(c.axes);
  return verify::verify_transpose(input_of(ax, c));
}

/// Coordinates with zero entries dropped; padding is "pad".
std::string coordinates(const Cell& c) {
  if (!c.is_live()) return "pad";
  std::string s;
  for (const auto& [axis, v] : c.index)
    if (v != 0) s += axis + "=" + std::to_string(v) + " ";
  return s;
}

/// The engine as the book draws it ("Architecture"), on positions: for each iteration o, the input
/// matrix M[r][col] (col = k·valid_size + e) of rows r < in_rows is read from flit (o·in_rows +
/// r)·packets_per_col + k, element e (Unpack, Gather); the output row j of the iteration is column
/// j of M (Transpose), rows j < out_rows are kept (Trim), and the row is padded to a flit (Align).
/// Checks that every output cell holds the element of the input cell it is taken from (or both are
/// padding), and that `transpose_source` agrees with the model. The book's page:
/// furiosa-opt docs/src/computing-tensors/transpose-engine.md
void check_relayout(const Case& c, const verify::TransposeDerived& d) {
  const Axes ax(c.axes);
  const Mapping t = ax(c.time), p = ax(c.packet), ot = ax(c.out_time), op = ax(c.out_packet);
  REQUIRE(ot.size() == d.iterations * d.out_rows);
  REQUIRE(t.size() == d.iterations * d.in_rows * d.packets_per_col);
  std::uint64_t live = 0;
  for (std::uint64_t o = 0; o < d.iterations; ++o) {
    // M[r][col]: the input flit and element of each matrix cell.
    std::vector<std::vector<std::pair<std::uint64_t, std::uint64_t>>> m(d.in_rows);
    for (std::uint64_t r = 0; r < d.in_rows; ++r)
      for (std::uint64_t k = 0; k < d.packets_per_col; ++k)
        for (std::uint64_t e = 0; e < d.valid_size; ++e)
          m[r].push_back({(o * d.in_rows + r) * d.packets_per_col + k, e});
    for (std::uint64_t j = 0; j < d.out_rows; ++j) {
      const std::uint64_t flit = o * d.out_rows + j;
      for (std::uint64_t r = 0; r < op.size(); ++r) {
        const Cell got = combine(ot.map(flit), op.map(r));
        const auto src = verify::transpose_source(d, flit, r);
        INFO("iteration " << o << " row " << j << " position " << r);
        if (r >= d.in_rows) { // Align's padding
          CHECK_FALSE(src.has_value());
          CHECK_FALSE(got.is_live());
          continue;
        }
        const auto [tf, te] = m[r][j];
        REQUIRE(src.has_value());
        CHECK(src->time == tf);
        CHECK(src->packet == te);
        const Cell want = combine(t.map(tf), p.map(te));
        CHECK(coordinates(got) == coordinates(want));
        live += got.is_live();
      }
    }
  }
  // Every live input element reaches the output once: Unpack and Trim drop only padding.
  std::uint64_t input_live = 0;
  for (std::uint64_t f = 0; f < t.size(); ++f)
    for (std::uint64_t e = 0; e < p.size(); ++e)
      input_live += combine(t.map(f), p.map(e)).is_live();
  CHECK(live == input_live);
}

std::uint64_t num(const verify::DerivedTable& t, const std::string& key) {
  INFO(key);
  REQUIRE(t.count(key) == 1);
  return std::get<std::uint64_t>(t.at(key));
}

} // namespace

TEST_CASE("every example of the book's Transpose Engine page: parameters and latency",
          "[transpose]") {
  struct BookExample {
    Case c;
    std::uint64_t in_cols, in_rows, out_rows, in_flits, n;
    bool double_buffered;
    std::uint64_t cycles;
  };
  // The parameter tables and the "Latency" lines of
  // furiosa-opt docs/src/computing-tensors/transpose-engine.md, in page order.
  const BookExample examples[] = {
      // Interface / running example: 16 + 1 · max(16, 16) + 16 = 48.
      {{"P=256,B=2,C=8,D=2,E=8", ScalarType::I8, "B, C, D", "E # 32", "B, D, E", "C # 32"},
       16,
       8,
       16,
       16,
       2,
       true,
       48},
      // Small Matrix: 4 + 0 · max(4, 2) + 2 = 6.
      {{"P=256,A=4,B=2", ScalarType::I8, "A", "B # 32", "B", "A # 32"}, 8, 4, 2, 4, 1, true, 6},
      // Large Column: 2 · (32 + 32) = 128.
      {{"P=256,B=2,C=8,D=4,E=8", ScalarType::I8, "B, C, D", "E # 32", "B, D, E", "C # 32"},
       32,
       8,
       32,
       32,
       2,
       false,
       128},
      // 16-bit: 4 + 7 · max(4, 8) + 8 = 68.
      {{"P=256,C=8,D=4,E=8", ScalarType::BF16, "C, D", "E # 16", "C, E", "D # 16"},
       8,
       4,
       8,
       4,
       8,
       true,
       68},
      // 4-bit: 16 + 3 · max(16, 16) + 16 = 80.
      {{"P=256,B=4,C=16,E=16", ScalarType::I4, "B, C", "E # 64", "B, E", "C # 64"},
       16,
       16,
       16,
       16,
       4,
       true,
       80},
      // 32-bit: 2 + 3 · max(2, 8) + 8 = 34.
      {{"P=256,B=4,D=2,E=8", ScalarType::F32, "B, D", "E # 8", "B, E", "D # 8"},
       8,
       2,
       8,
       2,
       4,
       true,
       34},
  };
  for (const BookExample& ex : examples) {
    CAPTURE(ex.c.time, ex.c.packet, ex.c.out_time, ex.c.out_packet);
    auto r = run(ex.c);
    INFO(testing::why(r));
    REQUIRE(r.ok());
    CHECK(r->in_cols == ex.in_cols);
    CHECK(r->in_rows == ex.in_rows);
    CHECK(r->out_rows == ex.out_rows);
    CHECK(r->in_flits == ex.in_flits);
    CHECK(r->iterations == ex.n);
    CHECK(r->double_buffered == ex.double_buffered);
    CHECK(r->cycles == ex.cycles);
    CHECK(r->packets_per_col == ex.in_cols / r->valid_size);
    check_relayout(ex.c, *r);
  }
}

TEST_CASE("the per-width table: valid_size, max in_rows, flit elements", "[transpose]") {
  // The book's "Parameters": 4-bit 16 / 16, 8-bit 8 / 8, 16-bit 8 / 4, 32-bit 8 / 2
  // (furiosa-opt docs/src/computing-tensors/transpose-engine.md).
  struct Row {
    Case c;
    std::uint64_t valid_size, max_in_rows, flit;
  };
  const Row rows[] = {
      {{"A=4,B=4", ScalarType::I4, "A", "B # 64", "B", "A # 64"}, 16, 16, 64},
      {{"A=4,B=4", ScalarType::I8, "A", "B # 32", "B", "A # 32"}, 8, 8, 32},
      {{"A=4,B=4", ScalarType::F8E4M3, "A", "B # 32", "B", "A # 32"}, 8, 8, 32},
      {{"A=4,B=4", ScalarType::BF16, "A", "B # 16", "B", "A # 16"}, 8, 4, 16},
      {{"A=2,B=4", ScalarType::I32, "A", "B # 8", "B", "A # 8"}, 8, 2, 8},
  };
  for (const Row& row : rows) {
    CAPTURE(name(row.c.dtype));
    auto r = run(row.c);
    INFO(testing::why(r));
    REQUIRE(r.ok());
    CHECK(r->valid_size == row.valid_size);
    CHECK(r->max_in_rows == row.max_in_rows);
    CHECK(r->flit_elements == row.flit);
    const auto table = r->to_table();
    CHECK(num(table, "valid_size") == row.valid_size);
    CHECK(num(table, "max_in_rows") == row.max_in_rows);
  }
}

TEST_CASE("the reference's accepted transposes verify, and each is a relayout", "[transpose]") {
  // furiosa-opt-std engine/transpose.rs `mod valid`, every test, with its axes.
  const char* ax = "A=4,B=2,C=8,D=4,E=8,F=8,G=2,X=64,Y=512,Esplit=16,PPC=2,IR=8,EP=8,EPHalf=4,"
                   "Dummy1=1,Esplit32=32,BB=4,Cbig=384,Bbig=96,Dummy8=8";
  const auto I8 = ScalarType::I8, BF = ScalarType::BF16;
  const Case cases[] = {
      {ax, I8, "C, F", "E # 32", "C, E", "F # 32"},       // basic
      {ax, I8, "A", "B # 32", "B", "A # 32"},             // small
      {ax, I8, "A", "B # 32", "B # 8", "A # 32"},         // small_no_slicing
      {ax, I8, "B, C, D", "E # 32", "B, D, E", "C # 32"}, // large_col
      {ax, BF, "C, D", "E # 16", "C, E", "D # 16"},       // bf16
      {ax, BF, "1", "C % 8 # 16", "C % 8", "1 # 16"},     // padding_only_in_rows
      {ax, I8, "C, D, Esplit / 8", "Esplit % 8 # 32", "C, Esplit", "D # 32"}, // split_symbol_time
      {ax, I8, "IR, PPC", "EP # 32", "PPC, EP", "IR # 32"},     // packets_per_col_2_no_slice
      {ax, I8, "IR, 1 # 2", "EP # 32", "1 # 2, EP", "IR # 32"}, // padding_only_packets_per_col
      {ax, I8, "D, Dummy1", "A # 32", "D, A", "Dummy1 # 32"},   // size1_dummy_axis_as_in_rows
      {ax, ScalarType::I4, "A", "BB # 64", "BB", "A # 64"},     // i4_basic
      {ax, ScalarType::F32, "B", "C # 8", "C", "B # 8"},        // f32_basic
      {ax, I8, "C, D, Esplit32 / 8", "Esplit32 % 8 # 32", "C, Esplit32",
       "D # 32"}, // split_symbol_packets_per_col_4
      {ax, I8, "(A, B) # 16", "C # 32", "1 # 2, C", "(A, B) # 32"}, // packed_pair_in_rows
      {ax, I8, "D, A # 16 / 8", "A # 16 % 8 # 32", "1 # 2, A # 8",
       "D # 32"}, // padded_strided_packets_per_col
      {ax, I8, "D, (A, B) # 16 / 8", "(A, B) # 16 % 8 # 32", "1 # 2, (A, B)",
       "D # 32"}, // packed_pair_strided_packets_per_col
      {ax, BF, "D, (A, B) # 16 / 8", "(A, B) # 16 % 8 # 16", "1 # 2, (A, B)",
       "D # 16"},                                             // packed_pair_strided_bf16
      {ax, I8, "1 # 4", "1 # 32", "1 # 32", "1 # 32"},        // all_padding_no_terms
      {ax, I8, "A, 1 # 4", "EP # 32", "1 # 4, EP", "A # 32"}, // mixed_padding_size_arithmetic
      {ax, BF, "Dummy8", "1 # 16", "Dummy8 / 4", "Dummy8 % 4 # 16"}, // fc1_bias_prepared_split
      {ax, BF, "Cbig / 4 % 24, Cbig / 96, Bbig / 24, Bbig / 8 % 3, Cbig % 4", "Bbig % 8 # 16",
       "Cbig / 4 % 24, Cbig / 96, Bbig", "Cbig % 4 # 16"}, // engine_14_bf16_multi_split
  };
  for (const Case& c : cases) {
    CAPTURE(name(c.dtype), c.time, c.packet, c.out_time, c.out_packet);
    auto r = run(c);
    INFO(testing::why(r));
    REQUIRE(r.ok());
    check_relayout(c, *r);
  }
}

TEST_CASE("derived parameters of reference cases, worked by hand", "[transpose]") {
  const char* ax = "A=4,B=2,C=8,D=4,E=8,IR=8,EP=8,Esplit=16,Dummy8=8";
  SECTION("split symbol: Esplit / 8 is two flits per row, rows merge back into Esplit") {
    // Time [C, D, Esplit / 8]: D (4) above two flits of Esplit % 8; in_cols 2 · 8 = 16, out_rows
    // 16, n = 8 · 4 · 2 / (4 · 2) = 8 (C); double: 8 + 7 · max(8, 16) + 16 = 136.
    auto r =
        run({ax, ScalarType::I8, "C, D, Esplit / 8", "Esplit % 8 # 32", "C, Esplit", "D # 32"});
    REQUIRE(r.ok());
    CHECK(r->in_rows == 4);
    CHECK(r->packets_per_col == 2);
    CHECK(r->in_cols == 16);
    CHECK(r->out_rows == 16);
    CHECK(r->iterations == 8);
    CHECK(r->cycles == 136);
  }
  SECTION("padding-only flits per row: IR, then 1 # 2") {
    // Time [IR, 1 # 2]: each row is a flit of EP and a flit of padding; in_cols 16, out_rows 16
    // (OutTime [1 # 2, EP]: rows 8..15 are padding and are kept), n = 1: 16 + 0 + 16 = 32.
    auto r = run({ax, ScalarType::I8, "IR, 1 # 2", "EP # 32", "1 # 2, EP", "IR # 32"});
    REQUIRE(r.ok());
    CHECK(r->in_rows == 8);
    CHECK(r->packets_per_col == 2);
    CHECK(r->out_rows == 16);
    CHECK(r->iterations == 1);
    CHECK(r->cycles == 32);
  }
  SECTION("one element per flit, four rows per output flit (bf16)") {
    // Time [Dummy8] = [Dummy8 / 4, Dummy8 % 4]: 4 rows (bf16 max), n = 2, each matrix 4 × 8 with
    // one live column: out_rows 1. Double: 4 + 1 · max(4, 1) + 1 = 9.
    auto r = run({ax, ScalarType::BF16, "Dummy8", "1 # 16", "Dummy8 / 4", "Dummy8 % 4 # 16"});
    REQUIRE(r.ok());
    CHECK(r->in_rows == 4);
    CHECK(r->packets_per_col == 1);
    CHECK(r->out_rows == 1);
    CHECK(r->iterations == 2);
    CHECK(r->cycles == 9);
  }
  SECTION("padded rows: OutPacket A # 32 over Time [E, A # 8] takes 8 rows") {
    // With 4 rows Trim would have to drop E's elements (out_rows 4 of in_cols 8); the engine
    // reads the 8 rows A # 8, half of them padding: n = 8, out_rows 8, 8 + 7 · 8 + 8 = 72.
    auto r = run({ax, ScalarType::I8, "E, A # 8", "EP # 32", "E, EP", "A # 32"});
    INFO(testing::why(r));
    REQUIRE(r.ok());
    CHECK(r->in_rows == 8);
    CHECK(r->out_rows == 8);
    CHECK(r->iterations == 8);
    CHECK(r->cycles == 72);
    check_relayout({ax, ScalarType::I8, "E, A # 8", "EP # 32", "E, EP", "A # 32"}, *r);
  }
}

TEST_CASE("the reference's refused transposes give their diagnostics", "[transpose]") {
  // The refused cases of the reference's earlier engine/transpose.rs (`#[should_panic]`), each
  // with the reason it gave, and the code tujit gives it.
  const auto I8 = ScalarType::I8;
  // input_packet::invalid: "input packet must be 32 bytes, got 16".
  expect_rule(run({"C=8,D=8,E=4,F=16", I8, "C, D", "E # 16", "C, E", "D # 32"}), "E-TRANSPOSE-002",
              "InputPacketSize");
  // output_packet::invalid: "output packet must be 32 bytes, got 16".
  expect_rule(run({"C=8,D=8,E=8", I8, "C, D", "E # 32", "C, E", "D # 16"}), "E-TRANSPOSE-003",
              "OutputPacketSize");
  const char* rows = "A=4,C=8,D=8,E=8,F=32";
  // in_rows::invalid_i4: "`in_rows` must be <= 8 bytes, got 16" (32 i4 rows).
  expect_rule(run({rows, ScalarType::I4, "C, D", "E # 64", "C, E", "F # 64"}), "E-TRANSPOSE-005",
              "InRowsTooMany");
  // in_rows::invalid_i8: "got 32" (OutPacket [A, D], 32 rows).
  expect_rule(run({rows, I8, "C, D", "E # 32", "C, E", "A, D"}), "E-TRANSPOSE-005",
              "InRowsTooMany");
  // in_rows::invalid_bf16: "got 16" (8 bf16 rows).
  expect_rule(run({rows, ScalarType::BF16, "C, D", "E # 16", "C, E", "D # 16"}), "E-TRANSPOSE-005",
              "InRowsTooMany");
  // in_rows::invalid_in_rows_not_in_time: "must be present in the input Time".
  expect_rule(run({rows, I8, "C, D", "E # 32", "C, E", "A # 32"}), "E-TRANSPOSE-006",
              "InRowsNotInTime");
  const char* cols = "C=8,D=8,E=8,F=16,G=4";
  // in_cols::invalid_i4: "`in_cols` size (64) must be one of [16, 32] for 4-bit type".
  auto i4 = run({cols, ScalarType::I4, "F, G", "E # 64", "G, E", "F # 64"});
  const Diagnostic d4 = expect_rule(i4, "E-TRANSPOSE-007", "InColsInvalid");
  CHECK(d4.message.find("in_cols 64") != std::string::npos);
  CHECK(d4.message.find("{16, 32}") != std::string::npos);
  // in_cols::invalid_i8: "(64) must be one of [8, 16, 32] for 8-bit type".
  auto i8 = run({cols, I8, "C, D", "E # 32", "D, E", "C # 32"});
  const Diagnostic d8 = expect_rule(i8, "E-TRANSPOSE-007", "InColsInvalid");
  CHECK(d8.message.find("in_cols 64") != std::string::npos);
  CHECK(d8.message.find("{8, 16, 32}") != std::string::npos);
  const char* ot = "A=2,B=2,C=4,D=2,E=8,F=8,G=16";
  // out_time::invalid_outer_mismatch: "Transpose time mismatch" (A for B outside the matrices).
  expect_rule(run({ot, I8, "B, C, D", "E # 32", "A, D, E", "C # 32"}), "E-TRANSPOSE-011",
              "OutTimeMismatch");
  // out_time::invalid_missing_packets_per_col: "not found in OutTime" (OutTime [E] keeps 8 of the
  // 16 rows [D, E]: Trim would drop D = 1's elements).
  expect_rule(run({ot, I8, "C, D", "E # 32", "E", "C # 32"}), "E-TRANSPOSE-010",
              "TrimDropsElements");
  // out_time::invalid_wrong_axis: "must match" (F for E).
  expect_rule(run({ot, I8, "C, D", "E # 32", "D, F", "C # 32"}), "E-TRANSPOSE-011",
              "OutTimeMismatch");
  // out_time::invalid_non_padding_resize: "must match" (`E = 4` drops live rows).
  expect_rule(run({ot, I8, "C", "E # 32", "E = 4", "C # 32"}), "E-TRANSPOSE-010",
              "TrimDropsElements");
  // out_time::invalid_out_rows_exceeds_in_cols: "must be <=" (16 rows of an 8-column matrix).
  expect_rule(run({ot, I8, "A", "B # 32", "B # 16", "A # 32"}), "E-TRANSPOSE-009",
              "OutRowsExceedInCols");
}

TEST_CASE("the remaining rules: element width, unpacked positions, OutTime size", "[transpose]") {
  // i9 is a zero-point staging type (docs/scalars.md §1): never transposed.
  expect_rule(run({"A=4,B=4", ScalarType::I9, "A", "B # 32", "B", "A # 32"}), "E-TRANSPOSE-001",
              "ElementBits");
  // i8 valid_size is 8: a 16-element packet puts elements where Unpack drops them.
  auto wide = run({"A=4,E=16", ScalarType::I8, "A", "E # 32", "E", "A # 32"});
  const Diagnostic d = expect_rule(wide, "E-TRANSPOSE-004", "InputPacketPadding");
  CHECK(d.message.find("position 8") != std::string::npos);
  // Two matrices of 8 rows: OutTime must be 2 · out_rows positions, not 5.
  expect_rule(run({"B=2,C=8,E=8", ScalarType::I8, "B, C", "E # 32", "E = 5", "C # 32"}),
              "E-TRANSPOSE-008", "OutTimeSize");
}

TEST_CASE("latency formulas of the book's Performance section", "[transpose]") {
  // Double: in_flits + (n − 1) · max(in_flits, out_rows) + out_rows; single: n · (in + out).
  CHECK(verify::transpose_cycles(true, 1, 4, 2) == 6);
  CHECK(verify::transpose_cycles(true, 8, 4, 8) == 4 + 7 * 8 + 8);
  CHECK(verify::transpose_cycles(true, 3, 10, 2) == 10 + 2 * 10 + 2);
  CHECK(verify::transpose_cycles(false, 2, 32, 32) == 128);
  CHECK(verify::transpose_cycles(false, 3, 8, 16) == 72);
}

TEST_CASE("the fixes docs/errors.md gives for E-TRANSPOSE verify", "[transpose]") {
  const auto I8 = ScalarType::I8;
  const Case fixes[] = {
      // 002: collect into one flit.
      {"C=8,D=8,E=4", I8, "C, D", "E # 32", "C, E", "D # 32"},
      // 003: OutPacket D # 32.
      {"C=8,D=8,E=8", I8, "C, D", "E # 32", "C, E", "D # 32"},
      // 004: at most 8 elements per flit, two flits per row.
      {"A=4,E=16", I8, "A, E / 8", "E % 8 # 32", "E", "A # 32"},
      // 005: 4 bf16 rows at a time.
      {"C=8,D=8,E=8", ScalarType::BF16, "C, D", "E # 16", "C, D / 4, E", "D % 4 # 16"},
      // 006: OutPacket the factor above a row's flits.
      {"A=4,C=8,D=8,E=8", I8, "C, D", "E # 32", "C, E", "D # 32"},
      // 007: the rows innermost.
      {"C=8,D=8,E=8", I8, "D, C", "E # 32", "D, E", "C # 32"},
      // 008, 009, 010, 011.
      {"B=2,C=8,E=8", I8, "B, C", "E # 32", "B, E", "C # 32"},
      {"A=2,B=2", I8, "A", "B # 32", "B # 8", "A # 32"},
      {"C=4,E=8", I8, "C", "E # 32", "E", "C # 32"},
      {"A=2,B=2,C=4,D=2,E=8", I8, "B, C, D", "E # 32", "B, D, E", "C # 32"},
  };
  for (const Case& c : fixes) {
    CAPTURE(c.axes, c.time, c.packet, c.out_time, c.out_packet);
    auto r = run(c);
    INFO(testing::why(r));
    REQUIRE(r.ok());
    check_relayout(c, *r);
  }
}
