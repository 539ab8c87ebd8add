"""Per-language wording: the offline writer's question templates in Spanish (``es``), Portuguese
(``pt``) and English (``en``), the words of a deck's divider titles and the verbs a slide writes.
Stdlib only; a new language is a new module with the same names."""

from __future__ import annotations

import re
import unicodedata

from . import en, es, pt

DIVIDER_WORDS = es.DIVIDER_WORDS | pt.DIVIDER_WORDS | en.DIVIDER_WORDS
FILLER_WORDS = es.FILLER_WORDS | pt.FILLER_WORDS | en.FILLER_WORDS
FACET_WORDS = es.FACET_WORDS | pt.FACET_WORDS | en.FACET_WORDS
SUMMARY_WORDS = es.SUMMARY_WORDS | pt.SUMMARY_WORDS | en.SUMMARY_WORDS
RESULT_WORDS = es.RESULT_WORDS | pt.RESULT_WORDS | en.RESULT_WORDS
ERROR_TITLES = es.ERROR_TITLES | pt.ERROR_TITLES | en.ERROR_TITLES
_SMALL = frozenset("a al de del do da dos das e y o os as el la los las en em no na y and of the to for to".split())


def _fold(word: str) -> str:
    return "".join(ch for ch in unicodedata.normalize("NFKD", word.lower()) if not unicodedata.combining(ch))


def _folded(ws: frozenset[str]) -> frozenset[str]:
    return frozenset(_fold(w) for w in ws)


def divider_title(title: str) -> bool:
    """A title that divides or administers a deck ("Introducción", "Agenda", "Índice", "Otras
    herramientas", "Introducción al curso", "Preguntas y respuestas", "3. Resumen"): at least one
    divider word, and besides it only filler, small words and numbers. "Introducción a TensorFlow"
    names a subject: it is no divider."""
    ws = [_fold(w) for w in re.findall(r"[^\W\d_]+(?:-[^\W\d_]+)?", title)]
    ws = [w for w in ws if w not in _SMALL]
    if not ws:
        return False
    divider = [w in DIVIDER_WORDS for w in ws]
    if any(divider) and all(d or w in FILLER_WORDS for w, d in zip(ws, divider, strict=True)):
        return True
    # "Otras herramientas", "Outras ferramentas", "Other tools": a catch-all of what the deck did not teach
    return len(ws) <= 3 and ws[0] in ("otras", "otros", "outras", "outros", "other", "more", "mas", "mais") \
        and all(w in FILLER_WORDS for w in ws)


# a language, a general framework or an API as a slide's label before a colon ("PyTorch: pin_memory e non_blocking",
# "API de Python: construir un engine", "Python: torch.cuda.nvtx"): where the slide's topic, after the colon, is set,
# never the topic ("o que é PyTorch?", "¿qué es API de Python?": 0 of 12 ratings kept, 6 dropped, rounds 13-29)
PLATFORM_LABEL = re.compile(r"(?i)(?:api\s+(?:(?:de|em|en|in|for)\s+)?)?(?:python|c|c\+\+|c/c\+\+|cuda(?:\s+c\+\+)?"
                            r"|pytorch|torch|tensorflow|keras|jax|numpy)")  # (no "API de entrenamiento", "API Gateway")

# a step's number as a label ("Passo 3", "Paso 1", "Etapa 2", "Step 4"): the order a deck gives, never a topic of its
# own ("explique o passo 3", "O que é o passo 3?": 18 of 18 ratings FIX, rounds 26-31; what follows it is the step)
STEP_LABEL = re.compile(r"(?:(?:el|la|o|a|the)\s+)?(?:passo|paso|etapa|fase|step|stage|phase)\s+\d+[a-z]?", re.I)

VERBS = _folded(es.VERBS | pt.VERBS | en.VERBS)  # folded: "contem", "evalua"
# what a concept phrase of a model answer may not open or end on, per language (kb.writing.concept_faults)
PHRASE_OPENERS = {"es": es.PHRASE_OPENERS, "pt": pt.PHRASE_OPENERS, "en": en.PHRASE_OPENERS}
PRONOUN_ENDS = {"es": es.PRONOUN_ENDS, "pt": pt.PRONOUN_ENDS, "en": en.PRONOUN_ENDS}
REFERRING = {"es": es.REFERRING, "pt": pt.REFERRING, "en": en.REFERRING}
OBJECT_VERBS = {"es": es.OBJECT_VERBS, "pt": pt.OBJECT_VERBS, "en": en.OBJECT_VERBS}
EXAMPLE_MARKS = es.EXAMPLE_MARKS + pt.EXAMPLE_MARKS + en.EXAMPLE_MARKS


# two-word names of a closing summary slide (folded, hyphens as spaces), beside each language's SUMMARY_WORDS
_SUMMARY_PHRASES = frozenset(("puntos clave", "pontos chave", "key takeaways", "key points"))


def mistakes_title(title: str) -> bool:
    """The title of a slide of common mistakes, in any of the three languages: a mistakes title alone ("Errores
    comunes", "Erros comuns") or opening a longer one ("Errores comunes y limitaciones", "Erros comuns e armadilhas",
    "Errores frecuentes al implementar": 8 of rounds 25-28's decks titled their mistakes slide so, and none of their
    mistakes was asked). Not one that ends on it ("Boas práticas e erros comuns", "Depuração e erros comuns",
    "Limitações e armadilhas comuns": 6 of the held-out decks, each a slide of practices or limits with a few
    mistakes, whose bullets the pattern would call mistakes). The one test the outline and the mistakes pattern use."""
    t = _fold(title.strip()).rstrip(":. ")
    if t in ERROR_TITLES:
        return True
    joined = r"(?:y|e|and|al|ao|a|en|em|in|when|de|do|da|del|of)"
    return any(re.match(rf"{re.escape(x)} {joined} \w", t) for x in ERROR_TITLES)


def summary_title(title: str) -> bool:
    """The title of a deck's closing summary slide, in any of the three languages: a summary word or phrase
    ("Resumen", "Resumo", "Conclusiones", "Puntos clave", "Key takeaways") alone, before "y/e/and …" ("Resumo e
    conselhos práticos"), or with only a divider's words besides ("3. Resumen"); not "Resumen de gradientes" (a
    subject). The one test the outline (its key ideas) and kb ask (a summary restates, another slide explains) use."""
    ws = [_fold(w) for w in re.findall(r"[^\W\d_]+", title)]
    if not ws:
        return False
    n = 2 if " ".join(ws[:2]) in _SUMMARY_PHRASES else 1 if ws[0] in SUMMARY_WORDS else 0
    return bool(n) and (len(ws) == n or ws[n] in ("y", "e", "and") or divider_title(title))


# The words the writer reads titles and stems by, in any of the three languages (kb.writing.pattern_topic,
# kb.writing.stem_forms; each language's lists in its module, under the same names)
ARTICLE_WORDS = es.ARTICLE_WORDS | pt.ARTICLE_WORDS | en.ARTICLE_WORDS
NEUTER_ARTICLES = es.NEUTER_ARTICLES | pt.NEUTER_ARTICLES | en.NEUTER_ARTICLES
NO_HEAD_WORDS = es.NO_HEAD_WORDS | pt.NO_HEAD_WORDS | en.NO_HEAD_WORDS
OF_WORDS = es.OF_WORDS | pt.OF_WORDS | en.OF_WORDS
TWO_WORD_QUESTIONS = es.TWO_WORD_QUESTIONS | pt.TWO_WORD_QUESTIONS | en.TWO_WORD_QUESTIONS
WHAT_IS_ASKS = es.WHAT_IS_ASKS + pt.WHAT_IS_ASKS + en.WHAT_IS_ASKS
MEANS_ASKS = es.MEANS_ASKS + pt.MEANS_ASKS + en.MEANS_ASKS
MEANS_ASK_ENDS = es.MEANS_ASK_ENDS + pt.MEANS_ASK_ENDS + en.MEANS_ASK_ENDS
FOLLOW_UP_QUESTIONS = es.FOLLOW_UP_QUESTIONS + pt.FOLLOW_UP_QUESTIONS + en.FOLLOW_UP_QUESTIONS
PROCEDURE_WORDS = es.PROCEDURE_WORDS + pt.PROCEDURE_WORDS + en.PROCEDURE_WORDS
NEGATIONS = es.NEGATIONS | pt.NEGATIONS | en.NEGATIONS
ONLY_WORDS = es.ONLY_WORDS | pt.ONLY_WORDS | en.ONLY_WORDS
AND_WORDS = frozenset(m.AND.strip() for m in (es, pt, en))  # "y", "e", "and"


def alternation(phrases, capital: bool = False) -> str:
    """A regular expression's alternation of ``phrases`` (the longest first, each escaped); with ``capital``,
    each phrase's first letter in either case ("[Qq]ué es") for a pattern matched without ``re.I``."""
    out = []
    for p in sorted(set(phrases), key=lambda p: (-len(p), p)):
        out.append(f"[{p[0].upper()}{p[0]}]{re.escape(p[1:])}" if capital and p[:1].isalpha() else re.escape(p))
    return "|".join(out)

# the labels of a model answer's asides and the words that date a remark, in every language (kb.writing.answer_points)
ASIDE_LABELS = es.ASIDE_LABELS | pt.ASIDE_LABELS | en.ASIDE_LABELS
NEWER_WORDS = es.NEWER_WORDS | pt.NEWER_WORDS | en.NEWER_WORDS
ROLE_WORDS = es.ROLE_WORDS | pt.ROLE_WORDS | en.ROLE_WORDS
# a definition's genus, no idea by itself ("una técnica poderosa …", "una API de PyTorch" before "que permite …"),
# in every language, as written (kb.writing.concepts, kb.writing.answer_points)
GENUS_WORDS = frozenset("""técnica technique ferramenta herramienta tool api método metodo method forma manera maneira
    sistema system way tipo type clase classe class mecanismo mechanism estrategia estratégia strategy enfoque
    abordagem approach recurso feature funcionalidad funcionalidade""".split())
EXAMPLE_LEADS = es.EXAMPLE_LEADS + pt.EXAMPLE_LEADS + en.EXAMPLE_LEADS
