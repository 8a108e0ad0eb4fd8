// The stage operations `tujit stage` runs (docs/cli.md §11): for each OP, the options its verifier
// reads and how they become that verifier's input (ir/verify/). The command line itself is
// cmd_stage.cpp.
#pragma once

#include "ir/mapping/mapping.h"
#include "ir/support/diagnostic.h"
#include "ir/types/lane_mode.h"
#include "ir/types/scalar_type.h"
#include "ir/verify/stage_check.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace tujit::cli {

/// The values of the options given to `tujit stage`, parsed.
struct StageOptions {
  std::map<std::string, std::string> text; // option (without `--`) → its text, for those given
  std::string axes_text;
  ir::AxisTable axes;
  std::map<std::string, ir::Mapping> mappings; // mapping options, parsed against `axes`
  ir::ScalarType dtype = ir::ScalarType::BF16;
  ir::ScalarType weight_dtype = ir::ScalarType::BF16;
  ir::LaneMode mode = ir::LaneMode::Interleaved;
};

/// One OP: its name, what it checks, the options it requires and accepts (names without `--`),
/// and the verifier run on them.
struct StageOp {
  std::string_view name;
  std::string_view summary;
  std::vector<std::string> required;
  std::vector<std::string> optional;
  Result<ir::verify::DerivedTable> (*run)(const StageOptions&);
};

/// Every OP, in the order `tujit stage --help` lists them.
const std::vector<StageOp>& stage_ops();
const StageOp* find_stage_op(std::string_view name);
/// "to_trf, to_vrf, …".
std::string stage_op_names();
/// "--axes --dtype --time … [--json]": what `op` takes.
std::string stage_option_list(const StageOp& op);
/// Whether `op` reads the option `name`.
bool reads_option(const StageOp& op, const std::string& name);

/// The mapping-valued options (parsed against --axes); the others are types and the lane mode.
const std::vector<std::string>& stage_mapping_options();

} // namespace tujit::cli
