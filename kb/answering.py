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
from dataclasses import dataclass, field, replace

from . import answer_kinds as kinds
from .answer import NOT_FOUND, Answer
from .answer_pages import answering_page, titled_opening
from .answer_rules import FRAMEWORKS, QuestionWords, _names_pattern, _runner_up, known_entities, naming_decks
from .lexical import lexical_tokens
from .records import Chunk, Hit
from .text import fold, fold_word, sentences, words

KINDS = ("difference", "how", "why", "list", "what", "other")

# Which kind a question is, on its accent-free lower-case text (pt/es/en). Checked in this order.
_KIND_PATTERNS = (
    ("difference", r"\bdiferen|\bdifere|\bdistingu|\bvs\b|\bversus\b|\bfrente a\b|\bcompar"),
    ("how", r"^\W*(como|how)\b|\bcomo se\b|\bde que forma\b|\bde que manera\b|\bpasos\b|\bpassos\b|\bsteps\b"),
    ("why", r"\bpor ?que\b|\bpara que\b|\bwhy\b|\bque problema\b|\bmotivo\b"),
    ("list", r"^\W*(quais|cuales|which)\b|\b(que|what) (tipos|partes|pasos|passos|etapas|componentes|familias|"
             r"estrategias|modos|metodos|parametros|hiperparametros|atributos|caracteristicas|capas|camadas|"
             r"buffers|observers|elementos|funciones|funcoes|algoritmos|valores|opciones|opcoes)\b"
             # or any plural after "qué" ("¿en qué puntos…?"), which is not "es"/"son" or an article
             r"|\b(que|what)\s+(?!(?:es|son|sao|as|os|los|las|sus|seus|suas|is|does)\b)[a-z_]{2,}s\b"),
    ("what", r"\b(que|what) (es|e|son|sao|is|are|hace|faz|mide|mede|does)\b|\bo que\b|\bpara que serve\b"),
)
# Words that say what kind of answer is wanted, not what it is about.
_CUE_WORDS = frozenset(fold(w) for w in (
    "diferencia diferença diferencias diferenças difere diferem diferencian diferenciam "
    "distinguir entre vs versus frente compara comparar "
    "cómo como pasos passos etapas forma manera "
    "por porque qué que para problema motivo sirve serve sirven servem "
    "cuáles cuales quais qual cuál cual tipos partes componentes "
    "hace faz hacen fazem mide mede usa usar utiliza utilizar se puede pode existen existem hay tem tiene "
    "definición definição significa principales principais básicos basicos "
    "devuelve devuelven retorna retornam devolve devolvem return returns "
    "calcula calculan calcular calculado calculada computa computar compute computed"  # "¿cómo se calcula X?"
).split())
# A question that asks what something returns ("What does X return?", "¿Qué devuelve X?", "O que retorna X?"),
# and a unit that states what its subject returns ("El método X devuelve un diccionario…").
_RETURN_VERB = r"(?:devuelven?|devolvem|devolve|retornam|retorna|returns?|regresa)"
_ASKS_RETURN = re.compile(rf"\b(?:que|what)\b.*\b{_RETURN_VERB}\b|\bwhat is returned\b")
_STATES_RETURN = re.compile(rf"\b{_RETURN_VERB}\b", re.I)

# Scores, set by hand on the dev split of eval/ask_set.jsonl (never the test split).
HEADING_WEIGHT = 0.35  # a page whose heading names the question's subject (share of its idf) gains this much
LEXICAL_WEIGHT = 0.5  # a unit holding all of the question's subject words (idf-weighted) gains this much
RANK_WEIGHT = 0.03  # per place above the 6th passage retrieved
KIND_WEIGHT = 0.25  # a unit of the shape the question asks for (a list for "which", a definition for "what"...)
PAGES_READ = 6  # best pages (after the heading re-rank) whose units compete
CANDIDATES = 12  # passages retrieved before pages are merged and re-ranked
# The evidence floor: below both, no unit is about the question and the answer says so.
MIN_SUBJECT_SHARE = 0.45  # idf share of the question's subject words in the unit or its heading
PAGE_EVIDENCE_DISCOUNT = 0.15  # the subject spread over a page's lines counts this much less than in one line
MIN_SIMILARITY = 0.42  # USE-m3 cosine of the unit to the question
OUTLINE_PENALTY = 0.3  # an agenda / index slide names every topic and explains none
# A page whose heading names another framework than the one the question names ("Longitud variable en Keras"
# for "¿… en PyTorch?"): the same topic for another tool, a wrong answer that shares the question's words.
FRAMEWORK_PENALTY = 0.3
_FRAMEWORK_ALIASES = {"torch": "pytorch", "tf": "tensorflow", "scikit-learn": "sklearn", "fsdp": "pytorch",
                      "ddp": "pytorch"}
MIN_COVERAGE = 0.4  # idf share of the question's subject words that the candidate pages hold at all
# units embedded per question, the best by words: 16, 8 and 4 gave the same answers on both dev sets
# (eval/ask_set.jsonl dev, eval/ask_dev_extra.jsonl); 8 halves the ~0.3 s that 16 cost a cold ask (loaded machine)
EMBEDDED_UNITS = 8
EMBEDDED_CHARS = 240  # of each unit: its label and first lines say what it is about
LIST_HEADING_SHARE = 0.6  # a "which / list" question whose subject the page's heading names gets the page's list
WHOLE_WORD_LETTERS = 7  # longer words also match whole (see _term_list)
WHOLE_WORD_IDF = 1.0  # a whole word weighs its stem's idf plus this
DEFINING_UNITS = 2  # opening units quoted from the slide whose title spells out the acronym asked about
OTHER_LABEL_SHARE = 0.3  # a question of no kind: a line whose label holds this idf share of the subject suits it
HOW_OPTIONS = 3  # lines of a slide that each open with an option: the slide lists the ways to do it
HOW_COMMAND_FIT = 0.5  # a line holding a command, option or call, for a "how" question
LANGUAGE_BONUS = 0.05  # a page in the question's language, between pages equal otherwise
BM25_CANDIDATES = 12  # passages BM25 alone ranks best, added to the candidates (short questions embed poorly)
FOCUS_SHARE = 0.5  # of HEADING_WEIGHT, paid only by a heading that is the subject alone
HEADING_DEPTH = 60  # BM25's best passages whose headings are read for one that names the subject
HEADING_CANDIDATES = 4  # of them added to the candidates
MAX_UNIT_LINES = 12  # a unit longer than this is cut after its 12th line (with "…")

_DEFINITION = re.compile(r"^\W*(definici[oó]n|defini[cç][aã]o|idea|ideia|concepto|conceito|es una?|[eé] uma?|"
                         r"consiste|son|s[aã]o)\b", re.I)
_DEFINITION_LABEL = re.compile(r"^\W*(definici[oó]n|defini[cç][aã]o|definition)\s*:", re.I)
_WHY_LABEL = re.compile(r"^\W*(por ?qu[eé]|motivo|raz[oó]n|raz[aã]o|why)\b", re.I)
_OUTLINE = re.compile(r"^\W*(indice|agenda|sumario|contenidos?|conteudos?|contents|outline|table of contents)\W*$")
_STEPS = re.compile(r"\b(procedimiento|procedimento|pasos|passos|etapas|uso|flujo|fluxo|receta|receita|c[oó]mo|"
                    r"instrucciones|instru[cç][oõ]es|steps)\b", re.I)
_BULLET = re.compile(r"^(\s*)(?:[•◦▪\-*]|\d{1,2}[.)])\s+")
_NUMBERED = re.compile(r"^\s*(?:[•◦▪\-*]\s+)?\d{1,2}[.)]\s")  # "  • 1. Forward de t=1 a T…": a step
# A line that holds a command, an option or a call: what a "how" question is answered with, besides code.
_COMMAND = re.compile(r"(?:^|[\s(])--?[a-z][\w-]*(?:[=:]\S+)?|\b[A-Za-z_][\w.]*\([^()]*\)|\b[a-z_]+\.[a-z_]\w*\b")
# The noun a "which / list" question asks a list of ("¿Qué puertas tiene…?", "Quais comandos servem…?"): the first
# plural word after the interrogative that is not a verb or an article. A heading names what the list is of
# ("Monitoramento e gestão de jobs"), not the listed noun ("comandos").
_LISTED = re.compile(r"\b(?:que|quais|cuales|which|what)\s+(?:(?:son|sao|are|es|e|os|as|los|las|the|de|del|da|do)\s+)*"
                     r"([a-z_]{3,}s)\b")
# "Batch efectivo = per_device_bs x grad_accum x num_GPUs": a line that gives its subject's formula
_FORMULA = re.compile(r"^\s*(?:[•◦▪\-*]\s+)?([^=:()]{3,40}?)\s*=\s*\S")
_OPTION = re.compile(r"^\s*(?:[•◦▪\-*]\s+)?--?[a-z][\w-]*(?:[=:]\S*)?:?\s")  # "• --gres=gpu:4: forma clássica…"
# The noun a question of no kind asks for, right after its interrogative: "¿En qué *orden*…?", "¿Qué *algoritmo*…?"
_ASKED = re.compile(r"\b(?:que|qual|cual|which|what)\s+(?!(?:es|e|son|sao|is|are|hace|faz|se|the|el|la|o|a|os|as|"
                    r"los|las|un|una|um|uma)\b)([a-z_]{4,})\b")
_ITEM_LABEL = re.compile(r"^\s*(?:[•◦▪\-*]|\d{1,2}[.)])\s+([^:]{1,40}):\s+\S")  # "  • MNIST: Un conjunto…"


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
        """The unit's lines as one text."""
        return "\n".join(self.lines)

    @property
    def children(self) -> int:
        """How many lines follow its first (sub-bullets, explanations)."""
        return len(self.lines) - 1


def acronyms(question: str) -> list[str]:
    """The acronyms a question names ("LoRA", "PEFT", "SWA"): words with two or more capitals, as their capitals."""
    return [caps for w in re.findall(r"[A-Za-z]{2,}", question)
            if len(caps := "".join(ch for ch in w if ch.isupper())) >= 2 and len(caps) >= len(w) / 2]


def spells_out(text: str, acronym: str) -> bool:
    """Whether ``text`` spells the acronym out ("LoRA: Low-Rank Adaptation", "PEFT (Parameter-Efficient
    Fine-Tuning)"): consecutive capitalised words (hyphenated parts apart) whose initials are its letters."""
    return len(acronym) >= 2 and re.search(
        r"\b" + r"[a-zà-ÿ]*[\s-]+".join(map(re.escape, acronym)) + r"[a-zà-ÿ]*\b", text) is not None


def question_kind(question: str) -> str:
    """``difference``, ``how``, ``why``, ``list``, ``what`` or ``other``, from the question's words."""
    q = fold(question)
    for kind, pattern in _KIND_PATTERNS:
        if re.search(pattern, q):
            return kind
    return "other"


def asks_what_returns(question: str) -> bool:
    """Whether a question asks what something returns ("What does X return?", "¿Qué devuelve X?")."""
    return bool(_ASKS_RETURN.search(fold(question)))


def states_return(unit: Unit, subject: list[str], idf: dict[str, float]) -> bool:
    """Whether a unit states what the question's subject returns: a return verb ("devuelve", "retorna",
    "returns") with the subject named before it ("El método state_dict() devuelve …")."""
    first = re.sub(_BULLET, "", unit.lines[0])
    m = _STATES_RETURN.search(first)
    return m is not None and _idf_share(subject, _terms(first[:m.start()]), idf) >= 0.5


def labelled_items(unit: Unit) -> list[Unit]:
    """The labelled items under a unit's first line ("  • MNIST: Un conjunto de imágenes…"), each a unit
    of its own: a "what is X" question whose X labels one item of a list is answered by that item."""
    return [Unit(unit.page, [line.strip()], unit.start + i) for i, line in enumerate(unit.lines[1:], start=1)
            if _ITEM_LABEL.match(line) and not unit.is_code]


def _is_label_of(unit: Unit, subject: list[str], idf: dict[str, float]) -> bool:
    """Whether a unit is an item labelled with the question's subject and nothing else, and says in words what
    it is ("MNIST: Un conjunto de imágenes…" for "¿Qué es MNIST?"; not "Estado del optimizador: …" for "¿Qué es
    un optimizador?", nor a count "LoRA: 2 x 4096 x 8 = 65.536 parâmetros")."""
    m = _ITEM_LABEL.match(unit.lines[0])
    if not m or not subject or not re.match(r"\s*[^\W\d_]", unit.lines[0][m.end(1) + 1:]):
        return False
    label = {t for t in _terms(m.group(1)) if not t.startswith("=")}
    return bool(label) and label <= set(subject) and _idf_share(subject, label, idf) >= 0.99


def gives_formula_of(unit: Unit, subject: list[str], idf: dict[str, float]) -> bool:
    """Whether a unit's first line is the formula of the question's subject and nothing else ("Batch efectivo =
    per_device_bs x grad_accum x num_GPUs" for "¿Cómo se calcula el batch efectivo?")."""
    m = _FORMULA.match(unit.lines[0])
    if not m or unit.is_code or not subject:
        return False
    label = {t for t in _terms(m.group(1)) if not t.startswith("=")}
    return bool(label) and label <= set(subject) and _idf_share(subject, label, idf) >= 0.99


def frameworks(text: str) -> set[str]:
    """The frameworks a text names (:data:`FRAMEWORKS`, "torch.nn" counts as torch): "PyTorch", "Keras"…"""
    named = {w for w in (fold_word(x.split(".")[0]) for x in words(text)) if w in FRAMEWORKS}
    return {_FRAMEWORK_ALIASES.get(w, w) for w in named}


def subject_tokens(question: str) -> list[str]:
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


def difference_sides(question: str) -> tuple[list[str], list[str]] | None:
    """The two things a "difference" question compares, as token lists (None when it names fewer)."""
    q = re.sub(r"[¿?¡!]", " ", question)
    q = re.sub(r"(?i)^.*?\b(?:entre|between|difere de|diferencia de)\b", " ", q)
    parts = re.split(r"(?i)\s(?:y|e|and|vs\.?|versus|frente a|do|de la|del|da)\s", q, maxsplit=1)
    if len(parts) != 2:
        return None
    a, b = subject_tokens(parts[0]), subject_tokens(kinds.without_context(parts[1])) or subject_tokens(parts[1])
    b = [t for t in b if t not in a]
    return (a, b) if a and b else None


def _idf_share(tokens: list[str], text_tokens: set[str], idf: dict[str, float]) -> float:
    """The idf-weighted share of ``tokens`` found in ``text_tokens``. Whole words ("=…") count only when
    found: a bonus over their stem, so a question in pt about a slide in es is not sunk by "otimizador"."""
    total = sum(idf.get(t, 1.0) for t in tokens if not t.startswith("="))
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


def candidates(index, question: str, qv, names=None, focus=None) -> list[Hit]:
    """The passages worth reading for a question: the hybrid ranking's best (kb.search's fusion) and
    BM25's best, which finds what a short question ("¿Qué es LoRA?") names but embeds poorly; and, when
    ``names`` (a test on a heading) is given, the passages among BM25's deeper list whose heading names the
    question's subject ("ZeRO: Zero Redundancy Optimizer" for "O que é o ZeRO?", where a dozen slides
    mention ZeRO); each with its hybrid score, best first."""
    from .search import _top, fused_scores

    if not index.chunks:
        return []
    fused = fused_scores(index, question, qv)  # kb search's ranking (qv: Retriever.query_vectors)
    lex = index.lexical.scores(question)
    picked = list(_top(fused, CANDIDATES)) + [j for j in _top(lex, BM25_CANDIDATES) if lex[j] > 0]
    if names is not None:
        headings = index.chunks.cols["heading"]
        have = set(int(j) for j in picked)
        named = [int(j) for j in _top(lex, HEADING_DEPTH) if lex[j] > 0 and int(j) not in have
                 and names(headings[int(j)] or "")]
        if focus is not None:  # the slide titled with the subject alone ("Keras") before "Otros componentes de Keras"
            named.sort(key=lambda j: -focus(headings[j] or ""))
        picked += named[:HEADING_CANDIDATES]
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


def is_steps(unit: Unit) -> bool:
    """Whether a unit is a list of steps: labelled so ("Procedimiento:", "Pasos:") or numbered ("1. …", "2. …")."""
    if unit.is_code or unit.children < 2:
        return False
    return bool(_STEPS.search(re.sub(_BULLET, "", unit.lines[0]))) or \
        sum(bool(_NUMBERED.match(line)) for line in unit.lines[1:]) >= 2


def _what_fit(unit: Unit, first: str, subject: list[str], idf: dict[str, float]) -> float:
    """How well a unit says what the subject is: 2 for a definition ("Definición: …", "MNIST: Un conjunto…", a
    bullet naming the subject alone over its sub-bullets), 1 for a line that reads as one, else 0."""
    if _DEFINITION_LABEL.match(first) or _is_label_of(unit, subject, idf):
        return 2.0  # the slide says it is the definition, or labels an item with the subject ("MNIST: …")
    named = {t for t in _terms(kinds.named_head(first)) if not t.startswith("=")}
    if unit.children and not unit.is_code and named and named <= set(subject) \
            and _idf_share(subject, named, idf) >= 0.99:
        return 2.0  # "Paralelismo de modelo (model parallelism)" over the sub-bullets that say what it is
    head = _terms(first.split(":")[0]) if ":" in first else set()
    return 1.0 if _DEFINITION.search(first) or (head and _idf_share(subject, head, idf) >= 0.5) else 0.0


def kind_fit(kind: str, unit: Unit, subject: list[str], idf: dict[str, float], why_use: bool = True) -> float:
    """How well a unit's shape suits the kind of question (0–2); ``why_use``: a "why" question asks why one
    would use something, and a stated benefit answers it as a cause does."""
    first = re.sub(_BULLET, "", unit.lines[0])
    if kind == "what":
        return _what_fit(unit, first, subject, idf)
    if kind == "how" and gives_formula_of(unit, subject, idf):
        return 2.0  # "¿Cómo se calcula X?" answered by "X = …"
    if kind == "how" and is_steps(unit):
        return 1.0
    if kind in ("list", "how"):
        if unit.is_code:
            return 0.5 if kind == "how" else 0.0
        if unit.children >= 2:
            return 1.0 if kind == "list" else 0.75
        if kind == "how" and _COMMAND.search(unit.text):
            return HOW_COMMAND_FIT  # "--gres=gpu:4: forma clássica…": a line that shows the command
        return 0.5 if first.rstrip().endswith(":") else 0.0
    if kind == "other" and ":" in first[:40]:
        # "¿Qué algoritmo de codificación usa WordPiece?": the line labelled "Codificación: …" says it
        return 1.0 if _idf_share(subject, _terms(first.split(":")[0]), idf) >= OTHER_LABEL_SHARE else 0.0
    if kind == "why":
        if _WHY_LABEL.match(first) or kinds.is_problem(unit.lines[0]):
            return 2.0  # "Por que blocos: …", "Problema: …" — the slide answers the question asked
        return 1.0 if kinds.states_cause(unit.text, why_use) else 0.0
    return 0.0


@dataclass
class Scored:
    """A unit with its score, its share of the question's subject and its cosine to the question."""

    unit: Unit
    score: float
    subject: float  # idf share of the subject in the unit with its page's heading
    cosine: float


def _label(unit: Unit) -> set[str]:
    """The terms of what a unit is labelled: its first line up to a colon, or its first 60 characters."""
    first = re.sub(_BULLET, "", unit.lines[0])
    return _terms(first.split(":")[0] if ":" in first[:80] else first[:60])


def _label_text(unit: Unit) -> str:
    """What a unit is labelled, as text: its first line up to a colon ("PyTorch: detach() del estado…"), if any."""
    first = re.sub(_BULLET, "", unit.lines[0])
    return first.split(":")[0] if ":" in first[:40] else ""


def _quote(unit: Unit) -> str:
    lines = unit.lines[:MAX_UNIT_LINES]
    text = "\n".join(ln.rstrip() for ln in lines)
    return text + ("\n…" if len(unit.lines) > MAX_UNIT_LINES else "")


@dataclass
class _Question:
    """One question being answered: its kind, its subject terms with their idf, and the pages read."""

    text: str
    kind: str
    subject: list[str]
    idf: dict[str, float]
    read: list[tuple[Hit, list[Chunk]]] = field(default_factory=list)
    returns: bool = False  # it asks what something returns: a unit that states it answers
    listed: list[str] = field(default_factory=list)  # the noun a "list" question asks a list of (its terms)
    acronyms: list[str] = field(default_factory=list)  # a "what is" question's acronyms, as their capitals
    tools: set[str] = field(default_factory=set)  # the frameworks the question names
    asked: list[str] = field(default_factory=list)  # a question of no kind: the noun it asks for ("¿En qué orden…?")
    entities: list[str] = field(default_factory=list)  # names of one thing the course knows (known_entities)
    plain: QuestionWords = field(default_factory=lambda: QuestionWords([]))  # its words named whole, not in a compound
    first: list[str] = field(default_factory=list)  # a question of two questions: the first one's subject
    more: list[list[str]] = field(default_factory=list)  # …and the subjects of the others ("y qué hace con…")
    why_use: bool = False  # a "why" question that asks why one would use something: a benefit answers it
    core: list[str] = field(default_factory=list)  # the subject without its context ("… *no dvc.yaml*")
    summaries: set[int] = field(default_factory=set)  # pages read that are their deck's summary slide

    def terms(self, text: str) -> set[str]:
        """A text's terms (:func:`_terms`) without the question's words it holds only inside a longer identifier or
        word ("checkpoint" in "gradient_checkpointing"): those do not name the question's subject."""
        return self.plain.terms(text, _terms(text))

    def spelled(self, text: str) -> bool:
        """Whether text spells out an acronym the question asks about (a definition: "LoRA: Low-Rank Adaptation")."""
        return any(spells_out(text, a) for a in self.acronyms)

    def other_framework(self, heading: str) -> bool:
        """Whether a heading names only frameworks the question does not, when the question names one."""
        named = frameworks(heading)
        return bool(self.tools) and bool(named) and not named & self.tools

    def focus(self, heading: str) -> float:
        """The share of a heading's last part that is the subject ("Keras" 1, "Otros componentes de Keras" 1/3)."""
        last = [t for t in _term_list(heading.split(" > ")[-1]) if not t.startswith("=")]
        return sum(t in self.subject for t in last) / len(last) if last else 0.0

    def names(self, heading: str) -> bool:
        """Whether a heading names the whole subject (or spells out an acronym asked about, or names every
        entity the question names)."""
        return self.spelled(heading) or self.share(self.topic, _terms(heading)) >= 0.99 or \
            (bool(self.entities) and self.names_entities(heading))

    def names_entities(self, text: str) -> bool:
        """Whether a text names the question's entities: every one, or, for a difference, one side's."""
        folded = fold(text)
        named = [bool(_names_pattern(e).search(folded)) for e in self.entities]
        return any(named) if self.kind == "difference" else all(named)

    @property
    def topic(self) -> list[str]:
        """The subject without the listed noun: what a heading names ("jobs", not "comandos")."""
        return [t for t in self.subject if t not in self.listed] or self.subject

    def fit(self, u: Unit) -> float:
        """How well a unit's shape suits the question (:func:`kind_fit`); a unit that states what the
        subject returns is the answer to "what does X return"."""
        if self.returns and not u.is_code and states_return(u, self.subject, self.idf):
            return 2.0
        fit = kind_fit(self.kind, u, self.first or self.subject, self.idf, self.why_use)
        if self.asked and not u.is_code and set(self.asked) & _terms(_label_text(u)):
            return max(fit, 1.0)  # "¿En qué orden…?" answered by the line labelled "Orden correcto: …"
        if self.acronyms and not u.is_code:
            if self.spelled(u.lines[0]):
                return 2.0  # "PEFT (Parameter-Efficient Fine-Tuning) congela o modelo base…"
            if self.read and self.spelled(self.read[u.page][0].chunk.locator.heading or ""):
                return max(fit, 1.0)  # on the slide that defines it
        return fit

    # a text's terms, what a unit is labelled (as terms, as text): kb.answer_kinds reads them through the question
    text_terms, label, label_text = staticmethod(_terms), staticmethod(_label), staticmethod(_label_text)

    def share(self, terms: list[str], found: set[str]) -> float:
        return _idf_share(terms, found, self.idf)

    def heading(self, page: int) -> set[str]:
        return self.terms(self.read[page][0].chunk.locator.heading or "")

    def page_score(self, h: Hit, lang: str) -> float:
        """Retrieval score, plus a heading that names the subject, plus the subject in the page."""
        head = self.terms(h.chunk.locator.heading or "")
        # a heading that is the subject alone ("Keras") names it more than one that mentions it ("Otros componentes
        # de Keras"): the heading's weight grows with its focus
        focus = self.focus(h.chunk.locator.heading or "")
        return (h.score + HEADING_WEIGHT * self.share(self.topic, head) * (1 - FOCUS_SHARE + FOCUS_SHARE * focus)
                + (HEADING_WEIGHT if self.spelled(h.chunk.locator.heading or "") else 0.0)
                + 0.5 * LEXICAL_WEIGHT * self.share(self.subject, self.terms(h.chunk.text) | head)
                + (LANGUAGE_BONUS if h.chunk.lang == lang else 0.0)
                - (OUTLINE_PENALTY if _OUTLINE.match(fold(h.chunk.locator.heading or "")) else 0.0)
                - (FRAMEWORK_PENALTY if self.other_framework(h.chunk.locator.heading or "") else 0.0))

    def words_score(self, u: Unit) -> float:
        """A unit's score by words alone: which units are worth embedding."""
        return (LEXICAL_WEIGHT * self.share(self.subject, self.terms(u.text) | self.heading(u.page))
                + RANK_WEIGHT * (PAGES_READ - u.page) + KIND_WEIGHT * self.fit(u))

    def score(self, u: Unit, cosine: float) -> Scored:
        head = self.heading(u.page)
        both = self.share(self.subject, self.terms(u.text) | head)
        total = (cosine + LEXICAL_WEIGHT * both + HEADING_WEIGHT * self.share(self.topic, head)
                 + RANK_WEIGHT * (PAGES_READ - u.page) + KIND_WEIGHT * self.fit(u)
                 - (FRAMEWORK_PENALTY if self.other_framework(self.read[u.page][0].chunk.locator.heading or "")
                    or (not u.is_code and self.other_framework(_label_text(u))) else 0.0)
                 - (OUTLINE_PENALTY if u.page in self.summaries else 0.0))  # the slide on the topic explains it
        return Scored(u, total, both, cosine)

    def compose(self, best: Scored, scored: list[Scored], all_units: list[Unit]) -> list[Scored]:
        """The units the answer quotes, by the kind of question (the best unit alone by default)."""
        page = [u for u in all_units if u.page == best.unit.page and not u.is_code]
        if self.kind == "difference":
            sides = difference_sides(self.text)
            return [_plain(u, scored) for u in kinds.difference_units(self, best, scored, all_units, sides,
                                                                       LEXICAL_WEIGHT)]
        if self.kind == "list":
            return self._list(best, scored, page, [u for u in all_units if not u.is_code])
        if self.kind == "why":
            return [_plain(u, scored) for u in kinds.why_units(self, best, scored, page, MAX_UNIT_LINES)]
        if self.kind == "how":
            return self._how(best, scored, page)
        if self.kind == "what":
            defining = kinds.defining_units(self, best, all_units)
            if defining is not None:
                return [_plain(u, scored) for u in kinds.opening(defining, kinds.DEFINING_UNITS, MAX_UNIT_LINES)]
            if self.fit(best.unit) < 2.0:  # "Run: uma execução do código…" rather than a line that mentions runs
                deck = self.read[best.unit.page][0].chunk.source  # (of the same deck: another deck is another course)
                best = max((s for s in scored if self.fit(s.unit) >= 2.0 and self.read[s.unit.page][0].chunk.source
                            == deck and s.unit.page not in self.summaries), key=lambda s: s.score, default=best)
        if self.acronyms and not best.unit.is_code and self.fit(best.unit) < 2.0 \
                and self.spelled(self.read[best.unit.page][0].chunk.locator.heading or ""):
            # the slide titled with what the acronym stands for: its opening says what it is
            return [_plain(u, scored) for u in sorted(page, key=lambda u: u.start)[:DEFINING_UNITS]]
        return self._with_follower(best, scored, page)

    def _how(self, best: Scored, scored: list[Scored], page: list[Unit]) -> list[Scored]:
        """The steps and the code: a list of steps on the best unit's page rather than a single line of it,
        then the page's code, whole and in order (a slide's code block is often stored in pieces)."""
        if not best.unit.is_code and not is_steps(best.unit):
            steps = [s for s in scored if s.unit.page == best.unit.page and is_steps(s.unit)]
            if steps:
                best = max(steps, key=lambda s: s.score)
            heading = self.read[best.unit.page][0].chunk.locator.heading or ""
            if not steps and len(page) >= HOW_OPTIONS and _STEPS.search(heading.split(" > ")[-1]) \
                    and all(u.children == 0 for u in page):
                # a slide whose heading says it is a procedure ("Fluxo básico: procedimento"), one step a line:
                # the steps, whole and in order, not the one line that shares the most words
                return [_plain(u, scored) for u in kinds.opening(page, len(page), MAX_UNIT_LINES)]
        code = self.page_code(best.unit.page)
        if code is None:
            options = [u for u in page if u.children == 0 and _OPTION.match(u.lines[0])]
            if not best.unit.is_code and best.unit in options and len(options) >= HOW_OPTIONS:
                # a slide of options ("--gres=gpu:4: …", "--gpus-per-node=4: …"): each is a way, quote them all
                return [_plain(u, scored) for u in options][:MAX_UNIT_LINES]
            shown = [u for u in page if u is best.unit or u.children == 0 and _COMMAND.search(u.text)]
            if not best.unit.is_code and len(shown) >= 2 \
                    and self.share(self.topic, self.heading(best.unit.page)) >= LIST_HEADING_SHARE:
                # a slide titled with the task asked ("Voltar a uma versão anterior dos dados"): its lines that show
                # a command, in order, with the best line
                return [_plain(u, scored) for u in kinds.opening(shown, len(shown), MAX_UNIT_LINES)]
            return self._with_follower(best, scored, page)
        quoted = _plain(Unit(best.unit.page, code.text.split("\n"), 0, True, code), scored)
        return [quoted] if best.unit.is_code else [best, quoted]

    def page_code(self, page: int) -> Chunk | None:
        """The code of a page read, its pieces joined in order, as one passage (None when it has none)."""
        code = self.read[page][1]
        if not code:
            return None
        return code[0] if len(code) == 1 else replace(code[0], text="\n".join(c.text for c in code), id="")

    def heads_list(self, page: int) -> bool:
        """Whether a page's heading says the slide is the list asked for: it names the subject, or the noun listed
        ("Errores comunes" for "¿Cuáles son los errores más comunes al usar schedulers?")."""
        head, listed = self.heading(page), [t for t in self.listed if not t.startswith("=")]
        return self.share(self.topic, head) >= LIST_HEADING_SHARE or bool(listed) and set(listed) <= head

    def _with_follower(self, best: Scored, scored: list[Scored], page: list[Unit]) -> list[Scored]:
        """A line that only introduces ("… incluye:") is quoted with the unit after it."""
        if best.unit.children == 0 and best.unit.lines[0].rstrip().endswith(":"):
            return [best] + [_plain(u, scored) for u in page if u.start > best.unit.start][:1]
        return [best]

    def _list(self, best: Scored, scored: list[Scored], page: list[Unit], page_units: list[Unit]) -> list[Scored]:
        """A labelled list whole; or the page's bullets when its heading names the subject (the slide is the list)."""
        # a list asked for: a list on the same page labelled with the subject beats a single line, and a list
        # labelled with something else ("PyTorch: …" for "¿Qué condiciones exige Keras…?")
        if best.unit.children < 2 or self.share(self.subject, _label(best.unit)) == 0:
            lists = [s for s in scored if s.unit.page == best.unit.page and s.unit.children >= 2
                     and self.share(self.subject, _label(s.unit)) > 0]
            if lists:
                best = max(lists, key=lambda s: s.score)
        source = self.read[best.unit.page][0].chunk.source
        if (best.unit.children < 2 or self.share(self.topic, _label(best.unit)) < 0.5) \
                and (best.unit.is_code or len(page) < 3 or not self.heads_list(best.unit.page)):
            # the list whose lead names the subject ("Cada stage tem" for "Quais campos cada stage tem…?") on a slide
            # of the deck, rather than a line or another list (not when the heading names it: the slide is the list)
            core = [t for t in self.core if t not in self.listed] or self.topic  # without "no dvc.yaml"
            led = [s for s in scored if s.unit.children >= 2 and not s.unit.is_code
                   and self.read[s.unit.page][0].chunk.source == source
                   and self.share(core, _label(s.unit)) >= 0.5]
            if led:
                best = max(led, key=lambda s: s.score)
                page = [u for u in page_units if u.page == best.unit.page]
        labelled = best.unit.children >= 2 and self.share(self.subject, _label(best.unit)) >= 0.5
        if not labelled and self.heads_list(best.unit.page) and len(page) >= 3:
            if sum(len(u.lines) for u in page) <= MAX_UNIT_LINES:
                return [_plain(u, scored) for u in page]
            return [_plain(Unit(u.page, u.lines[:1], u.start), scored) for u in page][:MAX_UNIT_LINES]
        return self._with_follower(best, scored, page)


def _plain(u: Unit, scored: list[Scored]) -> Scored:
    return next((s for s in scored if s.unit is u), Scored(u, 0.0, 0.0, 0.0))


def _idf(index, question: str) -> dict[str, float]:
    """The lexical index's idf of the question's terms; a whole word weighs its stem's idf plus WHOLE_WORD_IDF."""
    idf = {t: float(index.lexical.idf[j]) for t in lexical_tokens(question)
           if (j := index.lexical.vocab.get(t)) is not None}
    for t in _term_list(question):
        if t.startswith("="):
            stem = lexical_tokens(t[1:])
            idf[t] = (idf.get(stem[0], 1.0) if stem else 1.0) + WHOLE_WORD_IDF
    return idf


def _question(index, question: str) -> _Question:
    """A question read for answering: its kind (of its first question, when it holds two), subject terms and idf,
    what a list is asked of, the acronyms, frameworks and entities it names, and the subjects of its clauses."""
    parts = kinds.clauses(question)  # "¿Qué es NCCL y qué hace con la topología…?": two questions
    kind = question_kind(parts[0]) if len(parts) > 1 else question_kind(question)
    listed = _LISTED.search(fold(question)) if kind == "list" else None
    q = _Question(question, kind,
                  subject_tokens(question) or list(dict.fromkeys(lexical_tokens(question))), _idf(index, question),
                  returns=asks_what_returns(question), listed=_term_list(listed.group(1)) if listed else [],
                  acronyms=acronyms(question) if kind == "what" else [], tools=frameworks(question))
    asked = _ASKED.search(fold(question)) if kind == "other" else None
    q.asked = [t for t in _term_list(asked.group(1)) if not t.startswith("=")] if asked else []
    q.entities = known_entities(index, question)
    q.plain = QuestionWords([w for w in words(question) if fold(w) not in _CUE_WORDS])
    q.why_use = kind == "why" and kinds.asks_why_use(question)
    q.core = subject_tokens(kinds.without_context(parts[0])) or subject_tokens(parts[0])
    if len(parts) > 1:  # each question without its context: "o que são artifacts [no rastreamento…]"
        q.first, q.more = q.core, [subject_tokens(kinds.without_context(p)) or subject_tokens(p) for p in parts[1:]]
    return q


def answer_offline(retriever, embedder, question: str, k: int = 5):
    """The answer ``kb ask`` gives without an LLM (see the module's docstring): an :class:`kb.answer.Answer`
    quoting the unit(s) that answer the question's kind, with the k best pages as its passages."""
    from .text import detect_language

    lang = detect_language(question)
    qv = embedder.embed_queries([question])[0]
    index = retriever.index
    q = _question(index, question)
    pages = whole_pages(index.chunks, candidates(index, question, retriever.query_vectors([question])[0], q.names,
                                                 q.focus))

    def not_found() -> Answer:  # say so, and show the best passages
        return Answer(question, NOT_FOUND[lang], [Hit(p[0].chunk, p[0].score, r) for r, p in
                                                  enumerate(pages[:k], start=1)], False, "extractive")

    # words of the question that no candidate holds ("otimizador" where the slides say "optimizador") cannot
    # tell the candidates apart: the subject is what they hold, unless that is too little of the question
    held = set().union(*(_terms(f"{h.chunk.locator.heading or ''} {h.chunk.text}") for h, _ in pages))
    # a word the whole course never uses ("Brasil", "paella") is the rarest of all, not a word of idf 1
    stems = [t for t in q.subject if not t.startswith("=")]
    unseen = float(index.lexical.idf.max()) if len(index.lexical.idf) else 1.0
    coverage_idf = {**q.idf, **{t: unseen for t in stems if t not in index.lexical.vocab}}
    if not pages or _idf_share(stems, held, coverage_idf) < MIN_COVERAGE:
        return not_found()
    q.subject = [t for t in q.subject if t in held]
    q.first = [t for t in q.first if t in held]
    q.core = [t for t in q.core if t in held]
    q.more = [held_terms for m in q.more if (held_terms := [t for t in m if t in held])]
    pages.sort(key=lambda p: -q.page_score(p[0], lang))
    q.read = pages[:PAGES_READ]
    if q.entities:
        # a question on a thing the course names ("… con MultiWorkerMirroredStrategy?") is answered from a page
        # that names it, not from one that shares its other words (a DataLoader's settings): else not found
        naming = [p for p in pages if q.names_entities("\n".join(
            [p[0].chunk.locator.heading or "", p[0].chunk.text] + [c.text for c in p[1]]))]
        if not naming:
            return not_found()
        pages[:] = naming + [p for p in pages if all(p is not n for n in naming)]
        q.read = naming[:PAGES_READ]
    # a question in the course ("6. O que é …?") is not an answer to it
    silent = {n for n, (h, _) in enumerate(q.read)  # a title slide or an agenda names every topic, answers none
              if kinds.never_answers(h.chunk.locator.heading or "", h.chunk.text, h.chunk.locator.page)}
    q.summaries = kinds.summaries(q.read)
    all_units = [u for n, (h, code) in enumerate(q.read) if n not in silent for u in units(n, h.chunk)
                 if u.children or not u.lines[0].rstrip().endswith("?")]
    if q.kind == "what":  # an item of a list labelled with the subject may answer alone
        all_units += [item for u in all_units for item in labelled_items(u)]
    if q.kind == "how":
        all_units += [Unit(n, c.text.split("\n"), 0, True, c) for n, (_, code) in enumerate(q.read) for c in code]
    if not all_units:
        return not_found()
    # the units worth a closer look, by words alone; only they are embedded (USE-m3 costs ~5 ms a short text)
    cands = sorted(all_units, key=q.words_score, reverse=True)[:EMBEDDED_UNITS]
    cos = embedder.embed_documents([u.text[:EMBEDDED_CHARS] for u in cands]) @ qv
    scored = [q.score(u, float(c)) for u, c in zip(cands, cos, strict=True)]
    best = max(scored, key=lambda s: s.score)
    # the floor: a unit of the answer's page holds enough of the subject, or the best unit is close in meaning
    # (a list's lead line "Keras … usa cuDNN en GPU solo si:" holds the subject, its best bullet need not)
    evidence = {n: max(s.subject for s in scored if s.unit.page == n) for n in {s.unit.page for s in scored}}
    for n in evidence:  # a page that holds most of the subject across its lines is about the question
        if q.read[n][0].chunk.kind == "transcript":
            continue  # a window of talk is not one topic: minutes of speech hold many words by chance
        page_terms = q.terms(q.read[n][0].chunk.text) | q.heading(n)
        evidence[n] = max(evidence[n], q.share(q.subject, page_terms) - PAGE_EVIDENCE_DISCOUNT)
    chosen = _answering_unit(q, best, scored, evidence)
    if chosen is None:
        return not_found()
    best = answering_page(q, chosen, scored)  # the page titled with the question, if another page's line won
    picked = titled_opening(q, q.compose(best, scored, all_units), all_units, lambda u: _plain(u, scored))
    picked += [_plain(u, scored) for u in kinds.other_clauses(q, picked, all_units)]
    picked += _runner_up(q, best, picked, scored, all_units, evidence, (MIN_SUBJECT_SHARE, MIN_SIMILARITY))
    return _render(question, picked, pages, q.read, k)


def _answering_unit(q: _Question, best: Scored, scored: list[Scored], evidence: dict[int, float]) -> Scored | None:
    """The unit that answers, from the best one by score (None: the course does not seem to hold the answer).

    Below the evidence floor (its page's share of the subject, its cosine) the best unit of a page that is about the
    question answers: "¿Qué es torch.hub?" was the best unit for "¿Cómo se sube un modelo al Hub desde el Trainer?",
    its page failed the floor. A window of talk is never one: minutes of speech hold the question's words by chance,
    far from its meaning. And when another deck's headings name the subject where the best unit's deck's do not
    (:func:`kb.answer_rules.naming_decks`), the best unit of that deck answers: the words shared with the other deck
    are used there in another sense."""

    def about(s: Scored) -> bool:
        return (evidence[s.unit.page] >= MIN_SUBJECT_SHARE or s.cosine >= MIN_SIMILARITY) \
            and q.read[s.unit.page][0].chunk.kind != "transcript"

    if evidence[best.unit.page] < MIN_SUBJECT_SHARE and best.cosine < MIN_SIMILARITY:
        floor = [s for s in scored if evidence[s.unit.page] >= MIN_SUBJECT_SHARE and about(s)]
        if not floor:
            return None
        best = max(floor, key=lambda s: s.score)
    decks = naming_decks(q, q.read[best.unit.page][0].chunk.source)
    if decks:
        return max((s for s in scored if q.read[s.unit.page][0].chunk.source in decks and about(s)),
                   key=lambda s: s.score, default=None)
    return best


def _render(question: str, picked: list[Scored], pages: list[tuple[Hit, list[Chunk]]],
            read: list[tuple[Hit, list[Chunk]]], k: int):
    """The answer: each quoted unit with the number of the passage it comes from; the pages it quotes
    come first among the passages shown, then the best of the rest, then any code it quotes."""
    used = list(dict.fromkeys(s.unit.page for s in picked))  # the best unit's page first
    order = used + [n for n in range(len(pages)) if n not in used]
    shown = [Hit(pages[n][0].chunk, pages[n][0].score, r) for r, n in enumerate(order[:max(k, len(used))], start=1)]
    rank_of = {n: r for r, n in enumerate(order, start=1)}
    picked.sort(key=lambda s: (rank_of[s.unit.page], s.unit.is_code, s.unit.start))
    parts: list[tuple[str, int]] = []  # (quoted unit, passage number): units in a row from one passage cite it once
    for s in picked:
        if s.unit.extra is not None:  # the code is its own passage: shown after the pages
            shown.append(Hit(s.unit.extra, read[s.unit.page][0].score, len(shown) + 1))
            parts.append((_quote(s.unit), len(shown)))
        elif parts and parts[-1][1] == rank_of[s.unit.page]:
            parts[-1] = (parts[-1][0] + "\n" + _quote(s.unit), parts[-1][1])
        else:
            parts.append((_quote(s.unit), rank_of[s.unit.page]))
    text = "\n".join(f"{quoted} [{n}]" for quoted, n in parts)
    return Answer(question, text, shown, True, "extractive", sorted({n for _, n in parts}))
