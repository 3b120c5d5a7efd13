//===- LiftSupport.h - what the lifting front ends share -------*- C++ -*-===//
//
// The pieces both lifting front ends (Lift.cpp: shared-memory tiled GEMMs,
// WmmaLift.cpp: nvcuda::wmma GEMMs) use to read a hand-written kernel:
// expressions with their value-keeping conversions looked through, and the
// pointers into the matrices, with the offsets (as polynomials, Affine.h)
// that pointer arithmetic and advances before the loop add to the indices,
// split into the batch term of blockIdx.z.
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_LIB_LIFTSUPPORT_H
#define TAWA_LIB_LIFTSUPPORT_H

#include "tawa/Affine.h"
#include "tawa/Lift.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"

#include <map>
#include <string>

namespace tawa {

/// E without parentheses, implicit casts, temporaries and copies.
const clang::Expr *bare(const clang::Expr *E);

/// E without the value conversions that keep its value: casts, converting
/// constructors, conversion operators and the round-to-nearest conversion
/// functions of cuda_bf16.h/cuda_fp16.h, each only where its result is
/// float or `Keep` (bf16 and fp16 widen to float exactly; float narrows to
/// `Keep`, the stored type, rounding to nearest even as tawa::store does,
/// and a chain of such conversions rounds once). A conversion to any other
/// type (an int cast, the other 16-bit type) stays. With `Any`, every
/// conversion goes (for literals, whose zero survives any of them). A call
/// of a helper of the kernel's source whose body returns its parameter
/// through such conversions (`to_float(v)`, `from_float<T>(acc)`) is one.
const clang::Expr *unconverted(const clang::Expr *E,
                               clang::QualType Keep = clang::QualType(),
                               bool Any = false);

/// Whether E is a zero of any type (0, 0.0f, T(), {}, or a const local
/// initialized with one).
bool isZero(const clang::Expr *E);
/// Whether `E` multiplies anywhere in it: `x * y` (of built-in or class
/// types, __half and __nv_bfloat16 included), or a call of fmaf, fma,
/// __fmaf*, __fma_rn, __hfma* or __hmul*.
bool multiplies(const clang::Expr *E);
/// `L = R` of a built-in or class type; false for a null `S`.
bool assignment(const clang::Stmt *S, const clang::Expr *&L,
                const clang::Expr *&R);
/// `atomicAdd(&X, V)` of CUDA's headers: X, the element updated, in `X`
/// and V in `V`, as for `X += V`; false for anything else (a null `S`).
bool atomicAdd(const clang::Stmt *S, const clang::Expr *&X,
               const clang::Expr *&V);
/// The body of `do { ... } while (0)` (or `while (false)`), the form of
/// statement macros, when it holds no `break` or `continue` that would leave
/// the `do`: it then runs once, as its body would alone. Null otherwise.
const clang::Stmt *onceBody(const clang::Stmt *S);
/// `S` without the run-once `do`s (onceBody) around one statement; `S`
/// itself when it is no such `do`, or its body holds several statements.
const clang::Stmt *unwrapOnce(const clang::Stmt *S);
/// The only statement of a block or of a run-once `do` (onceBody), or the
/// statement itself.
const clang::Stmt *single(const clang::Stmt *S);
/// Whether `S` is `return;`, alone or in braces.
bool returnsNothing(const clang::Stmt *S);
/// float, __nv_bfloat16 or __half.
std::optional<ElementType> elementOf(clang::QualType T);
/// `E` as a call, with `Args` arguments, of a function of the CUDA or C
/// headers (fromSystemHeader) named one of `Names` (`expf`, `ceil`, ...);
/// null for anything else.
const clang::CallExpr *systemCall(const clang::Expr *E,
                                  std::initializer_list<const char *> Names,
                                  unsigned Args = 1);
/// The refusal of an `extern __shared__` array of unknown extent `VD` used
/// other than through tile pointers (DynamicTiles.h); nullopt where VD is no
/// such array.
std::optional<LiftFailure> dynamicSharedTile(const clang::VarDecl *VD);
/// `assert(X)` of <cassert> as `S` expands in C++: `(static_cast<bool>(X) ?
/// void(0) : __assert_fail(...))` gives X, and `static_cast<void>(0)` (with
/// NDEBUG) gives null; `Is` says whether S is an assert at all.
const clang::Expr *assertCondition(const clang::Stmt *S,
                                   const clang::ASTContext &Ctx, bool &Is);
/// The for loop `S` is, itself or under loop hints (`#pragma unroll`,
/// `#pragma nounroll`), or null.
const clang::ForStmt *hintedLoop(const clang::Stmt *S);
/// The statement of `Body` that is `Loop`, itself or under loop hints;
/// Body->body_end() where none is.
clang::CompoundStmt::const_body_iterator
loopStatement(const clang::CompoundStmt *Body, const clang::ForStmt *Loop);
/// Whether `VD` is written anywhere in `S` (outside `Except`, where given),
/// or in a lambda that `S` calls there (lambdaHelper).
bool isModified(const clang::VarDecl *VD, const clang::Stmt *S,
                const clang::Stmt *Except = nullptr);
/// Whether `VD` is written anywhere in `S` outside the statements `Except`.
bool isModifiedOutside(const clang::VarDecl *VD, const clang::Stmt *S,
                       llvm::ArrayRef<const clang::Stmt *> Except);
/// Whether `VD` is a uniform scale of `Kernel`: a float local, never
/// changed, whose initializer reads only the kernel's arithmetic parameters
/// and literals, outside macros, through arithmetic, casts, conditionals and
/// calls of system-header functions (`1.0f / sqrtf((float)K)`): every
/// thread computes the same value from the launch's arguments.
bool isUniformScale(const clang::VarDecl *VD,
                    const clang::FunctionDecl *Kernel);
/// Whether `S`, or a `__device__` helper it calls (deviceHelpers), reads
/// threadIdx.<Dim> (Dim one of x, y, z).
bool readsThreadIdx(const clang::Stmt *S, char Dim);
/// Whether `S` names `VD` anywhere, or a lambda that `S` calls does
/// (lambdaHelper): it names the variables it captures.
bool mentions(const clang::Stmt *S, const clang::VarDecl *VD);
/// Whether `S` names a __shared__ variable or a local pointer or reference
/// (one that may point into shared memory), itself or in a function of the
/// program it calls; with `After` valid, only in its code that begins after
/// that location (a called function's whole body counts).
bool namesSharedMemory(const clang::Stmt *S, const clang::SourceManager &SM,
                       clang::SourceLocation After = {});
/// Whether E names `VD`.
bool refersTo(const clang::Expr *E, const clang::VarDecl *VD);

/// A `nvcuda::wmma::fragment<Use, M, N, K, T, Layout>` (CUDA C++
/// Programming Guide, "Warp Matrix Functions").
struct Fragment {
  enum Kind { A, B, Acc } Use = Acc;
  int M = 0, N = 0, K = 0;
  clang::QualType Elem;
  bool RowMajor = true; ///< A, B: the layout
};
/// The fragment type T is, or nullopt.
std::optional<Fragment> fragmentOf(clang::QualType T);
/// A call of `nvcuda::wmma::Name` that `S` is, or null.
const clang::CallExpr *wmmaCall(const clang::Stmt *S, llvm::StringRef Name);

/// The definition of the kernel's own `__device__` function that `C` calls
/// (not a member function, not variadic, not a system header's, its body in
/// the translation unit), or the call operator of the lambda `C` calls
/// (lambdaHelper), or null. The front ends follow such helpers statement by
/// statement with their parameters bound to the arguments (BlockedLift.cpp),
/// so the checks that read a kernel read them too.
const clang::FunctionDecl *deviceHelper(const clang::CallExpr *C);
/// The arguments `C` passes to the parameters of its helper (deviceHelper):
/// a lambda's call leaves out the closure object.
llvm::ArrayRef<const clang::Expr *> helperArguments(const clang::CallExpr *C);
/// How a diagnostic names the helper `F`: "the __device__ function 'f'" or
/// "the lambda at line N".
std::string helperName(const clang::FunctionDecl *F);

/// The lambda a local variable holds (`auto load = [&](int s, int k) {...};`),
/// or null.
const clang::LambdaExpr *heldLambda(const clang::VarDecl *VD);
/// Why the front ends may not follow the lambda `L` as a helper, or nullopt
/// where they may: it must return void, not be generic, `mutable` or hold
/// init-captures or `this`, copy only variables whose copy, made where
/// the lambda is declared, equals them wherever it is called (nothing in
/// the block declaring the lambda or in a lambda's body changes them, and
/// only assignments, `++` and `--` outside that block: a lambda declared
/// in the loop's body may copy the loop's counter), and change no integer,
/// pointer or other scalar it captures by reference: only a float (an
/// accumulator) or an array's or fragment's elements, followed at each call as
/// the statements of the kernel they stand for. (The kernel's indices and
/// pointers then change only in its own statements, where the checks that
/// read the kernel see them.)
std::optional<std::string> lambdaRefusal(const clang::LambdaExpr *L);
/// Drops lambdaRefusal's verdicts, kept per translation unit (called
/// where one is read, so that no verdict outlives its AST).
void forgetLambdaVerdicts();
/// The call operator of the lambda that `C` calls through the local
/// variable holding it, where lambdaRefusal accepts the lambda; else null.
const clang::FunctionDecl *lambdaHelper(const clang::CallExpr *C);
/// The kernel's own `__device__` functions that `Body` calls, directly or
/// through one another, each once, in the order first called.
std::vector<const clang::FunctionDecl *> deviceHelpers(const clang::Stmt *Body);

/// The first construct of `Kernel` that no lifting front end may read past,
/// because following the statements it knows would not be following the
/// kernel: a static or thread-local local variable, a variable of static
/// storage that is not const, an integer variable narrower than 32 bits, an
/// `if` or loop with an init-statement or condition variable in the K
/// loop's kernel, a lambda, a `switch` or `goto`, or a function or variable
/// of the kernel's own named as a CUDA builtin the front ends recognise
/// (`__syncthreads`, `fmaf`, `threadIdx`, ...), in its body or in that of
/// a `__device__` helper it calls (deviceHelpers). Nullopt where none.
std::optional<LiftFailure>
unliftableConstruct(const clang::FunctionDecl *Kernel, clang::ASTContext &Ctx);

/// Where `Loop` reads a variable of a struct type of the program that holds
/// a pointer (the CUDA C++ Programming Guide's `Matrix` of width, height,
/// stride and elements, passed by value and cut into sub-matrices by
/// helpers): the front ends read a matrix from a pointer parameter and its
/// extents from integer parameters or constants, so the refusal says so at
/// the first such variable. Nullopt where the loop reads none.
std::optional<LiftFailure> structMatrix(const clang::ForStmt *Loop);

/// Where `Kernel` reads what differs between the host compilation that
/// tawa-rewrite reads and the device compilation that runs it: its own text
/// (or that of a `__device__` helper it calls) overlapping a conditional of
/// `ArchConditionals` (each from an `#if` that reads __CUDA_ARCH__ to its
/// `#endif`), a macro or declaration it uses defined inside one, or a macro it
/// uses that a region the host skips under one defines or undefines
/// (`ArchMacros`, with the conditional). Nullopt where nothing does.
std::optional<LiftFailure> deviceDependentText(
    const clang::FunctionDecl *Kernel, clang::ASTContext &Ctx,
    llvm::ArrayRef<clang::SourceRange> ArchConditionals,
    const std::map<std::string, clang::SourceLocation> &ArchMacros);

/// Whether `D` is declared in a system header (the CUDA toolkit's, or the
/// stand-ins of the tests) or is a compiler builtin: a type, conversion or
/// function the kernel did not write itself.
bool fromSystemHeader(const clang::Decl *D);
/// The variable and the member (`"gridDim"`, `"z"`) where `E` reads a
/// coordinate of the CUDA headers' built-in variables (threadIdx, blockIdx,
/// blockDim, gridDim: properties whose getters read a register); none
/// elsewhere.
std::optional<std::pair<llvm::StringRef, llvm::StringRef>>
builtinCoordinateRead(const clang::Stmt *E);
/// Whether `D` is declared in namespace cooperative_groups (or one inside
/// it, such as its ABI namespace) of a system header.
bool inCooperativeGroups(const clang::Decl *D);
/// Whether `RD` is cooperative_groups' thread_block, the group of every
/// thread of the block (CUDA C++ Programming Guide, "Cooperative Groups").
bool isThreadBlock(const clang::CXXRecordDecl *RD);

/// Whether evaluating `E` may change anything: an assignment, an increment,
/// or a call of a function that is not the CUDA toolkit's (a system
/// header's).
bool mayWrite(const clang::Expr *E, clang::ASTContext &Ctx);

/// `Ptr[Index]` of a pointer parameter, where Ptr may be a local pointer
/// or an advanced parameter standing for the parameter plus `Offset`.
struct GlobalAccess {
  const clang::ParmVarDecl *Ptr = nullptr;
  const clang::Expr *Index = nullptr;
  Poly Offset;
};

/// The state and the checks a lifting front end shares: the kernel, the
/// annotated loop, the failure reported, the index evaluator and the
/// pointers into the matrices.
class LifterBase {
public:
  /// With `Named`, those named constants are symbols (Extent).
  LifterBase(const clang::FunctionDecl *Kernel, const clang::ForStmt *Loop,
             clang::ASTContext &Ctx, LiftFailure &Why,
             const NamedExtents *Named = nullptr);
  virtual ~LifterBase() = default;

  /// Whether `S` is `__syncthreads();` or an asm statement of `bar.sync
  /// 0;` alone (no operands; a "memory" clobber or none).
  static bool isBarrier(const clang::Stmt *S);

protected:
  /// false, or an empty optional: the result of a check that failed.
  struct Failed {
    operator bool() const { return false; }
    template <class T> operator std::optional<T>() const {
      return std::nullopt;
    }
  };
  Failed fail(clang::SourceLocation L, const std::string &Msg) {
    Why = {L, Msg};
    return {};
  }

  /// The statements of the kernel body before and after the annotated loop.
  struct AroundLoop {
    llvm::ArrayRef<clang::Stmt *> Before, After;
    /// The `if` whose branch holds the loop, where the front end reads
    /// such loops (ReadsLoopGuard): Before then ends with the declarations
    /// before the loop in its branch, After is the rest of the branch, then
    /// what follows the `if`. Null for a loop at the top level of the
    /// kernel body.
    const clang::IfStmt *Guard = nullptr;
  };
  /// Those statements, but for declarations of static_asserts alone (they
  /// do nothing at run time) and barriers before the loop that only
  /// declarations precede (they order no access); none where the kernel
  /// has no body, or, with
  /// the failure, where the loop is not one of its statements. The views
  /// live as long as the lifter.
  std::optional<AroundLoop> aroundLoop();
  /// aroundLoop's reading of a loop in the branch of `If`, a statement of
  /// `Body`: none where the `if` has an else, an init or a condition
  /// variable, or the branch anything but side-effect-free declarations
  /// before the loop.
  std::optional<AroundLoop> guardedLoop(const clang::CompoundStmt *Body,
                                        const clang::IfStmt *If);

  /// The parameter a pointer expression points into and the offset, in
  /// its elements: the parameter itself, a local pointer or a parameter
  /// advanced before the loop, `p + i` or `&p[i]` (i scaled by lanes), or
  /// a cast of one to another pointer type.
  std::optional<std::pair<const clang::ParmVarDecl *, Poly>>
  pointer(const clang::Expr *E) const;
  /// How many elements of the matrix `P` one element of the pointer
  /// expression `E` spans: 1 for a pointer of P's type, 4 for a float4 *
  /// into floats; 0 where that is no whole number. Indices and steps of `E`
  /// count in its elements, offsets in P's.
  int64_t lanes(const clang::Expr *E, const clang::ParmVarDecl *P) const;
  /// `p[Index]` of a pointer `pointer` resolves, one element of its matrix
  /// (a pointer of the matrix's element width).
  std::optional<GlobalAccess> global(const clang::Expr *E) const;
  /// `p[0]`'s index, an int literal 0 at `At`: the access through `*p` or
  /// a vector temporary's member, whose offset holds the whole index.
  const clang::Expr *zeroIndex(clang::SourceLocation At) const;
  /// The matrix element that the member `v.x` of a vector temporary holds,
  /// where the front end follows such temporaries (BlockedLift.cpp: `float4
  /// v = *reinterpret_cast<const float4 *>(&A[i]);`); none by default.
  virtual std::optional<GlobalAccess>
  vectorElement(const clang::MemberExpr *) const {
    return std::nullopt;
  }
  /// The matrix element that `h[e]` reads, where h points to the elements
  /// of a vector temporary (BlockedLift.cpp: `const __half *h =
  /// reinterpret_cast<const __half *>(&v);`); none by default.
  virtual std::optional<GlobalAccess>
  viewElement(const clang::ArraySubscriptExpr *) const {
    return std::nullopt;
  }
  /// `p += i;` or `p = p + i;` of a pointer before the loop.
  bool advance(const clang::Stmt *S);
  /// `T *p = q + i;` before the loop; false, with the failure, where the
  /// initializer is not a pointer into a matrix.
  bool pointerDeclaration(const clang::VarDecl *VD);
  /// The integer parameters, then the named constants taken as symbols:
  /// what may be an extent or a leading dimension.
  const std::vector<Extent> &extents() const { return Extents; }
  /// The extent E stands for (itself, or a variable set to it), or none.
  std::optional<Extent> extentOf(const clang::Expr *E) const;
  /// The bound of a bounds check `x < E`: extentOf(E), or a product of
  /// int parameters (`N * H * W`, the pixels of a 1x1 convolution's
  /// output; `batch * seq`), named in the launcher by that product.
  std::optional<Extent> boundOf(const clang::Expr *E) const;
  /// The polynomial an extent stands for: its symbol, or for a product of
  /// boundOf the product of its factors' symbols.
  Poly extentPoly(const Extent &X) const;
  /// An extent named `Name` (its C++ text, as the launcher writes it)
  /// standing for `P`, a polynomial of parameters and constants; one
  /// symbol per name, shared by every lifter.
  Extent namedExtent(const std::string &Name, const Poly &P,
                     clang::SourceLocation Loc) const;
  /// The extent whose symbol is `S`, or null.
  const Extent *extentOfSymbol(Symbol S) const;
  /// Binds `VD`, a local integer whose initializer is no polynomial, to a
  /// symbol of its own where it is a launch value (LaunchValues.h) that the
  /// loop's start reads, directly or through other locals: a split-K
  /// kernel's slice of K computed from gridDim. False where it is none.
  bool bindLaunchValue(const clang::VarDecl *VD);
  /// The launch value whose symbol is `S`, or null.
  const LaunchValue *launchValueOf(Symbol S) const;
  /// The launch values bound so far, in the order of their declarations.
  std::vector<LaunchValue> LaunchValues;
  /// Whether each extent of `G` fits tawa::Matrix's `int`: a parameter of
  /// type int, a constant in [1, INT_MAX]; false, with the failure, where
  /// one does not.
  bool intExtents(const LiftedGemm &G);

  /// The polynomial of E, or a failure naming `What` and the construct.
  std::optional<Poly> eval(const clang::Expr *E, const char *What);
  /// The same for an element offset into global memory (a pointer's
  /// subscript, IndexEvaluator::offset: 64-bit unsigned arithmetic that
  /// wraps is the same address).
  std::optional<Poly> offset(const clang::Expr *E, const char *What);
  /// `P`, the polynomial of `E`, or a failure naming `What` where it is
  /// none.
  std::optional<Poly> evaluated(const clang::Expr *E, const char *What,
                                std::optional<Poly> P);
  /// An integer index variable `VD` that nothing in `Scope` writes after its
  /// declaration; false, with the failure, where something does.
  bool unchangedIndex(const clang::VarDecl *VD, const clang::Stmt *Scope);
  /// Binds `VD` to the polynomial of its initializer. Where that is none:
  /// with `Opaque`, records why (an index that uses VD names it) and
  /// succeeds; else fails, naming the construct.
  bool bindIndex(const clang::VarDecl *VD, bool Opaque);
  /// The pointers into the matrices are set before the loop only, but for
  /// those `InLoop` advances (which the caller has checked), and those are
  /// not used after it.
  bool pointersFixed(llvm::ArrayRef<clang::Stmt *> After);
  /// L without its blockIdx.z term, whose factor (the batch stride, a
  /// polynomial of integer parameters) goes to `Stride` as C++.
  std::optional<Poly> unbatched(const Poly &L, std::string &Stride,
                                const clang::Expr *At);

  /// A batched operand needs a batched C: a C shared by the whole batch
  /// would be written by every matrix of it (reported at `Store`).
  bool batchAgrees(const LiftedGemm &G, clang::SourceLocation Store);

  const clang::FunctionDecl *Kernel;
  const clang::ForStmt *Loop;
  clang::ASTContext &Ctx;
  LiftFailure &Why;
  IndexEvaluator Ev;
  /// The products boundOf named in this lifter, by symbol: the polynomial
  /// of their factors (extentPoly).
  mutable std::map<const void *, Poly> ProductFactors;
  /// Local pointers and advanced parameters: the parameter and offset.
  llvm::DenseMap<const clang::VarDecl *,
                 std::pair<const clang::ParmVarDecl *, Poly>>
      Pointers;
  std::vector<const clang::VarDecl *> Advanced;
  /// Pointers advanced by one statement of the loop body per iteration.
  std::vector<const clang::VarDecl *> InLoop;
  /// Whether aroundLoop takes a loop in the branch of an `if` (`if (m0 <
  /// M && n0 < N) { decls; loop; ... }`, AroundLoop::Guard), whose
  /// condition the front end then proves harmless; else refused.
  bool ReadsLoopGuard = false;

private:
  std::vector<Extent> Extents;
  std::vector<clang::Stmt *> BeforeLoop, AfterLoop; ///< aroundLoop's
};

/// Whether `S` declares static_asserts only.
bool staticAssertsOnly(const clang::Stmt *S);

/// Whether the statement `S` only declares: a declaration statement whose
/// variables (__shared__ or not static) are initialized without writing
/// memory, or a null statement.
bool declaresOnly(const clang::Stmt *S);

} // namespace tawa

#endif
