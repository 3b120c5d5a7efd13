//===- tawa/Migrate.h - a lifted kernel re-expressed in the tile vocabulary
//===//
//
// `--migrate` keeps a lifted kernel (Lift.h) and adds its tile-vocabulary
// form after it: `<kernel>_tiled`, a GEMM of 128 x 256 x 64 tiles over
// tawa::Matrix views, and `<kernel>_migrated_launch`, a host function that
// takes the original launch configuration and arguments. Where the block is
// TILE x TILE threads (the mapping the lift proved), it launches the tiled
// kernel over the window of C the original grid covers; otherwise it
// launches the original kernel, unchanged. Each `<kernel><<<...>>>(...)`
// launch becomes a call of the launcher. The result is portable CUDA (tile.h's
// reference runs it anywhere) that tawa-rewrite turns into the
// warp-specialized kernel.
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_MIGRATE_H
#define TAWA_MIGRATE_H

#include "tawa/Lift.h"

#include <string>

namespace clang {
class CUDAKernelCallExpr;
class FunctionDecl;
class LangOptions;
class SourceManager;
} // namespace clang

namespace tawa {

/// How the migrated code names a lifted kernel.
struct MigratedNames {
  /// The prefix of the tiled kernel and the launcher: `<Base>_tiled`,
  /// `<Base>_migrated_launch`. The kernel's name, or for an instantiation
  /// of a kernel template its name and arguments (KernelTemplate.h).
  std::string Base;
  /// How the launcher's fallback launches the kernel as written: `k`, or
  /// `k<32>` for an instantiation.
  std::string Callee;
};

/// The names of a kernel that is not a template instantiation.
MigratedNames migratedNames(const clang::FunctionDecl *Kernel);

/// The launcher of an instantiation of a kernel template is an explicit
/// specialization of one function template over the kernel template's own
/// parameters, so that a launch's call of it keeps the template arguments
/// it was written with (`k_migrated_launch<BM, BN>(...)`): a constant named
/// only there stays used. Its name, or "" for a kernel that is no
/// instantiation, or one of a template with a parameter pack or declared
/// more than once (whose declarations may split the parameters' names and
/// default arguments).
std::string launcherTemplate(const clang::FunctionDecl *Kernel);

/// The tiled kernel and the launcher, to insert after the kernel (starts
/// and ends with a newline). For an instantiation of a kernel template the
/// launcher is an explicit specialization of a function template over the
/// kernel template's parameters, `<template>_migrated_launch<args>`, whose
/// parameters take the instantiated types; `FirstInstance` (the first
/// instantiation migrated) also declares that function template.
std::string migratedKernelText(const clang::FunctionDecl *Kernel,
                               const LiftedGemm &G, const MigratedNames &Names,
                               const clang::SourceManager &SM,
                               const clang::LangOptions &LO,
                               bool FirstInstance = true);

/// The call of the launcher named `Names.Base` that replaces launch `L`
/// (of an instantiation: the launcher template's, with `L`'s template
/// arguments as written).
std::string migratedLaunchText(const clang::CUDAKernelCallExpr *L,
                               const MigratedNames &Names,
                               const clang::SourceManager &SM,
                               const clang::LangOptions &LO);

} // namespace tawa

#endif
