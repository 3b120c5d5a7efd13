"""FlashAttention forward in Triton: the baseline a Triton user writes.

O = softmax(Q K^T * scale) V and LSE (natural log), for Q, K, V, O of shape
(B, H, S, D), contiguous, bf16 or fp16, D in {64, 128, 256}; causal masks are
top-left aligned (PyTorch's is_causal). The kernel follows the structure of
Triton's fused-attention tutorial (FlashAttention-2's online softmax):

- one program per (BLOCK_M queries, batch * head); Q stays in registers, K and
  V stream through shared memory BLOCK_N keys at a time, loaded through
  tensor descriptors (the TMA unit on Hopper), software-pipelined
  `num_stages` deep;
- the softmax runs in base 2: scores are scaled by scale * log2(e), exp2
  replaces exp, and the running max and sum are rescaled per block;
- the key range is walked in two stages, as the tutorial does for causal
  attention: first the key blocks that need no mask (every key before the
  query block's diagonal, or before the last partial block), then the few
  that do (the blocks on the diagonal, the ragged last block);
- the descriptors are 3-D, (B * H, S, D) with blocks of (1, BLOCK, D), so a
  ragged sequence length reads zeros past a head's end and stores clip at
  it (a 2-D (B * H * S, D) view would read and write the next head's rows);
- autotuned over a few configurations per head dimension, keyed by the head
  dimension, the dtype, the causal flag, the number of heads and the sequence
  length rounded up to a power of two.

`attention(q, k, v, causal, sm_scale=None, out=None, lse=None)` returns
(out, lse); `config=` runs one fixed configuration instead of autotuning (for
tests, and the interpreter: TRITON_INTERPRET=1 runs it on the CPU).
"""

import math
import os

import torch
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor

LOG2E = 1.4426950408889634
LN2 = 0.6931471805599453


@triton.jit
def _attend_blocks(acc, l_i, m_i, q, desc_k, desc_v, bh, lo, hi, offs_m,
                   n_keys, qk_scale, BLOCK_N: tl.constexpr,
                   HEAD_DIM: tl.constexpr, MASKED: tl.constexpr,
                   IS_CAUSAL: tl.constexpr):
    """Folds the keys [lo, hi) (lo a multiple of BLOCK_N) into the running
    (acc, l_i, m_i) of the query rows offs_m. MASKED: some keys of the range
    are past n_keys or (IS_CAUSAL) after a query; otherwise none is."""
    offs_n = tl.arange(0, BLOCK_N)
    for start_n in tl.range(lo, hi, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        k = desc_k.load([bh, start_n, 0]).reshape(BLOCK_N, HEAD_DIM)
        s = tl.dot(q, tl.trans(k))
        if MASKED:
            cols = start_n + offs_n
            keep = cols[None, :] < n_keys
            if IS_CAUSAL:
                keep = keep & (cols[None, :] <= offs_m[:, None])
            s = tl.where(keep, s * qk_scale, float("-inf"))
            m_new = tl.maximum(m_i, tl.max(s, 1))
            # A row with no key kept so far keeps m = -inf: subtract 0 instead
            # of -inf so that its probabilities are 0, not NaN.
            m_sub = tl.where(m_new == float("-inf"), 0.0, m_new)
            p = tl.math.exp2(s - m_sub[:, None])
            alpha = tl.math.exp2(m_i - m_sub)
        else:
            m_new = tl.maximum(m_i, tl.max(s, 1) * qk_scale)
            p = tl.math.exp2(s * qk_scale - m_new[:, None])
            alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = desc_v.load([bh, start_n, 0]).reshape(BLOCK_N, HEAD_DIM)
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_new
    return acc, l_i, m_i


@triton.jit(do_not_specialize=["n_queries", "n_keys", "BH", "N_CTX_KEY",
                               "IS_BF16"])
def _attn_fwd(desc_q, desc_k, desc_v, desc_o, lse_ptr, sm_scale, n_queries,
              n_keys, BH, N_CTX_KEY, IS_BF16, HEAD_DIM: tl.constexpr,
              IS_CAUSAL: tl.constexpr, BLOCK_M: tl.constexpr,
              BLOCK_N: tl.constexpr):
    # BH, N_CTX_KEY and IS_BF16 only key the autotuner's cache.
    tl.static_assert(BLOCK_M % BLOCK_N == 0)
    start_m = tl.program_id(0)
    bh = tl.program_id(1)
    m0 = start_m * BLOCK_M
    offs_m = m0 + tl.arange(0, BLOCK_M)
    qk_scale = sm_scale * 1.4426950408889634  # log2(e): exp2 below
    q = desc_q.load([bh, m0, 0]).reshape(BLOCK_M, HEAD_DIM)
    m_i = tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)

    # Stage 1: whole key blocks that every query row of this block sees in
    # full. Stage 2: the rest, masked (the diagonal blocks; the ragged end).
    full_end = (n_keys // BLOCK_N) * BLOCK_N
    if IS_CAUSAL:
        mid = tl.minimum(m0, full_end)  # m0 is a multiple of BLOCK_N
        hi = tl.minimum(m0 + BLOCK_M, n_keys)
    else:
        mid = full_end
        hi = n_keys
    acc, l_i, m_i = _attend_blocks(acc, l_i, m_i, q, desc_k, desc_v, bh, 0,
                                   mid, offs_m, n_keys, qk_scale, BLOCK_N,
                                   HEAD_DIM, False, IS_CAUSAL)
    acc, l_i, m_i = _attend_blocks(acc, l_i, m_i, q, desc_k, desc_v, bh, mid,
                                   hi, offs_m, n_keys, qk_scale, BLOCK_N,
                                   HEAD_DIM, True, IS_CAUSAL)

    o = acc / l_i[:, None]
    desc_o.store([bh, m0, 0], o.to(q.dtype).reshape(1, BLOCK_M, HEAD_DIM))
    lse = (m_i + tl.math.log2(l_i)) * 0.6931471805599453  # ln(2): natural log
    tl.store(lse_ptr + bh.to(tl.int64) * n_queries + offs_m, lse,
             mask=offs_m < n_queries)


def _set_block_shapes(nargs):
    """Config pre-hook: the descriptors' block shapes follow the tile sizes."""
    bm, bn, d = nargs["BLOCK_M"], nargs["BLOCK_N"], nargs["HEAD_DIM"]
    nargs["desc_q"].block_shape = [1, bm, d]
    nargs["desc_o"].block_shape = [1, bm, d]
    nargs["desc_k"].block_shape = [1, bn, d]
    nargs["desc_v"].block_shape = [1, bn, d]


# (BLOCK_M, BLOCK_N, num_warps, num_stages) per head dimension: a few
# candidates around what the tutorial's search finds on Hopper; shared memory
# (Q + num_stages * (K + V) blocks) stays under 227 KB.
CONFIGS = {
    64: [(128, 128, 8, 3), (128, 64, 4, 4), (128, 128, 4, 3)],
    128: [(128, 128, 8, 3), (128, 64, 8, 3), (128, 64, 4, 4)],
    256: [(128, 64, 8, 2), (128, 32, 8, 3), (64, 64, 4, 2)],
}


def _config(bm, bn, warps, stages):
    return triton.Config({"BLOCK_M": bm, "BLOCK_N": bn}, num_warps=warps,
                         num_stages=stages, pre_hook=_set_block_shapes)


def _key(c):
    return (c.kwargs["BLOCK_M"], c.kwargs["BLOCK_N"], c.num_warps,
            c.num_stages)


# Every candidate once (some serve several head dimensions).
_ALL_CONFIGS = [_config(*t) for t in
                sorted({t for ts in CONFIGS.values() for t in ts})]


def _prune(configs, nargs, **kwargs):
    """The candidates of the call's head dimension."""
    wanted = set(CONFIGS[kwargs["HEAD_DIM"]])
    return [c for c in configs if _key(c) in wanted]


def _quick_bench(fn, quantiles):
    # Short measurements: enough to rank a handful of configurations.
    return triton.testing.do_bench(fn, warmup=3, rep=15, quantiles=quantiles)


_attn_fwd_tuned = triton.autotune(
    configs=_ALL_CONFIGS,
    key=["N_CTX_KEY", "BH", "IS_BF16", "HEAD_DIM", "IS_CAUSAL"],
    prune_configs_by={"early_config_prune": _prune},
    do_bench=_quick_bench,
)(_attn_fwd)


def attention(q, k, v, causal, sm_scale=None, out=None, lse=None,
              config=None):
    """(out, lse) of attention over (B, H, S, D) tensors; see the module
    docstring. `out` (like q) and `lse` ((B, H, S) float32) are written in
    place when given. `config`: (BLOCK_M, BLOCK_N, num_warps, num_stages) to
    run without autotuning."""
    if q.dim() != 4 or k.shape != v.shape or k.shape[:2] != q.shape[:2] \
            or k.shape[3] != q.shape[3]:
        raise ValueError("q, k, v: (B, H, S, D), k and v of one shape")
    if q.dtype not in (torch.bfloat16, torch.float16) or \
            k.dtype != q.dtype or v.dtype != q.dtype:
        raise ValueError("q, k, v: one dtype, bf16 or fp16")
    for t in (q, k, v):
        if not t.is_contiguous():
            raise ValueError("q, k, v must be contiguous")
    b, h, sq, d = q.shape
    sk = k.shape[2]
    if d not in CONFIGS:
        raise ValueError(f"head dim {d}: 64, 128 or 256")
    if sm_scale is None:
        sm_scale = 1.0 / math.sqrt(d)
    bh = b * h
    if out is None:
        out = torch.empty_like(q)
    if lse is None:
        lse = torch.empty((b, h, sq), device=q.device, dtype=torch.float32)
    if not out.is_contiguous() or out.shape != q.shape or out.dtype != q.dtype:
        raise ValueError("out: like q, contiguous")
    if not lse.is_contiguous() or lse.shape != (b, h, sq) or \
            lse.dtype != torch.float32:
        raise ValueError("lse: (B, H, S) float32, contiguous")

    def desc(t, s):
        # Block shapes are placeholders until the config's pre-hook sets them.
        return TensorDescriptor(t, [bh, s, d], [s * d, d, 1], [1, 64, d])

    dq, dk, dv, do = desc(q, sq), desc(k, sk), desc(v, sk), desc(out, sq)
    args = (dq, dk, dv, do, lse, float(sm_scale), sq, sk, bh,
            triton.next_power_of_2(sq), int(q.dtype == torch.bfloat16))

    def grid(meta):
        return (triton.cdiv(sq, meta["BLOCK_M"]), bh)

    if config is None and os.environ.get("TRITON_INTERPRET") == "1":
        config = CONFIGS[d][0]  # the interpreter cannot time candidates
    if config is None:
        _attn_fwd_tuned[grid](*args, HEAD_DIM=d, IS_CAUSAL=bool(causal))
    else:
        bm, bn, warps, stages = config
        _set_block_shapes({"BLOCK_M": bm, "BLOCK_N": bn, "HEAD_DIM": d,
                           "desc_q": dq, "desc_k": dk, "desc_v": dv,
                           "desc_o": do})
        _attn_fwd[grid](*args, HEAD_DIM=d, IS_CAUSAL=bool(causal),
                        BLOCK_M=bm, BLOCK_N=bn, num_warps=warps,
                        num_stages=stages)
    return out, lse


def last_config():
    """(BLOCK_M, BLOCK_N, num_warps, num_stages) of the autotuned kernel's
    last launch, or None before the first."""
    cfg = getattr(_attn_fwd_tuned, "best_config", None)
    return None if cfg is None else _key(cfg)


def _reference(q, k, v, causal, sm_scale):
    """(out, lse) in float64 on q's device."""
    qd, kd, vd = q.double(), k.double(), v.double()
    s = torch.einsum("bhqd,bhkd->bhqk", qd, kd) * sm_scale
    if causal:
        sq, sk = s.shape[-2:]
        keep = torch.ones(sq, sk, dtype=torch.bool, device=q.device).tril()
        s = s.masked_fill(~keep, float("-inf"))
    lse = torch.logsumexp(s, -1)
    return torch.softmax(s, -1) @ vd, lse


def _self_test():
    """Every configuration on small ragged shapes against float64, on the
    GPU or, with TRITON_INTERPRET=1, on the CPU. The interpreter (Triton
    3.6) multiplies bf16 operands of tl.dot as raw 16-bit integers, so on
    the CPU only fp16 is checked."""
    interpret = os.environ.get("TRITON_INTERPRET") == "1"
    device = "cpu" if interpret else "cuda"
    dtypes = (torch.float16,) if interpret else (torch.bfloat16, torch.float16)
    torch.manual_seed(0)
    worst = 0.0
    failures = 0
    for d, configs in sorted(CONFIGS.items()):
        for cfg in configs:
            for dtype in dtypes:
                for causal in (False, True):
                    for sq in (cfg[0] + 37, 2 * cfg[0]):
                        shape = (1, 2, sq, d)
                        q, k, v = (torch.randn(shape, dtype=dtype,
                                               device=device)
                                   for _ in range(3))
                        scale = 1.0 / math.sqrt(d)
                        out = torch.full_like(q, float("nan"))
                        lse = torch.full((1, 2, sq), float("nan"),
                                         device=device)
                        attention(q, k, v, causal, scale, out, lse,
                                  config=cfg)
                        ro, rl = _reference(q, k, v, causal, scale)
                        eo = ((out.double() - ro).norm() / ro.norm()).item()
                        el = ((lse.double() - rl).norm() / rl.norm()).item()
                        ok = eo < 1e-2 and el < 1e-4 and \
                            not out.isnan().any() and not lse.isnan().any()
                        worst = max(worst, eo)
                        failures += not ok
                        print(f"d{d} {str(dtype)[6:]:8s} causal={causal:d} "
                              f"S={sq:4d} cfg={cfg}: O {eo:.2e} LSE {el:.2e}"
                              f" {'ok' if ok else 'FAIL'}", flush=True)
    print(f"{failures} failed; worst O error {worst:.2e}")
    return failures == 0


if __name__ == "__main__":
    import sys
    sys.exit(0 if _self_test() else 1)
