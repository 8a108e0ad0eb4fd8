#include "ir/verify/transpose.h"

#include "ir/mapping/factor.h"
#include "ir/target/rngd.h"
#include "ir/verify/outer_util.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

namespace tujit::ir::verify {

using namespace outer_detail;

namespace {

const target::TensorUnitDescription& tu = target::kRngd;
constexpr std::string_view kPage = "furiosa-opt docs/src/computing-tensors/transpose-engine.md";

Diagnostic fail(std::string code, std::string rule, std::string message,
                std::vector<std::string> notes) {
  return rule_error(std::move(code), "transpose", std::move(rule), std::move(message),
                    std::move(notes));
}

/// `l` with every padding kind made top padding, normalised again: the engine's layouts are
/// compared by which positions hold which element; what a padded position holds is never read
/// after the transpose (docs/transpose.md §3).
FactorList any_padding(const FactorList& l) {
  FactorList out = l;
  for (Factor& f : out.factors) {
    if (f.is_pad()) f.pad = PaddingKind::Top;
    if (f.is_term() && f.atom.is_composite()) f.atom = Atom::composite(any_padding(*f.atom.comp));
  }
  return normalize(std::move(out));
}

bool same_layout(const FactorList& a, const FactorList& b) {
  return any_padding(a) == any_padding(b);
}

/// The first position in [from, to) of `m` that holds an element.
std::optional<std::uint64_t> first_live(const Mapping& m, std::uint64_t from, std::uint64_t to) {
  for (std::uint64_t p = from; p < to; ++p)
    if (m.map(p).is_live()) return p;
  return std::nullopt;
}

std::string cell_text(const Cell& c) {
  if (!c.is_live()) return "padding";
  std::string s;
  for (const auto& [axis, v] : c.index)
    if (v != 0) s += fmt::format("{}{} = {}", s.empty() ? "" : ", ", axis, v);
  return s.empty() ? "an element" : s;
}

/// The divisors of `m` in increasing order, those up to 2^21 and their cofactors (every divisor
/// when m ≤ 2^42): the candidate packets_per_col.
std::vector<std::uint64_t> divisors(std::uint64_t m) {
  constexpr std::uint64_t kLimit = std::uint64_t{1} << 21;
  std::vector<std::uint64_t> low, high;
  for (std::uint64_t k = 1; k <= m / k && k <= kLimit; ++k) {
    if (m % k != 0) continue;
    low.push_back(k);
    if (k != m / k) high.push_back(m / k);
  }
  low.insert(low.end(), high.rbegin(), high.rend());
  return low;
}

bool valid_in_cols(std::uint64_t in_cols, std::uint64_t valid_size) {
  return in_cols >= tu.transpose_min_in_cols && in_cols <= tu.transpose_max_in_cols &&
         (in_cols & (in_cols - 1)) == 0 && in_cols % valid_size == 0;
}

std::string valid_in_cols_text(std::uint64_t valid_size) {
  std::string s;
  for (std::uint64_t c = tu.transpose_min_in_cols; c <= tu.transpose_max_in_cols; c *= 2)
    if (valid_in_cols(c, valid_size)) s += (s.empty() ? "" : ", ") + std::to_string(c);
  return s;
}

/// One way to read Time as [outer, rows, packets_per_col] (docs/transpose.md §3 "Gather").
struct Placement {
  std::uint64_t in_rows = 1, packets_per_col = 1;
  FactorList outer, rows, gathered;
};

/// Rules E-TRANSPOSE-007 … 011 for one placement of the rows in Time; the derived values when it
/// passes. `d` carries the table values already set.
Result<TransposeDerived> check_placement(const TransposeInput& in, TransposeDerived d,
                                         const Placement& pl, const FactorList& valid,
                                         const FactorList& out_time) {
  d.in_rows = pl.in_rows;
  d.packets_per_col = pl.packets_per_col;
  d.in_cols = pl.packets_per_col * d.valid_size;
  if (!valid_in_cols(d.in_cols, d.valid_size))
    return fail(
        "E-TRANSPOSE-007", "InColsInvalid",
        fmt::format("Time {} holds OutPacket's rows {} above {} input flits: one row of the input "
                    "matrix gathers {} flits of {} valid elements = in_cols {}, which is not one "
                    "of the engine's row widths {{{}}} for {}-bit elements",
                    mtext(in.time), ftext(pl.rows), pl.packets_per_col, pl.packets_per_col,
                    d.valid_size, d.in_cols, valid_in_cols_text(d.valid_size), d.element_bits),
        {fmt::format("in_cols = packets_per_col · valid_size ∈ {{{}}} ({} \"Parameters\")",
                     valid_in_cols_text(d.valid_size), kPage),
         "fix: put OutPacket's rows closer to the innermost Time factor, so that fewer flits "
         "make one row"});
  const std::uint64_t per_matrix = pl.in_rows * pl.packets_per_col;
  d.iterations = in.time.size() / per_matrix;
  if (in.out_time.size() % d.iterations != 0)
    return fail("E-TRANSPOSE-008", "OutTimeSize",
                fmt::format("the input stream is {} matrices of {} × {} ({} flits each), so "
                            "OutTime {} must hold {} · out_rows positions, but it holds {}",
                            d.iterations, d.in_rows, d.in_cols, per_matrix, mtext(in.out_time),
                            d.iterations, in.out_time.size()),
                {fmt::format("each iteration emits out_rows flits; OutTime is [outer, out_rows] "
                             "({} \"Performance\")",
                             kPage)});
  d.out_rows = in.out_time.size() / d.iterations;
  if (d.out_rows > d.in_cols)
    return fail(
        "E-TRANSPOSE-009", "OutRowsExceedInCols",
        fmt::format("OutTime {} asks for {} output rows per matrix, but a transposed matrix has "
                    "only in_cols = {} rows",
                    mtext(in.out_time), d.out_rows, d.in_cols),
        {fmt::format("out_rows ≤ in_cols: Trim only drops rows ({} \"Trim\")", kPage),
         fmt::format("fix: OutTime of {} positions: [outer, the {} columns of a row]",
                     d.iterations * d.in_cols, d.in_cols)});
  const FactorList columns = pair(pl.gathered, valid);
  for (std::uint64_t j = d.out_rows; j < d.in_cols; ++j) {
    const Cell c = eval(columns, j);
    if (!c.is_live()) continue;
    return fail(
        "E-TRANSPOSE-010", "TrimDropsElements",
        fmt::format("OutTime {} keeps {} rows of each transposed matrix, but row {} of the "
                    "{} columns {} holds {}: Trim would drop it",
                    mtext(in.out_time), d.out_rows, j, d.in_cols, ftext(columns), cell_text(c)),
        {fmt::format("Trim drops only the rows that padded input elements make ({} \"Trim\")",
                     kPage),
         fmt::format("fix: keep every row that holds an element: OutTime [outer, {}]",
                     ftext(columns))});
  }
  auto kept = resize(columns, d.out_rows);
  if (!kept) return std::move(kept).take_diagnostics();
  const FactorList expected = pair(pl.outer, *kept);
  if (!same_layout(out_time, expected))
    return fail(
        "E-TRANSPOSE-011", "OutTimeMismatch",
        fmt::format("OutTime {} is not the transposed stream's Time {}: the Time outside each "
                    "matrix {}, then the {} kept rows {}",
                    mtext(in.out_time), ftext(expected), ftext(pl.outer), d.out_rows, ftext(*kept)),
        {fmt::format("the engine keeps the order of the matrices and emits the columns of each "
                     "as its rows, the rows as the packet ({} \"Transpose\")",
                     kPage),
         fmt::format("fix: OutTime = m![{}]", ftext(expected))});
  d.outer = render(pl.outer);
  d.rows = render(pl.rows);
  d.columns = render(columns);
  d.in_flits = per_matrix;
  d.double_buffered = d.in_cols <= tu.transpose_buffer_columns;
  d.cycles = transpose_cycles(d.double_buffered, d.iterations, d.in_flits, d.out_rows);
  return d;
}

} // namespace

DerivedTable TransposeDerived::to_table() const {
  return {{"element_bits", element_bits},
          {"valid_size", valid_size},
          {"max_in_rows", max_in_rows},
          {"flit_elements", flit_elements},
          {"in_rows", in_rows},
          {"packets_per_col", packets_per_col},
          {"in_cols", in_cols},
          {"out_rows", out_rows},
          {"outer", outer},
          {"rows", rows},
          {"columns", columns},
          {"iterations", iterations},
          {"in_flits", in_flits},
          {"buffering", std::string(double_buffered ? "double" : "single")},
          {"cycles", cycles}};
}

std::uint64_t transpose_cycles(bool double_buffered, std::uint64_t iterations,
                               std::uint64_t in_flits, std::uint64_t out_rows) {
  if (iterations == 0) return 0;
  if (!double_buffered) return iterations * (in_flits + out_rows);
  return in_flits + (iterations - 1) * std::max(in_flits, out_rows) + out_rows;
}

std::optional<TransposeSource> transpose_source(const TransposeDerived& d, std::uint64_t out_time,
                                                std::uint64_t out_packet) {
  // docs/transpose.md §4: output row j of matrix o is column j of its input matrix, whose element
  // r is valid element j mod valid_size of flit j / valid_size of input row r.
  if (out_packet >= d.in_rows) return std::nullopt;
  const std::uint64_t matrix = out_time / d.out_rows, column = out_time % d.out_rows;
  return TransposeSource{(matrix * d.in_rows + out_packet) * d.packets_per_col +
                             column / d.valid_size,
                         column % d.valid_size};
}

Result<TransposeDerived> verify_transpose(const TransposeInput& in) {
  const std::uint64_t bits = wire_bits(in.dtype);
  if (is_staging(in.dtype) || (bits != 4 && bits != 8 && bits != 16 && bits != 32))
    return fail("E-TRANSPOSE-001", "ElementBits",
                fmt::format("the Transpose Engine moves 4-, 8-, 16- or 32-bit elements, not {}{}",
                            name(in.dtype),
                            is_staging(in.dtype) ? " (a zero-point staging type)" : ""),
                {fmt::format("the element sizes of the per-width table ({} \"Parameters\"); "
                             "i5 and i9 exist only between the Fetch Adapter and contract_outer "
                             "(docs/scalars.md §1)",
                             kPage)});
  TransposeDerived d;
  d.element_bits = bits;
  d.flit_elements = tu.flit_bits() / bits;
  d.valid_size = bits == 4 ? tu.transpose_valid_size_4bit : tu.transpose_valid_size;
  d.max_in_rows = std::uint64_t{tu.transpose_max_in_rows_bytes} * tu.bits_per_byte / bits;
  if (in.packet.size() != d.flit_elements)
    return fail("E-TRANSPOSE-002", "InputPacketSize",
                fmt::format("the Transpose Engine reads one 32-byte flit per Time step, but "
                            "Packet {} holds {} {} elements = {}",
                            mtext(in.packet), in.packet.size(), name(in.dtype),
                            bytes_text(bytes_of(in.dtype, in.packet.size()))),
                {fmt::format("fix: collect the stream into flits of {} {} elements first",
                             d.flit_elements, name(in.dtype))});
  if (in.out_packet.size() != d.flit_elements)
    return fail("E-TRANSPOSE-003", "OutputPacketSize",
                fmt::format("Align pads every output row to one 32-byte flit, but OutPacket {} "
                            "holds {} {} elements = {}",
                            mtext(in.out_packet), in.out_packet.size(), name(in.dtype),
                            bytes_text(bytes_of(in.dtype, in.out_packet.size()))),
                {fmt::format("fix: pad OutPacket to {} elements, e.g. `{} # {}`", d.flit_elements,
                             remove_padding(in.out_packet).to_string(), d.flit_elements)});
  if (auto p = first_live(in.packet, d.valid_size, d.flit_elements))
    return fail(
        "E-TRANSPOSE-004", "InputPacketPadding",
        fmt::format("Packet {} holds {} at position {}, but the engine reads the first "
                    "valid_size = {} elements of each flit and Unpack drops the rest",
                    mtext(in.packet), cell_text(in.packet.map(*p)), *p, d.valid_size),
        {fmt::format("valid_size is {} for {}-bit elements ({} \"Parameters\")", d.valid_size, bits,
                     kPage),
         fmt::format("fix: collect at most {} elements per flit (`E # {}` with |E| ≤ {}) and "
                     "gather wider rows from several flits",
                     d.valid_size, d.flit_elements, d.valid_size)});
  std::uint64_t live_rows = 1;
  for (std::uint64_t p = 0; p < in.out_packet.size(); ++p)
    if (in.out_packet.map(p).is_live()) live_rows = p + 1;
  if (live_rows > d.max_in_rows)
    return fail(
        "E-TRANSPOSE-005", "InRowsTooMany",
        fmt::format("OutPacket {} holds elements up to position {}: {} input rows, but an output "
                    "row holds at most {} {}-bit elements (8 bytes)",
                    mtext(in.out_packet), live_rows - 1, live_rows, d.max_in_rows, bits),
        {fmt::format("max in_rows: 16 (4-bit), 8 (8-bit), 4 (16-bit), 2 (32-bit) ({} "
                     "\"Parameters\")",
                     kPage),
         fmt::format("fix: transpose at most {} rows at a time: OutPacket `R # {}` with |R| ≤ {}",
                     d.max_in_rows, d.flit_elements, d.max_in_rows)});

  const FactorList time = factorize(in.time);
  const FactorList out_packet = factorize(in.out_packet);
  const FactorList out_time = factorize(in.out_time);
  auto packet = split_at(factorize(in.packet), d.valid_size);
  if (!packet) return std::move(packet).take_diagnostics();
  // docs/transpose.md §3: the fewest rows, then the fewest flits per row, that place OutPacket's
  // rows in Time; the first placement that passes every rule is the engine's configuration, and
  // when none does, the first placement's failure is reported.
  std::optional<Diagnostic> first_failure;
  for (std::uint64_t in_rows = live_rows; in_rows <= d.max_in_rows; ++in_rows) {
    if (in.time.size() % in_rows != 0) continue;
    auto rows = resize(out_packet, in_rows);
    if (!rows) return std::move(rows).take_diagnostics();
    for (std::uint64_t ppc : divisors(in.time.size() / in_rows)) {
      auto gathered = split_at(time, ppc);
      if (!gathered) return std::move(gathered).take_diagnostics();
      auto matrix = split_at(gathered->outer, in_rows);
      if (!matrix) return std::move(matrix).take_diagnostics();
      if (!same_layout(matrix->inner, *rows)) continue;
      auto r = check_placement(in, d, {in_rows, ppc, matrix->outer, *rows, gathered->inner},
                               packet->inner, out_time);
      if (r) return r;
      if (!first_failure) first_failure = r.diagnostics().front();
    }
  }
  if (first_failure) return *first_failure;
  return fail(
      "E-TRANSPOSE-006", "InRowsNotInTime",
      fmt::format("OutPacket {} puts {} in each output row, but Time {} does not hold them as one "
                  "factor above the flits of a row: no packets_per_col p gives Time = [outer, "
                  "rows, p]",
                  mtext(in.out_packet), ftext(remove_padding(out_packet)), mtext(in.time)),
      {fmt::format("the rows of the input matrix are consecutive Time steps, each row "
                   "packets_per_col consecutive flits ({} \"Gather\")",
                   kPage),
       "fix: OutPacket names the Time factor just above the flits that make one row (e.g. Time "
       "[C, D], Packet [E # 32] → OutPacket [D # 32], OutTime [C, E])"});
}

} // namespace tujit::ir::verify
