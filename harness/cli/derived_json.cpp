#include "harness/cli/derived_json.h"

#include <type_traits>
#include <variant>

namespace tujit::cli {

nlohmann::json to_json(const ir::verify::DerivedValue& v) {
  return std::visit(
      [](const auto& x) -> nlohmann::json {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, ir::Mapping>) {
          return x.to_string();
        } else {
          return x;
        }
      },
      v);
}

nlohmann::json to_json(const ir::verify::DerivedTable& t) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [key, value] : t) j[key] = to_json(value);
  return j;
}

std::string to_text(const ir::verify::DerivedValue& v) {
  return std::visit(
      [](const auto& x) -> std::string {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, ir::Mapping>) {
          return x.to_string();
        } else if constexpr (std::is_same_v<T, bool>) {
          return x ? "true" : "false";
        } else if constexpr (std::is_same_v<T, std::string>) {
          return x;
        } else {
          return std::to_string(x);
        }
      },
      v);
}

} // namespace tujit::cli
