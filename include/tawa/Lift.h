//===- tawa/Lift.h - lifting a hand-written shared-memory GEMM loop -------===//
//
// Recognises the classic shared-memory tiled GEMM under `#pragma tawa tile`
// and proves, with index arithmetic as polynomials (Affine.h), what it
// computes:
//
//   __global__ void k(const T *A, const T *B, T2 *C, int M, int N, int K) {
//     __shared__ T As[TILE][TILE], Bs[TILE][TILE];
//     int row = blockIdx.y * TILE + threadIdx.y, col = ... threadIdx.x;
//     float acc = 0;
//   #pragma tawa tile
//     for (int t = 0; t < K; t += TILE) {       // or ++t, t < (K+TILE-1)/TILE
//       As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : 0;
//       Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : 0;
//       __syncthreads();
//       for (int k = 0; k < TILE; ++k)
//         acc += float(As[ty][k]) * float(Bs[k][tx]);
//       __syncthreads();
//     }
//     if (row < M && col < N)
//       C[row * N + col] = T2(acc);               // or alpha * acc (+ beta *
//       C)
//   }
//
// Indices may use blockDim, which is TILE in every launch the tiled form
// runs for. Any thread mapping of the staging copies that is a permutation of
// (threadIdx.y, threadIdx.x), A stored M x K or K x M, B stored K x N or
// N x K, any leading dimension parameter, `if`/`else` or `?:` guards, and
// the conversions of cuda_bf16.h/cuda_fp16.h. What is proved: with a block
// of TILE x TILE threads, thread (tx, ty) of block (bx, by) computes
// C[by*TILE + ty][bx*TILE + tx] = sum over k < K of A[.][k] * B[k][.] where
// inside the extents, reading 0 outside (as TMA's zero fill does).
//
// The same kernel with no bounds checks at all (staging copies nor store,
// the loop bound `K / TILE` allowed), written for extents that are
// multiples of TILE, is lifted too: where K is a multiple of TILE, each
// block computes its whole TILE x TILE tile of C, which is what the tiled
// form computes over the window of C the grid covers.
//
// Double-buffered tiles (X[2][R][C], the first tiles staged before the loop,
// the next prefetched into the other buffer) are lifted as the
// single-buffered form they compute.
//
// The stored value may add a bias per column or row of C and apply ReLU
// (`fmaxf(acc + bias[col], 0.0f)`), the terms kept in their order.
//
// Pointers into the matrices may be set before the loop (`const T *a = A +
// i;`, `A += i;`, `&A[i]`), folded into the indices. A batch of matrices is
// an index term `blockIdx.z * stride` (stride a polynomial of integer
// parameters): the tiled form computes matrix blockIdx.z of tawa::Matrix
// batches; an operand without the term is shared by the batch. The
// element types must be bf16 or fp16 (an fp32 SGEMM is refused: the tensor
// cores would change its precision).
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_LIFT_H
#define TAWA_LIFT_H

#include "tawa/LaunchValues.h"
#include "tawa/TileProgram.h"

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <string>

namespace clang {
class ASTContext;
class Expr;
class FunctionDecl;
class ValueDecl;
class ForStmt;
class ParmVarDecl;
} // namespace clang

namespace tawa {

/// An integer extent or leading dimension of the lifted GEMM, in elements:
/// an `int` kernel parameter, or a named compile-time constant (a `const`
/// integer variable with a constant initializer, an enumerator, or an
/// object-like macro whose expansion is an integer constant expression,
/// `#define N 4096`).
/// The proof takes a named constant as a symbol, as it does a parameter, so
/// what it shows holds for every value the constant could have.
struct Extent {
  const void *Sym = nullptr; ///< its symbol (Affine.h): the declaration, or
                             ///< the macro's identifier
  /// How code right after the kernel names it: a parameter's name, a
  /// constant's value (its name could mean another value there: a
  /// using-declaration of the kernel's, a macro redefined, `__LINE__`).
  std::string Name;
  std::string Spelled;          ///< as the kernel writes it, for messages
  clang::SourceLocation Loc;    ///< its declaration or definition
  std::optional<int64_t> Value; ///< a constant's value; none for a parameter
  const clang::ParmVarDecl *Param = nullptr; ///< where a parameter
  explicit operator bool() const { return Sym != nullptr; }
  bool operator==(const Extent &O) const { return Sym == O.Sym; }
  bool operator!=(const Extent &O) const { return Sym != O.Sym; }
  /// In prose: `K`, or `K_DIM (1024)` for a constant.
  std::string words() const {
    return Value ? Spelled + " (" + std::to_string(*Value) + ")" : Spelled;
  }
  /// Name as an operand of `%` or `*`: parenthesized where it is a product
  /// (`(N * H * W) % 8`).
  std::string factor() const {
    return Name.find(' ') == std::string::npos ? Name : "(" + Name + ")";
  }
};

/// One operand of the lifted GEMM: the pointer parameter and how the matrix
/// is stored (a row-major view of Rows x Cols with leading dimension Ld).
struct LiftedOperand {
  const clang::ParmVarDecl *Data = nullptr;
  Extent Ld; ///< leading dimension, elements
  /// A: stored M x K (KMajor) or K x M; B: stored N x K (KMajor) or K x N.
  bool KMajor = true;
  /// For a batch (an index with `blockIdx.z * stride`): the stride in
  /// elements, as a C++ expression of the parameters (`1LL * M * K`); empty
  /// for a matrix shared by the whole batch.
  std::string BatchStride;
};

/// A bias vector added to the stored value: `bias[col]`, one value per
/// column of C (a 1 x N row), or `bias[row]`, one per row (M x 1).
/// The element-wise activation of a lifted epilogue: tile.h's relu, gelu,
/// gelu_tanh, silu, leaky_relu, tanh or sigmoid (lib/ActivationForm.h lists
/// the forms recognised).
enum class Activation {
  None,
  Relu,
  Gelu,
  GeluTanh,
  Silu,
  LeakyRelu,
  Tanh,
  Sigmoid
};

/// The slope of a lifted LeakyReLU, which multiplies x where x is not
/// above 0: a float parameter of the kernel or a uniform scale (Var), or a
/// constant (Value, the float the kernel multiplies by).
struct LeakySlope {
  const clang::VarDecl *Var = nullptr;
  std::optional<float> Value;
  bool operator==(const LeakySlope &O) const {
    return Var == O.Var && Value.has_value() == O.Value.has_value() &&
           (!Value || *Value == *O.Value);
  }
};

struct LiftedBias {
  const clang::ParmVarDecl *Data = nullptr;
  bool PerColumn = true;
  ElementType Elem{}; ///< bf16, f16 or f32
  /// Read only where Data is not null, 0 where it is (`bias != nullptr ?
  /// bias[col] : 0.0f`).
  bool Optional = false;
};

/// The activations of a lifted implicit-GEMM convolution (ConvLift.h): the
/// fields of a tawa::Im2col over A's data, each a C++ expression of the
/// kernel's parameters and constants.
struct LiftedIm2col {
  std::string N, H, W, C, R, S, P, Q;
  std::string PadH, PadW, StrideH, StrideW, DilH, DilW;
  /// The kernel's column k runs channels outermost, k = (c * R + r) * S + s
  /// (weights stored K x C x R x S, PyTorch's order, or C x R x S x K): the
  /// launcher reads the weights from a copy permuted to the im2col matrix's
  /// order, (r * S + s) * C + c (tile.h, tawa::FilterCopy).
  bool ChannelsOuter = false;
  /// The grid's layers are the images (n = blockIdx.z, N the launch's
  /// grid.z): LiftedGemm::M is then the pixels of one image, and the rows
  /// of the im2col matrix N of them.
  bool ImagesFromGrid = false;
};

/// What a lifted kernel computes, in terms of its parameters.
struct LiftedGemm {
  int Tile = 0;       ///< the kernel's TILE: its blocks are TILE x TILE
  ElementType Elem{}; ///< A's and B's element type (bf16, f16 or f32)
  ElementType Out{};  ///< C's element type
  /// fp32 operands: the pragma's precision clause, which the tiled kernel
  /// carries (tf32 or 3xtf32).
  MmaPrecision Precision = MmaPrecision::Tf32;
  /// A convolution: A is its activations seen as the im2col matrix (rows M:
  /// output pixels, columns K: filter taps and channels); A.Data is the
  /// tensor, A.Ld unused.
  std::optional<LiftedIm2col> Conv;
  /// The extents: M and N are those of the store's bounds check, null in
  /// a kernel with no bounds checks (`Guarded` false), which computes the
  /// whole window of C its grid covers and reads K whole only where K is a
  /// multiple of Tile.
  Extent M, N, K;
  /// Where the K loop counts whole tiles with a floor division (`t < K /
  /// TILE`): TILE. The kernel then sums the first K / TILE * TILE elements
  /// of K only (a partial last tile is dropped), and the launcher gives the
  /// operands that K extent. 0 where the loop covers K whole.
  int KFloorTile = 0;
  /// A split-K loop (`for (int k0 = blockIdx.z * chunk; k0 < min(k0 +
  /// chunk, K); k0 += TILE)`, each layer's sum added into C with
  /// atomicAdd): chunk, as C++ of the kernel's parameters and constants.
  /// The layers sum the first min(grid.z * chunk, K) elements of K, which
  /// the launcher gives the tiled form as its K extent. Empty elsewhere.
  std::string SplitKChunk;
  /// The kernel's locals that SplitKChunk names (`const int chunk = (K +
  /// gridDim.z - 1) / gridDim.z;`), which the launcher computes first, in
  /// order (LaunchValues.h).
  std::vector<LaunchValue> SplitKValues;
  bool Guarded = true;
  LiftedOperand A, B;
  const clang::ParmVarDecl *C = nullptr;
  Extent Ldc;
  /// C is stored column-major (a WMMA store with mem_col_major): the GEMM
  /// described is then C^T = B^T * A^T, C^T row-major with leading
  /// dimension Ldc, A the kernel's B read transposed and B its A, and M
  /// and N the extents of C's columns and rows.
  bool CColumnMajor = false;
  std::string CBatchStride; ///< C's batch stride, as for the operands
  /// The launches the proof covers, for the launcher (Migrate.cpp) as C++
  /// over the launch's `tawa_grid` and `tawa_block`, and in words:
  std::string Block;        ///< the block assumed ("16 x 16 threads")
  std::string BlockDiffers; ///< true where the launch's block is another
  /// The rows and columns of C the grid covers ("tawa_grid.y * 16").
  std::string RowsCovered, ColsCovered;
  /// Where the extents are not those the proof assumed (C++, "" for any),
  /// and the extents it assumed, in words.
  std::string ExtentsDiffer, Extents;
  /// The stored value: the sum of its terms in the order written (Terms:
  /// 'a' the accumulator, times Alpha where set; 'c' C's old value, times
  /// Beta where set (a float C only without: `acc + C[i]`, `C[i] += acc`);
  /// 'b' the bias), under the activation Act. Alpha and Beta are float
  /// parameters of the kernel, or Alpha a float local computed before the
  /// loop from its scalar parameters alone (`1.0f / sqrtf((float)K)`),
  /// which the tiled form computes alike.
  const clang::VarDecl *Alpha = nullptr, *Beta = nullptr;
  /// Where the old value 'c' is read from another matrix than C, at C's
  /// index (`beta * Cin[i]`: the C input of cuBLAS's D = alpha A B + beta
  /// C), that matrix, and its element type (bf16, fp16 or float, read
  /// converted to float, exactly); else null.
  const clang::ParmVarDecl *CIn = nullptr;
  ElementType CInElem{};
  std::optional<LiftedBias> Bias;
  Activation Act = Activation::None;
  LeakySlope Slope; ///< where Act is LeakyRelu
  std::string Terms;
  /// Where the kernel stores another value where Beta is 0, reading no
  /// element of C there (`if (beta == 0) C[i] = alpha * acc; else C[i] =
  /// alpha * acc + beta * C[i];`, or the same as a conditional, as BLAS
  /// does): that value's terms, as Terms, of which it has all but 'c' (the
  /// same Alpha, Bias and Act). Empty otherwise.
  std::string BetaZeroTerms;
};

/// Where and why a loop does not match: the statement that breaks the
/// pattern and the form expected there.
struct LiftFailure {
  clang::SourceLocation Loc;
  std::string Message;
};

/// The named compile-time constants of a kernel that the lifting front
/// ends take as symbols (Extent) on a second try, for kernels written for
/// fixed extents (`#define N 4096`, `constexpr int K = 4096;`). Those the
/// kernel needs the value of are left out: a constant used in a declared
/// type (`__shared__ T As[TILE][TILE]`), in the bound or step of a loop
/// other than the K loop's bound, in the K loop's step, as a divisor or a
/// shift, or given different values in different places.
struct NamedExtents {
  /// Macro expansions, keyed by their expression with parentheses and
  /// implicit casts looked through.
  llvm::DenseMap<const clang::Expr *, Extent> Exprs;
  /// `const` integer variables and enumerators, of the kernel or its
  /// namespace.
  llvm::DenseMap<const clang::ValueDecl *, Extent> Decls;
  bool empty() const { return Exprs.empty() && Decls.empty(); }
};

/// The named constants `Kernel` uses that could be extents of `Loop`.
NamedExtents namedExtents(const clang::FunctionDecl *Kernel,
                          const clang::ForStmt *Loop, clang::ASTContext &Ctx);

/// Lifts `Loop` in `Kernel`, or says which statement breaks the pattern.
/// With `Named`, those named constants are symbols, as parameters are.
/// `Tf32`: the pragma says precision(tf32), so fp32 operands are lifted
/// rather than refused.
std::optional<LiftedGemm>
liftSharedGemm(const clang::FunctionDecl *Kernel, const clang::ForStmt *Loop,
               clang::ASTContext &Ctx, LiftFailure &Why,
               const NamedExtents *Named = nullptr, bool Tf32 = false);

} // namespace tawa

#endif
