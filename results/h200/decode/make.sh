#!/usr/bin/env bash
# Writes the inputs of gpu.sh into GEN_DIR (default gen/decode): the example's
# rewrite (gemm.ws.cu); kernels of 64 x {16,32,64} tiles made from
# examples/gemm/gemm.cu (one consumer warpgroup, narrow(off)) and rewritten
# (short-64xNsS.ws.cu); and copies of those rewrites edited by hand so that
# each ring slot holds H consecutive K steps of 64 (short-64xNkHsS.ws.cu: H
# boxes per operand per slot, one wgmma group per box, S stages), which the
# tool did not emit itself.
#   [STEPS_TOOL=path] bash results/h200/decode/make.sh [GEN_DIR]
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
tool=${TAWA_REWRITE:-build/tool/tawa-rewrite/tawa-rewrite}
gen=${1:-gen/decode}
mkdir -p "$gen"
"$tool" examples/gemm/gemm.cu -o "$gen/gemm.ws.cu" -- -Iexamples/gemm
for v in "64 16 16" "64 32 16" "64 32 8" "64 64 12"; do
  read -r bm bn stages <<<"$v"
  src=$gen/gemm-${bm}x${bn}s$stages.cu
  sed -e "s/blockIdx.y \* 128, n0 = blockIdx.x \* 256/blockIdx.y * $bm, n0 = blockIdx.x * $bn/" \
    -e "s/Accumulator<float, 128, 256>/Accumulator<float, $bm, $bn>/" \
    -e "s/stages(4) consumers(2)/stages($stages) consumers(1) narrow(off)/" \
    -e "s/load<128, 64>(A/load<$bm, 64>(A/" -e "s/load<256, 64>(B/load<$bn, 64>(B/" \
    -e "s/ceil_div(C.cols, 256), tawa::ceil_div(C.rows, 128)/ceil_div(C.cols, $bn), tawa::ceil_div(C.rows, $bm)/" \
    examples/gemm/gemm.cu >"$src"
  "$tool" "$src" -o "$gen/short-${bm}x${bn}s$stages.ws.cu" -- -Iexamples/gemm
done
# deepen FROM BN H STAGES: the first kernel of FROM with H K steps per slot.
deepen() {
  python3 - "$gen/short-64x$1s$2.ws.cu" "$1" "$3" "$4" "$gen/short-64x$1k$3s$4.ws.cu" <<'PY'
import re, sys
path, bn, h, stages, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
src = open(path).read()
i, j = src.index("struct gemm_nt_shared"), src.index("struct gemm_nt_cluster_shared")
body = src[i:j]
body = body.replace("a[64 * 64];", f"a[{h} * 64 * 64];").replace(f"b[{bn} * 64];", f"b[{h} * {bn} * 64];")
body = re.sub(r"a_b\[\d+\];", f"a_b[{stages}];", body)
body = re.sub(r"Aref<\d+>", f"Aref<{stages}>", body)
body = re.sub(r"kStages = \d+", f"kStages = {stages}", body)
body = body.replace("k0 += 64", f"k0 += {64 * h}")
put = re.search(r"smem\.a_b_aref\.put\(a_b,\s*tawa::rt::edge_bytes<64>\(A_tensor_map_edge, m0\) \+\s*"
                r"sizeof\(slot\.b\)\);\s*tawa::rt::tma_load_rows<64, false>\(\s*slot\.a, &A_tensor_map, "
                r"A_tensor_map_edge,\s*smem\.a_b_aref\.full_barrier\(a_b\), k0, m0, 0\);\s*"
                r"tawa::rt::tma_load_2d\(slot\.b, &B_tensor_map,\s*smem\.a_b_aref\.full_barrier\(a_b\), "
                r"k0, n0\);", body)
body = body.replace(put.group(0), f"""smem.a_b_aref.put(a_b, {h} * tawa::rt::edge_bytes<64>(A_tensor_map_edge, m0) + sizeof(slot.b));
          for (int h = 0; h < {h}; ++h) {{
            tawa::rt::tma_load_rows<64, false>(slot.a + h * 64 * 64, &A_tensor_map, A_tensor_map_edge,
                                               smem.a_b_aref.full_barrier(a_b), k0 + 64 * h, m0, 0);
            tawa::rt::tma_load_2d(slot.b + h * {bn} * 64, &B_tensor_map, smem.a_b_aref.full_barrier(a_b),
                                  k0 + 64 * h, n0);
          }}""")
mma = re.search(r"tawa::rt::wgmma_nt<64>\(acc, slot\.a \+ consumer \* 64 \* 64, slot\.b,\s*"
                r"/\*accumulate=\*/k_steps > 0\);", body)
body = body.replace(mma.group(0), f"""for (int h = 0; h < {h}; ++h) {{
          tawa::rt::wgmma_nt<64>(acc, slot.a + h * 64 * 64, slot.b + h * {bn} * 64,
                                 /*accumulate=*/k_steps > 0 || h > 0);
        }}""")
open(out, "w").write(src[:i] + body + src[j:])
PY
}
deepen 64 12 2 6
deepen 64 12 4 3
deepen 32 16 2 8
deepen 32 16 4 4
deepen 16 16 4 5
# short-64x32k4x: short-64x32k4s4 with the slot taken by acquire, each step's
# bytes added by expect and the slot committed after the fourth (the aref
# calls of steps.patch, results/h100/decode/).
python3 - "$gen/short-64x32k4s4.ws.cu" "$gen/short-64x32k4x.ws.cu" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
old = ("smem.a_b_aref.put(a_b, 4 * tawa::rt::edge_bytes<64>(A_tensor_map_edge, m0) + sizeof(slot.b));\n"
       "          for (int h = 0; h < 4; ++h) {")
s = s.replace(old, "smem.a_b_aref.acquire(a_b);\n          for (int h = 0; h < 4; ++h) {\n"
              "            smem.a_b_aref.expect(a_b, tawa::rt::edge_bytes<64>(A_tensor_map_edge, m0) + sizeof(slot.b) / 4);", 1)
m = re.search(r"k0 \+ 64 \* h, n0\);\s*\}", s)
s = s.replace(m.group(0), m.group(0) + "\n          smem.a_b_aref.commit(a_b);", 1)
open(sys.argv[2], "w").write(s)
PY
# With the tool of steps.patch: gemm-new.ws.cu, the example's rewrite, and
# gemm-newp.ws.cu, the same with its 32-column few-rows kernel's slot armed
# once for all of its steps (put) instead of per step (expect, commit).
if [[ -n ${STEPS_TOOL:-} ]]; then
  "$STEPS_TOOL" examples/gemm/gemm.cu -o "$gen/gemm-new.ws.cu" -- -Iexamples/gemm
  python3 - "$gen/gemm-new.ws.cu" "$gen/gemm-newp.ws.cu" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
i = s.index("__global__ void __launch_bounds__(256, 1) gemm_nt_narrow32_rows64(")
j = s.index("inline cudaError_t gemm_nt_narrow32_rows64_launch")
b = s[i:j]
m = re.search(r"if \(a_b_step == 0\) \{\s*smem\.a_b_aref\.acquire\(a_b\);\s*\}\s*smem\.a_b_aref\.expect\(a_b,\s*"
              r"tawa::rt::edge_bytes<64>\(A_tensor_map_edge, m0\) \+\s*sizeof\(slot\.b\) / 4\);", b)
b = b.replace(m.group(0), "if (a_b_step == 0) {\n            smem.a_b_aref.put(a_b, min(4, min(work.k_end, trips) - "
              "(k_iter - 1)) * (tawa::rt::edge_bytes<64>(A_tensor_map_edge, m0) + sizeof(slot.b) / 4));\n          }")
for m in re.finditer(r"\+\+a_b_step == 4\) \{\s*smem\.a_b_aref\.commit\(a_b\);", b):
    b = b.replace(m.group(0), "++a_b_step == 4) {", 1)
m = re.search(r"fewer steps\.\s*if \(a_b_step > 0\) \{\s*smem\.a_b_aref\.commit\(a_b\);", b)
b = b.replace(m.group(0), "fewer steps.\n        if (a_b_step > 0) {", 1)
open(sys.argv[2], "w").write(s[:i] + b + s[j:])
PY
fi
