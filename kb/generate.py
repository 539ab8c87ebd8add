"""Exercise generation: the question-writer seam and the offline (rule-based) writer.

The seam sits at the task — "write questions from these passages" — so the offline writer
and an LLM (:mod:`kb.llm`) honour the same call. :func:`generate_quiz` picks the passages
(whole course, a topic via retrieval, or chosen sources), asks the writer for candidates,
removes near-duplicates with the embedder, and spreads the chosen questions across types,
sources and sections.

The offline writer is deterministic. It
- harvests exercises the materials already contain (numbered questions under an
  "Exercícios/Ejercicios/Exercises" heading, with the paragraphs after them as answer);
- turns definitional sentences and labelled bullets ("X é …", "X es …", "**X**: …") into
  definition questions with the source sentence as the model answer;
- blanks one important course term in a well-formed sentence (cloze);
- builds multiple choice from definitions, with distractors that are other course terms of
  the same shape, ranked by embedding similarity (plausible but not synonyms);
- builds true/false from statements; the false variant negates the copula or swaps in a
  distractor term, so it is false given the source.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Iterable, Protocol, Sequence

from .errors import UsageError
from .quiz import DIFFICULTIES, LANGS, TYPES, Citation, Question, Quiz
from .records import Chunk, content_hash
from .text import STOPWORDS, detect_language, fold, sentences, words


@dataclass(frozen=True)
class GenerationRequest:
    n: int = 10
    types: tuple[str, ...] = TYPES
    topic: str | None = None
    sources: tuple[str, ...] = ()
    difficulty: str | None = None
    lang: str | None = None

    def validate(self) -> None:
        if self.n < 1:
            raise UsageError(f"-n {self.n}: must be at least 1", "ask for 1 or more questions")
        bad = [t for t in self.types if t not in TYPES]
        if bad or not self.types:
            raise UsageError(f"--types {','.join(self.types)}: unknown type {', '.join(bad)}",
                             f"use a comma-separated list of {', '.join(TYPES)}")
        if self.difficulty and self.difficulty not in DIFFICULTIES:
            raise UsageError(f"--difficulty {self.difficulty}: unknown", f"use one of {', '.join(DIFFICULTIES)}")
        if self.lang and self.lang not in LANGS:
            raise UsageError(f"--lang {self.lang}: unsupported", f"use one of {', '.join(LANGS)}")


@dataclass
class Rejected:
    what: str
    reason: str


@dataclass
class Draft:
    """A candidate question plus what selection needs to know about it."""

    question: Question
    chunk: Chunk
    key: str  # what the question is about (a term): one question per key
    priority: float


@dataclass
class WriterOutput:
    drafts: list[Draft] = field(default_factory=list)
    rejected: list[Rejected] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


class QuestionWriter(Protocol):
    name: str

    def write(self, passages: Sequence[Chunk], request: GenerationRequest, course: "CourseTerms") -> WriterOutput: ...


# --------------------------------------------------------------------------- language bits

_T = {
    "what_is": {"pt": "O que é {t}?", "es": "¿Qué es {t}?", "en": "What is {t}?"},
    "what_are": {"pt": "O que são {t}?", "es": "¿Qué son {t}?", "en": "What are {t}?"},
    "what_for": {"pt": "Para que serve {t}?", "es": "¿Para qué sirve {t}?", "en": "What is {t} used for?"},
    "explain": {"pt": "Explique {t}.", "es": "Explica {t}.", "en": "Explain {t}."},
    "cloze": {"pt": "Complete a lacuna: {s}", "es": "Completa el espacio en blanco: {s}", "en": "Fill in the blank: {s}"},
    "mcq": {"pt": "Qual termo corresponde à descrição: “{d}”?", "es": "¿Qué término corresponde a la descripción: “{d}”?",
            "en": "Which term matches the description: “{d}”?"},
    "tf": {"pt": "Verdadeiro ou falso? {s}", "es": "¿Verdadero o falso? {s}", "en": "True or false? {s}"},
    "true": {"pt": "Verdadeiro", "es": "Verdadero", "en": "True"},
    "false": {"pt": "Falso", "es": "Falso", "en": "False"},
    "source_says": {"pt": "A fonte diz: “{s}”", "es": "La fuente dice: “{s}”", "en": "The source says: “{s}”"},
}
_NEG = {"pt": "não", "es": "no", "en": "not"}
_EXERCISE_HEADING = re.compile(r"exerc[ií]c|ejercicio|exercise|quest(ões|oes)\b|preguntas", re.I)
_SKIP_HEADING = re.compile(r"\b(agenda|índice|indice|sumário|sumario|contenidos?|contents|refer[eê]ncias|referencias|"
                           r"bibliograf|metodolog|entorno|agradec)", re.I)
_ARTICLES = {"o", "a", "os", "as", "um", "uma", "el", "la", "los", "las", "un", "una", "the", "an"}
_PRONOUNS = {"isso", "isto", "ele", "ela", "eles", "elas", "este", "esta", "esse", "essa", "aquele", "it", "this",
             "that", "they", "there", "esto", "eso", "ello", "que", "qual", "quem", "onde", "which", "what", "who",
             "se", "não", "no", "nao", "also", "también", "também", "mas", "pero", "but", "e", "y", "and", "o"}
_GENERIC_TERMS = {"exemplo", "por exemplo", "nota", "note", "ejemplo", "soluções", "solucoes", "soluciones", "resumo",
                  "objetivo", "proporciona", "características básicas", "caracteristicas basicas", "uso", "ventajas",
                  "desventajas", "vantagens", "desvantagens", "definição", "definicion", "ideia", "idea", "problema",
                  "resultado", "pasos", "passos", "step", "steps", "importante", "observação", "observe", "components",
                  "componentes", "elementos", "module", "modulo", "interface", "solução", "solucion", "solution"}
_VAGUE_DEF = re.compile(r"^(um pouco|muito|bem|mais|menos|possível|importante|necessário|fundamental|fácil|difícil|claro|"
                        r"un poco|muy|más|necesario|very|more|less|important|easy|hard|possible|simple|simples)\b", re.I)
_NOT_NOUN = re.compile(r"(mente|[aei]r|ndo|[aei]das?|[aei]dos?)$")
_ORDINALS = {"primeiro", "primeira", "segundo", "segunda", "terceiro", "terceira", "ultimo", "ultima", "proximo",
             "primero", "primera", "tercero", "tercera", "first", "second", "third", "last", "next", "outro", "outra",
             "otro", "otra", "another", "other", "cada", "each", "todo", "toda", "todos", "all"}
_BAD_FIRST = {"em", "de", "para", "por", "com", "sem", "en", "con", "sin", "in", "on", "at", "for", "with", "from", "como",
              "cómo", "como", "how", "que", "qué", "what", "why", "porque", "observe", "veja", "note", "nota", "mas",
              "pero", "but", "assim", "asi", "so", "então", "entao", "aqui", "here", "hoy", "hoje"}
_CLAUSE = {"que", "which", "that", "nao", "não", "no", "not", "se", "if", "quando", "cuando", "when", "onde", "donde"}
_REFERENCE = re.compile(r"\b(19|20)\d\d\.|\bet al\b|\bProceedings\b|\bdoi\b|^[¹²³⁴⁵⁶⁷⁸⁹⁰]|^(Figure|Fig\.|Figura|Fuente|Source|Fonte)\b", re.I)
_DESCRIBES = re.compile(r"^(Descreve|Explica|Introduz|Aborda|Envolve|Apresenta|Discute|Menciona|Mostra|Describe|Explica|"
                        r"Introduce|Presenta|Muestra|Describes|Explains|Introduces|Shows|Discusses)\b")
_META = re.compile(r"^(o|este|el|this|the) (capítulo|capitulo|livro|libro|chapter|book|curso|course|tutorial)\b", re.I)
_COPULA = re.compile(
    r"^(?P<term>[^,;:()]{2,70}?)\s+(?P<verb>é|são|consiste em|consistem em|refere-se a|significa|serve para|servem para|"
    r"es|son|consiste en|se refiere a|sirve para|sirven para|is|are|consists of|refers to|is used to)\s+(?P<def>.{15,})$",
)
_LABEL = re.compile(r"^\**(?P<term>[^:*\n]{2,70}?)\**\s*:\s+(?P<def>.{25,})$")
_BULLET = re.compile(r"^\s*(?:[-*•◦▪●○■□☐☑➢➤►▶‣⁃·]\s*)+|^\s*\d+[.)]\s+")
# Folded words too generic to be a key concept ("parte", "necessário", "forma", "exemplo").
_GENERIC = frozenset("""necessario necessaria necessarios parte partes forma formas modo maneira tipo tipos
    exemplo exemplos caso casos vez vezes coisa coisas uso usos mesmo mesma mesmos conforme apropriado apropriada
    apropriadas apropriados possivel possiveis importante importantes seguinte seguintes geral varios varias
    diversos diversas outros outras algum alguma alguns algumas qualquer quaisquer cual tambien ejemplo manera
    cosa cosas necesario necesaria posible importante general example way kind part thing things muito muitos
    muita muitas mucho muchos mucha muchas many much pouco poucos pouca poucas poco pocos""".split())

_TECH = re.compile(r"^(?:[A-Z]{2,}[0-9]*s?|[A-Za-z]+(?:[._][A-Za-z0-9]+)+\(?\)?|[A-Z][a-z]+(?:[A-Z][a-z0-9]+)+)$")


def _clean(line: str) -> str:
    line = _BULLET.sub("", line).strip()
    return re.sub(r"\s+", " ", line.replace("**", "").replace("`", "")).strip()


def _strip_article(term: str) -> str:
    ws = term.split()
    while ws and ws[0].lower() in _ARTICLES:
        ws = ws[1:]
    return " ".join(ws)


def _good_sentence(s: str) -> bool:
    w = words(s)
    if not 8 <= len(w) <= 45 or "http" in s or "?" in s or _REFERENCE.search(s):
        return False
    if sum(s.count(c) for c in "=(){}[]<>$#|") > 2:
        return False
    letters = sum(ch.isalpha() for ch in s)
    return letters / max(1, len(s)) > 0.7


def _term_ok(term: str) -> bool:
    t = fold(term)
    ws = t.split()
    if not ws or len(ws) > 6 or t in _GENERIC_TERMS or ws[0] in {fold(p) for p in _PRONOUNS}:
        return False
    if all(w in STOPWORDS for w in ws) or len(t) < 3 or re.search(r"\d{3,}", t):
        return False
    if ws[0] in _ORDINALS or ws[0] in _BAD_FIRST or any(w in _CLAUSE for w in ws):
        return False
    return not term[0].islower() or len(ws) <= 4


def _shape(term: str) -> str:
    """Terms of the same kind: identifiers, acronyms, single words, phrases."""
    if re.search(r"[._()]|[a-z][A-Z]", term):
        return "identifier"
    if term.isupper():
        return "acronym"
    return "word" if " " not in term else "phrase"


# --------------------------------------------------------------------------- course statistics


class CourseTerms:
    """Term statistics over the whole course: document frequency for importance, and a pool
    of terms (defined terms, bold terms, identifiers, acronyms) to draw distractors from."""

    def __init__(self, chunks: Sequence[Chunk], embedder) -> None:
        self.embedder = embedder
        self.n_docs = max(1, len(chunks))
        self.df: Counter[str] = Counter()
        pool: dict[str, str] = {}
        self.lang_of: dict[str, str] = {}
        for c in chunks:
            folded = set(fold(w) for w in words(c.text))
            self.df.update(folded)
            if c.is_code or c.kind == "transcript":
                continue
            before = set(pool)
            for line in c.text.split("\n"):
                line = _clean(line)
                m = _LABEL.match(line) or _COPULA.match(line)
                if m:
                    t = _strip_article(m.group("term").strip())
                    if _term_ok(t):
                        pool.setdefault(fold(t), t)
            for m in re.finditer(r"\*\*([^*]{3,50})\*\*", c.text):
                t = _strip_article(m.group(1).strip(" :"))
                if _term_ok(t) and len(t.split()) <= 4:
                    pool.setdefault(fold(t), t)
            for w in words(c.text):
                if _TECH.match(w) and len(w) >= 3 and fold(w) not in STOPWORDS:
                    pool.setdefault(fold(w), w)
            for k in set(pool) - before:
                self.lang_of[k] = c.lang
        self.pool = sorted(pool.values(), key=fold)
        self.pool_folded = set(pool)
        self._vectors = None

    def idf(self, word: str) -> float:
        return math.log((1 + self.n_docs) / (1 + self.df.get(fold(word), 0))) + 1

    def importance(self, term: str) -> float:
        """Rare-but-present terms weigh most; identifiers and acronyms get a bonus."""
        ws = [w for w in words(term) if fold(w) not in STOPWORDS]
        if not ws:
            return 0.0
        base = sum(self.idf(w) for w in ws) / len(ws)
        return base + (1.0 if _TECH.match(term) else 0.0)

    def is_course_term(self, term: str) -> bool:
        """A term the course itself treats as one: defined, bold, an identifier or acronym."""
        return fold(term) in self.pool_folded or bool(_TECH.match(term))

    def key_concepts(self, text: str, exclude: str = "", k: int = 4) -> tuple[str, ...]:
        """Key ideas a correct reply must contain: course terms found in the text first, then
        2-word phrases and words the course uses elsewhere too (df ≥ 2), most specific first."""
        skip = {fold(w) for w in words(exclude)}
        ftext = f" {fold(text)} "
        scored: dict[str, float] = {}
        for term in self.pool:
            ft = fold(term)
            if len(ft) >= 3 and f" {ft} " in ftext or (len(ft) >= 4 and f" {ft}" in ftext and _TECH.match(term)):
                if not set(ft.split()) <= skip:
                    scored[term] = 3.0 + 0.1 * self.importance(term)
        toks = words(text)
        for i, w in enumerate(toks):
            fw = fold(w)
            if fw in STOPWORDS or fw in _GENERIC or fw in skip or len(fw) < 4 or fw.isdigit() \
                    or self.df.get(fw, 0) < 2:
                continue
            if _NOT_NOUN.search(fw) and not _TECH.match(w):
                continue  # verbs, adverbs and participles are not concepts
            scored.setdefault(w, self.idf(w))
            if i + 1 < len(toks):
                nxt = toks[i + 1]
                fn = fold(nxt)
                if fn not in STOPWORDS and fn not in _GENERIC and fn not in skip and len(fn) > 3 \
                        and self.df.get(fn, 0) >= 2 \
                        and not _NOT_NOUN.search(fn):
                    scored.setdefault(f"{w} {nxt}", (self.idf(w) + self.idf(nxt)) / 2 + 0.3)
        out: list[str] = []
        for term, _ in sorted(scored.items(), key=lambda kv: (-kv[1], kv[0])):
            ft = fold(term)
            if any(ft in fold(o) or fold(o) in ft for o in out):
                continue
            out.append(term)
            if len(out) == k:
                break
        return tuple(out)

    def distractors(self, term: str, avoid_text: str, k: int = 3, lang: str | None = None) -> list[str]:
        """Other course terms of the same shape, most similar first, but not synonyms."""
        import numpy as np

        if self._vectors is None:
            self._vectors = self.embedder.embed_documents(self.pool) if self.pool else np.zeros((0, 1))
        ft, avoid = fold(term), fold(avoid_text)
        qv = self.embedder.embed_documents([term])[0]
        sims = self._vectors @ qv if len(self.pool) else np.zeros(0)
        shape = _shape(term)
        chosen: list[str] = []
        for i in np.argsort(-sims):
            cand = self.pool[int(i)]
            fc = fold(cand)
            if sims[i] < 0.25:
                break  # the rest would be implausible options
            if sims[i] > 0.92 or fc == ft or fc in ft or ft in fc or fc in avoid:
                continue
            if _shape(cand) != shape or any(fc in fold(c) or fold(c) in fc for c in chosen):
                continue
            if lang and shape in ("word", "phrase") and self.lang_of.get(fc, lang) != lang:
                continue  # a Spanish term among Portuguese options gives the answer away
            chosen.append(cand)
            if len(chosen) == k:
                break
        return chosen


# --------------------------------------------------------------------------- grounding

SUPPORT_THRESHOLD = 0.5  # share of an answer's content words in its passage (or cosine to its quote)


def word_overlap(text: str, passage: str) -> float:
    """Share of the text's words found in the passage (accents and case ignored)."""
    tw = [fold(w) for w in words(text)]
    pw = {fold(w) for w in words(passage)}
    return sum(w in pw for w in tw) / max(1, len(tw))


def support(answer: str, quote: str, passage: str, embedder) -> float:
    """How well a passage supports a model answer: the share of the answer's content words
    that occur in it or, for a paraphrase, the answer's cosine to the quoted sentence.
    Used to validate LLM questions and by ``kb eval quiz``."""
    content = [w for w in words(answer) if fold(w) not in STOPWORDS]
    if not content:
        return 1.0
    lexical = word_overlap(" ".join(content), passage)
    if lexical >= SUPPORT_THRESHOLD or not quote:
        return lexical
    v = embedder.embed_documents([answer, quote])
    return max(lexical, float(v[0] @ v[1]))


# --------------------------------------------------------------------------- the offline writer


def _citation(chunk: Chunk, quote: str) -> Citation:
    return Citation(chunk.source, chunk.locator.describe(), chunk.id, quote.strip()[:500])


def _t(key: str, lang: str, **kw: str) -> str:
    return _T[key].get(lang, _T[key]["en"]).format(**kw)


def passage_usable(chunk: Chunk) -> bool:
    """Titles, code, agenda/index slides and fragments cannot carry a question."""
    if chunk.is_code or len(chunk.text) < 80:
        return False
    if chunk.locator.heading and _SKIP_HEADING.search(chunk.locator.heading.split(" > ")[-1]):
        return False
    lines = [ln for ln in chunk.text.split("\n") if ln.strip()]
    short = sum(1 for ln in lines if len(words(ln)) <= 3)
    return short / max(1, len(lines)) < 0.6


class OfflineWriter:
    """Rule-based, deterministic question writer (no model, no network)."""

    name = "offline"

    def write(self, passages: Sequence[Chunk], request: GenerationRequest, course: CourseTerms) -> WriterOutput:
        out = WriterOutput()
        self._harvest(passages, request, course, out)
        for chunk in passages:
            if not passage_usable(chunk) or (chunk.locator.heading and _EXERCISE_HEADING.search(chunk.locator.heading)):
                continue
            lang = request.lang or chunk.lang
            if chunk.kind == "transcript":
                continue  # speech has no sentence boundaries to build statements from; kb ask cites it
            for term, verb, definition, sentence, label in self._definitions(chunk, course):
                self._definition_questions(chunk, lang, term, verb, definition, sentence, label, course, out)
            self._cloze(chunk, lang, course, out)
        return out

    # -- harvesting ready-made exercises
    def _harvest(self, passages: Sequence[Chunk], request: GenerationRequest, course: CourseTerms, out: WriterOutput) -> None:
        by_source: dict[str, list[Chunk]] = defaultdict(list)
        for c in passages:
            by_source[c.source].append(c)
        for source, chunks in by_source.items():
            chunks.sort(key=lambda c: c.ordinal)
            items: list[tuple[str, list[str], Chunk]] = []
            for c in chunks:
                in_section = bool(c.locator.heading and _EXERCISE_HEADING.search(c.locator.heading))
                open_item = False
                for line in c.text.split("\n"):
                    m = re.match(r"^\s*(\d{1,2})[.)]\s+(.{10,})$", line)
                    if m and not c.is_code:
                        open_item = in_section or m.group(2).rstrip().endswith("?")
                        if open_item:
                            items.append((m.group(2).strip(), [], c))
                    elif items and line.strip() and (in_section or (open_item and items[-1][2].id == c.id)):
                        items[-1][1].append(line.strip())
            for prompt, answer_lines, chunk in items:
                answer = _clean(" ".join(answer_lines))
                lang = request.lang or detect_language(prompt, default=chunk.lang)
                if len(words(answer)) < 5:
                    out.rejected.append(Rejected(f"{source}: “{prompt[:80]}”",
                                                 "ready-made exercise without an answer in the course: not kept"))
                    continue
                first = sentences(answer)[0] if sentences(answer) else answer
                q = Question(type="short", prompt=_clean(prompt), answer=answer[:1500], citations=(_citation(chunk, first),),
                             concepts=course.key_concepts(answer, exclude=prompt, k=5), difficulty="hard", lang=lang,
                             origin="harvested")
                out.drafts.append(Draft(q, chunk, key="x:" + fold(prompt)[:60], priority=3.0))

    # -- definitions
    def _definitions(self, chunk: Chunk, course: CourseTerms):
        """(term, verb, definition, sentence, is_label) found in a passage."""
        seen = set()
        for para in chunk.text.split("\n"):
            line = _clean(para)
            for s in sentences(line) or [line]:
                m = _LABEL.match(s)
                label = bool(m)
                if not m:
                    m = _COPULA.match(s)
                if not m:
                    continue
                term = _strip_article(m.group("term").strip())
                definition = m.group("def").strip()
                verb = "" if label else m.group("verb")
                if not _term_ok(term) or _META.match(definition) or len(words(definition)) < 5:
                    continue
                if _VAGUE_DEF.match(definition) or _REFERENCE.search(para):
                    continue
                if len(words(s)) > 60 or _REFERENCE.search(s) or "http" in s:
                    continue
                if not label and not (course.is_course_term(term) or course.df.get(fold(term.split()[-1]), 0) >= 2):
                    continue  # "A interface é um pouco complicada": not a course concept
                if label and len(term.split()) > 5:
                    continue
                if fold(term) in seen:
                    continue
                seen.add(fold(term))
                yield term, verb, definition, s, label

    def _definition_questions(self, chunk, lang, term, verb, definition, sentence, label, course, out) -> None:
        plural = verb in ("são", "son", "are", "consistem em", "servem para", "sirven para")
        if verb in ("serve para", "servem para", "sirve para", "sirven para", "is used to"):
            prompt = _t("what_for", lang, t=term)
        elif label and _DESCRIBES.match(definition):
            prompt = _t("explain", lang, t=term)  # "Descreve …", "Envolve …": describe, not define
        else:
            prompt = _t("what_are" if plural else "what_is", lang, t=term)
        answer = sentence if not label else f"{term}: {definition}"
        concepts = course.key_concepts(definition, exclude=term, k=4)
        imp = course.importance(term)
        long_answer = len(words(definition)) > 30
        out.drafts.append(Draft(
            Question(type="short", prompt=prompt, answer=answer, citations=(_citation(chunk, sentence),),
                     concepts=concepts, difficulty="hard" if long_answer else "medium", lang=lang, origin="definition"),
            chunk, key=fold(term), priority=2.0 + 0.1 * imp))
        # multiple choice: which term matches this description?
        distract = course.distractors(term, avoid_text=definition, lang=chunk.lang)
        if len(distract) == 3:
            masked = re.sub(re.escape(term), "___", definition, flags=re.I)
            if len(masked) > 220:
                masked = masked[:220].rsplit(" ", 1)[0] + " …"
            options = sorted([term, *distract], key=lambda o: content_hash(term, o))
            out.drafts.append(Draft(
                Question(type="mcq", prompt=_t("mcq", lang, d=masked), answer=term, choices=tuple(options),
                         correct=options.index(term), citations=(_citation(chunk, sentence),), concepts=(term,),
                         difficulty="medium", lang=lang, origin="mcq"),
                chunk, key=fold(term), priority=1.8 + 0.1 * imp))
        # true/false: the statement as is, or made false
        make_false = int(content_hash(sentence), 16) % 2 == 1
        statement = answer if label else sentence
        if make_false:
            false_stmt = self._falsify(sentence, term, verb, label, distract, lang)
            if false_stmt:
                prompt = _t("tf", lang, s=false_stmt)
                ans = f"{_t('false', lang)}. {_t('source_says', lang, s=statement)}"
                out.drafts.append(Draft(
                    Question(type="tf", prompt=prompt, answer=ans, correct=False, citations=(_citation(chunk, sentence),),
                             concepts=(term,), difficulty="easy", lang=lang, origin="tf"),
                    chunk, key=fold(term), priority=1.5 + 0.1 * imp))
                return
        out.drafts.append(Draft(
            Question(type="tf", prompt=_t("tf", lang, s=statement), answer=f"{_t('true', lang)}.", correct=True,
                     citations=(_citation(chunk, sentence),), concepts=(term,), difficulty="easy", lang=lang, origin="tf"),
            chunk, key=fold(term), priority=1.5 + 0.1 * imp))

    @staticmethod
    def _falsify(sentence: str, term: str, verb: str, label: bool, distract: list[str], lang: str) -> str | None:
        """A clearly false variant: negate the copula ("X é" → "X não é") or, for a labelled
        definition, attach it to another course term of the same kind."""
        if verb and not label:
            neg = _NEG.get(lang, "not")
            if lang == "en":
                return re.sub(rf"\b{re.escape(verb)}\b", f"{verb} {neg}", sentence, count=1)
            return re.sub(rf"\s{re.escape(verb)}\s", f" {neg} {verb} ", sentence, count=1)
        if distract:
            return re.sub(re.escape(term), distract[0], sentence.replace("**", ""), count=1, flags=re.I)
        return None

    # -- cloze
    def _cloze(self, chunk: Chunk, lang: str, course: CourseTerms, out: WriterOutput) -> None:
        best: tuple[float, str, str] | None = None
        for para in chunk.text.split("\n"):
            for s in sentences(_clean(para)):
                if not _good_sentence(s) or not s.rstrip().endswith((".", "!")):
                    continue
                starts = {words(part)[0] for part in s.split(": ") if words(part)}  # sentence or label start
                for w in set(words(s)):
                    fw = fold(w)
                    if fw in STOPWORDS or len(fw) < 4 or fw.isdigit() or w in starts:
                        continue
                    df = course.df.get(fw, 0)
                    if df < 2:  # a term the course uses more than once
                        continue
                    if not (course.is_course_term(w) or (w[0].isupper() and df >= 2)):
                        continue  # blank a course term, not a verb or an adjective
                    score = course.importance(w) + (1.0 if fw in course.pool_folded else 0) + (0.5 if _TECH.match(w) else 0)
                    if best is None or score > best[0]:
                        best = (score, s, w)
        if not best:
            return
        score, s, term = best
        blanked = re.sub(rf"(?<![\w.]){re.escape(term)}(?![\w])", "_____", s, count=1)
        if "_____" not in blanked or re.search(rf"\b{re.escape(fold(term))}", fold(blanked)):
            return  # no blank, or the answer still shows elsewhere in the sentence
        accepted = tuple({term.lower(), fold(term)} - {term})
        out.drafts.append(Draft(
            Question(type="cloze", prompt=_t("cloze", lang, s=blanked), answer=term, accepted=accepted,
                     citations=(_citation(chunk, s),), concepts=(term,),
                     difficulty="easy" if course.df.get(fold(term), 0) >= 4 else "medium", lang=lang, origin="cloze"),
            chunk, key=fold(term), priority=1.0 + 0.1 * score))


# --------------------------------------------------------------------------- selection


def dedupe(drafts: list[Draft], embedder, threshold: float = 0.88) -> tuple[list[Draft], list[Rejected]]:
    """Keep the best draft per term and per meaning: a draft whose prompt+answer embedding is
    within ``threshold`` cosine of a kept one of the same type asks the same thing."""
    import numpy as np

    order = sorted(drafts, key=lambda d: (-d.priority, d.question.id))
    if not order:
        return [], []
    vecs = embedder.embed_documents([f"{d.question.prompt}\n{d.question.answer}" for d in order])
    kept: list[int] = []
    rejected: list[Rejected] = []
    keys: set[tuple[str, str]] = set()
    ids: set[str] = set()
    for i, d in enumerate(order):
        q = d.question
        if q.id in ids or (q.type, d.key) in keys:
            continue
        same_type = [j for j in kept if order[j].question.type == q.type]
        if same_type and float(np.max(vecs[same_type] @ vecs[i])) >= threshold:
            rejected.append(Rejected(q.prompt[:80], "near-duplicate of a kept question"))
            continue
        kept.append(i)
        keys.add((q.type, d.key))
        ids.add(q.id)
    return [order[i] for i in kept], rejected


def select(drafts: list[Draft], request: GenerationRequest) -> list[Draft]:
    """n questions: types split evenly (leftovers go to the types that have more), each type
    taken round-robin across sources and sections, one question per term overall."""
    pools: dict[str, list[Draft]] = {t: [] for t in request.types}
    for d in drafts:
        if d.question.type in pools:
            pools[d.question.type].append(d)
    wanted = request.difficulty
    for t, pool in pools.items():
        pool.sort(key=lambda d: (-d.priority, d.question.id))
        matching = [d for d in pool if wanted is None or d.question.difficulty == wanted]
        pools[t] = _spread(matching) + _spread([d for d in pool if d not in matching])
    quota = {t: request.n // len(request.types) for t in request.types}
    for t in request.types[: request.n % len(request.types)]:
        quota[t] += 1
    chosen: list[Draft] = []
    used_keys: set[str] = set()
    # first pass: honour quotas; then fill from any type
    for t in request.types:
        for d in pools[t]:
            if quota[t] <= 0:
                break
            if d.key in used_keys:
                continue
            chosen.append(d)
            used_keys.add(d.key)
            quota[t] -= 1
    remaining = sorted((d for t in request.types for d in pools[t] if d not in chosen),
                       key=lambda d: (request.difficulty is not None and d.question.difficulty != request.difficulty,
                                      -d.priority))
    for d in remaining:
        if len(chosen) >= request.n:
            break
        if d.key not in used_keys:
            chosen.append(d)
            used_keys.add(d.key)
    order = {t: i for i, t in enumerate(TYPES)}
    return sorted(chosen, key=lambda d: (d.chunk.source, d.chunk.ordinal, order[d.question.type]))


def _spread(pool: list[Draft]) -> list[Draft]:
    """Interleave by (source, section) so the first picks come from different places."""
    groups: dict[tuple[str, str], list[Draft]] = defaultdict(list)
    for d in pool:
        groups[(d.chunk.source, (d.chunk.locator.heading or "")[:40])].append(d)
    by_source: dict[str, list[list[Draft]]] = defaultdict(list)
    for (src, _), g in groups.items():
        by_source[src].append(g)
    return interleave([interleave(gs) for gs in by_source.values()])


def interleave(lists: Iterable[list]) -> list:
    """[[a1, a2], [b1]] → [a1, b1, a2]."""
    lists = [list(x) for x in lists if x]
    longest = max((len(x) for x in lists), default=0)
    return [lst[i] for i in range(longest) for lst in lists if i < len(lst)]


# --------------------------------------------------------------------------- the service


@dataclass
class GenerationReport:
    quiz: Quiz
    rejected: list[Rejected]
    errors: list[str]
    candidates: int
    passages: int


def choose_passages(ws, request: GenerationRequest, course_chunks: Sequence[Chunk]) -> list[Chunk]:
    """The whole course, the chunks of the chosen sources, or the passages a topic retrieves."""
    chunks = sorted(course_chunks, key=lambda c: (c.source, c.ordinal))
    if request.sources:
        wanted = {s.replace("\\", "/").lstrip("./") for s in request.sources}
        chunks = [c for c in chunks if c.source in wanted or any(c.source.endswith("/" + w) for w in wanted)]
        if not chunks:
            raise UsageError(f"--source {', '.join(request.sources)}: not in the knowledge base",
                             "check kb sources for the exact paths, or ingest the file first")
    if request.topic:
        allowed = {c.id for c in chunks}
        hits = ws.retriever.search(request.topic, k=max(12, 2 * request.n))
        ranked = [h.chunk for h in hits if h.chunk.id in allowed]
        if not ranked:
            raise UsageError(f"--topic {request.topic!r}: no passage found", "try other words, or leave out --source")
        chunks = ranked
    return chunks


def generate_quiz(ws, request: GenerationRequest, writer: QuestionWriter, title: str | None = None,
                  now: str | None = None) -> GenerationReport:
    """Write a quiz from the knowledge base. Deterministic for the offline writer."""
    import datetime as dt

    request.validate()
    all_chunks = list(ws.store.all_chunks())
    if not all_chunks:
        raise UsageError("the knowledge base is empty", "run kb ingest sources/ first")
    passages = choose_passages(ws, request, all_chunks)
    course = CourseTerms(all_chunks, ws.embedder)
    out = writer.write(passages, request, course)
    if request.topic:  # keep the topic's best passages first
        rank = {c.id: i for i, c in enumerate(passages)}
        for d in out.drafts:
            d.priority -= 0.05 * rank.get(d.chunk.id, len(rank))
    kept, dup = dedupe(out.drafts, ws.embedder)
    chosen = select(kept, request)
    info = ws.store.info
    quiz = Quiz(
        title=title or _title(request),
        questions=tuple(d.question for d in chosen),
        created_at=now or dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat(),
        generator={"kind": "offline"} if writer.name == "offline" else {"kind": "llm", "model": writer.name},
        kb={"location": info["location"], "collection": info["collection"], "revision": info["revision"],
            "embedder": info["embedder"], "chunks": info["chunks"]},
        params={"n": request.n, "types": list(request.types), "topic": request.topic, "sources": list(request.sources),
                "difficulty": request.difficulty, "lang": request.lang},
    )
    return GenerationReport(quiz, out.rejected + dup, out.errors, len(out.drafts), len(passages))


def _title(request: GenerationRequest) -> str:
    if request.topic:
        return f"Quiz: {request.topic}"
    if request.sources:
        return "Quiz: " + ", ".join(s.rsplit("/", 1)[-1] for s in request.sources)
    return "Quiz: whole course"


def default_quiz_path(request: GenerationRequest, folder: Path) -> Path:
    """``quizzes/<topic|source|course>.json``, slugged."""
    if request.topic:
        base = request.topic
    elif request.sources:
        base = Path(request.sources[0]).stem if len(request.sources) == 1 else f"{len(request.sources)}-sources"
    else:
        base = "course"
    slug = re.sub(r"[^a-z0-9]+", "-", fold(base)).strip("-")[:40] or "quiz"
    return Path(folder) / f"{slug}.json"
