// A vendored header that marks itself a system header: its activation is a
// leaky ReLU in the device compilation, a ReLU in the host one.
#pragma once
#pragma GCC system_header
#ifdef __CUDA_ARCH__
#define EPI_ACT(v) ((v) > 0.0f ? (v) : 0.01f * (v))
#else
#define EPI_ACT(v) fmaxf((v), 0.0f)
#endif
