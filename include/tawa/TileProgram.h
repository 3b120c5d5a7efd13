//===- tawa/TileProgram.h - the tile program of an annotated loop ---------===//
//
// Extracted from the AST of a `__global__` function whose main loop carries
// `#pragma tawa tile`: an ordered list of tile ops over typed values, in
// three regions: the prologue (the code before the loop, run by every role),
// the loop (one iteration of the annotated loop) and the epilogue (after
// it). Values are global tiles (`tawa::load`), accumulators (register
// fragments of fp32) and row vectors; an accumulator or row vector declared
// before the loop and written in it is loop-carried. Ops are loads, mma (both
// operands in shared memory, or A a converted accumulator in registers),
// masks, element-wise assignments (with row reductions and row broadcasts),
// the scaling of an accumulator's rows, and stores.
//
// The ops say what the kernel computes; the kernel family (a GEMM: one mma;
// attention: S = Q K^T, online softmax, O += P V) says how it is pipelined.
// Each family has a view of the program its planner and emitter read: the
// GEMM view is Loads / Mmas / Acc / Store below (GemmFamily.cpp), the
// attention view is in tawa/Attention.h. Anything outside the accepted forms
// (docs/tile-language.md) is reported as [tawa-unsupported] at the construct,
// and the kernel is left unchanged.
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_TILEPROGRAM_H
#define TAWA_TILEPROGRAM_H

#include "tawa/Diagnostics.h"
#include "tawa/Pragma.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tawa {

/// Element types of tiles (the 16-bit and 8-bit inputs of wgmma) and of
/// stored matrices. E4M3 and E5M2 are the fp8 formats of `__nv_fp8_e4m3` and
/// `__nv_fp8_e5m2` (cuda_fp8.h; PTX ISA 5.2.5.1, "Alternate Floating Point
/// Data Formats").
enum class ElementType { BF16, F16, F32, E4M3, E5M2 };
/// "bf16", "f16", "f32", "e4m3", "e5m2"
llvm::StringRef elementName(ElementType T);
unsigned elementBytes(ElementType T); ///< 4, 2 or 1
bool isFp8(ElementType T);            ///< E4M3 or E5M2

/// The parts of a kernel's body around its tile loop.
enum class Region { Prologue, Loop, Epilogue };
llvm::StringRef regionName(Region R); ///< "prologue", "loop", "epilogue"

/// `auto Var = tawa::load<Rows, Cols>(Matrix, Row0, Col0);`
struct TileLoad {
  std::string Var; ///< the tile variable
  const clang::VarDecl *Decl = nullptr;
  const clang::ParmVarDecl *Matrix =
      nullptr; ///< the kernel parameter loaded from
  ElementType Elem = ElementType::BF16;
  int Rows = 0, Cols = 0; ///< window extent, elements
  const clang::Expr *Row0 = nullptr,
                    *Col0 = nullptr;      ///< window origin, elements
  const clang::Expr *Batch = nullptr;     ///< b of `Matrix.batch(b)`, else null
  const clang::Expr *MatrixArg = nullptr; ///< the matrix argument as written
  /// Loaded from a `tawa::Im2col` (a convolution's activations as a GEMM
  /// operand, tile.h): through an im2col tensor map, K-major, never copied.
  bool Im2col = false;
  Region Where = Region::Loop;            ///< prologue: loaded once per tile
  unsigned Value = 0;                     ///< index into TileProgram::Values
  /// In the GEMM view: the window is stored K x MN, so wgmma reads the
  /// operand MN-major (its transpose bit, PTX ISA 9.7.15.5.1): B loaded
  /// K x N for `mma(acc, a, b)`, A loaded K x M for
  /// `mma(acc, tawa::transpose(a), b)`. Otherwise MN x K, K-major.
  bool MnMajor = false;
  /// The window is read from a transposed copy of `Matrix` that the launcher
  /// makes on the stream (tawa/runtime/operand_copy.cuh), because wgmma reads
  /// tf32 operands K-major only: a K x MN window of the matrix is
  /// then an MN x K window of the copy. Rows, Cols, Row0 and Col0 are the
  /// copy's (swapped from the load as written) and MnMajor is false.
  bool TransposedCopy = false;
  /// Makes the window one of a transposed copy (TransposedCopy).
  void readFromTransposedCopy() {
    std::swap(Rows, Cols);
    std::swap(Row0, Col0);
    MnMajor = false;
    TransposedCopy = true;
  }
  /// The operand's M (or N) extent and its K extent, elements.
  int mnExtent() const { return MnMajor ? Cols : Rows; }
  int kExtent() const { return MnMajor ? Rows : Cols; }
  void setMnExtent(int E) { (MnMajor ? Cols : Rows) = E; }
  /// The window's origin along M (or N) and along K.
  const clang::Expr *mnOrigin() const { return MnMajor ? Col0 : Row0; }
  const clang::Expr *kOrigin() const { return MnMajor ? Row0 : Col0; }
};

/// `tawa::mma(Acc, A, B)`, with A and B each a tile or
/// `tawa::transpose(tile)`.
struct TileMma {
  const clang::CallExpr *Call = nullptr;
  unsigned A = 0, B = 0; ///< indices into TileProgram::Loads
  bool TransposeA = false, TransposeB = false;
};

/// `tawa::Accumulator<float, Rows, Cols> Var;` declared before the loop.
struct TileAccumulator {
  std::string Var;
  const clang::VarDecl *Decl = nullptr;
  const clang::DeclStmt *Stmt = nullptr;
  int Rows = 0, Cols = 0;
};

/// `tawa::store(Matrix, Row0, Col0, Acc);` after the loop.
struct TileStore {
  const clang::CallExpr *Call = nullptr;
  const clang::ParmVarDecl *Matrix = nullptr;
  ElementType Elem = ElementType::BF16;
  const clang::Expr *Row0 = nullptr, *Col0 = nullptr;
  const clang::Expr *Batch = nullptr;     ///< b of `Matrix.batch(b)`, else null
  const clang::Expr *MatrixArg = nullptr; ///< the matrix argument as written
};

/// What a value of the tile program is.
enum class ValueKind {
  Tile,        ///< a window of a global matrix (`tawa::load`)
  Accumulator, ///< `tawa::Accumulator<float, R, C>`, fp32 registers
  RowVector,   ///< `tawa::RowVector<float, R>`, one fp32 per row
};

/// A named value: a variable of the kernel of a tile type.
struct TileValue {
  std::string Name;
  ValueKind Kind = ValueKind::Tile;
  const clang::VarDecl *Decl = nullptr;
  Region Where = Region::Prologue; ///< where it is declared
  int Rows = 0, Cols = 1;          ///< elements; a row vector has 1 column
  ElementType Elem = ElementType::F32;
  /// A row vector's initial value as written (null: 0).
  const clang::Expr *Fill = nullptr;
  /// Declared before the loop and written in it.
  bool LoopCarried = false;
};

/// An element-wise expression over accumulators, row vectors and scalars:
/// the value of an assignment, a scaling or a store. A row vector operand of
/// an accumulator applies to every element of its row (tawa/tile.h).
struct ElemExpr {
  enum class Kind {
    Value,  ///< a named accumulator or row vector
    Scalar, ///< a scalar expression of the kernel (`scale_log2`, `0.5f`)
    Add,
    Sub, ///< subtracting a row vector counts its -inf entries as 0
    Mul,
    Div,
    Max, ///< tawa::max of row vectors
    Exp2,
    Log2,
    RowMax, ///< tawa::row_max of an accumulator
    RowSum, ///< tawa::row_sum of an accumulator
    /// An epilogue operand: `tawa::load<R, C>(...)` in the value of a store,
    /// read as float (TileProgram::EpilogueLoads)
    Tile,
    Relu,      ///< tawa::relu
    Gelu,      ///< tawa::gelu (erf form)
    GeluTanh,  ///< tawa::gelu_tanh
    Silu,      ///< tawa::silu
    LeakyRelu, ///< tawa::leaky_relu: Args are x, then the slope (a scalar)
    Tanh,      ///< tawa::tanh
    Sigmoid,   ///< tawa::sigmoid
    /// `cond ? x : y` in the value of a store: Args are the condition (a
    /// scalar), then x and y, of which only the one chosen is evaluated
    Select,
  };
  /// What the expression is: one element per tile element, one per row, or
  /// one for all.
  enum class Shape { Matrix, Row, Scalar };
  Kind K = Kind::Scalar;
  Shape S = Shape::Scalar;
  unsigned Value = 0; ///< Kind::Value: index into Values
  unsigned Load = 0;  ///< Kind::Tile: index into TileProgram::EpilogueLoads
  const clang::Expr *E = nullptr; ///< the source expression
  std::vector<ElemExpr> Args;     ///< operands, in order
  /// Whether the expression reads value `V`.
  bool reads(unsigned V) const;
  /// Whether the expression or one of its operands is of kind `Of`.
  bool holds(Kind Of) const;
};

/// A linear form over a tile element (i, j): RowCoef i + ColCoef j + the
/// sum of the signed terms (source expressions), as `tawa::row(r0)`,
/// `tawa::col(c0)` and integers combine (tawa::Index).
struct IndexForm {
  int RowCoef = 0, ColCoef = 0;
  std::vector<std::pair<int, const clang::Expr *>> Terms; ///< (+1 or -1, E)
};

/// The predicate of `tawa::mask`: holds where the form is < 0 (Strict) or
/// <= 0.
struct MaskPredicate {
  IndexForm Form;
  bool Strict = false;
};

/// One op of the tile program.
struct TileOp {
  enum class Kind {
    Load,    ///< Load: `auto t = tawa::load<R, C>(...)`
    Declare, ///< Target: an accumulator (zero) or row vector (its fill)
    Assign,  ///< Target = Value (a declaration with an initializer, or `=`)
    Scale,   ///< Target *= Value (an accumulator's rows, or all elements)
    Mma,     ///< Target += A * B (A converted from an accumulator: AConvert)
    Mask,    ///< tawa::mask(Target, Predicate)
    Store,   ///< tawa::store(Matrix, Row0, Col0, Value)
  };
  Kind K = Kind::Load;
  Region Where = Region::Loop;
  const clang::Stmt *S = nullptr; ///< the statement (location, text)
  unsigned Target = 0;            ///< the value defined or written
  unsigned Load = 0;              ///< Kind::Load: index into Loads
  ElemExpr Value;                 ///< Assign, Scale, Store
  /// Kind::Mma: the operands (values); A is a tile, or an accumulator
  /// converted to AConvert (`tawa::convert<T>(acc)`, a register operand).
  unsigned A = 0, B = 0;
  bool TransposeA = false, TransposeB = false;
  std::optional<ElementType> AConvert;
  MaskPredicate Predicate; ///< Kind::Mask
  TileStore Store;         ///< Kind::Store (its Call is the store)
  /// Whether the op reads value `V` (an mma reads its target too).
  bool reads(unsigned V) const;
  /// Whether the op writes value `V`.
  bool writes(unsigned V) const;
  llvm::StringRef name() const; ///< "load", "mma", ...
};

/// The pipelining scheme a tile program has the form of.
enum class KernelFamily {
  Gemm,      ///< one mma accumulating over the loop (GemmFamily.cpp)
  Attention, ///< S = Q K^T, online softmax, O += P V (tawa/Attention.h)
};

/// A `Kernel<<<Grid, Block, Shared, Stream>>>(Args...)` in the main file.
struct LaunchSite {
  const clang::CUDAKernelCallExpr *Call = nullptr;
};

/// How the CTA tile of the rewritten kernel covers the kernel's own tiles
/// (the `shape` clause, TileShape.h): X x Y of them, adjacent along grid x
/// (output columns) and y (rows). Tile (x, y) of the walk does the work of
/// blocks (X x, Y y) .. (X x + X - 1, Y y + Y - 1) of the original launch.
struct TileMerge {
  int X = 1, Y = 1;
  /// The kernel's own tile, elements (0 where neither merged nor narrow).
  int KernelBM = 0, KernelBN = 0;
  /// The constant parts of the stored window's origin: block (x, y) stores
  /// at row y * KernelBM + RowOffset, column x * KernelBN + ColOffset.
  long long RowOffset = 0, ColOffset = 0;
  /// Why this tile (for --explain); empty where the kernel's tile is kept
  /// without a shape clause.
  std::string Reason;
  /// Narrow tiles (TileShape.h, narrowTiles), CTA tiles of w columns, fewer
  /// than the X x Y blocks' tile has. Where w divides that tile's width,
  /// `Parts` (its width / w) of them compute it side by side along x, part p
  /// holding its columns [p w, p w + w). Where it does not (`Across`), they
  /// run side by side across all the columns of the launch: the walk's tile
  /// x is 0 and its part the column tile c, at c w columns from block 0's
  /// window, which needs the windows to move with blockIdx.x by the
  /// kernel's tile width (`ColOffset` then holds the store's offset).
  int Parts = 1;
  bool Across = false;
  /// Row parts (the few-rows twins, TileShape.h, NarrowTiles::FewRows): CTA
  /// tiles of KernelBM / RowParts rows, RowParts of them one above the other
  /// in a block's tile, row part r holding its rows [r BM, r BM + BM); the
  /// mma's A and the store move with r, nothing else the tile reads does.
  /// 1: CTA tiles of the block tile's first rows only.
  int RowParts = 1;
  bool merged() const { return X > 1 || Y > 1; }
  bool narrow() const { return Parts > 1 || Across; }
};

struct TileProgram {
  const clang::FunctionDecl *Kernel = nullptr;
  const clang::ForStmt *Loop = nullptr;
  TilePragma Pragma;
  /// The pragma's place as the emitted comments name it: `file.cu:line`, or
  /// what RewriteOptions::PragmaLabel says (the rewrite of a migrated text).
  std::string Where;
  KernelFamily Family = KernelFamily::Gemm;
  /// The values and ops, in program order.
  std::vector<TileValue> Values;
  std::vector<TileOp> Ops;
  /// Every `tawa::load`, in program order (prologue and loop).
  std::vector<TileLoad> Loads;
  /// The `tawa::load`s in the values of stores (epilogue operands: read by
  /// the epilogue, not through the aref ring), in program order.
  std::vector<TileLoad> EpilogueLoads;
  /// The statements of the prologue that are not tile ops (declarations of
  /// block coordinates, say), copied into every role of the rewritten kernel.
  std::vector<const clang::Stmt *> PlainPrologue;
  // The GEMM view (KernelFamily::Gemm; GemmFamily.cpp).
  TileAccumulator Acc;
  std::vector<TileMma> Mmas;
  TileStore Store;
  /// The stored value: the accumulator, or an element-wise expression of it
  /// (an epilogue: scales, epilogue operands, activations).
  ElemExpr Epilogue;
  std::vector<LaunchSite> Launches;
  /// A `return` in the prologue (skips a tile: no persistent walk then).
  const clang::Stmt *PrologueReturn = nullptr;
  /// The CTA tile against the kernel's (1 x 1 unless a shape clause merges).
  TileMerge Merge;
  /// Iterations of the tile loop (K steps) whose tiles share one aref slot:
  /// 1, or 2 in the few-rows twins (TileShape.h, NarrowTiles::FewRows).
  int StepsPerSlot = 1;
};

/// `E` without implicit casts and the opaque values of pseudo-objects (the
/// base of `blockIdx.x`, a property in clang's CUDA headers).
const clang::Expr *ignoreOpaque(const clang::Expr *E);

/// Whether `S` reads the built-in `Builtin` ("blockIdx", "threadIdx",
/// "gridDim"), its member `Member` (any member when empty), directly or
/// through the initializers of the local variables it reads.
bool readsBuiltin(const clang::Stmt *S, llvm::StringRef Builtin,
                  llvm::StringRef Member = "");
/// The first such read (a member expression, possibly in an initializer),
/// or null.
const clang::Expr *findBuiltinRead(const clang::Stmt *S,
                                   llvm::StringRef Builtin,
                                   llvm::StringRef Member = "");

/// The index of the value named by `Name`, if any.
std::optional<unsigned> findValue(const TileProgram &P, llvm::StringRef Name);

/// Fills the GEMM view of `P` (Acc, Mmas, Store) from its ops, reporting
/// what does not have the GEMM form: one accumulator declared before the
/// loop, a loop of tile loads and one mma of two of them into it, and one
/// store of it after the loop (GemmFamily.cpp).
bool gemmView(TileProgram &P, DiagReporter &Diags);

/// Builds the TileProgram of `Loop` (the statement following `Pragma`) in
/// `Kernel` and classifies it into a kernel family, filling that family's
/// view (the GEMM view here; the attention view is built by
/// analyzeAttention). Reports every construct outside the accepted forms and
/// returns nullopt if there was any.
std::optional<TileProgram> extractTileProgram(clang::ASTContext &Ctx,
                                              const clang::FunctionDecl *Kernel,
                                              const clang::ForStmt *Loop,
                                              const TilePragma &Pragma,
                                              DiagReporter &Diags);

} // namespace tawa

#endif
