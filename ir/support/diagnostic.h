// Errors are values (docs/design.md §5.1): every user mistake becomes a Diagnostic with a stable
// code, a span in the source it came from, the rule that failed, and the values that broke it.
// Nothing in tujit throws across a module boundary or aborts on user input.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace tujit {

enum class Severity : std::uint8_t { Note, Warning, Error };
std::string_view to_string(Severity s);

/// A byte range [offset, offset + length) in one SourceBuffer.
struct SourceSpan {
  std::uint32_t offset = 0;
  std::uint32_t length = 0;
  std::uint32_t end() const { return offset + length; }
  friend bool operator==(const SourceSpan&, const SourceSpan&) = default;
};

/// A named piece of text diagnostics point into: a spec file, or a command-line argument.
class SourceBuffer {
public:
  SourceBuffer(std::string name, std::string text);
  const std::string& name() const { return name_; }
  const std::string& text() const { return text_; }
  /// 1-based line and column (column counts bytes, as compilers do) of a byte offset.
  std::pair<std::uint32_t, std::uint32_t> line_col(std::uint32_t offset) const;
  /// The text of the 1-based line `line`, without its newline.
  std::string_view line_text(std::uint32_t line) const;

private:
  std::string name_;
  std::string text_;
  std::vector<std::uint32_t> line_starts_;
};

struct Diagnostic {
  Severity severity = Severity::Error;
  std::string code;  // stable, e.g. "E-PARSE-001" (docs/errors.md)
  std::string stage; // "parse", "type", "to_trf", ... (docs/cli.md §1); empty when not stage-bound
  std::string message; // what is wrong, in the kernel author's words
  std::optional<SourceSpan> span;
  std::vector<std::string> notes; // the rule, and the derived values that broke it
};

/// Renders `file:line:col: error[CODE]: message`, the source line, a caret under the span, and
/// the notes. Without a buffer or span, renders `error[CODE]: message` and the notes.
std::string render(const Diagnostic& d, const SourceBuffer* source);

using Diagnostics = std::vector<Diagnostic>;

bool has_errors(const Diagnostics& ds);

/// A value or the diagnostics that explain why there is none. Discarding one would drop a
/// user's error unseen, so the compiler refuses it.
template <class T>
class [[nodiscard]] Result {
public:
  Result(T value) : v_(std::move(value)) {}
  Result(Diagnostic d) : v_(Diagnostics{std::move(d)}) {}
  Result(Diagnostics ds) : v_(std::move(ds)) {}

  bool ok() const { return std::holds_alternative<T>(v_); }
  explicit operator bool() const { return ok(); }
  const T& value() const& { return std::get<T>(v_); }
  T& value() & { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }
  const Diagnostics& diagnostics() const { return std::get<Diagnostics>(v_); }
  Diagnostics&& take_diagnostics() && { return std::get<Diagnostics>(std::move(v_)); }

private:
  std::variant<T, Diagnostics> v_;
};

/// The value-less form: ok, or the diagnostics that say why not. `return {};` is ok.
template <>
class [[nodiscard]] Result<void> {
public:
  Result() = default;
  Result(Diagnostic d) : ok_(false), diagnostics_{std::move(d)} {}
  Result(Diagnostics ds) : ok_(false), diagnostics_(std::move(ds)) {}

  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  /// Empty when ok.
  const Diagnostics& diagnostics() const { return diagnostics_; }
  Diagnostics&& take_diagnostics() && { return std::move(diagnostics_); }

private:
  bool ok_ = true;
  Diagnostics diagnostics_;
};

using Status = Result<void>;

/// Convenience: an error diagnostic with a code and message.
Diagnostic make_error(std::string code, std::string message,
                      std::optional<SourceSpan> span = std::nullopt,
                      std::vector<std::string> notes = {});

/// An error of running a kernel (stage "run"): what it reads, its inputs, its lowering to a run
/// program and the engines (docs/errors.md, E-RUN-…).
Diagnostic run_error(std::string code, std::string message, std::vector<std::string> notes = {});

/// A stage rule's failure (every stage verifier, ir/verify/, and the data-path rules,
/// ir/datapath/): code (E-TRF-001 …), the stage, the rule's name as the reference calls it (e.g.
/// "LaneSize", "ExceedsCapacity"), a kernel author's message, and notes with the rule first
/// (`rule: <name>`) and then the values. `span` is left empty: the caller (the kernel checker)
/// attaches the call's span.
Diagnostic rule_error(std::string code, std::string stage, std::string rule_name,
                      std::string message, std::vector<std::string> notes = {});

} // namespace tujit
