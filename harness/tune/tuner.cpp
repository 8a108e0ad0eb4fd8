#include "harness/tune/tuner.h"

#include "ir/target/rngd.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <ctime>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

namespace tujit::tune {

namespace {

constexpr std::uint64_t kNone = std::numeric_limits<std::uint64_t>::max();
// Beyond this many pending candidates a worker times front candidates at once (memory bound).
constexpr std::size_t kMaxPending = std::size_t{1} << 22;
constexpr std::size_t kMaxLiveSlices =
    std::size_t{target::kRngd.clusters_per_chip} * target::kRngd.slices_per_cluster;

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

void atomic_min(std::atomic<std::uint64_t>& a, std::uint64_t v) {
  std::uint64_t cur = a.load(std::memory_order_relaxed);
  while (v < cur && !a.compare_exchange_weak(cur, v, std::memory_order_relaxed)) {}
}

// What the workers share: the next block, the counters, and the two thresholds of the bound —
// the K-th best cycles any worker holds (no candidate above it can enter the global top K), and
// per live-slice count the fewest cycles on at most that many slices (no candidate above it is on
// the Pareto front, nor one equal to it on more slices).
struct Shared {
  std::atomic<std::size_t> next_block{0};
  std::atomic<std::uint64_t> done{0};
  std::atomic<bool> stop{false};
  std::atomic<std::uint64_t> top_threshold{kNone};
  std::array<std::atomic<std::uint64_t>, kMaxLiveSlices + 1> front{};
  Shared() {
    for (auto& f : front) f.store(kNone, std::memory_order_relaxed);
  }
  std::uint64_t front_at(std::uint64_t slices) const {
    return front[std::min<std::uint64_t>(slices, kMaxLiveSlices)].load(std::memory_order_relaxed);
  }
  void record_front(std::uint64_t slices, std::uint64_t cycles) {
    const std::size_t s = std::min<std::uint64_t>(slices, kMaxLiveSlices);
    if (cycles >= front[s].load(std::memory_order_relaxed)) return;
    for (std::size_t i = s; i <= kMaxLiveSlices; ++i) atomic_min(front[i], cycles);
  }
};

// A valid candidate that cannot enter the top K but might be on the Pareto front: what the
// verifiers told of it and its lower bound. Timing it waits until the front at fewer slices is
// known, which usually rules it out without lowering it (programs on few slices are the largest).
struct Pending {
  Score known;
  std::uint64_t bound = 0, index = 0;
};

Ranked best_case(const Score& known, std::uint64_t bound, std::uint64_t index) {
  Ranked r;
  r.score = known;
  r.score.cycles = bound;
  r.choice.index = index;
  return r;
}

// One worker's findings, merged after the search.
struct Local {
  std::uint64_t searched = 0, valid = 0, modelled = 0;
  std::map<std::string, std::uint64_t> refused;
  std::vector<Ranked> top; // heap by ranks_before, size ≤ K
  std::array<std::optional<Ranked>, kMaxLiveSlices + 1> per_slices; // best per live-slice count
  std::vector<PlotPoint> points;
  std::vector<std::string> internal_errors;
  std::vector<Pending> pending; // valid, only the Pareto front can want them: timed at the end
};

// A candidate whose cycles are at least `bound` could enter the top K unless K candidates are
// known to rank before its best possible key (a worker's own findings are actual candidates, so
// they rule out ties; the shared threshold only strict excess).
bool top_worthy(const Shared& sh, const Local& l, std::size_t k, const Ranked& best) {
  return k > 0 && best.score.cycles <= sh.top_threshold.load(std::memory_order_relaxed) &&
         !(l.top.size() == k && ranks_before(l.top.front(), best));
}

// It could be on the Pareto front unless a candidate on fewer slices is as fast, one on at most as
// many slices faster, or one on as many slices ranks before it.
bool front_worthy(const Shared& sh, const Local& l, const Ranked& best) {
  const std::size_t s = std::min<std::uint64_t>(best.score.live_slices, kMaxLiveSlices);
  const std::uint64_t bound = best.score.cycles;
  if (bound > sh.front_at(s) || (s > 0 && bound >= sh.front_at(s - 1))) return false;
  return !(l.per_slices[s] && ranks_before(*l.per_slices[s], best));
}

void keep(Local& l, const Ranked& r, std::size_t k, Shared& sh) {
  if (k > 0) {
    if (l.top.size() < k) {
      l.top.push_back(r);
      std::push_heap(l.top.begin(), l.top.end(), ranks_before);
    } else if (ranks_before(r, l.top.front())) {
      std::pop_heap(l.top.begin(), l.top.end(), ranks_before);
      l.top.back() = r;
      std::push_heap(l.top.begin(), l.top.end(), ranks_before);
    }
    if (l.top.size() == k) atomic_min(sh.top_threshold, l.top.front().score.cycles);
  }
  auto& best = l.per_slices[std::min<std::uint64_t>(r.score.live_slices, kMaxLiveSlices)];
  if (!best || ranks_before(r, *best)) best = r;
  sh.record_front(r.score.live_slices, r.score.cycles);
}

void record_modelled(Local& l, const Ranked& r, std::uint64_t bound, std::size_t k, Shared& sh) {
  ++l.modelled;
  if (r.score.cycles < bound)
    l.internal_errors.push_back(fmt::format(
        "candidate {}: the analytic model gives {} cycles, below the {} the stages' work needs",
        r.choice.index, r.score.cycles, bound));
  if (l.points.size() < kMaxPlotPoints) l.points.push_back({r.score.live_slices, r.score.cycles});
  keep(l, r, k, sh);
}

// The Pareto front's pending candidates, fewest slices first and by best possible key within a
// slice count: each is timed only while it can still beat the front (a faster candidate on fewer
// slices, or a better one on as many, rules out it and every later one of its slice count).
void resolve_front(const Problem& p, const SearchSpace& space, std::vector<Local>& locals,
                   Shared& sh) {
  std::vector<Pending> pending;
  for (Local& l : locals) {
    pending.insert(pending.end(), l.pending.begin(), l.pending.end());
    l.pending = {};
  }
  std::sort(pending.begin(), pending.end(), [](const Pending& a, const Pending& b) {
    if (a.known.live_slices != b.known.live_slices)
      return a.known.live_slices < b.known.live_slices;
    return ranks_before(best_case(a.known, a.bound, a.index), best_case(b.known, b.bound, b.index));
  });
  Local& into = locals.front();
  for (std::size_t s = 0; s <= kMaxLiveSlices; ++s)
    for (const Local& l : locals)
      if (l.per_slices[s] &&
          (!into.per_slices[s] || ranks_before(*l.per_slices[s], *into.per_slices[s])))
        into.per_slices[s] = l.per_slices[s];
  Evaluator evaluator(p);
  const WorthModelling always = [](const Score&, std::uint64_t, std::uint64_t) { return true; };
  for (const Pending& x : pending) {
    const Ranked best = best_case(x.known, x.bound, x.index);
    if (!front_worthy(sh, into, best)) continue;
    const Choice c = choice_at(p, space, x.index);
    const Evaluation e = evaluator.evaluate(c, always);
    if (e.verdict != Verdict::Valid || !e.modelled) {
      into.internal_errors.push_back(
          fmt::format("candidate {}: valid during the search, not when timed again", x.index));
      continue;
    }
    record_modelled(into, Ranked{c, e.score}, e.bound, 0, sh);
  }
}

void work(const Problem& p, const SearchSpace& space, const TuneOptions& o, Shared& sh,
          std::chrono::steady_clock::time_point deadline, bool budgeted, Local& l) {
  const WorthModelling worth_modelling = [&](const Score& known, std::uint64_t bound,
                                             std::uint64_t index) {
    return !o.bound || top_worthy(sh, l, o.top, best_case(known, bound, index)) ||
           (l.pending.size() >= kMaxPending && front_worthy(sh, l, best_case(known, bound, index)));
  };
  Evaluator evaluator(p);
  std::uint64_t since_check = 0;
  while (!sh.stop.load(std::memory_order_relaxed)) {
    const std::size_t b = sh.next_block.fetch_add(1);
    if (b >= space.blocks.size()) return;
    expand(p, space.blocks[b], [&](const Choice& c) {
      if (c.index % o.shard_count != o.shard_index) return true;
      if (budgeted && ++since_check >= 16) {
        since_check = 0;
        if (std::chrono::steady_clock::now() >= deadline) sh.stop.store(true);
      }
      if (sh.stop.load(std::memory_order_relaxed)) return false;
      const Evaluation e = evaluator.evaluate(c, worth_modelling);
      ++l.searched;
      sh.done.fetch_add(1, std::memory_order_relaxed);
      if (e.verdict != Verdict::Valid) {
        ++l.refused[e.code];
        if (e.code == "E-TUNE-011")
          l.internal_errors.push_back(fmt::format(
              "candidate {}: verified, but its chain could not be built or lowered", c.index));
        return true;
      }
      ++l.valid;
      if (!e.modelled) {
        if (front_worthy(sh, l, best_case(e.score, e.bound, c.index)))
          l.pending.push_back({e.score, e.bound, c.index});
        return true;
      }
      record_modelled(l, Ranked{c, e.score}, e.bound, o.top, sh);
      return true;
    });
  }
}

} // namespace

bool ranks_before(const Ranked& a, const Ranked& b) {
  if (a.score.cycles != b.score.cycles) return a.score.cycles < b.score.cycles;
  if (a.score.live_slices != b.score.live_slices) return a.score.live_slices < b.score.live_slices;
  if (a.score.trf_bytes != b.score.trf_bytes) return a.score.trf_bytes < b.score.trf_bytes;
  return a.choice.index < b.choice.index;
}

std::vector<Ranked> pareto_front(std::vector<Ranked> candidates) {
  std::sort(candidates.begin(), candidates.end(), [](const Ranked& a, const Ranked& b) {
    if (a.score.live_slices != b.score.live_slices)
      return a.score.live_slices < b.score.live_slices;
    return ranks_before(a, b);
  });
  std::vector<Ranked> front;
  for (const Ranked& r : candidates)
    if (front.empty() || r.score.cycles < front.back().score.cycles) front.push_back(r);
  return front;
}

TuneResult tune(const Problem& p, const TuneOptions& o) {
  TuneResult out;
  const SearchSpace space = make_search_space(p);
  out.space = space.size;
  out.pruned = space.pruned;
  out.shard_size = space.size > o.shard_index
                       ? (space.size - o.shard_index + o.shard_count - 1) / o.shard_count
                       : 0;
  unsigned threads = o.threads != 0 ? o.threads : std::thread::hardware_concurrency();
  out.threads = std::max(1u, threads);

  const auto wall0 = std::chrono::steady_clock::now();
  const double cpu0 = cpu_seconds();
  const bool budgeted = o.budget_seconds > 0;
  const auto deadline = wall0 + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                    std::chrono::duration<double>(budgeted ? o.budget_seconds : 0));
  Shared sh;
  std::vector<Local> locals(out.threads);
  std::vector<std::thread> pool;
  std::atomic<unsigned> running{out.threads};
  for (unsigned t = 0; t < out.threads; ++t)
    pool.emplace_back([&, t] {
      work(p, space, o, sh, deadline, budgeted, locals[t]);
      running.fetch_sub(1);
    });
  while (running.load() > 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (o.progress) o.progress(sh.done.load(), out.shard_size);
    if (o.stop_requested && o.stop_requested()) sh.stop.store(true);
  }
  for (auto& th : pool) th.join();
  resolve_front(p, space, locals, sh);
  if (o.progress) o.progress(sh.done.load(), out.shard_size);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  out.cpu_seconds = cpu_seconds() - cpu0;

  std::vector<Ranked> top, per_slices;
  for (Local& l : locals) {
    out.searched += l.searched;
    out.valid += l.valid;
    out.modelled += l.modelled;
    for (const auto& [code, n] : l.refused) out.refused[code] += n;
    top.insert(top.end(), l.top.begin(), l.top.end());
    for (const auto& r : l.per_slices)
      if (r) per_slices.push_back(*r);
    for (const auto& pt : l.points)
      if (out.points.size() < kMaxPlotPoints) out.points.push_back(pt);
    out.internal_errors.insert(out.internal_errors.end(), l.internal_errors.begin(),
                               l.internal_errors.end());
  }
  out.complete = out.searched == out.shard_size;
  std::sort(top.begin(), top.end(), ranks_before);
  if (top.size() > o.top) top.resize(o.top);
  out.best = std::move(top);
  out.pareto = pareto_front(std::move(per_slices));
  std::sort(out.points.begin(), out.points.end(), [](const PlotPoint& a, const PlotPoint& b) {
    return a.live_slices != b.live_slices ? a.live_slices < b.live_slices : a.cycles < b.cycles;
  });
  return out;
}

} // namespace tujit::tune
