#!/usr/bin/env python3
"""Checks and benchmarks the attention variants against PyTorch and Triton.

usage: bench.py --lib-dir DIR --out DIR [options]    (see --help)

DIR holds one shared library per variant and kind, as
scripts/attention-gpu.sh builds them: <variant>.ws.so (what tawa-rewrite
made of examples/attention/attention.cu) and <variant>.ref.so (attention.cu as
written: the slow, portable reference), variants named
<bf16|f16>-d<64|128|256>-<causal|full>. Each is loaded with ctypes and called
through its C entry points (attention.h) on PyTorch's current stream.

1. Checks (every variant): at each check shape (seqlen_q == seqlen_k; default
   128, 1000, 4096 with batch * heads 8 and 16384 with 2), on fresh random
   normal inputs, the rewritten kernel, the reference kernel and the Triton
   kernel are compared with torch.nn.functional.scaled_dot_product_attention
   run by the math backend on the inputs upcast to float32 (TF32 off); the
   LSE is compared with the logsumexp of the float32 scaled scores (masked).
   Outputs are poisoned first (a NaN with a payload), so an element left
   unwritten fails. Pass: ||O - ref||_F / ||ref||_F < 1e-2, the same for
   LSE < 1e-4, and every element written and finite. The float32 reference
   itself is checked against float64 on a few rows (or the run stops). The
   reference kernel's checks share a time budget: a check predicted to
   overrun it is skipped and recorded.
2. Benchmark (FlashAttention-3's setting): seqlen 512 ... 16384, batch =
   16384 / seqlen, heads = 2048 / head_dim; FLOPs = 4 * seqlen^2 * head_dim *
   heads * batch, halved for causal. At each shape, on fresh inputs, every
   implementation is checked once against the float32 reference (a failing one
   is not timed), then all are timed interleaved in one process (ours,
   baseline, baseline, ..., ours, ...) with CUDA events: warm-up rounds, then
   enough rounds to fill --shape-seconds (between --min-iters and --iters);
   medians. Baselines: PyTorch SDPA forced to one backend at a time (cuDNN,
   FlashAttention-2, memory-efficient; one that raises is skipped and the
   reason recorded), the Triton kernel of triton_attention.py, and
   flash_attn.cute (FlashAttention-4) where it imports.
3. Output: OUT/bench.json (everything), OUT/bench-summary.json (the tables),
   OUT/attention-d{64,128,256}.png (TFLOP/s against seqlen), and a short
   table printed last.

Each variant runs in its own process, so that a kernel that faults or hangs
costs only its own results: a watchdog ends a step that runs past
--step-timeout. --dry-run fakes every measurement (no GPU, no torch) to
exercise the tables, JSON and charts; --from-json FILE redraws them from an
earlier bench.json. Exit status: 0 when every check of ours, the reference
and Triton passed, 1 otherwise (baselines that fail are recorded, not fatal),
2 on a usage error.
"""

import argparse
import ctypes
import fnmatch
import json
import math
import os
import random
import subprocess
import sys
import threading
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))

DTYPES = ("bf16", "f16")
HEAD_DIMS = (64, 128, 256)
MASKS = ("full", "causal")
ALL_VARIANTS = [f"{t}-d{d}-{m}" for t in DTYPES for d in HEAD_DIMS
                for m in MASKS]
SDPA_BACKENDS = {"cudnn": "CUDNN_ATTENTION", "flash": "FLASH_ATTENTION",
                 "efficient": "EFFICIENT_ATTENTION"}
BASELINES = ("cudnn", "flash", "efficient", "triton", "fa4")
IMPL_LABELS = {"ours": "ours (tawa)", "reference": "reference",
               "cudnn": "SDPA cuDNN", "flash": "SDPA FlashAttention-2",
               "efficient": "SDPA mem-efficient", "triton": "Triton",
               "fa4": "FlashAttention-4 (cute)"}
SHORT = {"ours": "ours", "cudnn": "cudnn", "flash": "fa2",
         "efficient": "effic", "triton": "triton", "fa4": "fa4"}

O_TOL = 1e-2
LSE_TOL = 1e-4
REF_SPOT_TOL = 1e-4
POISON16 = {"bf16": 0x7FA5, "f16": 0x7E5A}  # NaNs with a payload
POISON32 = 0x7FC5A5A5
CUDA_ERRORS = {1: "cudaErrorInvalidValue", 2: "cudaErrorMemoryAllocation",
               98: "cudaErrorInvalidDeviceFunction",
               209: "cudaErrorNoKernelImageForDevice",
               700: "cudaErrorIllegalAddress",
               701: "cudaErrorLaunchOutOfResources",
               702: "cudaErrorLaunchTimeout", 719: "cudaErrorLaunchFailure"}


def parse_variant(name):
    t, d, m = name.split("-")
    return {"name": name, "dtype": t, "head_dim": int(d[1:]),
            "causal": m == "causal"}


def bench_flops(s, d, heads, batch, causal):
    f = 4.0 * s * s * d * heads * batch
    return f / 2 if causal else f


def bench_shapes(seqlens, d, tokens=16384, hidden=2048):
    """(seqlen, batch, heads) of FlashAttention-3's benchmark: 16k tokens,
    hidden size 2048."""
    return [(s, max(1, tokens // s), max(1, hidden // d)) for s in seqlens]


# --- Options ---

def env(name, default):
    v = os.environ.get(name)
    return default if v is None or v == "" else v


def parse_checks(text):
    """'128x8,1000x8' -> [(128, 8), (1000, 8)]: seqlen x batch*heads."""
    out = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        s, _, bh = part.partition("x")
        out.append((int(s), int(bh) if bh else 8))
        if out[-1][0] < 1 or out[-1][1] < 1:
            raise ValueError(part)
    return out


def parse_ints(text):
    return [int(x) for x in text.split(",") if x.strip()]


def select_variants(patterns):
    if not patterns:
        return list(ALL_VARIANTS)
    chosen = []
    for pat in patterns.split(","):
        pat = pat.strip()
        if not pat:
            continue
        hits = [v for v in ALL_VARIANTS if fnmatch.fnmatchcase(v, pat)]
        if not hits:
            raise ValueError(f"no variant matches '{pat}'")
        chosen += [v for v in hits if v not in chosen]
    return [v for v in ALL_VARIANTS if v in chosen]


def make_parser():
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Environment knobs (the flags win): ATTN_VARIANTS, "
        "ATTN_CHECKS, ATTN_REF_CHECKS, ATTN_BENCH_SEQLENS, ATTN_BASELINES, "
        "ATTN_WARMUP, ATTN_ITERS, ATTN_MIN_ITERS, ATTN_SHAPE_SECONDS, "
        "ATTN_REF_BUDGET_S, ATTN_STEP_TIMEOUT, ATTN_VARIANT_TIMEOUT, "
        "ATTN_SKIP_CHECKS=1, ATTN_SKIP_BENCH=1, ATTN_SKIP_REF=1.")
    a = p.add_argument
    a("--lib-dir", default=env("ATTN_LIB_DIR", "build/attention-gpu/lib"),
      help="the <variant>.ws.so and <variant>.ref.so files")
    a("--out", default=env("ATTN_OUT", "results/attention"),
      help="where bench.json, bench-summary.json and the PNGs go")
    a("--variants", default=env("ATTN_VARIANTS", ""),
      help="comma-separated names or patterns (bf16-d128-*); default all 12")
    a("--checks", default=env("ATTN_CHECKS", "128x8,1000x8,4096x8,16384x2"),
      help="check shapes, seqlen x batch*heads (seqlen_q == seqlen_k)")
    a("--ref-checks", default=env("ATTN_REF_CHECKS", ""),
      help="the reference kernel's check shapes (default: --checks)")
    a("--bench-seqlens",
      default=env("ATTN_BENCH_SEQLENS", "512,1024,2048,4096,8192,16384"))
    a("--bench-tokens", type=int,
      default=int(env("ATTN_BENCH_TOKENS", "16384")),
      help="batch * seqlen of every benchmark shape (FlashAttention-3: 16k)")
    a("--bench-hidden", type=int,
      default=int(env("ATTN_BENCH_HIDDEN", "2048")),
      help="heads * head_dim of every benchmark shape (FlashAttention-3: "
      "2048)")
    a("--baselines", default=env("ATTN_BASELINES", ",".join(BASELINES)),
      help="of " + ",".join(BASELINES))
    a("--warmup", type=int, default=int(env("ATTN_WARMUP", "3")),
      help="untimed rounds per shape")
    a("--iters", type=int, default=int(env("ATTN_ITERS", "30")),
      help="at most this many timed rounds per shape")
    a("--min-iters", type=int, default=int(env("ATTN_MIN_ITERS", "5")),
      help="at least this many timed rounds per shape")
    a("--shape-seconds", type=float,
      default=float(env("ATTN_SHAPE_SECONDS", "0.3")),
      help="timed rounds per shape: as many as fill this many seconds")
    a("--ref-budget", type=float,
      default=float(env("ATTN_REF_BUDGET_S", "60")),
      help="seconds for all checks of the reference kernel")
    a("--step-timeout", type=float,
      default=float(env("ATTN_STEP_TIMEOUT", "60")),
      help="a step (one check, one shape's timing) running longer ends its "
      "variant's process")
    a("--variant-timeout", type=float,
      default=float(env("ATTN_VARIANT_TIMEOUT", "300")),
      help="the most one variant's process may run")
    a("--no-checks", action="store_true",
      default=env("ATTN_SKIP_CHECKS", "0") == "1")
    a("--no-bench", action="store_true",
      default=env("ATTN_SKIP_BENCH", "0") == "1")
    a("--no-ref", action="store_true",
      default=env("ATTN_SKIP_REF", "0") == "1",
      help="skip the reference kernel's checks")
    a("--dry-run", action="store_true",
      help="fake every measurement (no GPU, no torch needed)")
    a("--from-json", metavar="FILE",
      help="redraw the tables and charts from an earlier bench.json")
    a("--prewarm-triton", action="store_true",
      help="only compile the Triton kernel's configurations (into Triton's "
      "cache), in parallel processes, and exit")
    a("--jobs", type=int, default=int(env("ATTN_JOBS", "8")),
      help="processes for --prewarm-triton")
    a("--seed", type=int, default=None)
    # Internal: one variant, in a process of its own.
    a("--child", metavar="VARIANT", help=argparse.SUPPRESS)
    a("--child-out", metavar="FILE", help=argparse.SUPPRESS)
    a("--child-ref-budget", type=float, help=argparse.SUPPRESS)
    a("--prewarm-one", metavar="VARIANT", help=argparse.SUPPRESS)
    # Tests of the harness itself: run the variant processes on the CPU
    # (libraries built for host memory; TRITON_INTERPRET=1 for Triton).
    a("--device", default=env("ATTN_DEVICE", "cuda"), help=argparse.SUPPRESS)
    return p


def settings_of(args):
    """The effective settings, validated; raises ValueError."""
    s = {
        "variants": select_variants(args.variants),
        "checks": parse_checks(args.checks),
        "ref_checks": parse_checks(args.ref_checks or args.checks),
        "bench_seqlens": parse_ints(args.bench_seqlens),
        "bench_tokens": args.bench_tokens, "bench_hidden": args.bench_hidden,
        "baselines": [b.strip() for b in args.baselines.split(",")
                      if b.strip()],
        "warmup": args.warmup, "iters": args.iters,
        "min_iters": min(args.min_iters, args.iters),
        "shape_seconds": args.shape_seconds, "ref_budget": args.ref_budget,
        "step_timeout": args.step_timeout,
        "variant_timeout": args.variant_timeout,
        "checks_on": not args.no_checks, "bench_on": not args.no_bench,
        "ref_on": not args.no_ref,
    }
    for b in s["baselines"]:
        if b not in BASELINES:
            raise ValueError(f"unknown baseline '{b}' (want "
                             f"{', '.join(BASELINES)})")
    for x in s["bench_seqlens"]:
        if x < 1 or s["bench_tokens"] % x:
            raise ValueError(f"bench seqlen {x} must divide "
                             f"{s['bench_tokens']} (--bench-tokens)")
    if s["iters"] < 1 or s["warmup"] < 0:
        raise ValueError("--iters >= 1, --warmup >= 0")
    return s


# --- The GPU side (one variant per process) ---

class ContextLost(Exception):
    """A CUDA error that leaves the process's context unusable."""


class Watchdog:
    """Ends the process when one step runs past its limit (a hung kernel
    cannot be interrupted from Python); the results so far are on disk."""

    def __init__(self, on_timeout):
        self.on_timeout = on_timeout
        self.step, self.deadline = None, None
        self.lock = threading.Lock()
        threading.Thread(target=self._watch, daemon=True).start()

    def begin(self, step, limit):
        with self.lock:
            self.step, self.deadline = step, time.monotonic() + limit

    def end(self):
        with self.lock:
            self.step, self.deadline = None, None

    def _watch(self):
        while True:
            time.sleep(0.5)
            with self.lock:
                late = self.deadline is not None and \
                    time.monotonic() > self.deadline
                step = self.step
            if late:
                self.on_timeout(step)
                os._exit(4)


class TawaLib:
    """One variant's shared library, through its C entry points."""

    def __init__(self, path):
        self.path = path
        self.lib = ctypes.CDLL(os.path.abspath(path))
        f = self.lib.tawa_attention_forward
        f.restype = ctypes.c_int
        f.argtypes = [ctypes.c_void_p] * 5 + [ctypes.c_int] * 3 + \
            [ctypes.c_float, ctypes.c_void_p]
        g = self.lib.tawa_attention_variant
        g.restype = None
        g.argtypes = [ctypes.POINTER(ctypes.c_int)] * 3

    def variant(self):
        d, bf16, causal = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
        self.lib.tawa_attention_variant(ctypes.byref(d), ctypes.byref(bf16),
                                        ctypes.byref(causal))
        return (f"{'bf16' if bf16.value else 'f16'}-d{d.value}-"
                f"{'causal' if causal.value else 'full'}")

    def forward(self, q, k, v, out, lse, scale, stream):
        b, h, sq, _ = q.shape
        rc = self.lib.tawa_attention_forward(
            q.data_ptr(), k.data_ptr(), v.data_ptr(), out.data_ptr(),
            lse.data_ptr(), b * h, sq, k.shape[2], scale, stream)
        if rc != 0:
            raise RuntimeError(f"tawa_attention_forward returned {rc} "
                               f"({CUDA_ERRORS.get(rc, 'cudaError')})")


class Child:
    """Runs the checks and the benchmark of one variant."""

    def __init__(self, variant, args, settings):
        import torch
        import torch.nn.functional as F
        from torch.nn.attention import SDPBackend, sdpa_kernel
        self.torch, self.F = torch, F
        self.SDPBackend, self.sdpa_kernel = SDPBackend, sdpa_kernel
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
        torch.set_float32_matmul_precision("highest")
        self.v = parse_variant(variant)
        self.s = settings
        self.args = args
        self.dtype = torch.bfloat16 if self.v["dtype"] == "bf16" else \
            torch.float16
        self.d = self.v["head_dim"]
        self.causal = self.v["causal"]
        self.scale = 1.0 / math.sqrt(self.d)
        self.dev = torch.device(args.device)
        self.on_gpu = self.dev.type == "cuda"
        seed = args.seed if args.seed is not None else \
            int.from_bytes(os.urandom(4), "little")
        torch.manual_seed(seed)
        self.rng = random.Random(seed)
        self.ref_budget = args.child_ref_budget if \
            args.child_ref_budget is not None else settings["ref_budget"]
        self.ref_spent = 0.0
        self.ref_rate = None  # best FLOP/s seen from the reference kernel
        self.res = {"variant": variant, "seed": seed, "libs": {},
                    "baselines": {}, "checks": [], "bench": [],
                    "status": "running", "ref_seconds": 0.0}
        self.out_path = args.child_out
        self.save_lock = threading.Lock()
        self.watchdog = Watchdog(self._timed_out)
        self.libs = {}
        self._load_libs()
        self.triton = None
        self.fa4 = None
        self._load_baselines()

    # -- bookkeeping --

    def save(self, wait=True):
        if not self.out_path:
            return
        if not self.save_lock.acquire(timeout=-1 if wait else 5):
            return
        try:
            tmp = self.out_path + ".tmp"
            with open(tmp, "w") as f:
                json.dump(self.res, f, indent=1, default=str)
            os.replace(tmp, self.out_path)
        finally:
            self.save_lock.release()

    def begin(self, step, limit):
        """Starts a step: recorded (a crash names it) and watched."""
        self.res["step"] = step
        self.save()
        self.watchdog.begin(step, limit)

    def _timed_out(self, step):
        self.res["status"] = f"step timed out: {step}"
        try:
            self.save(wait=False)
        finally:
            print(f"[{self.v['name']}] step ran past "
                  f"{self.s['step_timeout']:.0f} s: {step}; ending",
                  flush=True)

    def sync(self, what):
        if not self.on_gpu:
            return
        try:
            self.torch.cuda.synchronize()
        except Exception as e:  # the context is gone for good
            raise ContextLost(f"{what}: {e}") from e

    def event(self):
        if self.on_gpu:
            return self.torch.cuda.Event(enable_timing=True)
        return _HostEvent()

    def stream(self):
        return self.torch.cuda.current_stream().cuda_stream if self.on_gpu \
            else 0

    # -- libraries --

    def _load_libs(self):
        name = self.v["name"]
        for kind, suffix in (("ours", "ws"), ("reference", "ref")):
            path = os.path.join(self.args.lib_dir, f"{name}.{suffix}.so")
            info = {"path": path, "loaded": False}
            if not os.path.exists(path):
                info["error"] = "missing"
            else:
                try:
                    lib = TawaLib(path)
                    got = lib.variant()
                    info["reports"] = got
                    if got != name:
                        info["error"] = f"the library reports {got}"
                    else:
                        info["loaded"] = True
                        self.libs[kind] = lib
                except OSError as e:
                    info["error"] = f"load failed: {e}"
            self.res["libs"][kind] = info
        self.save()

    def _load_baselines(self):
        torch = self.torch
        for b in self.s["baselines"]:
            info = {"available": True}
            if b == "triton":
                try:
                    sys.path.insert(0, HERE)
                    import triton_attention
                    self.triton = triton_attention
                    import triton
                    info["version"] = triton.__version__
                except Exception as e:
                    info = {"available": False,
                            "error": f"import failed: {e!r}"}
            elif b == "fa4":
                try:
                    from flash_attn.cute import flash_attn_func
                    self.fa4 = flash_attn_func
                    try:
                        import flash_attn.cute as fc
                        info["version"] = getattr(fc, "__version__", "?")
                    except Exception:
                        pass
                except Exception as e:
                    info = {"available": False,
                            "error": f"import failed: {e!r}"}
            else:
                if not hasattr(self.SDPBackend, SDPA_BACKENDS[b]):
                    info = {"available": False,
                            "error": f"torch {torch.__version__} has no "
                            f"SDPBackend.{SDPA_BACKENDS[b]}"}
            self.res["baselines"][b] = info

    # -- tensors --

    def inputs(self, batch, heads, sq, sk):
        torch = self.torch
        q = torch.randn(batch, heads, sq, self.d, device=self.dev,
                        dtype=self.dtype)
        k = torch.randn(batch, heads, sk, self.d, device=self.dev,
                        dtype=self.dtype)
        v = torch.randn(batch, heads, sk, self.d, device=self.dev,
                        dtype=self.dtype)
        return q, k, v

    def poison(self, out, lse):
        out.view(self.torch.int16).fill_(POISON16[self.v["dtype"]])
        if lse is not None:
            lse.view(self.torch.int32).fill_(POISON32)

    def reference(self, q, k, v):
        """(O, LSE) in float32: SDPA's math backend on the upcast inputs, and
        the logsumexp of the scaled, masked float32 scores. In chunks of
        heads, so that a chunk's scores stay under 512 MiB."""
        torch, F = self.torch, self.F
        b, h, sq, d = q.shape
        sk = k.shape[2]
        bh = b * h
        q3, k3, v3 = (t.reshape(bh, -1, d) for t in (q, k, v))
        o = torch.empty(bh, sq, d, device=self.dev, dtype=torch.float32)
        lse = torch.empty(bh, sq, device=self.dev, dtype=torch.float32)
        keep = torch.ones(sq, sk, device=self.dev, dtype=torch.bool).tril() \
            if self.causal else None
        chunk = max(1, (512 << 20) // (sq * sk * 4))
        for i in range(0, bh, chunk):
            qc, kc, vc = (t[i:i + chunk].float() for t in (q3, k3, v3))
            with self.sdpa_kernel([self.SDPBackend.MATH]):
                o[i:i + chunk] = F.scaled_dot_product_attention(
                    qc, kc, vc, is_causal=self.causal, scale=self.scale)
            s = torch.bmm(qc, kc.transpose(1, 2)).mul_(self.scale)
            if keep is not None:
                s.masked_fill_(~keep, float("-inf"))
            lse[i:i + chunk] = torch.logsumexp(s, -1)
            del s, qc, kc, vc
        o, lse = o.view(b, h, sq, d), lse.view(b, h, sq)
        self.reference_spot_check(q, k, v, o, lse)
        return o, lse

    def reference_spot_check(self, q, k, v, o, lse):
        """A few rows of the float32 reference against float64; raises when
        they disagree (a wrong reference would pass wrong kernels)."""
        torch = self.torch
        b, h, sq, d = q.shape
        worst_o = worst_l = 0.0
        for bi, hi in {(0, 0), (b - 1, h - 1)}:
            rows = sorted({0, sq - 1, self.rng.randrange(sq),
                           self.rng.randrange(sq)})
            r = torch.tensor(rows, device=self.dev)
            s = (q[bi, hi, r].double() @ k[bi, hi].double().T) * self.scale
            if self.causal:
                cols = torch.arange(k.shape[2], device=self.dev)
                s = s.masked_fill(cols[None, :] > r[:, None], float("-inf"))
            l64 = torch.logsumexp(s, -1)
            o64 = torch.softmax(s, -1) @ v[bi, hi].double()
            eo = ((o[bi, hi, r].double() - o64).norm(dim=-1) /
                  o64.norm(dim=-1).clamp_min(1e-30)).max().item()
            el = ((lse[bi, hi, r].double() - l64).abs() /
                  l64.abs().clamp_min(1.0)).max().item()
            worst_o, worst_l = max(worst_o, eo), max(worst_l, el)
        if not (worst_o < REF_SPOT_TOL and worst_l < REF_SPOT_TOL):
            raise RuntimeError(
                f"the float32 reference disagrees with float64 (O "
                f"{worst_o:.2e}, LSE {worst_l:.2e}): the reference itself is "
                "wrong")

    def errors(self, x, ref, poison_bits, int_view):
        """Relative Frobenius and max abs error over the elements whose
        reference is finite, and the counts of poison left and of other
        non-finite values there."""
        torch = self.torch
        fin_ref = torch.isfinite(ref)
        unwritten = int(((x.view(int_view) == poison_bits) & fin_ref).sum()) \
            if poison_bits is not None else 0
        xd, rd = x.double(), ref.double()
        fin_x = torch.isfinite(xd)
        ok = fin_ref & fin_x
        diff = torch.where(ok, xd - rd, torch.zeros_like(xd))
        rnorm = torch.where(fin_ref, rd, torch.zeros_like(rd)).norm().item()
        if not rnorm > 0:
            raise RuntimeError("the reference is zero everywhere")
        return {"rel": diff.norm().item() / rnorm,
                "max_abs": diff.abs().max().item(),
                "unwritten": unwritten,
                "nonfinite": int((fin_ref & ~fin_x).sum()) - unwritten,
                "ref_nonfinite": int((~fin_ref).sum())}

    # -- implementations --

    def runner(self, impl, q, k, v):
        """(run, result): run() computes once; result() gives (O, LSE or
        None). `writes_into` tells whether run() writes buffers that can be
        poisoned first."""
        torch = self.torch
        b, h, sq, d = q.shape
        if impl in ("ours", "reference"):
            lib = self.libs[impl]
            out = torch.empty_like(q)
            lse = torch.empty(b, h, sq, device=self.dev, dtype=torch.float32)
            stream = self.stream()

            def run():
                lib.forward(q, k, v, out, lse, self.scale, stream)
            return run, (lambda: (out, lse)), (out, lse)
        if impl == "triton":
            out = torch.empty_like(q)
            lse = torch.empty(b, h, sq, device=self.dev, dtype=torch.float32)

            def run():
                self.triton.attention(q, k, v, self.causal, self.scale, out,
                                      lse)
            return run, (lambda: (out, lse)), (out, lse)
        held = {}
        if impl in SDPA_BACKENDS:
            backend = getattr(self.SDPBackend, SDPA_BACKENDS[impl])

            def run():
                with self.sdpa_kernel([backend]):
                    held["o"] = self.F.scaled_dot_product_attention(
                        q, k, v, is_causal=self.causal, scale=self.scale)
            return run, (lambda: (held["o"], None)), None
        if impl == "fa4":
            qt, kt, vt = (t.transpose(1, 2) for t in (q, k, v))  # (B, S, H, D)

            def run():
                r = self.fa4(qt, kt, vt, softmax_scale=self.scale,
                             causal=self.causal, return_lse=True)
                o, lse = r if isinstance(r, tuple) else (r, None)
                held["o"], held["lse"] = o, lse

            def result():
                o = held["o"].transpose(1, 2)
                lse = held["lse"]
                if lse is not None and tuple(lse.shape) != (b, h, sq):
                    lse = None
                return o, lse
            return run, result, None
        raise ValueError(impl)

    def check(self, impl, q, k, v, ref_o, ref_lse, warm):
        """Runs `impl` once on poisoned outputs and compares; returns the
        record. `warm`: one untimed call first (autotuning, plans, JIT)."""
        torch = self.torch
        rec = {"impl": impl, "pass": False}
        t0 = time.perf_counter()
        try:
            run, result, buffers = self.runner(impl, q, k, v)
            if warm:
                run()
                self.sync(f"{impl} warm-up call")
            if buffers is not None:
                self.poison(*buffers)
            else:
                # The library allocates its own output: hand its allocator a
                # freed, poisoned block of that size to reuse (best effort).
                junk = torch.empty_like(q)
                self.poison(junk, None)
                self.sync("poison")
                del junk
            run()
            self.sync(f"{impl} call")
            o, lse = result()
            if tuple(o.shape) != tuple(q.shape):
                raise RuntimeError(f"output shape {tuple(o.shape)}")
            eo = self.errors(o, ref_o, POISON16[self.v["dtype"]],
                             torch.int16)
            rec["o"] = eo
            ok = eo["rel"] < O_TOL and eo["unwritten"] == 0 and \
                eo["nonfinite"] == 0
            if lse is not None:
                el = self.errors(lse.float(), ref_lse,
                                 POISON32 if buffers is not None else None,
                                 torch.int32)
                rec["lse"] = el
                ok = ok and el["rel"] < LSE_TOL and el["unwritten"] == 0 \
                    and el["nonfinite"] == 0
            rec["pass"] = bool(ok)
            if impl == "triton":
                rec["config"] = self.triton.last_config()
        except ContextLost:
            raise
        except Exception as e:
            rec["error"] = f"{type(e).__name__}: {e}"[:600]
            # A launch error may have left the context broken: find out now.
            self.sync(f"{impl} after an error")
        rec["seconds"] = round(time.perf_counter() - t0, 4)
        return rec

    # -- phase 1: checks --

    def run_checks(self):
        impls = [i for i in ("ours", "reference") if i in self.libs]
        if "triton" in self.s["baselines"] and self.triton is not None:
            impls.append("triton")
        shapes = sorted(set(self.s["checks"]) | (set(self.s["ref_checks"])
                        if self.s["ref_on"] else set()))
        for sq, bh in shapes:
            todo = []
            for impl in impls:
                if impl == "reference":
                    if not self.s["ref_on"] or (sq, bh) not in \
                            self.s["ref_checks"]:
                        continue
                elif (sq, bh) not in self.s["checks"]:
                    continue
                todo.append(impl)
            if not todo:
                continue
            base = {"seqlen_q": sq, "seqlen_k": sq, "batch": 1, "heads": bh}
            self.begin(f"check inputs S={sq} BH={bh}",
                       self.s["step_timeout"])
            q, k, v = self.inputs(1, bh, sq, sq)
            ref_o, ref_lse = self.reference(q, k, v)
            self.sync("reference")
            self.watchdog.end()
            for impl in todo:
                limit = self.s["step_timeout"]
                if impl == "reference":
                    # The reference does the whole S x S work, masked or not.
                    flops = 4.0 * sq * sq * self.d * bh
                    rate = self.ref_rate or 3e11
                    predicted = flops / rate
                    left = self.ref_budget - self.ref_spent
                    if predicted > left:
                        self.res["checks"].append(dict(
                            base, impl=impl, skipped=f"predicted "
                            f"{predicted:.0f} s > {max(left, 0):.0f} s left "
                            f"of the reference budget"))
                        self.save()
                        continue
                    limit += predicted * 3
                self.begin(f"check {impl} S={sq} BH={bh}", limit)
                rec = self.check(impl, q, k, v, ref_o, ref_lse,
                                 warm=impl == "triton")
                self.watchdog.end()
                if impl == "reference":
                    self.ref_spent += rec["seconds"]
                    self.res["ref_seconds"] = round(self.ref_spent, 2)
                    if rec["seconds"] > 0.05:
                        r = 4.0 * sq * sq * self.d * bh / rec["seconds"]
                        self.ref_rate = max(self.ref_rate or 0.0, r)
                self.res["checks"].append(dict(base, **rec))
                self.save()
            del q, k, v, ref_o, ref_lse

    # -- phase 2: benchmark --

    def time_interleaved(self, runs):
        """runs: [(name, fn)]. Warm-up rounds, a probe round to size the
        count, then rounds of one call each, every call between two CUDA
        events. Returns {name: {ms, ms_p10, ms_p90, rounds}}."""
        for _ in range(self.s["warmup"]):
            for _, fn in runs:
                fn()
        self.sync("warm-up")
        t0 = time.perf_counter()
        for _, fn in runs:
            fn()
        self.sync("probe round")
        round_s = max(time.perf_counter() - t0, 1e-6)
        rounds = int(min(self.s["iters"], max(self.s["min_iters"], math.ceil(
            self.s["shape_seconds"] / round_s))))
        events = [[(self.event(), self.event()) for _ in runs]
                  for _ in range(rounds)]
        for r in range(rounds):
            for i, (_, fn) in enumerate(runs):
                events[r][i][0].record()
                fn()
                events[r][i][1].record()
        self.sync("timed rounds")
        out = {}
        for i, (name, _) in enumerate(runs):
            ms = sorted(events[r][i][0].elapsed_time(events[r][i][1])
                        for r in range(rounds))
            out[name] = {"ms": percentile(ms, 0.5),
                         "ms_p10": percentile(ms, 0.1),
                         "ms_p90": percentile(ms, 0.9), "rounds": rounds}
        return out

    def run_bench(self):
        impls = ["ours"] if "ours" in self.libs else []
        for b in self.s["baselines"]:
            if not self.res["baselines"].get(b, {}).get("available"):
                continue
            impls.append(b)
        for sq, batch, heads in bench_shapes(
                self.s["bench_seqlens"], self.d, self.s["bench_tokens"],
                self.s["bench_hidden"]):
            flops = bench_flops(sq, self.d, heads, batch, self.causal)
            rec = {"seqlen": sq, "batch": batch, "heads": heads,
                   "flops": flops, "impls": {}}
            self.begin(f"bench inputs S={sq}", self.s["step_timeout"])
            q, k, v = self.inputs(batch, heads, sq, sq)
            ref_o, ref_lse = self.reference(q, k, v)
            self.sync("reference")
            self.watchdog.end()
            runs = []
            for impl in impls:
                self.begin(f"bench check {impl} S={sq}",
                           self.s["step_timeout"])
                c = self.check(impl, q, k, v, ref_o, ref_lse, warm=True)
                self.watchdog.end()
                rec["impls"][impl] = {"check": c}
                if c["pass"]:
                    run, _, _ = self.runner(impl, q, k, v)
                    runs.append((impl, run))
            del ref_o, ref_lse
            if runs:
                self.begin(f"bench timing S={sq}",
                           self.s["step_timeout"])
                try:
                    times = self.time_interleaved(runs)
                except ContextLost:
                    raise
                except Exception as e:
                    times = {}
                    rec["timing_error"] = f"{type(e).__name__}: {e}"[:600]
                    self.sync("after a timing error")
                self.watchdog.end()
                for impl, t in times.items():
                    t["tflops"] = flops / (t["ms"] * 1e-3) / 1e12
                    rec["impls"][impl].update(t)
            self.res["bench"].append(rec)
            self.save()
            del q, k, v, runs

    def main(self):
        torch = self.torch
        self.res["device"] = torch.cuda.get_device_name() if self.on_gpu \
            else str(self.dev)
        try:
            if self.s["checks_on"]:
                self.run_checks()
            if self.s["bench_on"]:
                self.run_bench()
            self.res["status"] = "done"
        except ContextLost as e:
            self.res["status"] = f"CUDA context lost: {e}"[:800]
        except Exception as e:
            self.res["status"] = f"error: {type(e).__name__}: {e}"[:800]
            self.res["traceback"] = traceback.format_exc()[-3000:]
        self.save()
        return 0 if self.res["status"] == "done" else 3


class _HostEvent:
    """torch.cuda.Event's timing interface on the host clock (CPU runs)."""

    def record(self):
        self.t = time.perf_counter()

    def elapsed_time(self, end):
        return (end.t - self.t) * 1e3


def percentile(sorted_values, q):
    v = sorted_values
    at = q * (len(v) - 1)
    lo = int(math.floor(at))
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (at - lo) * (v[hi] - v[lo])


# --- Triton pre-compilation ---

def prewarm_one(variant):
    """Runs the autotuned Triton kernel of one variant on small shapes (an
    even and a ragged length), so that every configuration is compiled into
    Triton's on-disk cache."""
    import torch
    sys.path.insert(0, HERE)
    import triton_attention
    v = parse_variant(variant)
    dtype = torch.bfloat16 if v["dtype"] == "bf16" else torch.float16
    t0 = time.perf_counter()
    for s in (128, 1000):
        q, k, vv = (torch.randn(1, 2, s, v["head_dim"], device="cuda",
                                dtype=dtype) for _ in range(3))
        triton_attention.attention(q, k, vv, v["causal"])
    torch.cuda.synchronize()
    print(f"prewarm {variant}: {time.perf_counter() - t0:.1f} s", flush=True)


def prewarm(settings, jobs):
    variants = settings["variants"]
    jobs = max(1, min(jobs, len(variants)))
    t0 = time.perf_counter()
    procs, failed = [], []
    pending = list(variants)
    while pending or procs:
        while pending and len(procs) < jobs:
            v = pending.pop(0)
            procs.append((v, subprocess.Popen(
                [sys.executable, os.path.abspath(__file__), "--prewarm-one",
                 v])))
        time.sleep(0.2)
        for v, p in list(procs):
            if p.poll() is not None:
                procs.remove((v, p))
                if p.returncode != 0:
                    failed.append(v)
    print(f"prewarm: {len(variants)} variants in "
          f"{time.perf_counter() - t0:.1f} s"
          + (f"; failed: {', '.join(failed)}" if failed else ""), flush=True)
    return 0 if not failed else 1


# --- The parent: one process per variant, then the report ---

def run_variants(args, settings):
    os.makedirs(args.out, exist_ok=True)
    work = os.path.join(args.out, "variants")
    os.makedirs(work, exist_ok=True)
    results = []
    ref_left = settings["ref_budget"]
    variants = settings["variants"]
    for n, variant in enumerate(variants):
        out = os.path.join(work, f"{variant}.json")
        if os.path.exists(out):
            os.remove(out)
        budget = max(0.0, ref_left) / (len(variants) - n)
        cmd = [sys.executable, os.path.abspath(__file__), "--child", variant,
               "--child-out", out, "--child-ref-budget", f"{budget:.1f}"] + \
            forward_args(args)
        t0 = time.perf_counter()
        print(f"== {variant} ({n + 1}/{len(variants)}), reference budget "
              f"{budget:.0f} s", flush=True)
        status = None
        try:
            p = subprocess.run(cmd, timeout=settings["variant_timeout"],
                               start_new_session=True)
            rc = p.returncode
        except subprocess.TimeoutExpired:
            rc, status = None, (f"variant process ran past "
                                f"{settings['variant_timeout']:.0f} s")
        res = None
        if os.path.exists(out):
            with open(out) as f:
                res = json.load(f)
        if res is None:
            res = {"variant": variant, "libs": {}, "baselines": {},
                   "checks": [], "bench": [], "ref_seconds": 0.0,
                   "status": status or f"no results (exit {rc})"}
        elif status:
            res["status"] = status
        elif rc not in (0, 3) and res.get("status") in ("running", "done"):
            how = f"killed by signal {-rc}" if rc < 0 else f"exit {rc}"
            res["status"] = f"{how} during: {res.get('step', '?')}"
        res["seconds"] = round(time.perf_counter() - t0, 1)
        ref_left -= res.get("ref_seconds", 0.0)
        results.append(res)
        print_variant_lines(res)
    return results


def forward_args(args):
    out = ["--lib-dir", args.lib_dir, "--out", args.out,
           "--variants", args.variants or "*",
           "--checks", args.checks, "--bench-seqlens", args.bench_seqlens,
           "--bench-tokens", str(args.bench_tokens),
           "--bench-hidden", str(args.bench_hidden),
           "--baselines", args.baselines or "", "--warmup", str(args.warmup),
           "--iters", str(args.iters), "--min-iters", str(args.min_iters),
           "--shape-seconds", str(args.shape_seconds),
           "--ref-budget", str(args.ref_budget),
           "--step-timeout", str(args.step_timeout),
           "--variant-timeout", str(args.variant_timeout)]
    if args.ref_checks:
        out += ["--ref-checks", args.ref_checks]
    for flag, on in (("--no-checks", args.no_checks),
                     ("--no-bench", args.no_bench), ("--no-ref", args.no_ref)):
        if on:
            out.append(flag)
    if args.seed is not None:
        out += ["--seed", str(args.seed)]
    if args.device != "cuda":
        out += ["--device", args.device]
    return out


def fmt(x, spec=".2e"):
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) \
        else format(x, spec)


def check_line(variant, c):
    where = f"S={c['seqlen_q']} BH={c['heads'] * c['batch']}"
    if "skipped" in c:
        return f"{variant} {c['impl']:9s} {where:14s} skipped: {c['skipped']}"
    eo, el = c.get("o", {}), c.get("lse", {})
    text = (f"{variant} {c['impl']:9s} {where:14s} O {fmt(eo.get('rel'))} "
            f"LSE {fmt(el.get('rel'))} {'PASS' if c['pass'] else 'FAIL'}")
    for part, e in (("O", eo), ("LSE", el)):
        if e.get("unwritten") or e.get("nonfinite"):
            text += f" {part}: {e['unwritten']} unwritten, " \
                f"{e['nonfinite']} non-finite"
    if c.get("error"):
        text += f" error: {c['error'][:200]}"
    return text + f" ({c.get('seconds', 0):.2f} s)"


def print_variant_lines(res):
    v = res["variant"]
    for kind, info in res.get("libs", {}).items():
        if not info.get("loaded"):
            print(f"{v} {kind}: {info.get('error')}")
    for c in res.get("checks", []):
        print(check_line(v, c))
    for b in res.get("bench", []):
        parts = []
        for impl, r in b["impls"].items():
            if "tflops" in r:
                parts.append(f"{SHORT.get(impl, impl)} {r['tflops']:.0f}")
            elif not r["check"]["pass"]:
                parts.append(f"{SHORT.get(impl, impl)} FAIL")
        print(f"{v} bench S={b['seqlen']:5d} B={b['batch']} H={b['heads']}: "
              + ", ".join(parts) + " TFLOP/s")
        for impl, r in b["impls"].items():
            if not r["check"]["pass"]:
                c = dict(r["check"], seqlen_q=b["seqlen"], batch=b["batch"],
                         heads=b["heads"])
                print("  " + check_line(v, c))
    print(f"{v}: {res.get('status')} ({res.get('seconds', 0)} s)", flush=True)


def geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else None


def summarize(results, settings):
    """The numbers of the tables, as a dict (bench-summary.json)."""
    counts = {}
    failures = []
    for res in results:
        for c in res.get("checks", []):
            k = counts.setdefault(c["impl"], {"pass": 0, "fail": 0,
                                              "skipped": 0})
            if "skipped" in c:
                k["skipped"] += 1
            elif c["pass"]:
                k["pass"] += 1
            else:
                k["fail"] += 1
                failures.append(check_line(res["variant"], c))
    bench_counts = {}
    skipped_baselines = {}
    baseline_errors = {}
    missing = {}
    tflops = {}
    for res in results:
        v = res["variant"]
        for kind, info in res.get("libs", {}).items():
            if not info.get("loaded"):
                missing.setdefault(kind, []).append(
                    f"{v} ({info.get('error', '?')})")
        for b, info in res.get("baselines", {}).items():
            if not info.get("available"):
                skipped_baselines.setdefault(b, info.get("error", "?"))
        for b in res.get("bench", []):
            for impl, r in b["impls"].items():
                k = bench_counts.setdefault(impl, {"pass": 0, "fail": 0})
                if r["check"]["pass"]:
                    k["pass"] += 1
                else:
                    k["fail"] += 1
                    if impl not in ("ours", "triton"):
                        err = r["check"].get("error") or "check failed: " + \
                            check_line(v, dict(r["check"], seqlen_q=b[
                                "seqlen"], batch=b["batch"],
                                heads=b["heads"]))
                        baseline_errors.setdefault(impl, []).append(
                            f"{v} S={b['seqlen']}: {err}"[:300])
                    else:
                        c = dict(r["check"], seqlen_q=b["seqlen"],
                                 batch=b["batch"], heads=b["heads"])
                        failures.append("bench " + check_line(v, c))
                if "tflops" in r:
                    tflops.setdefault(v, {}).setdefault(impl, {})[
                        str(b["seqlen"])] = r["tflops"]
            if b.get("timing_error"):
                failures.append(f"bench {v} S={b['seqlen']} timing: "
                                f"{b['timing_error']}")
    ratios = {}
    for v, per in tflops.items():
        ours = per.get("ours", {})
        for impl, row in per.items():
            if impl == "ours":
                continue
            rs = [ours[s] / row[s] for s in row if s in ours and row[s] > 0]
            if rs:
                ratios.setdefault(v, {})[impl] = geomean(rs)
    statuses = {res["variant"]: res.get("status") for res in results}
    ok = all(k["fail"] == 0 for i, k in counts.items()) and \
        all(bench_counts.get(i, {}).get("fail", 0) == 0
            for i in ("ours", "triton")) and \
        all(s == "done" for s in statuses.values())
    return {"pass": ok, "checks": counts, "bench_checks": bench_counts,
            "failures": failures, "skipped_baselines": skipped_baselines,
            "baseline_errors": baseline_errors, "missing_libs": missing,
            "status": statuses, "tflops": tflops, "ours_over": ratios,
            "seqlens": settings["bench_seqlens"],
            "variants": [r["variant"] for r in results]}


def table_text(summary):
    lines = []
    c = summary["checks"]
    if c:
        lines.append("== checks (O rel < 1e-2, LSE rel < 1e-4, every element "
                     "written): " + ", ".join(
                         f"{i} {k['pass']}/{k['pass'] + k['fail']}"
                         + (f" ({k['skipped']} skipped)" if k["skipped"]
                            else "") for i, k in sorted(c.items())))
    bc = summary["bench_checks"]
    if bc:
        lines.append("== benchmark shapes checked before timing: " + ", ".join(
            f"{SHORT.get(i, i)} {k['pass']}/{k['pass'] + k['fail']}"
            for i, k in bc.items()))
    for b, why in summary["skipped_baselines"].items():
        lines.append(f"   {b} not run: {why[:150]}")
    for b, errs in summary["baseline_errors"].items():
        lines.append(f"   {b} failed {len(errs)} shape(s), e.g. "
                     f"{errs[0][:170]}")
    for kind, which in summary["missing_libs"].items():
        lines.append(f"   no {kind} library for {len(which)} variant(s): "
                     + ", ".join(which)[:200])
    bad = {v: s for v, s in summary["status"].items() if s != "done"}
    for v, s in bad.items():
        lines.append(f"   {v}: {str(s)[:200]}")
    for f in summary["failures"][:12]:
        lines.append("   FAIL " + f[:220])
    if len(summary["failures"]) > 12:
        lines.append(f"   ... {len(summary['failures']) - 12} more failures "
                     "(bench.json)")
    seqlens = [str(s) for s in summary["seqlens"]]
    head = "variant           " + "".join(
        f"{(s if int(s) < 1024 else str(int(s) // 1024) + 'k'):>11s}"
        for s in seqlens)
    tf = summary["tflops"]
    if any("ours" in per for per in tf.values()):
        lines.append("== ours TFLOP/s (x: ours / the best baseline at that "
                     "shape)")
        lines.append(head)
        for v in summary["variants"]:
            per = tf.get(v, {})
            cells = []
            for s in seqlens:
                ours = per.get("ours", {}).get(s)
                best = max((row[s] for i, row in per.items()
                            if i != "ours" and s in row), default=None)
                if ours is None:
                    cells.append(f"{'-':>11s}")
                else:
                    r = f"x{ours / best:.2f}" if best else ""
                    cells.append(f"{ours:6.0f} {r:<5s}")
            lines.append(f"{v:18s}" + "".join(cells))
    impls = [i for i in ("ours",) + BASELINES
             if any(i in per for per in tf.values())]
    if impls:
        lines.append("== TFLOP/s, geometric mean over the seqlens "
                     "(ours / each in brackets)")
        lines.append(f"{'variant':18s}" + "".join(
            f"{SHORT[i]:>14s}" for i in impls))
        for v in summary["variants"]:
            per = tf.get(v, {})
            cells = []
            for i in impls:
                g = geomean(per.get(i, {}).values())
                r = summary["ours_over"].get(v, {}).get(i)
                cell = "-" if g is None else f"{g:.0f}" + (
                    f" ({r:.2f})" if r else "")
                cells.append(f"{cell:>14s}")
            lines.append(f"{v:18s}" + "".join(cells))
    lines.append("== " + ("PASS" if summary["pass"] else "FAIL")
                 + ": every check of ours, the reference and Triton"
                 + (" passed" if summary["pass"] else " did not pass"))
    return "\n".join(lines)


def settings_hidden(results):
    for r in results:
        for b in r.get("bench", []):
            return b["heads"] * parse_variant(r["variant"])["head_dim"]
    return 2048


def plot(results, out_dir, title_extra=""):
    """One PNG per head dimension: TFLOP/s against seqlen, a panel per dtype
    and mask, a line per implementation. Returns the paths written."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception as e:
        print(f"charts not drawn: {e!r}")
        return []
    styles = {"ours": ("tab:red", "o", 2.4), "cudnn": ("tab:blue", "s", 1.4),
              "flash": ("tab:green", "^", 1.4),
              "efficient": ("tab:gray", "v", 1.2),
              "triton": ("tab:purple", "D", 1.4),
              "fa4": ("tab:orange", "P", 1.4)}
    by = {r["variant"]: r for r in results}
    paths = []
    for d in HEAD_DIMS:
        names = [f"{t}-d{d}-{m}" for t in DTYPES for m in MASKS]
        if not any(by.get(n, {}).get("bench") for n in names):
            continue
        fig, axes = plt.subplots(2, 2, figsize=(11, 8), sharex=True)
        for row, t in enumerate(DTYPES):
            for col, m in enumerate(MASKS):
                ax = axes[row][col]
                res = by.get(f"{t}-d{d}-{m}")
                ax.set_title(f"{t}, {m}, head dim {d}", fontsize=10)
                ax.set_xscale("log", base=2)
                ax.grid(True, alpha=0.3)
                if not res or not res.get("bench"):
                    ax.text(0.5, 0.5, "not measured", ha="center",
                            transform=ax.transAxes)
                    continue
                seqlens = [b["seqlen"] for b in res["bench"]]
                for impl in ("ours",) + BASELINES:
                    xs, ys = [], []
                    for b in res["bench"]:
                        r = b["impls"].get(impl)
                        if r and "tflops" in r:
                            xs.append(b["seqlen"])
                            ys.append(r["tflops"])
                    if xs:
                        color, marker, lw = styles[impl]
                        ax.plot(xs, ys, color=color, marker=marker,
                                linewidth=lw, label=IMPL_LABELS[impl])
                ax.set_xticks(seqlens)
                ax.set_xticklabels([str(s) if s < 1024 else f"{s // 1024}k"
                                    for s in seqlens])
                ax.set_ylim(bottom=0)
                if col == 0:
                    ax.set_ylabel("TFLOP/s")
                if row == 1:
                    ax.set_xlabel("sequence length (batch = 16k / seqlen)")
                ax.legend(fontsize=7, loc="lower right")
        fig.suptitle(f"Attention forward, head dim {d}, "
                     f"{max(1, settings_hidden(results) // d)} heads"
                     + (f" — {title_extra}" if title_extra else ""))
        fig.tight_layout()
        path = os.path.join(out_dir, f"attention-d{d}.png")
        fig.savefig(path, dpi=90)
        plt.close(fig)
        paths.append(path)
    return paths


def environment_info():
    info = {"python": sys.version.split()[0], "time": time.strftime(
        "%Y-%m-%d %H:%M:%S %Z")}
    try:
        import torch
        info["torch"] = torch.__version__
        info["cuda"] = torch.version.cuda
        info["cudnn"] = torch.backends.cudnn.version()
        try:
            from torch.nn.attention import list_flash_attention_impls
            info["flash_attention_impls"] = list(
                list_flash_attention_impls())
        except Exception:
            pass
    except Exception as e:
        info["torch"] = f"not importable: {e!r}"
    try:
        import triton
        info["triton"] = triton.__version__
    except Exception as e:
        info["triton"] = f"not importable: {e!r}"
    return info


def report(results, settings, out_dir, info):
    summary = summarize(results, settings)
    os.makedirs(out_dir, exist_ok=True)
    full = {"info": info, "settings": settings, "summary": summary,
            "variants": results}
    with open(os.path.join(out_dir, "bench.json"), "w") as f:
        json.dump(full, f, indent=1, default=str)
    with open(os.path.join(out_dir, "bench-summary.json"), "w") as f:
        json.dump({k: v for k, v in summary.items()}, f, indent=1,
                  default=str)
    paths = plot(results, out_dir, info.get("device", ""))
    if paths:
        print("charts: " + ", ".join(paths))
    table = table_text(summary)
    with open(os.path.join(out_dir, "table.txt"), "w") as f:
        f.write(table + "\n")
    print(table, flush=True)
    return 0 if summary["pass"] else 1


# --- Dry run ---

def fake_results(settings, seed=0):
    """Plausible results without a GPU: every path of the report runs."""
    rng = random.Random(seed)
    results = []
    speed = {"ours": 520, "cudnn": 560, "flash": 350, "efficient": 230,
             "triton": 420, "fa4": 600}
    for variant in settings["variants"]:
        v = parse_variant(variant)
        res = {"variant": variant, "seed": seed, "status": "done",
               "libs": {"ours": {"loaded": True},
                        "reference": {"loaded": True}},
               "baselines": {b: {"available": b != "fa4"} for b in
                             settings["baselines"]},
               "checks": [], "bench": [], "ref_seconds": 1.0, "seconds": 9.9}
        if "fa4" in res["baselines"]:
            res["baselines"]["fa4"]["error"] = \
                "import failed: ModuleNotFoundError('flash_attn') (dry run)"
        for sq, bh in settings["checks"] if settings["checks_on"] else []:
            for impl in ("ours", "reference", "triton"):
                e = 2e-3 if v["dtype"] == "bf16" else 3e-4
                res["checks"].append({
                    "impl": impl, "seqlen_q": sq, "seqlen_k": sq, "batch": 1,
                    "heads": bh, "pass": True,
                    "o": {"rel": e * rng.uniform(0.8, 1.2), "max_abs": 0.01,
                          "unwritten": 0, "nonfinite": 0, "ref_nonfinite": 0},
                    "lse": {"rel": 1e-7, "max_abs": 1e-6, "unwritten": 0,
                            "nonfinite": 0, "ref_nonfinite": 0},
                    "seconds": 0.01})
        for sq, batch, heads in (bench_shapes(
                settings["bench_seqlens"], v["head_dim"],
                settings["bench_tokens"], settings["bench_hidden"])
                if settings["bench_on"] else []):
            flops = bench_flops(sq, v["head_dim"], heads, batch, v["causal"])
            rec = {"seqlen": sq, "batch": batch, "heads": heads,
                   "flops": flops, "impls": {}}
            for impl in ["ours"] + [b for b in settings["baselines"]
                                    if b != "fa4"]:
                eff = speed[impl] * (1 - 0.5 / math.log2(sq)) * \
                    (0.8 if v["causal"] else 1.0) * rng.uniform(0.95, 1.05)
                ms = flops / (eff * 1e12) * 1e3
                rec["impls"][impl] = {
                    "check": {"impl": impl, "pass": True,
                              "o": {"rel": 2e-3}}, "ms": ms,
                    "ms_p10": ms * 0.99, "ms_p90": ms * 1.01, "rounds": 20,
                    "tflops": eff}
            res["bench"].append(rec)
        results.append(res)
    return results


# --- Main ---

def main(argv=None):
    args = make_parser().parse_args(argv)
    if args.prewarm_one:
        prewarm_one(args.prewarm_one)
        return 0
    try:
        settings = settings_of(args)
    except ValueError as e:
        print(f"bench.py: {e}", file=sys.stderr)
        return 2
    if args.child:
        child = Child(args.child, args, settings)
        return child.main()
    if args.prewarm_triton:
        return prewarm(settings, args.jobs)
    if args.from_json:
        with open(args.from_json) as f:
            old = json.load(f)
        return report(old["variants"], old.get("settings", settings),
                      args.out, old.get("info", {}))
    t0 = time.perf_counter()
    if args.dry_run:
        info = {"dry_run": True, "device": "dry run (fake numbers)",
                "python": sys.version.split()[0]}
        results = fake_results(settings, args.seed or 0)
        for res in results:
            print_variant_lines(res)
    else:
        info = environment_info()
        print("bench.py: " + ", ".join(
            f"{k} {v}" for k, v in info.items() if k != "time"), flush=True)
        results = run_variants(args, settings)
        devices = {r["device"] for r in results if r.get("device")}
        if devices:
            info["device"] = ", ".join(sorted(devices))
    info["seconds"] = round(time.perf_counter() - t0, 1)
    return report(results, settings, args.out, info)


if __name__ == "__main__":
    sys.exit(main())
