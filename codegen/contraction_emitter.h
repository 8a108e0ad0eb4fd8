// The Emitter of a contraction run program (contraction_emit.h), shared by the files that
// define its parts: the loop nest, the f32 tree and the drain (contraction_emit.cpp), the
// integer multiply-add bodies (contraction_emit_integer.cpp) and the half-packet body
// (contraction_emit_half.cpp). Each file states the proofs of the liberties it takes.
#pragma once

#include "codegen/contraction_emit.h"
#include "codegen/counted_loop.h"
#include "codegen/stream_load.h"
#include "runtime/exec/operand_staging.h"

#include <llvm/IR/IRBuilder.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <utility>
#include <vector>

namespace tujit::codegen::contraction_detail {

using runtime::exec::kLaneVector;
using Program = ir::seq::ContractionProgram;

inline constexpr std::uint32_t kF32NegZero = 0x80000000u;
inline constexpr std::uint32_t kF32AbsMask = 0x7FFFFFFFu;
inline constexpr std::uint32_t kF32Inf = 0x7F800000u;
inline constexpr std::uint32_t kF32CanonicalNaNBits = 0x7FC00000u;

inline bool is_f8(ir::ScalarType t) {
  return t == ir::ScalarType::F8E4M3 || t == ir::ScalarType::F8E5M2;
}

// Fields of ContractionArgs, in order (contraction_emit.h).
enum Field : unsigned {
  kStream,
  kStreamLimit,
  kTrf,
  kTrfPresent,
  kOut,
  kOutLimit,
  kScratch,
  kFlitOffset,
  kFlitLive,
  kOutOffset,
  kVrf,
  kFieldCount
};

class Emitter {
public:
  Emitter(const ir::seq::RunProgram& rp, const EmitConfig& cfg, llvm::LLVMContext& ctx)
      : rp_(rp), p_(rp.contraction().chain), cfg_(cfg),
        sh_(runtime::exec::staged_shape(rp, byte_dot(cfg.host_dot))), ctx_(ctx), b_(ctx) {}

  std::unique_ptr<llvm::Module> run();

private:
  // One packet product: the splat stream value, the TRF vector and (once formed) their product.
  struct Product {
    llvm::Value* s = nullptr;
    llvm::Value* w = nullptr;
    llvm::Value* mask = nullptr; // i1 scalar or vector: present; nullptr = statically present
    llvm::Value* value = nullptr;
  };

  llvm::Value* i64(std::uint64_t v) { return b_.getInt64(v); }
  llvm::Value* add_scaled(llvm::Value* base, llvm::Value* digit, std::uint64_t stride) {
    return codegen::add_scaled(b_, base, digit, stride);
  }
  llvm::Value* guard(llvm::Value* index, std::uint64_t span, llvm::Value* limit);
  llvm::Value* element(llvm::Type* ty, llvm::Value* base, llvm::Value* index, std::uint64_t span,
                       llvm::Value* limit);
  llvm::Value* element(llvm::Value* base, llvm::Value* index, std::uint64_t span,
                       std::uint64_t limit) {
    return element(b_.getInt32Ty(), base, index, span, i64(limit));
  }
  llvm::GlobalVariable* table_u8(const std::vector<std::uint8_t>& v, const char* name);
  void emit_loop(std::uint64_t n, const std::function<void(llvm::Value*)>& body) {
    emit_counted_loop(b_, f_, n, body);
  }
  void emit_slice();
  void emit_cycle(llvm::Value* flit, llvm::Value* trf, llvm::Value* slot, llvm::Value* t);
  void emit_cycle_body(llvm::Value* flit, llvm::Value* trf, llvm::Value* slot);
  void emit_any_cycle_body(llvm::Value* flit, llvm::Value* trf, llvm::Value* slot);
  void emit_pair_cycle_body(llvm::Value* flit, llvm::Value* trf, llvm::Value* slot);
  void emit_quad_cycle_body(llvm::Value* flit, llvm::Value* trf, llvm::Value* slot);
  void emit_half_cycle_body(llvm::Value* flit, llvm::Value* trf, llvm::Value* slot);
  llvm::Value* half_mask(const StreamLoad::Cell* lo, const StreamLoad::Cell* hi);
  void reduce_column(std::vector<llvm::Value*> level, llvm::Value* slot_base, std::uint64_t c);
  llvm::Value* stream_pair(StreamLoad::Packet& packet, std::uint64_t i);
  void accumulate(llvm::Value* slot_base, std::uint64_t column, llvm::Value* r);
  llvm::Value* product_value(Product& x);
  llvm::Value* add(llvm::Value* a, llvm::Value* b);
  llvm::Value* flushed(llvm::Value* v);
  void emit_drain();
  bool emit_drain_blocks();
  void annotate_aliasing();

  const ir::seq::RunProgram& rp_;
  const Program& p_;
  EmitConfig cfg_;
  runtime::exec::StagedShape sh_;
  llvm::LLVMContext& ctx_;
  llvm::IRBuilder<> b_;
  llvm::Module* m_ = nullptr;
  llvm::Function* f_ = nullptr;
  bool float_ = true;
  bool fma_ = false;
  bool halves_ = false;               // HALF PACKETS
  llvm::Value* trf_halves_ = nullptr; // the TRF as [x][x + group / 2] rows (trf_halves.h)
  llvm::Type* scalar_ = nullptr;      // f32 or i32
  llvm::VectorType* vec_ = nullptr;
  std::unique_ptr<StreamLoad> load_;
  llvm::Value* arg_[kFieldCount] = {};
  llvm::BasicBlock* violation_ = nullptr;
  llvm::GlobalVariable* cycle_live_ = nullptr;
  llvm::GlobalVariable* drain_ = nullptr;
  std::vector<std::uint32_t> drain_cells_; // drain_'s contents
  /// TRF loads of the current cycle, or of both cycles of a pair (PAIRED STEPS): (kind, element).
  std::map<std::pair<int, std::uint64_t>, llvm::Value*> trf_loads_;
};

} // namespace tujit::codegen::contraction_detail
