#include "harness/bench/bench_plot.h"

#include "ir/support/stable_sort.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

namespace tujit::bench {

namespace {

// Above this many kernels panel (b) drops its per-bar labels (they would overlap).
constexpr std::size_t kMaxBarLabels = 40;

// Panel (b)'s bar labels: only the sweep parameters that differ between the points ("K=256,M=8"),
// else the kernel's label, so the labels stay short enough to read.
std::vector<std::string> short_labels(const std::vector<KernelResult>& ks) {
  std::map<std::string, std::set<std::string>> values;
  for (const auto& k : ks)
    for (const auto& [p, v] : k.params) values[p].insert(v);
  std::vector<std::string> out;
  for (const auto& k : ks) {
    std::string l;
    for (const auto& [p, v] : k.params)
      if (values[p].size() > 1) l += fmt::format("{}{}={}", l.empty() ? "" : ",", p, v);
    if (l.empty()) l = k.label;
    if (l.size() > 28) l = l.substr(0, 25) + "...";
    out.push_back(l);
  }
  return out;
}

std::string quoted_label(const std::string& s) {
  std::string q;
  for (char c : s) q += c == '"' ? '\'' : c;
  return "\"" + q + "\"";
}

// Panel (a)'s data: one row per kernel, by problem size (simulated MACs of one run).
std::string size_data(const BenchReport& r) {
  std::vector<const KernelResult*> by_size;
  for (const auto& k : r.kernels) by_size.push_back(&k);
  tujit::stable_sort(by_size,
                     [](auto* a, auto* b) { return a->simulated_macs < b->simulated_macs; });
  std::string a = "# simulated_macs jit_macs_per_s interp_macs_per_s sgemm_macs_per_s label\n";
  for (const auto* k : by_size)
    a += fmt::format(
        "{} {} {} {} {}\n", std::max<std::uint64_t>(1, k->simulated_macs),
        k->jit_macs_per_s.median > 0 ? fmt::format("{}", k->jit_macs_per_s.median) : "NaN",
        k->interp_macs_per_s.median > 0 ? fmt::format("{}", k->interp_macs_per_s.median) : "NaN",
        k->sgemm_macs_per_s.median > 0 ? fmt::format("{}", k->sgemm_macs_per_s.median) : "NaN",
        quoted_label(k->label));
  return a;
}

// Panels (b) and (c)'s data: rank order.
std::string rank_data(const BenchReport& r) {
  std::string b = "# rank trace_cycles analytic_cycles label\n";
  const auto shorts = short_labels(r.kernels);
  for (std::size_t i = 0; i < r.kernels.size(); ++i)
    b += fmt::format("{} {} {} {}\n", r.kernels[i].rank, r.kernels[i].cycles_trace,
                     r.kernels[i].cycles_analytic, quoted_label(shorts[i]));
  return b;
}

// (a) simulation speed against problem size, with this machine's FMA peak when measured.
std::string speed_panel(const std::string& size_dat, double peak) {
  std::string s;
  s += "set title \"(a) simulation speed against problem size (higher is better; one core "
       "unless --threads)\"\n"
       "set logscale xy\n"
       "set xlabel \"problem size: multiply-accumulates per run (simulated products; sgemm: "
       "the same logical GEMM)\"\n"
       "set ylabel \"MAC/s (multiply-accumulates per second)\"\n"
       "set format y \"%.0e\"\n"
       "set format x \"%.0e\"\n"
       "set key right center\n";
  if (peak > 0)
    s += fmt::format("set arrow 1 from graph 0, first {p} to graph 1, first {p} nohead dt 2 lc "
                     "rgb \"#555555\"\n"
                     "set label 1 {lbl} at graph 0.02, first {p} offset 0,0.7 tc rgb "
                     "\"#555555\"\n",
                     fmt::arg("p", peak),
                     fmt::arg("lbl", gp_string(fmt::format("FMA peak of this machine (1 core, "
                                                           "f32): {:.3g} MAC/s",
                                                           peak))));
  s += fmt::format(
      "plot {d} using 1:2 with linespoints pt 7 lc rgb \"#1f77b4\" title \"JIT (native "
      "simulation)\", \\\n"
      "  {d} using 1:3 with linespoints pt 5 lc rgb \"#d62728\" title \"reference "
      "interpreter\", \\\n"
      "  {d} using 1:4 with linespoints pt 9 lc rgb \"#2ca02c\" title \"OpenBLAS sgemm (f32, 1 "
      "thread)\"\n"
      "unset arrow 1\nunset label 1\nunset logscale\nset format x \"% h\"\nset format y "
      "\"% h\"\n",
      fmt::arg("d", size_dat));
  return s;
}

// (b) the ranking by modelled cycles; bar labels only while they stay readable.
std::string rank_panel(const std::string& rank_dat, std::size_t kernels,
                       std::size_t invalid_points) {
  const bool labels = kernels <= kMaxBarLabels;
  const std::string invalid =
      invalid_points == 0
          ? ""
          : fmt::format(" ({} invalid point(s) not drawn: see the JSON/CSV)", invalid_points);
  std::string s;
  s += fmt::format(
      "set title {t}\n"
      "set xlabel \"kernel / sweep point, fastest first\"\n"
      "set ylabel \"modelled cycles (one slice)\"\n"
      "set key bottom right\n"
      "set style fill solid 0.7 border -1\n"
      "set boxwidth 0.7\n"
      "set yrange [0:*]\n"
      "set xrange [0.3:{xmax}]\n"
      "set xtics rotate by -35 font \",9\"\n",
      fmt::arg("t", gp_string("(b) ranking by modelled cycles (trace model; lower is better)" +
                              invalid)),
      fmt::arg("xmax", static_cast<double>(kernels) + 0.7));
  if (labels)
    s += fmt::format("plot {d} using 1:2:xticlabels(4) with boxes lc rgb \"#1f77b4\" title "
                     "\"trace cycles\", \\\n"
                     "  {d} using 1:3 with points pt 7 lc rgb \"#ff7f0e\" title \"analytic "
                     "cycles\"\n",
                     fmt::arg("d", rank_dat));
  else
    s += fmt::format("plot {d} using 1:2 with boxes lc rgb \"#1f77b4\" title \"trace cycles\", "
                     "\\\n  {d} using 1:3 with points pt 7 lc rgb \"#ff7f0e\" title \"analytic "
                     "cycles\"\n",
                     fmt::arg("d", rank_dat));
  return s;
}

// (c) the two cycle models against each other.
std::string models_panel(const std::string& rank_dat) {
  std::string s;
  s += fmt::format(
      "set title \"(c) the two cycle models: analytic (closed form) against trace (walks the "
      "address streams)\"\n"
      "set xtics norotate font \",12\"\n"
      "set autoscale xy\n"
      "set xrange [0:*]\nset yrange [0:*]\n"
      "set xlabel \"trace cycles\"\n"
      "set ylabel \"analytic cycles\"\n"
      "plot {d} using 2:3 with points pt 7 ps 1.2 lc rgb \"#9467bd\" title \"kernel / sweep "
      "point\", \\\n"
      "  x with lines dt 2 lc rgb \"#555555\" title \"analytic = trace\"\n"
      "unset multiplot\n",
      fmt::arg("d", rank_dat));
  return s;
}

} // namespace

GnuplotJob bench_plot_job(const BenchReport& r, const std::string& title) {
  GnuplotJob job;
  job.data_files["size.dat"] = size_data(r);
  job.data_files["rank.dat"] = rank_data(r);
  const double peak = r.fma_peak_macs_per_s;
  const std::size_t kernels = r.kernels.size(), invalid = r.invalid.size();
  job.script = [=](const std::string& dir) {
    const std::string size_dat = gp_string(dir + "/size.dat"),
                      rank_dat = gp_string(dir + "/rank.dat");
    return fmt::format(
               "set terminal svg size 1100,1500 dynamic noenhanced font \"sans,12\" background "
               "rgb \"white\"\n"
               "set multiplot layout 3,1 title {title}\n"
               "set grid\n"
               "set key bottom right box opaque\n",
               fmt::arg("title", gp_string(title))) +
           speed_panel(size_dat, peak) + rank_panel(rank_dat, kernels, invalid) +
           models_panel(rank_dat);
  };
  return job;
}

Status write_bench_plot(const BenchReport& report, const std::string& title,
                        const std::string& path, bool overwrite) {
  return plot::write_gnuplot_svg(bench_plot_job(report, title), path, overwrite, "E-BENCH-008",
                                 "--plot", "bench");
}

} // namespace tujit::bench
