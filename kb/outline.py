"""What a source teaches: its sections and, in each, its ideas, ranked by how central they are.

Built from the passages kb already stored (no model): a section is what the deck's own index
page, its PDF bookmarks (when the file is still on disk) or its heading path ("Section > Slide")
names; each slide or heading gives ideas of five kinds:

- ``definition``: a term and what the slide says it is ("X es …", a lone "X: …" bullet);
- ``list``: a labelled list ("Tamaño del lote: …", "Aleatorización: …") under the slide's title;
- ``procedure``: numbered steps;
- ``code``: a code example under the slide's title;
- ``title``: the slide's title with its bullets (what the slide is about when it is none of the above).

An idea is central when the deck names it in its titles, its index and its closing summary, repeats
it, defines it and gives it pages (:func:`_rank`); a divider or administrative title ("Introducción",
"Agenda", "Índice", "Resumen", "Otras herramientas": :func:`kb.lang.divider_title`) is none, nor earns
an idea "in the index", and a slide of common mistakes is none. ``kb quiz generate`` aims at the most
central ideas first and says which of them the quiz leaves out; ``kb eval quiz`` reports the same coverage.
"""

from __future__ import annotations

import functools
import math
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from .lang import FACET_WORDS, divider_title, mistakes_title, summary_title
from .records import Chunk
from .text import STOPWORDS, fold, join_windows, words

# --------------------------------------------------------------------------- records


@dataclass(frozen=True)
class Idea:
    """One thing a source teaches: its kind, what it is about (``name``), its text and where it is."""

    kind: str  # definition | list | procedure | code | title
    name: str
    text: str
    section: str
    locator: str  # "p. 9 · Configuraciones comunes del DataLoader"
    chunk_ids: tuple[str, ...]
    page: int | None = None
    pages: int = 1  # pages the slide takes (a slide continued over several pages is one)
    score: float = 0.0
    why: tuple[str, ...] = ()  # what made it central: "in the index", "3 titles", "defined", "2 pages"
    topic: tuple[str, ...] = ()  # the stems of what it is about, less facet words ("Beneficios de DDP": ddp)

    @property
    def key(self) -> str:
        """A stable id: the source's locator and the idea's name, folded."""
        return f"{self.locator}#{fold(self.name)}"

    def to_json(self) -> dict:
        """The idea as a plain dict (for ``kb outline --json``)."""
        return {"kind": self.kind, "name": self.name, "text": self.text, "section": self.section,
                "locator": self.locator, "page": self.page, "pages": self.pages, "score": round(self.score, 3),
                "why": list(self.why), "topic": list(self.topic), "chunk_ids": list(self.chunk_ids)}


@dataclass(frozen=True)
class Section:
    """A part of a source (an index entry, a bookmark, a heading) and the ideas in it, in reading order."""

    title: str
    locator: str
    ideas: tuple[Idea, ...]

    @property
    def score(self) -> float:
        """The section's weight: its best idea's score."""
        return max((i.score for i in self.ideas), default=0.0)


@dataclass(frozen=True)
class Outline:
    """A source's outline: its title, its sections from ``index``/``bookmarks``/headings, its ideas."""

    source: str
    title: str
    sections: tuple[Section, ...]
    index: tuple[str, ...] = ()  # the deck's own index page, as written
    bookmarks: tuple[str, ...] = ()  # the PDF's bookmarks (top level), as written
    from_: str = "headings"  # where the sections come from: bookmarks | index | headings

    @property
    def ideas(self) -> list[Idea]:
        """Every idea, in reading order."""
        return [i for s in self.sections for i in s.ideas]

    def top(self, k: int | None = None) -> list[Idea]:
        """The k most central ideas (all when k is None), best first; ties in reading order. With k,
        an idea named as a better one is ("Acumulación de gradientes": its list, its title and its two
        code examples) is left for the next distinct one, a divider title is none, and an idea on the
        topic of a better one ("Beneficios de DDP" after "Distributed Data Parallelism": :func:`same_topic`)
        comes only after one idea of every other topic: k ideas a teacher would count as k."""
        order = {id(i): n for n, i in enumerate(self.ideas)}
        ranked = sorted(self.ideas, key=lambda i: (-i.score, order[id(i)]))
        if k is None:
            return ranked
        seen: set[str] = set()
        pool: list[Idea] = []
        for i in ranked:
            # ("Introducción": no idea to count; the deck's own title names all of it, not one idea)
            if fold(i.name) not in seen and i.why != ("divider title",) and fold(i.name) != fold(self.title):
                seen.add(fold(i.name))
                pool.append(i)
        out: list[Idea] = []
        later: list[Idea] = []
        per_section: dict[str, int] = defaultdict(int)
        while pool and len(out) < k:
            # each idea already taken from a section lowers the rest of it: a quiz spread over the deck
            best = max(pool, key=lambda i: (i.score * _SECTION_DECAY ** per_section[i.section], -order[id(i)]))
            pool.remove(best)
            if any(same_topic(best, o) for o in out):
                later.append(best)
                continue
            out.append(best)
            per_section[best.section] += 1
        return (out + later)[:k]

    def to_json(self) -> dict:
        """The outline as a plain dict (for ``kb outline --json``)."""
        return {"source": self.source, "title": self.title, "sections_from": self.from_,
                "index": list(self.index), "bookmarks": list(self.bookmarks),
                "sections": [{"title": s.title, "locator": s.locator, "ideas": [i.to_json() for i in s.ideas]}
                             for s in self.sections],
                "top": [i.key for i in self.top(TOP_IDEAS)]}

    def text(self, k: int = 12) -> str:
        """A compact plain-text outline for a prompt: the title and the k most central ideas by section."""
        top = {id(i) for i in self.top(k)}
        lines = [self.title]
        for s in self.sections:
            mine = [i for i in s.ideas if id(i) in top]
            if mine:
                lines.append(f"- {s.title}: " + "; ".join(i.name for i in mine))
        return "\n".join(lines)


def same_topic(a: Idea, b: Idea) -> bool:
    """Two ideas on one topic: the same words ("Data augmentation", "Tipos de Data Augmentation"), or
    in one section two thirds of their words shared."""
    if not a.topic or not b.topic:
        return False
    shared = sum(1 for w in a.topic if _has(b.topic, w))
    if shared == len(a.topic) and all(_has(a.topic, w) for w in b.topic):
        return True
    return a.section == b.section and shared >= 2 / 3 * len(set(a.topic) | set(b.topic))


# --------------------------------------------------------------------------- weights

TOP_IDEAS = 5  # the "top ideas" a quiz summary and kb eval quiz report coverage of (the teacher lists had 5)
# Centrality weights, hand-set on the sample course and the three corpora decks (never on heldout_decks):
# the deck's own index or bookmarks are the strongest evidence an idea is central, then being named in
# other slides' titles, being given several pages, being defined, and being repeated in the text.
_W_INDEX = 2.0
_W_TITLES = 1.0  # per log(1 + other titles naming it)
_W_PAGES = 0.8  # per log(pages under its title)
_W_DEFINED = 0.8
_W_MENTIONS = 0.5  # per log(1 + passages naming it)
_SECTION_DECAY = 0.7  # Outline.top: an idea's score times this for each idea already taken from its section
_GENERAL_SPAN = 0.5  # a title word whose titles run over more of the deck than this names no one idea
_W_SUBJECT = 1.0  # times the share of the deck title's words the idea's text says ("TensorFlow distribuido")
_W_SECTION = 0.5  # per log(pages of the idea's section)
_W_TOPIC = 0.8  # per log(pages whose slide titles name its topic), the topic being its name less facet words
_W_SUMMARY = 2.5  # its topic is named by a bullet of the deck's closing summary ("Resumen", "Resumo")
_KIND_BONUS = {"definition": 0.3, "list": 0.4, "procedure": 0.4, "title": 0.0, "code": -0.3}
_COMMON_TITLE_SHARE = 0.3  # a word in more of the deck's titles than this says nothing about which idea
_THIN = 8  # words: an idea with less text than this has little to ask (its score is halved)

_INDEX_TITLES = frozenset("indice index agenda contenidos contenido conteudo conteudos sumario contents outline "
                          "temario roteiro".split())
_SKIP_TITLES = re.compile(r"\b(agenda|índice|indice|sumário|sumario|contenidos?|contents|refer[eê]ncias|referencias|"
                          r"bibliograf|agradec|gracias|obrigad|thank|preguntas\??$|questions\??$)", re.I)
_COPULA = re.compile(r"^(?P<term>[^,;:()]{2,50}?)\s+(?:es|son|é|são|is|are|consiste en|consiste em|se refiere a|"
                     r"refere-se a|refers to|significa|means)\s+(?P<def>.{15,})$")
_ARTICLE = re.compile(r"^(?:el|la|los|las|un|una|o|a|os|as|um|uma|the|an?)\s+", re.I)
_NOT_TERM = frozenset("""dos tres cuatro two three four dois quatro esto esta este eso isso isto this it that ello
    primer primero primera primeiro segundo
    segunda second first ultimo last otro outro other observe note nota veja""".split())
_GENERIC_TERMS = frozenset(("por ejemplo", "por exemplo", "for example", "ejemplo", "exemplo", "example", "nota",
                            "note", "importante", "resumen", "resumo", "summary", "objetivo", "idea", "ideia",
                            "problema", "solucion", "solucao", "solution"))
_CLAUSE = frozenset("que no nao not se which that if si cuando quando when donde onde where".split())
_BULLET = re.compile(r"^\s*(?:[-*•◦▪●○■□➢➤►▶‣⁃·]\s*)+")


# --------------------------------------------------------------------------- building


def build_outline(chunks: Iterable[Chunk], source: str, *, bookmarks: Sequence[tuple[str, int]] | None = None
                  ) -> Outline:
    """The outline of ``source`` from its stored passages. ``bookmarks``: (title, page) of the PDF's
    top-level bookmarks (read from the file by :func:`pdf_bookmarks` when None and the file exists)."""
    from .writing.ideas import read_slide, title_of

    mine = sorted((c for c in chunks if c.source == source), key=lambda c: c.ordinal)
    if bookmarks is None:
        bookmarks = pdf_bookmarks(Path(source)) if source.lower().endswith(".pdf") else []
    title = _deck_title(mine, source)
    index = _index_entries(mine)
    slides = _slides(mine, title_of)
    marks = [(t, p) for t, p in bookmarks if fold(t) not in _INDEX_TITLES and fold(t) != fold(title)]
    section_of, from_ = _sections(slides, marks, index)
    raw: list[tuple[str, Idea]] = []
    seen: set[tuple[str, str]] = set()
    for key, group in slides:
        sec = section_of[key]
        for idea in _slide_ideas(group, key[1], sec, read_slide):
            if idea.kind == "definition" and (idea.kind, fold(idea.name)) in seen:
                continue  # a term the deck defines again (TensorBoard on four pages) is one idea
            seen.add((idea.kind, fold(idea.name)))
            raw.append((sec, idea))
    raw = _merge_titles(raw)
    named = [e for e in [*index, *(t for t, _ in marks)] if not divider_title(e)]  # not "Introducción", "Agenda"
    units = _title_units(slides)
    sec_units: dict[str, set[str]] = defaultdict(set)
    for (key, _), (_, us) in zip(slides, units, strict=True):
        sec_units[section_of[key]] |= us
    ranked = _rank([i for _, i in raw], [k[1] for k, _ in slides], named, mine, units, title,
                   {k: len(v) for k, v in sec_units.items()}, _summary(mine))
    by_sec: dict[str, list[Idea]] = defaultdict(list)
    first_loc: dict[str, str] = {}
    for (sec, _), idea in zip(raw, ranked, strict=True):
        by_sec[sec].append(idea)
        first_loc.setdefault(sec, idea.locator.split(" · ")[0])
    sections = tuple(Section(s, first_loc[s], tuple(ideas)) for s, ideas in by_sec.items())
    return Outline(source, title, sections, tuple(index), tuple(t for t, _ in marks), from_)


def _merge_titles(raw: list[tuple[str, Idea]]) -> list[tuple[str, Idea]]:
    """A title the deck comes back to in one section ("Distribute.Strategy de TF" on pages 62, 73
    and 76) is one idea over all its pages."""
    out: list[tuple[str, Idea]] = []
    at: dict[tuple[str, str, str], int] = {}
    for sec, idea in raw:
        k = (sec, idea.kind, fold(idea.name))
        if idea.kind != "title" or k not in at:
            at.setdefault(k, len(out))
            out.append((sec, idea))
            continue
        first = out[at[k]][1]
        out[at[k]] = (sec, replace(first, text=f"{first.text} {idea.text}", pages=first.pages + idea.pages,
                                   chunk_ids=first.chunk_ids + idea.chunk_ids))
    return out


def pdf_bookmarks(path: Path) -> list[tuple[str, int]]:
    """The top-level bookmarks of a PDF on disk as (title, 1-based page); [] when it has none or cannot be read."""
    if not path.is_file():
        return []
    try:
        import logging

        import pypdf

        logging.getLogger("pypdf").setLevel(logging.ERROR)
        reader = pypdf.PdfReader(str(path))
        out: list[tuple[str, int]] = []
        for entry in reader.outline:
            if isinstance(entry, list):
                continue  # sub-bookmarks: the slides under a section
            try:
                page = (reader.get_destination_page_number(entry) or 0) + 1
                out.append((re.sub(r"\s+", " ", str(entry.title)).strip(), page))
            except Exception:
                continue
        return [(t, p) for t, p in out if t]
    except Exception:  # a damaged or encrypted file: the outline falls back to the index and headings
        return []


def _deck_title(chunks: Sequence[Chunk], source: str) -> str:
    first = next((c for c in chunks if c.locator.page == 1), None) or (chunks[0] if chunks else None)
    head = (first.locator.heading or "").split(" > ")[0] if first else ""
    return head or Path(source).stem


def _index_entries(chunks: Sequence[Chunk]) -> list[str]:
    """The entries of the deck's own index page ("Índice", "Agenda", "Contents")."""
    for c in chunks:
        if fold((c.locator.heading or "").split(" > ")[-1]).strip() in _INDEX_TITLES:
            entries = [_BULLET.sub("", ln).strip() for ln in c.text.splitlines()]
            return [e for e in entries if e and len(words(e)) <= 10]
    return []


def _slide_title(heading: str | None) -> str:
    return fold((heading or "").split(" > ")[-1]).strip().rstrip(":. ")


def _summary(chunks: Sequence[Chunk]) -> tuple[frozenset[frozenset[str]], tuple[str, ...]]:
    """The deck's closing summary slide ("Resumen", "Resumo e conselhos práticos"): the content words of
    each of its bullets (a line that opens no bullet goes on the one before), and its passages' ids (an
    idea read from the summary itself is not "in the summary")."""
    bullets: set[frozenset[str]] = set()
    where: list[str] = []
    for c in chunks:
        # "Resumen", "Resumo e conselhos práticos"; not "Resumen de gradientes" (a subject)
        if c.is_code or not summary_title(_slide_title(c.locator.heading)):
            continue
        where.append(c.id)
        lines: list[str] = []
        for ln in c.text.splitlines():
            if _BULLET.match(ln) or not lines:
                lines.append(_BULLET.sub("", ln))
            else:
                lines[-1] += " " + ln
        bullets |= {_words(b) for b in lines if b.strip()}
    return frozenset(bullets), tuple(where)


def _plain_word(name: str) -> bool:
    """A term of one ordinary word ("Resultado", "Preferências", "schedule"): a bullet's label more often
    than a term the deck teaches ("OpenMP", "jax.Array", "IO-awareness", "R1 penalty" are terms, and so is a
    one-word name no language uses as a word: "Horovod", "Kubernetes", "Longformer", :func:`common_word`)."""
    from .writing.deck_term import common_word

    ws = name.split()
    return len(ws) == 1 and re.fullmatch(r"[^\W\d_]+", ws[0]) is not None and not re.search(r".[A-Z]", ws[0]) \
        and not ws[0].isupper() and common_word(ws[0].lower())


def _mistakes(idea: Idea) -> bool:
    """The idea is read from a slide of common mistakes ("Errores comunes"): what goes wrong with the
    deck's ideas, asked by :mod:`kb.writing.pattern_errors`, not one of them."""
    return mistakes_title(idea.locator.split(" · ", 1)[-1].split(" > ")[-1])


def _usable(c: Chunk) -> bool:
    head = (c.locator.heading or "").split(" > ")[-1]
    if c.kind == "pdf" and c.locator.page == 1 or c.kind == "transcript":
        return False
    return not (head and (_SKIP_TITLES.search(head) or fold(head).strip() in _INDEX_TITLES))


def _slides(chunks: Sequence[Chunk], title_of) -> list[tuple[tuple[str, str], list[Chunk]]]:
    """Passages grouped by slide: consecutive passages under one title (a slide continued over
    several pages is one group), keyed by (locator of the first, title)."""
    out: list[tuple[tuple[str, str], list[Chunk]]] = []
    for c in chunks:
        if not _usable(c):
            continue
        title = title_of(c)
        where = f"p{c.locator.page}" if c.locator.page is not None else (c.locator.heading or "")
        last = out[-1][1][-1] if out else None
        if last is not None and out[-1][0][1] == title and (title or last.locator.page == c.locator.page) \
                and (c.locator.page is not None or last.locator.heading == c.locator.heading):
            out[-1][1].append(c)
        else:
            out.append(((where, title), [c]))
    return out


@functools.lru_cache(maxsize=4096)
def _stems(text: str) -> frozenset[str]:
    """Content words cut to 6 letters ("transformaciones" = "transformación"); a name with inner
    capitals, digits or dots whole ("TensorBoard" is not "TensorFlow")."""
    return frozenset(fold(w) if re.search(r".[A-Z0-9.]", w) else fold(w)[:6]
                     for w in words(text) if len(w) >= 3 and fold(w) not in STOPWORDS)


def _names(entry: str, title: str, common: frozenset[str] = frozenset()) -> bool:
    """An index entry or bookmark names a title: the title holds all the entry's words (two of three
    for a longer entry), not counting the words most of the deck's titles hold ("datos" in a deck
    on datasets) unless those are all it has."""
    e, t = _stems(entry) - common, _stems(title)
    return bool(e) and len(e & t) >= (len(e) if len(e) <= 2 else math.ceil(2 * len(e) / 3))


def _sections(slides, marks: Sequence[tuple[str, int]], index: Sequence[str]
              ) -> tuple[dict[tuple[str, str], str], str]:
    """Each slide's section: the last bookmark at or before its page; else the last index entry a
    slide title so far has named; else the first part of its heading path; else its own title."""
    out: dict[tuple[str, str], str] = {}
    if marks:
        pages = sorted(marks, key=lambda m: m[1])
        for key, group in slides:
            page = group[0].locator.page or 0
            before = [t for t, p in pages if p <= page]
            out[key] = before[-1] if before else key[1]
        return out, "bookmarks"
    if index:
        current = ""
        for key, group in slides:
            hit = next((e for e in index if _names(e, key[1]) or _names(e, group[0].locator.heading or "")), "")
            current = hit or current
            out[key] = current or key[1]
        if sum(1 for v in set(out.values()) if v in index) >= 2:
            return out, "index"
    current, seen = "", set[str]()
    for key, group in slides:
        path = (group[0].locator.heading or "").split(" > ")
        if len(path) > 1:
            out[key] = path[0]
            continue
        # no divider: consecutive titles on one subject ("Distribute.Strategy de TF: MirroredStrategy",
        # "… TPUStrategy") are one section, named by the first title's part before its colon
        title = key[1] or key[0]
        head = re.split(r":\s", title, maxsplit=1)[0]
        st = _stems(head)
        if not current or not st & seen:
            current, seen = head, set()
        seen |= st
        out[key] = current
    return out, "headings"


def _slide_ideas(group: list[Chunk], title: str, section: str, read_slide) -> list[Idea]:
    """The ideas of one slide: its code examples, definitions, labelled list, steps, and its title
    with the bullets none of those took."""
    first = group[0]
    pages = sorted({c.locator.page for c in group if c.locator.page is not None})
    loc = first.locator.describe()
    if len(pages) > 1:
        loc = loc.replace(f"p. {pages[0]}", f"pp. {pages[0]}–{pages[-1]}", 1)
    page = first.locator.page
    n = max(1, len(pages))
    ids = tuple(c.id for c in group)
    ideas: list[Idea] = []
    prose = [c for c in group if not c.is_code]
    for c in group:
        if c.is_code and len(c.text.strip()) >= 20:
            ideas.append(Idea("code", title or "code", _lines(c.text, 6), section, loc, (c.id,), page, n))
    if not prose:
        return ideas
    merged = replace(prose[0], text=join_windows([c.text for c in prose]))  # (the chunker's overlap once)
    slide = read_slide(merged)
    items = [it for it in slide.items if it.index < 1000]  # not the header groups read_slide adds
    taken: set[int] = set()
    ideas += _structured(slide.title, items, taken, (section, loc, ids, page, n))
    for it in items:
        if it.index in taken:
            continue
        term = _defined_term(it)
        if term:
            ideas.append(Idea("definition", term, it.text, section, loc, ids, page, n))
            taken.add(it.index)
    rest = [it for it in items if it.index not in taken]
    if slide.title and rest and not any(i.kind == "definition" and fold(i.name) == fold(slide.title) for i in ideas):
        ideas.append(Idea("title", slide.title, " ".join(it.text for it in rest), section, loc, ids, page, n))
    return ideas


def _structured(title: str, items: list, taken: set[int], where: tuple) -> list[Idea]:
    """A slide's labelled lists (two or more siblings) and its numbered steps; ``taken`` gets their items."""
    out: list[Idea] = []
    runs: dict[int, list] = defaultdict(list)
    for it in items:
        if it.label:
            runs[it.run].append(it)
    for run in runs.values():
        if len(run) >= 2:
            out.append(Idea("list", title or run[0].label, "; ".join(f"{it.label}: {it.body}" for it in run), *where))
            taken |= {it.index for it in run}
    steps = [it for it in items if it.step is not None]
    if len(steps) >= 2:
        out.append(Idea("procedure", title or "steps", " ".join(f"{it.step}. {it.text}" for it in steps), *where))
        taken |= {it.index for it in steps}
    return out


def _defined_term(it) -> str:
    """The term a bullet defines ("El mezclado de datos es …", a lone "Batch size: …"), or ""."""
    m = _COPULA.match(it.text)
    if it.label and len(words(it.label)) <= 5 and len(words(it.body)) >= 4:
        term = _ARTICLE.sub("", it.label).strip()
    elif m:
        term = _ARTICLE.sub("", m.group("term")).strip()
    else:
        return ""
    ws = words(term)
    if not 1 <= len(ws) <= 5 or fold(term) in _GENERIC_TERMS or fold(ws[0]) in STOPWORDS or fold(ws[0]) in _NOT_TERM \
            or any(fold(w) in _CLAUSE for w in ws):
        return ""  # "Esto es …", "Observe que esses processos não são …", "El primer paso es …"
    return term


def _lines(text: str, k: int) -> str:
    lines = [ln.rstrip() for ln in text.splitlines() if ln.strip()]
    return "\n".join(lines[:k]) + ("\n…" if len(lines) > k else "")


def _title_units(slides) -> list[tuple[str, frozenset[str]]]:
    """Each slide's title and the units it takes: its pages ("p3"), or its place for a text without pages."""
    out = []
    for n, ((_, title), group) in enumerate(slides):
        pages = {f"p{c.locator.page}" for c in group if c.locator.page is not None}
        out.append((title, frozenset(pages or {f"s{n}"})))
    return out


_FACETS = frozenset(FACET_WORDS)


@functools.lru_cache(maxsize=65536)
def same_word(a: str, b: str) -> bool:
    """Two folded words are one ("dataloader"/"dataloaders", "transformacion"/"transformaciones",
    "distribuido"/"distributed", "dtensor"/"dtensors"): they share a prefix of 5 letters or the
    shorter word, and neither goes on for more than 3 letters after it ("tensores" is not
    "tensorflow", "tensor" not "tensorboard")."""
    if a == b:
        return True
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n >= min(5, len(a), len(b)) and len(a) - n <= 3 and len(b) - n <= 3


@functools.lru_cache(maxsize=8192)
def _words(text: str) -> frozenset[str]:
    """A text's content words, folded whole (3 letters or more, no function words)."""
    return frozenset(fold(w) for w in words(text) if len(w) >= 3 and fold(w) not in STOPWORDS)


def _has(ws: Iterable[str], w: str) -> bool:
    return any(same_word(w, x) for x in ws)


def _topic(name: str, general: frozenset[str]) -> frozenset[str]:
    """What an idea's name is about: its words less the deck's general title words and facet words
    ("Configuración de Distributed Data Parallelism" is about "distributed data parallelism"); after
    a colon, what the part after it names."""
    head, _, tail = name.partition(": ")
    if tail.strip() and head.strip():  # "Distribute.Strategy de TF: MirroredStrategy" is about MirroredStrategy
        mine = _topic(tail, general)
        if any(not _has(general, w) and not _has(_FACETS, w) for w in mine):
            return mine
        return _topic(head, general)  # ("DTENSORS: Creación": about DTensors)
    ws = _words(name)
    own = frozenset(w for w in ws if not _has(_FACETS, w))
    return frozenset(w for w in own if not _has(general, w)) or own or ws


def _general(units: Sequence[tuple[str, frozenset[str]]]) -> frozenset[str]:
    """Title words that name the deck's subject, not one idea: in 3 titles or more whose pages run over
    more than :data:`_GENERAL_SPAN` of the deck ("PyTorch" in "DataLoaders en PyTorch" on p. 8,
    "Transformaciones en PyTorch" on p. 17 and "Implementación en PyTorch" on p. 35 of 42). A word in
    many titles of one part of the deck is a big topic, not the deck's subject ("Distributed Data
    Parallelism" on four slides in a row)."""
    titled = [(_words(t), [int(u[1:]) for u in us]) for t, us in units if t]
    every = [p for _, ps in titled for p in ps]
    if not every:
        return frozenset()
    extent = max(every) - min(every) + 1
    out = set()
    for w in {w for ws, _ in titled for w in ws}:
        at = [min(ps) for ws, ps in titled if _has(ws, w)]
        if len(at) >= 3 and max(at) - min(at) + 1 > _GENERAL_SPAN * extent:
            out.add(w)
    return frozenset(out)


def _covers(topic: frozenset[str], ws: frozenset[str]) -> bool:
    """A title's words hold a topic: all its words (two of three for a longer one); no topic is held by
    nothing (an index entry of short words only, "IA", would otherwise match every idea)."""
    if not topic:
        return False
    n = sum(1 for w in topic if _has(ws, w))
    return n >= (len(topic) if len(topic) <= 2 else math.ceil(2 * len(topic) / 3))


def _rank(ideas: list[Idea], titles: list[str], index: list[str], chunks: Sequence[Chunk],
          units: Sequence[tuple[str, frozenset[str]]] = (), deck_title: str = "",
          section_pages: dict[str, int] | None = None,
          summary: tuple[frozenset[frozenset[str]], tuple[str, ...]] = (frozenset(), ())) -> list[Idea]:
    """The ideas with their centrality (:data:`_W_INDEX` and the other weights) and what made it."""
    page_titles = sorted({fold(t) for t in titles if t})
    df: dict[str, int] = defaultdict(int)
    for t in page_titles:
        for st in _stems(t):
            df[st] += 1
    common = frozenset(st for st, n in df.items() if n > _COMMON_TITLE_SHARE * len(page_titles))
    general = _general(units)
    subject = frozenset(w for w in _words(deck_title) if not _has(_FACETS, w))
    texts = [_stems(c.text) for c in chunks]
    defined = {fold(i.name) for i in ideas if i.kind == "definition"}
    summary_ids = set(summary[1])
    out: list[Idea] = []
    own_topics: list[frozenset[str]] = []
    for idea in ideas:
        want = (_stems(idea.name) - common) or _stems(idea.name)
        why: list[str] = []
        score = 0.0 if idea.kind == "definition" and _plain_word(idea.name) else _KIND_BONUS.get(idea.kind, 0.0)
        topic = _topic(idea.name, general)
        # a name of general and facet words only ("Implementación en PyTorch") has no topic of its own
        specific = any(not _has(general, w) and not _has(_FACETS, w) for w in topic)
        if want and any(_names(e, idea.name, common) or _names(idea.name, e, common) for e in index) \
                or specific and any(_covers(topic, _words(e)) or _covers(_topic(e, general), _words(idea.name))
                                    for e in index):
            score += _W_INDEX
            why.append("in the index")
        own = fold(idea.name)
        others = {t for t in page_titles if t != own and want and _names(idea.name, t, common)}
        if others:
            score += _W_TITLES * math.log1p(len(others))
            why.append(f"in {len(others)} other title{'s' if len(others) > 1 else ''}")
        if idea.pages > 1:
            score += _W_PAGES * math.log(idea.pages)
            why.append(f"{idea.pages} pages")
        if (idea.kind == "definition" or own in defined) and not _plain_word(idea.name):
            score += _W_DEFINED
            why.append("defined")
        mentions = sum(1 for t in texts if want and want <= t) if want else 0
        if mentions > 1:
            score += _W_MENTIONS * math.log1p(mentions)
            why.append(f"named in {mentions} passages")
        more, said = _spread(idea, topic if specific else frozenset(), units, section_pages or {}, subject)
        score += more
        why += said
        if len(words(idea.text)) < _THIN or idea.kind == "definition" and _plain_word(idea.name):
            score /= 2
        if idea.kind != "definition" and divider_title(idea.name):
            # "Introducción", "Resumen", "Otras herramientas": a slide that divides or sums up the deck
            # is no idea of its own, however often its word comes back (its definitions still count)
            score, why = 0.0, ["divider title"]
        elif _mistakes(idea):
            score, why = 0.0, ["common mistakes"]
        out.append(replace(idea, score=score, why=tuple(why), topic=tuple(sorted(topic))))
        # what the deck's summary could name it by: its topic less the deck's subject ("Cenários Task-IL, …")
        own_topics.append(frozenset() if set(idea.chunk_ids) & summary_ids or not specific
                   else frozenset(w for w in topic if not _has(subject, w)))
    return _summarised(out, own_topics, summary[0])


def _summarised(ideas: list[Idea], topics: list[frozenset[str]], bullets: Iterable[frozenset[str]]) -> list[Idea]:
    """Each bullet of the deck's summary slide names one idea: the most central one whose topic it holds
    gets :data:`_W_SUMMARY` (a bullet on Longformer and BigBird lifts one of their slides, not all three)."""
    lift: set[int] = set()
    for b in bullets:
        named = [n for n, t in enumerate(topics) if _covers(t, b) and ideas[n].score > 0]
        if named:
            lift.add(max(named, key=lambda n: (ideas[n].score, -n)))
    return [replace(i, score=i.score + _W_SUMMARY, why=(*i.why, "in the summary")) if n in lift else i
            for n, i in enumerate(ideas)]


def _spread(idea: Idea, topic: frozenset[str], units: Sequence[tuple[str, frozenset[str]]],
            section_pages: dict[str, int], subject: frozenset[str]) -> tuple[float, list[str]]:
    """How much of the deck an idea's subject takes: the pages whose titles name its topic
    (:data:`_W_TOPIC`), the pages of its section (:data:`_W_SECTION`), and the share of the deck
    title's words its text says (:data:`_W_SUBJECT`)."""
    score, why = 0.0, []
    spans = {u for t, us in units if t and topic and _covers(topic, _words(t)) for u in us}
    if len(spans) > 1:
        score += _W_TOPIC * math.log(len(spans))
        why.append(f"its topic titles {len(spans)} pages")
    big = section_pages.get(idea.section, 1)
    if big > 1:
        score += _W_SECTION * math.log(big)
        why.append(f"its section takes {big} pages")
    if subject:
        said = _words(f"{idea.name} {idea.text}")
        share = sum(1 for w in subject if _has(said, w)) / len(subject)
        if share:
            score += _W_SUBJECT * share
            why.append("on the deck's subject")
    return score, why


def match_source(sources: Iterable[str], wanted: str) -> str | None:
    """The stored source ``wanted`` names: the same path, or one ending in ``/wanted``; None when none does."""
    w = wanted.replace("\\", "/").lstrip("./")
    found = [s for s in sources if s == w or s.endswith("/" + w)]
    return found[0] if len(found) == 1 else (w if w in found else None)
