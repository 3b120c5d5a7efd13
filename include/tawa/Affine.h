//===- tawa/Affine.h - index arithmetic as integer polynomials ------------===//
//
// The index expressions of hand-written kernels (`(blockIdx.y * TILE +
// threadIdx.y) * K + t + threadIdx.x`) as integer polynomials over symbols:
// the thread and block coordinates, loop variables and integer kernel
// parameters. Two index expressions compute the same element for every
// thread, block, iteration and parameter value where their polynomials are
// equal, which is how the lifting front end (Lift.h) proves that a staging
// copy and a product read the elements it claims. Division, remainder,
// shifts, calls and loads are not polynomials: such an expression has none.
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_AFFINE_H
#define TAWA_AFFINE_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clang {
class Expr;
class QualType;
class ValueDecl;
class VarDecl;
} // namespace clang

namespace tawa {

/// A symbol: a VarDecl (parameter, loop variable) or a built-in coordinate.
using Symbol = const void *;

/// The built-in coordinates, as symbols: threadIdx.{x,y,z}, blockIdx.{x,y,z}.
Symbol threadIdxSymbol(char Dim);
Symbol blockIdxSymbol(char Dim);
Symbol blockDimSymbol(char Dim);
/// With IndexEvaluator::Warps: threadIdx.x is 32 * warpX + lane and
/// blockDim.x is 32 * warpsX, for blocks whose x extent is a multiple of the
/// warp size (32 threads, PTX ISA "Thread hierarchy"), so that a warp's
/// threads share threadIdx.y and threadIdx.z.
Symbol warpXSymbol();
Symbol laneSymbol();
Symbol warpsXSymbol();

/// sum of Coefficient * product of Symbols, in a canonical form (sorted
/// monomials, no zero coefficients), so that == is equality of polynomials.
class Poly {
public:
  using Monomial = std::vector<Symbol>; ///< sorted, with repeats for powers

  static Poly constant(int64_t C);
  static Poly symbol(Symbol S);

  Poly operator+(const Poly &O) const;
  Poly operator-(const Poly &O) const;
  Poly operator*(const Poly &O) const;
  bool operator==(const Poly &O) const { return Terms == O.Terms; }
  bool operator!=(const Poly &O) const { return !(*this == O); }

  /// The constant value, where the polynomial is one.
  std::optional<int64_t> constantValue() const;
  bool dependsOn(Symbol S) const;
  /// This polynomial with `S` replaced by `By`.
  Poly substitute(Symbol S, const Poly &By) const;
  /// (Rest, Coefficient) with this == Rest + Coefficient * S, where no
  /// monomial has S twice; neither part depends on S.
  std::optional<std::pair<Poly, Poly>> linearIn(Symbol S) const;
  /// The monomials and their coefficients, in the canonical order.
  const std::map<Monomial, int64_t> &terms() const { return Terms; }
  /// This polynomial divided by D, where every coefficient is a multiple.
  std::optional<Poly> dividedExactly(int64_t D) const;
  /// Whether every coefficient is positive (then the value is >= 0 for
  /// symbols that are >= 0).
  bool nonNegativeCoefficients() const;

private:
  std::map<Monomial, int64_t> Terms;
};

/// A quotient or remainder that is no polynomial, kept as a symbol of one
/// (IndexEvaluator::DivMod): X / D (C's division, which truncates, equal to
/// the floor for the never-negative X) or X % D, of a polynomial X never
/// negative and a divisor D, a polynomial of parameters and named constants
/// (positive wherever the proof is used: the caller checks that at launch;
/// a single term must have a positive coefficient). Built in a canonical form,
/// so that the same value written two ways is one symbol (D may also be a
/// polynomial of several terms of parameters, `(H - 2) * (W - 2)`, kept
/// whole): (x / a) / b is x / (a b),
/// (x % (a b)) / a is (x / a) % b, (x % (a b)) % a is x % a, and the terms
/// of X that D divides leave the quotient ((D z + y) / D = z + y / D for
/// y never negative).
struct DivModAtom {
  bool Mod = false;
  Poly X, D;
  /// X names no coordinate, loop variable or atom (`R / 2` of parameters):
  /// C's quotient or remainder of values fixed in a launch, kept as written
  /// (no canonical form: such a symbol equals only itself).
  bool Fixed = false;
};

/// Evaluates integer index expressions to polynomials. Kernel parameters
/// and the variables given symbols are symbols; other local variables are
/// replaced by their initializers where they are never assigned after it
/// (`Bindings`, filled by the caller).
class IndexEvaluator {
public:
  /// Local variables and what they stand for.
  llvm::DenseMap<const clang::VarDecl *, Poly> Bindings;
  /// Variables that are symbols themselves (loop variables).
  /// Local variables whose value is no polynomial, and why (named where an
  /// index uses them).
  llvm::DenseMap<const clang::VarDecl *, std::string> Opaque;
  /// Variables that are symbols themselves: loop variables that start at 0
  /// and only grow, so that their values are never negative.
  void addSymbol(const clang::VarDecl *VD) {
    Bindings.try_emplace(VD, Poly::symbol(VD));
    LoopSymbols.push_back(VD);
  }
  /// Warp coordinates (warpXSymbol above): `e / 32` and `e % 32` are then
  /// polynomials where e is a multiple of 32, or lane plus one, and mean
  /// (e - lane) / 32 and lane (or 0), as they do for 0 <= lane < 32.
  bool Warps = false;
  /// A one-dimensional block of T x T threads standing for a T x T one
  /// (T = FlatTile): threadIdx.x is T * ty + tx with 0 <= ty, tx < T, the
  /// symbols of threadIdx.y and threadIdx.x naming ty and tx; threadIdx.y
  /// and threadIdx.z are 0. `e / T` and `e % T` are then polynomials where
  /// e is T * q + tx or T * q, as with warp coordinates.
  std::optional<int64_t> FlatTile;
  /// threadIdx.{x,y,z} of one thread, where a front end follows a block's
  /// threads one by one (BlockedLift.cpp): then constants. With constant
  /// operands, `/`, `%`, shifts and bitwise operators are folded as C
  /// computes them (division truncating toward zero).
  std::optional<int64_t> Thread[3];
  /// Named compile-time constants taken as symbols rather than values (a
  /// proof over them holds for every value): macro expansions, keyed by
  /// their expression with parentheses and implicit casts looked through,
  /// and `const` variables and enumerators (their own symbols).
  llvm::DenseMap<const clang::Expr *, Symbol> NamedExprs;
  llvm::DenseSet<const clang::ValueDecl *> NamedDecls;
  /// blockDim.{x,y,z} where the launch fixes them (a lifted kernel's
  /// launcher runs its tiled form only for that block); else symbols.
  std::optional<int64_t> BlockDim[3];
  /// The polynomial of `E`, or nullopt where it is not one (the reason in
  /// `Why`, naming the construct).
  std::optional<Poly> eval(const clang::Expr *E) const;
  /// The polynomial of `E`, an element offset into global memory (a
  /// pointer's subscript): as eval, but 64-bit unsigned arithmetic that
  /// goes below zero is kept as its integer value, for +, - and * modulo
  /// 2^64 give the same address (`in[((size_t)n * H + ih) * W + iw]`, ih
  /// = oh - 1 + r of a padded convolution, reads the pixel (n, ih, iw)
  /// for ih = -1 too). A value that may wrap so is refused where it
  /// reaches an operator other than +, - and * ('/', '%', shifts, masks).
  std::optional<Poly> offset(const clang::Expr *E) const;
  /// The value of `E` where it is a constant: eval's constantValue(), found
  /// faster (no polynomial is built) where every leaf is a constant. Where
  /// a value of unsigned type would be negative (it wraps around in C),
  /// none, and `*Wrapped` is set.
  std::optional<int64_t> constant(const clang::Expr *E,
                                  bool *Wrapped = nullptr) const;
  mutable std::string Why;
  /// Whether a value `P` may not be one of the integer type `T`: a
  /// constant it cannot hold, or, for an unsigned T, a polynomial with a
  /// negative coefficient (coordinates and sizes taken as never negative),
  /// which C's arithmetic would wrap around.
  bool mayWrap(const Poly &P, clang::QualType T) const;

  /// With DivMod, `/` and `%` that are no polynomials give DivModAtom
  /// symbols where their operands allow one (implicit-GEMM convolutions
  /// decode output pixels and filter taps so: `m / (H * W)`, `kk % C`).
  bool DivMod = false;
  /// X / D (Mod false) or X % D in the canonical form of DivModAtom, or none
  /// where X may be negative or D is no such divisor.
  std::optional<Poly> divide(const Poly &X, const Poly &D, bool Mod) const;
  /// The atom whose symbol `S` is, or null.
  const DivModAtom *atom(Symbol S) const;
  /// `P` with each `c * m * (D * (X / D) + X % D)` written `c * m * X` (m a
  /// monomial, D a positive constant): the value of `((k * 3 + tap / 3) * 3 +
  /// tap % 3)` is 9 k + tap, as C's truncating division and remainder of a
  /// never-negative X give X = D (X / D) + X % D.
  Poly recombined(const Poly &P) const;

private:
  /// The quotient q of `L / R` where L = D * q + low or D * q, R is the
  /// constant D and low is in [0, D): 32 and the lane with Warps, FlatTile
  /// and tx with FlatTile. q must be a sum of nonnegative multiples of
  /// symbols that are never negative, so that C's division, which
  /// truncates toward zero, agrees with the floor this takes.
  std::optional<Poly> quotient(const Poly &L, const Poly &R) const;
  bool neverNegative(const Poly &P) const;
  /// The value of `E` converted to the unsigned type `T`, where no value
  /// of it is negative (nonnegative coefficients).
  std::optional<Poly> unsignedOf(const clang::Expr *E, clang::QualType T) const;
  std::optional<int64_t> constantOf(const clang::Expr *E, bool &Wraps) const;
  std::optional<Poly> evalNode(const clang::Expr *E) const;
  /// Whether a value of the integer type `T` is followed as an integer
  /// even where C's arithmetic wraps it around: in offset(), outside any
  /// operator other than +, - and *, for a 64-bit unsigned `T`.
  bool wrapsToAddress(clang::QualType T) const;
  /// Set while offset() evaluates; the depth of operators other than +, -
  /// and * around the expression evaluated.
  mutable bool InOffset = false;
  mutable int NonRing = 0;
  std::vector<const clang::VarDecl *> LoopSymbols;
  /// The atoms made so far (stable addresses: their symbols).
  mutable std::deque<DivModAtom> Atoms;
  /// Whether `D` is a divisor of DivModAtom (a positive monomial over
  /// symbols that are no coordinate or loop variable).
  bool isDivisor(const Poly &D) const;
  std::optional<Poly> intern(const Poly &X, const Poly &D, bool Mod) const;
};

} // namespace tawa

#endif
