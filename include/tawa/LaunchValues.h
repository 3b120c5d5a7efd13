//===- LaunchValues.h - locals the launcher computes ------------*- C++ -*-===//
//
// Split-K kernels often compute the slice of K each grid layer sums from the
// launch, in the kernel:
//
//   const int chunk = (K + gridDim.z - 1) / gridDim.z;
//   for (int k0 = blockIdx.z * chunk; k0 < min(k0 + chunk, K); ...)
//
// The value is the same in every thread of a launch, and the host knows all
// it reads: the kernel's parameters, constants and the launch's grid and
// block. Such a local (a launch value) is read as a symbol of its own, and
// the launcher computes it as the kernel does, from `tawa_grid` and
// `tawa_block`.
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_LAUNCHVALUES_H
#define TAWA_LAUNCHVALUES_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <string>

namespace tawa {

/// A local integer of a kernel whose value the launcher computes.
struct LaunchValue {
  const clang::VarDecl *Var = nullptr;
  /// Its name in the launcher: `tawa_` and the kernel's name for it.
  std::string Name;
  /// C++ for the launcher that computes it as the kernel does: its
  /// initializer with `gridDim` and `blockDim` read as `tawa_grid` and
  /// `tawa_block` (dim3, of the same unsigned int fields), the parameters by
  /// name (the launcher's have the kernel's types), constants as typed
  /// literals, converted to the variable's type.
  std::string Value;
  /// C++ that is true where a divisor of the initializer is 0 (or, of a
  /// signed type, below 1): there the launcher computes nothing (a division
  /// by zero would stop the host) and runs the kernel as written. Empty
  /// where every divisor is a nonzero constant.
  std::string Undefined;
};

/// Reads `VD`, a local integer of `Kernel` that nothing changes after its
/// declaration, as a launch value: its initializer built from integer
/// literals and constants, the kernel's integer parameters, gridDim and
/// blockDim coordinates, the launch values `Earlier` knows (null for
/// others), casts between integer types, `+ - * / %`, comparisons, `?:`
/// and min/max of the system headers. None for anything else (threadIdx,
/// blockIdx, a memory read, a call), with the reason in `Why`.
std::optional<LaunchValue> launchValue(
    const clang::VarDecl *VD, const clang::FunctionDecl *Kernel,
    clang::ASTContext &Ctx,
    llvm::function_ref<const LaunchValue *(const clang::VarDecl *)> Earlier,
    std::string &Why);

} // namespace tawa

#endif
