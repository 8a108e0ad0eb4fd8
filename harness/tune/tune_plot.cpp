#include "harness/tune/tune_plot.h"

#include <fmt/format.h>

namespace tujit::tune {

plot::GnuplotJob tune_plot_job(const Report& r) {
  plot::GnuplotJob job;
  std::string points = "# live_slices cycles (modelled candidates)\n";
  for (const PlotPoint& pt : r.points) points += fmt::format("{} {}\n", pt.live_slices, pt.cycles);
  std::string front = "# live_slices cycles (Pareto front)\n";
  for (const Entry& e : r.pareto) front += fmt::format("{} {}\n", e.live_slices, e.cycles);
  std::string best = "# live_slices cycles rank\n";
  for (const Entry& e : r.best) best += fmt::format("{} {} {}\n", e.live_slices, e.cycles, e.rank);
  // gnuplot needs at least one row per plotted file.
  if (r.points.empty()) points += "NaN NaN\n";
  if (r.pareto.empty()) front += "NaN NaN\n";
  if (r.best.empty()) best += "NaN NaN 0\n";
  job.data_files["points.dat"] = points;
  job.data_files["front.dat"] = front;
  job.data_files["best.dat"] = best;
  const std::string title =
      fmt::format("tujit tune {}  {}  {}: {} of {} candidates searched, {} valid, {} modelled",
                  r.einsum, r.sizes, r.dtype, r.searched, r.space, r.valid, r.modelled);
  job.script = [title](const std::string& dir) {
    return fmt::format(
        "set terminal svg size 1100,700 dynamic noenhanced font \"sans,12\" background rgb "
        "\"white\"\n"
        "set title {title}\n"
        "set grid\n"
        "set logscale xy 2\n"
        "set xlabel \"live slices (Cluster × Slice units running the kernel)\"\n"
        "set ylabel \"modelled cycles per slice (analytic model; lower is better)\"\n"
        "set key top right box opaque\n"
        "plot {p} using 1:2 with points pt 7 ps 0.4 lc rgb \"#9ecae1\" title \"modelled "
        "candidate\", \\\n"
        "  {f} using 1:2 with steps lw 2 lc rgb \"#d62728\" title \"Pareto front\", \\\n"
        "  {f} using 1:2 with points pt 7 ps 1.0 lc rgb \"#d62728\" notitle, \\\n"
        "  {b} using 1:2 with points pt 6 ps 1.6 lw 2 lc rgb \"#000000\" title \"ranked "
        "kernels\", \\\n"
        "  {b} using 1:2:3 with labels offset 1.2,0.6 font \",9\" notitle\n",
        fmt::arg("title", plot::gp_string(title)),
        fmt::arg("p", plot::gp_string(dir + "/points.dat")),
        fmt::arg("f", plot::gp_string(dir + "/front.dat")),
        fmt::arg("b", plot::gp_string(dir + "/best.dat")));
  };
  return job;
}

Status write_tune_plot(const Report& r, const std::string& path, bool overwrite) {
  return plot::write_gnuplot_svg(tune_plot_job(r), path, overwrite, "E-TUNE-007", "--plot", "tune");
}

} // namespace tujit::tune
