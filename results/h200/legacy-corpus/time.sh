#!/usr/bin/env bash
# Kernel time of each kernel as written against its rewrite, on the largest
# shape gpu.sh checks it at, from the builds gpu.sh leaves in
# build/legacy-corpus: the sum of gpu__time_duration over every kernel the
# driver's one call launches, under Nsight Compute (clocks at base, caches
# flushed before each kernel). Prints a table; writes OUT/times.json.
#   bash results/h200/legacy-corpus/time.sh OUT     (after gpu.sh, on the GPU machine)
set -u
out=${1:?usage: time.sh OUT}
mkdir -p "$out"
B=build/legacy-corpus
declare -A SHAPE=(
  [batched_strided_half]="1000 1000 520 2" [matrixmul_sample_half]="1024 1024 1024 32"
  [dispatch_from_function_template]="1000 1000 520 32" [warptile_bf16]="1024 1024 1024"
  [dynamic_smem_blocked_half]="1024 1024 1024" [blocktile_local_bias_relu]="1024 1024 1024"
  [blocktile_leaky_update_bf16]="1024 1024 1024"
  [wmma_blog_guarded_scratch_bf16]="1024 1024 1024"
  [coarsened_rows_checked_bf16]="1000 1000 1000" [pair_reads_bf16]="1000 1000 1000"
  [wmma_cfrag_blend_dbuf_bf16]="1024 1024 1024"
  [p2_half2_smem_dot_half]="1000 1000 1000" [p2_pmpp_coarsened_half]="1024 1024 1024"
  [p10_wmma_blog_colmajor_half_scratch]="1024 1024 1024" [p13_wmma_blog_scratch_64x2_half]="1024 1024 1024"
  [vec_transposed_half_view]="1024 1024 1024" [blocked_staged_store_half]="1024 1024 1024"
  [prefetch_regs_half]="1024 1024 1024" [double_buffer_vec_bf16]="1024 1024 1024"
  [float4_regs_prefetch_half]="1024 1024 1024"
  [return_after_loop_half]="1024 1024 1024" [vec4_temps_tf32]="1024 1024 1024"
  [beta_zero_branch_half]="1024 1024 1024 0" [blocked_beta_zero_bf16]="1024 1024 1024 0" [blocked_beta_if_bf16]="1024 1024 1024 0.5" [early_return_blocked_bf16]="1024 1024 1024 0"
  [k4_asserts_bf16]="1024 1024 1024" [llmc_bias_gelu_bf16]="1024 1024 1024"
  [course_min_kmax_half]="1024 1024 1024" [noelse_whole_k_bf16]="1024 1024 1024"
  [widen_float_tiles_half]="1024 1024 1024" [double_buffer_toggle_half]="1024 1024 1024"
  [addmm_betaif_bf16]="1024 1024 1024 0.5"
  [vec_smem_reads_bf16]="1024 1024 1024"
  [cp_async_tiles_bf16]="1024 1024 1024"
  [cp_async_in_flight_half]="1024 1024 1024"
  [cp_async_zfill_bf16]="1000 1000 1000"
  [cp_async_zfill_ptx_half]="1000 1000 1000 0.5"
  [half2_pairs_epilogue]="1024 1024 1024" [course_scalar_caches_half]="1024 1024 1024"
  [checked_uint4_bf16]="1000 1000 1000" [cp_async_one_barrier_half]="1000 1000 1000"
  [wmma_one_barrier_bf16]="1024 1024 1024" [toggled_stage_bf16]="1024 1024 1024" [cp_async_helpers_half]="1000 1000 1000"
  [cp_async_wait_all_half]="1000 1000 1000" [toggle_advance_bf16]="1024 1024 1024"
  [multistage_pipeline_bf16]="1000 1000 1000" [cuda_pipeline_bf16]="1000 1000 1000" [wmma_pipeline_half]="1024 1024 1024" [bottom_wait_ring_bf16]="1000 1000 1000" [tail_wait_else_half]="1000 1000 1000" [multistage_ptx_half]="1000 1000 1000 0.5" [wmma_ring_half]="1024 1024 1024" [wmma_dynamic_ring_half]="1024 1024 1024" [dynamic_ring_bf16]="1000 1000 1000" [dynamic_stage_pointers_bf16]="1000 1000 1000" [wmma_stage_pointers_half]="1024 1024 1024" [optional_bias_blocked_bf16]="1024 1024 1024"
  [negated_zfill_half]="1000 1000 1000" [shared_negated_bf16]="1000 1000 1000"
  [write_stage_regs_bf16]="1024 1024 1024"
  [float4_checked_epilogue_bf16]="1024 1024 1024"
  [cp_async_ptx_bf16]="1024 1024 1024 0.5"
  [wmma_shift_warps_half]="1024 1024 1024"
  [template_helpers_half_bf16]="1024 1024 1024"
  [wmma_warp_grid_bf16]="1024 1024 1024 0.5"
  [prefetch_advance_flat_bf16]="1024 1024 1024"
  [prefetch_advance_end_half]="1024 1024 1024"
  [from_one_float2_half]="1024 1024 1024"
  [from_one_wmma_half]="1024 1024 1024"
  [zero_then_copy_tn_half]="1000 1000 1000" [blocked_zero_fill_bf16]="1000 1000 1000"
  [wmma_loop_guard_half]="1024 1024 1024" [smem_block_guard_bf16]="1000 1000 1000"
  [p2_splitk_atomic_half]="512 512 8192 8" [p30_regblock_splitk_atomic_bf16]="512 512 8192 2048"
  [p31_splitk_griddim_macros_half]="512 512 8192 8" [p32_regblock_splitk_tiles_bf16]="512 512 8192 8"
)
for exe in "$B"/*.orig; do
  x=$(basename "$exe" .orig)
  # ONLY="x y ...": just those kernels.
  [[ -n ${ONLY:-} && " $ONLY " != *" $x "* ]] && continue
  s=${SHAPE[$x]:-}
  if [[ -z $s ]]; then
    case $x in
    guide_* | int4_* | k[3-6]_* | wmma_*) s="1024 1024 1024" ;;
    *) s="1000 1000 520" ;;
    esac
  fi
  for v in orig new; do
    timeout 120 ncu --csv --metrics gpu__time_duration.sum "$B/$x.$v" $s "$out/$x.$v.f32" >"$out/$x.$v.csv" 2>"$out/$x.$v.err"
    rm -f "$out/$x.$v.f32"
  done
  echo "$x ${s// /x}"
done >"$out/list.txt"
python3 - "$out" <<'PY'
import csv, json, os, sys
out = sys.argv[1]
rows = []
for line in open(os.path.join(out, "list.txt")):
    x, shape = line.split()
    t = {}
    for v in ("orig", "new"):
        lines = [l for l in open(os.path.join(out, f"{x}.{v}.csv")) if l.startswith('"')]
        total, names = 0.0, set()
        for r in csv.DictReader(lines):
            if r.get("Metric Name") != "gpu__time_duration.sum":
                continue
            scale = {"ns": 1e-3, "nsecond": 1e-3, "us": 1.0, "usecond": 1.0,
                     "ms": 1e3, "msecond": 1e3}.get(r["Metric Unit"], float("nan"))
            total += float(r["Metric Value"].replace(",", "")) * scale
            names.add(r["Kernel Name"].split("(")[0][:48])
        t[v] = (total, sorted(names))
    rows.append({"kernel": x, "shape": shape, "orig_us": t["orig"][0], "new_us": t["new"][0],
                 "speedup": t["orig"][0] / t["new"][0] if t["new"][0] else None,
                 "orig_kernels": t["orig"][1], "new_kernels": t["new"][1]})
json.dump(rows, open(os.path.join(out, "times.json"), "w"), indent=1)
print(f"{'kernel':30} {'shape':16} {'as written us':>14} {'rewritten us':>13} {'speed-up':>9}")
for r in rows:
    sp = f"{r['speedup']:9.1f}" if r["speedup"] else f"{'-':>9}"
    print(f"{r['kernel']:30} {r['shape']:16} {r['orig_us']:14.1f} {r['new_us']:13.1f} {sp}")
PY
