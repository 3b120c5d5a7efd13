#!/usr/bin/env python3
"""Checks and times the hand-written convolutions of examples/legacy-conv
three ways: as written, migrated (`tawa-rewrite --migrate`: the
tile-vocabulary form, run by tile.h's reference where the launcher picks it)
and rewritten (`tawa-rewrite`: migrated and warp-specialized in one run).

usage: check.py --orig ORIG.so [--migrated MIG.so] --rewritten WS.so --out DIR
                [--time]

Each library is examples/legacy-conv/conv.cu (or what tawa-rewrite made of
it) built with -shared; its C entry points (legacy_conv_*) launch the
kernels as the file's project would. For each kernel and shape:
  - x (N, H, W, C) and the weights (K x R x S x C; R x S x C x K for the
    kernels of HWIO below, K x C x R x S for conv_kcrs), fresh random
    normal bf16, a bias of random normals for
    conv_bias_relu; the output is filled with NaN first;
  - reference: torch.nn.functional.conv2d on the inputs upcast to float32
    (TF32 off), then the bias and ReLU; pass: every element finite and
    ||y - ref||_F / ||ref||_F < 1e-2;
  - with --time (large shapes): medians of rounds of batches of calls (about
    1 ms each) of the original and of the rewritten function, alternated;
    speed-up = original's time / rewritten's.
Writes DIR/legacy-conv.json and prints a table last. Exit status 0 when
every check passes.
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

# kernel: shapes as (N, H, W, C, K) (conv_bias_relu adds R, S, stride, pad)
CHECK = {
    "conv3x3_same": [(2, 9, 11, 64, 96), (1, 16, 16, 96, 40), (3, 20, 17, 128, 64)],
    "conv_bias_relu": [(2, 15, 13, 64, 96, 3, 3, 2, 1), (1, 20, 20, 64, 64, 5, 5, 1, 2),
                       (2, 12, 12, 40, 24, 3, 3, 1, 1)],
    "conv_valid_hwio": [(2, 10, 12, 64, 96), (1, 9, 9, 32, 16)],
    "conv_dilated": [(2, 14, 10, 64, 64), (1, 8, 8, 48, 32)],
    "conv_taps_nested": [(2, 9, 11, 64, 96), (1, 16, 16, 96, 40), (2, 7, 9, 128, 32)],
    "conv_taps_flat": [(2, 15, 13, 64, 96, 3, 3), (1, 20, 18, 64, 64, 5, 5),
                       (2, 12, 12, 40, 24, 3, 3)],
    "conv_kcrs": [(2, 9, 11, 64, 96), (1, 16, 16, 96, 40), (3, 20, 17, 128, 64)],
    # Written for channels a multiple of 32: no other C is checked.
    "conv_unchecked": [(2, 9, 11, 64, 96), (1, 16, 16, 96, 40), (3, 20, 17, 128, 64)],
    "conv_channels_first": [(2, 9, 11, 64, 96), (1, 16, 16, 96, 40), (2, 7, 9, 40, 32)],
    "conv_flat_block": [(2, 10, 12, 64, 96), (1, 9, 9, 32, 16), (2, 18, 14, 128, 64)],
    "conv_grid_images": [(2, 9, 11, 64, 96), (3, 16, 16, 96, 40), (4, 20, 17, 128, 64)],
    "conv1x1_strided": [(2, 9, 11, 64, 96), (3, 16, 16, 96, 40), (4, 20, 17, 128, 64)],
    "conv_wmma_gather": [(2, 15, 13, 64, 96, 3, 3, 2, 1), (1, 20, 20, 64, 64, 5, 5, 1, 2),
                         (2, 12, 12, 40, 24, 3, 3, 1, 1)],
    "conv_coop_scalar": [(2, 9, 11, 64, 96), (1, 16, 16, 96, 40), (3, 20, 17, 128, 64)],
    "conv_coop_unsigned": [(2, 9, 11, 64, 96), (1, 16, 16, 96, 40), (3, 20, 17, 128, 64)],
    "conv_regblock_gather": [(2, 15, 13, 64, 96, 3, 3, 2, 1), (1, 20, 20, 128, 64, 5, 5, 1, 2),
                             (2, 12, 12, 40, 24, 3, 3, 1, 1)],
    "conv_wmma_taps": [(2, 15, 13, 64, 96, 3, 3, 2, 1), (1, 20, 20, 128, 64, 5, 5, 1, 2),
                       (2, 12, 12, 40, 24, 3, 3, 1, 1)],
    "conv_coop_taps": [(2, 9, 11, 64, 96), (1, 16, 16, 96, 40), (3, 20, 17, 128, 64)],
    # Written for channels a multiple of 16: no other C is checked.
    "conv_wmma_taps_whole": [(2, 15, 13, 64, 96, 3, 3, 2, 1), (1, 20, 20, 128, 64, 5, 5, 1, 2),
                             (2, 12, 12, 96, 24, 3, 3, 1, 1)],
}
TIME = {
    "conv3x3_same": [(32, 56, 56, 64, 64), (32, 28, 28, 128, 128), (8, 112, 112, 128, 128)],
    "conv_bias_relu": [(32, 56, 56, 128, 128, 3, 3, 2, 1), (16, 32, 32, 128, 256, 5, 5, 1, 2)],
    "conv_valid_hwio": [(32, 30, 30, 256, 256)],
    "conv_dilated": [(8, 64, 64, 256, 256)],
    "conv_taps_nested": [(32, 56, 56, 64, 64), (32, 14, 14, 256, 256)],
    "conv_taps_flat": [(32, 56, 56, 128, 128, 3, 3), (16, 64, 64, 64, 128, 7, 7)],
    "conv_kcrs": [(32, 56, 56, 64, 64), (32, 28, 28, 128, 128), (32, 14, 14, 256, 256)],
    "conv_unchecked": [(32, 56, 56, 64, 64), (32, 28, 28, 128, 128)],
    "conv_channels_first": [(32, 56, 56, 64, 64), (32, 14, 14, 256, 256)],
    "conv_flat_block": [(32, 30, 30, 256, 256)],
    "conv_grid_images": [(32, 56, 56, 64, 64), (32, 28, 28, 128, 128)],
    "conv1x1_strided": [(32, 56, 56, 256, 512), (32, 28, 28, 512, 1024)],
    "conv_wmma_gather": [(32, 56, 56, 64, 64, 3, 3, 1, 1), (32, 28, 28, 128, 128, 3, 3, 1, 1)],
    "conv_coop_scalar": [(32, 56, 56, 64, 64), (32, 28, 28, 128, 128)],
    "conv_coop_unsigned": [(32, 56, 56, 64, 64), (32, 28, 28, 128, 128)],
    "conv_regblock_gather": [(32, 56, 56, 64, 64, 3, 3, 1, 1),
                             (32, 56, 56, 128, 128, 3, 3, 2, 1)],
    "conv_wmma_taps": [(32, 56, 56, 64, 64, 3, 3, 1, 1), (32, 28, 28, 128, 128, 3, 3, 1, 1)],
    "conv_coop_taps": [(32, 56, 56, 64, 64), (32, 28, 28, 128, 128)],
    "conv_wmma_taps_whole": [(32, 56, 56, 64, 64, 3, 3, 1, 1),
                             (32, 28, 28, 128, 128, 3, 3, 1, 1)],
}
# Kernels whose shapes add R, S, stride and padding; those with a bias and
# ReLU; those whose weights are R x S x C x K (HWIO).
FULL = ("conv_bias_relu", "conv_wmma_gather", "conv_regblock_gather", "conv_wmma_taps",
        "conv_wmma_taps_whole")
BIAS_RELU = ("conv_bias_relu", "conv_wmma_gather")
HWIO = ("conv_valid_hwio", "conv_taps_flat", "conv_coop_scalar", "conv_coop_unsigned",
        "conv_wmma_taps", "conv_wmma_taps_whole")


def dims(kernel, s):
    if kernel in FULL:
        n, h, w, c, k, r, sw, stride, pad = s
        return n, h, w, c, k, r, sw, stride, pad, 1
    if kernel == "conv_taps_flat":
        n, h, w, c, k, r, sw = s
        return n, h, w, c, k, r, sw, 2, r // 2, 1
    n, h, w, c, k = s
    if kernel in ("conv_valid_hwio", "conv_flat_block"):
        return n, h, w, c, k, 3, 3, 1, 0, 1
    if kernel == "conv1x1_strided":
        return n, h, w, c, k, 1, 1, 2, 0, 1
    if kernel == "conv_dilated":
        return n, h, w, c, k, 3, 3, 1, 2, 2
    return n, h, w, c, k, 3, 3, 1, 1, 1


class Case:
    def __init__(self, kernel, s, gen):
        self.kernel = kernel
        n, h, w, c, k, r, sw, stride, pad, dil = dims(kernel, s)
        self.stride, self.pad, self.dil = stride, pad, dil
        self.x = torch.randn(n, h, w, c, device="cuda", generator=gen).bfloat16()
        if kernel in HWIO:
            self.w = torch.randn(r, sw, c, k, device="cuda", generator=gen).bfloat16()
        elif kernel == "conv_kcrs":
            self.w = torch.randn(k, c, r, sw, device="cuda", generator=gen).bfloat16()
        else:
            self.w = torch.randn(k, r, sw, c, device="cuda", generator=gen).bfloat16()
        self.bias = torch.randn(k, device="cuda", generator=gen)
        p = (h + 2 * pad - dil * (r - 1) - 1) // stride + 1
        q = (w + 2 * pad - dil * (sw - 1) - 1) // stride + 1
        self.shape = (n, p, q, k)
        self.args = (n, h, w, c, k, r, sw)
        self.flops = 2.0 * n * p * q * k * r * sw * c

    def reference(self):
        torch.backends.cudnn.allow_tf32 = False
        torch.backends.cuda.matmul.allow_tf32 = False
        wk = self.w.float()
        if self.kernel in HWIO:
            wk = wk.permute(3, 2, 0, 1)
        elif self.kernel != "conv_kcrs":
            wk = wk.permute(0, 3, 1, 2)
        y = F.conv2d(self.x.float().permute(0, 3, 1, 2), wk, stride=self.stride,
                     padding=self.pad, dilation=self.dil).permute(0, 2, 3, 1)
        if self.kernel in BIAS_RELU:
            y = torch.relu(y + self.bias)
        return y

    def run(self, lib, y):
        s = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
        x, w = ctypes.c_void_p(self.x.data_ptr()), ctypes.c_void_p(self.w.data_ptr())
        out = ctypes.c_void_p(y.data_ptr())
        n, h, wd, c, k, r, sw = self.args
        if self.kernel in BIAS_RELU:
            rc = getattr(lib, "legacy_" + self.kernel)(
                x, w, ctypes.c_void_p(self.bias.data_ptr()), out, n, h, wd, c, k, r, sw,
                self.stride, self.pad, s)
        elif self.kernel in ("conv_regblock_gather", "conv_wmma_taps", "conv_wmma_taps_whole"):
            rc = getattr(lib, "legacy_" + self.kernel)(x, w, out, n, h, wd, c, k, r, sw,
                                                       self.stride, self.pad, s)
        elif self.kernel == "conv_taps_flat":
            rc = lib.legacy_conv_taps_flat(x, w, out, n, h, wd, c, k, r, sw, s)
        else:
            rc = getattr(lib, "legacy_" + self.kernel)(x, w, out, n, h, wd, c, k, s)
        if rc != 0:
            raise RuntimeError(f"cudaError {rc}")


def check(lib, case):
    y = torch.full(case.shape, float("nan"), device="cuda", dtype=torch.bfloat16)
    case.run(lib, y)
    torch.cuda.synchronize()
    ref = case.reference()
    finite = bool(torch.isfinite(y).all())
    rel = float((y.float() - ref).norm() / ref.norm()) if finite else float("inf")
    return {"pass": finite and rel < 1e-2, "rel_err": rel}


def timed(orig, ws, case, rounds=9):
    y = torch.empty(case.shape, device="cuda", dtype=torch.bfloat16)

    def batch(lib, reps):
        e = [torch.cuda.Event(enable_timing=True) for _ in range(2)]
        e[0].record()
        for _ in range(reps):
            case.run(lib, y)
        e[1].record()
        return e

    batch(orig, 1), batch(ws, 3)
    probe = batch(orig, 1)
    torch.cuda.synchronize()
    reps_orig = max(1, min(50, round(1.0 / max(probe[0].elapsed_time(probe[1]), 1e-3))))
    probe = batch(ws, 4)
    torch.cuda.synchronize()
    reps_ws = max(1, min(200, round(1.0 / max(probe[0].elapsed_time(probe[1]) / 4, 1e-3))))
    o, w = [], []
    for _ in range(rounds):
        o.append(batch(orig, reps_orig))
        w.append(batch(ws, reps_ws))
    torch.cuda.synchronize()
    t_o = statistics.median(a.elapsed_time(b) for a, b in o) / reps_orig
    t_w = statistics.median(a.elapsed_time(b) for a, b in w) / reps_ws
    return {"orig_ms": t_o, "ws_ms": t_w, "speedup": t_o / t_w,
            "ws_tflops": case.flops / t_w / 1e9}


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--orig", required=True)
    ap.add_argument("--migrated")
    ap.add_argument("--rewritten", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--time", action="store_true")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", help="comma-separated kernels to run (default: all)")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    gen = torch.Generator(device="cuda")
    gen.manual_seed(a.seed or int.from_bytes(os.urandom(4), "little"))
    libs = {"orig": ctypes.CDLL(a.orig), "rewritten": ctypes.CDLL(a.rewritten)}
    if a.migrated:
        libs["migrated"] = ctypes.CDLL(a.migrated)
    rows, ok = [], True
    for kernel, shapes in CHECK.items():
        if a.only and kernel not in a.only.split(","):
            continue
        for s in shapes + (TIME[kernel] if a.time else []):
            case = Case(kernel, s, gen)
            row = {"kernel": kernel, "shape": list(s)}
            for name, lib in libs.items():
                if name == "migrated" and s in TIME[kernel]:
                    continue  # tile.h's reference: slow on purpose
                try:
                    row[name] = check(lib, case)
                except Exception as e:
                    row[name] = {"pass": False, "error": str(e)}
                ok &= row[name]["pass"]
            if a.time and s in TIME[kernel] and row["orig"]["pass"] and row["rewritten"]["pass"]:
                row.update(timed(libs["orig"], libs["rewritten"], case))
            rows.append(row)
            with open(os.path.join(a.out, "legacy-conv.json"), "w") as f:
                json.dump({"gpu": torch.cuda.get_device_name(0), "results": rows}, f, indent=1)
    print(f"{'kernel':>20} {'shape':>30} {'orig':>5} {'mig':>5} {'ws':>5} {'ws err':>8} "
          f"{'orig us':>9} {'ws us':>8} {'x':>6} {'TFLOP/s':>8}")
    for r in rows:
        def p(name):
            return str(r[name]["pass"]) if name in r else "-"
        print(f"{r['kernel']:>20} {str(tuple(r['shape'])):>30} {p('orig'):>5} {p('migrated'):>5} "
              f"{p('rewritten'):>5} {r['rewritten'].get('rel_err', float('nan')):8.1e} "
              f"{r.get('orig_ms', 0) * 1e3:9.1f} {r.get('ws_ms', 0) * 1e3:8.1f} "
              f"{r.get('speedup', 0):6.1f} {r.get('ws_tflops', 0):8.1f}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
