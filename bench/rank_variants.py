"""Ranking variants measured by bench/rank_many.py: each a function (index, query, query vector) -> scores."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from kb.chunking import index_text
from kb.search import LexicalIndex, _top, lexical_tokens
from kb.search import fused_scores as _fused
from kb.text import fold

_CACHE: dict = {}


def fused_scores(index, q, qv):
    """The hybrid score before kb.rank_route (cosine + BM25 weighted as kb.search does), which every variant adjusts."""
    return _fused(index, q, qv, "hybrid", raw=True)


def _sources(index):
    key = ("src", id(index))
    if key not in _CACHE:
        names = [Path(c.source).name for c in index.chunks]
        uniq = sorted(set(names))
        pos = {n: i for i, n in enumerate(uniq)}
        _CACHE[key] = (np.array([pos[n] for n in names]), uniq)
    return _CACHE[key]


def _source_lexical(index):
    """BM25 over one document per source: its file name and every heading it has, once each."""
    key = ("srclex", id(index))
    if key not in _CACHE:
        sid, uniq = _sources(index)
        heads: list[dict[str, None]] = [dict.fromkeys([Path(n).stem.replace("_", " ")]) for n in uniq]
        for c, s in zip(index.chunks, sid, strict=True):
            if c.locator.heading:
                for part in c.locator.heading.split(" > "):
                    heads[s][part] = None
        _CACHE[key] = LexicalIndex(uniq, [lexical_tokens("\n".join(h)) for h in heads])
    return _CACHE[key]


def source_score(index, base, m):
    """Each source's score: the mean of its m best passages."""
    sid, uniq = _sources(index)
    out = np.zeros(len(uniq), dtype=np.float32)
    order = np.argsort(-base, kind="stable")
    counts = np.zeros(len(uniq), dtype=np.int64)
    for j in order[: 60 * m]:
        s = sid[j]
        if counts[s] < m:
            out[s] += base[j] / m
            counts[s] += 1
    return out


def route(beta, m):
    def fn(index, q, qv):
        base = fused_scores(index, q, qv)
        src = source_score(index, base, m)
        sid, _ = _sources(index)
        return base + beta * (src[sid] - src.max())
    return fn


def route_lex(beta):
    def fn(index, q, qv):
        base = fused_scores(index, q, qv)
        lex = _source_lexical(index).scores(q)
        lex = lex / (float(lex.max()) or 1.0)
        sid, _ = _sources(index)
        return base + beta * lex[sid]
    return fn


_NAME = re.compile(r"[A-Za-z][\w.\-]*[\w]")


def name_terms(q: str) -> list[str]:
    """Identifiers and proper names in a question: words with a dot, underscore, digit or an inner capital,
    all-capital acronyms, and capitalised words that do not start the sentence."""
    out = []
    for m in _NAME.finditer(q):
        w = m.group(0)
        starts = m.start() == 0 or q[: m.start()].rstrip()[-1:] in "¿¡.?!:"
        if (re.search(r"[._\d]", w) or re.search(r"[a-z][A-Z]", w) or (w.isupper() and len(w) > 1)
                or (w[0].isupper() and not starts)):
            out.append(w)
    return list(dict.fromkeys(out))


def _texts(index):
    key = ("texts", id(index))
    if key not in _CACHE:
        _CACHE[key] = [fold(index_text(c)).lower() for c in index.chunks]
    return _CACHE[key]


def names(gamma):
    def fn(index, q, qv):
        base = fused_scores(index, q, qv)
        terms = [fold(t).lower() for t in name_terms(q)]
        if not terms:
            return base
        texts = _texts(index)
        n = len(texts)
        bonus = np.zeros(n, dtype=np.float32)
        total = 0.0
        for t in terms:
            pat = re.compile(r"(?<![\w])" + re.escape(t) + r"(?![\w])")
            hit = np.fromiter((bool(pat.search(x)) for x in texts), dtype=bool, count=n)
            df = int(hit.sum())
            if not df:
                continue
            idf = float(np.log(1 + (n - df + 0.5) / (df + 0.5)))
            bonus[hit] += idf
            total += idf
        return base + gamma * bonus / (total or 1.0)
    return fn


def combo(beta, m, gamma):
    nm = names(gamma)

    def fn(index, q, qv):
        base = nm(index, q, qv)
        src = source_score(index, base, m)
        sid, _ = _sources(index)
        return base + beta * (src[sid] - src.max())
    return fn


VARIANTS = {}
for _b in (0.1, 0.2, 0.3, 0.5, 1.0):
    for _m in (1, 3, 5):
        VARIANTS[f"route b{_b} m{_m}"] = route(_b, _m)
for _b in (0.02, 0.05, 0.1, 0.2):
    VARIANTS[f"route_lex b{_b}"] = route_lex(_b)
for _g in (0.02, 0.05, 0.1, 0.2):
    VARIANTS[f"names g{_g}"] = names(_g)
for _b in (0.2, 0.5):
    for _g in (0.05, 0.1):
        VARIANTS[f"combo b{_b} m3 g{_g}"] = combo(_b, 3, _g)

__all__ = ["VARIANTS", "_top"]


def _overview(index, title_page=True):
    """1 for a passage on a deck's agenda/index, closing summary or (a PDF's) title page, else 0."""
    from kb.lang import divider_title, summary_title

    key = ("overview", id(index), title_page)
    if key not in _CACHE:
        out = np.zeros(len(index.chunks), dtype=np.float32)
        for j, c in enumerate(index.chunks):
            last = (c.locator.heading or "").split(" > ")[-1]
            if last and (divider_title(last) or summary_title(last)):
                out[j] = 1
            elif title_page and c.kind == "pdf" and c.locator.page == 1:
                out[j] = 1
        _CACHE[key] = out
    return _CACHE[key]


def overview(delta, beta=0.0, title_page=True):
    rl = route_lex(beta)

    def fn(index, q, qv):
        return rl(index, q, qv) - delta * _overview(index, title_page)
    return fn


for _d in (0.02, 0.05, 0.1):
    VARIANTS[f"overview d{_d}"] = overview(_d)
    VARIANTS[f"overview d{_d} notitle"] = overview(_d, title_page=False)
    for _b in (0.1, 0.2):
        VARIANTS[f"overview d{_d} route_lex b{_b}"] = overview(_d, _b)
for _d in (0.15, 0.2, 0.3):
    for _b in (0.2, 0.3, 0.5):
        VARIANTS[f"overview d{_d} route_lex b{_b}"] = overview(_d, _b)
# e5-small's narrower score range: the same two corrections at its scale
for _d in (0.005, 0.01, 0.02, 0.04):
    for _b in (0.0, 0.01, 0.02):
        VARIANTS[f"overview d{_d} route_lex b{_b}"] = overview(_d, _b)
for _d in (0.1, 0.15, 0.2):
    for _b in (0.05, 0.1, 0.15):
        VARIANTS[f"overview d{_d} route_lex b{_b}"] = overview(_d, _b)


def _whole_tokens(text):
    """Prefix stems (kb.search.lexical_tokens) and, besides, each longer word whole: "tensorboard" is not "tensor"."""
    from kb.search import STEM_CHARS
    from kb.text import search_tokens

    return lexical_tokens(text) + [w for w in search_tokens(text) if len(w) > STEM_CHARS]


def _source_lexical_whole(index):
    key = ("srclexw", id(index))
    if key not in _CACHE:
        sid, uniq = _sources(index)
        heads: list[dict[str, None]] = [dict.fromkeys([Path(n).stem.replace("_", " ")]) for n in uniq]
        for c, s in zip(index.chunks, sid, strict=True):
            if c.locator.heading:
                for part in c.locator.heading.split(" > "):
                    heads[s][part] = None
        lx = LexicalIndex(uniq, [_whole_tokens("\n".join(h)) for h in heads])
        _CACHE[key] = lx
    return _CACHE[key]


def overview_whole(delta, beta):
    def fn(index, q, qv):
        base = fused_scores(index, q, qv)
        lx = _source_lexical_whole(index)
        sc = np.zeros(len(lx.ids), dtype=np.float32)
        for t in dict.fromkeys(_whole_tokens(q)):
            j = lx.vocab.get(t)
            if j is not None:
                a, b = lx.indptr[j], lx.indptr[j + 1]
                sc[lx.docs[a:b]] += lx.idf[j] * lx.weights[a:b]
        sc = sc / (float(sc.max()) or 1.0)
        sid, _ = _sources(index)
        return base + beta * sc[sid] - delta * _overview(index)
    return fn


for _b in (0.1, 0.15, 0.2):
    VARIANTS[f"whole d0.15 b{_b}"] = overview_whole(0.15, _b)


def _source_lexical_terms(index, emphasis=True, labels=True):
    """The sources' title documents (headings, file name) plus their bold phrases and "Label: …" labels."""
    key = ("srclext", id(index), emphasis, labels)
    if key not in _CACHE:
        sid, uniq = _sources(index)
        heads: list[dict[str, None]] = [dict.fromkeys([Path(n).stem.replace("_", " ")]) for n in uniq]
        for c, s in zip(index.chunks, sid, strict=True):
            if c.locator.heading:
                for part in c.locator.heading.split(" > "):
                    heads[s][part] = None
            if emphasis:
                for e in c.emphasis:
                    heads[s][e] = None
            if labels:
                for ln in c.text.split("\n"):
                    head, sep, _ = ln.strip(" •-*").partition(":")
                    if sep and 0 < len(head.split()) <= 4:
                        heads[s][head] = None
        _CACHE[key] = LexicalIndex(uniq, [lexical_tokens("\n".join(h)) for h in heads])
    return _CACHE[key]


def overview_terms(delta, beta, emphasis, labels):
    def fn(index, q, qv):
        base = fused_scores(index, q, qv)
        lex = _source_lexical_terms(index, emphasis, labels).scores(q)
        lex = lex / (float(lex.max()) or 1.0)
        sid, _ = _sources(index)
        return base + beta * lex[sid] - delta * _overview(index)
    return fn


for _b in (0.1, 0.15, 0.2):
    VARIANTS[f"terms emph d0.15 b{_b}"] = overview_terms(0.15, _b, True, False)
    VARIANTS[f"terms labels d0.15 b{_b}"] = overview_terms(0.15, _b, False, True)
    VARIANTS[f"terms both d0.15 b{_b}"] = overview_terms(0.15, _b, True, True)

EMBEDDER = None  # set by bench/rank_many.py: the store's embedder (for the heading-title variants)


def _title_vectors(index):
    key = ("titles", id(index))
    if key not in _CACHE:
        heads = [(c.locator.heading or "").split(" > ")[-1] for c in index.chunks]
        uniq = sorted(set(heads))
        vecs = EMBEDDER.embed_queries(uniq)  # short phrases, embedded as questions are
        vecs = vecs / np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-12)
        pos = {h: i for i, h in enumerate(uniq)}
        _CACHE[key] = (vecs, np.array([pos[h] for h in heads]), np.array([bool(h) for h in heads]))
    return _CACHE[key]


def title_cos(weight):
    def fn(index, q, qv):
        from kb.search import fused_scores as current

        base = current(index, q, qv)
        vecs, pos, has = _title_vectors(index)
        cos = np.maximum(vecs @ qv, 0.0)[pos] * has
        return base + weight * cos
    return fn


for _w in (0.05, 0.1, 0.2, 0.3):
    VARIANTS[f"title cos w{_w} (on routed)"] = title_cos(_w)
