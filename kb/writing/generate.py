"""Exercise generation: the question-writer seam, course statistics, selection and the service.

The seam sits at the task — "write questions from these passages" — so the offline writer
(:mod:`kb.writing.offline`, questions from whole ideas with their slide title) and an LLM
(:mod:`kb.llm`) honour the same call. :func:`generate_quiz` picks the passages (whole course,
chosen sources, or a topic's passages above a similarity floor — an off-course topic is an
error), asks the writer for candidates (each has passed :mod:`kb.writing.checks`), removes
near-duplicates with the embedder, and selects central ideas first, spread over sources,
sections and the asked types, one question per idea and per term. When fewer than asked pass,
it writes fewer and the report's notes say why. Multiple-choice correct positions rotate.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Protocol, Sequence

from ..errors import UsageError
from ..quiz import DIFFICULTIES, LANGS, TYPES, Citation, Question, Quiz
from ..records import Chunk
from ..text import STOPWORDS, fold, words

if TYPE_CHECKING:
    from ..outline import Outline
    from .wording import Entity


@dataclass(frozen=True)
class GenerationRequest:
    """What `kb quiz generate` was asked for: how many questions, of which types, about which topic
    or sources, at which difficulty and in which language."""

    n: int = 10
    types: tuple[str, ...] = TYPES
    topic: str | None = None
    sources: tuple[str, ...] = ()
    difficulty: str | None = None
    lang: str | None = None

    def validate(self) -> None:
        """Raise UsageError naming the bad option (n, types, difficulty, lang)."""
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


@dataclass(frozen=True)
class Rejected:
    """A candidate question a check turned down, and why (shown in the generation summary)."""

    what: str
    reason: str
    chunk_id: str = ""  # the passage it was written from, when known (to say why an idea has no question)


@dataclass
class Draft:
    """A candidate question plus what selection needs to know about it."""

    question: Question
    chunk: Chunk
    key: str  # what the question is about (a term): one question per key
    priority: float
    item: str = ""  # the idea(s) (chunk id + item index, "|"-joined) it was written from: one question per idea
    idea: str = ""  # the outline idea it asks (kb.outline.Idea.key), set by kb.writing.plan.aim
    section: str = ""  # the outline section of that idea: selection spreads questions over these


@dataclass
class WriterOutput:
    """What a writer returns: candidate questions, the ones it rejected, endpoint errors, notes."""

    drafts: list[Draft] = field(default_factory=list)
    rejected: list[Rejected] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # why fewer questions may come out, for the summary


class QuestionWriter(Protocol):
    """The writer seam: the offline writer and the LLM writer both turn passages into drafts."""

    name: str

    def write(self, passages: Sequence[Chunk], request: GenerationRequest, course: CourseTerms) -> WriterOutput:
        """Questions (drafts) from the passages, and notes on what could not be asked."""


# --------------------------------------------------------------------------- language bits

_EXERCISE_HEADING = re.compile(r"exerc[ií]c|ejercicio|exercise|quest(ões|oes)\b|preguntas", re.I)
_SKIP_HEADING = re.compile(r"\b(agenda|índice|indice|sumário|sumario|contenidos?|contents|refer[eê]ncias|referencias|"
                           r"bibliograf|metodolog|entorno|agradec|resumen|resumo|summary|conclusi|conclus[aã]o)", re.I)
_ARTICLES = {"o", "a", "os", "as", "um", "uma", "el", "la", "los", "las", "un", "una", "the", "an"}
_PRONOUNS = {"isso", "isto", "ele", "ela", "eles", "elas", "este", "esta", "esse", "essa", "aquele", "it", "this",
             "that", "they", "there", "esto", "eso", "ello", "que", "qual", "quem", "onde", "which", "what", "who",
             "se", "não", "no", "nao", "also", "también", "também", "mas", "pero", "but", "e", "y", "and", "o"}
_GENERIC_TERMS = {"exemplo", "por exemplo", "nota", "note", "ejemplo", "soluções", "solucoes", "soluciones", "resumo",
                  "objetivo", "proporciona", "características básicas", "caracteristicas basicas", "uso", "ventajas",
                  "desventajas", "vantagens", "desvantagens", "definição", "definicion", "ideia", "idea", "problema",
                  "resultado", "pasos", "passos", "step", "steps", "importante", "observação", "observe", "components",
                  "componentes", "elementos", "module", "modulo", "interface", "solução", "solucion", "solution"}
_NOT_NOUN = re.compile(r"(mente|[aei]r|[aei]r(?:lo|la|los|las|se|nos)|ndo|[aei]das?|[aei]dos?)$")
# after a noun, a participle is its adjective ("modelos pre-entrenados"); adverbs, infinitives, gerunds are not
_NOT_ADJ = re.compile(r"(mente|[aei]r|[aei]r(?:lo|la|los|las|se|nos)|ndo)$")
_ORDINALS = {"primeiro", "primeira", "segundo", "segunda", "terceiro", "terceira", "ultimo", "ultima", "proximo",
             "primero", "primera", "tercero", "tercera", "first", "second", "third", "last", "next", "outro", "outra",
             "otro", "otra", "another", "other", "cada", "each", "todo", "toda", "todos", "all"}
_BAD_FIRST = {"em", "de", "para", "por", "com", "sem", "en", "con", "sin", "in", "on", "at", "for", "with", "from",
              "como", "cómo", "how", "que", "qué", "what", "why", "porque", "observe", "veja", "note", "nota", "mas",
              "pero", "but", "assim", "asi", "so", "então", "entao", "aqui", "here", "hoy", "hoje"}
_CLAUSE = {"que", "which", "that", "nao", "não", "no", "not", "se", "if", "quando", "cuando", "when", "onde", "donde"}
_REFERENCE = re.compile(r"\b(19|20)\d\d\.|\bet al\b|\bProceedings\b|\bdoi\b|^[¹²³⁴⁵⁶⁷⁸⁹⁰]"
                        r"|^(Figure|Fig\.|Figura|Fuente|Source|Fonte)\b", re.I)
_COPULA = re.compile(
    r"^(?P<term>[^,;:()]{2,70}?)\s+(?P<verb>é|são|consiste em|consistem em|refere-se a|significa|serve para|"
    r"servem para|es|son|consiste en|se refiere a|sirve para|sirven para|is|are|consists of|refers to|is used to)"
    r"\s+(?P<def>.{15,})$",
)
_LABEL = re.compile(r"^\**(?P<term>[^:*\n]{2,70}?)\**\s*:\s+(?P<def>.{25,})$")
_BULLET = re.compile(r"^\s*(?:[-*•◦▪●○■□☐☑➢➤►▶‣⁃·]\s*)+|^\s*\d+[.)]\s+")
# Folded words too generic to be a key concept ("parte", "necessário", "forma", "exemplo").
_GENERIC = frozenset("""necessario necessaria necessarios parte partes forma formas modo maneira tipo tipos
    exemplo exemplos caso casos vez vezes coisa coisas uso usos mesmo mesma mesmos conforme apropriado apropriada
    apropriadas apropriados possivel possiveis importante importantes seguinte seguintes geral varios varias
    diversos diversas outros outras algum alguma alguns algumas qualquer quaisquer cual tambien ejemplo manera
    cosa cosas necesario necesaria posible importante general example way kind part thing things muito muitos
    muita muitas mucho muchos mucha muchas many much pouco poucos pouca poucas poco pocos tecnica tecnicas
    technique techniques valor valores value values sistema sistemas system systems proceso procesos processo
    processos process variedad variedade variety cantidad quantidade amount numero number manera maneiras
    asegurate asegurese usan divide define completo final menudo conjunto conjuntos todos todas mismo misma mismos
    mismas estan esten utiliza realiza permite metodo metodos funcion funciones clase clases method function
    class alguna algunas cero punto consiste consisten pueden puede
    diferentes diferente different distintos especificos especifica especificas specific varias several
    capacidad capacidade ability forma uso utilizacion utilizacao usage herramienta herramientas ferramenta
    ferramentas tool tools opcion opciones opcao opcoes option options caracteristicas aspectos aspects
    eficiente eficientes efficient multiples multiple grande grandes large nuevo nuevos nueva nuevas novo novos
    nova novas new mejor mayor menor melhor maior rapido rapida rapidos faster facil simple complejo complejos
    avanzada avanzadas avancado comun comunes comunmente common mediante traves entre antes despues durante
    mientras enquanto antes depois tanto otro otros etc posteriormente automaticamente amplia amplio""".split())

_VERB_1PL = re.compile(r"(?<=...)(amos|emos|imos)$")  # "utilizamos", "necesitamos"
# instructions a slide gives ("Reemplaza la capa …"): verbs, never the concept of an answer
_INSTRUCTIONS = frozenset(fold(w) for w in """utiliza usa ajusta congela reemplaza entrena verifica analiza visualiza
    aplica combina almacena guarda itera realiza configura divide define utilize use ajuste congele substitua treine
    verifique aplique armazene salve configure divida defina""".split())

# third-person verb endings ("representan", "utilizan", "optimiza") and the nouns that share them
_VERB_3P = re.compile(r"(?<=...)(an|en|iza|izan|aron|ieron|aba|aban)$")
_NOUNS_EN = frozenset("""imagen imagenes orden volumen examen resumen origen margen plan tensorflow pytorch
    token batchnorm""".split())
_TECH = re.compile(r"^(?:[A-Z]{2,}[0-9]*s?|[A-Za-z]+(?:[._][A-Za-z0-9]+)+\(?\)?|[A-Z][a-z]+(?:[A-Z][a-z0-9]+)+)$")


def _clean(line: str) -> str:
    line = _BULLET.sub("", line).strip()
    return re.sub(r"\s+", " ", line.replace("**", "").replace("`", "")).strip()


def _strip_article(term: str) -> str:
    ws = term.split()
    while ws and ws[0].lower() in _ARTICLES:
        ws = ws[1:]
    return " ".join(ws)


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
            for phrase in c.emphasis:  # what a Markdown source sets in bold (the readers drop the marks)
                t = _strip_article(phrase.strip(" :"))
                if 3 <= len(t) <= 50 and _term_ok(t) and len(t.split()) <= 4:
                    pool.setdefault(fold(t), t)
            for w in words(c.text):
                if _TECH.match(w) and len(w) >= 3 and fold(w) not in STOPWORDS:
                    pool.setdefault(fold(w), w)
            for k in set(pool) - before:
                self.lang_of[k] = c.lang
        self.pool = sorted(pool.values(), key=fold)
        self.pool_folded = set(pool)
        self._vectors = None
        self.chunks = list(chunks)
        self.by_source: dict[str, list[Chunk]] = defaultdict(list)
        for c in self.chunks:
            self.by_source[c.source].append(c)
        self.raw_text = "\n".join(c.text for c in self.chunks)
        self.folded_text = " " + " ".join(fold(w) for w in words(self.raw_text)) + " "
        self._src_df: dict[str, Counter[str]] = {}
        self.entities: list[Entity] | None = None  # named code entities, filled by the offline writer on first use
        self.outlines: dict[str, Outline] = {}  # what each source teaches (kb.outline), set by generate_quiz

    def idf(self, word: str) -> float:
        """Smoothed inverse document frequency of the word over the course's passages."""
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

    def terms_with(self, word: str) -> list[str]:
        """Course terms of several words that contain ``word`` ("parameter servers" for "servers")."""
        if not hasattr(self, "_by_word"):
            self._by_word: dict[str, list[str]] = defaultdict(list)
            for t in self.pool:
                for w in fold(t).split():
                    self._by_word[w].append(t)
        return self._by_word.get(fold(word), [])

    def source_share(self, word: str, source: str) -> float:
        """Share of a source's passages that contain the word ("datos" in a deck on datasets)."""
        if source not in self._src_df:
            cnt: Counter[str] = Counter()
            for c in self.by_source.get(source, []):
                cnt.update({fold(w) for w in words(c.text)})
            self._src_df[source] = cnt
        n = len(self.by_source.get(source, []))
        return self._src_df[source].get(fold(word), 0) / n if n >= 8 else 0.0

    def key_concepts(self, text: str, exclude: str = "", k: int = 4, source: str | None = None) -> tuple[str, ...]:
        """Key ideas a correct reply must contain: course terms found in the text first, then
        2-word phrases and words the course uses elsewhere too (df ≥ 2), most specific first.
        Words in most passages of the course or of ``source`` are not key ideas there."""
        skip = {fold(w) for w in words(exclude)}
        common = {fold(w) for w in words(text) if self.source_share(w, source) > _SOURCE_COMMON} if source else set()
        scored = self._terms_in(text, skip | common)
        self._score_words(text, skip, scored, common)
        return _most_specific(scored, k)

    def _terms_in(self, text: str, skip: set[str]) -> dict[str, float]:
        """The course terms the text names (whole words; a technical term also as a prefix),
        scored above any plain word."""
        ftext = f" {fold(text)} "
        scored: dict[str, float] = {}
        for term in self.pool:
            ft = fold(term)
            if len(ft) >= 3 and f" {ft} " in ftext or (len(ft) >= 4 and f" {ft}" in ftext and _TECH.match(term)
                                                         and not term.isupper()):
                if not set(ft.split()) <= skip and not set(ft.split()) <= _GENERIC | STOPWORDS \
                        and not (" " not in ft and _NOT_NOUN.search(ft) and not _TECH.match(term)):
                    scored[term] = _TERM_SCORE + _TERM_IMPORTANCE_WEIGHT * self.importance(term)
        return scored

    def _concept_word(self, fw: str, skip: set[str]) -> bool:
        """A folded word that can be a concept: not a stopword, generic, excluded, short, a number,
        a word of one passage only or of most passages, a function word or a verb."""
        return not (fw in STOPWORDS or fw in _GENERIC or fw in skip or len(fw) < 4 or fw.isdigit()
                    or self.df.get(fw, 0) < 2 or self.df.get(fw, 0) > _COURSE_COMMON * self.n_docs
                    or _VERB_1PL.search(fw) or fw in _INSTRUCTIONS  # "Utilizamos", "Reemplaza": verbs
                    or fw in _FUNCTION or fw in _PLAIN_NOUNS or self.verb_like(fw))

    def _contexts(self) -> tuple[Counter[str], Counter[str]]:
        """How often each folded word follows a determiner, and a verb marker, in the course."""
        if not hasattr(self, "_after"):
            det: Counter[str] = Counter()
            verb: Counter[str] = Counter()
            toks = self.folded_text.split()
            for prev, w in zip(toks, toks[1:], strict=False):
                if prev in _DETERMINERS or prev in _OF and not _NOT_NOUN.search(w):
                    det[w] += 1
                elif prev in _VERB_MARKERS:
                    verb[w] += 1
            self._after = (det, verb)
        return self._after

    def verb_like(self, fw: str) -> bool:
        """The course writes the word after a clitic, relative, negation or modal ("que produce",
        "se usará", "que tenham") more often than after an article: a verb, no concept."""
        det, verb = self._contexts()
        return verb[fw] > det[fw]

    def noun_like(self, fw: str) -> bool:
        """The course writes the word after an article or determiner at least once, and not more
        often after a verb marker."""
        det, verb = self._contexts()
        return det[fw] >= 1 and det[fw] >= verb[fw]

    def _score_words(self, text: str, skip: set[str], scored: dict[str, float],
                     common: frozenset[str] | set[str] = frozenset()) -> None:
        """Adds the text's concept words (by idf) and their 2-word phrases to scored. A word of
        most of the source's passages ("modelos" in a deck on models) is no concept alone, but
        heads a phrase ("modelos pre-entrenados")."""
        toks = words(text)
        ftext = fold(text)
        for i, w in enumerate(toks):
            fw = fold(w)
            head = fw in common and fw not in STOPWORDS and fw not in _GENERIC and len(fw) >= 4 and self.noun_like(fw)
            if not self._concept_word(fw, skip) and not head:
                continue
            if (_NOT_NOUN.search(fw) or _VERB_3P.search(fw) and fw not in _NOUNS_EN) and not _TECH.match(w):
                continue  # verbs, adverbs and participles are not concepts
            noun = self.noun_like(fw) or bool(_TECH.match(w)) or not self.verb_like(fw) and (
                bool(_NOUN_SUFFIX.search(fw)) or "-" in w.strip("-"))  # "visualización", "multi-process"
            if noun and fw not in common:  # a plain word alone is a concept only where the course uses it as a noun
                scored.setdefault(w, self.idf(w))
            if i + 1 < len(toks):
                nxt = toks[i + 1]
                fn = fold(nxt)
                # a noun phrase: the head a noun, the next word no verb, function word or cognate of
                # the head ("compilación compile"); never "seja pegue", "padrão aloca", "otras métricas"
                if noun and fn not in STOPWORDS and fn not in _GENERIC and fn not in skip and len(fn) > 3 \
                        and self.df.get(fn, 0) >= 2 and fn not in _FUNCTION and not self.verb_like(fn) \
                        and not _NOT_ADJ.search(fn) and not _VERB_3P.search(fn) and fn[:4] != fw[:4] \
                        and f"{fw} {fn}" in ftext and not (fw in common and fn in common):  # not across a comma
                    scored.setdefault(f"{w} {nxt}", (self.idf(w) + self.idf(nxt)) / 2 + _PHRASE_BONUS)


# words that carry no idea of their own: adverbs, ordinals, comparatives and quantifiers ("Além",
# "anteriores", "outra", "último", "simples")
_FUNCTION = frozenset("""alem ademas tambem tambien ainda aun todavia apenas solo somente solamente ja ya sempre siempre
    nunca jamas anterior anteriores posterior posteriores ultimo ultima ultimos ultimas outro outra outros outras otro
    otra otros otras proprio propria propios propias simples simple seguintes siguiente siguientes mismo misma demais
    demas cerca acerca ahora agora entao entonces luego logo bien bem mal assim asi tal tales cual cuales qual quais
    donde onde aqui ali alli alguien ninguno nenhum nenhuma ningun ninguna mas menos dois duas tres cuatro quatro
    cinco seis siete sete ocho oito nueve nove diez dez two three four five""".split())
# nouns any course on any subject uses for any idea ("momento", "aplicación", "tareas", "instancia"):
# a right answer need not say them
_PLAIN_NOUNS = frozenset("""momento momentos aplicacion aplicaciones aplicacao aplicacoes tarea tareas tarefa tarefas
    instancia instancias estrategia estrategias dominio dominios extension extensao computacion computacao execucao
    ejecucion implementacion implementaciones implementacao implementacoes lista listas solucion soluciones solucao
    solucoes requisito requisitos instrucion instruccion instrucao excepcion excecao entorno entornos ambiente
    ambientes nombre nombres version versiones versao versoes necesidad necesidades necessidade necessidades need
    needs""".split())
# what precedes a noun (articles, possessives, demonstratives) and what precedes a verb (clitics,
# relatives, negation, subject pronouns, modals): a word the course writes after the second kind more
# than after the first is a verb ("que produce", "se usará", "que tenham", "seja pegue")
# derivational endings of nouns ("visualización", "sincronização", "rendimiento", "paralelismo")
_NOUN_SUFFIX = re.compile(r"(cion|ciones|cao|coes|sion|siones|dad|dades|dade|miento|mientos|mento|mentos|ismo|ismos|"
                          r"aje|ajes|agem|agens|ncia|ncias|tion|tions|ment|ments|ness|ity|ities)$")
_DETERMINERS = frozenset("""el la los las un una unos unas del al su sus este esta estos estas ese esa esos esas o os um
    uma uns umas do da dos das ao aos pelo pela pelos pelas seu sua seus suas nosso nossa the an its their this
    these otro otra otros otras outro outra outros outras cada varios varias muchos muchas muitos muitas algunos
    algunas alguns algumas ambos ambas""".split())
# "de" comes before nouns ("función de pérdida") and infinitives ("antes de esperar"): evidence of a
# noun only for a word without a verb's ending
_OF = frozenset("de del of".split())
_VERB_MARKERS = frozenset("""se que no lo le les nos nao ele ela eles elas voce we they you it pode podem puede pueden
    debe deben deve devem will would can should may must""".split())


# Key-concept scoring (hand-set with the offline writer, 0e944b1; no measurement recorded):
_SOURCE_COMMON = 0.3  # a word in more than this share of a source's passages is no key idea there
_COURSE_COMMON = 0.25  # likewise for the share of all the course's passages
_TERM_SCORE = 3.0  # a course term found in the text scores this plus its weighted importance; words score their idf
_TERM_IMPORTANCE_WEIGHT = 0.1  # orders the course terms among themselves
_PHRASE_BONUS = 0.3  # a 2-word phrase ranks above its words' mean idf: more specific


def _most_specific(scored: dict[str, float], k: int) -> tuple[str, ...]:
    """The k best-scored terms, skipping one contained in (or containing) a better one."""
    out: list[str] = []
    for term, _ in sorted(scored.items(), key=lambda kv: (-kv[1], kv[0])):
        ft = fold(term)
        if any(ft in fold(o) or fold(o) in ft for o in out):
            continue
        out.append(term)
        if len(out) == k:
            break
    return tuple(out)


# --------------------------------------------------------------------------- grounding

from .checks import SUPPORT_THRESHOLD, support, word_overlap  # noqa: E402,F401  (public names)

# --------------------------------------------------------------------------- the offline writer


def _citation(chunk: Chunk, quote: str) -> Citation:
    return Citation(chunk.source, chunk.locator.describe(), chunk.id, quote.strip()[:500])


def passage_usable(chunk: Chunk) -> bool:
    """Titles, code, agenda/index slides and fragments cannot carry a question."""
    if chunk.is_code or len(chunk.text) < 80:
        return False
    if chunk.kind == "pdf" and chunk.locator.page == 1:
        return False  # a deck's title slide: course name, authors, version — nothing to ask
    if chunk.locator.heading and _SKIP_HEADING.search(chunk.locator.heading.split(" > ")[-1]):
        return False
    lines = [ln for ln in chunk.text.split("\n") if ln.strip()]
    short = sum(1 for ln in lines if len(words(ln)) <= 3)
    return short / max(1, len(lines)) < 0.6


# --------------------------------------------------------------------------- selection


def dedupe(drafts: list[Draft], embedder, threshold: float = 0.88) -> tuple[list[Draft], list[Rejected]]:
    """Keep the best draft per term and per meaning: a draft whose prompt+answer embedding is
    within ``threshold`` cosine of a kept one of the same type asks the same thing."""
    import numpy as np

    # a false statement built by a swap (a sibling's description, training ↔ test) first: of the
    # questions one sentence gives, it is the one a teacher keeps over its definition or its cloze
    order = sorted(drafts, key=lambda d: (not _swap(d.question), -d.priority, d.question.id))
    if not order:
        return [], []
    vecs = embedder.embed_documents([f"{d.question.prompt}\n{d.question.answer}" for d in order])
    kept: list[int] = []
    rejected: list[Rejected] = []
    from .checks import duplicate_questions

    keys: set[tuple[str, str]] = set()
    ids: set[str] = set()
    items: set[str] = set()
    ideas: list[set[str]] = []
    for i, d in enumerate(order):
        q = d.question
        if q.id in ids or (q.type, d.key) in keys:
            continue
        mine = {x for x in d.item.split("|") if x}
        if mine & items:  # one question per source sentence, whatever its type: the best one
            rejected.append(Rejected(q.prompt[:80], "its sentence is asked by a better question"))
            continue
        idea = _idea(q)
        if any(idea and o and len(idea & o) >= _SAME_IDEA * min(len(idea), len(o)) for o in ideas):
            rejected.append(Rejected(q.prompt[:80], "its idea is asked by a better question"))
            continue  # the same sentence in two sources (a deck and its transcript), or its cloze
        if q.id in duplicate_questions([order[j].question for j in kept] + [q]):
            rejected.append(Rejected(q.prompt[:80], "asks what a kept question asks"))
            continue
        same_type = [j for j in kept if order[j].question.type == q.type]
        if same_type and float(np.max(vecs[same_type] @ vecs[i])) >= threshold:
            rejected.append(Rejected(q.prompt[:80], "near-duplicate of a kept question"))
            continue
        kept.append(i)
        keys.add((q.type, d.key))
        ids.add(q.id)
        items |= mine
        ideas.append(idea)
    return [order[i] for i in kept], rejected


def _swap(q: Question) -> bool:
    return q.type == "tf" and q.correct is False


_SAME_IDEA = 0.8  # share of the smaller idea's stems two questions share to ask one idea (hand-set)


def _idea(q: Question) -> set[str]:
    """The stems of what a question holds true: a short question's model answer, the sentence of
    a cloze or multiple choice with its answer filled in, a true/false statement as the source
    says it. Fewer than 5 stems says too little to compare."""
    from .checks import statement, stems

    if q.type == "short":
        text = q.answer
    elif q.type == "tf":
        m = re.search(r"“(.+)”", q.answer)
        text = m.group(1) if m else statement(q)
    else:
        text = statement(q).replace("_____", q.correct_text)
    st = stems(text)
    return st if len(st) >= 5 else set()


def _section(d: Draft) -> tuple[str, str]:
    if d.section:  # the deck's own section (kb.outline) of the idea the draft asks
        return d.chunk.source, "§" + d.section
    loc = d.chunk.locator
    return d.chunk.source, (f"p{loc.page}" if loc.page is not None else (loc.heading or "")[:60])


class _Selection:
    """The drafts chosen so far, and the ideas, items and types they use up."""

    def __init__(self) -> None:
        self.chosen: list[Draft] = []
        self.used_keys: set[str] = set()
        self.used_items: set[str] = set()
        self.per_type: Counter[str] = Counter()

    def take(self, d: Draft) -> None:
        self.chosen.append(d)
        self.used_keys.add(d.key)
        self.used_items.update(x for x in d.item.split("|") if x)
        self.per_type[d.question.type] += 1

    def free(self, d: Draft) -> bool:
        """Not chosen yet, its idea and its items not asked about yet, and neither its answer
        written in a chosen stem nor a chosen answer written in its stem."""
        from .checks import answers_elsewhere

        if d in self.chosen or d.key in self.used_keys or any(x in self.used_items for x in d.item.split("|") if x):
            return False
        return not answers_elsewhere([*(c.question for c in self.chosen), d.question])


def _selection_pool(drafts: list[Draft], request: GenerationRequest, notes: list[str]) -> list[Draft]:
    """The drafts of the asked types (and difficulty), best first."""
    pool = [d for d in drafts if d.question.type in request.types]
    if request.difficulty:
        matching = [d for d in pool if d.question.difficulty == request.difficulty]
        if len(matching) < request.n:
            notes.append(f"--difficulty {request.difficulty}: the material supports {len(matching)} such questions")
        pool = matching
    pool.sort(key=lambda d: (-d.priority, d.question.id))
    return pool


def _section_groups(pool: list[Draft]) -> list[list[Draft]]:
    """The pool grouped by section, best section first, sources interleaved."""
    groups: dict[tuple[str, str], list[Draft]] = defaultdict(list)
    for d in pool:
        groups[_section(d)].append(d)
    by_source: dict[str, list[list[Draft]]] = defaultdict(list)
    for (src, _), g in sorted(groups.items(), key=lambda kv: (-kv[1][0].priority, kv[0])):
        by_source[src].append(g)
    return interleave(list(by_source.values()))


def _take_type_floors(sel: _Selection, ordered_groups: list[list[Draft]], request: GenerationRequest) -> None:
    """A floor for each asked type the material has (20 questions, 4 types: 2 each), best first."""
    floor = max(1, request.n // (2 * len(request.types))) if len(request.types) > 1 else 0
    for t in request.types:
        for g in ordered_groups:
            if sel.per_type[t] >= floor or len(sel.chosen) >= request.n:
                break
            pick = next((d for d in g if d.question.type == t and sel.free(d)), None)
            if pick is not None and not any(_section(x) == _section(pick) for x in sel.chosen):
                sel.take(pick)


def _take_rounds(sel: _Selection, ordered_groups: list[list[Draft]], request: GenerationRequest, cap: int) -> None:
    """One question per section per round until n, first with no type above cap, then without the cap."""
    for capped in (True, False):
        progress = True
        while progress and len(sel.chosen) < request.n:
            progress = False
            for g in ordered_groups:
                if len(sel.chosen) >= request.n:
                    break
                free = [d for d in g if sel.free(d) and not (capped and sel.per_type[d.question.type] >= cap)]
                if not free:
                    continue
                # among the section's near-best drafts, the type the quiz has least of
                near = [d for d in free if d.priority >= free[0].priority - 0.5]
                sel.take(min(near, key=lambda d: (sel.per_type[d.question.type], -d.priority, d.question.id)))
                progress = True


def _no_lone_mcq(sel: _Selection, pool: list[Draft], alternates: Sequence[Draft] = ()) -> None:
    """One multiple choice alone has its right option wherever it is: 100 % at one position.
    Bring in a second (in place of the weakest true/false or cloze), else ask the lone one as
    the cloze written from the same sentence (among ``alternates``, the drafts before one
    question per sentence was kept), else the next best idea."""
    mcqs = [d for d in sel.chosen if d.question.type == "mcq"]
    if len(mcqs) != 1:
        return
    weakest = sorted((d for d in sel.chosen if d.question.type in ("tf", "cloze")), key=lambda d: d.priority)
    for cand in (d for d in pool if d.question.type == "mcq" and d not in sel.chosen):
        for out in weakest:
            rest = _Selection()
            for d in sel.chosen:
                if d is not out:
                    rest.take(d)
            if rest.free(cand):
                sel.chosen[sel.chosen.index(out)] = cand
                return
    lone = mcqs[0]
    rest = _Selection()
    for d in sel.chosen:
        if d is not lone:
            rest.take(d)
    ranked = sorted(pool, key=lambda d: -d.priority)
    same = [d for d in alternates if d.item == lone.item and d.question.type == "cloze" and rest.free(d)]
    other = next(iter(same), None) or next((d for d in ranked if d.question.type != "mcq" and rest.free(d)), None)
    if other is not None:  # the same sentence's cloze, or the next best idea
        sel.chosen[sel.chosen.index(lone)] = other


def select(drafts: list[Draft], request: GenerationRequest,
           alternates: Sequence[Draft] = ()) -> tuple[list[Draft], list[str]]:
    """Up to n questions, central ideas first, spread over sources and sections (one question
    per section per round), one question per idea and per term, no type above ~40 % when
    several were asked for. ``alternates`` (every draft, before :func:`dedupe`) give a lone
    multiple choice its own sentence's cloze. Returns the chosen drafts and notes on why fewer
    were chosen."""
    notes: list[str] = []
    ordered_groups = _section_groups(_selection_pool(drafts, request, notes))
    cap = max(2, math.ceil(0.4 * request.n)) if len(request.types) > 1 else request.n
    sel = _Selection()
    _take_type_floors(sel, ordered_groups, request)
    _take_rounds(sel, ordered_groups, request, cap)
    _no_lone_mcq(sel, [d for g in ordered_groups for d in g],
                 [d for d in alternates if d.question.type in request.types])
    order = {t: i for i, t in enumerate(TYPES)}
    return sorted(sel.chosen, key=lambda d: (d.chunk.source, d.chunk.ordinal, order[d.question.type])), notes


def interleave(lists: Iterable[list]) -> list:
    """[[a1, a2], [b1]] → [a1, b1, a2]."""
    lists = [list(x) for x in lists if x]
    longest = max((len(x) for x in lists), default=0)
    return [lst[i] for i in range(longest) for lst in lists if i < len(lst)]


# --------------------------------------------------------------------------- the service


@dataclass
class GenerationReport:
    """A generation's outcome: the quiz, what was rejected and why, endpoint errors, how many candidates
    and passages there were, and notes on why fewer questions were written than asked."""

    quiz: Quiz
    rejected: list[Rejected]
    errors: list[str]
    candidates: int
    passages: int
    notes: list[str] = field(default_factory=list)


# Cosine (USE-m3, query vs passage) above which a passage is about a --topic; measured on the
# sample course + three decks: off-course topics ("receita de bolo", "historia de roma") peak at
# 0.10-0.13, covered ones at 0.29-0.43. Passages that contain every content word of the topic
# count as on topic whatever their cosine ("dependências de controle" peaks at 0.14).
TOPIC_FLOOR = 0.33


def topic_relevance(embedder, topic: str, texts: Sequence[str]) -> list[tuple[bool, float]]:
    """(on topic, cosine) for each text: cosine ≥ TOPIC_FLOOR or all the topic's words in it."""
    from .checks import stems

    if not texts:
        return []
    qv = embedder.embed_queries([topic])[0]
    sims = embedder.embed_documents(list(texts)) @ qv
    want = stems(topic, min_len=3)
    return [(float(sim) >= TOPIC_FLOOR or bool(want) and want <= stems(t, min_len=3), float(sim))
            for t, sim in zip(texts, sims, strict=True)]


def choose_passages(ws, request: GenerationRequest, course_chunks: Sequence[Chunk]) -> list[Chunk]:
    """The whole course, the chunks of the chosen sources, or the passages a topic retrieves
    that are really about it (see :data:`TOPIC_FLOOR`); an off-course topic is an error."""
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
        rel = topic_relevance(ws.embedder, request.topic, [c.text for c in ranked])
        on = [c for c, (ok, _) in zip(ranked, rel, strict=True) if ok]
        if not on:
            best = max((sim for _, sim in rel), default=0.0)
            raise UsageError(f"--topic {request.topic!r}: the course does not cover it "
                             f"(closest passage similarity {best:.2f}, below {TOPIC_FLOOR})",
                             "try the words the course uses (kb search), or leave out --topic")
        chunks = on
    return chunks


def generate_quiz(ws, request: GenerationRequest, writer: QuestionWriter, title: str | None = None,
                  now: str | None = None) -> GenerationReport:
    """Write a quiz from the knowledge base. Deterministic for the offline writer."""
    import datetime as dt

    from ..outline import TOP_IDEAS
    from . import plan
    from .positions import balance_positions

    request.validate()
    all_chunks = list(ws.store.all_chunks())
    if not all_chunks:
        raise UsageError("the knowledge base is empty", "run kb ingest sources/ first")
    passages = choose_passages(ws, request, all_chunks)
    course = CourseTerms(all_chunks, ws.embedder)
    course.outlines = plan.outlines(passages, all_chunks)  # plan, then write: what each source teaches
    out = writer.write(passages, request, course)
    plan.aim(out.drafts, course.outlines)  # central ideas first, spread over the deck's sections
    if writer.name == "offline" and "short" in request.types:  # a plain question on a top idea no pattern fits
        extra, failed = plan.plain_questions(course.outlines, out.drafts, {c.id: c for c in passages}, course,
                                             TOP_IDEAS, request.lang)
        out.drafts += extra
        out.rejected += failed
    if request.topic:  # keep the topic's best passages first
        rank = {c.id: i for i, c in enumerate(passages)}
        for d in out.drafts:
            d.priority -= 0.05 * rank.get(d.chunk.id, len(rank))
    # one question per sentence among the types asked for (a short question does not keep out
    # the multiple choice of its sentence from a --types mcq,tf quiz)
    kept, dup = dedupe([d for d in out.drafts if d.question.type in request.types], ws.embedder)
    chosen, notes = select(kept, request, out.drafts)
    # an exercise read from two overlapping passages is turned down twice: say (and count) it once
    rejected = list(dict.fromkeys(out.rejected + dup))
    notes = out.notes + notes + plan.coverage(course.outlines, chosen, out.drafts, rejected, TOP_IDEAS)
    if len(chosen) < request.n:
        scope = (f"--topic {request.topic!r}" if request.topic else
                 ", ".join(request.sources) if request.sources else "the course")
        why = Counter(r.reason.split(":")[0] if r.reason.startswith("failed") else r.reason
                      for r in rejected)
        detail = "; ".join(f"{n} {reason}" for reason, n in why.most_common(3))
        notes.append(f"wrote {len(chosen)} of {request.n}: {scope} supports only {len(chosen)} "
                     f"question{'s' if len(chosen) != 1 else ''} that pass{'es' if len(chosen) == 1 else ''} "
                     f"the checks ({len(passages)} passages, {len(out.drafts)} candidates"
                     + (f"; rejected: {detail}" if detail else "") + ")")
    questions = balance_positions([d.question for d in chosen])
    info = ws.store.info
    quiz = Quiz(
        title=title or _title(request),
        questions=tuple(questions),
        created_at=now or dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat(),
        generator={"kind": "offline"} if writer.name == "offline" else {"kind": "llm", "model": writer.name},
        kb={"location": info["location"], "collection": info["collection"], "revision": info["revision"],
            "embedder": info["embedder"], "chunks": info["chunks"]},
        params={"n": request.n, "types": list(request.types), "topic": request.topic, "sources": list(request.sources),
                "difficulty": request.difficulty, "lang": request.lang},
    )
    return GenerationReport(quiz, rejected, out.errors, len(out.drafts), len(passages), notes)


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
