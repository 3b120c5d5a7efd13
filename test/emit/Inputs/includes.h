// The tile vocabulary, included through a header of the project
// (test/emit/includes.cu).
#pragma once
#include <tawa/tile.h>

using In = tawa::Matrix<const __nv_bfloat16>;
using Out = tawa::Matrix<__nv_bfloat16>;
