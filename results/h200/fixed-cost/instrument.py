#!/usr/bin/env python3
"""Variants of the wide kernel `gemm_nt` of a rewrite of examples/gemm/gemm.cu,
for measuring what one CTA spends outside its K loop (README.md).

usage: instrument.py MODE IN.ws.cu OUT.ws.cu
  stamps  clock64() stamps in CTA 0 (thread 0 of the producer, thread 128 of
          the first consumer), printed by thread 128 at the end; the printf
          serializes the consumers' wgmma (ptxas C7510), so only the stamps
          before the K loop and the epilogue's are meaningful
  ret     the kernel returns at once (the launch's own cost)
  sync    the kernel returns after its barriers are set up (__syncthreads)
Exits 1 where the rewrite does not have the expected statements.
"""
import sys

HELPER = r'''__device__ unsigned long long tawa_dbg[16];
__device__ __forceinline__ unsigned long long tawa_clk() { return clock64(); }
__device__ __forceinline__ unsigned long long tawa_gt() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
'''

PRINT = r'''    if (blockIdx.x == 0 && threadIdx.x == 128) {
      tawa_dbg[6] = tawa_clk();
      tawa_dbg[10] = tawa_gt();
      const unsigned long long *d = tawa_dbg;
      printf("dbg producer: setmaxnreg %llu walk %llu tile %llu put %llu\n",
             d[11] - d[0], d[12] - d[0], d[13] - d[0], d[14] - d[0]);
      printf("dbg cta0 cycles: sync %llu issue %llu data %llu mma %llu "
             "store %llu end %llu | gt span %llu ns\n",
             d[1] - d[0], d[2] - d[0], d[3] - d[0], d[4] - d[0], d[5] - d[0],
             d[6] - d[0], d[10] - d[8]);
      tawa_dbg[13] = 0;
    }
'''

# (statement in gemm_nt, what goes before it, what goes after it)
STAMPS = [
    ('  extern __shared__ unsigned char tawa_smem[];\n',
     '  const unsigned long long t_entry = tawa_clk(), g_entry = tawa_gt();\n',
     ''),
    ('  __syncthreads();\n', '',
     '  if (blockIdx.x == 0 && threadIdx.x == 0) {\n'
     '    tawa_dbg[0] = t_entry;\n    tawa_dbg[1] = tawa_clk();\n'
     '    tawa_dbg[8] = g_entry;\n  }\n'),
    ('    tawa::rt::warpgroup_release_registers<40>();\n    if (threadIdx.x == 0) {\n',
     '', '      if (blockIdx.x == 0) tawa_dbg[11] = tawa_clk();\n'),
    ('      int k_iter = 0;\n', '',
     '      if (blockIdx.x == 0) tawa_dbg[12] = tawa_clk();\n'),
    ('        k_iter = 0;\n', '',
     '        if (blockIdx.x == 0 && !tawa_dbg[13]) tawa_dbg[13] = tawa_clk();\n'),
    ('          tawa::rt::tma_load_rows<128, false>(',
     '          if (blockIdx.x == 0 && k_iter == 1) tawa_dbg[14] = tawa_clk();\n',
     ''),
    ('          a_b.advance();\n', '',
     '          if (blockIdx.x == 0 && k_iter == 1) tawa_dbg[2] = tawa_clk();\n'),
    ('        smem.a_b_aref.get(a_b);\n', '',
     '        if (blockIdx.x == 0 && threadIdx.x == 128 && k_steps == 0)\n'
     '          tawa_dbg[3] = tawa_clk();\n'),
    ('      acc.fence();\n', '',
     '      if (blockIdx.x == 0 && threadIdx.x == 128) tawa_dbg[4] = tawa_clk();\n'),
    ('            acc, /*zero=*/k_steps == 0, /*barrier=*/1 + consumer);\n', '',
     '        if (blockIdx.x == 0 && threadIdx.x == 128) tawa_dbg[5] = tawa_clk();\n'),
    ('      tawa::rt::tma_store_wait_all();\n    }\n', '', PRINT),
]


def insert(src, start, old, before, after):
    at = src.find(old, start)
    if at < 0:
        sys.exit(f"instrument.py: not found in gemm_nt: {old.strip()}")
    return src[:at] + before + old + after + src[at + len(old):]


def main():
    mode, path_in, path_out = sys.argv[1:4]
    src = open(path_in).read()
    head = src.find('__global__ void __launch_bounds__(384, 1)\n    gemm_nt(')
    if head < 0:
        sys.exit("instrument.py: no wide kernel gemm_nt")
    body = src.find('  constexpr int kStages', head)
    if mode == 'ret':
        src = src[:body] + '  if (A.cols > 0) return;\n' + src[body:]
    elif mode == 'sync':
        src = insert(src, body, '  __syncthreads();\n', '',
                     '  if (A.cols > 0) return;\n')
    elif mode == 'stamps':
        src = src[:head] + HELPER + src[head:]
        for old, before, after in STAMPS:
            src = insert(src, head, old, before, after)
    else:
        sys.exit(__doc__)
    open(path_out, 'w').write(src)


if __name__ == '__main__':
    main()
