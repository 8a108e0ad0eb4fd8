// One descriptor per stage operation (ir/lang/stage_descriptor.h): every operation has a
// descriptor, a verifier entry and the method the typer knows, and the descriptors say what the
// language reference says. The expected rows are docs/kernel-language.md §6's table of calls
// (method, type arguments, the tensor it is called on, the tensor it gives) and the Vector Engine
// calls of docs/vector-engine.md §2–§3, written out here, not read from the table under test.
#include "harness/cli/stage_ops.h"
#include "ir/lang/kernel.h"
#include "ir/lang/sema_methods.h"
#include "ir/lang/stage_descriptor.h"
#include "ir/verify/stage_verifiers.h"

#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

using namespace tujit;
using namespace tujit::ir;

namespace {

struct Row {
  std::string_view method;
  std::vector<std::string_view> type_args; // "" for an element-type argument
  TensorKind on;
  TensorKind gives;
};

// docs/kernel-language.md §6, one line per row of its table (the Vector Engine row apart).
const std::vector<Row>& reference_rows() {
  using K = TensorKind;
  static const std::vector<Row> rows = {
      {"fetch", {"Time", "Packet"}, K::Begin, K::Fetch},
      {"fetch_table_lookup", {""}, K::Fetch, K::Fetch},
      {"fetch_cast", {""}, K::Fetch, K::Fetch},
      {"fetch_zero_point_sub", {""}, K::Fetch, K::Fetch},
      {"switch", {"OutSlice", "OutTime"}, K::Fetch, K::Switch},
      {"collect", {"Time", "Packet"}, K::Fetch, K::Collect},
      {"to_trf", {"Lane", "Element"}, K::Collect, K::Trf},
      {"to_vrf", {"Element"}, K::Collect, K::Vrf},
      {"contract_outer",
       {"OutTime", "OutPacket", "Lane", "TrfElement", ""},
       K::Collect,
       K::ContractOuter},
      {"contract_packet", {"OutPacket"}, K::ContractOuter, K::ContractPacket},
      {"contract_time", {"OutTime"}, K::ContractPacket, K::ContractTime},
      {"contract_lane", {"OutTime", "OutPacket"}, K::ContractTime, K::Contract},
      {"reshape", {"Chip", "Cluster", "Slice", "Element"}, K::Vrf, K::Vrf},
      {"reshape", {"Chip", "Cluster", "Slice", "Element"}, K::Dm, K::Dm},
      {"read", {"Time", "Packet"}, K::Mem, K::Stream},
      {"write", {}, K::Mem, K::Mem},
      {"to_dm", {"Cluster", "Slice", "Element"}, K::Hbm, K::Dm},
      {"to_hbm", {"Element"}, K::Dm, K::Hbm},
      {"cast", {"", "OutPacket"}, K::Collect, K::Cast},
      {"transpose", {"OutTime", "OutPacket"}, K::Collect, K::Transpose},
      {"commit_trim", {"OutPacket"}, K::Collect, K::CommitTrim},
      {"commit_cast", {""}, K::CommitTrim, K::CommitCast},
      {"commit_cast_relu", {""}, K::CommitTrim, K::CommitCast},
      {"commit", {"Element"}, K::CommitTrim, K::Dm},
  };
  return rows;
}

// docs/vector-engine.md §2 (the layout calls) and §3 (the value calls), and the chain's ends.
const std::vector<std::string_view> kVectorCalls = {"vector_init",
                                                    "vector_intra_slice_tag",
                                                    "vector_narrow_split",
                                                    "vector_narrow_trim",
                                                    "vector_widen_concat",
                                                    "vector_widen_pad",
                                                    "vector_fp_unary",
                                                    "vector_fp_binary",
                                                    "vector_fp_binary_with_mode",
                                                    "vector_fp_ternary",
                                                    "vector_fp_div",
                                                    "vector_fxp",
                                                    "vector_logic",
                                                    "vector_clip",
                                                    "vector_fxp_to_fp",
                                                    "vector_fp_to_fxp",
                                                    "vector_reinterpret",
                                                    "vector_final"};

// docs/cli.md §11: the stage operations `tujit stage` verifies on bare mappings.
const std::set<std::string_view> kStageCommands = {
    "to_trf",         "to_vrf",          "collect",       "stream_adapter", "trf_sequencer",
    "contract_outer", "contract_packet", "contract_time", "contract_lane",  "transpose"};

} // namespace

TEST_CASE("every stage operation has its descriptor and its verifier entry, in order",
          "[stage_descriptor]") {
  REQUIRE(stage_descriptors().size() == kStageOpCount);
  for (std::size_t i = 0; i < kStageOpCount; ++i) {
    const auto op = static_cast<StageOp>(i);
    CAPTURE(i);
    CHECK(descriptor(op).op == op);
    CHECK(verify::stage_verifier(op).op == op);
    CHECK(verify::stage_verifier(op).check != nullptr);
    CHECK(to_string(op) == descriptor(op).method);
  }
}

TEST_CASE("the descriptors are docs/kernel-language.md §6's calls", "[stage_descriptor]") {
  // Every operation but the Vector Engine's (one operation, many calls) is one row of the table.
  REQUIRE(reference_rows().size() + 1 == kStageOpCount);
  for (const Row& row : reference_rows()) {
    CAPTURE(row.method);
    const StageDescriptor* d = find_descriptor(row.method, row.on);
    REQUIRE(d != nullptr);
    CHECK(d->op != StageOp::Vector);
    CHECK(d->input == row.on);
    CHECK(d->output == row.gives);
    REQUIRE(d->params.size() == row.type_args.size());
    for (std::size_t i = 0; i < row.type_args.size(); ++i) {
      CAPTURE(i);
      CHECK(d->params[i].scalar == row.type_args[i].empty());
      if (!row.type_args[i].empty()) CHECK(d->params[i].name == row.type_args[i]);
    }
    // The typer knows the method as this operation.
    const lang::MethodInfo* m = lang::find_method(row.method, row.on);
    REQUIRE(m != nullptr);
    CHECK(m->op == d->op);
    CHECK(lang::output_kind(*m) == row.gives);
  }
  // to_vrf also stores vector_final's stream (the row "`.to_vrf()` after `vector_final`").
  CHECK(descriptor(StageOp::ToVrf).alt_inputs.size() == 1);
  CHECK(descriptor(StageOp::ToVrf).alt_inputs[0] == TensorKind::VectorFinal);
  // The output path starts from any stream that leaves the engines (docs/output-path.md §1,
  // §2.1), to_hbm also from an HbmTensor, commit also after commit_cast.
  const auto accepts = [](std::string_view method, TensorKind k) {
    const lang::MethodInfo* m = lang::find_method(method);
    return m != nullptr && m->accepts(k);
  };
  for (TensorKind k : {TensorKind::Collect, TensorKind::Contract, TensorKind::VectorFinal}) {
    CHECK(accepts("cast", k));
    CHECK(accepts("commit_trim", k));
  }
  CHECK(accepts("commit_trim", TensorKind::Cast));
  CHECK_FALSE(accepts("cast", TensorKind::Cast));
  // The Transpose Engine takes the same streams and the Cast Engine's output; only commit_trim
  // follows it (docs/transpose.md §1).
  for (TensorKind k :
       {TensorKind::Collect, TensorKind::Contract, TensorKind::VectorFinal, TensorKind::Cast})
    CHECK(accepts("transpose", k));
  CHECK_FALSE(accepts("transpose", TensorKind::Transpose));
  CHECK_FALSE(accepts("transpose", TensorKind::CommitTrim));
  CHECK(accepts("commit_trim", TensorKind::Transpose));
  CHECK_FALSE(accepts("cast", TensorKind::Transpose));
  CHECK_FALSE(accepts("commit", TensorKind::Transpose));
  CHECK_FALSE(accepts("to_vrf", TensorKind::Transpose));
  CHECK(accepts("commit", TensorKind::CommitCast));
  CHECK_FALSE(accepts("commit", TensorKind::Contract));
  CHECK(accepts("to_hbm", TensorKind::Hbm));
  CHECK_FALSE(accepts("to_dm", TensorKind::Dm));
  CHECK(find_descriptor("vector_init") == nullptr);
}

TEST_CASE("every method the typer knows is a described operation", "[stage_descriptor]") {
  // Not stages: they start a chain (begin_interleaved: two DM tensors fetched interleaved,
  // docs/vector-engine.md §3.5).
  std::set<std::string> documented = {"begin", "begin_interleaved", "view"};
  for (const Row& row : reference_rows()) documented.insert(std::string(row.method));
  for (std::string_view v : kVectorCalls) {
    const lang::MethodInfo* m = lang::find_method(v);
    CAPTURE(v);
    REQUIRE(m != nullptr);
    CHECK(m->op == StageOp::Vector);
    CHECK(lang::output_kind(*m) ==
          (v == "vector_final" ? TensorKind::VectorFinal : TensorKind::Vector));
  }
  // known_methods() is E-TYPE-008's list: "begin, view, fetch, …".
  const std::string known = lang::known_methods();
  std::size_t from = 0;
  while (from < known.size()) {
    std::size_t to = known.find(", ", from);
    if (to == std::string::npos) to = known.size();
    const std::string name = known.substr(from, to - from);
    CAPTURE(name);
    // A method the reference does not list must be a Vector Engine call (the `_with_mode`
    // variants of docs/vector-engine.md §3's calls).
    if (!documented.count(name)) {
      REQUIRE(name.rfind("vector_", 0) == 0);
      CHECK(lang::find_method(name)->op == StageOp::Vector);
    }
    from = to + 2;
  }
}

TEST_CASE("a stage's `tujit stage` OP is one the command runs", "[stage_descriptor]") {
  std::set<std::string_view> named;
  for (const StageDescriptor& d : stage_descriptors()) {
    if (d.stage_command.empty()) continue;
    CAPTURE(d.method);
    CHECK(kStageCommands.count(d.stage_command) == 1);
    CHECK(cli::find_stage_op(d.stage_command) != nullptr);
    named.insert(d.stage_command);
  }
  // The two halves of contract_outer are verified on their own; every other OP is a stage's.
  for (std::string_view op : kStageCommands)
    if (op != "stream_adapter" && op != "trf_sequencer") CHECK(named.count(op) == 1);
  CHECK(cli::stage_ops().size() == kStageCommands.size());
}

TEST_CASE("each stage stands for the unit that runs it", "[stage_descriptor]") {
  // docs/datapath.md §4.2–§8 and docs/contraction.md §2–§8: which engine runs each call. Lowering,
  // the engines and the cycle models recognise a stage by this unit.
  using U = StageUnit;
  const std::map<std::string_view, StageUnit> units = {{"fetch", U::FetchSequencer},
                                                       {"fetch_table_lookup", U::FetchAdapter},
                                                       {"fetch_cast", U::FetchAdapter},
                                                       {"fetch_zero_point_sub", U::FetchAdapter},
                                                       {"switch", U::SwitchEngine},
                                                       {"collect", U::Collect},
                                                       {"to_trf", U::TrfStore},
                                                       {"to_vrf", U::VrfStore},
                                                       {"contract_outer", U::ContractOuter},
                                                       {"contract_packet", U::PacketReducer},
                                                       {"contract_time", U::TimeReducer},
                                                       {"contract_lane", U::LaneFolder},
                                                       {"vector", U::VectorEngine},
                                                       {"reshape", U::None},
                                                       {"read", U::MemReader},
                                                       {"write", U::MemWriter},
                                                       {"to_dm", U::Dma},
                                                       {"to_hbm", U::Dma},
                                                       {"cast", U::CastEngine},
                                                       {"transpose", U::TransposeEngine},
                                                       {"commit_trim", U::CommitAdapter},
                                                       {"commit_cast", U::CommitAdapter},
                                                       {"commit_cast_relu", U::CommitAdapter},
                                                       {"commit", U::CommitEngine}};
  // One row per method: `reshape` names two operations (a VrfTensor's and a DmTensor's).
  std::set<std::string_view> methods;
  for (const StageDescriptor& d : stage_descriptors()) methods.insert(d.method);
  REQUIRE(stage_descriptors().size() == kStageOpCount);
  REQUIRE(units.size() == methods.size());
  for (const StageDescriptor& d : stage_descriptors()) {
    CAPTURE(d.method);
    REQUIRE(units.count(d.method) == 1);
    CHECK(d.unit == units.at(d.method));
  }
}

TEST_CASE("the contraction chain is the first contract_outer that reaches contract_lane",
          "[stage_descriptor]") {
  const std::string root = TUJIT_SOURCE_DIR;
  // A sub-context TRF store in one statement, the chain in the next.
  auto gemm = load_spec(root + "/specs/derived/gemm_kernel.rs");
  REQUIRE(gemm);
  const Kernel& k = gemm->kernels.at(0);
  const auto chain = find_contraction_chain(k);
  REQUIRE(chain);
  const std::vector<const Stage*> stages = {chain->outer, chain->packet, chain->time, chain->lane};
  const std::vector<std::string_view> methods = {"contract_outer", "contract_packet",
                                                 "contract_time", "contract_lane"};
  for (std::size_t i = 0; i < stages.size(); ++i) {
    CAPTURE(i);
    REQUIRE(stages[i] != nullptr);
    CHECK(stage_name(*stages[i]) == methods[i]);
    CHECK(stages[i]->chain == 1); // the second statement
    if (i > 0)
      CHECK(stages[i]->producer == static_cast<std::size_t>(stages[i - 1] - k.stages.data()));
  }
  CHECK(chain->outer->trf_name == "b_trf");
  // contract_outer alone (a part of a chain) is no complete chain.
  auto part = load_spec(root + "/specs/trf_sequencer_partial_read.rs");
  REQUIRE(part);
  CHECK_FALSE(find_contraction_chain(part->kernels.at(0)));
}
