"""Maximum-cardinality bipartite matching (gcut/match.h) with its König certificate."""

from __future__ import annotations

from typing import Any, NamedTuple, Optional

import numpy as np

from . import _as_int32, _gcut


class MatchResult(NamedTuple):
    """A maximum matching and its proof.

    ``row_mates[r]``: the column matched to row r, or -1; ``col_mates[c]``
    likewise. ``cover_rows`` / ``cover_cols`` (bool): a König vertex cover
    of ``cardinality`` vertices that touches every edge, which proves the
    matching maximum (checked by the library, gcut_match_check).
    """
    cardinality: int
    row_mates: np.ndarray
    col_mates: np.ndarray
    cover_rows: np.ndarray
    cover_cols: np.ndarray
    backend: str
    total_ms: float


def match(rows: Any, cols: Any = None, n_rows: Optional[int] = None,
          n_cols: Optional[int] = None, backend: str = "auto") -> MatchResult:
    """Maximum matching of the bipartite graph with edges (rows[e], cols[e]).

    ``rows`` may instead be a scipy.sparse matrix (its pattern, explicit
    zeros included), then ``cols`` and the sizes are not given. Sizes
    default to max id + 1. Duplicate edges are merged. GIL released.
    """
    if cols is None and hasattr(rows, "tocoo"):
        coo = rows.tocoo()
        n_rows, n_cols = coo.shape
        rows, cols = coo.row, coo.col
    if cols is None:
        raise TypeError("match: give rows and cols index arrays, or a scipy.sparse matrix")
    r = _as_int32("rows", rows, ids=True).ravel()
    c = _as_int32("cols", cols, ids=True).ravel()
    if r.shape != c.shape:
        raise ValueError(f"match: rows has {r.shape[0]} entries, cols {c.shape[0]}")
    if n_rows is None:
        n_rows = int(r.max()) + 1 if r.size else 0
    if n_cols is None:
        n_cols = int(c.max()) + 1 if c.size else 0
    card, rm, cm, cr, cc, name, ms = _gcut.match(np.ascontiguousarray(r), np.ascontiguousarray(c),
                                                 int(n_rows), int(n_cols), backend)
    return MatchResult(card, np.frombuffer(rm, dtype=np.int32), np.frombuffer(cm, dtype=np.int32),
                       np.frombuffer(cr, dtype=np.uint8).astype(bool),
                       np.frombuffer(cc, dtype=np.uint8).astype(bool), name, ms)
