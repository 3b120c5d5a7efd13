"""Checks the cooperative convolution probes (p03, p04, p05, p06 of
results/h200/probes/untested) as written and rewritten against PyTorch's
float32 conv2d (outputs poisoned with NaN first, relative Frobenius error
under 1e-2), and times both on the large shapes (median of 9 rounds of
batches). Usage: check.py BUILD_DIR OUT_JSON [small]; with `small`, the
first two shapes alone and no timing (for compute-sanitizer)."""
import ctypes
import json
import statistics
import sys

import torch
import torch.nn.functional as F

# probe: (input dtype, output dtype, bias dtype or None (a bias and ReLU),
# weights R x S x C x K (HWIO) rather than K x R x S x C)
PROBES = {
    "p03": (torch.bfloat16, torch.float32, None, False),
    "p04": (torch.float16, torch.float16, torch.float16, False),
    "p05": (torch.bfloat16, torch.bfloat16, torch.float32, False),
    "p06": (torch.float16, torch.float32, None, True),
}
# (N, H, W, C, K, R, S, pad, stride)
SHAPES = [(2, 9, 11, 64, 96, 3, 3, 1, 1), (1, 16, 16, 96, 40, 3, 3, 1, 2),
          (2, 15, 13, 64, 96, 5, 5, 2, 1), (3, 20, 17, 128, 64, 3, 3, 0, 1)]
# p06 stores whole 16 x 16 fragments: its pixels N * P * Q and filters K
# must be multiples of 16 (its launcher's comment says so).
WHOLE_FRAGMENTS = [(2, 8, 8, 64, 96, 3, 3, 1, 1), (1, 16, 16, 96, 48, 3, 3, 1, 2),
                   (2, 16, 12, 64, 32, 5, 5, 2, 1), (4, 12, 12, 128, 64, 3, 3, 0, 1)]
TIME = [(32, 56, 56, 64, 64, 3, 3, 1, 1), (32, 28, 28, 128, 128, 3, 3, 1, 1)]


def case(probe, s, gen):
    dt, ot, bt, hwio = PROBES[probe]
    n, h, w, c, k, r, sw, pad, stride = s
    x = torch.randn(n, h, w, c, device="cuda", generator=gen).to(dt)
    wt = torch.randn(k, r, sw, c, device="cuda", generator=gen).to(dt)
    if hwio:  # the same filters, stored R x S x C x K
        wt = wt.permute(1, 2, 3, 0).contiguous()
    bias = torch.randn(k, device="cuda", generator=gen).to(bt) if bt else None
    p = (h + 2 * pad - r) // stride + 1
    q = (w + 2 * pad - sw) // stride + 1
    krsc = wt.permute(3, 0, 1, 2) if hwio else wt
    ref = F.conv2d(x.float().permute(0, 3, 1, 2), krsc.float().permute(0, 3, 1, 2),
                   stride=stride, padding=pad).permute(0, 2, 3, 1)
    if bias is not None:
        ref = torch.relu(ref + bias.float())
    return x, wt, bias, (n, p, q, k), ot, ref, 2.0 * n * p * q * k * r * sw * c


def call(lib, s, x, wt, bias, y):
    n, h, w, c, k, r, sw, pad, stride = s
    v = lambda t: ctypes.c_void_p(t.data_ptr() if t is not None else 0)
    rc = lib.probe_conv(v(x), v(wt), v(bias), v(y), n, h, w, c, k, r, sw, pad, stride,
                        ctypes.c_void_p(torch.cuda.current_stream().cuda_stream))
    if rc:
        raise RuntimeError(f"cudaError {rc}")


def check(lib, s, x, wt, bias, shape, ot, ref):
    y = torch.full(shape, float("nan"), device="cuda", dtype=ot)
    call(lib, s, x, wt, bias, y)
    torch.cuda.synchronize()
    finite = bool(torch.isfinite(y).all())
    rel = float((y.float() - ref).norm() / ref.norm()) if finite else float("inf")
    return finite and rel < 1e-2, rel


def timed(lib, s, x, wt, bias, shape, ot, reps):
    y = torch.empty(shape, device="cuda", dtype=ot)
    times = []
    for _ in range(9):
        e = [torch.cuda.Event(enable_timing=True) for _ in range(2)]
        e[0].record()
        for _ in range(reps):
            call(lib, s, x, wt, bias, y)
        e[1].record()
        torch.cuda.synchronize()
        times.append(e[0].elapsed_time(e[1]) / reps * 1e3)
    return statistics.median(times)


def main():
    build, out = sys.argv[1], sys.argv[2]
    torch.backends.cudnn.allow_tf32 = False
    gen = torch.Generator(device="cuda")
    gen.manual_seed(7)
    small = len(sys.argv) > 3 and sys.argv[3] == "small"
    rows, ok = [], True
    for probe in PROBES:
        libs = {v: ctypes.CDLL(f"{build}/{probe}.{v}.so") for v in ("orig", "ws")}
        own = WHOLE_FRAGMENTS if probe == "p06" else SHAPES
        for s in (own[:2] if small else own + TIME):
            x, wt, bias, shape, ot, ref, flops = case(probe, s, gen)
            row = {"probe": probe, "shape": list(s)}
            for v, lib in libs.items():
                row[v + "_pass"], row[v + "_err"] = check(lib, s, x, wt, bias, shape, ot, ref)
                ok &= row[v + "_pass"]
            if s in TIME:
                row["orig_us"] = timed(libs["orig"], s, x, wt, bias, shape, ot, 3)
                row["ws_us"] = timed(libs["ws"], s, x, wt, bias, shape, ot, 50)
                row["speedup"] = row["orig_us"] / row["ws_us"]
            rows.append(row)
    with open(out, "w") as f:
        json.dump({"gpu": torch.cuda.get_device_name(0), "results": rows}, f, indent=1)
    print(f"{'probe':>5} {'shape':>36} {'orig':>5} {'ws':>5} {'ws err':>8} {'orig us':>9} "
          f"{'ws us':>8} {'x':>6}")
    for r in rows:
        print(f"{r['probe']:>5} {str(tuple(r['shape'])):>36} {str(r['orig_pass']):>5} "
              f"{str(r['ws_pass']):>5} {r['ws_err']:8.1e} {r.get('orig_us', 0):9.1f} "
              f"{r.get('ws_us', 0):8.1f} {r.get('speedup', 0):6.1f}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
