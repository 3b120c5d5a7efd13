"""Adds to a rewritten bf16 NT GEMM the few-rows cluster twin as a cluster
along x that shares A: the C CTAs of a cluster take C adjacent column parts
of one 64-row part, each loads 64 / C of A's box rows into all of them, and
B's box each its own. An experiment only: the walk is the cluster-1 walk
grouped C columns wide, so the launch must have a multiple of C column
parts. TAWA_XC=C in the environment runs it in place of the cluster twin
along y. Usage: patch.py IN OUT PREFIX [C...] (default C: 2)"""
import re, sys

src, dst, k = sys.argv[1], sys.argv[2], sys.argv[3]
sizes = [int(c) for c in (sys.argv[4:] or ["2"])]
s = open(src).read()
name = f"{k}_narrow64_rows64_cluster"
begin = s.index(f"__global__ void __launch_bounds__(256, 1) {name}(")
end = s.index(f"inline cudaError_t {name}_launch(")
end = s.index("\n}\n", end) + 3
orig = s[begin:end]


def along_x(c):
    body = orig
    rows = 64 // c
    for ind in ("      ", "    "):
        old = (f"for (int t = blockIdx.x / kCluster; t < schedule.count();\n"
               f"{ind}     t += gridDim.x / kCluster) {{\n"
               f"{ind}  const uint3 tile = schedule.tile(t, rank);\n"
               f"{ind}  const int part = schedule.part(t);\n"
               f"{ind}  const int row_part = schedule.row_part(t, rank);")
        assert old in body, "walk"
        body = body.replace(old,
               f"for (int u = blockIdx.x / kCluster; kCluster * u < schedule.count();\n"
               f"{ind}     u += gridDim.x / kCluster) {{\n"
               f"{ind}  const int t = kCluster * u + rank;\n"
               f"{ind}  const uint3 tile = schedule.tile(t);\n"
               f"{ind}  const int part = schedule.part(t);\n"
               f"{ind}  const int row_part = schedule.row_part(t);")
    body = body.replace("constexpr int kCluster = 2;", f"constexpr int kCluster = {c};")
    body = re.sub(r" \|\|\n\s*!schedule\.in_grid\(t, rank\);", ";", body)
    assert "in_grid" not in body, "in_grid"
    m = re.search(r"tawa::rt::tma_load_2d\(\s*slot\.a \+ tawa_step \* 64 \* 64, &A_tensor_map,\s*"
                  r"smem\.a_b_aref\.full_barrier\(a_b\), k0,\s*(tawa::rt::box_row<64>\([^;]*?C\.rows\))\);\n",
                  body, re.S)
    assert m, "a load"
    body = body.replace(m.group(0),
        f"tawa::rt::tma_load_2d_multicast(\n"
        f"                slot.a + tawa_step * 64 * 64 + rank * {rows} * 64, &A_tensor_map,\n"
        f"                smem.a_b_aref.full_barrier(a_b), k0, {m.group(1)} + rank * {rows},\n"
        f"                /*cta_mask=*/{(1 << c) - 1});\n")
    m = re.search(r"tawa::rt::tma_load_2d_multicast\(\s*slot\.b \+ tawa_step \* 64 \* 64 \+ rank \* 32 \* 64,"
                  r"\s*&B_tensor_map,\s*smem\.a_b_aref\.full_barrier\(a_b\), k0, (.*?) \+ rank \* 32,"
                  r"\s*/\*cta_mask=\*/0b11\);\n", body, re.S)
    assert m, "b load"
    body = body.replace(m.group(0),
        f"tawa::rt::tma_load_2d(slot.b + tawa_step * 64 * 64, &B_tensor_map,\n"
        f"                smem.a_b_aref.full_barrier(a_b), k0, {m.group(1)});\n")
    for old, new in (
            ("make_tensor_map(&A_tensor_map, A_aligned, 64, 64)",
             f"make_tensor_map(&A_tensor_map, A_aligned, {rows}, 64)"),
            ("make_tensor_map(&B_tensor_map, B_aligned, 32, 64)",
             "make_tensor_map(&B_tensor_map, B_aligned, 64, 64)"),
            ("grid, /*group=*/8, /*along_y=*/true, /*cluster=*/2,",
             f"grid, /*group=*/{c}, /*along_y=*/false, /*cluster=*/1,"),
            ("persistent_ctas(schedule.count(), schedule.cluster, &ctas)",
             f"persistent_ctas(schedule.count() / {c}, {c}, &ctas)"),
            ("shared_bytes, stream, schedule.cluster,", f"shared_bytes, stream, {c},")):
        assert old in body, old
        body = body.replace(old, new)
    return body.replace(name, f"{name}_x{c}").replace(f"{name}_x{c}_shared", f"{name}_shared")


added = "".join(along_x(c) + "\n" for c in sizes)
launch = f"inline cudaError_t {name}_launch("
i = s.index(") {\n", s.index(launch, begin)) + 4
dispatch = "".join(
    f"  if (const char *xc = std::getenv(\"TAWA_XC\"); xc && std::atoi(xc) == {c})\n"
    f"    return {name}_x{c}_launch(grid, block, shared, stream, A, B, C);\n" for c in sizes)
s = s[:i] + dispatch + s[i:]
s = s[:begin] + added + s[begin:]
open(dst, "w").write(s)
print(f"{name}: along x in clusters of {sizes}")
