// Pinned cycle reports: `tujit cycles --json` of every checked kernel of specs/ (the body after
// "kernel": both models, every command, the schedule), as a sha256 of its compact text. The table
// was recorded from the command line before the cycle models read the write sequencer from the
// Sequencer IR (ir/seq/commit_program.h) instead of deriving it from mappings; that rework and any
// later one that is not meant to change a number must leave every row as it is.
#include "harness/cycles/kernel_cycles.h"
#include "harness/cycles/kernel_report.h"
#include "ir/lang/kernel.h"
#include "ir/verify/kernel_checker.h"
#include "runtime/tensor/sha256.h"
#include "tests/support/checked.h"
#include "tests/support/spec_corpus.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <cstdlib>
#include <map>
#include <string>

using namespace tujit;

namespace {

struct PinnedCycles {
  const char* file;
  const char* kernel;
  const char* sha256; // of the JSON body, or the first diagnostic's code
};

// clang-format off
constexpr PinnedCycles kPinnedCycles[] = {
  {"specs/bmatmul_k_in_time.rs", "bmatmul_k_in_time", "940d50f0dc104891b3f2f38516f86445534bebbaefd284774c08574bbb45692b"},
  {"specs/bmatmul_m_in_time.rs", "bmatmul_m_in_time", "37addd949ab76c994280d63cdf8ea5245ab1787a8ecb9470b00c2b8f53469785"},
  {"specs/bmatmul_v_in_time.rs", "bmatmul_v_in_time", "37addd949ab76c994280d63cdf8ea5245ab1787a8ecb9470b00c2b8f53469785"},
  {"specs/derived/bf16_contract.rs", "bf16_contract", "29e95fbcbd8c7f00d739f2fb5baf33d6aa29fd986300273d8e1490ec93b35acc"},
  {"specs/derived/dot_product_kernel.rs", "dot_product_kernel", "6c8f1b97fa9d8c96e9459ae7c1edc359eba984b5df4ee62bf6d8a31e4789fe99"},
  {"specs/derived/elementwise_mul_kernel.rs", "elementwise_mul_kernel", "647367cf8d5bb818431748b9c45607512b49c81437e92a3a23596790a447d868"},
  {"specs/derived/f8e4m3_contract.rs", "f8e4m3_contract", "729d30d8939c1eb3eb1a23da619123e2146c8a0707440addf9022f84eb66c2d7"},
  {"specs/derived/f8e5m2_contract.rs", "f8e5m2_contract", "729d30d8939c1eb3eb1a23da619123e2146c8a0707440addf9022f84eb66c2d7"},
  {"specs/derived/fc1_matmul.rs", "fc1_matmul", "b116f02f341c6aeb93f80332a03e61fc25a013aa82ea3ff6589a55fb9a5452c5"},
  {"specs/derived/fc2_matmul.rs", "fc2_matmul", "5116d957f82587cba8e1af1b0430fa09180493fe36f4134f3e17f22609c9bb90"},
  {"specs/derived/forward__attention.rs", "forward", "ab1727b6a5d2adfc2beb57204bc12528a82f37acbed2733155d7c62ff8359697"},
  {"specs/derived/forward__lm_head.rs", "forward", "dffa63f72af0b876520a43ec388c24364369e899c63cb72af6048f3cfc33238f"},
  {"specs/derived/forward__mlp_down.rs", "forward", "d2b137d937a658c3c3f14abe8a5b8fe0c65603d4be85b5cebd42dab9082417e3"},
  {"specs/derived/forward__mlp_silu.rs", "forward", "a3e5af47ecd9ae2a46f892cbf07bb1bab165845cebc1cc47fdb2f6b775a05da1"},
  {"specs/derived/forward__mlp_up_gate.rs", "forward", "af1268e44992147925775b597dec708686a7415cdf18f8ffd745e58c8183ca1c"},
  {"specs/derived/gemm_kernel.rs", "gemm_kernel", "2c5f84eb4216fed81a3bd3f8ecf2162315ce1325379780e869c9e11d1d92a560"},
  {"specs/derived/gemv_bias_relu.rs", "gemv_bias_relu", "311445c4784229dc8aa058c359f15ceaa2058c6b0b89358d7e6f83d3efab9e81"},
  {"specs/derived/gemv_kernel.rs", "gemv_kernel", "7f95a37a02e904896a5aff69226887d186df2784be590c42c1b5c489fa5d0ede"},
  {"specs/derived/gemv_relu.rs", "gemv_relu", "2823d04664f02ae632e308078b20398bf7620384b754edf4bf4cfce1de3c38ca"},
  {"specs/derived/gemv_slice_transposed.rs", "gemv_slice_transposed", "02575f4665abe9d230a059a1bb05c1dc10d0132891f22d350aba841f3329b183"},
  {"specs/derived/i4_contract.rs", "i4_contract", "16ccc1a32ea8fe67a0476387e7aa29bc6b4104f5802057976559b6638474092b"},
  {"specs/derived/i8_contract.rs", "i8_contract", "729d30d8939c1eb3eb1a23da619123e2146c8a0707440addf9022f84eb66c2d7"},
  {"specs/derived/lane_divides_axis.rs", "lane_divides_axis", "455a2a69828549a17dc0480de9df9f0eaba4b24ebc755ced9e9bc6567e1d7459"},
  {"specs/derived/masked_exp.rs", "masked_exp", "71e864e2ec177874541551a88fceb9f1d0320a1805c70502af87a49f80c9604b"},
  {"specs/derived/ng_to_vrf.rs", "ng_to_vrf", "cdfca0e409e80e8770622687d2612a2aa1bc7f558d783d2a85d0d8f3e20a23fb"},
  {"specs/derived/proj_o.rs", "proj_o", "3923688b169b4658a23aa3d77e6225381cd28240ddbcb5cb17c72cfeb25e31dd"},
  {"specs/derived/proj_p.rs", "proj_p", "409a4f113549469827c3dc6377d1780fe14981ea9b02067df22166f6c8f99983"},
  {"specs/derived/proj_q.rs", "proj_q", "9869a0ee1b6d54a801c8b1eec19cce1a98737490dc62a89420b328cf02eab21f"},
  {"specs/derived/qk_scaled.rs", "qk_scaled", "c38671fdffc5f13faedfa6baf27b38c32123cab2dac8f86f7f442db33c83d89c"},
  {"specs/derived/to_vrf_at_capacity.rs", "to_vrf_at_capacity", "7a5af412f27af3e956387a9f5c8ec82cb3257d5bab80a9e8f2bb6faf76cdf62d"},
  {"specs/derived/valid_double_tiling.rs", "valid_double_tiling", "2632a00d8fee72d7b08e8068b6e49259998e74e4ff38c5dd73405933453a569e"},
  {"specs/derived/valid_mapping.rs", "valid_mapping", "b3d9904284636db6de7130f02a8a919c7f3c570e3ce117e1c1a747d7ca25cead"},
  {"specs/derived/valid_one_collect_flit.rs", "valid_one_collect_flit", "729d30d8939c1eb3eb1a23da619123e2146c8a0707440addf9022f84eb66c2d7"},
  {"specs/derived/valid_single_tiling.rs", "valid_single_tiling", "5e4acd5ac61141a73e729584d6de682f2a63d38a48ad1da3dc744b870861add8"},
  {"specs/derived/valid_size_32.rs", "valid_size_32", "729d30d8939c1eb3eb1a23da619123e2146c8a0707440addf9022f84eb66c2d7"},
  {"specs/derived/valid_size_64.rs", "valid_size_64", "efe3383db281728114bcd329633384aee6399650995339791df6b3870324e21a"},
  {"specs/derived/valid_size_8.rs", "valid_size_8", "efe3383db281728114bcd329633384aee6399650995339791df6b3870324e21a"},
  {"specs/derived/valid_tiling_not_in_trf.rs", "valid_tiling_not_in_trf", "e8a4af4693c4ebfd8a6c6962d8f843c471070654f2a545abf87916ce5f8dbf39"},
  {"specs/derived/valid_to_trf_full.rs", "valid_to_trf_full", "b3d9904284636db6de7130f02a8a919c7f3c570e3ce117e1c1a747d7ca25cead"},
  {"specs/derived/valid_transposed_tiling.rs", "valid_transposed_tiling", "3fd12581e2404e3452a523895698eaddd8ee6650d8535f4af0ab13f67ef86e5b"},
  {"specs/derived/valid_two_collect_flits.rs", "valid_two_collect_flits", "efe3383db281728114bcd329633384aee6399650995339791df6b3870324e21a"},
  {"specs/derived/valid_unit_time_lane.rs", "valid_unit_time_lane", "2f45f7447a02d4c8037a1ff4209f9bbfb65be4eb9bfff3789b4ca0fca4460d7c"},
  {"specs/derived/weighted_sum.rs", "weighted_sum", "b26c0966ac0b76239c4c7bc8057e13663a171458244081acb7ba760bd6967e28"},
  {"specs/derived/zero_point_sub_contract.rs", "zero_point_sub_contract", "55549f44888be0d396d94988c5a4c7475bb22e568a46709a009ab87d6198e99f"},
  {"specs/kernels/constant_add_kernel.rs", "constant_add_kernel", "2388ae4292324df084d98b0e98e643e55555da06023587357aaea5abc91a40c9"},
  {"specs/kernels/constant_add_twice_kernel.rs", "constant_add_twice_kernel", "103d3dc5d39f5912094fd33d32276a15f834ce865ea72f32d432106ca0234bd9"},
  {"specs/kernels/dot_product_kernel.rs", "dot_product_kernel", "e346d139c852747b85335e9ba0d955fe5fca2b0c1e0ac0bad59a7abd58a04c9c"},
  {"specs/kernels/elementwise_mul_kernel.rs", "elementwise_mul_kernel", "f5f7bf973663a8cd2c801fd892241627c675bc5ad60c2e79c57749b429a068fc"},
  {"specs/kernels/fetch_commit_simple.rs", "fetch_commit_simple", "afda9caed25e77816a92786935a84100b8eb7521405347d4c8dc55e0f49af658"},
  {"specs/kernels/fetch_table_lookup.rs", "fetch_table_lookup_decode_e2m1", "c4cb5ea2ad4577cdfff35cad14a9c208645b1f83ebcced4974f5bd746a5b3a46"},
  {"specs/kernels/fetch_table_lookup.rs", "fetch_table_lookup_decode_e2m1_to_f8e5m2", "1d90334f13590a99315271172c63dc86c0e776e810752d343fa516d5ae6e030e"},
  {"specs/kernels/fetch_table_lookup.rs", "fetch_table_lookup_decode_e2m1_mxfp4", "6c70ba17bd0007fd839e0f6bec973209f1e682c67761aa369e38e75c62357d21"},
  {"specs/kernels/fetch_table_lookup.rs", "fetch_table_lookup_decode_f8e5m2_to_bf16", "c9ee45c4ee6a60ee6fe2399963953a4a0b0d332531572e6bf7c6fe2546205afc"},
  {"specs/kernels/fetch_table_lookup.rs", "fetch_table_lookup_decode_f8_to_bf16", "c9ee45c4ee6a60ee6fe2399963953a4a0b0d332531572e6bf7c6fe2546205afc"},
  {"specs/kernels/gemm_gemm_kernel.rs", "gemm_gemm_kernel", "f78f27d443b9ca2da6eb8bb85226368d8a0ce0dc6c51140378451111c2c5f03c"},
  {"specs/kernels/gemm_kernel.rs", "gemm_kernel", "c1fd95b13b4df35a8405e3f1bb11a58c1d6342df1b40a7aab13edbe2f5d12f02"},
  {"specs/kernels/gemv_kernel.rs", "gemv_kernel", "3c0c9395ba07a6d889d7d0aa7c2c5d17001025a8a33b1f368e80bfbbece929bd"},
  {"specs/kernels/proj_transposed_kernel.rs", "proj_transposed", "d1e9df0ed163a2249c19afd28c4c973e33566e437e7384890a7bb15d4931e16c"},
  {"specs/kernels/switch_broadcast_tile.rs", "switch_broadcast_tile", "53c94e30b1e3afb311092661f27dd1342ac76b120080ae6e239b91c516e109ea"},
  {"specs/kernels/switch_moved_axis.rs", "switch_moved_axis", "1759b25222d90cbb86ac2b0b5f95ca4590ece97a2a267c928b716fc643c54e2a"},
  {"specs/kernels/transpose_kernel.rs", "transpose_kernel", "612d84f53d6505c62fbf1bd2b8a4abf97bbe993aa935f5c5e53708ae758ae61f"},
  {"specs/kernels/transpose_relu_kernel.rs", "transpose_relu_kernel", "0836b274adb4cbba654a64eec28014de20fc0d99230d1a8521b9c2d03fdbe756"},
  {"specs/kernels/ve_branch_bit_order.rs", "ve_branch_bit_order", "5523279d4bcd3c876eefef92ac6effc5beb84a6f3afa1c470c0553dc0b86b656"},
  {"specs/kernels/ve_branch_elementwise.rs", "ve_elementwise_branched", "e327ca010b4208daaf80f132fb235e3c868413b0e32a3815f9e0dca12dd4ada1"},
  {"specs/kernels/ve_elementwise_fp_div_with_mode.rs", "ve_elementwise_fp_div_with_mode", "de8cebf4b0fb086844e0aff5df286df06c11d40999e9d48ec991e55d0f85668a"},
  {"specs/kernels/ve_elementwise_fp_ternary_with_mode.rs", "ve_elementwise_fp_ternary_with_mode", "ee88765cc6e0ab11851eb0484e67fb1ab15e83b0db4cc793e9af3a7951b5235e"},
  {"specs/kernels/ve_elementwise_multi_vrf.rs", "ve_elementwise_multi_vrf", "bf4eb627320ae7c09ebfef1f6e754a481696b90d6e35ece9ccbc347e0d46b515"},
  {"specs/kernels/ve_elementwise_vrf.rs", "ve_elementwise_vrf", "80b89f6a82f1d7a7c1d74134eda143e88d86a7e6f7b137b3c05a898c1dfcfc7f"},
  {"specs/kernels/ve_group_pair_fp_multi_packet.rs", "ve_group_pair_fp_multi_packet", "4c43ba2131c885b504d354c1203264b225878f6d0ade543a23ed5069c59223c6"},
  {"specs/kernels/ve_group_pair_preprocess_both.rs", "ve_group_pair_preprocess_both", "b2a04e4c95b7fe0ce0ac33032cfa66fa096840569defd78f1d8ae4f53fded1d9"},
  {"specs/lane_interleaved.rs", "lane_interleaved", "603cabeac9e8e34df07060288a464ab43a4f97a66c852397ca6cde5f146deab7"},
  {"specs/lane_sequential.rs", "lane_sequential", "b99ea895395a362ced1d69d0d9cf6a7c997a8011d445735aa387b45c02028e9d"},
  {"specs/load_trf.rs", "load_trf", "922de838b33c95a704a95893a91c506b69e450e4593a0aae05f8273d9d4f302c"},
  {"specs/matmul.rs", "matmul", "209f096d4ebfc5dbf8a9a130a9075d3db515d191c13888de09f6d324949e6c69"},
  {"specs/read_splitting.rs", "read_splitting", "a05fdd60df7d4f2c1794b145f1345e20c5d55a7537f5f80c9aaf31b910e0eed8"},
  {"specs/reduce_b.rs", "reduce_b", "ac78ffb2e8aa2e300fad0ea60b2421da6e6cd77ce17568cc7e33d01ccd17c44e"},
  {"specs/relu.rs", "relu", "c497f576b9d4dbc09c8a7ef66b7243ecd445fafac640be8b3425ad59027cd5ae"},
  {"specs/store.rs", "store", "1a58efc3c395c2eafbe9cf58a0bcca20b369c98ab4a6ceae1cc52f2239b044ac"},
  {"specs/store_bmatmul_trf.rs", "store_bmatmul_trf", "1edf1e60dd2de5a5f8ea34504d28d3f25dc4c0e03d26056b141420069b66e855"},
  {"specs/store_pass.rs", "store_pass", "9c4f267132d5c3c90835eb85ecdb524cdd4db86033cba7185573603e78c26318"},
  {"specs/store_vrf.rs", "store_vrf", "b0d1681149846e84cce43121517db2fb34705d9e82d167eafc64f3bc2352eefd"},
  {"specs/stream_adapter_example.rs", "stream_adapter_example", "cbaa0cb7b9f8c9edd8cde9e2b777c1fb67f310d47701e333c50c44b34510903e"},
  {"specs/switch/broadcast01.rs", "broadcast01", "9f153ed418a6e433de863c87b79ae1359d58387c44977b1976cb714b65493b6b"},
  {"specs/switch/broadcast1.rs", "broadcast1", "de40848f298baee4fb2a4fb4cb4caa5d07b8e92f1ca497674b4ab3e7dc6b27ff"},
  {"specs/switch/custom_multi_broadcast.rs", "multi_axis_broadcast", "00744d565c815ce175d14dc3d132525f5d7243c5403f1eff9b530390abc530f2"},
  {"specs/switch/custom_partial_extraction.rs", "partial_axis_extraction", "ec477fe3984c466be0665a966fa3c19ed4fbaffe14e60b06ea7c10cfa404f3cc"},
  {"specs/switch/custom_permutation.rs", "arbitrary_permutation", "7833b7d2ac6016fb3ff8ef23561d1d2bb45e7f37b1187e6effcb108c5e0b9451"},
  {"specs/switch/inter_transpose.rs", "inter_transpose", "90f64c2296c78eefd71ed13d6f54e149a6084fe97c062d0fdd372efea2661632"},
  {"specs/switch/transpose.rs", "transpose", "2cc38e01b1a73a0affdcda199525e7edcba3bf0120e70ae37f856faf01cd5dc5"},
  {"specs/switch/transposed_broadcast1.rs", "transposed_broadcast1", "5a2751dde10f4f25c12cd3e08977bc251343f8a46181490f95e14256c8a8ddae"},
  {"specs/tiling_read.rs", "tiling_read", "20677306b871955830d03361e8d3e6517403c5d7f71d897e76ee819b5901f28f"},
  {"specs/tiling_write.rs", "tiling_write", "0a0331d6f57fda640be5d943e7606ed26a04c1919356a24cad47ccb2fab93ee1"},
  {"specs/transpose_basic.rs", "basic_transpose", "c8e20a1568b4471c35155f3d95975906060dd209dc84231d64414710ad73d8a0"},
  {"specs/transpose_bf16.rs", "bf16_transpose", "7574c95ff7897223369413317ebbf2bb6756cae6638bc61f71f23bbd33e8dbd8"},
  {"specs/transpose_f32.rs", "f32_transpose", "eb75efec6a78dc9166133282b9087d6ac18414116f7b5ecefbb05caff740bb76"},
  {"specs/transpose_i4.rs", "i4_transpose", "a50162c0a0c70115f950fcb7c66616b940eb357dfdb569828babdbe746e8b5c4"},
  {"specs/transpose_large_col.rs", "large_col_transpose", "a3645f093461612543e8d7a1c398463354c39da4304b07299dc251584d83ebaf"},
  {"specs/transpose_small.rs", "small_transpose", "db641a44018601e3cf000775dd5a8c11a4ccdf5ccc0c72d19106411837f1f2a3"},
  {"specs/trf_sequencer_full_read.rs", "trf_sequencer_full_read", "0d624338abe14be563c483cd0d1849490b7fc1d2abab06a867fa01446f7db641"},
  {"specs/trf_sequencer_partial_read.rs", "trf_sequencer_partial_read", "4c771d3b2a466008c23ca33183797023bf3662167c096e82a0968fa6bfd360dc"},
  {"specs/ve_pair_add.rs", "pair_add", "019f1132d3a556ee3baa627f590fede2554c501f17a552bd9189de7d933c804c"},
  {"specs/ve_pair_asymmetric_preprocess.rs", "pair_asymmetric_preprocess", "63e67580d348a9b489f438aa4fcceb838df560327f666c5b91f27b6d633ca103"},
  {"specs/ve_pair_fp_mul_zip.rs", "pair_fp_mul_zip", "f75e47a09bd8866f3f5e86faab25ecd119d0316cadda3bb524ba7de5a1ef573e"},
  {"specs/ve_pair_preprocess_one_side.rs", "pair_preprocess_one_side", "958ecdcabce8283549d50faa1feba079db7ca84eef4399e67385828310d59693"},
  {"specs/ve_pair_sub_reverse.rs", "pair_sub_reverse", "f75e47a09bd8866f3f5e86faab25ecd119d0316cadda3bb524ba7de5a1ef573e"},
  {"specs/ve_stash.rs", "residual_max", "94507b665da530088dceb3925a153a91daf4b0c4f37ab9aa806aecae10f731c2"},
  {"specs/vrf_add.rs", "vrf_add", "96486dbc3c40ac40b7eab09cee40c6b3b67cfbf23c0e519e29f81c76bd9791f9"},
};
// clang-format on

std::string report_digest(const ir::Kernel& k) {
  auto kc = cycles::kernel_cycles(testing::checked(k), false);
  if (!kc) return kc.diagnostics().front().code;
  const std::string text = cycles::kernel_cycles_json(*kc).dump();
  return runtime::sha256_hex({reinterpret_cast<const std::uint8_t*>(text.data()), text.size()});
}

} // namespace

TEST_CASE("pinned cycle reports of every checked spec kernel", "[pinned][cycles]") {
  std::map<std::string, std::string> pinned;
  for (const PinnedCycles& p : kPinnedCycles)
    pinned[fmt::format("{}:{}", p.file, p.kernel)] = p.sha256;
  const bool record = std::getenv("TUJIT_RECORD_PINNED") != nullptr;
  std::size_t checked = 0;
  for (const auto& path : testing::spec_corpus()) {
    auto file = ir::load_spec(path.string());
    REQUIRE(file.ok());
    const std::string rel = path.lexically_relative(TUJIT_SOURCE_DIR).generic_string();
    for (const auto& k : file->kernels) {
      if (!k.ok || !ir::verify::check_kernel(*file, k).ok()) continue;
      const std::string digest = report_digest(k);
      if (record) {
        fmt::print("  {{\"{}\", \"{}\", \"{}\"}},\n", rel, k.name, digest);
        continue;
      }
      const std::string key = fmt::format("{}:{}", rel, k.name);
      INFO(key);
      auto it = pinned.find(key);
      REQUIRE(it != pinned.end()); // a new checked kernel: add its row
      CHECK(digest == it->second);
      ++checked;
    }
  }
  CHECK_FALSE(record); // recording prints the table; it never passes as a check
  CHECK(checked == std::size(kPinnedCycles));
}
