// A prototype of a kernel that test/unsupported/launch-sites.cu defines.
#pragma once
#include <tawa/tile.h>

__global__ void declared_in_header(tawa::Matrix<const __nv_bfloat16> A,
                                   tawa::Matrix<const __nv_bfloat16> B,
                                   tawa::Matrix<__nv_bfloat16> C);
