#!/usr/bin/env python3
"""Checks and times the implicit-GEMM convolution of examples/conv against
PyTorch's (cuDNN's) in one process.

usage: bench.py --lib LIB.so [--ref REF.so] --out DIR [--shapes NAME,...]
                [--check-only] [--pairs N]

LIB.so is examples/conv/conv.cu rewritten by tawa-rewrite and built as a
shared library; REF.so, where given, the file as written (tile.h's portable
reference), checked on the small shapes only. Both are called through
tawa_conv2d_bf16 (examples/conv/conv.h) on PyTorch's current stream.

For each shape (N, H, W, C -> K, R x S filter, padding, stride, dilation):
  - X (N, H, W, C), Wt (K, R, S, C) fresh random normal bf16, channels last;
    Y (N, P, Q, K) filled with NaN first, so an element left unwritten fails;
  - reference: torch.nn.functional.conv2d on the inputs upcast to float32
    (TF32 off); pass: ||Y - ref||_F / ||ref||_F < 1e-2, every element finite,
    and 64 outputs recomputed in float64 on the host within 1e-2 of
    |ref| + mag (mag: the root of the sum of the squared products), the
    spot check of examples/gemm/main.cu;
  - timing (unless --check-only): warm-up, then --pairs rounds, each a
    batch of calls of ours then one of PyTorch's bf16 channels-last conv2d
    (which runs cuDNN), each batch about 1 ms of GPU time between CUDA
    events, each call on the next of several input sets that together
    exceed twice the L2 size; medians of the time per call; TFLOP/s =
    2 N P Q K R S C / time; ratio = ours / PyTorch in TFLOP/s (> 1: faster).
Writes DIR/conv.json and prints a table last. Exit status 0 when every check
passes, 1 otherwise.
"""

import argparse
import ctypes
import json
import math
import os
import statistics
import sys

import torch
import torch.nn.functional as F

# name: (N, H, W, C, K, R, S, pad, stride, dil)
SHAPES = {
    # ResNet-50's 3 x 3 convolutions at batch 32, and its stride-2 ones
    "r50-3x3-56": (32, 56, 56, 64, 64, 3, 3, 1, 1, 1),
    "r50-3x3-28": (32, 28, 28, 128, 128, 3, 3, 1, 1, 1),
    "r50-3x3-14": (32, 14, 14, 256, 256, 3, 3, 1, 1, 1),
    "r50-3x3-7": (32, 7, 7, 512, 512, 3, 3, 1, 1, 1),
    "r50-3x3-s2-56": (32, 56, 56, 128, 128, 3, 3, 1, 2, 1),
    "r50-3x3-s2-28": (32, 28, 28, 256, 256, 3, 3, 1, 2, 1),
    # ResNet-50's 1 x 1 bottleneck reduction and expansion
    "r50-1x1-56": (32, 56, 56, 256, 64, 1, 1, 0, 1, 1),
    "r50-1x1-14": (32, 14, 14, 256, 1024, 1, 1, 0, 1, 1),
    # VGG-16's wide early layers
    "vgg-224": (8, 224, 224, 64, 64, 3, 3, 1, 1, 1),
    "vgg-112": (16, 112, 112, 128, 128, 3, 3, 1, 1, 1),
    # a dilated 3 x 3 (DeepLab-style), a 5 x 5, a 7 x 7 stem on 64 channels
    "dil2": (8, 64, 64, 256, 256, 3, 3, 2, 1, 2),
    "5x5": (16, 32, 32, 128, 256, 5, 5, 2, 1, 1),
    "7x7-s2": (16, 112, 112, 64, 64, 7, 7, 3, 2, 1),
    # ragged: extents no tile divides, K not a multiple of the tile
    "ragged": (7, 33, 45, 128, 192, 3, 3, 1, 1, 1),
    "ragged-s2": (3, 31, 29, 64, 96, 3, 3, 1, 2, 1),
    # channels the im2col boxes cannot split (C % 64 != 0): the kernel as
    # written runs (tile.h), small on purpose
    "c96": (2, 10, 12, 96, 64, 3, 3, 1, 1, 1),
}
SMALL = ["ragged", "ragged-s2", "c96"]


def out_extent(x, r, pad, stride, dil):
    return (x + 2 * pad - dil * (r - 1) - 1) // stride + 1


def call(lib, x, wt, y, s):
    n, h, w, c, k, r, sw, pad, stride, dil = s
    rc = lib.tawa_conv2d_bf16(
        ctypes.c_void_p(x.data_ptr()), ctypes.c_void_p(wt.data_ptr()),
        ctypes.c_void_p(y.data_ptr()), n, h, w, c, k, r, sw, pad, pad, stride,
        stride, dil, dil, ctypes.c_void_p(torch.cuda.current_stream().cuda_stream))
    if rc != 0:
        raise RuntimeError(f"tawa_conv2d_bf16 returned cudaError {rc}")


def torch_conv(x, wt, s):
    _, _, _, _, _, _, _, pad, stride, dil = s
    # NHWC memory seen as channels-last NCHW tensors, no copy
    return F.conv2d(x.permute(0, 3, 1, 2), wt.permute(0, 3, 1, 2),
                    stride=stride, padding=pad, dilation=dil)


def inputs(s, gen):
    n, h, w, c, k, r, sw, pad, stride, dil = s
    x = torch.randn(n, h, w, c, device="cuda", generator=gen).bfloat16()
    wt = torch.randn(k, r, sw, c, device="cuda", generator=gen).bfloat16()
    return x, wt


def spot_check(x, wt, y, s, gen):
    n, h, w, c, k, r, sw, pad, stride, dil = s
    p, q = out_extent(h, r, pad, stride, dil), out_extent(w, sw, pad, stride, dil)
    xs, ws, ys = x.double().cpu(), wt.double().cpu(), y.double().cpu()
    worst = 0.0
    idx = torch.randint(0, n * p * q * k, (64,), generator=gen, device="cuda").cpu()
    for e in [0, n * p * q * k - 1] + idx.tolist():
        img, rest = divmod(e, p * q * k)
        oy, rest = divmod(rest, q * k)
        ox, kk = divmod(rest, k)
        ref = 0.0
        mag = 0.0
        for ty in range(r):
            for tx in range(sw):
                iy, ix = oy * stride - pad + ty * dil, ox * stride - pad + tx * dil
                if 0 <= iy < h and 0 <= ix < w:
                    t = xs[img, iy, ix, :] * ws[kk, ty, tx, :]
                    ref += float(t.sum())
                    mag += float((t * t).sum())
        err = abs(float(ys[img, oy, ox, kk]) - ref) / (abs(ref) + math.sqrt(mag) + 1e-30)
        worst = max(worst, err)
    return worst


def check(lib, s, gen):
    x, wt = inputs(s, gen)
    n, h, w, c, k, r, sw, pad, stride, dil = s
    p, q = out_extent(h, r, pad, stride, dil), out_extent(w, sw, pad, stride, dil)
    y = torch.full((n, p, q, k), float("nan"), device="cuda", dtype=torch.bfloat16)
    call(lib, x, wt, y, s)
    torch.cuda.synchronize()
    torch.backends.cudnn.allow_tf32 = False
    ref = torch_conv(x.float(), wt.float(), s).permute(0, 2, 3, 1)
    finite = bool(torch.isfinite(y).all())
    rel = float((y.float() - ref).norm() / ref.norm()) if finite else float("inf")
    spot = spot_check(x, wt, y, s, gen)
    ok = finite and rel < 1e-2 and spot < 1e-2
    return {"rel_err": rel, "spot_err": spot, "finite": finite, "pass": ok}


def median_ms(events):
    return statistics.median(e[0].elapsed_time(e[1]) for e in events)


def time_shape(lib, s, gen, rounds):
    """Medians over `rounds` of batches: a batch is `reps` calls of ours back
    to back between two CUDA events, then as many of PyTorch's, so that the
    host's work per call (building tensor maps, PyTorch's dispatch) overlaps
    the GPU's as it does in a stream of layers; `reps` makes a batch about
    1 ms of GPU time."""
    n, h, w, c, k, r, sw, pad, stride, dil = s
    p, q = out_extent(h, r, pad, stride, dil), out_extent(w, sw, pad, stride, dil)
    one = 2 * (n * h * w * c + k * r * sw * c + n * p * q * k)
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    sets = max(2, min(16, math.ceil(2 * l2 / one)))
    data = []
    for _ in range(sets):
        x, wt = inputs(s, gen)
        y = torch.empty(n, p, q, k, device="cuda", dtype=torch.bfloat16)
        data.append((x, wt, y))

    def batch(fn, reps, start):
        e = [torch.cuda.Event(enable_timing=True) for _ in range(2)]
        e[0].record()
        for j in range(reps):
            x, wt, y = data[(start + j) % sets]
            fn(x, wt, y)
        e[1].record()
        return e

    ours_fn = lambda x, wt, y: call(lib, x, wt, y, s)
    torch_fn = lambda x, wt, y: torch_conv(x, wt, s)
    for fn in (ours_fn, torch_fn):  # warm-up (cuDNN's autotuning)
        batch(fn, 3, 0)
    probe = batch(ours_fn, 4, 0)
    torch.cuda.synchronize()
    reps = max(1, min(200, round(1.0 / max(probe[0].elapsed_time(probe[1]) / 4, 1e-3))))
    ours, theirs = [], []
    for i in range(rounds):
        ours.append(batch(ours_fn, reps, i))
        theirs.append(batch(torch_fn, reps, i))
    torch.cuda.synchronize()
    flops = 2.0 * n * p * q * k * r * sw * c
    t_ours = median_ms(ours) / reps
    t_base = median_ms(theirs) / reps
    return {"ms": t_ours, "torch_ms": t_base, "reps": reps,
            "tflops": flops / t_ours / 1e9, "torch_tflops": flops / t_base / 1e9,
            "ratio": t_base / t_ours}


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lib", required=True)
    ap.add_argument("--ref")
    ap.add_argument("--out", required=True)
    ap.add_argument("--shapes", default=",".join(SHAPES))
    ap.add_argument("--check-only", action="store_true")
    ap.add_argument("--pairs", type=int, default=15)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    torch.backends.cudnn.benchmark = True
    gen = torch.Generator(device="cuda")
    gen.manual_seed(a.seed or int.from_bytes(os.urandom(4), "little"))
    lib = ctypes.CDLL(a.lib)
    ref = ctypes.CDLL(a.ref) if a.ref else None
    rows, ok = [], True
    for name in a.shapes.split(","):
        s = SHAPES[name]
        row = {"shape": name, "dims": s}
        try:
            row.update(check(lib, s, gen))
            if ref is not None and name in SMALL:
                row["reference"] = check(ref, s, gen)
                ok &= row["reference"]["pass"]
            if row["pass"] and not a.check_only:
                row.update(time_shape(lib, s, gen, a.pairs))
        except Exception as e:  # recorded; the other shapes go on
            row.update({"pass": False, "error": str(e)})
        ok &= row["pass"]
        rows.append(row)
        with open(os.path.join(a.out, "conv.json"), "w") as f:
            json.dump({"gpu": torch.cuda.get_device_name(0),
                       "torch": torch.__version__, "results": rows}, f, indent=1)
    print(f"{'shape':>14} {'pass':>5} {'rel_err':>9} {'spot':>9} {'ours us':>9} "
          f"{'cuDNN us':>9} {'TFLOP/s':>8} {'ratio':>6}")
    for r in rows:
        print(f"{r['shape']:>14} {str(r['pass']):>5} {r.get('rel_err', float('nan')):9.2e} "
              f"{r.get('spot_err', float('nan')):9.2e} {r.get('ms', 0) * 1e3:9.1f} "
              f"{r.get('torch_ms', 0) * 1e3:9.1f} {r.get('tflops', 0):8.1f} "
              f"{r.get('ratio', 0):6.3f}" + (f"  {r['error']}" if "error" in r else ""))
    ratios = [r["ratio"] for r in rows if r.get("ratio")]
    if ratios:
        print(f"geomean ours/cuDNN {math.exp(sum(map(math.log, ratios)) / len(ratios)):.3f}"
              f" over {len(ratios)} shapes, min {min(ratios):.3f}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
