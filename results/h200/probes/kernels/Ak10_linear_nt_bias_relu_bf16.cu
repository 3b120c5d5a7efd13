// nn.Linear forward with fused ReLU: Y = relu(X * W^T + b). X is M x K
// (tokens x in_features), W is N x K (out_features x in_features, PyTorch
// layout), b has N entries; bf16 in/out, fp32 accumulation. 32 x 32 tiles,
// padded to avoid bank conflicts on the transposed read of W.
#include <cuda_runtime.h>
#include <cuda_bf16.h>

#define TS 32

__global__ void __launch_bounds__(TS * TS)
linear_relu_fwd(const __nv_bfloat16 *__restrict__ X,
                const __nv_bfloat16 *__restrict__ W,
                const __nv_bfloat16 *__restrict__ bias,
                __nv_bfloat16 *__restrict__ Y, int M, int N, int K)
{
    __shared__ __nv_bfloat16 Xs[TS][TS + 1];
    __shared__ __nv_bfloat16 Ws[TS][TS + 1];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int m = blockIdx.y * TS + ty;   // output row (token)
    const int n = blockIdx.x * TS + tx;   // output column (feature)
    const int wn = blockIdx.x * TS + ty;  // row of W this thread stages

    float acc = 0.0f;
#pragma tawa tile
    for (int t = 0; t < (K + TS - 1) / TS; ++t) {
        const int kx = t * TS + tx;
        Xs[ty][tx] = (m < M && kx < K) ? X[(size_t)m * K + kx]
                                       : __float2bfloat16_rn(0.0f);
        Ws[ty][tx] = (wn < N && kx < K) ? W[(size_t)wn * K + kx]
                                        : __float2bfloat16_rn(0.0f);
        __syncthreads();
#pragma unroll 8
        for (int k = 0; k < TS; ++k)
            acc += __bfloat162float(Xs[ty][k]) * __bfloat162float(Ws[tx][k]);
        __syncthreads();
    }

    if (m < M && n < N) {
        acc += __bfloat162float(bias[n]);
        Y[(size_t)m * N + n] = __float2bfloat16_rn(fmaxf(acc, 0.0f));
    }
}

void linear_relu_forward(const __nv_bfloat16 *X, const __nv_bfloat16 *W,
                         const __nv_bfloat16 *bias, __nv_bfloat16 *Y,
                         int M, int N, int K, cudaStream_t stream)
{
    dim3 block(TS, TS);
    dim3 grid((N + TS - 1) / TS, (M + TS - 1) / TS);
    linear_relu_fwd<<<grid, block, 0, stream>>>(X, W, bias, Y, M, N, K);
}
