"""A slide's idea asked as one question about its topic, by the class of text its title is — never by quoting
the title, which a student never sees, nor by pasting its labels ("¿qué significa cada uno de estos elementos
de «El problema: la GPU espera a los datos»: Resultado; Síntoma típico; Diagnóstico?", "¿qué se entiende por
«Qué es TensorBoard»?": fresh raters fixed nearly every such stem, eval/real_heldout_r8-r10; issue 26).

The title's class gives the stem (:func:`topic_form`), in the deck language's words (``kb.lang.*``:
``QUESTION_WORDS``, ``KIND_WORDS``, ``ROLE_WORDS``, ``TOPIC_STEMS``):

- a question, or a how/why/what-is phrase ("Qué es NVIDIA DALI", "Cómo medir si compensa", "Por que escrever
  uma extensão?") → that question, set in the deck's subject unless it names something itself;
- "A vs B" → what differs between them;
- a plural noun of a kind of thing ("Limitaciones", "Peças do ecossistema", "Categorias de triplas") → which
  they are, with the title's own words and the article its noun's form asks;
- a task, opening on an infinitive or a gerund ("Medir el pico …", "Mitigando reward hacking") → how it is done;
- a name or term ("Longformer", "PartitionSpec", "Rendezvous (rdzv)") → what it is;
- any other noun phrase ("Organización de los logs") → explain it, with its article;
- a role before a colon: of one ("El problema: la sobrecarga de lanzamiento", "Intuição: janela efetiva") → what
  follows is the topic, asked as itself; of a kind of things ("Ventajas: menos memoria") → explain these: what
  follows. A label before a colon that is no role ("Mamba: SSM selectivo") fits no class.

A title that opens on a preposition or a verb ("Da energia ao carbono") fits no class: no stem (the fill
finds another idea), rather than a quoted title.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from types import ModuleType

from ..lang import (
    AND_WORDS,
    ARTICLE_WORDS,
    NO_HEAD_WORDS,
    OF_WORDS,
    PLATFORM_LABEL,
    PROCEDURE_WORDS,
    RESULT_WORDS,
    STEP_LABEL,
    TWO_WORD_QUESTIONS,
    WHAT_IS_ASKS,
    alternation,
    divider_title,
    en,
    es,
    pt,
    summary_title,
)
from ..text import fold
from .infinitive import from_gerund, infinitive
from .setting import unset

_LANGS: dict[str, ModuleType] = {"es": es, "pt": pt, "en": en}
# the languages' word lists (kb.lang: ARTICLE_WORDS, NO_HEAD_WORDS, TWO_WORD_QUESTIONS, WHAT_IS_ASKS, …)
_ARTICLE = re.compile(rf"^(?:{alternation(ARTICLE_WORDS)})\s+", re.I)
_NO_HEAD = NO_HEAD_WORDS  # words a noun phrase does not open on: prepositions and contractions ("Da energia ao …")
_TWO_WORD_QUESTIONS = TWO_WORD_QUESTIONS
_TWO_WORD_OPENERS = frozenset(q.split()[0] for q in TWO_WORD_QUESTIONS)  # ("por", "o": no question word alone)
_WHAT_IS = frozenset(fold(a) for a in WHAT_IS_ASKS)
_PROCEDURE = re.compile(rf"[:—–]\s*(?:{alternation(PROCEDURE_WORDS)})\b", re.I)
_VS = re.compile(r"\s+(?:vs\.?|versus)\s+", re.I)
_SPLIT = re.compile(r"\s*(?::|\s—\s|\s–\s)\s*")
# a title's classes of text (topic_stem), in the order they are tried; "explain" — any other noun phrase, asked
# "explica la organización de los logs" — is the weakest: a last resort (Draft.fallback), asked only to reach n
CLASSES = ("question", "role", "differ", "kind", "task", "claim", "name", "explain")
WEAK = frozenset({"explain"})
TERM_WORDS = 4  # most words of a title asked "what is it" as a name (hand-set: "Minibatch standard deviation")


def _words(lang: str) -> ModuleType:
    return _LANGS.get(lang, en)


def name_word(word: str) -> bool:
    """A word that names a thing, not a word of the language: a capital inside ("PartitionSpec", "BigBird"), an
    acronym ("DALI", "PUE"), a digit or a sign of code ("torch.utils", "load_inline", "C++")."""
    if re.search(r"\w!$", word):  # ("Hogwild!": a name's own sign)
        return True
    w = word.strip("()[]«»\"'“”,;!?¿")
    return bool(w) and (bool(re.search(r"[A-Z]", w[1:])) or bool(re.search(r"[\d_.+/<>=@#]", w))
                        or (len(w) > 1 and w.isupper()))


def _lower_first(phrase: str) -> str:
    """The phrase with its first word in lower case when it is an ordinary title-case word ("Organización de los
    logs" → "organización de los logs"; "TensorBoard en Keras", "DALI" as they are)."""
    first, _, rest = phrase.partition(" ")
    second = rest.split()[0] if rest else ""
    if name_word(first) or first[1:] != first[1:].lower() or (len(second) > 1 and second.istitle()):
        return phrase  # (a name of several words: "Tensor Cores", "Inception Score"; not "Compilação JIT …")
    return first[:1].lower() + first[1:] + (" " + rest if rest else "")


def _singular(word: str, lang: str) -> str:
    """A folded plural noun's singular, by the ending rules of ``lang`` ("limitaciones" → "limitacion",
    "vantagens" → "vantagem", "pecas" → "peca")."""
    if lang == "pt":
        for end, to in (("coes", "cao"), ("soes", "sao"), ("oes", "ao"), ("ns", "m"), ("res", "r"), ("zes", "z")):
            if word.endswith(end):
                return word[: -len(end)] + to
        return word[:-1]
    if lang == "es":
        if word.endswith("ces"):
            return word[:-3] + "z"
        if word.endswith("es") and len(word) > 4 and word[-3] in "lrndzj":
            return word[:-2]
    return word[:-1]


def plural(word: str, lang: str = "") -> bool:
    """A folded noun in the plural: an "-s" that is no singular's ("análisis", "bias", "corpus"); in Spanish no "-is"
    either ("sintaxis", "tesis", "crisis": the language's plurals end in "-s" after a vowel other than "i" or in
    "-es"), in Portuguese "-is" only after a vowel ("canais", "papéis"; "lápis", "tênis" are singular)."""
    if lang == "es" and word.endswith("is") or lang == "pt" and re.search(r"[^aeiou]is$", word):
        return False
    return word.endswith("s") and not word.endswith(("sis", "ss", "us")) and len(word) > 2


LOANWORD_ZIPF = 3.5  # below it a word in -e is no everyday word of es/pt but a loanword, masculine (hand-set:
# "pipeline" pt 2.7, "kernel" es 2.9; "variable" es 4.1, "coste" es 4.1, "interface" pt 4.1)


def gender_sure(noun: str, lang: str) -> bool:
    """Whether :func:`gender` knows a folded singular noun's gender: by its ending (-a, -o, -ma, -ción, -dade, a
    consonant), its language's lists, or as a loanword (English says it more: "pipeline", "all-reduce"); not a word
    of the language in -e ("variable", "coste") or in -i, -u ("lei", "tribu"): either gender. An article is set only
    where it is sure ("¿qué son los variables de entorno?", r11 raters; "o que são os leis de escala?", r12)."""
    w = _words(lang) if lang in ("es", "pt") else None
    if w and noun.endswith("is") and noun not in w.FEMININE and noun not in w.MASCULINE_A:
        return False  # (a Greek "-is" is of either gender, "la sintaxis", "el análisis": the language lists its own)
    if lang not in ("es", "pt") or not noun.endswith(("e", "i", "u")) or noun in _words(lang).FEMININE:
        return True  # (a consonant: "el kernel", "o callback"; a loanword in -e: "el pipeline", "o all-reduce")
    from .checks import _zipf

    # ("variable", "coste", "interface": the language's everyday words, of either gender; "pipeline" is a loanword)
    return "-" in noun or _zipf(noun, lang) < LOANWORD_ZIPF


def gender(noun: str, lang: str, after: str = "") -> str:
    """"m" or "f": the gender of a folded singular noun of ``lang`` by its ending (es: -ción, -dad, -tud, -umbre
    and -a feminine, -ma masculine; pt: -ção, -dade, -gem and -a feminine, -ma masculine), its language's short
    lists of exceptions, and for an ending that says nothing (-e, a consonant) the adjective ``after`` it
    ("Técnicas avanzadas")."""
    w = _words(lang)
    if lang not in ("es", "pt"):
        return "m"
    if noun in w.FEMININE:
        return "f"
    if noun in w.MASCULINE_A or noun.endswith("ma"):
        return "m"
    if noun.endswith(_words(lang).FEMININE_ENDS) or noun.endswith("a"):
        return "f"
    if noun.endswith("o"):
        return "m"
    adj = fold(after)
    if len(adj) > 3 and adj not in _NO_HEAD:
        if adj.endswith(("as", "a")):
            return "f"
    return "m"


def with_article(phrase: str, lang: str, sure: bool = False) -> str:
    """A noun phrase as a sentence says it: lower-cased and with the article its first noun's form asks ("Limitaciones"
    → "las limitaciones", "Peças do ecossistema" → "as peças do ecossistema", "Organización de los logs" → "la
    organización de los logs"); as it is when it opens on an article already or on a name ("TensorBoard en Keras");
    with ``sure``, "" where the first noun's gender is no sure one (:func:`gender_sure`)."""
    first, *rest = phrase.split()
    if _ARTICLE.match(phrase) or name_word(first):
        return _lower_first(phrase)
    head = fold(first).rstrip(",;")  # ("Muestreo, temperatura y latente": the noun, not its comma)
    arts = _words(lang).ARTICLES
    if head in _words(lang).NUMERALS and rest:  # ("Quatro modelos na memória" → "os quatro modelos …")
        first, *rest = rest
        head = fold(first).rstrip(",;")
    if len(rest) == 1 and lang in ("es", "pt") and _english_word(first, lang) and _english_plural(rest[0], lang):
        # (an English compound takes its last word's number: "os bank conflicts"; "exposure bias" is one bias)
        return f"{arts['mp']} {_lower_first(phrase)}"
    many = plural(head, lang)
    noun = _singular(head, lang) if many else head
    if sure and not (gender_sure(noun, lang) and (not many or gender_sure(head[:-1], lang)
                                                  or noun.endswith(_words(lang).FEMININE_ENDS))):
        return ""  # (with ``sure``: no article its ending does not say; "" for the caller to ask without one)
    g = gender(noun, lang, rest[0] if rest else "")
    return f"{arts[g + ('p' if many else '')]} {_lower_first(phrase)}"


def _question(title: str, lang: str) -> str:
    """A title that is a question or a how/why/what phrase, as that question without its marks ("¿Qué ocupa memoria
    al entrenar?" → "qué ocupa memoria al entrenar"); "" for any other title."""
    title = _SPLIT.split(title.strip(), maxsplit=1)[0]  # ("Cuánta CPU hace falta: una cuenta rápida")
    bare = title.strip().lstrip("¿").rstrip("?").strip()
    ws = fold(bare).split()
    asked = title.strip().endswith("?") or title.strip().startswith("¿")
    words = _words(lang)
    opens = bool(ws) and (" ".join(ws[:2]) in _TWO_WORD_QUESTIONS
                          or (ws[0] in words.QUESTION_WORDS and ws[0] not in _TWO_WORD_OPENERS))
    if not (asked or opens) or len(ws) < 2:
        return ""
    return bare if name_word(bare.split()[0]) else bare[:1].lower() + bare[1:]  # (a question word: no name)


def _topic_part(title: str, lang: str, term: Callable[[str], bool]) -> tuple[str, str]:
    """The part of a title that names its topic, and a role it gives it ("El problema: la GPU espera a los datos" →
    ("la GPU espera a los datos", "El problema"); "WGAN-GP: gradient penalty" → ("WGAN-GP", ""); "Técnicas: fazer o
    trabalho com mais eficiência" → ("Técnicas para fazer o trabalho com mais eficiência", ""))."""
    parts = _SPLIT.split(title.strip(), maxsplit=1)
    if len(parts) < 2 or not parts[1]:
        return title.strip(), ""
    left, right = parts
    words = _words(lang)
    head = fold(_ARTICLE.sub("", left)).split()
    kind = fold(_ARTICLE.sub("", right)).split()
    if PLATFORM_LABEL.fullmatch(left.strip()) and not right.startswith(":"):  # (not C++'s "cuda::pipeline")
        # a language or framework the topic is set in ("PyTorch: pin_memory e non_blocking"); a facet, a role, a
        # kind of slide or a question after it names no topic of its own ("PyTorch: introducción", "Keras: código")
        plain = not (kind and kind[0] in words.SLIDE_KINDS | words.FACET_WORDS | _FACET_TAILS | words.ROLE_WORDS
                     | set(words.DISCOURSE)) and "?" not in right
        return (right, "") if plain else ("", "")
    if STEP_LABEL.fullmatch(left.strip()):
        return right, ""  # a step's number: what follows it is the step ("Passo 3: inverted bottleneck")
    if kind and kind[0] in words.SLIDE_KINDS | words.FACET_WORDS | _FACET_TAILS and len(kind) <= 2:
        return left, ""  # a facet of the left's topic ("Coste de memoria: la fórmula", "Variables de entorno:
        # diagnóstico"), never "explica este coste de memoria: la fórmula" (r11 raters)
    if head and head[0] in words.ROLE_WORDS | set(words.DISCOURSE):
        if head[0] not in words.KIND_WORDS:
            # a role of one ("El problema: la sobrecarga de lanzamiento", "Intuição: janela efetiva"): what follows
            # is the topic, asked as itself — "explica este problema: …", "esta intuição: …" were fixed by every
            # rater who saw one (14 of 14, r8-r11: "¿qué es la sobrecarga de lanzamiento …?")
            return right, ""
        return right, left
    if divider_title(left) or summary_title(left) or " ".join(head) in words.SLIDE_KINDS | words.SLIDE_KIND_PHRASES:
        return right, ""  # ("Repaso: attention", "Recapitulação: o modelo SIMT", "Estudo de caso: redução paralela")
    rw = right.split()
    if len(head) == 1 and head[0] in words.KIND_WORDS and rw and infinitive(rw[0], lang, rw[1] if len(rw) > 1 else ""):
        return words.TOPIC_STEMS["kind_for"].format(kind=left, rest=_lower_first(right)), ""
    if kind and kind[0] in words.SLIDE_KINDS | words.FACET_WORDS or _question(right, lang) or term(left) or any(
            name_word(w) for w in left.split()):
        return left, ""  # ("Atención dispersa: idea general", "Tensor Cores: como aproveitá-los", "WGAN-GP: …")
    sides = _VS.split(right)
    if 2 <= len(sides) <= COMPARE_SIDES and all(0 < len(x.split()) <= TERM_WORDS for x in sides):
        return right, ""  # a comparison after its label ("Comparación: Bahdanau vs Luong"): what differs
    if 1 <= len(head) <= 2 and not (len(head) == 2 and head[1] in _NO_HEAD):
        # a slide's label for what follows that is no role word ("Mamba: SSM selectivo", "Revisão rápida:
        # anatomia de um float"): no class is sure of it ("explica esta mamba: …", r11 raters), no stem; but the
        # names it introduces are asked what they are ("Métricas: IoU e Dice", "Alternativa: LambdaLR")
        return (right, "") if _names(right) and head[0] not in ("codigo", "code") else ("", "")  # (a code slide:
        # the names its code uses, asked from code, kb/writing/pattern_code.py)
    return left, ""


# a compared side that is one Portuguese or Spanish adjective ("estática", "epistêmica", "federada", "sequencial"): the
# noun it qualifies is the label before the title's colon ("Declaração: estática vs dinâmica" → "declaração estática e
# declaração dinâmica"); a side that names no thing of its own ("outras arquiteturas", "alternativas")
_ADJECTIVE = re.compile(r"[a-záéíóúâêôãõçñ]+(?:ic[oa]s?|al|ales|ais|[ai]d[oa]s?|iv[oa]s?|[aáoó]ri[oa]s?|ente|ante"
                        r"|[áa]vel|[íi]vel|able|ible)")
_OTHERS = re.compile(r"(?:outr[oa]s?|otr[oa]s?|others?|demais|alternativas|alternatives|resto|rest)\b")
COMPARE_SIDES = 3  # most sides a comparison after a title's label is asked with ("Comparación: ViT vs Swin vs CNN";
# a title that is the comparison alone, "RTN vs GPTQ vs AWQ vs SmoothQuant", is asked as before, of any number;
# hand-set: four sides, "RTN vs GPTQ vs AWQ vs SmoothQuant", ask a table, not a difference)
FROM_TO_WORDS = 8  # most words of a title read as going from one thing to another (hand-set: "De las CNN a los
# transformers para imágenes" has 8)


def _from_to(title: str, lang: str) -> str:
    """A title that goes from one thing to another ("Do FLOP ao tempo", "Del plan a la ejecución", "De SGD para
    DP-SGD"), as the stem asks it ("do FLOP ao tempo"); "" for any other (one with a colon: "Do tempo à frequência:
    STFT" is asked by its class after the colon)."""
    opening, joining = getattr(_words(lang), "FROM_TO", (frozenset(), frozenset()))
    ws = [fold(w) for w in title.split()]
    if ":" in title or not 4 <= len(ws) <= FROM_TO_WORDS or ws[0] not in opening:
        return ""
    return _lower_first(title) if any(w in joining for w in ws[2:-1]) else ""


def _asked_as_it_goes(title: str, lang: str) -> tuple[str, str] | None:
    """A title asked as it reads: a question ("Qué es NVIDIA DALI") as that question, one going from one thing to
    another ("Do FLOP ao tempo") as how one leads to the other ("como se passa do FLOP ao tempo?"), one that shows
    its topic as code or in use ("CutMix en código") as how it is implemented or applied (:func:`_demo`)."""
    if asked := _title_question(title, lang):
        return "question", asked
    if going := _from_to(title, lang):
        return "task", _words(lang).TOPIC_STEMS["from_to"].replace("{np}", going)
    return _demo(title, lang)


def topic_form(title: str, lang: str, kind: str, term: Callable[[str], bool]) -> str:
    """The stem of :func:`topic_stem`, "" when the title fits no class."""
    return topic_stem(title, lang, kind, term)[1]


def topic_stems(title: str, lang: str, kind: str, term: Callable[[str], bool]) -> list[tuple[str, str]]:
    """:func:`topic_stem`'s (class, stem), and after a name's "what is it" the noun phrase explained (the weakest
    class): the first that passes the checks is asked ("¿qué es el warmup lineal?" fails ``garbled-term`` where a
    course takes "lineal" for a verb); [] when the title fits no class."""
    cls, stem = topic_stem(title, lang, kind, term)
    if not stem:
        return []
    out = [(cls, stem)]
    phrase = _topic_part(title.strip(), lang, term)[0]
    if cls == "name" and kind != "procedure" and not _name(phrase, lang) and not name_word(phrase.split()[0]) \
            and not _area(title.strip(), phrase, lang) and (explained := _explain(phrase, lang, kind)):
        out.append(("explain", explained))
    return out


def topic_stem(title: str, lang: str, kind: str, term: Callable[[str], bool]) -> tuple[str, str]:
    """The stem a slide's idea is asked by, from its title's class of text (module doc), with ``{s}`` where the
    deck's subject goes ("En {s}, ¿cuáles son las limitaciones?"); no ``{s}`` where the title names a thing of its
    own and is asked as it is ("¿Qué es NVIDIA DALI?"). ``kind`` is the idea's ("list", "procedure", "title");
    ``term`` tells a name a student learns ("PartitionSpec", "Reward hacking"; :func:`kb.writing.plan.asked_as_term`).
    With it, the title's class (:data:`CLASSES`); ("", "") when the title fits no class."""
    words = _words(lang)
    stems = words.TOPIC_STEMS
    title = title.replace("{", "(").replace("}", ")").strip()
    if early := _asked_as_it_goes(title, lang):
        return early
    if _PROCEDURE.search(title):  # ("Ring all-reduce: procedimiento con N = 4": its steps, not what it is)
        kind = "procedure"
    phrase, role = _topic_part(title, lang, term)
    if not phrase or RESULT_WORDS & {fold(w) for w in re.findall(r"[^\W\d_]+", phrase)}:
        # (a slide of results is figures to recall, no topic: "explique os resultados principais", rounds 25-31:
        # KEEP 1, FIX 41, DROP 6 of 48 ratings)
        return "", ""
    if role:
        return _role_stem(role, phrase, lang)
    if asked_or_compared := _asked_after_label(title, phrase, lang) or _compared(title, phrase, lang):
        return asked_or_compared
    ws = phrase.split()
    head = fold(ws[0])
    after = ws[1] if len(ws) > 1 else ""
    second = fold(ws[1]) if len(ws) > 1 else ""  # ("Otras técnicas …"; English: "Common mistakes")
    if head in words.KIND_WORDS or second in words.KIND_WORDS and (head in words.FILLER_WORDS or lang == "en"):
        np = with_article(phrase, lang, sure=True)
        return ("kind", stems["which_are"].replace("{np}", np)) if np else ("", "")
    task = _task(ws, lang)
    if task:
        return "task", stems["steps_to" if kind == "procedure" else "how"].replace("{np}", task)
    if head in _NO_HEAD or head in words.VERBS or (infinitive(ws[0], lang, after) and len(ws) == 1):
        return "", ""  # ("Da energia ao carbono", "Permite …": no noun phrase to ask of)
    if _claim(ws, lang):  # ("FlashAttention no es atención aproximada")
        return "claim", stems["why"].replace("{np}", _lower_first(phrase))
    if len(ws) <= TERM_WORDS and (term(phrase) and not _native(ws, lang) or _name(phrase, lang)) \
            and not set(map(fold, ws)) & AND_WORDS:
        return "name", _what_is(phrase, lang, kind)
    stem = _explained(title, phrase, lang, kind)
    return ("explain", stem) if stem else ("", "")


# (folded) what a name's facet after a colon says, beside the languages' FACET_WORDS, read only here ("Radix sort:
# detalles prácticos", "Broadcasting: las reglas"): the shared lists also name concept titles elsewhere ("Reglas de …")
_FACET_TAILS = frozenset(("detalles", "detalhes", "details", "reglas", "regras", "rules", "nociones", "nocoes"))
_EXAMPLE_WORDS = frozenset(("ejemplo", "ejemplos", "exemplo", "exemplos", "example", "examples", "caso", "casos"))


def _asked_after_label(title: str, phrase: str, lang: str) -> tuple[str, str] | None:
    """A question after a title's label: what to do in an area ("Desempenho: o que comparar" → "o que comparar no
    desempenho"); a topic with a question mark after a role's label, the slide's question ("Motivação: porquê outra
    célula com portas?", "Repaso: ¿qué es el KV cache?"), never a noun phrase to explain ("explique o que é porquê
    …?."); an example's question ("Exemplo numérico: quanto se poupa?") needs the example's figures, and a question
    inside a title ("A CPU é o gargalo? Diagnóstico") is no topic: ("", ""). None for a topic that asks nothing."""
    if "?" not in phrase:
        asked = _area_question(title, phrase, lang) if _area(title, phrase, lang) else ""
        return ("question", _words(lang).TOPIC_STEMS["question"].replace("{q}", asked)) if asked else None
    left = _SPLIT.split(title, maxsplit=1)[0]
    label = _role_label(title, lang)
    whole = phrase != title and phrase.rstrip().endswith("?") and bool(
        label and label not in _EXAMPLE_WORDS or divider_title(left) or summary_title(left))
    asked = _question(phrase, lang) if whole else ""
    return ("question", _words(lang).TOPIC_STEMS["question"].replace("{q}", asked)) if asked else ("", "")


def _compared(title: str, phrase: str, lang: str) -> tuple[str, str] | None:
    """A topic comparing short sides ("GRU vs LSTM", "Comparación: Bahdanau vs Luong") asked what differs between
    them, one-adjective sides with the label's noun ("Incerteza: aleatória vs epistêmica" → "incerteza aleatória e
    incerteza epistêmica"); ("", "") where a side names no thing ("U-Net vs outras arquiteturas"); None for a topic
    that compares nothing."""
    sides = _VS.split(phrase)
    if len(sides) < 2 or not all(0 < len(x.split()) <= TERM_WORDS for x in sides):
        return None
    if any(_OTHERS.match(fold(x)) for x in sides):
        return "", ""
    label = _SPLIT.split(title, maxsplit=1)[0] if phrase != title else ""
    words = _words(lang)
    slide_word = fold(label) in words.FACET_WORDS | words.KIND_WORDS | words.ROLE_WORDS | words.SLIDE_KINDS
    if label and not slide_word and all(_ADJECTIVE.fullmatch(x.lower()) for x in sides):
        sides = [f"{_lower_first(label)} {x}" for x in sides]  # ("Comparación: local vs global": no noun of its own)
    return "differ", words.TOPIC_STEMS["differ"].replace("{np}", ", ".join(sides[:-1]) + words.AND + sides[-1])


def _role_label(title: str, lang: str) -> str:
    """The role's label a title opens on before its colon, folded ("Motivação:" → "motivacao", "Problema:", "Idea
    clave:"), "" for any other title: what follows the colon is the slide's own topic, and where it asks a question
    ("…?"), the question the slide answers (asked as :func:`_title_question` asks a title's question)."""
    parts = _SPLIT.split(title.strip(), maxsplit=1)
    head = fold(_ARTICLE.sub("", parts[0])).split() if len(parts) == 2 else []
    words = _words(lang)
    return head[0] if head and head[0] in words.ROLE_WORDS | set(words.DISCOURSE) else ""


def _demo(title: str, lang: str) -> tuple[str, str] | None:
    """A title that shows its topic as code or in use ("CutMix en código", "WordPiece na prática", the language's
    ``DEMO_TAILS``): asked how the topic is implemented or applied ("¿cómo se implementa CutMix?"), not what
    "CutMix en código" is (rounds 8-22: such stems kept in 10 % of 87 ratings, dropped in 9 %; 31 % and 3 % for
    the other short questions); None for any other title, and for a topic that names nothing ("Ejemplo en código":
    :func:`kb.writing.checks.generic_title`). A plural topic takes the verb's plural ("¿cómo se implementan los
    callbacks?")."""
    from .checks import generic_title

    words = _words(lang)
    folded = fold(title)
    for cls, tails in words.DEMO_TAILS.items():
        tail = next((t for t in tails if folded.endswith(" " + fold(t))), None)
        topic = title[: len(title) - len(tail) - 1].strip(" :—–-") if tail else ""
        if not topic or fold(topic.split()[0]) in _NO_HEAD or generic_title(topic):
            continue
        name = topic if name_word(topic.split()[0]) else \
            with_article(topic, lang, sure=True) if lang in ("es", "pt") else _lower_first(topic)
        if name:
            many = name.split()[0] in (words.ARTICLES["mp"], words.ARTICLES["fp"]) and lang in ("es", "pt")
            return "task", words.TOPIC_STEMS.get(f"{cls}_many" if many else cls, words.TOPIC_STEMS[cls]) \
                .replace("{np}", name)
    return None


def _explained(title: str, phrase: str, lang: str, kind: str) -> str:
    """The weakest class: the title's noun phrase explained. An area of work, no term ("explica la monitorización",
    "explique o desempenho") only where its article is sure — r11-r12 raters rewrote such stems (usable after an
    edit), and asking nothing cost round 13 two decks their 12 (19 -> 17 of 20 with >= 10; the questions lost were
    all FIX); never "explica qué es coste de memoria" (r12 raters: ungrammatical), nor a closing summary ("explica el
    resumen", "explique a recapitulação": the slide's kind, no topic)."""
    if summary_title(phrase):
        return ""
    if kind != "procedure" and _area(title, phrase, lang):
        np = with_article(phrase, lang, sure=True)
        return _words(lang).TOPIC_STEMS["explain"].replace("{np}", np) if np else ""
    return _explain(phrase, lang, kind)


def _explain(phrase: str, lang: str, kind: str) -> str:
    """A noun phrase asked to be explained, with its article where its gender is sure ("explica la organización de
    los logs"), else as what it is ("explica qué son variables de entorno"); "" for a phrase that is no noun phrase:
    a comma, or an article inside it after no preposition ("Duas ferramentas, dois níveis", "Lendo o Speed Of
    Light": "explique o duas ferramentas …", r11 raters)."""
    ws = phrase.split()
    if "," in phrase or any(_ARTICLE.match(w + " ") and fold(ws[i]) not in _NO_HEAD for i, w in enumerate(ws[1:-1])):
        return ""
    if fold(ws[0]) in _words(lang).SLIDE_KINDS:
        return ""  # ("explica el ejemplo numérico": which example? not self-contained, r11 raters)
    stems = _words(lang).TOPIC_STEMS
    np = with_article(phrase, lang, sure=True)
    if np:
        return stems["steps" if kind == "procedure" else "explain"].replace("{np}", np)
    many = plural(fold(ws[0]), lang)
    return stems["explain_what_many" if many else "explain_what"].replace("{np}", _lower_first(phrase))


def generic_area(phrase: str, lang: str) -> bool:
    """A noun phrase that names an area of work, not a term: one noun, nouns joined by "y"/"e", or a noun "de" a noun,
    every one an everyday word of the deck's language ``lang`` (said by its text more than by English,
    :func:`_native`) and no name but one every deck writes ("GPUs"): "la monitorización", "o desempenho", "o
    vocabulário", "la depuración y herramientas", "el orden de ejecución", "la memória do treino". Fresh raters
    rewrote each such "explica …" into a question that names the content (rounds 11-12: "¿Cómo se monitoriza …?").
    A noun with its adjective or clause ("el entrenamiento distribuido", "os nós que entram e saem"), a count ("os
    quatro modelos na memória") or a term ("el bloque Mamba", "las fugas de memoria con hooks") is asked."""
    from .setting import GENERIC_NAMES

    every = re.findall(r"[\w./+-]+", phrase)
    folded = [fold(w) for w in every]
    ws = [w for w, f in zip(every, folded, strict=True) if f not in _NO_HEAD and not _ARTICLE.match(w + " ")
          and f not in _AND_WORDS]
    # (one plural noun names the things a slide lists, "Restricciones", "Escalares": explained, as a kind's are)
    shaped = len(ws) == 1 and not plural(fold(ws[0]), lang) or bool(set(folded) & _AND_WORDS) \
        or len(ws) == 2 and bool(set(folded) & _OF_WORDS)
    return shaped and "que" not in folded and lang in ("es", "pt") and all(
        w.strip("()") in GENERIC_NAMES or not name_word(w) and _native([w], lang) for w in ws)


_AND_WORDS = frozenset((es.AND.strip(), pt.AND.strip()))  # "y", "e" (read in Spanish and Portuguese titles only)
_OF_WORDS = OF_WORDS


def _area(title: str, phrase: str, lang: str) -> bool:
    """The title's own topic (before any colon) is a :func:`generic_area`; a topic after a role ("El problema: la
    sobrecarga de lanzamiento") is what the role says it is, asked as itself."""
    return _SPLIT.split(title.strip(), maxsplit=1)[0].strip() == phrase and generic_area(phrase, lang)


def _role_stem(role: str, phrase: str, lang: str) -> tuple[str, str]:
    """A role of a kind of things before a colon, asked with its demonstrative ("Ventajas: menos memoria" → "explica
    estas ventajas: menos memoria"); ("", "") where the role's gender is not sure ("este coste")."""
    words = _words(lang)
    r = fold(_ARTICLE.sub("", role)).split()
    many = plural(r[0], lang)
    noun = _singular(r[0], lang) if many else r[0]
    if not gender_sure(noun, lang):
        return "", ""  # ("este coste": a demonstrative its ending does not say; no class is sure)
    g = gender(noun, lang, r[1] if len(r) > 1 else "")
    this = words.ARTICLES["this_" + g + ("p" if many else "")]
    np = _lower_first(_ARTICLE.sub("", role))
    return "role", words.TOPIC_STEMS["explain_this"].format(s="{s}", this=this, np=np, rest=phrase)


def _title_question(title: str, lang: str) -> str:
    """The stem of a title that is a question, set in the deck's subject unless it asks what a named thing is ("¿Qué
    es NVIDIA DALI?"; "¿cuánta CPU hace falta?" is set); "" for any other title."""
    q = _question(title, lang)
    if not q:
        return ""
    stem = _words(lang).TOPIC_STEMS["question"].replace("{q}", q)
    what_is = " ".join(fold(q).split()[:3]) in _WHAT_IS or " ".join(fold(q).split()[:2]) in _WHAT_IS
    return unset(stem) if what_is and any(name_word(w) for w in q.split()) else stem


def _area_question(title: str, area: str, lang: str) -> str:
    """The question a title asks of an area after its colon, with the area it is asked in ("Desempenho: o que
    comparar" → "o que comparar no desempenho"); "" where the part after the colon is no question of what to do
    (a question word and an infinitive) or the area's article is not sure."""
    parts = _SPLIT.split(title.strip(), maxsplit=1)
    q = _question(parts[1], lang) if len(parts) == 2 and parts[0].strip() == area else ""
    ws = q.split()
    verb = ws[2] if len(ws) > 2 and " ".join(map(fold, ws[:2])) in _TWO_WORD_QUESTIONS else ws[1] if len(ws) > 1 else ""
    if not re.fullmatch(r"[a-záéíóúâêôç]{2,}(?:ar|er|ir)", verb.lower()):  # (after a question word: a verb's form
        return ""  # is a verb, "qué registrar"; "por qué crece tanto" asks of the area itself, no "en")
    np = with_article(area, lang, sure=True) if q else ""
    art, _, rest = np.partition(" ")
    into = _words(lang).IN_ARTICLES
    return f"{q} {into[art]} {rest}" if np and art in into else ""


def _what_is(phrase: str, lang: str, kind: str) -> str:
    """A name or term asked what it is ("¿qué es Longformer?", "o que são os deep ensembles?"), or its steps."""
    words = _words(lang)
    stems = words.TOPIC_STEMS
    ws = phrase.split()
    head = fold(ws[0])
    named = _name(phrase, lang) or name_word(ws[0]) or (len(ws) > 1 and len(ws[1]) > 1 and ws[1].istitle())
    sure = with_article(phrase, lang, sure=True) if lang in ("es", "pt") else ""
    name = phrase if named else sure or _lower_first(phrase)
    if kind == "procedure":
        return stems["steps"].replace("{np}", name)
    last = fold(ws[-1])
    # ("Deep ensembles", "CUDA events"; not "Consistência entre frames", "Engenharia de prompts": a phrase joined by a
    # preposition has its head first, and its number)
    english = len(ws) > 1 and _english_word(ws[-1], lang) and not any(fold(w) in _NO_HEAD for w in ws[1:-1])
    last_many = plural(last, lang) and not name_word(ws[-1]) and (english or named and len(ws) > 1)
    many = lang in ("es", "pt") and (last_many or not named and plural(head, lang))  # ("Tensor Cores", "Operaciones …")
    if last_many and not named:  # (an English compound: its number is its last word's)
        name = f"{words.ARTICLES['mp']} {_lower_first(phrase)}"
    return stems["what_are" if many else "what_is"].replace("{np}", name)


def _claim(ws: list[str], lang: str) -> bool:
    """A title that states something, a verb of ``lang`` after its first word not opening a relative clause
    ("FlashAttention no es atención aproximada"; not "Nós que entram e saem")."""
    words = _words(lang)
    verbs = words.VERBS | words.COPULAS
    return any(fold(w) in verbs and fold(ws[i]) != "que" for i, w in enumerate(ws[1:]))


def _native(ws: list[str], lang: str) -> bool:
    """One word of ``lang``'s own (its text says it more than English does: "Depuração", "Escalares"): a term a
    deck repeats, but no name to ask what it is ("¿qué es la depuración?" of a slide on how to debug)."""
    from .checks import _zipf

    return lang in ("es", "pt") and len(ws) == 1 and not name_word(ws[0]) and _zipf(ws[0], lang) > _zipf(ws[0], "en")


def _english_plural(word: str, lang: str) -> bool:
    """An English plural noun: its singular ("conflicts" → "conflict", "heads" → "head") is an English word; "bias",
    "status" have none ("bia")."""
    from .checks import _zipf

    w = fold(word).rstrip(",;:.")
    return w.endswith("s") and not w.endswith("ss") and _english_word(word, lang) \
        and _zipf(w[:-1], "en") >= _ENGLISH_WORD


_ENGLISH_WORD = 3.0  # a singular's Zipf frequency in English to count as a word (hand-set: "bia" 2.8, "embedding" 3.0)


def _english_word(word: str, lang: str) -> bool:
    """English text says ``word`` more than ``lang``'s does ("ensembles", "events")."""
    from .checks import _zipf

    return _zipf(word, "en") > _zipf(word, lang)


def _name(phrase: str, lang: str) -> bool:
    """One word, a gloss in brackets aside, that names a thing: a :func:`name_word` or a word no everyday text of
    ``lang`` nor of English says ("Longformer", "Rendezvous (rdzv)", "codecarbon"; not "Depuração", "Recursos": an
    accented word is the deck language's, nor "Escalares", "Jacobianas": a plural of its form)."""
    from .checks import everyday_word

    ws = re.sub(r"\s*\([^)]*\)", "", phrase).split()
    many = len(ws) == 1 and lang in ("es", "pt") and plural(fold(ws[0]), lang)
    return len(ws) == 1 and (name_word(ws[0]) or ws[0].isascii() and not many
                             and not (everyday_word(ws[0], lang) or everyday_word(ws[0], "en")))


def _names(phrase: str) -> list[str]:
    """The names a phrase lists and nothing else ("IoU e Dice", "APS y RAPS", "ACC (anomaly correlation coefficient)",
    "ReduceLROnPlateau"): at most three items, joined by a comma, "y", "e" or "and" (an "or" offers a choice: "CNN ou
    ViT" is no list to explain), each of one to three words that are all :func:`name_word` s (a gloss in brackets
    aside); [] for a phrase with a word of the language in an item ("residuos y CQR", "imagem e texto", "Inception
    Score") or a sign alone ("LR -> HR")."""
    items = [x.strip() for x in re.split(r",|\s+(?:y|e|and)\s+", re.sub(r"\s*\([^)]*\)", "", phrase)) if x.strip()]
    if not items or len(items) > COMPARE_SIDES:
        return []
    return items if all(len(x.split()) <= 3 and all(name_word(w) and re.search(r"[A-Za-z0-9]", w) for w in x.split())
                        for x in items) else []


def _task(ws: list[str], lang: str) -> str:
    """A title that names a task, as it reads after "¿cómo se puede …?": opening on an infinitive ("Medir el pico
    de un paso" → "medir el pico de un paso") or a gerund ("Mitigando reward hacking" → "mitigar reward hacking");
    "" for any other (and a lone verb: "Depurar" names no task to ask of)."""
    if len(ws) < 2 or fold(ws[1]) in _OF_WORDS or name_word(ws[0]):
        return ""  # (an acronym is no verb: "CER e WER" is no task "cer e WER")
    first = ws[0]
    verbs = ("ar", "er", "ir")
    if infinitive(first, lang, ws[1]) or (lang in ("es", "pt") and len(ws) > 2 and fold(ws[1]) in _AND_WORDS
                                          and fold(first)[-2:] in verbs and fold(ws[2])[-2:] in verbs):
        return " ".join([first.lower(), *ws[1:]])  # ("Leer y registrar el lr": two tasks)
    verb = from_gerund(first, lang)
    return " ".join([verb, *ws[1:]]) if verb else ""

