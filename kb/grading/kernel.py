"""How alike two replies to one question are, and what a teacher's grades of some replies say about the
rest: the similarity behind the review order and the propagation of :mod:`kb.grading.review`.

- :func:`reply_kernel`: meaning (USE-m3 cosine) plus letters (cosine of tf-idf weighted character
  2–5-grams within words), so that two replies are alike when they say the same thing in other words or
  the same words misspelt;
- :func:`decision_order`: the replies to decide first, by how much a decision would tell about the whole
  question — the variance it removes from a Gaussian process over the replies with that kernel, summed
  over every reply (greedy experimental design: a reply with many replies like it comes first, and a reply
  like one already decided comes late; Powergrading, Basu et al. TACL 2013, grades cluster centres);
- :func:`propagate`: kernel ridge regression of the teacher's grades on the replies, as a correction of
  kb's own grade (kb's grade is the prior; the teacher's decisions say where and by how much it is wrong).

The constants were chosen on PT_ASAG dev questions 36–42 only (``bench/review_budget.py --tune``).
"""

from __future__ import annotations

import re
import zlib
from typing import Any, Sequence

from ..text import fold

CHAR_DIMS = 1 << 14  # hashed character n-grams: 16,384 buckets (a class's replies to one question)
GAIN_NOISE = 0.3  # the Gaussian process's noise in the decision order (kernel units; chosen on dev)
RIDGE = 1.0  # the propagation's ridge (kernel units; chosen on dev)
PRIOR_SHRINK = 3.0  # the mean correction of kb's grade is shrunk towards 0 by this many pseudo-decisions


def _grams(text: str) -> list[str]:
    out = []
    for w in re.findall(r"\w+", fold(text)):
        t = f" {w} "
        out += [t[i:i + n] for n in (2, 3, 4, 5) for i in range(len(t) - n + 1)]
    return out


def char_vectors(texts: Sequence[str]) -> Any:
    """Each text's character 2–5-grams within words (folded case and accents), hashed, weighed by
    sublinear tf × idf over ``texts`` and of length 1 (a text without letters: all zeros)."""
    import numpy as np

    m = np.zeros((len(texts), CHAR_DIMS), dtype=np.float32)
    for i, t in enumerate(texts):
        for g in _grams(t):
            m[i, zlib.crc32(g.encode()) % CHAR_DIMS] += 1.0
    nz = m > 0
    m[nz] = 1.0 + np.log(m[nz])
    df = nz.sum(0)
    m *= (np.log((1.0 + len(texts)) / (1.0 + df)) + 1.0).astype(np.float32)
    n = np.linalg.norm(m, axis=1, keepdims=True)
    return m / np.where(n == 0, 1, n)


def reply_kernel(vecs: Any, texts: Sequence[str]) -> Any:
    """The similarity of every pair of ``texts`` (one question's replies): the cosine of their
    embeddings (``vecs``, of length 1) plus the cosine of their character n-grams; 0–2."""
    import numpy as np

    v = np.asarray(vecs, dtype=np.float32)
    c = char_vectors(texts)
    return np.clip(v @ v.T, 0, None) + c @ c.T


def decision_order(kernel: Any, candidates: Sequence[int], weights: Any, n: int, *,
                   noise: float = GAIN_NOISE) -> list[tuple[int, float]]:
    """The first ``n`` of ``candidates`` (indices into ``kernel``) to decide, each with its gain: the
    variance of the replies (weighed by ``weights``, e.g. 0 for a reply a guard zeroes) a decision on
    it removes, given the decisions before it (greedy; ties to the earlier candidate)."""
    import numpy as np

    s = np.array(kernel, dtype=np.float64, copy=True)
    w = np.asarray(weights, dtype=np.float64)
    cand = np.asarray(candidates, dtype=int)
    used = np.zeros(len(cand), dtype=bool)
    out: list[tuple[int, float]] = []
    for _ in range(min(n, len(cand))):
        col = s[:, cand]
        gain = (w[:, None] * col ** 2).sum(0) / (s[cand, cand] + noise)
        gain[used] = -1.0
        j = int(np.argmax(gain))
        r = cand[j]
        s -= np.outer(s[:, r], s[r, :]) / (s[r, r] + noise)
        used[j] = True
        out.append((int(r), float(gain[j])))
    return out


def propagate(kernel: Any, prior: Any, decided: Sequence[int], points: Sequence[float], *,
              ridge: float = RIDGE, shrink: float = PRIOR_SHRINK, toward: float = 0.0) -> Any:
    """Every reply's grade (0–3, unrounded) given the teacher's ``points`` of the replies ``decided``
    (indices into ``kernel``): kb's grade (``prior``) plus the mean correction the teacher made
    (shrunk by ``shrink`` pseudo-decisions of ``toward``: no correction, or the other questions' mean
    correction) plus kernel ridge regression of the rest of the correction. The decided replies keep the
    teacher's points."""
    import numpy as np

    prior = np.asarray(prior, dtype=np.float64)
    if not len(decided):
        return prior.copy()
    d = np.asarray(decided, dtype=int)
    t = np.asarray(points, dtype=np.float64) - prior[d]
    mean = float((t.sum() + shrink * toward) / (len(t) + shrink))
    k = np.asarray(kernel, dtype=np.float64)
    a = np.linalg.solve(k[np.ix_(d, d)] + ridge * np.eye(len(d)), t - mean)
    out = np.clip(prior + mean + k[:, d] @ a, 0.0, 3.0)
    out[d] = points
    return out
