// SwitchConfig::CustomBroadcast (docs/switch.md §3.2): the kernel writer states only `ring_size`;
// the layouts must obey the book's constraints ("Constraints" of furiosa-opt
// docs/src/computing-tensors/switch-engine.md): broadcast axes new, used once and not padded;
// the axes moving from Slice to Time keep their order and sit innermost in OutTime, behind the
// input Time carried unchanged; only padding is dropped; and `ring_size` is a power of two equal
// to the one the layouts imply (the outermost slice digit where InSlice and OutSlice differ).
#include "ir/mapping/factor.h"
#include "ir/target/rngd.h"
#include "ir/verify/switch.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace tujit::ir::verify::detail {

namespace {

constexpr const auto& tu = target::kRngd;

bool power_of_two(std::uint64_t n) {
  return n != 0 && (n & (n - 1)) == 0;
}

std::string text(const Factor& f) {
  FactorList l;
  l.factors.push_back(f);
  return render_text(l);
}

/// E-SWITCH-011, 012, 013: each OutSlice digit comes from InSlice or is a new broadcast axis,
/// used once and not padded.
Status check_out_slice(const FactorList& slice, const FactorList& time, const FactorList& out,
                       const SwitchInput& in) {
  std::vector<const Factor*> broadcast;
  for (std::size_t j = 0; j < out.factors.size(); ++j) {
    const Factor& f = out.factors[j];
    if (!f.is_term() || overlaps(f, slice)) continue;
    if (overlaps(f, time))
      return switch_error(
          "E-SWITCH-011", "BroadcastNotNew",
          fmt::format("OutSlice {} takes `{}` from InTime {}: a broadcast axis must be new, and "
                      "nothing moves from Time into Slice",
                      in.out_slice.to_string(), text(f), in.time.to_string()),
          {"each OutSlice axis is one of InSlice or an axis neither InSlice nor InTime carries "
           "(docs/switch.md §3.2)"});
    for (const Factor* g : broadcast)
      if (g->atom == f.atom && f.stride < g->stride * g->count && g->stride < f.stride * f.count)
        return switch_error("E-SWITCH-012", "BroadcastUsedMoreThanOnce",
                            fmt::format("the broadcast axis `{}` appears twice in OutSlice {}",
                                        text(f), in.out_slice.to_string()));
    broadcast.push_back(&f);
    if (j + 1 < out.factors.size() && out.factors[j + 1].is_pad())
      return switch_error(
          "E-SWITCH-013", "BroadcastPadded",
          fmt::format("the broadcast axis `{}` of OutSlice {} is padded", text(f),
                      in.out_slice.to_string()),
          {"padding on a broadcast axis leaves routing destinations undefined (docs/switch.md "
           "§3.2)"});
  }
  return {};
}

/// The slice index weight of the lowest digit of `f`, a Term carried by InSlice.
std::uint64_t slice_weight(const Factor& f, const FactorList& slice) {
  for (std::size_t j = 0; j < slice.factors.size(); ++j) {
    const Factor& g = slice.factors[j];
    if (g.is_term() && g.atom == f.atom && g.stride <= f.stride && f.stride < g.stride * g.count)
      return slice.extent_before(j) * (f.stride / g.stride);
  }
  const auto j = overlapping(f, slice);
  return j ? slice.extent_before(*j) : 0;
}

/// E-SWITCH-015, 014, 016: OutTime is InTime with the moved axes innermost, in InSlice order.
Status check_out_time(const FactorList& slice, const FactorList& time, const FactorList& out,
                      const SwitchInput& in) {
  std::size_t moved = 0;
  while (moved < out.factors.size() && overlaps(out.factors[moved], slice)) ++moved;
  for (std::size_t j = 1; j < moved; ++j) {
    const Factor& inner = out.factors[j - 1];
    const Factor& outer = out.factors[j];
    if (slice_weight(inner, slice) > slice_weight(outer, slice))
      return switch_error(
          "E-SWITCH-015", "MovedOrderNotPreserved",
          fmt::format("OutTime {} puts `{}` inside `{}`, the reverse of their order in InSlice {}",
                      in.out_time.to_string(), text(inner), text(outer), in.slice.to_string()),
          {"a router holds one packet and cannot reorder: the axes moving from Slice to Time keep "
           "their relative order (docs/switch.md §3.2)"});
  }
  for (std::size_t j = moved; j < out.factors.size(); ++j)
    if (overlaps(out.factors[j], slice))
      return switch_error(
          "E-SWITCH-014", "MovedAxesNotInnermost",
          fmt::format("OutTime {} has `{}`, an axis of InSlice, outside an axis of InTime {}",
                      in.out_time.to_string(), text(out.factors[j]), in.time.to_string()),
          {"data from other slices arrives last: the axes moving from Slice to Time are OutTime's "
           "innermost (docs/switch.md §3.2)"});
  auto carried = split_at(out, out.extent_before(moved));
  if (!carried || !(any_padding(carried->outer) == time))
    return switch_error(
        "E-SWITCH-016", "InTimeNotPreserved",
        fmt::format("OutTime {} does not carry InTime {} unchanged outside the moved axes",
                    in.out_time.to_string(), in.time.to_string()),
        {"a custom switch keeps the input Time and adds only the axes moved from Slice, "
         "innermost (docs/switch.md §3.2)"});
  return {};
}

/// `i` without its entries on axes outside `keep` and without zero entries.
Index restrict_to(const Index& i, const std::set<std::string>& keep) {
  Index out;
  for (const auto& [axis, v] : i)
    if (v != 0 && keep.contains(axis)) out.emplace(axis, v);
  return out;
}

/// A cell's coordinates on the input's axes as one number (mixed radix over the axes' sizes), so
/// that the sets below hold integers rather than maps; nullopt when the sizes overflow 64 bits.
class CellKeys {
public:
  explicit CellKeys(const SwitchInput& in) {
    std::uint64_t stride = 1;
    for (const Mapping* m : {&in.slice, &in.time})
      for (const Axis& a : m->axes()) {
        if (stride_.contains(a.name)) continue;
        stride_.emplace(a.name, stride);
        if (__builtin_mul_overflow(stride, std::max<std::uint64_t>(a.size, 1), &stride))
          fits_ = false;
      }
  }
  bool fits() const { return fits_; }
  /// The key of `i` restricted to the input's axes (restrict_to: other axes do not count).
  std::uint64_t operator()(const Index& i) const {
    std::uint64_t k = 0;
    for (const auto& [axis, v] : i)
      if (auto it = stride_.find(axis); it != stride_.end()) k += v * it->second;
    return k;
  }

private:
  std::map<std::string, std::uint64_t> stride_;
  bool fits_ = true;
};

/// E-SWITCH-017: every live output cell holds an element the input holds (a broadcast axis
/// repeating it), and every live input element reaches an output cell: only padding is dropped.
/// `Key` maps a cell's index to what the sets hold (CellKeys, or the restricted index itself).
template <class Key>
Status check_sequencing(const SwitchInput& in, const Key& key) {
  using K = std::decay_t<decltype(key(Index{}))>;
  std::set<K> held, reached;
  for (std::uint64_t s = 0; s < in.slice.size(); ++s)
    for (std::uint64_t t = 0; t < in.time.size(); ++t) {
      const Cell c = combine(in.slice.map(s), in.time.map(t));
      if (c.is_live()) held.insert(key(c.index));
    }
  for (std::uint64_t s = 0; s < in.out_slice.size(); ++s)
    for (std::uint64_t t = 0; t < in.out_time.size(); ++t) {
      const Cell c = combine(in.out_slice.map(s), in.out_time.map(t));
      if (!c.is_live()) continue;
      K i = key(c.index);
      if (!held.contains(i))
        return switch_error(
            "E-SWITCH-017", "Unsequenceable",
            fmt::format("output slice {}, time {} holds an element the input does not hold", s, t),
            {"every OutSlice × OutTime cell reads an input element (docs/switch.md §3.2)"});
      reached.insert(std::move(i));
    }
  if (reached.size() != held.size())
    return switch_error(
        "E-SWITCH-017", "Unsequenceable",
        fmt::format("{} live input elements reach no output cell", held.size() - reached.size()),
        {"only padding may be dropped: slicing a live axis discards input (docs/switch.md §3.2)"});
  return {};
}

Status check_sequencing(const SwitchInput& in) {
  const CellKeys keys(in);
  if (keys.fits()) return check_sequencing(in, keys);
  std::set<std::string> axes;
  for (const Mapping* m : {&in.slice, &in.time})
    for (const Axis& a : m->axes()) axes.insert(a.name);
  return check_sequencing(in, [&](const Index& i) { return restrict_to(i, axes); });
}

/// Per slice-index bit, innermost first, what the digit is: `axis@weight`, padding, a broadcast,
/// or the bits of a block whose size is no power of two (labelled as one unit).
std::vector<std::string> bit_labels(const FactorList& l) {
  std::vector<std::string> bits;
  std::string group;
  std::uint64_t from = 1;
  for (std::size_t j = 0; j < l.factors.size(); ++j) {
    const Factor& f = l.factors[j];
    const std::uint64_t to = l.extent_after(j);
    const std::string label = f.is_pad()     ? std::string("pad")
                              : f.is_bcast() ? fmt::format("bcast{}", j)
                                             : f.atom.name + "@" + std::to_string(f.stride);
    if (!power_of_two(to)) {
      group += label + ";";
      continue;
    }
    for (std::uint64_t e = from, k = 0; e < to; e *= 2, ++k)
      bits.push_back(group.empty()
                         ? (f.is_term() ? f.atom.name + "@" + std::to_string(f.stride << k) : label)
                         : group + label);
    group.clear();
    from = to;
  }
  return bits;
}

/// The ring a custom switch needs: 2^(1 + the outermost slice bit where InSlice and OutSlice hold
/// different digits), 1 when they agree everywhere (the book's "Ring size").
std::uint64_t derived_ring(const FactorList& slice, const FactorList& out) {
  const std::vector<std::string> a = bit_labels(slice), b = bit_labels(out);
  std::uint64_t ring = 1;
  for (std::size_t k = 0; k < std::max(a.size(), b.size()); ++k) {
    const bool same = k < a.size() && k < b.size() && a[k] == b[k] && !a[k].starts_with("bcast");
    if (!same) ring = std::uint64_t{2} << k;
  }
  return ring;
}

} // namespace

Status verify_custom_broadcast(const SwitchInput& in, SwitchDerived& d) {
  const std::uint64_t r = in.config.ring_size;
  if (!power_of_two(r) || r > tu.switch_ring_slices)
    return switch_error(
        "E-SWITCH-009", "RingSizeNotPowerOfTwo",
        fmt::format("ring_size must be a power of 2 up to {}, got {}", tu.switch_ring_slices, r));
  const FactorList slice = any_padding(factorize(in.slice));
  const FactorList time = any_padding(factorize(in.time));
  const FactorList out_slice = any_padding(factorize(in.out_slice));
  const FactorList out_time = any_padding(factorize(in.out_time));
  if (auto s = check_out_slice(slice, time, out_slice, in); !s) return s;
  if (auto s = check_out_time(slice, time, out_time, in); !s) return s;
  if (auto s = check_sequencing(in); !s) return s;
  const std::uint64_t ring = derived_ring(slice, out_slice);
  if (ring != r)
    return switch_error(
        "E-SWITCH-010", "RingSizeMismatch",
        fmt::format("InSlice {} and OutSlice {} need a ring of {} slices, but ring_size is {}",
                    in.slice.to_string(), in.out_slice.to_string(), ring, r),
        {"the ring spans the slices below the outermost slice digit the switch changes "
         "(docs/switch.md §3.2)"});
  d.ring_size = r;
  return {};
}

} // namespace tujit::ir::verify::detail
