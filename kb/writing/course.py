"""Term statistics over a whole course (:class:`CourseTerms`): how rare a word is, which phrases are the
course's own terms, the key concepts of a text; and the word lists and patterns they are read with."""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from typing import TYPE_CHECKING, Sequence

from ..records import Chunk
from ..text import STOPWORDS, fold, words

if TYPE_CHECKING:
    from ..outline import Outline
    from .wording import Entity

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
