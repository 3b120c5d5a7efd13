// A '#pragma tawa tile' in an included file is a warning; the includer is
// written unchanged.
// RUN: %tawa-rewrite %s -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// RUN: diff %s %t.cu
// CHECK: kernel.cuh:5:14: warning: '#pragma tawa tile' in an included file is not rewritten; run the tool on the file that holds the kernel [tawa-unsupported]
#include "Inputs/kernel.cuh"
