// The kernel checker on the corpus: every valid kernel of specs/ and specs/derived/
// verifies, its derived values are those docs/contraction.md §11 states (via specs/README.md), and
// every file of specs/invalid/ fails with the rule its first line names, at the stated stage.
#include "ir/lang/kernel.h"
#include "ir/verify/kernel_checker.h"
#include "tests/support/diagnostic_dump.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

using namespace tujit;
using namespace tujit::ir;
namespace fs = std::filesystem;

namespace {

const fs::path kRoot = TUJIT_SOURCE_DIR;

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<fs::path> rs_files(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".rs") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

using testing::dump;

using Expected = std::map<std::string, verify::DerivedValue>; // key → value

/// Values stated by docs/contraction.md §11 (copied from the spec text, see specs/README.md). Keyed
/// by file, then stage op; every stage of that op in the file must carry these values.
const std::map<std::string, std::map<std::string, Expected>>& stated() {
  using V = verify::DerivedValue;
  auto u = [](std::uint64_t n) { return V{n}; };
  auto w = [](const char* s) { return V{std::string(s)}; };
  static const std::map<std::string, std::map<std::string, Expected>> t = {
      // §11 ex 1
      {"bmatmul_k_in_time.rs",
       {{"contract_outer",
         {{"pack_size", u(1)},
          {"time_broadcast_size", u(1)},
          {"read_size", u(1)},
          {"read_width", w("narrow")},
          {"packet_broadcast_size", u(16)}}},
        {"contract_packet", {{"depth", u(0)}}},
        {"contract_time", {{"inner_time", u(1)}}},
        {"contract_lane",
         {{"inner_time", u(1)}, {"accumulator_cells", u(8)}, {"slot_capacity", u(128)}}}}},
      // §11 ex 2, 3
      {"bmatmul_m_in_time.rs",
       {{"contract_outer",
         {{"pack_size", u(2)},
          {"time_broadcast_size", u(1)},
          {"read_size", u(32)},
          {"read_width", w("wide")},
          {"packet_broadcast_size", u(1)}}},
        {"contract_packet", {{"depth", u(5)}}},
        {"contract_time", {{"inner_time", u(1)}}},
        {"contract_lane", {{"accumulator_cells", u(8)}, {"slot_capacity", u(128)}}}}},
      {"bmatmul_v_in_time.rs",
       {{"contract_outer",
         {{"pack_size", u(2)},
          {"time_broadcast_size", u(1)},
          {"read_size", u(32)},
          {"read_width", w("wide")},
          {"packet_broadcast_size", u(1)}}},
        {"contract_packet", {{"depth", u(5)}}},
        {"contract_time", {{"inner_time", u(1)}}},
        {"contract_lane", {{"accumulator_cells", u(8)}, {"slot_capacity", u(128)}}}}},
      // §11 ex 4
      {"stream_adapter_example.rs",
       {{"contract_outer",
         {{"pack_size", u(2)},
          {"time_broadcast_size", u(5)},
          {"lane_broadcast", u(8)},
          {"read_size", u(32)},
          {"read_width", w("wide")},
          {"packet_broadcast_size", u(1)},
          {"rows_size", u(5)}}}}},
      // §11 ex 5
      {"trf_sequencer_full_read.rs",
       {{"contract_outer",
         {{"pack_size", u(2)},
          {"time_broadcast_size", u(1)},
          {"read_size", u(32)},
          {"read_width", w("wide")},
          {"packet_broadcast_size", u(1)},
          {"rows_size", u(1)}}}}},
      // §11 ex 6: PB [L] (L = 2), Rows [O] (O = 2)
      {"trf_sequencer_partial_read.rs",
       {{"contract_outer",
         {{"pack_size", u(2)},
          {"time_broadcast_size", u(1)},
          {"read_size", u(16)},
          {"read_width", w("narrow")},
          {"packet_broadcast_size", u(2)},
          {"rows_size", u(2)}}}}},
      // §11 ex 7
      {"matmul.rs",
       {{"contract_outer", {{"pack_size", u(2)}, {"read_size", u(32)}, {"read_width", w("wide")}}},
        {"contract_packet", {{"depth", u(5)}}},
        {"contract_time", {{"inner_time", u(1)}}}}},
      // §11 ex 8: Rows [B / 16] (B = 32 → 2); 1·8·32 = 256 cells, capacity 32 slots
      {"reduce_b.rs",
       {{"contract_outer",
         {{"pack_size", u(1)},
          {"time_broadcast_size", u(1)},
          {"read_size", u(16)},
          {"read_width", w("narrow")},
          {"packet_broadcast_size", u(1)},
          {"rows_size", u(2)}}},
        {"contract_packet", {{"depth", u(4)}}},
        {"contract_time", {{"inner_time", u(8)}}},
        {"contract_lane",
         {{"inner_time", u(8)}, {"accumulator_cells", u(256)}, {"slot_capacity", u(32)}}}}},
      // §11 ex 9, 10
      {"lane_interleaved.rs",
       {{"contract_lane",
         {{"accumulator_cells", u(128)}, {"slot_capacity", u(8)}, {"output_flits", u(64)}}}}},
      {"lane_sequential.rs",
       {{"contract_lane",
         {{"accumulator_cells", u(256)}, {"slot_capacity", u(4)}, {"output_flits", u(64)}}}}},
      // §11 ex 11a, 11b
      {"load_trf.rs",
       {{"to_trf", {{"lanes", u(1)}, {"flits_per_lane", u(1)}, {"bytes_per_lane", u(32)}}}}},
      {"store_bmatmul_trf.rs",
       {{"to_trf", {{"lanes", u(8)}, {"flits_per_lane", u(2)}, {"bytes_per_lane", u(64)}}}}},
      // docs/contraction.md §4.3: 2048 × 4 B = 8192 B, exactly the VRF
      {"store.rs", {{"to_vrf", {{"bytes", u(8192)}, {"capacity", u(8192)}}}}},
      // §11 ex 11c
      {"proj_q.rs",
       {{"to_trf",
         {{"lanes", u(8)},
          {"flits_per_lane", u(256)},
          {"bytes_per_lane", u(8192)},
          {"total_bytes", u(65536)}}}}},
      // §11 ex 12
      {"gemm_kernel.rs",
       {{"to_trf", {{"flits_per_lane", u(16)}}},
        {"contract_outer",
         {{"pack_size", u(2)},
          {"time_broadcast_size", u(1)},
          {"read_size", u(32)},
          {"read_width", w("wide")}}},
        {"contract_packet", {{"depth", u(5)}}},
        {"contract_time", {{"inner_time", u(1)}}}}},
      // §11 ex 13: lm_head, 16 cells = 8 lanes · IT 2 · one packet column
      {"forward__lm_head.rs",
       {{"contract_outer",
         {{"pack_size", u(2)},
          {"time_broadcast_size", u(2)},
          {"read_size", u(32)},
          {"read_width", w("wide")}}},
        {"contract_packet", {{"depth", u(5)}}},
        {"contract_time", {{"inner_time", u(2)}}},
        {"contract_lane", {{"inner_time", u(2)}, {"accumulator_cells", u(16)}}}}},
      // §11 ex 13 (mlp "up"): TB 3, IT 3
      {"forward__mlp_up_gate.rs",
       {{"contract_outer", {{"time_broadcast_size", u(3)}}},
        {"contract_time", {{"inner_time", u(3)}}}}},
      // §11 ex 14
      {"weighted_sum.rs",
       {{"contract_outer",
         {{"pack_size", u(1)},
          {"time_broadcast_size", u(16)},
          {"read_size", u(16)},
          {"read_width", w("narrow")},
          {"packet_broadcast_size", u(1)},
          {"rows_size", u(16)}}},
        {"contract_packet", {{"depth", u(4)}}},
        {"contract_time", {{"inner_time", u(1)}}}}},
      // §11 ex 15: 16 KiB/lane × 4 = 64 KiB; 8·4·1 = 32 cells
      {"proj_o.rs",
       {{"to_trf", {{"lanes", u(4)}, {"bytes_per_lane", u(16384)}, {"total_bytes", u(65536)}}},
        {"contract_outer",
         {{"pack_size", u(2)},
          {"time_broadcast_size", u(4)},
          {"read_size", u(32)},
          {"read_width", w("wide")}}},
        {"contract_packet", {{"depth", u(5)}}},
        {"contract_time", {{"inner_time", u(4)}}},
        {"contract_lane", {{"inner_time", u(4)}, {"accumulator_cells", u(32)}}}}},
      // §11 ex 16
      {"i4_contract.rs",
       {{"contract_outer",
         {{"pack_size", u(1)}, {"read_size", u(64)}, {"read_width", w("narrow")}}},
        {"contract_packet", {{"depth", u(6)}, {"tree_latency", u(7)}}}}},
      {"zero_point_sub_contract.rs", {{"contract_packet", {{"depth", u(5)}}}}},
      // §11 ex 17: Rows [T, V] = 5 · 2
      {"valid_transposed_tiling.rs",
       {{"contract_outer",
         {{"pack_size", u(1)},
          {"time_broadcast_size", u(10)},
          {"read_size", u(32)},
          {"read_width", w("narrow")},
          {"rows_size", u(10)}}},
        {"contract_time", {{"inner_time", u(1)}}}}},
      // docs/contraction.md §4.3: exactly 8192 B accepted
      {"to_vrf_at_capacity.rs", {{"to_vrf", {{"bytes", u(8192)}}}}},
      // furiosa-opt docs/src/computing-tensors/transpose-engine.md: each example's parameter
      // table and the latency it prints (docs/transpose.md §6).
      {"transpose_basic.rs",
       {{"transpose",
         {{"in_cols", u(16)},
          {"in_rows", u(8)},
          {"out_rows", u(16)},
          {"in_flits", u(16)},
          {"iterations", u(2)},
          {"buffering", w("double")},
          {"cycles", u(48)}}}}},
      {"transpose_small.rs",
       {{"transpose",
         {{"in_cols", u(8)},
          {"in_rows", u(4)},
          {"out_rows", u(2)},
          {"in_flits", u(4)},
          {"iterations", u(1)},
          {"buffering", w("double")},
          {"cycles", u(6)}}}}},
      {"transpose_large_col.rs",
       {{"transpose",
         {{"in_cols", u(32)},
          {"in_rows", u(8)},
          {"out_rows", u(32)},
          {"in_flits", u(32)},
          {"iterations", u(2)},
          {"buffering", w("single")},
          {"cycles", u(128)}}}}},
      {"transpose_bf16.rs",
       {{"transpose",
         {{"in_cols", u(8)},
          {"in_rows", u(4)},
          {"out_rows", u(8)},
          {"in_flits", u(4)},
          {"iterations", u(8)},
          {"buffering", w("double")},
          {"cycles", u(68)}}}}},
      {"transpose_i4.rs",
       {{"transpose",
         {{"in_cols", u(16)},
          {"in_rows", u(16)},
          {"out_rows", u(16)},
          {"in_flits", u(16)},
          {"iterations", u(4)},
          {"buffering", w("double")},
          {"cycles", u(80)}}}}},
      {"transpose_f32.rs",
       {{"transpose",
         {{"in_cols", u(8)},
          {"in_rows", u(2)},
          {"out_rows", u(8)},
          {"in_flits", u(2)},
          {"iterations", u(4)},
          {"buffering", w("double")},
          {"cycles", u(34)}}}}},
  };
  return t;
}

std::string text(const verify::DerivedValue& v) {
  if (const auto* n = std::get_if<std::uint64_t>(&v)) return std::to_string(*n);
  if (const auto* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  return std::get<Mapping>(v).to_string();
}

} // namespace

TEST_CASE("kernel check: every corpus kernel verifies with the stated derived values",
          "[kernel-check]") {
  std::vector<fs::path> files = rs_files(kRoot / "specs");
  auto derived = rs_files(kRoot / "specs" / "derived");
  files.insert(files.end(), derived.begin(), derived.end());
  REQUIRE(files.size() >= 50);
  std::size_t kernels = 0, values = 0;
  std::set<std::string> seen;
  for (const auto& f : files) {
    auto spec = analyze_spec(SourceBuffer(f.string(), read(f)));
    INFO(f.string());
    REQUIRE(spec.ok());
    const auto it = stated().find(f.filename().string());
    if (it != stated().end()) seen.insert(it->first);
    for (const auto& k : spec->kernels) {
      auto kc = verify::check_kernel(*spec, k);
      INFO(k.name << "\n" << dump(spec->source, kc.all_diagnostics()));
      CHECK(kc.ok());
      REQUIRE(kc.stages.size() == k.stages.size());
      ++kernels;
      if (it == stated().end()) continue;
      for (std::size_t i = 0; i < k.stages.size(); ++i) {
        auto want = it->second.find(std::string(to_string(k.stages[i].op)));
        if (want == it->second.end()) continue;
        for (const auto& [key, v] : want->second) {
          INFO("stage " << to_string(k.stages[i].op) << " key " << key);
          auto got = kc.stages[i].derived.find(key);
          REQUIRE(got != kc.stages[i].derived.end());
          CHECK(text(got->second) == text(v));
          ++values;
        }
      }
    }
  }
  CHECK(seen.size() == stated().size()); // every stated file exists in the corpus
  CHECK(kernels >= 50);
  CHECK(values >= 100);
}

namespace {

/// What the `// expect:` line names: the rule (as in the diagnostic's "rule: …" note, or the
/// code for front-end errors) and the stage (docs/cli.md stage names).
struct Expectation {
  std::string rule;
  std::string code; // when the rule has no verifier name (front end)
  std::string stage;
};

std::optional<Expectation> parse_expect(const std::string& first) {
  static const std::map<std::string, std::string> stage_of = {
      {"ToTrfError", "to_trf"},
      {"ToVrfError", "to_vrf"},
      {"StreamAdapterError", "contract_outer"},
      {"ContractPacketError", "contract_packet"},
      {"ContractTimeError", "contract_time"},
      {"ContractLaneError", "contract_lane"}};
  std::smatch m;
  if (std::regex_search(first, m, std::regex(R"(expect: (\w+)::(\w+))")))
    if (auto s = stage_of.find(m[1]); s != stage_of.end()) return Expectation{m[2], "", s->second};
  // [PROP] rules of the TRF Sequencer (docs/contraction.md §5.2) are contract_outer's.
  if (std::regex_search(first, m, std::regex(R"(expect: (Trf\w+) \[PROP\])")))
    return Expectation{m[1], "", "contract_outer"};
  if (first.find("expect: fetch_zero_point_sub rejected") != std::string::npos)
    return Expectation{"ZeroPointOutOfRange", "E-FETCH-002", "fetch"};
  // Hardware limits of a kernel parameter (docs/contraction.md §1, §4.2): the rule and its code.
  if (std::regex_search(first, m, std::regex(R"(expect: hardware (\w+) (E-HW-\d{3}))")))
    return Expectation{m[1], m[2], "hardware"};
  if (first.find("expect: type error: no operand pair") != std::string::npos)
    return Expectation{"", "E-TYPE-014", "type"};
  return std::nullopt;
}

/// A whole kernel's refusal (specs/invalid/kernel_*.rs): its first line states the rule in words,
/// its second names the code (`// tujit: expect E-DMA-002`); the code identifies the rule.
std::optional<Expectation> parse_code(const std::string& body) {
  std::smatch m;
  if (std::regex_search(body, m, std::regex(R"(\n// tujit: expect (E-[A-Z]+-\d{3}))")))
    return Expectation{"", m[1], ""};
  return std::nullopt;
}

} // namespace

TEST_CASE("kernel check: every invalid corpus file fails with its stated rule", "[kernel-check]") {
  auto files = rs_files(kRoot / "specs" / "invalid");
  REQUIRE(files.size() >= 30);
  std::size_t matched = 0;
  for (const auto& f : files) {
    const std::string body = read(f);
    INFO(f.string());
    auto want = parse_expect(body.substr(0, body.find('\n')));
    if (!want && f.filename().string().starts_with("kernel_")) want = parse_code(body);
    REQUIRE(want.has_value());
    SpecAnalysis a = analyze(SourceBuffer(f.string(), body));
    Diagnostics all = a.diagnostics;
    for (const auto& k : a.file.kernels) {
      if (!k.ok) continue;
      auto more = verify::check_kernel(a.file, k).all_diagnostics();
      all.insert(all.end(), more.begin(), more.end());
    }
    INFO(dump(a.file.source, all));
    // The first error is the stated one: nothing else fails before it.
    auto first = std::find_if(all.begin(), all.end(),
                              [](const Diagnostic& d) { return d.severity == Severity::Error; });
    REQUIRE(first != all.end());
    if (!want->stage.empty()) CHECK(first->stage == want->stage);
    if (!want->code.empty()) CHECK(first->code == want->code);
    if (!want->rule.empty())
      CHECK(std::find(first->notes.begin(), first->notes.end(), "rule: " + want->rule) !=
            first->notes.end());
    // Every error points into the file (file:line:col with a caret).
    for (const auto& d : all) CHECK(d.span.has_value());
    ++matched;
  }
  CHECK(matched == files.size());
}
