// Every `begin(dm).fetch::<OutTime, OutPacket>()` of the valid kernel corpus (specs/,
// specs/derived/) derives a legal Fetch configuration (docs/datapath.md §5: Buf = the Begin
// tensor's Time ⊗ Packet, stream = the fetch's output Time / Packet), and its loops read each
// cell where the DM tensor holds it. This is the call the kernel checker's `fetch` stage makes
// (docs/datapath.md §4, §5).
#include "datapath_test_support.h"

#include "ir/datapath/fetch_engine.h"
#include "ir/lang/kernel.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <vector>

using namespace tujit;
using namespace tujit::ir::datapath;
namespace fs = std::filesystem;

TEST_CASE("every fetch of the valid kernel corpus derives and reads its DM tensor correctly",
          "[datapath]") {
  const fs::path root = TUJIT_SOURCE_DIR;
  std::vector<fs::path> files;
  for (const char* dir : {"specs", "specs/derived"})
    for (const auto& e : fs::directory_iterator(root / dir))
      if (e.path().extension() == ".rs") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 10);

  int fetches = 0;
  for (const auto& path : files) {
    auto spec = ir::load_spec(path.string());
    if (!spec) continue; // front-end failures belong to the kernel-check corpus test
    for (const auto& kernel : spec->kernels) {
      for (std::size_t i = 0; i < kernel.stages.size(); ++i) {
        const ir::Stage& s = kernel.stages[i];
        if (s.op != ir::StageOp::Fetch) continue;
        INFO(path.filename().string() << " kernel " << kernel.name << " stage " << i);
        auto buf =
            ir::Mapping::pair(s.input.mapping(ir::Slot::Time), s.input.mapping(ir::Slot::Packet));
        REQUIRE(buf.ok());
        FetchInput in{s.input.dtype,
                      *buf,
                      s.output.mapping(ir::Slot::Time),
                      s.output.mapping(ir::Slot::Packet),
                      s.context == ir::ContextKind::Sub ? FetchContext::Sub : FetchContext::Main,
                      std::nullopt,
                      std::nullopt};
        // A following table lookup and fetch_cast cap the read (docs/datapath.md §5).
        for (std::size_t j = i + 1, at = i; j < kernel.stages.size(); at = j++) {
          const ir::Stage& next = kernel.stages[j];
          if (next.producer != at || !ir::is_fetch_adapter(next.op)) break;
          if (next.op == ir::StageOp::FetchTableLookup) in.lookup_to = next.cast_to;
          if (next.op == ir::StageOp::FetchCast) in.cast_to = next.cast_to;
        }
        auto r = verify_fetch(in);
        if (!r) {
          for (const auto& d : r.diagnostics()) UNSCOPED_INFO(render(d, nullptr));
        }
        REQUIRE(r.ok());
        ++fetches;
        if (buf->size() <= (std::uint64_t{1} << 16)) {
          auto walk = tujit::testing::check_addresses(spec->axes, in.buf, in.time, in.packet,
                                                      r->seq.config);
          INFO(walk.failure);
          CHECK(walk.failure.empty());
        }
      }
    }
  }
  CHECK(fetches >= 10);
}
