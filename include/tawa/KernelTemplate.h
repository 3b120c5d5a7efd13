//===- tawa/KernelTemplate.h - the instantiations of a kernel template ----===//
//
// A hand-written kernel is often a template over its tile sizes or element
// type (`template <int BLOCK_SIZE> __global__ void k(...)`, launched as
// `k<32><<<...>>>`). The template's own body cannot be lifted: its tile
// sizes are symbols and its element types unknown. Each instantiation that a
// launch of the file makes can: there the template arguments are constants
// and types, and the lifting proves what that instantiation computes. The
// migrated code then has one tiled kernel and one launcher per launched
// instantiation: the tiled kernel named after its template arguments
// (`k_32_tiled`), the launcher an explicit specialization of one function
// template over the kernel template's parameters (`k_migrated_launch<32>`),
// whose fallback launches the instantiation itself (`k<32><<<...>>>`).
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_KERNELTEMPLATE_H
#define TAWA_KERNELTEMPLATE_H

#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class CUDAKernelCallExpr;
class ForStmt;
class FunctionDecl;
} // namespace clang

namespace tawa {

/// One instantiation of a kernel template that the file launches.
struct KernelInstance {
  const clang::FunctionDecl *Kernel = nullptr; ///< the instantiation
  /// Its copy of the template's annotated loop; null where the body was not
  /// instantiated.
  const clang::ForStmt *Loop = nullptr;
  /// The instantiation as a launch names it: `k<32, float>`.
  std::string Callee;
  /// The prefix of its migrated names: `k_32_float` (Migrate.h).
  std::string Base;
  /// Its launches, in source order.
  std::vector<const clang::CUDAKernelCallExpr *> Launches;
};

/// The instantiations of kernel template `Pattern` (the function a
/// FunctionTemplateDecl describes) that the launches `Launches` of the file
/// make, in the order of their first launch, each with its copy of
/// `Loop` (a statement of `Pattern`'s body) and its launches. Two whose
/// names would be the same get distinct Base names (`_2`, ...). Launches of
/// an explicit specialization (`template <> __global__ void k<64>(...)`,
/// a body of its own) are not among them. Empty where no launch
/// instantiates the template.
std::vector<KernelInstance>
kernelInstances(const clang::FunctionDecl *Pattern, const clang::ForStmt *Loop,
                llvm::ArrayRef<const clang::CUDAKernelCallExpr *> Launches,
                clang::ASTContext &Ctx);

/// The words that open the comment before each copy (short enough that no
/// reformatting breaks them), by which the rewrite's comments tell an
/// instantiated copy from a lifted loop.
inline constexpr const char *kInstantiationComment =
    "/// A kernel of its own for";

/// The text of kernel template `Pattern` (its declaration and body, without
/// `template <...>`) as a kernel of its own for instantiation `I`: named
/// I.Base, each name of a template parameter replaced by its argument (an
/// integer of the parameter's type, a type's name), token by token,
/// comments and layout kept. A kernel template in the tile vocabulary is
/// rewritten this way: the copies are ordinary kernels, which the rewrite
/// takes one by one. Nullopt where an argument is not an integer or a type
/// (a template template argument, a pack), is a type with pointer,
/// reference, array or function parts (whose spelling in place of the name
/// binds differently: `const T` for T = int *), a template parameter is named
/// in a macro's expansion (out of the replacement's reach, where a namesake at
/// namespace scope would take its place), or the text is not the file's own.
std::optional<std::string>
instantiatedKernelText(const clang::FunctionDecl *Pattern,
                       const KernelInstance &I, clang::ASTContext &Ctx);

/// Whether `Kernel` is a function template's pattern whose instantiations
/// kernelInstances() can find (a kernel template at namespace scope; not a
/// member of a class template).
bool isKernelTemplate(const clang::FunctionDecl *Kernel);

} // namespace tawa

#endif
