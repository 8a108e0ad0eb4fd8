// How diagnostics quote mappings and factor lists (`m![A / 8, B]`), and whether a factor list
// names an axis: shared by the stage verifiers and the front end.
#pragma once

#include "ir/mapping/factor.h"
#include "ir/mapping/mapping.h"

#include <string>

namespace tujit::ir {

inline std::string mtext(const Mapping& m) {
  return "m![" + m.to_string() + "]";
}

inline std::string mtext(const FactorList& l) {
  return "m![" + render_text(l) + "]";
}

/// Whether `l` names `axis` as a term, in a composite too.
inline bool mentions(const FactorList& l, const std::string& axis) {
  for (const Factor& f : l.factors)
    if (f.is_term() &&
        (f.atom.name == axis || (f.atom.is_composite() && mentions(*f.atom.comp, axis))))
      return true;
  return false;
}

} // namespace tujit::ir
