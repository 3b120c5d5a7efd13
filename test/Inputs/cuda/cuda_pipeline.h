// Stand-in for the CUDA toolkit's cuda_pipeline.h: the pipeline primitives
// (cuda_pipeline_primitives.h) that asynchronous copies into shared memory
// use.
#pragma once
#include <cuda_runtime.h>
__device__ void __pipeline_memcpy_async(void *__restrict__ dst_shared,
                                        const void *__restrict__ src_global,
                                        size_t size_and_align, size_t zfill = 0);
__device__ void __pipeline_commit();
__device__ void __pipeline_wait_prior(size_t prior);
