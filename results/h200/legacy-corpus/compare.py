#!/usr/bin/env python3
"""compare.py ORIG.f32 NEW.f32 -> one line: PASS|FAIL maxdiff maxorig note.

PASS when max|new - orig| <= 2e-2 * max|orig| + 1e-3 and new has no NaN/Inf.
"""
import math
import sys
from array import array

try:
    import numpy as np
except ImportError:  # pure-Python fallback (slower, same verdicts)
    np = None


def load(path):
    a = array('f')
    with open(path, 'rb') as f:
        a.frombytes(f.read())
    if sys.byteorder != 'little':
        a.byteswap()
    return a


def main_py():
    o = load(sys.argv[1])
    n = load(sys.argv[2])
    if len(o) != len(n):
        print('FAIL nan nan size-mismatch(orig=%d,new=%d)' % (len(o), len(n)))
        return
    if len(o) == 0:
        print('FAIL nan nan empty-output')
        return
    fin = math.isfinite
    bad_o = sum(1 for v in o if not fin(v))
    bad_n_idx = [i for i, v in enumerate(n) if not fin(v)]
    maxorig = max((abs(v) for v in o if fin(v)), default=float('nan'))
    diffs = [abs(b - a) for a, b in zip(o, n) if fin(a) and fin(b)]
    maxdiff = max(diffs, default=float('nan'))
    tol = 2e-2 * maxorig + 1e-3
    notes = []
    if bad_o:
        notes.append('orig-nonfinite=%d' % bad_o)
    if bad_n_idx:
        notes.append('new-nonfinite=%d(first@%d)' % (len(bad_n_idx), bad_n_idx[0]))
    nbad = sum(1 for d in diffs if d > tol) if diffs else len(o)
    if nbad:
        first = next((i for i, (a, b) in enumerate(zip(o, n))
                      if fin(a) and fin(b) and abs(b - a) > tol), -1)
        notes.append('n_over_tol=%d/%d(first@%d)' % (nbad, len(o), first))
    passed = not bad_n_idx and not bad_o and nbad == 0 and maxdiff <= tol
    print('%s %.6g %.6g %s' % ('PASS' if passed else 'FAIL', maxdiff, maxorig,
                               ' '.join(notes)))


def main():
    if np is None:
        main_py()
        return
    o = np.fromfile(sys.argv[1], dtype=np.float32).astype(np.float64)
    n = np.fromfile(sys.argv[2], dtype=np.float32).astype(np.float64)
    if o.size != n.size:
        print('FAIL nan nan size-mismatch(orig=%d,new=%d)' % (o.size, n.size))
        return
    if o.size == 0:
        print('FAIL nan nan empty-output')
        return
    notes = []
    bad_o = ~np.isfinite(o)
    bad_n = ~np.isfinite(n)
    if bad_o.any():
        notes.append('orig-nonfinite=%d' % int(bad_o.sum()))
    if bad_n.any():
        notes.append('new-nonfinite=%d(first@%d)' % (int(bad_n.sum()), int(np.argmax(bad_n))))
    ok_mask = ~bad_o & ~bad_n
    maxorig = float(np.abs(o[~bad_o]).max()) if (~bad_o).any() else float('nan')
    d = np.abs(n - o)
    maxdiff = float(d[ok_mask].max()) if ok_mask.any() else float('nan')
    tol = 2e-2 * maxorig + 1e-3
    nbad = int((d[ok_mask] > tol).sum()) if ok_mask.any() else o.size
    if nbad:
        first = int(np.flatnonzero(ok_mask & (d > tol))[0]) if ok_mask.any() else -1
        notes.append('n_over_tol=%d/%d(first@%d)' % (nbad, o.size, first))
    passed = (not bad_n.any()) and (not bad_o.any()) and nbad == 0 and maxdiff <= tol
    print('%s %.6g %.6g %s' % ('PASS' if passed else 'FAIL', maxdiff, maxorig,
                               ' '.join(notes)))


if __name__ == '__main__':
    main()
