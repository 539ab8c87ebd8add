"""Scoring variants for bench/rank_dev.py (experiments: dev only)."""

from __future__ import annotations

import functools

import numpy as np

from kb.search import _top, lexical_tokens, lexical_weight

_cache: dict = {}


def parts(index, q, qv):
    cos = np.maximum(index.ranking_vectors() @ qv, 0.0)
    lex = index.lexical.scores(q)
    return cos, lex / (float(lex.max()) or 1.0)


def base(index, q, qv, w=None):
    cos, lex = parts(index, q, qv)
    w = lexical_weight(index.ranking_id) if w is None else w
    return (cos + w * lex) / (1 + w)


def groups(index, by):
    key = (id(index), by)
    if key not in _cache:
        ids: dict = {}
        g = np.zeros(len(index.chunks), dtype=np.int64)
        heads = index.chunks.cols["heading"]
        srcs = index.chunks.cols["source"]
        for i in range(len(index.chunks)):
            s = srcs[i]
            if by == "page":
                k = (s, int(index.chunks.page[i]))
            elif by == "heading":
                k = (s, heads[i] or "")
            elif by == "section":
                k = (s, (heads[i] or "").split(" > ")[0])
            g[i] = ids.setdefault(k, len(ids))
        _cache[key] = (g, len(ids))
    return _cache[key]


def group_max(scores, g, n):
    out = np.full(n, -1e9, dtype=np.float64)
    np.maximum.at(out, g, scores)
    return out[g]


def rocchio(index, q, qv, beta=0.5, m=3, w=None):
    s = base(index, q, qv, w)
    top = _top(s, m)
    cen = index.ranking_vectors()[top].mean(axis=0)
    v = qv + beta * cen
    v = v / np.linalg.norm(v)
    return base(index, q, v, w)


def rocchio_w(index, q, qv, beta=0.5, m=3, w=None):
    """Rocchio with the top passages weighted by their score."""
    s = base(index, q, qv, w)
    top = _top(s, m)
    wt = s[top] / s[top].sum()
    cen = (index.ranking_vectors()[top] * wt[:, None]).sum(axis=0)
    v = qv + beta * cen
    v = v / np.linalg.norm(v)
    return base(index, q, v, w)


def rm3(index, q, qv, m=3, terms=10, lam=0.3, heads_only=True):
    """Expand the BM25 query with the most frequent stems of the top passages' headings (or texts)."""
    s = base(index, q, qv)
    top = _top(s, m)
    from collections import Counter

    cnt: Counter = Counter()
    qt = set(lexical_tokens(q))
    for j in top:
        c = index.chunks[int(j)]
        text = (c.locator.heading or "") if heads_only else f"{c.locator.heading or ''} {c.text}"
        for t in set(lexical_tokens(text)):
            if t not in qt:
                cnt[t] += s[j]
    exp = [t for t, _ in cnt.most_common(terms)]
    lex_q = index.lexical.scores(q)
    lex_e = index.lexical.scores(" ".join(exp)) if exp else np.zeros_like(lex_q)
    lex = (1 - lam) * lex_q / (float(lex_q.max()) or 1.0) + lam * lex_e / (float(lex_e.max()) or 1.0)
    cos = np.maximum(index.ranking_vectors() @ qv, 0.0)
    w = lexical_weight(index.ranking_id)
    return (cos + w * lex) / (1 + w)


def agg(index, q, qv, by="page", gamma=0.3):
    s = base(index, q, qv)
    g, n = groups(index, by)
    return (1 - gamma) * s + gamma * group_max(s, g, n)


def centroid(index, by):
    key = (id(index), by, "cen")
    if key not in _cache:
        g, n = groups(index, by)
        cen = np.zeros((n, index.ranking_vectors().shape[1]), dtype=np.float32)
        np.add.at(cen, g, index.ranking_vectors())
        cen /= np.maximum(np.linalg.norm(cen, axis=1, keepdims=True), 1e-12)
        _cache[key] = cen
    return _cache[key]


def agg_cen(index, q, qv, by="page", gamma=0.3):
    """The passage's score with the cosine of its group's centroid."""
    s = base(index, q, qv)
    g, n = groups(index, by)
    c = np.maximum(centroid(index, by) @ qv, 0.0)[g]
    return (1 - gamma) * s + gamma * c


def neighbours(index, q, qv, gamma=0.2):
    s = base(index, q, qv)
    srcs = index.chunks.cols["source"]
    ords = index.chunks.ints[:, 0]
    key = (id(index), "nb")
    if key not in _cache:
        pos = {(srcs[i], int(ords[i])): i for i in range(len(index.chunks))}
        prev = np.array([pos.get((srcs[i], int(ords[i]) - 1), i) for i in range(len(index.chunks))])
        nxt = np.array([pos.get((srcs[i], int(ords[i]) + 1), i) for i in range(len(index.chunks))])
        _cache[key] = (prev, nxt)
    prev, nxt = _cache[key]
    return (1 - gamma) * s + gamma * np.maximum(s[prev], s[nxt])


def combo(index, q, qv, beta=0.5, m=3, by="page", gamma=0.3):
    s = rocchio(index, q, qv, beta, m)
    g, n = groups(index, by)
    return (1 - gamma) * s + gamma * group_max(s, g, n)


VARIANTS = {"base": base}
for w in (0.05, 0.1, 0.25):
    VARIANTS[f"base w={w}"] = functools.partial(base, w=w)
for beta in (0.25, 0.5, 1.0):
    for m in (2, 3, 5, 8):
        VARIANTS[f"rocchio b={beta} m={m}"] = functools.partial(rocchio, beta=beta, m=m)
for beta in (0.5, 1.0):
    for m in (3, 5):
        VARIANTS[f"rocchio_w b={beta} m={m}"] = functools.partial(rocchio_w, beta=beta, m=m)
for m in (3, 5):
    for lam in (0.2, 0.4):
        for ho in (True, False):
            VARIANTS[f"rm3 m={m} lam={lam} heads={ho}"] = functools.partial(rm3, m=m, lam=lam, heads_only=ho)
for by in ("page", "heading", "section"):
    for gamma in (0.1, 0.2, 0.4):
        VARIANTS[f"agg {by} g={gamma}"] = functools.partial(agg, by=by, gamma=gamma)
        VARIANTS[f"aggcen {by} g={gamma}"] = functools.partial(agg_cen, by=by, gamma=gamma)
for gamma in (0.1, 0.2, 0.3):
    VARIANTS[f"neighbours g={gamma}"] = functools.partial(neighbours, gamma=gamma)


EMBEDDER = None  # set by rank_dev


def heading_vecs(index, part):
    key = (id(index), "hv", part)
    if key not in _cache:
        heads = index.chunks.cols["heading"]
        texts = []
        for i in range(len(index.chunks)):
            h = heads[i] or ""
            texts.append(h.split(" > ")[-1] if part == "last" else h)
        uniq = sorted(set(texts))
        vecs = EMBEDDER.embed_documents([u or "-" for u in uniq])
        vecs = vecs / np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-12)
        at = {u: i for i, u in enumerate(uniq)}
        hv = vecs[[at[t] for t in texts]]
        hv[[not t for t in texts]] = 0
        _cache[key] = hv.astype(np.float32)
    return _cache[key]


def head_dense(index, q, qv, gamma=0.2, part="last"):
    s = base(index, q, qv)
    return (s + gamma * np.maximum(heading_vecs(index, part) @ qv, 0)) / (1 + gamma)


def dividers(index):
    key = (id(index), "div")
    if key not in _cache:
        from kb.lang import divider_title

        heads = index.chunks.cols["heading"]
        _cache[key] = np.array([divider_title((heads[i] or "").split(" > ")[-1]) for i in range(len(index.chunks))])
    return _cache[key]


def no_divider(index, q, qv, d=0.1):
    s = base(index, q, qv)
    return s * np.where(dividers(index), 1 - d, 1.0)


for gamma in (0.1, 0.2, 0.3, 0.5):
    for part in ("last", "full"):
        VARIANTS[f"headdense {part} g={gamma}"] = functools.partial(head_dense, gamma=gamma, part=part)
for d in (0.05, 0.1, 0.2):
    VARIANTS[f"nodivider d={d}"] = functools.partial(no_divider, d=d)


def keywords(q):
    from kb.text import STOPWORDS, fold, words

    return " ".join(w for w in words(q) if fold(w) not in STOPWORDS)


def kw_query(index, q, qv, alpha=0.5):
    kv = EMBEDDER.embed_queries([keywords(q) or q])[0]
    v = qv + alpha * kv
    return base(index, q, v / np.linalg.norm(v))


for a in (0.3, 0.5, 1.0, 100.0):
    VARIANTS[f"kwquery a={a}"] = functools.partial(kw_query, alpha=a)
