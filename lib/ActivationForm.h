//===- ActivationForm.h - activations of hand-written epilogues -*- C++ -*-===//
//
// The element-wise activation a hand-written GEMM epilogue applies to the
// value it stores, recognised from the formula as written (or from the one
// `return` of a __device__ function of one float parameter that the store
// calls), so that the lifted tile program applies tile.h's function of the
// same name:
//   ReLU   fmaxf(x, 0.0f) (fmax, max, either order), x > 0 ? x : 0
//   GELU   0.5f * x * (1.0f + erff(x * 0.70710678f)), the factors in any
//          order, or erff(x / 1.41421356f) (Hendrycks and Gimpel, arXiv
//          1606.08415)
//   GELU, tanh form   0.5f * x * (1.0f + tanhf(0.79788456f * (x + 0.044715f
//          * x * x * x))), or powf(x, 3) for the cube
//   SiLU   x / (1.0f + expf(-x)), x * (1.0f / (1.0f + expf(-x))) (expf,
//          __expf or exp; Elfwing et al., arXiv 1702.03118)
//   sigmoid   1.0f / (1.0f + expf(-x)) (expf, __expf or exp)
//   tanh   tanhf(x), tanh(x) of a float x
//   LeakyReLU   x > 0 ? x : s * x, x <= 0 ? s * x : x (0 < x, 0 >= x; s *
//          x or x * s, computed in float), for any slope s; x >= 0 ? x :
//          s * x and x < 0 ? s * x : x for a constant s >= 0, and fmaxf(x,
//          s * x) for a constant s in [0, 1], which give the same float
//          (signed zeros and NaNs included) only there
// Every occurrence of x must be the same expression, free of side effects.
// A constant may be written as a literal, a macro (M_SQRT1_2) or an
// arithmetic of those with sqrtf; it must equal the formula's constant to
// within 2.5e-7 of it, about two float ulps.
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_LIB_ACTIVATIONFORM_H
#define TAWA_LIB_ACTIVATIONFORM_H

#include "tawa/Lift.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <optional>
#include <string>

namespace tawa {

/// An activation recognised at the top of an expression: which, and its
/// argument x.
struct ActivationMatch {
  Activation Kind = Activation::None;
  const clang::Expr *Arg = nullptr;
  /// LeakyReLU's slope s, a float expression as written.
  const clang::Expr *Slope = nullptr;
};

/// The activation `E` applies, or nullopt where E is none of the forms
/// above.
std::optional<ActivationMatch> activationOf(const clang::Expr *E,
                                            clang::ASTContext &Ctx);

/// What the lifting front ends expect of a LeakyReLU's slope.
inline constexpr const char *LeakySlopeExpected =
    "expected the slope of LeakyReLU 'v > 0.0f ? v : slope * v' to be a "
    "float parameter of the kernel, a scale computed before the loop from "
    "its parameters, or a constant";

/// The name of tile.h's function for `A` ("tawa::gelu"); "" for None.
const char *activationFunction(Activation A);

/// The float value of `E`, a constant arithmetic expression without side
/// effects (a literal, a macro, `1.0f / 8`), as C converts it to float
/// (rounded to nearest); nullopt for anything else.
std::optional<float> floatConstant(const clang::Expr *E,
                                   const clang::ASTContext &Ctx);

/// `F` printed as a float literal that reads back as F exactly, in the
/// fewest digits ("0.01f", "2.0f").
std::string floatLiteral(float F);

} // namespace tawa

#endif
