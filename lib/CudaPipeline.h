//===- CudaPipeline.h - libcu++'s cuda::pipeline in kernels -----*- C++ -*-===//
//
// Hand-written kernels stage tiles with asynchronous copies through the
// pipeline primitives (`__pipeline_memcpy_async`), cp.async in inline PTX,
// or libcu++'s `cuda::pipeline` (<cuda/pipeline>; CUDA C++ Programming
// Guide, "Asynchronous Data Copies using cuda::pipeline"). This component
// recognises the calls of a thread-scope `cuda::pipeline`, which the
// register-blocked front end follows as the copies, commits and waits of
// cp.async groups they compile to:
//
//   auto pipe = cuda::make_pipeline();      // thread scope
//   pipe.producer_acquire();                // nothing
//   cuda::memcpy_async(&As[s][r][c], &A[j], cuda::aligned_size_t<16>(16),
//                      pipe);               // a copy of 16 bytes
//   pipe.producer_commit();                 // cp.async.commit_group
//   pipe.consumer_wait();                   // the oldest group not yet waited
//   cuda::pipeline_consumer_wait_prior<N>(pipe); // cp.async.wait_group N
//   pipe.consumer_release();                // nothing
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_LIB_CUDAPIPELINE_H
#define TAWA_LIB_CUDAPIPELINE_H

#include "clang/AST/Expr.h"
#include "clang/AST/Type.h"

#include <cstdint>
#include <optional>

namespace tawa {

/// One call on a `cuda::pipeline`.
struct PipelineCall {
  enum Kind { Acquire, Commit, Wait, WaitPrior, Release, Copy };
  Kind Op = Acquire;
  /// The pipeline the call names: the object of a member call, the last
  /// argument of `cuda::memcpy_async` and `pipeline_consumer_wait_prior`.
  const clang::Expr *Pipeline = nullptr;
  /// WaitPrior: N of `pipeline_consumer_wait_prior<N>`.
  int64_t Prior = 0;
  /// Copy: `cuda::memcpy_async(Dst, Src, Size, pipe)`, without a group.
  const clang::Expr *Dst = nullptr, *Src = nullptr, *Size = nullptr;
};

/// The pipeline call `E` makes (implicit nodes and parentheses around it
/// ignored): a member function of `cuda::pipeline<Scope>`, or the
/// functions `cuda::memcpy_async` (the form of four arguments, no group)
/// and `cuda::pipeline_consumer_wait_prior`, each declared in a system
/// header; nullopt for any other expression, the group forms of
/// memcpy_async, and the copies completed by a `cuda::barrier`.
std::optional<PipelineCall> pipelineCall(const clang::Expr *E);

/// Whether `T` (a reference to it too) is `cuda::pipeline<Scope>`.
bool isCudaPipeline(clang::QualType T);

/// Whether `T` is `cuda::aligned_size_t<A>` (qualifiers aside).
bool isAlignedSize(clang::QualType T);

/// Whether `Init`, the initializer of a pipeline, is `cuda::make_pipeline()`,
/// which makes a pipeline of thread scope (its waits wait for the copies of
/// the calling thread alone).
bool makesThreadPipeline(const clang::Expr *Init);

/// The byte count of `cuda::aligned_size_t<A>(n)` (constructed, or a const
/// variable of that type initialized so): the expression n; `E` itself
/// where its type is an integer; null otherwise.
const clang::Expr *copySize(const clang::Expr *E);

} // namespace tawa

#endif
