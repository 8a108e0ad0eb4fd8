// A `tujit run --verify` whose inputs and raw output are saved as .npy files, for tests that check
// an output against a brute-force computation of their own over the very inputs the run used.
#pragma once

#include "runtime/npy/npy.h"
#include "tests/support/cli_capture.h"

#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace tujit::testing {

/// `tujit run SPEC --kernel KERNEL --verify --json`, SPEC a path under the source tree: exit 0,
/// the engines bit for bit, the oracle ok.
inline void require_runs_verified(const std::string& spec, const std::string& kernel) {
  INFO(spec << " --kernel " << kernel);
  const CliRun r = run_tujit({"run", source_path(spec), "--kernel", kernel, "--verify", "--json"});
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  const auto j = r.json();
  CHECK(j["verify"]["engines_bit_exact"] == true);
  CHECK(j["verify"]["oracle_ok"] == true);
}

/// Runs `spec` (a path under the source tree) with --verify and `seed`, saving its inputs and raw
/// output into `dir`; requires the engines bit for bit and the oracle ok. The arrays by name ("out"
/// for the output).
inline std::map<std::string, runtime::NpyArray> run_saved(const std::string& spec,
                                                          const TempDir& dir,
                                                          const std::string& seed,
                                                          std::vector<std::string> extra = {}) {
  std::vector<std::string> args{"run",
                                source_path(spec),
                                "--verify",
                                "--seed",
                                seed,
                                "--save-inputs",
                                dir.path.string(),
                                "--raw-output",
                                "--output",
                                (dir.path / "out.npy").string(),
                                "--json"};
  args.insert(args.end(), extra.begin(), extra.end());
  const CliRun r = run_tujit(args);
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  const auto j = r.json();
  CHECK(j["verify"]["engines_bit_exact"] == true);
  CHECK(j["verify"]["oracle_ok"] == true);
  std::map<std::string, runtime::NpyArray> arrays;
  for (const auto& e : std::filesystem::directory_iterator(dir.path)) {
    auto a = runtime::read_npy_file(e.path().string());
    REQUIRE(a.ok());
    arrays[e.path().stem().string()] = std::move(*a);
  }
  return arrays;
}

/// The elements of `a` as T (the saved dtype's width).
template <class T>
std::vector<T> npy_values(const runtime::NpyArray& a) {
  std::vector<T> v(a.elements());
  REQUIRE(a.data.size() == v.size() * sizeof(T));
  std::memcpy(v.data(), a.data.data(), a.data.size());
  return v;
}

} // namespace tujit::testing
