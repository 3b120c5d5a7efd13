// C = A * B^T for row-major M x K A, N x K B and M x N C, products summed in
// float; each enqueues on `stream` and returns the launch's error.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <tawa/tile.h>

cudaError_t gemm_bf16(tawa::Matrix<const __nv_bfloat16> A,
                      tawa::Matrix<const __nv_bfloat16> B,
                      tawa::Matrix<__nv_bfloat16> C, cudaStream_t stream);
cudaError_t gemm_f16(tawa::Matrix<const __half> A,
                     tawa::Matrix<const __half> B, tawa::Matrix<__half> C,
                     cudaStream_t stream);
