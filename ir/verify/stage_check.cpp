#include "ir/verify/stage_check.h"

namespace tujit::ir::verify {

Diagnostic rule_error(std::string code, std::string stage, std::string rule_name,
                      std::string message, std::vector<std::string> notes) {
  Diagnostic d = make_error(std::move(code), std::move(message), std::nullopt, std::move(notes));
  d.stage = std::move(stage);
  d.notes.insert(d.notes.begin(), "rule: " + rule_name);
  return d;
}

} // namespace tujit::ir::verify
