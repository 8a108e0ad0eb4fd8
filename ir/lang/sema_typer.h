// Internal to the kernel typer (ir/lang/sema.cpp, sema_operands.cpp, sema_calls.cpp): the
// class that types one kernel's body (docs/kernel-language.md §6, §7) and the calls it makes to
// other fns of its file (§9). Not for use outside ir/lang/.
#pragma once

#include "ir/lang/ast.h"
#include "ir/lang/context_rules.h"
#include "ir/lang/kernel.h"
#include "ir/lang/resolve.h"
#include "ir/lang/sema.h"
#include "ir/lang/sema_methods.h"
#include "ir/lang/vector_branch_args.h"

#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tujit::ir::lang::detail {

/// What an expression of a kernel body evaluates to.
struct Value {
  enum class Kind : std::uint8_t {
    Tensor,
    View,    // `x.view()` of a DmTensor (the argument of `begin`) or of an HbmTensor
    ViewMut, // `out.view_mut()` of an `&mut HbmTensor` parameter (a `to_hbm_view` destination)
    CtxRoot, // a `&mut Context` parameter
    Context, // `ctx.main` / `ctx.sub` / `ctx.tdma`
    Opaque,  // a number, `ctx.tdma`, a non-tensor parameter: fine as an argument
    Error,   // already diagnosed
  };
  Kind kind = Kind::Error;
  TensorType tensor;
  ContextKind ctx = ContextKind::Unknown;
  std::string name; // the variable a Tensor came from (for TRF operands)
  /// A tensor parameter written `&mut` (only such a parameter can take a `to_hbm_view`).
  bool writable = false;
  SourceSpan span;
  /// The stage that produced a Tensor (index into Kernel::stages); nullopt for a parameter or
  /// a `begin`. Stage::producer / Stage::source are taken from here.
  std::optional<std::size_t> producer;
  /// The kernel parameter the value's data comes from (the DmTensor of a `begin`).
  std::string source;
  /// A View or Begin tensor: the stage that wrote the memory tensor it reads (Stage::
  /// memory_producer).
  std::optional<std::size_t> memory_producer;
  /// A `begin_interleaved` tensor: its two DM tensors (Stage::interleaved).
  std::vector<Stage::InterleavedSide> interleaved;
};

/// Whether the stream produced by stage `at` is pair mode's two groups before their zip
/// (docs/vector-engine.md §3.5): a vector_intra_slice_unzip up its chain and no `_zip` since.
bool in_pair(const std::vector<Stage>& stages, std::optional<std::size_t> at);

inline std::string mtext(const Mapping& m) {
  return "m![" + m.to_string() + "]";
}

class KernelTyper {
public:
  /// `fns`: the fns the kernel may call, whose calls are typed inline (docs/kernel-language.md
  /// §9); nullptr for driver code, where a free call stays outside the kernel language.
  KernelTyper(const FnItem& fn, Resolver& r, Diagnostics& d, const std::vector<CallableFn>* fns)
      : fn_(fn), r_(&r), diags_(d), fns_(fns), stack_{&fn} {}

  std::optional<Kernel> run();

private:
  void error(std::string code, std::string msg, SourceSpan span,
             std::vector<std::string> notes = {});

  void type_param(const Param& p);

  void type_stmt(const Stmt& s);
  /// The literal a numeric `let` value folds to (a literal, a name bound to one, `-` of those),
  /// or nullopt.
  std::optional<Expr> fold_constant(const Expr& e) const;
  /// A `for` loop unrolled: its body typed once per value of the range, the loop variable a
  /// literal, the body's bindings scoped to the iteration (docs/kernel-language.md §3.1).
  void type_for(const Stmt& s);
  /// A bound of a loop's range, or nullopt (E-TYPE-028) when it is not a literal or a `const`.
  std::optional<std::uint64_t> loop_bound(const LoopBound& b);

  /// "declared X, but the chain produces Y" for every differing part.
  void check_declared(const TensorType& declared, const TensorType& produced,
                      const std::string& where);

  Value type_expr(const Expr& e, const TensorType* expected, bool top);

  static std::string describe_value(const Value& v);

  Value type_call(const Expr& call, const TensorType* expected, bool top);

  /// E-TYPE-010 unless `recv` is `ctx.main` or `ctx.sub`, the contexts a chain begins on.
  bool begins_on_context(const Expr& call, const Value& recv, std::string_view method);
  Value type_begin(const Expr& call, const Value& recv);

  // ---- views and writes into output parameters (sema_views.cpp, docs/kernel-language.md §6) --
  /// `x.view()` of a DmTensor or HbmTensor: the value a `begin` reads or a DMA view copies.
  Value type_view(const Expr& call, const Value& recv);
  /// `out.view_mut()` of an `&mut HbmTensor` parameter: a `to_hbm_view` destination.
  Value type_view_mut(const Expr& call, const Value& recv);
  /// `x.view().to_hbm_view(&mut ctx.tdma, out.view_mut())`: a to_hbm into the layout of the
  /// output parameter `out` (Stage::target names it).
  Value type_to_hbm_view(const Expr& call, const Value& recv);
  /// The kernel's result when its body writes one output parameter last and has no tail.
  void output_parameter_result();
  /// `stream.commit_view(out)`: the commit whose DmTensor is `out`'s (a `view_mut()` of a DM
  /// tensor), which then holds the commit's result (written_).
  Value type_commit_view(const Expr& call, const Value& recv);
  /// `v` as the latest write through a `view_mut()` left it: a tensor a commit_view wrote is that
  /// commit's result.
  void written_value(Value& v) const;
  Value type_begin_interleaved(const Expr& call, const Value& recv);

  /// A type argument: explicit (and resolved), or still to be inferred.
  struct TypeArg {
    bool explicit_ = false;
    std::optional<SpannedMapping> mapping;
    std::optional<ScalarType> scalar;
    SourceSpan span;
  };

  Value type_stage(const Expr& call, const MethodInfo& m, const Value& recv,
                   const TensorType* expected);

  /// The arity of a turbofish, then its explicit arguments resolved (`_` left to inference).
  bool resolve_type_args(const Expr& call, const MethodInfo& m, std::vector<TypeArg>& args);
  /// The grouping axis of vector_intra_slice_unzip, as the mapping of the whole axis.
  std::optional<SpannedMapping> group_axis_arg(const TypeExpr& t, std::string_view what);

  /// The arguments still missing, from the expected type (a `let` annotation or the declared
  /// return type) of the last call (docs/kernel-language.md §7); E-TYPE-012 for any left.
  bool infer_type_args(const Expr& call, const MethodInfo& m, const TensorType* expected,
                       std::vector<TypeArg>& args);

  /// The tensor a stage produces from its input and type arguments (docs/kernel-language.md §6):
  /// the slots its descriptor keeps and its type arguments set, then the operation's own typing;
  /// nullopt when a stage-specific check failed (diagnosed).
  std::optional<TensorType> output_type(const Expr& call, const MethodInfo& m, const TensorType& in,
                                        const std::vector<TypeArg>& args, Stage& st);

  /// What an operation's output is beyond its slots: element types, the values its call
  /// arguments carry, the remembered pre-reduction Time. False when a check failed (diagnosed).
  bool type_operation(const Expr& call, const MethodInfo& m, const TensorType& in,
                      const std::vector<TypeArg>& args, Stage& st, TensorType& out);

  /// to_vrf stores Vector Engine scalars only (docs/contraction.md §4.3).
  bool check_vrf_type(const Expr& call, const TensorType& in);

  /// The arguments of a call that takes a context, typed; nullopt when one does not type.
  std::optional<std::vector<ContextArg>> context_args(const Expr& call);

  /// A DMA transfer's one argument: `&mut ctx.tdma`.
  bool check_dma_context(const Expr& call);

  bool check_commit_cast_context(const Expr& call, ContextKind ctx);
  bool check_table_lookup_context(const Expr& call, ContextKind ctx);

  bool check_contraction_context(const Expr& call, ContextKind ctx);

  /// to_vrf's argument: `&mut ctx.sub` exactly when the stream is in the main context.
  bool check_store_context(const Expr& call, ContextKind ctx);

  /// The stream a Vector Engine call produces: its Time / Packet (narrow / widen name them), its
  /// scalar (conversions and reinterpret change it).
  bool type_vector_output(const Expr& call, const MethodInfo& m, const std::vector<TypeArg>& args,
                          const TensorType& in, TensorType& out);

  /// `X::new()` with X a tensor type name or an alias of a tensor type.
  bool is_tensor_new(const Expr& e) const;
  /// The tensor type `X` of `X::new()` names through an alias, or nullopt.
  std::optional<TensorType> new_alias_type(const Expr& e);

  /// `let dm: DmTensor<…> = DmTensor::new();`: a DM tensor the kernel builds itself. Where it lands
  /// is the compiler's choice; a run feeds it like a parameter (KernelParam::built_inside).
  void build_inside(const Stmt& s, const std::optional<TensorType>& annotation);

  /// `buf.write(stream)` (docs/datapath.md §4.2): the stream written back into `buf`.
  Value type_write(const Expr& call, const Value& buf);

  bool check_no_args(const Expr& call);

  /// Whether a register-file operand (`file`: "TRF" / "VRF") sits in the stream's Chip, Cluster
  /// and Slice; `code` for each that differs.
  bool same_placement(const TensorType& in, const TensorType& t, const char* code, const char* file,
                      const std::string& operand, SourceSpan span, const char* note);

  bool type_trf_operand(const Expr& call, const TensorType& in, std::vector<TypeArg>& args,
                        Stage& st);

  /// The `&vrf` operand of a Vector Engine call: a VrfTensor of the stream's scalar in the
  /// stream's Chip / Cluster / Slice (docs/vector-engine.md §3.2).
  bool type_vrf_operand(const Expr& a, const std::string& method, const TensorType& in, Stage& st);

  bool type_zero_point(const Expr& call, const TensorType& in, ScalarType to, SourceSpan to_span,
                       Stage& st);

  bool type_lane_mode(const Expr& call, Stage& st);

  /// `switch`'s one argument, a `SwitchConfig::Variant { field: value, … }` literal with exactly
  /// its variant's fields, each a positive integer literal (docs/switch.md §1; sema_switch.cpp).
  bool type_switch_config(const Expr& call, Stage& st);
  /// E-PARSE-208 for a struct literal other than `SwitchConfig::Variant { … }`; true if refused.
  bool refuse_struct_literal(const Expr& lit);

  // ---- calls of the file's fns (sema_calls.cpp, docs/kernel-language.md §9) -----------------
  /// A free call `f(args)` in a kernel body: f's body typed in place, its parameters bound to
  /// the arguments' values, its stages appended in evaluation order; the value is f's result,
  /// of f's declared return type.
  Value type_fn_call(const Expr& call);
  /// The callee's parameters bound to the call's arguments (typed in the caller), each argument
  /// checked against its parameter's type (E-TYPE-025). False when one does not bind.
  bool bind_arguments(const Expr& call, const CallableFn& callee,
                      std::map<std::string, Value>& env);
  /// Binds one argument `arg` to the callee's parameter `p` (resolved as `declared`).
  bool bind_argument(const Expr& a, Value arg, const Param& p, const Resolved& declared,
                     const FnItem& callee, std::map<std::string, Value>& env);
  /// The callee's body typed in place (statements, then the tail in the caller's statement).
  Value type_callee_body(const FnItem& callee, const std::optional<TensorType>& ret);
  /// The fn the kernel may call by `name`, or nullptr.
  const CallableFn* find_fn(std::string_view name) const;
  /// The name a `let` of the body being typed binds, as stages and values carry it: the name
  /// itself in the kernel's own body, `f.name` inside a call of f (`f#2.name` in its second).
  std::string scoped(const std::string& name) const;
  /// Stage::chain renumbered in order of first appearance: a callee's statements are typed in
  /// the middle of the caller's statement.
  void renumber_chains();

  const FnItem& fn_;
  /// The names of the module whose body is being typed: the kernel's, or a called fn's.
  Resolver* r_;
  Diagnostics& diags_;
  Kernel k_;
  std::map<std::string, Value> env_;
  /// `let` bindings of values outside the tensor types a Vector Engine argument may name (a
  /// TagGuard, docs/vector-engine.md §3.4; a number, folded to a literal in constants_), scoped
  /// like env_.
  BoundValues bound_values_;
  std::deque<Expr> constants_; // a deque: bound_values_ points into it
  /// The DM tensors written whole through a `view_mut()` (by their Value::name), each with the
  /// stage that wrote it last.
  std::map<std::string, std::size_t> written_;

  std::size_t chain_ = 0;
  std::size_t next_chain_ = 0;
  std::string bound_to_;
  const std::vector<CallableFn>* fns_;
  /// The fns whose bodies are being typed, the kernel first: a call of one of them is recursive.
  std::vector<const FnItem*> stack_;
  /// `f.` while typing a call of f (`f#2.` for its second call), empty in the kernel's body.
  std::string scope_;
  std::map<std::string, std::size_t> instances_; // calls typed so far, per callee
  std::size_t calls_ = 0;
  /// Loop iterations unrolled so far (kMaxLoopIterations), and whether the limit was reported.
  std::uint64_t unrolled_ = 0;
  bool unroll_refused_ = false;
};

} // namespace tujit::ir::lang::detail
