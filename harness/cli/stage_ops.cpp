#include "harness/cli/stage_ops.h"

#include "ir/verify/collect.h"
#include "ir/verify/contract_lane.h"
#include "ir/verify/contract_packet.h"
#include "ir/verify/contract_time.h"
#include "ir/verify/outer_stage.h"
#include "ir/verify/stream_adapter.h"
#include "ir/verify/to_trf.h"
#include "ir/verify/to_vrf.h"
#include "ir/verify/transpose.h"
#include "ir/verify/trf_sequencer.h"

#include <algorithm>
#include <utility>

namespace tujit::cli {

namespace {

template <class Derived>
Result<ir::verify::DerivedTable> table_of(Result<Derived> r) {
  if (!r) return std::move(r).take_diagnostics();
  return r->to_table();
}

const ir::Mapping& mapping(const StageOptions& o, const std::string& name) {
  return o.mappings.at(name);
}

Result<ir::verify::DerivedTable> run_to_trf(const StageOptions& o) {
  ir::verify::ToTrfInput in;
  in.dtype = o.dtype;
  in.time = mapping(o, "time");
  in.packet = mapping(o, "packet");
  in.lane = mapping(o, "lane");
  in.element = mapping(o, "element");
  return table_of(ir::verify::verify_to_trf(in));
}

Result<ir::verify::DerivedTable> run_to_vrf(const StageOptions& o) {
  ir::verify::ToVrfInput in;
  in.dtype = o.dtype;
  in.element = mapping(o, "element");
  return table_of(ir::verify::verify_to_vrf(in));
}

Result<ir::verify::DerivedTable> run_collect(const StageOptions& o) {
  ir::verify::CollectInput in;
  in.dtype = o.dtype;
  in.time = mapping(o, "time");
  in.packet = mapping(o, "packet");
  in.out_time = mapping(o, "out-time");
  in.out_packet = mapping(o, "out-packet");
  return table_of(ir::verify::verify_collect(in));
}

Result<ir::verify::DerivedTable> run_stream_adapter(const StageOptions& o) {
  ir::verify::StreamAdapterInput in;
  in.dtype = o.dtype;
  in.lane = mapping(o, "lane");
  in.time = mapping(o, "time");
  in.packet = mapping(o, "packet");
  in.out_time = mapping(o, "out-time");
  in.out_packet = mapping(o, "out-packet");
  return table_of(ir::verify::verify_stream_adapter(in));
}

Result<ir::verify::DerivedTable> run_trf_sequencer(const StageOptions& o) {
  ir::verify::TrfSequencerInput in;
  in.weight = o.dtype; // the TRF tensor's element type Dw is this stage's only type (§5.2)
  in.lane = mapping(o, "lane");
  in.element = mapping(o, "element");
  in.out_time = mapping(o, "out-time");
  in.out_packet = mapping(o, "out-packet");
  return table_of(ir::verify::verify_trf_sequencer(in));
}

Result<ir::verify::DerivedTable> run_contract_outer(const StageOptions& o) {
  ir::verify::ContractOuterInput in;
  in.stream_dtype = o.dtype;
  in.weight_dtype = o.weight_dtype;
  in.time = mapping(o, "time");
  in.packet = mapping(o, "packet");
  in.lane = mapping(o, "lane");
  in.element = mapping(o, "element");
  in.out_time = mapping(o, "out-time");
  in.out_packet = mapping(o, "out-packet");
  auto r = ir::verify::verify_contract_outer(in);
  if (!r) return std::move(r).take_diagnostics();
  return r->to_table(in);
}

Result<ir::verify::DerivedTable> run_contract_packet(const StageOptions& o) {
  ir::verify::ContractPacketInput in;
  in.dtype = o.dtype;
  in.out_packet = mapping(o, "packet"); // OP: the packet leaving the Outer stage
  in.p2 = mapping(o, "out-packet");
  return table_of(ir::verify::verify_contract_packet(in));
}

Result<ir::verify::DerivedTable> run_contract_time(const StageOptions& o) {
  ir::verify::ContractTimeInput in;
  in.ot = mapping(o, "time"); // OT: the Outer stage's OutTime
  in.t2 = mapping(o, "out-time");
  return table_of(ir::verify::verify_contract_time(in));
}

Result<ir::verify::DerivedTable> run_contract_lane(const StageOptions& o) {
  ir::verify::ContractLaneInput in;
  in.mode = o.mode;
  in.lane = mapping(o, "lane");
  in.t2 = mapping(o, "time");
  in.p2 = mapping(o, "packet");
  in.t3 = mapping(o, "out-time");
  in.p3 = mapping(o, "out-packet");
  // Without a contract_time before the Lane Folder nothing was summed: pre-reduce time = Time.
  auto pre = o.mappings.find("pre-time");
  in.pre_reduce_time = pre != o.mappings.end() ? pre->second : in.t2;
  return table_of(ir::verify::verify_contract_lane(in));
}

Result<ir::verify::DerivedTable> run_transpose(const StageOptions& o) {
  ir::verify::TransposeInput in;
  in.dtype = o.dtype;
  in.time = mapping(o, "time");
  in.packet = mapping(o, "packet");
  in.out_time = mapping(o, "out-time");
  in.out_packet = mapping(o, "out-packet");
  return table_of(ir::verify::verify_transpose(in));
}

} // namespace

const std::vector<StageOp>& stage_ops() {
  static const std::vector<StageOp> ops = {
      {"to_trf",
       "Collect stream [--time, --packet] into the TRF as --lane / --element",
       {"dtype", "time", "packet", "lane", "element"},
       {},
       &run_to_trf},
      {"to_vrf",
       "an i32/f32 operand --element into the VRF",
       {"dtype", "element"},
       {},
       &run_to_vrf},
      {"collect",
       "any packet to one 32 B flit: [--time, --packet] -> [--out-time, --out-packet]",
       {"dtype", "time", "packet", "out-time", "out-packet"},
       {},
       &run_collect},
      {"stream_adapter",
       "contract_outer's stream side: [--time, --packet] -> [--out-time, --out-packet], "
       "--lane broadcast",
       {"dtype", "lane", "time", "packet", "out-time", "out-packet"},
       {},
       &run_stream_adapter},
      {"trf_sequencer",
       "contract_outer's TRF side: TRF --lane / --element (of type --dtype) read as "
       "[--out-time, --out-packet]",
       {"dtype", "lane", "element", "out-time", "out-packet"},
       {},
       &run_trf_sequencer},
      {"contract_outer",
       "operand pair, stream adapter and TRF sequencer together (--weight-dtype defaults to "
       "--dtype)",
       {"dtype", "time", "packet", "lane", "element", "out-time", "out-packet"},
       {"weight-dtype"},
       &run_contract_outer},
      {"contract_packet",
       "Packet Reducer: --packet (OP) summed into --out-packet (P2)",
       {"dtype", "packet", "out-packet"},
       {},
       &run_contract_packet},
      {"contract_time",
       "Time Reducer: --time (OT) summed into --out-time (T2)",
       {"time", "out-time"},
       {},
       &run_contract_time},
      {"contract_lane",
       "Lane Folder: [--lane, --time, --packet] -> [--out-time, --out-packet] in --mode "
       "(--pre-time: OT before contract_time, default --time)",
       {"lane", "time", "packet", "out-time", "out-packet", "mode"},
       {"pre-time"},
       &run_contract_lane},
      {"transpose",
       "Transpose Engine: [--time, --packet] -> [--out-time, --out-packet] (docs/transpose.md)",
       {"dtype", "time", "packet", "out-time", "out-packet"},
       {},
       &run_transpose},
  };
  return ops;
}

const StageOp* find_stage_op(std::string_view name) {
  for (const auto& op : stage_ops())
    if (op.name == name) return &op;
  return nullptr;
}

std::string stage_op_names() {
  std::string s;
  for (const auto& op : stage_ops()) s += (s.empty() ? "" : ", ") + std::string(op.name);
  return s;
}

std::string stage_option_list(const StageOp& op) {
  std::string s = "--axes";
  for (const auto& o : op.required) s += " --" + o;
  for (const auto& o : op.optional) s += " [--" + o + "]";
  return s + " [--json]";
}

bool reads_option(const StageOp& op, const std::string& name) {
  return std::find(op.required.begin(), op.required.end(), name) != op.required.end() ||
         std::find(op.optional.begin(), op.optional.end(), name) != op.optional.end();
}

const std::vector<std::string>& stage_mapping_options() {
  static const std::vector<std::string> names = {"lane",       "time",    "packet",  "out-time",
                                                 "out-packet", "element", "pre-time"};
  return names;
}

} // namespace tujit::cli
