"""Regenerates tests/corpus/malformed/*.rs: one file per way a kernel spec can be wrong.

Each case edits a valid kernel; `@@` marks where the diagnostic must point. The marker is
removed and its line:col written to the first line (`// expect: CODE line:col`), so the expected
positions come from the case text, not from running tujit. Run: python3 gen_malformed.py
"""
import os
OUT = os.path.dirname(os.path.abspath(__file__))
B = """axes![V = 32, M = 32, N = 8, K = 32];

type Chip = m![1];
type Cluster = m![V / 16];
type Slice = m![V % 16 # 256];
type Lane = m![N];

fn k<'l, const T: Tu>(
    input: CollectTensor<'l, T, bf16, Chip, Cluster, Slice, m![M, K / 16], m![K % 16]>,
    trf: &TrfTensor<bf16, Chip, Cluster, Slice, Lane, m![K]>,
) -> ContractTensor<'l, T, f32, Chip, Cluster, Slice, m![M], m![N]> {
    input
        .contract_outer::<m![M], m![K], _, _, _>(trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![M]>()
        .contract_lane::<m![M], m![N]>(LaneMode::Interleaved)
}
"""
F = """axes![A = 8, K8 = 32, R = 8];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];
type Lane = m![R];

fn k<'l>(
    ctx: &'l mut Context,
    input_dm: &DmTensor<i8, Chip, Cluster, Slice, m![A, K8]>,
    trf_dm: &DmTensor<i8, Chip, Cluster, Slice, m![R, K8]>,
) -> ContractTensor<'l, { Tu::Main }, i32, Chip, Cluster, Slice, m![A], m![R]> {
    let trf: TrfTensor<i8, Chip, Cluster, Slice, Lane, m![K8]> = ctx
        .sub
        .begin(trf_dm.view())
        .fetch::<m![R], m![K8]>()
        .collect::<m![R], m![K8]>()
        .to_trf();

    ctx.main
        .begin(input_dm.view())
        .fetch::<m![A], m![K8]>()
        .fetch_zero_point_sub::<i9>(3)
        .collect::<m![A], m![K8]>()
        .contract_outer::<m![A], m![K8], _, _, i8>(&trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![A]>()
        .contract_lane::<m![A], m![R]>(LaneMode::Interleaved)
}
"""
cases = []
def sub(name, code, base, old, new, what):
    assert base.count(old) >= 1, (name, old)
    cases.append((name, code, base.replace(old, new, 1), what))
def raw(name, code, text, what):
    cases.append((name, code, text, what))

# ---- parse errors
raw('p01_stray_closer', 'E-PARSE-201', B + "@@)\n", 'a closing bracket with nothing open')
sub('p02_mismatched_closer', 'E-PARSE-201', B, 'axes![V = 32, M = 32, N = 8, K = 32];', 'axes![V = 32, M = 32, N = 8, K = 32@@);', 'axes![ closed by )')
sub('p03_unclosed_body', 'E-PARSE-201', B, '> {\n    input', '> @@{\n    input', 'kernel body never closed')
B3 = B[:B.rindex('}')]
raw('p03_unclosed_body', 'E-PARSE-201', B3.replace('> {\n    input', '> @@{\n    input', 1), 'kernel body never closed')
cases[:] = [c for c in cases if not (c[0]=='p03_unclosed_body' and c[2].count('}')>B3.count('}'))]
raw('p04_too_deep', 'E-PARSE-202', B + "let x = " + "(" * 256 + "@@" + "(" * 50 + ")" * 306 + ";\n", '306 nested parentheses')
raw('p05_chain_too_long', 'E-PARSE-202', B.replace('    input\n', '    input' + '.f()' * 1024 + '@@' + '.f()' * 10 + '\n', 1), 'method chain of 1034 calls')
sub('p06_missing_semicolon', 'E-PARSE-203', B, '    input\n        .contract_outer', '    let a = input\n    @@let b = a;\n    input\n        .contract_outer', 'let without ;')
sub('p07_param_without_colon', 'E-PARSE-203', B, '    input: CollectTensor', '    @@input CollectTensor', 'parameter without :')
sub('p08_fn_without_parens', 'E-PARSE-203', B, "fn k<'l, const T: Tu>(", "fn j @@-> u8 {}\nfn k<'l, const T: Tu>(", 'fn name followed by ->')
sub('p09_fn_without_body', 'E-PARSE-203', B, "m![N]> {\n    input", "m![N]> @@;\n    input", 'signature followed by ;')
sub('p10_bad_type', 'E-PARSE-203', B, '    trf: &TrfTensor', '    trf: &@@+TrfTensor', 'a type starting with +')
sub('p11_bad_type_arg_separator', 'E-PARSE-203', B, "T, bf16, Chip, Cluster, Slice, m![M, K / 16]", "T, bf16 @@; Chip, Cluster, Slice, m![M, K / 16]", '; between type arguments')
sub('p12_dot_without_name', 'E-PARSE-203', B, '        .contract_packet::<m![1]>()', '        .@@(m![1])', '. followed by (')
sub('p13_turbofish_without_call', 'E-PARSE-203', B, "    input\n", "    let a = input.contract_outer::<m![M], m![K], _, _, _>@@;\n    input\n", 'turbofish without arguments')
sub('p14_turbofish_separator', 'E-PARSE-203', B, '.contract_lane::<m![M], m![N]>', '.contract_lane::<m![M] @@m![N]>', 'type arguments without ,')
sub('p15_for_loop', 'E-PARSE-205', B, '    input\n', '    @@loop {}\n    input\n', 'a `loop` in a kernel (a constant `for` is unrolled)')
sub('p16_return', 'E-PARSE-205', B, '    input\n', '    @@return input;\n    input\n', 'return in a kernel')
sub('p18_axes_without_bracket', 'E-PARSE-203', B, 'axes![V = 32, M = 32, N = 8, K = 32];', 'axes! @@W = 4;\naxes![V = 32, M = 32, N = 8, K = 32];', 'axes! not followed by [')
sub('p19_alias_without_eq', 'E-PARSE-203', B, 'type Lane = m![N];', 'type Lane @@m![N];', 'type alias without =')
sub('p20_alias_without_semicolon', 'E-PARSE-203', B, 'type Lane = m![N];\n', 'type Lane = m![N]\n@@fn helper() {}\n', 'type alias without ;')
sub('p21_let_without_name', 'E-PARSE-203', B, '    input\n', '    let @@= input;\n    input\n', 'let without a name')
sub('p22_args_without_comma', 'E-PARSE-203', B, '(trf)', '(trf @@trf)', 'arguments without ,')
sub('p23_missing_expression', 'E-PARSE-203', B, '    input\n', '    let a = @@;\n    input\n', 'let with no value')
sub('p24_path_without_ident', 'E-PARSE-203', B, 'LaneMode::Interleaved', 'LaneMode::@@3', 'LaneMode::3')
sub('p25_invalid_utf8', 'E-PARSE-001', B, '    input\n', '    let a = @@\xff;\n    input\n', 'an invalid UTF-8 byte')
raw('p26_unterminated_string', 'E-PARSE-001', B + 'let s = @@"no end;\n', 'unterminated string literal')
sub('p27_params_without_comma', 'E-PARSE-203', B, "m![K % 16]>,\n    trf", "m![K % 16]>\n    @@trf", 'parameters without ,')
sub('p28_return_type_missing', 'E-PARSE-203', B, ") -> ContractTensor<'l, T, f32, Chip, Cluster, Slice, m![M], m![N]> {", ") -> @@+ {", 'return arrow without a type')
sub('p29_generics_unclosed', 'E-PARSE-203', B, "fn k<'l, const T: Tu>(", "fn j<'l, const T: Tu @@{}\nfn k<'l, const T: Tu>(", 'generic list never closed')
sub('p30_if_in_kernel', 'E-PARSE-205', B, '    input\n', '    @@if true { }\n    input\n', 'if in a kernel')
sub('p31_field_number_dot', 'E-PARSE-203', B, '        .contract_packet::<m![1]>()', '        .@@-1', '. followed by -')
raw('p17_no_kernel', 'E-PARSE-206', "@@axes![A = 8];\ntype X = m![A];\nfn main() {}\n", 'no kernel at all')
raw('p33_struct_literal', 'E-PARSE-208', "axes![A = 256, B = 64, C = 63, X = 4];\n\ntype Chip = m![1];\ntype Cluster = m![1 # 2];\n\nfn k<'l, const T: Tu>(\n    input: FetchTensor<'l, T, i8, Chip, Cluster, m![A], m![B], m![C # 64]>,\n) -> SwitchTensor<'l, T, i8, Chip, Cluster, m![A / 32, X, A % 8], m![B, A / 8 % 4], m![C # 64]> {\n    input\n        .switch::<m![A / 32, X, A % 8], m![B, A / 8 % 4]>(\n            @@Config { slice1: 4, slice0: 8 },\n        )\n}\n", 'a struct literal other than SwitchConfig::…')
raw('p32_use_super_no_parent', 'E-PARSE-207', "@@use super::*;\n" + B, 'use super::* with no parent module file around it')
raw('p34_use_missing_module', 'E-PARSE-209', "use @@crate::nowhere::{V};\n" + B, 'use of a module no file holds')
raw('p35_use_missing_name', 'E-PARSE-210', B + "mod m {\n    pub type Q = m![1];\n}\nuse m::{Q, @@Nope};\n", 'use of a name the module lacks')
raw('p36_use_cycle', 'E-PARSE-211', B + "mod a {\n    pub use super::b::X;\n}\nmod b {\n    pub use super::a::X;\n}\nuse a::@@X;\n", 'imports that go round')
raw('p37_use_struct', 'E-PARSE-212', B + "mod m {\n    pub struct S;\n}\nuse m::@@S;\n", 'use of a struct')
raw('p38_module_twice', 'E-PARSE-213', B + "mod m {}\nmod @@m {}\n", 'a module defined twice')
# mapping syntax (ir/mapping)
sub('m01_unknown_axis', 'E-PARSE-107', B, 'm![K % 16]>', 'm![@@Q % 16]>', 'unknown axis in m![]')
sub('m02_axis_declared_twice', 'E-PARSE-110', B, 'axes![V = 32, M = 32, N = 8, K = 32];', 'axes![V = 32, M = 32, N = 8, K = 32, @@M = 32];', 'duplicate axis in one axes!')
# ---- type errors
sub('t01_axis_two_sizes', 'E-TYPE-001', B, 'axes![V = 32, M = 32, N = 8, K = 32];', 'axes![V = 32, M = 32, N = 8, K = 32];\naxes![@@K = 64];', 'axis with two sizes')
sub('t02_unknown_scalar', 'E-TYPE-002', B, "T, bf16, Chip, Cluster, Slice, m![M, K / 16]", "T, @@bf17, Chip, Cluster, Slice, m![M, K / 16]", 'unknown element type')
sub('t03_unknown_alias', 'E-TYPE-003', B, "T, bf16, Chip, Cluster, Slice, m![M, K / 16]", "T, bf16, @@Chipp, Cluster, Slice, m![M, K / 16]", 'unknown alias name')
sub('t04_scalar_for_mapping', 'E-TYPE-004', B, "T, bf16, Chip, Cluster, Slice, m![M, K / 16]", "T, bf16, @@bf16, Cluster, Slice, m![M, K / 16]", 'a scalar in a mapping slot')
sub('t05_mapping_for_scalar', 'E-TYPE-004', B, "T, bf16, Chip, Cluster, Slice, m![M, K / 16]", "T, @@m![1], Chip, Cluster, Slice, m![M, K / 16]", 'a mapping in the D slot')
sub('t06_too_few_tensor_args', 'E-TYPE-005', B, 'trf: &TrfTensor<bf16, Chip, Cluster, Slice, Lane, m![K]>', 'trf: @@&TrfTensor<bf16, Chip, Cluster, Slice, Lane>', 'TrfTensor with 5 arguments')
sub('t07_alias_twice', 'E-TYPE-006', B, 'type Lane = m![N];', 'type Lane = m![N];\ntype @@Lane = m![N];', 'alias defined twice')
sub('t08_alias_cycle', 'E-TYPE-007', B, 'type Lane = m![N];', 'type @@Lane = m![{ Lane }];', 'alias referring to itself')
sub('t09_unknown_method', 'E-TYPE-008', B, '.contract_packet::<m![1]>()', '.@@contract_foo::<m![1]>()', 'unknown method')
sub('t10_vector_op', 'E-VE-013', B, '.contract_packet::<m![1]>()', '.@@vector_add()', 'Vector Engine op in a kernel')
sub('t11_commit', 'E-TYPE-010', B, '(LaneMode::Interleaved)\n', '(LaneMode::Interleaved)\n        .@@commit()\n', 'commit straight after contract_lane, before commit_trim')
sub('t12_wrong_typestate', 'E-TYPE-010', B, '.contract_outer::<m![M], m![K], _, _, _>(trf)\n        .contract_packet::<m![1]>()', '.@@contract_time::<m![M]>()\n        .contract_packet::<m![1]>()', 'contract_time on a CollectTensor')
sub('t13_fetch_on_context', 'E-TYPE-010', F, '        .begin(input_dm.view())\n        .fetch::<m![A], m![K8]>()', '        .@@fetch::<m![A], m![K8]>()', 'fetch without begin')
sub('t14_too_many_type_args', 'E-TYPE-011', B, '.contract_packet::<m![1]>()', '.@@contract_packet::<m![1], m![1]>()', 'two type arguments for contract_packet')
sub('t15_cannot_infer_out_time', 'E-TYPE-012', B, "    input\n        .contract_outer::<m![M], m![K], _, _, _>(trf)", "    let x = input.@@contract_outer::<_, m![K], _, _, _>(trf);\n    input\n        .contract_outer::<m![M], m![K], _, _, _>(trf)", 'OutTime `_` without annotation')
sub('t16_cannot_infer_to_trf', 'E-TYPE-012', B, "    input\n", "    let t = input.@@to_trf();\n    input\n", 'to_trf() without annotation')
sub('t17_lane_disagrees_with_trf', 'E-TYPE-013', B, '.contract_outer::<m![M], m![K], _, _, _>', '.contract_outer::<m![M], m![K], @@m![V % 8], _, _>', 'explicit Lane differs from the TRF')
sub('t18_return_packet_mismatch', 'E-TYPE-013', B, "Slice, m![M], m![N]> {", "Slice, m![M], @@m![K % 8]> {", 'declared return Packet differs')
sub('t19_return_dtype_mismatch', 'E-TYPE-013', B, "ContractTensor<'l, T, f32,", "ContractTensor<'l, T, @@i32,", 'declared accumulator differs')
sub('t20_let_annotation_mismatch', 'E-TYPE-013', B, "    input\n        .contract_outer::<m![M], m![K], _, _, _>(trf)\n        .contract_packet::<m![1]>()", "    let p: ContractPacketTensor<f32, Chip, Cluster, Slice, Lane, m![M], @@m![K % 2]> =\n        input.contract_outer::<m![M], m![K], _, _, _>(trf).contract_packet::<m![1]>();\n    p", 'let annotation differs')
sub('t21_trf_dtype_mismatch', 'E-TYPE-013', B, '.contract_outer::<m![M], m![K], _, _, _>', '.contract_outer::<m![M], m![K], _, _, @@i8>', 'explicit TrfD differs')
sub('t22_trf_element_mismatch', 'E-TYPE-013', B, '.contract_outer::<m![M], m![K], _, _, _>', '.contract_outer::<m![M], m![K], _, @@m![K / 2], _>', 'explicit TrfElement differs')
sub('t23_operand_pair', 'E-TYPE-014', B.replace("T, bf16, Chip, Cluster, Slice, m![M, K / 16]", "T, i8, Chip, Cluster, Slice, m![M, K / 16]"), '.contract_outer::<', '.@@contract_outer::<', 'i8 stream with bf16 TRF')
sub('t24_zero_point_target', 'E-TYPE-015', F, 'fetch_zero_point_sub::<i9>(3)', 'fetch_zero_point_sub::<@@i5>(3)', 'i8 stream to i5')
sub('t25_zero_point_source', 'E-TYPE-015', F.replace('input_dm: &DmTensor<i8,', 'input_dm: &DmTensor<bf16,'), '.fetch_zero_point_sub::<i9>(3)', '.@@fetch_zero_point_sub::<i9>(3)', 'bf16 stream')
sub('t26_lane_mode_missing', 'E-TYPE-016', B, '.contract_lane::<m![M], m![N]>(LaneMode::Interleaved)', '.@@contract_lane::<m![M], m![N]>()', 'contract_lane()')
sub('t27_outer_operand_not_trf', 'E-TYPE-016', B, '(trf)', '(@@input)', 'a CollectTensor as the TRF operand')
sub('t28_zero_point_not_literal', 'E-TYPE-016', F, 'fetch_zero_point_sub::<i9>(3)', 'fetch_zero_point_sub::<i9>(@@zp)', 'zero point is a name')
sub('t29_packet_with_argument', 'E-TYPE-016', B, '.contract_packet::<m![1]>()', '.contract_packet::<m![1]>(@@trf)', 'contract_packet(trf)')
sub('t30_begin_without_view', 'E-TYPE-016', F, '.begin(input_dm.view())', '.begin(@@3)', 'begin(3)')
sub('t31_unknown_name', 'E-TYPE-017', B, '    input\n        .contract_outer', '    @@inptu\n        .contract_outer', 'misspelt parameter')
sub('t32_no_tail', 'E-TYPE-018', B, "-> ContractTensor<'l, T, f32", "-> @@ContractTensor<'l, T, f32", '')
cases[-1] = (cases[-1][0], cases[-1][1], cases[-1][2].replace('(LaneMode::Interleaved)\n}', '(LaneMode::Interleaved);\n}'), 'body ends with ;')
sub('t33_to_vrf_of_i9', 'E-TYPE-019', F.replace("ContractTensor<'l, { Tu::Main }, i32, Chip, Cluster, Slice, m![A], m![R]>", "VrfTensor<i9, Chip, Cluster, Slice, m![A, K8]>"), """        .contract_outer::<m![A], m![K8], _, _, i8>(&trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![A]>()
        .contract_lane::<m![A], m![R]>(LaneMode::Interleaved)""", "        .@@to_vrf()", 'i9 stream into the VRF')
sub('t34_trf_slice_differs', 'E-TYPE-020', B, 'trf: &TrfTensor<bf16, Chip, Cluster, Slice, Lane', 'trf: &TrfTensor<bf16, Chip, Cluster, m![V % 16], Lane', '')
cases[-1] = (cases[-1][0], cases[-1][1], cases[-1][2].replace('(trf)', '(@@trf)', 1), 'TRF Slice without the # 256 padding')
sub('t35_free_function', 'E-TYPE-021', B, '    input\n', '    let a = @@foo(input);\n    input\n', 'free function call')
raw('t36_duplicate_kernel', 'E-TYPE-022', B + B[B.index('fn k<'):].replace('fn k<', 'fn @@k<', 1), 'two kernels named k')
sub('t37_infer_in_tensor_type', 'E-TYPE-012', B, 'Slice, m![M, K / 16], m![K % 16]>', 'Slice, @@_, m![K % 16]>', '`_` in a parameter type')
sub('t38_view_of_collect', 'E-TYPE-010', F, '.begin(input_dm.view())', '.begin(trf.@@view())', 'view() of a TrfTensor')
sub('t39_fetch_three_type_args', 'E-TYPE-011', F, '.fetch::<m![A], m![K8]>()', '.@@fetch::<m![A], m![K8], m![1]>()', 'fetch with 3 type arguments')
sub('t40_unknown_scalar_in_turbofish', 'E-TYPE-002', F, '.fetch_zero_point_sub::<i9>(3)', '.fetch_cast::<@@f16>()', 'fetch_cast to f16')
sub('t41_transpose', 'E-TYPE-010', B, '.contract_packet::<m![1]>()', '.@@transpose()', 'transpose of a ContractOuterTensor')
sub('t42_to_hbm', 'E-TYPE-010', F, '(LaneMode::Interleaved)\n', '(LaneMode::Interleaved)\n        .@@to_hbm(&mut ctx.tdma)\n', 'DMA to HBM of a stream, not a DmTensor')
sub('t43_bad_lane_mode', 'E-TYPE-016', B, 'LaneMode::Interleaved', '@@LaneMode::Diagonal', 'unknown LaneMode')
sub('t44_unknown_alias_in_turbofish', 'E-TYPE-003', B, '.contract_packet::<m![1]>()', '.contract_packet::<@@Pkt>()', 'unknown alias as a type argument')
sub('t45_begin_on_tensor', 'E-TYPE-010', F, 'ctx.main\n        .begin(input_dm.view())', 'input_dm\n        .@@begin(input_dm.view())', 'begin on a DmTensor')
sub('t46_too_many_tensor_args', 'E-TYPE-005', B, "input: CollectTensor<'l, T, bf16, Chip, Cluster, Slice, m![M, K / 16], m![K % 16]>", "input: @@CollectTensor<'l, T, bf16, Chip, Cluster, Slice, m![M, K / 16], m![K % 16], m![1]>", 'CollectTensor with 7 arguments')
sub('t47_to_trf_extra_arg', 'E-TYPE-016', F, '.to_trf()', '.to_trf(@@3)', 'to_trf(3)')
sub('t48_tensor_field', 'E-TYPE-021', B, '    input\n        .contract_outer', '    input.@@time\n        .contract_outer', 'a field of a tensor')
sub('t49_vector_in_driver_is_only_a_warning_but_kernel_error', 'E-VE-013', B + "fn main() { let x = y.vector_add(); }\n", '.contract_packet::<m![1]>()', '.@@vector_relu()', 'vector op inside the kernel')
sub('t50_collect_on_begin', 'E-TYPE-010', F, ".begin(input_dm.view())\n        .fetch::<m![A], m![K8]>()", ".begin(input_dm.view())\n        .@@collect::<m![A], m![K8]>()", 'collect without fetch')

sub('t51_to_vrf_of_bf16', 'E-TYPE-019', B.replace("ContractTensor<'l, T, f32, Chip, Cluster, Slice, m![M], m![N]>", "VrfTensor<bf16, Chip, Cluster, Slice, m![M, K]>"), """        .contract_outer::<m![M], m![K], _, _, _>(trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![M]>()
        .contract_lane::<m![M], m![N]>(LaneMode::Interleaved)""", "        .@@to_vrf()", 'bf16 stream into the VRF')

sub('t52_trf_tensor_new', 'E-TYPE-024', F, ') -> ContractTensor<\'l, { Tu::Main }, i32, Chip, Cluster, Slice, m![A], m![R]> {\n', ') -> ContractTensor<\'l, { Tu::Main }, i32, Chip, Cluster, Slice, m![A], m![R]> {\n    let t: TrfTensor<i8, Chip, Cluster, Slice, Lane, m![K8]> = @@TrfTensor::new();\n', 'a TrfTensor built inside the kernel')

sub('t53_transpose_form', 'E-TYPE-009', B, '.contract_packet::<m![1]>()', '.@@transpose_packet()', 'a Transpose Engine form other than transpose')
raw('t54_switch_config', 'E-TYPE-027', "axes![A = 8, K8 = 32, R = 8];\n\ntype Chip = m![1];\ntype Cluster = m![1 # 2];\ntype Slice = m![1 # 256];\ntype Lane = m![R];\n\nfn k<'l>(\n    ctx: &'l mut Context,\n    input_dm: &DmTensor<i8, Chip, Cluster, Slice, m![A, K8]>,\n    trf_dm: &DmTensor<i8, Chip, Cluster, Slice, m![R, K8]>,\n) -> ContractTensor<'l, { Tu::Main }, i32, Chip, Cluster, Slice, m![A], m![R]> {\n    let trf: TrfTensor<i8, Chip, Cluster, Slice, Lane, m![K8]> = ctx\n        .sub\n        .begin(trf_dm.view())\n        .fetch::<m![R], m![K8]>()\n        .collect::<m![R], m![K8]>()\n        .to_trf();\n\n    ctx.main\n        .begin(input_dm.view())\n        .fetch::<m![A], m![K8]>()\n        .switch::<Slice, m![A]>(@@SwitchConfig::Broadcast1 { slice1: 4 })\n        .fetch_zero_point_sub::<i9>(3)\n        .collect::<m![A], m![K8]>()\n        .contract_outer::<m![A], m![K8], _, _, i8>(&trf)\n        .contract_packet::<m![1]>()\n        .contract_time::<m![A]>()\n        .contract_lane::<m![A], m![R]>(LaneMode::Interleaved)\n}\n", 'a Switch Engine configuration without its slice0 field')

# ---- calls between fns (docs/kernel-language.md §9): `outer` calls the kernel body `k`
C = B + """
fn outer<'l, const T: Tu>(
    input: CollectTensor<'l, T, bf16, Chip, Cluster, Slice, m![M, K / 16], m![K % 16]>,
    trf: &TrfTensor<bf16, Chip, Cluster, Slice, Lane, m![K]>,
) -> ContractTensor<'l, T, f32, Chip, Cluster, Slice, m![M], m![N]> {
    k(input, trf)
}
"""
sub('t55_call_argument_type', 'E-TYPE-025', C, '    k(input, trf)', '    k(@@trf, input)', 'the arguments of a call swapped')
sub('t56_recursive_call', 'E-TYPE-026', C, '    k(input, trf)', '    @@outer(input, trf)', 'a fn calling itself')
sub('t57_loop_bound_not_constant', 'E-TYPE-028', B, '    input\n', '    for i in 0..@@n {}\n    input\n', 'a for loop whose bound is not a constant')

# ---- Vector Engine pair mode (docs/vector-engine.md §3.5): the book's pair_add
P = """axes![A = 2048, B = 2, I = 2];

fn pair_add<'l, const T: Tu>(
    input: CollectTensor<'l, T, i32, m![1], m![B], m![A / 8], m![I], m![A % 8]>,
) -> VectorFinalTensor<'l, T, i32, m![1], m![B], m![A / 8], m![1], m![A % 8]> {
    input
        .vector_init()
        .vector_intra_slice_unzip::<I, m![1 # 2], m![1]>()
        .vector_clip_zip(ClipBinaryOpI32::AddFxp)
        .vector_final()
}
"""
sub('v02_pair_single_operand', 'E-VE-024', P, '.vector_clip_zip(ClipBinaryOpI32::AddFxp)', '.vector_fxp(@@FxpBinaryOp::MulInt, 10)\n        .vector_clip_zip(ClipBinaryOpI32::AddFxp)', 'one operand for both groups')
sub('v03_zip_without_pair', 'E-VE-025', P, '.vector_intra_slice_unzip::<I, m![1 # 2], m![1]>()\n        .vector_clip_zip(ClipBinaryOpI32::AddFxp)', '.vector_intra_slice_unzip::<I, m![1 # 2], m![1]>()\n        .vector_clip_zip(ClipBinaryOpI32::AddFxp)\n        .@@vector_clip_zip(ClipBinaryOpI32::Max)', 'a second zip')

# ---- a whole kernel writing its result into an output parameter (docs/kernel-language.md §6)
W = """use furiosa_opt_std::prelude::*;

axes![A = 8, B = 32];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];

#[device(chip = 1)]
pub fn k(
    ctx: &mut Context,
    input: &HbmTensor<i8, Chip, m![A, B]>,
    output: &mut HbmTensor<i8, Chip, m![A, B]>,
) {
    let input_dm = input.to_dm::<Cluster, Slice, m![A, B]>(&mut ctx.tdma);
    input_dm.view().to_hbm_view(&mut ctx.tdma, output.view_mut());
}
"""
raw('t58_view_mut_not_mut', 'E-TYPE-029', W.replace('output: &mut HbmTensor', 'output: &HbmTensor').replace('output.view_mut()', 'output.@@view_mut()'), 'view_mut of a parameter not written &mut')
sub('t59_to_hbm_view_destination', 'E-TYPE-029', W, 'output.view_mut());', 'input.@@view());', 'to_hbm_view into a view that is not an output parameter')
sub('t60_to_hbm_view_dtype', 'E-TYPE-013', W, 'output: &mut HbmTensor<i8,', 'output: &mut HbmTensor<@@bf16,', 'to_hbm_view into an output parameter of another scalar type')

C2 = """use furiosa_opt_std::prelude::*;

axes![A = 8, B = 32];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];

#[device(chip = 1)]
pub fn k(ctx: &mut Context, input: &HbmTensor<i8, Chip, m![A, B]>) -> HbmTensor<i8, Chip, m![A, B]> {
    let input_dm = input.to_dm::<Cluster, Slice, m![A, B]>(&mut ctx.tdma);
    let mut out: DmTensor<i8, Chip, Cluster, Slice, m![A, B]> = DmTensor::new();
    ctx.main
        .begin(input_dm.view())
        .fetch::<m![A], m![B]>()
        .collect::<m![A], m![B]>()
        .commit_trim::<m![B]>()
        .commit_view(out.view_mut());
    out.to_hbm(&mut ctx.tdma)
}
"""
sub('t61_commit_view_destination', 'E-TYPE-029', C2, '.commit_view(out.view_mut());', '.commit_view(out.@@view());', 'commit_view into a view that is not a view_mut')

seen=set()
for name, code, text, what in cases:
    assert name not in seen, name
    seen.add(name)
    assert text.count('@@') == 1, name
    i = text.index('@@')
    body = text.replace('@@', '', 1)
    if name == 'p17_no_kernel':
        line, col = 1, 1
    else:
        line = body[:i].count('\n') + 2  # +1 for the expect line
        col = i - (body.rfind('\n', 0, i) + 1) + 1
    hdr = f"// expect: {code} {line}:{col}   ({what})\n"
    data = (hdr + body).encode('latin-1') if '\xff' in body else (hdr + body).encode('utf-8')
    open(os.path.join(OUT, name + '.rs'), 'wb').write(data)
print(len(cases))
