"""Adds to a rewritten bf16 NT GEMM the 64-column ping-pong kernel (128 x 64
CTA tiles) in clusters along x that share A: the C CTAs of a cluster take C
adjacent column parts of one row of tiles, each loads 128 / C of A's box rows
into all of them (plain boxes: the edge maps' shorter boxes are not used),
B's box each its own. An experiment only: the walk is the cluster-1 walk
grouped C columns wide, so the launch must have a multiple of C column
parts. TAWA_XP=C in the environment runs it in place of the ping-pong
kernel. Usage: patch_pingpong.py IN OUT PREFIX C..."""
import sys

src, dst, k = sys.argv[1], sys.argv[2], sys.argv[3]
sizes = [int(c) for c in sys.argv[4:]]
s = open(src).read()
name = f"{k}_narrow64_pingpong"
begin = s.index(f"__global__ void __launch_bounds__(384, 1) {name}(")
end = s.index(f"inline cudaError_t {name}_launch(")
end = s.index("\n}\n", end) + 3
orig = s[begin:end]


def sub(body, old, new, count=1):
    assert body.count(old) == count, (old, body.count(old))
    return body.replace(old, new)


def along_x(c):
    rows = 128 // c
    b = orig
    b = sub(b, "constexpr int kConsumers = 2;\n",
            f"constexpr int kConsumers = 2;\n  constexpr int kCluster = {c};\n")
    b = sub(b, "init(/*consumer_arrivals=*/1);", "init(kCluster);")
    b = sub(b, "  }\n  __syncthreads();\n",
            "  }\n  tawa::rt::cluster_sync();\n  const int rank = tawa::rt::cluster_ctarank();\n")
    b = sub(b, "for (int t = blockIdx.x; t < schedule.count(); t += gridDim.x) {\n",
            "for (int u = blockIdx.x / kCluster; kCluster * u < schedule.count();\n"
            "           u += gridDim.x / kCluster) {\n        const int t = kCluster * u + rank;\n")
    b = sub(b, "for (int t = blockIdx.x; t < schedule.count(); t += gridDim.x, ++turn) {\n",
            "for (int u = blockIdx.x / kCluster; kCluster * u < schedule.count();\n"
            "         u += gridDim.x / kCluster, ++turn) {\n      const int t = kCluster * u + rank;\n")
    b = sub(b, "if (t + gridDim.x < schedule.count()) {",
            "if (kCluster * (u + gridDim.x / kCluster) < schedule.count()) {")
    b = sub(b, "tawa::rt::edge_bytes<128>(A_tensor_map_edge, m0) +\n                                sizeof(slot.b)",
            "sizeof(slot.a) + sizeof(slot.b)")
    b = sub(b, "tawa::rt::tma_load_rows<128, false>(\n              slot.a, &A_tensor_map, A_tensor_map_edge,\n"
               "              smem.a_b_aref.full_barrier(a_b), k0, m0, 0);",
            f"tawa::rt::tma_load_2d_multicast(\n              slot.a + rank * {rows} * 64, &A_tensor_map,\n"
            f"              smem.a_b_aref.full_barrier(a_b), k0, m0 + rank * {rows},\n"
            f"              /*cta_mask=*/{(1 << c) - 1});")
    n = b.count("smem.a_b_aref.consumed(a_b_release);")
    assert n == 2, n
    b = b.replace("smem.a_b_aref.consumed(a_b_release);",
                  "smem.a_b_aref.consumed_in_cluster<kCluster>(a_b_release);")
    i = b.index("\n}\n") + 1
    b = b[:i] + "  tawa::rt::cluster_sync();\n" + b[i:]
    b = sub(b, "make_tensor_map(&A_tensor_map, A_aligned, 128, 64)",
            f"make_tensor_map(&A_tensor_map, A_aligned, {rows}, 64)")
    b = sub(b, "grid, /*group=*/8, /*along_y=*/true, /*cluster=*/1,",
            f"grid, /*group=*/{c}, /*along_y=*/false, /*cluster=*/1,")
    b = sub(b, "persistent_ctas(schedule.count(), schedule.cluster, &ctas)",
            f"persistent_ctas(schedule.count() / {c}, {c}, &ctas)")
    i = b.index(f"{name}<<<ctas, 384, shared_bytes, stream>>>(")
    j = b.index(");\n", i)
    args = b[b.index("(", b.index(">>>", i)) + 1:j]
    b = b[:i] + (f"return tawa::rt::launch_clustered({name}, ctas, 384, shared_bytes, stream, {c},"
                 f" {args});\n  (void)0") + b[j + 1:]
    return b.replace(name, f"{name}_x{c}").replace(f"{name}_x{c}_shared", f"{name}_shared")


added = "".join(along_x(c) + "\n" for c in sizes)
i = s.index(") {\n", s.index(f"inline cudaError_t {name}_launch(", begin)) + 4
s = s[:i] + "".join(
    f"  if (const char *xp = std::getenv(\"TAWA_XP\"); xp && std::atoi(xp) == {c})\n"
    f"    return {name}_x{c}_launch(grid, block, shared, stream, A, B, C);\n" for c in sizes) + s[i:]
s = s[:begin] + added + s[begin:]
open(dst, "w").write(s)
print(f"{name}: along x in clusters of {sizes}")
