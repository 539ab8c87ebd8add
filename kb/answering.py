"""The offline answer to a student's question: the passage unit that answers the kind of question asked.

``kb ask`` without an LLM quotes the course, it does not write: the question's kind (what is / how /
why / which or list / difference) decides which unit of a passage answers it — a definition for
"¿qué es?", the steps or the code for "¿cómo?", the whole labelled list for "¿qué métodos…?", a line
for each side of a difference — and the unit is quoted whole (bullets whole and in order), with the
number of the passage it comes from. A passage here is a whole page (or section): the overlapping
windows the store holds of one slide are put back together, so a list is never cut at a window's
edge. Below an evidence floor the answer says the course does not seem to hold the answer and the
best passages are shown instead: never a confident wrong answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from .records import Chunk, Hit
from .search import lexical_tokens
from .text import fold, fold_word, sentences, words

KINDS = ("difference", "how", "why", "list", "what", "other")

# Which kind a question is, on its accent-free lower-case text (pt/es/en). Checked in this order.
_KIND_PATTERNS = (
    ("difference", r"\bdiferen|\bdifere|\bdistingu|\bvs\b|\bversus\b|\bfrente a\b|\bcompar"),
    ("how", r"^\W*(como|how)\b|\bcomo se\b|\bde que forma\b|\bde que manera\b|\bpasos\b|\bpassos\b|\bsteps\b"),
    ("why", r"\bpor ?que\b|\bpara que\b|\bwhy\b|\bque problema\b|\bmotivo\b"),
    ("list", r"^\W*(quais|cuales|which)\b|\b(que|what) (tipos|partes|pasos|passos|etapas|componentes|familias|"
             r"estrategias|modos|metodos|parametros|hiperparametros|atributos|caracteristicas|capas|camadas|"
             r"buffers|observers|elementos|funciones|funcoes|algoritmos|valores|opciones|opcoes)\b"),
    ("what", r"\b(que|what) (es|e|son|sao|is|are|hace|faz|mide|mede|does)\b|\bo que\b|\bpara que serve\b"),
)
# Words that say what kind of answer is wanted, not what it is about.
_CUE_WORDS = frozenset(fold(w) for w in (
    "diferencia diferença diferencias diferenças difere diferem distinguir entre vs versus frente compara comparar "
    "cómo como pasos passos etapas forma manera "
    "por porque qué que para problema motivo sirve serve sirven servem "
    "cuáles cuales quais qual cuál cual tipos partes componentes "
    "hace faz hacen fazem mide mede usa usar utiliza utilizar se puede pode existen existem hay tem tiene "
    "definición definição significa principales principais básicos basicos"
).split())

# Scores, set by hand on the dev split of eval/ask_set.jsonl (never the test split).
HEADING_WEIGHT = 0.35  # a page whose heading names the question's subject (share of its idf) gains this much
LEXICAL_WEIGHT = 0.5  # a unit holding all of the question's subject words (idf-weighted) gains this much
RANK_WEIGHT = 0.03  # per place above the 6th passage retrieved
KIND_WEIGHT = 0.25  # a unit of the shape the question asks for (a list for "which", a definition for "what"...)
PAGES_READ = 6  # best pages (after the heading re-rank) whose units compete
CANDIDATES = 12  # passages retrieved before pages are merged and re-ranked
# The evidence floor: below both, no unit is about the question and the answer says so.
MIN_SUBJECT_SHARE = 0.45  # idf share of the question's subject words in the unit or its heading
MIN_SIMILARITY = 0.42  # USE-m3 cosine of the unit to the question
EMBEDDED_UNITS = 16  # units embedded per question, the best by words; set by hand for a cold ask under 1 s
EMBEDDED_CHARS = 240  # of each unit: its label and first lines say what it is about
LIST_HEADING_SHARE = 0.6  # a "which / list" question whose subject the page's heading names gets the page's list
WHOLE_WORD_LETTERS = 7  # longer words also match whole (see _term_list)
WHOLE_WORD_IDF = 1.0  # a whole word weighs its stem's idf plus this
LANGUAGE_BONUS = 0.05  # a page in the question's language, between pages equal otherwise
BM25_CANDIDATES = 12  # passages BM25 alone ranks best, added to the candidates (short questions embed poorly)
MAX_UNIT_LINES = 12  # a unit longer than this is cut after its 12th line (with "…")

_DEFINITION = re.compile(r"^\W*(definici[oó]n|defini[cç][aã]o|idea|ideia|concepto|conceito|es una?|[eé] uma?|"
                         r"consiste|son|s[aã]o)\b", re.I)
_CAUSE = re.compile(r"\b(porque|por eso|por isso|motivo|raz[oó]n|raz[aã]o|problema|ventaja|vantagem|desventaja|"
                    r"desvantagem|evita|permite|ahorra|economiza|mejora|melhora|debido|devido|causa|para que|"
                    r"objetivo|consecuencia|consequ[eê]ncia|debilidad|debilidade|inconveniente|limitaci[oó]n|limita[cç][aã]o|"
                    r"riesgo|risco|peligro|perigo|necesario|necess[aá]rio|importa)\b|->", re.I)
_STEPS = re.compile(r"\b(procedimiento|procedimento|pasos|passos|etapas|uso|flujo|fluxo|receta|receita|c[oó]mo|"
                    r"instrucciones|instru[cç][oõ]es|steps)\b", re.I)
_BULLET = re.compile(r"^(\s*)(?:[•◦▪\-*]|\d{1,2}[.)])\s+")


@dataclass
class Unit:
    """Lines of a page that answer together: a bullet with its sub-bullets, a paragraph's sentence, or code."""

    page: int  # index into the pages read
    lines: list[str]  # verbatim from the page's text
    start: int  # index of its first line in the page
    is_code: bool = False
    extra: Chunk | None = None  # a code chunk of the page, quoted from outside the page's prose passage

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    @property
    def children(self) -> int:
        return len(self.lines) - 1


def question_kind(question: str) -> str:
    """``difference``, ``how``, ``why``, ``list``, ``what`` or ``other``, from the question's words."""
    q = fold(question)
    for kind, pattern in _KIND_PATTERNS:
        if re.search(pattern, q):
            return kind
    return "other"


def _subject_tokens(question: str) -> list[str]:
    """The question's terms (:func:`_terms`) without the words that only say what kind of answer is wanted."""
    keep = " ".join(w for w in words(question) if fold(w) not in _CUE_WORDS)
    return list(dict.fromkeys(_term_list(keep)))


def _term_list(text: str) -> list[str]:
    """The lexical index's tokens (5-letter prefix stems) and, for words longer than 7 letters, the whole
    word marked with "=": "ReduceLROnPlateau" is more than its stem "reduc", which "reducen" shares."""
    out = lexical_tokens(text)
    out += ["=" + fold_word(w) for w in words(text) if len(w) > WHOLE_WORD_LETTERS]
    return out


def _terms(text: str) -> set[str]:
    return set(_term_list(text))


def _sides(question: str) -> tuple[list[str], list[str]] | None:
    """The two things a "difference" question compares, as token lists (None when it names fewer)."""
    q = re.sub(r"[¿?¡!]", " ", question)
    q = re.sub(r"(?i)^.*?\b(?:entre|between|difere de|diferencia de)\b", " ", q)
    parts = re.split(r"(?i)\s(?:y|e|and|vs\.?|versus|frente a|do|de la|del|da)\s", q, maxsplit=1)
    if len(parts) != 2:
        return None
    a, b = (_subject_tokens(p) for p in parts)
    b = [t for t in b if t not in a]
    return (a, b) if a and b else None


def _idf_share(tokens: list[str], text_tokens: set[str], idf: dict[str, float]) -> float:
    total = sum(idf.get(t, 1.0) for t in tokens)
    return sum(idf.get(t, 1.0) for t in tokens if t in text_tokens) / total if total else 0.0


def _page_key(c: Chunk) -> tuple:
    return (c.source, c.locator.page) if c.locator.page is not None else (c.source, c.locator.heading)


def _merge(chunks: list[Chunk]) -> str:
    """The text of a page's windows put back together: a window's lines that the text so far already
    ends with (the overlap) are skipped."""
    lines: list[str] = []
    for c in sorted(chunks, key=lambda c: c.ordinal):
        new = c.text.split("\n")
        overlap = 0
        for n in range(min(len(new), len(lines)), 0, -1):
            if lines[-n:] == new[:n]:
                overlap = n
                break
        if overlap == 0 and len(new) > 0 and new[0] in lines:  # a window that starts inside what we have
            at = len(lines) - 1 - lines[::-1].index(new[0])
            overlap = len(lines) - at if lines[at:] == new[: len(lines) - at] else 0
        lines.extend(new[overlap:])
    return "\n".join(lines)


def whole_pages(index_chunks: list[Chunk], hits: list[Hit]) -> list[tuple[Hit, list[Chunk]]]:
    """Each retrieved passage widened to its whole page (or section): the hit with a chunk holding the
    page's text, and the page's code chunks. Hits on a page already seen are dropped."""
    keys = {_page_key(h.chunk) for h in hits}
    same: dict[tuple, list[Chunk]] = {k: [] for k in keys}
    for c in index_chunks:
        k = _page_key(c)
        if k in same:
            same[k].append(c)
    out: list[tuple[Hit, list[Chunk]]] = []
    seen: set[tuple] = set()
    for h in hits:
        k = _page_key(h.chunk)
        if k in seen:
            continue
        seen.add(k)
        prose = [c for c in same[k] if not c.is_code] or [h.chunk]
        code = [c for c in same[k] if c.is_code]
        prose.sort(key=lambda c: c.ordinal)
        merged = replace(prose[0], text=_merge(prose), id="") if len(prose) > 1 else prose[0]
        out.append((Hit(merged, h.score, h.rank), sorted(code, key=lambda c: c.ordinal)))
    return out


def candidates(index, question: str, qv) -> list[Hit]:
    """The passages worth reading for a question: the hybrid ranking's best (kb.search's fusion) and
    BM25's best, which finds what a short question ("¿Qué es LoRA?") names but embeds poorly; each
    with its hybrid score, best first."""
    import numpy as np

    from .search import LEXICAL_WEIGHT as FUSION_WEIGHT
    from .search import _top

    if not index.chunks:
        return []
    cos = index.vectors @ qv
    lex = index.lexical.scores(question)
    fused = (np.maximum(cos, 0.0) + FUSION_WEIGHT * lex / (float(lex.max()) or 1.0)) / (1 + FUSION_WEIGHT)
    picked = list(_top(fused, CANDIDATES)) + [j for j in _top(lex, BM25_CANDIDATES) if lex[j] > 0]
    order = sorted(dict.fromkeys(int(j) for j in picked), key=lambda j: -fused[j])
    return [Hit(index.chunks[j], float(fused[j]), r) for r, j in enumerate(order, start=1)]


def units(page: int, chunk: Chunk) -> list[Unit]:
    """A page's answer units: each top-level bullet with its sub-bullets; each sentence of a paragraph
    line; a code chunk whole."""
    if chunk.is_code:
        return [Unit(page, chunk.text.split("\n"), 0, True)]
    out: list[Unit] = []
    current: Unit | None = None
    for i, line in enumerate(chunk.text.split("\n")):
        if not line.strip():
            current = None
            continue
        m = _BULLET.match(line)
        indent = len(line) - len(line.lstrip())
        if m and indent > 0 and current is not None:
            current.lines.append(line)
            continue
        if not m and indent == 0 and current is not None and _BULLET.match(current.lines[0]) and len(line) <= 200:
            current.lines.append(line)  # a slide's explanation under its bullet, set without a marker
            continue
        if m or len(line) <= 200:
            current = Unit(page, [line], i)
            out.append(current)
            continue
        current = None  # a paragraph: each sentence answers alone (quoted as written)
        for s in sentences(line) or [line]:
            if s.strip():
                out.append(Unit(page, [s.strip()], i))
    return out


def _kind_fit(kind: str, unit: Unit, subject: list[str], idf: dict[str, float]) -> float:
    """How well a unit's shape suits the kind of question (0–1)."""
    first = re.sub(_BULLET, "", unit.lines[0])
    if kind == "what":
        head = _terms((first.split(":")[0])) if ":" in first else set()
        return 1.0 if _DEFINITION.search(first) or (head and _idf_share(subject, head, idf) >= 0.5) else 0.0
    if kind == "how" and unit.children >= 2 and _STEPS.search(first):
        return 1.0
    if kind in ("list", "how"):
        if unit.is_code:
            return 0.5 if kind == "how" else 0.0
        return (1.0 if kind == "list" else 0.75) if unit.children >= 2 else (0.5 if first.rstrip().endswith(":") else 0.0)
    if kind == "why":
        return 1.0 if _CAUSE.search(unit.text) else 0.0
    return 0.0


@dataclass
class Scored:
    unit: Unit
    score: float
    subject: float  # idf share of the subject in the unit, or in its page's heading when higher
    cosine: float


def _label(unit: Unit) -> set[str]:
    """The tokens of what a unit is labelled: its first line up to a colon, or its first 60 characters."""
    first = re.sub(_BULLET, "", unit.lines[0])
    return _terms((first.split(":")[0] if ":" in first[:80] else first[:60]))


def _compose(kind: str, question: str, best: Scored, scored: list[Scored], all_units: list[Unit],
             read: list, subject: list[str], idf: dict[str, float]) -> list[Scored]:
    """The units the answer quotes, by the kind of question (the best unit alone by default)."""
    def plain(u: Unit) -> Scored:
        return next((s for s in scored if s.unit is u), Scored(u, 0.0, 0.0, 0.0))

    page = [u for u in all_units if u.page == best.unit.page and not u.is_code]
    heading = read[best.unit.page][0].chunk.locator.heading or ""
    head_share = _idf_share(subject, _terms((heading)), idf)
    if kind == "difference":
        sides = _sides(question)
        if not sides:
            second = max((s for s in scored if s.unit is not best.unit and s.unit.page == best.unit.page),
                         key=lambda s: s.score, default=None)
            return [best] + ([second] if second is not None else [])

        def side_score(s: Scored, toks: list[str]) -> float:  # a unit labelled with that side answers for it
            return (s.score + LEXICAL_WEIGHT * _idf_share(toks, _label(s.unit), idf)
                    + 0.5 * LEXICAL_WEIGHT * _idf_share(toks, _terms((s.unit.text)), idf))

        a = max(scored, key=lambda s: side_score(s, sides[0]))
        b = max((s for s in scored if s.unit is not a.unit), key=lambda s: side_score(s, sides[1]), default=None)
        return [a] + ([b] if b is not None else [])
    if kind == "list":
        labelled = best.unit.children >= 2 and _idf_share(subject, _label(best.unit), idf) >= 0.5
        if not labelled and head_share >= LIST_HEADING_SHARE and len(page) >= 3:  # the slide is the list
            lines = sum(len(u.lines) for u in page)
            if lines <= MAX_UNIT_LINES:
                return [plain(u) for u in page]
            return [plain(Unit(u.page, u.lines[:1], u.start)) for u in page][:MAX_UNIT_LINES]
        if best.unit.children == 0 and best.unit.lines[0].rstrip().endswith(":"):
            return [best] + [plain(u) for u in page if u.start > best.unit.start][:1]
        return [best]
    if kind == "why" and not best.unit.is_code and not _CAUSE.search(best.unit.text):
        cause = max((s for s in scored if s.unit.page == best.unit.page and s.unit is not best.unit
                     and _CAUSE.search(s.unit.text)), key=lambda s: s.score, default=None)
        return [best] + ([cause] if cause is not None else [])
    if kind == "how" and not best.unit.is_code:
        code = read[best.unit.page][1]
        if code and len(code[0].text.split("\n")) <= MAX_UNIT_LINES:
            return [best, plain(Unit(best.unit.page, code[0].text.split("\n"), 0, True, code[0]))]
        return [best]
    if best.unit.children == 0 and best.unit.lines[0].rstrip().endswith(":"):
        return [best] + [plain(u) for u in page if u.start > best.unit.start][:1]
    return [best]


def _quote(unit: Unit) -> str:
    lines = unit.lines[:MAX_UNIT_LINES]
    text = "\n".join(ln.rstrip() for ln in lines)
    return text + ("\n…" if len(unit.lines) > MAX_UNIT_LINES else "")


def answer_offline(retriever, embedder, question: str, k: int = 5):
    """The answer ``kb ask`` gives without an LLM (see the module's docstring): an :class:`kb.ask.Answer`
    quoting the unit(s) that answer the question's kind, with the k best pages as its passages."""
    import numpy as np

    from .ask import NOT_FOUND, Answer
    from .text import detect_language

    lang = detect_language(question)
    qv = embedder.embed_queries([question])[0]
    index = retriever.index
    hits = candidates(index, question, qv)
    if not hits:
        return Answer(question, NOT_FOUND[lang], [], False, "extractive")
    idf = {t: float(index.lexical.idf[j]) for t in lexical_tokens(question)
           if (j := index.lexical.vocab.get(t)) is not None}
    for t in _term_list(question):
        if t.startswith("="):
            stem = lexical_tokens(t[1:])
            idf[t] = (idf.get(stem[0], 1.0) if stem else 1.0) + WHOLE_WORD_IDF
    kind = question_kind(question)
    subject = _subject_tokens(question) or list(dict.fromkeys(lexical_tokens(question)))
    pages = whole_pages(index.chunks, hits)

    # re-rank pages: retrieval score, plus a heading that names the subject, plus the subject in the page
    def page_score(h: Hit) -> float:
        head = _terms((h.chunk.locator.heading or ""))
        body = _terms((h.chunk.text))
        return (h.score + HEADING_WEIGHT * _idf_share(subject, head, idf)
                + 0.5 * LEXICAL_WEIGHT * _idf_share(subject, body | head, idf)
                + (LANGUAGE_BONUS if h.chunk.lang == lang else 0.0))

    pages.sort(key=lambda p: -page_score(p[0]))
    read = pages[:PAGES_READ]
    cands: list[Unit] = []
    for n, (h, code) in enumerate(read):
        cands.extend(units(n, h.chunk))
        if kind == "how":
            cands.extend(Unit(n, c.text.split("\n"), 0, True, c) for c in code)
    if not cands:
        return Answer(question, NOT_FOUND[lang], [p[0] for p in pages[:k]], False, "extractive")
    # the units worth a closer look, by words alone; only they are embedded (USE-m3 costs ~5 ms a short text)
    def words_score(u: Unit) -> float:
        head = _terms((read[u.page][0].chunk.locator.heading or ""))
        return (LEXICAL_WEIGHT * _idf_share(subject, _terms((u.text)) | head, idf)
                + RANK_WEIGHT * (PAGES_READ - u.page) + KIND_WEIGHT * _kind_fit(kind, u, subject, idf))

    all_units = cands
    cands = sorted(cands, key=words_score, reverse=True)[:EMBEDDED_UNITS]
    uv = embedder.embed_documents([u.text[:EMBEDDED_CHARS] for u in cands])
    cos = uv @ qv
    scored: list[Scored] = []
    for u, c in zip(cands, cos, strict=True):
        h = read[u.page][0]
        head = _terms((h.chunk.locator.heading or ""))
        s_unit = _idf_share(subject, _terms((u.text)), idf)
        s_head = _idf_share(subject, head, idf)
        both = _idf_share(subject, _terms((u.text)) | head, idf)
        score = (float(c) + LEXICAL_WEIGHT * both + HEADING_WEIGHT * s_head + RANK_WEIGHT * (PAGES_READ - u.page)
                 + KIND_WEIGHT * _kind_fit(kind, u, subject, idf))
        scored.append(Scored(u, score, max(s_unit, both), float(c)))
    best = max(scored, key=lambda s: s.score)
    if best.subject < MIN_SUBJECT_SHARE and best.cosine < MIN_SIMILARITY:
        shown = [Hit(p[0].chunk, p[0].score, r) for r, p in enumerate(pages[:k], start=1)]
        return Answer(question, NOT_FOUND[lang], shown, False, "extractive")

    picked = _compose(kind, question, best, scored, all_units, read, subject, idf)

    # the pages the answer quotes come first among the passages shown, in the order read
    used = sorted({s.unit.page for s in picked})
    order = used + [n for n in range(len(pages)) if n not in used]
    shown = [Hit(pages[n][0].chunk, pages[n][0].score, r) for r, n in enumerate(order[:max(k, len(used))], start=1)]
    rank_of = {n: r for r, n in enumerate(order, start=1)}
    picked.sort(key=lambda s: (rank_of[s.unit.page], s.unit.is_code, s.unit.start))
    parts: list[str] = []
    for s in picked:
        if s.unit.extra is not None:  # the code is its own passage: shown after the pages
            shown.append(Hit(s.unit.extra, read[s.unit.page][0].score, len(shown) + 1))
            parts.append(f"{_quote(s.unit)} [{len(shown)}]")
        else:
            parts.append(f"{_quote(s.unit)} [{rank_of[s.unit.page]}]")
    text = "\n".join(parts)
    cited = sorted({int(n) for n in re.findall(r"\[(\d+)\]", text)})
    return Answer(question, text, shown, True, "extractive", cited)


