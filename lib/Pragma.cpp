//===- Pragma.cpp - parsing `#pragma tawa tile` ---------------------------===//
#include "tawa/Pragma.h"

#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace tawa {
namespace {

constexpr const char *kForm =
    "'#pragma tawa tile [stages(N)] [consumers(N)] [regs(P, C)] "
    "[persistent[(on|off)]] [raster(m|n[, G])] [cluster(N)] "
    "[schedule(cooperative|pingpong)] [tail(split|whole)] "
    "[shape(auto|BM, BN)] [narrow(auto|off|N[, N]...)] [overlap(on|off)] "
    "[precision(tf32|3xtf32)]'";

/// The clause names, for the suggestion of a misspelled one.
constexpr llvm::StringLiteral kClauses[] = {
    "stages",   "consumers", "regs",  "persistent", "raster",  "cluster",
    "schedule", "tail",      "shape", "narrow",     "overlap", "precision"};

/// The word of `Candidates` closest to `Word`, if it is close enough to be a
/// misspelling of it (as clang's typo correction: at most a third of the
/// letters differ); "" otherwise.
StringRef closest(StringRef Word,
                  llvm::ArrayRef<llvm::StringLiteral> Candidates) {
  StringRef Best;
  unsigned BestDistance = (Word.size() + 2) / 3 + 1;
  for (StringRef C : Candidates) {
    unsigned D = Word.edit_distance_insensitive(C);
    if (D < BestDistance) {
      Best = C;
      BestDistance = D;
    }
  }
  return Best;
}

/// Reports the misspelling `Tok` of `Suggestion`, with the fix-it that
/// replaces it.
void didYouMean(DiagReporter &Diags, const Token &Tok, const Twine &What,
                StringRef Suggestion) {
  SourceLocation Loc = Tok.getLocation();
  Diags.error(Loc, DiagCategory::Pragma,
              What + "; did you mean '" + Suggestion + "'?",
              SourceRange(Loc, Loc),
              {FixItHint::CreateReplacement(
                  CharSourceRange::getTokenRange(Loc, Loc), Suggestion)});
}

/// Token cursor over the rest of the pragma line.
class ClauseParser {
public:
  ClauseParser(Preprocessor &PP, DiagReporter &Diags, TilePragma &P)
      : PP(PP), Diags(Diags), P(P) {
    PP.Lex(Tok);
  }

  void parse() {
    while (Tok.isNot(tok::eod)) {
      if (Tok.is(tok::comma)) {
        next();
        continue;
      }
      if (!Tok.is(tok::identifier)) {
        fail(Tok.getLocation(), "expected a clause name");
        return;
      }
      StringRef Name = Tok.getIdentifierInfo()->getName();
      SourceLocation Loc = Tok.getLocation();
      Token NameTok = Tok;
      next();
      bool Ok = false;
      if (Name == "stages")
        Ok = parseSingle(P.Stages, Loc, "stages", 2, 16,
                         "stages(N) with 2 <= N <= 16");
      else if (Name == "consumers")
        Ok = parseSingle(P.Consumers, Loc, "consumers", 1, 3,
                         "consumers(N) with 1 <= N <= 3");
      else if (Name == "regs")
        Ok = parseRegs(Loc);
      else if (Name == "persistent")
        Ok = parsePersistent(Loc);
      else if (Name == "raster")
        Ok = parseRaster(Loc);
      else if (Name == "cluster")
        Ok = parseSingle(P.Cluster, Loc, "cluster", 1, 2,
                         "cluster(N) with 1 <= N <= 2");
      else if (Name == "schedule")
        Ok = parseSchedule(Loc);
      else if (Name == "tail")
        Ok = parseTail(Loc);
      else if (Name == "shape")
        Ok = parseShape(Loc);
      else if (Name == "narrow")
        Ok = parseNarrow(Loc);
      else if (Name == "overlap")
        Ok = parseOverlap(Loc);
      else if (Name == "precision")
        Ok = parsePrecision(Loc);
      else if (Name == "tensor") {
        Diags.error(Loc, DiagCategory::Unsupported,
                    "clause '" + Name +
                        "' is not supported by this version of tawa-rewrite");
        P.Valid = false;
        skipClauseArgs();
        Ok = true;
      } else if (StringRef Like = closest(Name, kClauses); !Like.empty()) {
        didYouMean(Diags, NameTok,
                   "unknown clause '" + Name + "' in '#pragma tawa tile'",
                   Like);
        P.Valid = false;
        skipClauseArgs();
        Ok = true;
      } else {
        Diags.error(Loc, DiagCategory::Pragma,
                    "unknown clause '" + Name +
                        "' in '#pragma tawa tile'; accepted: stages(N), "
                        "consumers(N), regs(P, C), persistent[(on|off)], "
                        "raster(m|n[, G]), cluster(N), "
                        "schedule(cooperative|pingpong), tail(split|whole), "
                        "shape(auto|BM, BN), narrow(auto|off|N[, N]...), "
                        "overlap(on|off), precision(tf32|3xtf32)");
        P.Valid = false;
        skipClauseArgs();
        Ok = true;
      }
      if (!Ok)
        return;
    }
  }

private:
  void next() { PP.Lex(Tok); }

  void fail(SourceLocation Loc, const Twine &What) {
    Diags.error(Loc, DiagCategory::Pragma, What + "; expected " + kForm);
    P.Valid = false;
    while (Tok.isNot(tok::eod))
      next();
  }

  void skipClauseArgs() {
    if (!Tok.is(tok::l_paren))
      return;
    int Depth = 0;
    do {
      if (Tok.is(tok::l_paren))
        ++Depth;
      else if (Tok.is(tok::r_paren))
        --Depth;
      next();
    } while (Depth > 0 && Tok.isNot(tok::eod));
  }

  bool expect(tok::TokenKind K, const char *Spelling, StringRef Clause) {
    if (Tok.is(K)) {
      next();
      return true;
    }
    fail(Tok.getLocation(),
         Twine("expected '") + Spelling + "' in clause '" + Clause + "'");
    return false;
  }

  /// Parses an integer literal; reports and returns nullopt otherwise.
  std::optional<int> integer(StringRef Clause) {
    if (Tok.isNot(tok::numeric_constant)) {
      fail(Tok.getLocation(),
           "expected an integer constant in clause '" + Clause + "'");
      return std::nullopt;
    }
    StringRef Text(Tok.getLiteralData(), Tok.getLength());
    unsigned long long V;
    if (Text.getAsInteger(0, V) || V > 1u << 20) {
      fail(Tok.getLocation(),
           "expected an integer constant in clause '" + Clause + "'");
      return std::nullopt;
    }
    next();
    return static_cast<int>(V);
  }

  bool duplicate(SourceLocation Loc, SourceLocation Prev, StringRef Clause) {
    if (Prev.isInvalid())
      return false;
    Diags.error(Loc, DiagCategory::Pragma,
                "clause '" + Clause + "' given twice");
    Diags.note(Prev, "first given here");
    P.Valid = false;
    return true;
  }

  /// Records clause value `Value` at `Loc` unless the clause was a duplicate
  /// (`Dup`, already reported); returns true (parsing goes on).
  template <class T>
  bool record(Clause<T> &Out, T Value, SourceLocation Loc, bool Dup) {
    if (!Dup) {
      Out.Value = Value;
      Out.Loc = Loc;
    }
    return true;
  }

  bool parseSingle(Clause<int> &Out, SourceLocation Loc, StringRef Clause,
                   int Lo, int Hi, StringRef Accepted) {
    bool Dup = duplicate(Loc, Out.Loc, Clause);
    if (!expect(tok::l_paren, "(", Clause))
      return false;
    SourceLocation ValueLoc = Tok.getLocation();
    std::optional<int> V = integer(Clause);
    if (!V || !expect(tok::r_paren, ")", Clause))
      return false;
    if (*V < Lo || *V > Hi) {
      Diags.error(ValueLoc, DiagCategory::Pragma,
                  Clause + " value " + Twine(*V) +
                      " is out of range; expected " + Accepted);
      P.Valid = false;
      return true;
    }
    return record(Out, *V, Loc, Dup);
  }

  bool parseRegs(SourceLocation Loc) {
    bool Dup = duplicate(Loc, P.Regs.Loc, "regs");
    if (!expect(tok::l_paren, "(", "regs"))
      return false;
    SourceLocation PLoc = Tok.getLocation();
    std::optional<int> Prod = integer("regs");
    if (!Prod || !expect(tok::comma, ",", "regs"))
      return false;
    SourceLocation CLoc = Tok.getLocation();
    std::optional<int> Cons = integer("regs");
    if (!Cons || !expect(tok::r_paren, ")", "regs"))
      return false;
    bool Ok = true;
    for (auto [V, L] : {std::pair{*Prod, PLoc}, std::pair{*Cons, CLoc}})
      if (V < 24 || V > 256 || V % 8 != 0) {
        Diags.error(
            L, DiagCategory::Pragma,
            "register count " + Twine(V) +
                " is not a valid setmaxnreg value; expected a multiple of 8 in "
                "[24, 256] (PTX ISA, setmaxnreg)");
        Ok = false;
      }
    if (Ok && *Prod > *Cons) {
      Diags.error(PLoc, DiagCategory::Pragma,
                  "regs(P, C): the producer's " + Twine(*Prod) +
                      " registers exceed the consumers' " + Twine(*Cons) +
                      "; registers move from the producer to the consumers");
      Ok = false;
    }
    if (!Ok) {
      P.Valid = false;
      return true;
    }
    return record(P.Regs, RegisterSplit{*Prod, *Cons}, Loc, Dup);
  }

  /// One of two keywords `A` and `B` as the argument of `Clause`: true for
  /// `A`; nullopt after reporting anything else.
  std::optional<bool> keyword(StringRef Clause, StringRef A, StringRef B) {
    StringRef W = Tok.is(tok::identifier) ? Tok.getIdentifierInfo()->getName()
                                          : StringRef();
    if (W != A && W != B) {
      fail(Tok.getLocation(),
           "expected '" + A + "' or '" + B + "' in clause '" + Clause + "'");
      return std::nullopt;
    }
    next();
    return W == A;
  }

  /// `persistent` or `persistent(on|off)`.
  bool parsePersistent(SourceLocation Loc) {
    bool Dup = duplicate(Loc, P.Persistent.Loc, "persistent");
    bool On = true;
    if (Tok.is(tok::l_paren)) {
      next();
      std::optional<bool> W = keyword("persistent", "on", "off");
      if (!W)
        return false;
      On = *W;
      if (!expect(tok::r_paren, ")", "persistent"))
        return false;
    }
    return record(P.Persistent, On, Loc, Dup);
  }

  /// `schedule(cooperative|pingpong)`.
  bool parseSchedule(SourceLocation Loc) {
    bool Dup = duplicate(Loc, P.Schedule.Loc, "schedule");
    if (!expect(tok::l_paren, "(", "schedule"))
      return false;
    std::optional<bool> Cooperative =
        keyword("schedule", "cooperative", "pingpong");
    if (!Cooperative || !expect(tok::r_paren, ")", "schedule"))
      return false;
    return record(P.Schedule,
                  *Cooperative ? ConsumerSchedule::Cooperative
                               : ConsumerSchedule::PingPong,
                  Loc, Dup);
  }

  /// `overlap(on|off)`.
  bool parseOverlap(SourceLocation Loc) {
    bool Dup = duplicate(Loc, P.Overlap.Loc, "overlap");
    if (!expect(tok::l_paren, "(", "overlap"))
      return false;
    std::optional<bool> On = keyword("overlap", "on", "off");
    if (!On || !expect(tok::r_paren, ")", "overlap"))
      return false;
    return record(P.Overlap, *On, Loc, Dup);
  }

  /// `precision(tf32|3xtf32)`. `3xtf32` lexes as one numeric token.
  bool parsePrecision(SourceLocation Loc) {
    bool Dup = duplicate(Loc, P.Precision.Loc, "precision");
    if (!expect(tok::l_paren, "(", "precision"))
      return false;
    const std::string W =
        Tok.is(tok::identifier) || Tok.is(tok::numeric_constant)
            ? PP.getSpelling(Tok)
            : std::string();
    if (W != "tf32" && W != "3xtf32") {
      fail(Tok.getLocation(),
           "expected 'tf32' or '3xtf32' in clause 'precision'");
      return false;
    }
    next();
    if (!expect(tok::r_paren, ")", "precision"))
      return false;
    return record(P.Precision,
                  W == "tf32" ? MmaPrecision::Tf32 : MmaPrecision::ThreeTf32,
                  Loc, Dup);
  }

  /// `tail(split|whole)`.
  bool parseTail(SourceLocation Loc) {
    bool Dup = duplicate(Loc, P.SplitTail.Loc, "tail");
    if (!expect(tok::l_paren, "(", "tail"))
      return false;
    std::optional<bool> Split = keyword("tail", "split", "whole");
    if (!Split || !expect(tok::r_paren, ")", "tail"))
      return false;
    return record(P.SplitTail, *Split, Loc, Dup);
  }

  /// Reports at `Loc` a column count `N` of clause `Clause` that wgmma cannot
  /// run: a multiple of 8 from 8 to 256 (PTX ISA, wgmma.mma_async shapes).
  void checkColumns(SourceLocation Loc, StringRef Clause, int N) {
    if (N >= 8 && N <= 256 && N % 8 == 0)
      return;
    Diags.error(Loc, DiagCategory::Pragma,
                Clause + " columns " + Twine(N) +
                    " are out of range; expected a multiple of 8 (the N of "
                    "wgmma) from 8 to 256");
    P.Valid = false;
  }

  /// `shape(auto)` or `shape(BM, BN)`: BM a multiple of 64 up to 256, BN a
  /// multiple of 8 up to 256 (the limits of docs/tile-language.md).
  bool parseShape(SourceLocation Loc) {
    bool Dup = duplicate(Loc, P.Shape.Loc, "shape");
    if (!expect(tok::l_paren, "(", "shape"))
      return false;
    TileShapeClause S;
    if (Tok.is(tok::kw_auto)) {
      S.Auto = true;
      next();
    } else if (Tok.isNot(tok::numeric_constant)) {
      fail(Tok.getLocation(), "expected 'auto' or 'BM, BN' in clause 'shape'");
      return false;
    } else {
      SourceLocation MLoc = Tok.getLocation();
      std::optional<int> M = integer("shape");
      if (!M || !expect(tok::comma, ",", "shape"))
        return false;
      SourceLocation NLoc = Tok.getLocation();
      std::optional<int> N = integer("shape");
      if (!N)
        return false;
      if (*M < 64 || *M > 256 || *M % 64 != 0) {
        Diags.error(MLoc, DiagCategory::Pragma,
                    "shape rows " + Twine(*M) +
                        " are out of range; expected a multiple of 64 (the M "
                        "of wgmma per warpgroup) from 64 to 256");
        P.Valid = false;
      }
      checkColumns(NLoc, "shape", *N);
      S.BM = *M;
      S.BN = *N;
    }
    if (!expect(tok::r_paren, ")", "shape"))
      return false;
    return record(P.Shape, S, Loc, Dup);
  }

  /// `narrow(auto)`, `narrow(off)` or `narrow(N[, N]...)`: each N a
  /// multiple of 8 from 8 to 256 (the N of wgmma), given once; kept in
  /// ascending order.
  bool parseNarrow(SourceLocation Loc) {
    bool Dup = duplicate(Loc, P.Narrow.Loc, "narrow");
    if (!expect(tok::l_paren, "(", "narrow"))
      return false;
    NarrowClause N;
    if (Tok.is(tok::kw_auto)) {
      next();
    } else if (Tok.is(tok::identifier) &&
               Tok.getIdentifierInfo()->getName() == "off") {
      N.Off = true;
      next();
    } else if (Tok.is(tok::numeric_constant)) {
      while (true) {
        SourceLocation CLoc = Tok.getLocation();
        std::optional<int> C = integer("narrow");
        if (!C)
          return false;
        checkColumns(CLoc, "narrow", *C);
        if (llvm::is_contained(N.Columns, *C)) {
          Diags.error(CLoc, DiagCategory::Pragma,
                      "narrow columns " + Twine(*C) + " are given twice");
          P.Valid = false;
        }
        N.Columns.push_back(*C);
        if (Tok.isNot(tok::comma))
          break;
        next();
      }
      llvm::sort(N.Columns);
    } else {
      fail(Tok.getLocation(),
           "expected 'auto', 'off' or column counts in clause 'narrow'");
      return false;
    }
    if (!expect(tok::r_paren, ")", "narrow"))
      return false;
    return record(P.Narrow, N, Loc, Dup);
  }

  /// `raster(m|n [, G])`.
  bool parseRaster(SourceLocation Loc) {
    bool Dup = duplicate(Loc, P.Raster.Loc, "raster");
    if (!expect(tok::l_paren, "(", "raster"))
      return false;
    std::optional<bool> AlongM = keyword("raster", "m", "n");
    if (!AlongM)
      return false;
    RasterOrder R{*AlongM, 8};
    if (Tok.is(tok::comma)) {
      next();
      SourceLocation GLoc = Tok.getLocation();
      std::optional<int> G = integer("raster");
      if (!G)
        return false;
      if (*G < 1 || *G > 64) {
        Diags.error(GLoc, DiagCategory::Pragma,
                    "raster group " + Twine(*G) +
                        " is out of range; expected raster(m|n, G) with 1 <= G "
                        "<= 64");
        P.Valid = false;
      }
      R.Group = *G;
    }
    if (!expect(tok::r_paren, ")", "raster"))
      return false;
    return record(P.Raster, R, Loc, Dup);
  }

  Preprocessor &PP;
  DiagReporter &Diags;
  TilePragma &P;
  Token Tok;
};

} // namespace

void TawaPragmaHandler::HandlePragma(Preprocessor &PP,
                                     PragmaIntroducer Introducer,
                                     Token &FirstToken) {
  Token Tok;
  PP.Lex(Tok);
  if (Tok.isNot(tok::identifier) ||
      Tok.getIdentifierInfo()->getName() != "tile") {
    StringRef Word =
        Tok.is(tok::identifier) ? Tok.getIdentifierInfo()->getName() : "";
    if (!Word.empty() && !closest(Word, {"tile"}).empty())
      didYouMean(Diags, Tok, "unknown '#pragma tawa' directive '" + Word + "'",
                 "tile");
    else
      Diags.error(Tok.is(tok::eod) ? FirstToken.getLocation()
                                   : Tok.getLocation(),
                  DiagCategory::Pragma,
                  Twine("unknown '#pragma tawa' directive; expected ") + kForm);
    while (Tok.isNot(tok::eod))
      PP.Lex(Tok);
    return;
  }
  TilePragma P;
  P.Loc = Tok.getLocation();
  ClauseParser(PP, Diags, P).parse();
  Out.push_back(P);
}

} // namespace tawa
