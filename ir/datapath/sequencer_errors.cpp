#include "ir/datapath/sequencer_errors.h"

namespace tujit::ir::datapath {

Diagnostic seq_error(const SeqRule& rule, std::string message, std::vector<std::string> notes) {
  return rule_error(std::string(rule.code), std::string(kFetchStage), std::string(rule.name),
                    std::move(message), std::move(notes));
}

} // namespace tujit::ir::datapath
