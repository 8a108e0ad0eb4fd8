// Limits: spec file size (E-LIMIT-001), deep nesting in the mapping and spec parsers (a
// diagnostic, not a stack overflow), the memory footprint of `tujit run` checked before allocating
// (E-LIMIT-002, harness/run/run_footprint.h), the --timeout watchdog (E-LIMIT-003) and the option
// parsers of --max-bytes / --timeout.
#include "harness/cli/run_limits.h"
#include "harness/run/run_footprint.h"
#include "harness/run/run_plan.h"
#include "ir/lang/kernel.h"
#include "ir/mapping/syntax.h"
#include "ir/seq/operand_streams.h"
#include "ir/seq/run_program.h"
#include "runtime/tensor/logical_tensor.h"
#include "tests/support/checked.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace tujit;
using namespace std::chrono_literals;

namespace {

bool has_code(const Diagnostics& ds, std::string_view prefix) {
  for (const auto& d : ds)
    if (d.code.rfind(prefix, 0) == 0) return true;
  return false;
}

ir::SpecFile load(const std::string& rel) {
  auto f = ir::load_spec((fs::path(TUJIT_SOURCE_DIR) / rel).string());
  if (!f)
    for (const auto& d : f.diagnostics()) UNSCOPED_INFO(render(d, nullptr));
  REQUIRE(f.ok());
  return std::move(*f);
}

} // namespace

TEST_CASE("a spec over 64 MiB is one E-LIMIT-001, checked before reading", "[limits]") {
  CHECK(!ir::check_spec_size(ir::kMaxSpecBytes, "f.rs"));
  auto d = ir::check_spec_size(ir::kMaxSpecBytes + 1, "f.rs");
  REQUIRE(d);
  CHECK(d->code == "E-LIMIT-001");
  CHECK(d->message.find("67108865 bytes") != std::string::npos);

  const ir::SpecAnalysis a =
      ir::analyze(SourceBuffer("big.rs", std::string(ir::kMaxSpecBytes + 1, ' ')));
  REQUIRE(a.diagnostics.size() == 1);
  CHECK(a.diagnostics[0].code == "E-LIMIT-001");
  CHECK(a.file.kernels.empty());

  // A sparse 1 GiB file: load_spec must refuse it from its size alone (reading it would take
  // seconds and a gigabyte).
  const fs::path p = fs::temp_directory_path() / fmt::format("tujit_big_{}.rs", ::getpid());
  { std::ofstream(p) << "axes![A = 8];\n"; }
  fs::resize_file(p, std::uint64_t{1} << 30);
  auto f = ir::load_spec(p.string());
  fs::remove(p);
  REQUIRE(!f.ok());
  REQUIRE(f.diagnostics().size() == 1);
  CHECK(f.diagnostics()[0].code == "E-LIMIT-001");
}

TEST_CASE("100k-deep nesting is a diagnostic, not a stack overflow", "[limits]") {
  constexpr std::size_t kDeep = 100000;
  // `open`^kDeep middle `close`^kDeep (appended: g++ 12 misreads `string + string` this long as
  // an out-of-bounds copy).
  const auto nest = [](std::string head, char open, const char* middle, char close,
                       const char* tail) {
    head.append(kDeep, open);
    head += middle;
    head.append(kDeep, close);
    head += tail;
    return head;
  };
  ir::AxisTable axes;
  axes.add({"A", 8});
  SECTION("mapping parentheses and brackets") {
    for (const char* oc : {"()", "[]"}) {
      auto m = ir::parse_mapping_text(nest("", oc[0], "A", oc[1], ""), axes);
      REQUIRE(!m.ok());
      CHECK(has_code(m.diagnostics(), "E-PARSE"));
    }
  }
  SECTION("mapping operator chains build no deep tree") {
    std::string strides = "A";
    for (std::size_t i = 0; i < kDeep; ++i) strides += " / 1";
    CHECK(!ir::parse_mapping_text(strides, axes).ok());
    std::string pairs = "A";
    for (std::size_t i = 0; i < kDeep; ++i) pairs += ", 1";
    CHECK(!ir::parse_mapping_text(pairs, axes).ok());
  }
  SECTION("spec file nesting") {
    const std::string head = "axes![A = 8];\nfn k(x: CollectTensor<bf16, m![1], m![1], m![1], "
                             "m![A], m![1]>) -> i32 {\n  ";
    for (const char* oc : {"()", "[]", "{}"}) {
      const ir::SpecAnalysis a =
          ir::analyze(SourceBuffer("deep.rs", nest(head, oc[0], "x", oc[1], "\n}\n")));
      CHECK(has_code(a.diagnostics, "E-PARSE"));
    }
    const ir::SpecAnalysis r = ir::analyze(SourceBuffer("refs.rs", nest(head, '&', "x", ' ', "}")));
    CHECK(has_errors(r.diagnostics));
    std::string chain = head + "x";
    for (std::size_t i = 0; i < kDeep; ++i) chain += ".f()";
    chain += "\n}\n";
    const ir::SpecAnalysis c = ir::analyze(SourceBuffer("chain.rs", chain));
    CHECK(has_code(c.diagnostics, "E-PARSE"));
    const ir::SpecAnalysis t =
        ir::analyze(SourceBuffer("type.rs", nest("axes![A = 8];\ntype T = ", '<', "", ' ', ";")));
    CHECK(has_errors(t.diagnostics));
  }
}

TEST_CASE("run_footprint counts every tensor the run holds, from the types alone", "[limits]") {
  // specs/bmatmul_m_in_time.rs: axes V=32, M=32, N=8, K=32; Chip m![1], Cluster m![V / 16] (2),
  // Slice m![V % 16 # 256] (256): 512 spatial positions.
  const ir::SpecFile file = load("specs/bmatmul_m_in_time.rs");
  REQUIRE(file.kernels.size() == 1);
  const ir::Kernel& k = file.kernels[0];
  auto ops = ir::seq::find_run_operands(k);
  REQUIRE(ops.ok());
  // Logical tensors at their width: input [V, M, K] 32768 bf16, trf [V, N, K] 8192 bf16, output
  // [V, M, N] 8192 f32.
  const std::uint64_t logical = 32768 * 2 + 8192 * 2 + 8192 * 4;
  // Address streams, per view dimension position (3 axes each): the stream 512 + Time |M, K / 16|
  // 64 + Packet 16; the TRF 512 + Lane 8 + Element 32; the output 512 + T3 32 + P3 8.
  const std::uint64_t per_position = run::kStreamPositionBytes + 8 * 3;
  const std::uint64_t streams = (512 + 64 + 16 + 512 + 8 + 32 + 512 + 32 + 8) * per_position;
  // The JIT's tables: 64 flit offsets and 32 × 8 output cells.
  const std::uint64_t tables = (64 + 32 * 8) * run::kJitTableEntryBytes;
  auto fp = run::run_footprint(file, k, *ops, /*verify=*/false);
  REQUIRE(fp.ok());
  CHECK(fp->items.size() == 7);
  CHECK(fp->total_bytes == logical + streams + tables);
  // --verify adds the other engine's output, the oracle's f64 output and its views of both
  // inputs (at their width).
  auto fpv = run::run_footprint(file, k, *ops, /*verify=*/true);
  REQUIRE(fpv.ok());
  CHECK(fpv->total_bytes == logical + streams + tables + 8192 * 4 +
                                8192 * run::kOracleElementBytes + (32768 + 8192) * 2);

  CHECK(run::check_run_size(file, k, *ops, false, fp->total_bytes).ok());
  auto over = run::check_run_size(file, k, *ops, false, fp->total_bytes - 1);
  REQUIRE(!over.ok());
  REQUIRE(over.diagnostics().size() == 1);
  const Diagnostic& d = over.diagnostics()[0];
  CHECK(d.code == "E-LIMIT-002");
  CHECK(d.message.find(std::to_string(fp->total_bytes) + " bytes") != std::string::npos);
  // The largest tensor is the stream's logical tensor (65536 bytes); the diagnostic points at
  // `input`.
  REQUIRE(d.span);
  CHECK(*d.span == ops->stream->span);
  REQUIRE(!d.notes.empty());
  CHECK(d.notes[0].find("input 'input'") != std::string::npos);
  CHECK(d.notes[0].find("32768 cells") != std::string::npos);
  CHECK(run::check_run_size(file, k, *ops, false, run::kDefaultMaxRunBytes).ok());
}

TEST_CASE("run_footprint counts the copy a begin_interleaved pair is read from", "[limits]") {
  // specs/kernels/ve_group_pair_preprocess_both.rs: lhs and rhs, i32 over A = 512, interleaved
  // along I = 2 into one pair of 2 · 512 elements (docs/vector-engine.md §3.5).
  const ir::SpecFile file = load("specs/kernels/ve_group_pair_preprocess_both.rs");
  REQUIRE(file.kernels.size() == 1);
  const auto checked = testing::checked(file.kernels[0]);
  auto plan = run::plan_run(checked.view());
  REQUIRE(plan.ok());
  const run::CommandRun& c = plan->result();
  REQUIRE(c.ops.interleaved.size() == 1);
  auto fp = run::run_footprint(file, *c.kernel, c.ops, /*verify=*/false);
  REQUIRE(fp.ok());
  std::uint64_t pair = 0, sides = 0;
  for (const run::FootprintItem& it : fp->items) {
    if (it.what.starts_with("interleaved pair 'lhs+rhs'")) pair += it.bytes;
    if (it.what.starts_with("input 'lhs'") || it.what.starts_with("input 'rhs'")) sides += it.cells;
  }
  CHECK(pair == 2 * 512 * 4);
  CHECK(sides >= 2 * 512); // each side's logical tensor (and its address streams)
}

TEST_CASE("run limits: --max-bytes and --timeout values", "[limits]") {
  CHECK(cli::parse_byte_size("4GiB") == std::uint64_t{4} << 30);
  CHECK(cli::parse_byte_size("4g") == std::uint64_t{4} << 30);
  CHECK(cli::parse_byte_size("512M") == std::uint64_t{512} << 20);
  CHECK(cli::parse_byte_size("1k") == 1024u);
  CHECK(cli::parse_byte_size("1048576") == 1048576u);
  CHECK(cli::parse_byte_size("7B") == 7u);
  CHECK(cli::parse_byte_size("18446744073709551615") == ~std::uint64_t{0});
  for (const char* bad :
       {"", "0", "G", "-1", "1.5G", "4GB", "4 G", "18446744073709551616", "16777216T"})
    CHECK(!cli::parse_byte_size(bad));

  CHECK(cli::parse_timeout("30") == 30000ms);
  CHECK(cli::parse_timeout("2.5") == 2500ms);
  CHECK(cli::parse_timeout("0.0001") == 1ms); // rounded up: never a zero (= disabled) limit
  CHECK(cli::parse_timeout("0") == 0ms);
  for (const char* bad : {"", ".", "-1", "1e3", "inf", "nan", "1.2.3", "abc", "99999999999"})
    CHECK(!cli::parse_timeout(bad));

  CHECK(run::human_bytes(512) == "512 B");
  CHECK(run::human_bytes(1536) == "1.5 KiB");
  CHECK(run::human_bytes(std::uint64_t{4} << 30) == "4.0 GiB");
}

TEST_CASE("the watchdog fires once after its limit, and never once disarmed", "[limits]") {
  std::atomic<int> fired{0};
  {
    cli::Watchdog w(20ms, [&] { ++fired; });
    for (int i = 0; i < 500 && fired == 0; ++i) std::this_thread::sleep_for(10ms);
    CHECK(w.expired());
  }
  CHECK(fired == 1);

  fired = 0;
  const auto t0 = std::chrono::steady_clock::now();
  {
    cli::Watchdog w(60s, [&] { ++fired; });
    w.disarm(); // returns at once: the thread is woken, not waited out
    CHECK(!w.expired());
  }
  CHECK(std::chrono::steady_clock::now() - t0 < 10s);
  CHECK(fired == 0);
  {
    cli::Watchdog w(0ms, [&] { ++fired; }); // no limit: nothing is armed
  }
  CHECK(fired == 0);

  const Diagnostic d = cli::timeout_diagnostic("bmatmul", 2500ms);
  CHECK(d.code == "E-LIMIT-003");
  CHECK(d.message.find("'bmatmul'") != std::string::npos);
  CHECK(d.message.find("2.5 s") != std::string::npos);
}

TEST_CASE("exit_on_timeout prints E-LIMIT-003 and ends the process with status 1", "[limits]") {
  const fs::path log = fs::temp_directory_path() / fmt::format("tujit_wd_{}.txt", ::getpid());
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    std::ofstream err(log);
    cli::Watchdog w(10ms, cli::exit_on_timeout("slow", 10ms, err));
    std::this_thread::sleep_for(30s); // the stuck run
    std::_Exit(0);
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 1);
  std::ifstream in(log);
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  fs::remove(log);
  CHECK(text.find("error[E-LIMIT-003]") != std::string::npos);
  CHECK(text.find("'slow'") != std::string::npos);
}

TEST_CASE("random inputs of a tile kernel cover the tile only (input_tiles)", "[limits]") {
  // specs/derived/forward__lm_head.rs: Wp = 155,648, H = 1024; Cluster m![Wp / 4096 % 2], Slice
  // m![Wp / 16 % 256]. The weight's Element m![Wp % 16, H] completes Wp < 8192; the input
  // (Element m![H]) holds Wp = 0, 16, …, 8176 (every 16-th, 512 of them); the output holds
  // Wp < 8192. The smallest prefix holding all of them is [0, 8192).
  const ir::SpecFile file = load("specs/derived/forward__lm_head.rs");
  const ir::Kernel& k = file.kernels.at(0);
  auto ops = ir::seq::find_run_operands(k);
  REQUIRE(ops.ok());
  const auto axes = ir::seq::input_tiles(file, k, *ops);
  REQUIRE(axes.ok());
  REQUIRE(axes->size() == 2);
  for (const char* name : {"input", "weight"}) {
    INFO(name);
    const auto& ax = axes->at(name);
    REQUIRE(ax.size() == 2);
    for (const auto& a : ax) CHECK(a.size == (a.name == "Wp" ? 8192u : 1024u));
  }
  // The footprint counts the tile: 8192 x 1024 elements per input, and per oracle view.
  const auto input_cells = [](const run::RunFootprint& fp, const std::string& role) {
    for (const auto& it : fp.items)
      if (it.what.starts_with(role)) return it.cells;
    return std::uint64_t{0};
  };
  auto fp = run::run_footprint(file, k, *ops, /*verify=*/true);
  REQUIRE(fp.ok());
  CHECK(input_cells(*fp, "input 'weight': logical") == 8192u * 1024u);
  CHECK(input_cells(*fp, "oracle view of 'input'") == 8192u * 1024u);
  // Given contents are whole tensors; a budget too small to evaluate the view dimensions (here
  // fewer positions than the 512 spatial ones) assumes whole tensors as well (never less than the
  // run will hold).
  auto given = run::run_footprint(file, k, *ops, true, /*inputs_given=*/true);
  REQUIRE(given.ok());
  CHECK(input_cells(*given, "input 'weight': logical") == 155648u * 1024u);
  auto tight = run::run_footprint(file, k, *ops, true, false,
                                  /*max_bytes=*/run::kStreamPositionBytes * 100);
  REQUIRE(tight.ok());
  CHECK(input_cells(*tight, "input 'weight': logical") == 155648u * 1024u);
  CHECK(tight->total_bytes > fp->total_bytes);
}

TEST_CASE("inputs that hold whole axes keep them (input_tiles)", "[limits]") {
  // bmatmul_m_in_time holds every coordinate of V, M, N and K; weighted_sum's output holds every
  // 16-th T up to |T| = 512, so T stays whole too.
  for (const char* rel : {"specs/bmatmul_m_in_time.rs", "specs/derived/weighted_sum.rs"}) {
    INFO(rel);
    const ir::SpecFile file = load(rel);
    const ir::Kernel& k = file.kernels.at(0);
    auto ops = ir::seq::find_run_operands(k);
    REQUIRE(ops.ok());
    const auto axes = ir::seq::input_tiles(file, k, *ops);
    REQUIRE(axes.ok());
    for (const ir::KernelParam* p : ops->inputs())
      CHECK(axes->at(p->name) == ir::seq::type_axes(*p->tensor, file.axes));
  }
}
