"""Signals read off a reply's words: accent-free stems, concepts present and missing, character
n-grams, a leading yes/no, bare keyword lists."""

from __future__ import annotations

import math
import re
from collections import Counter
from functools import lru_cache
from typing import Sequence

from ..quiz import Question
from ..text import STOPWORDS, detect_language, fold, fold_word, sentences, words

_YES = frozenset({"sim", "si", "sí", "yes", "verdadeiro", "verdadero", "true", "correto", "cierto"})
_NO = frozenset({"nao", "não", "no", "not", "falso", "false", "incorreto", "errado"})

def stem(word: str) -> str:
    """Accent-free prefix stem: inflections of pt/es/en words share their first 5 letters. Give it the
    word as written: a Portuguese plural in "-ões"/"-ães" is first its singular in "-ão" ("sessões" and
    "sessão" differ at the fifth letter; "héroes" is no "-ões")."""
    f = fold_word(word).strip(".-'")
    if word[-3:].lower() in ("ões", "ães"):
        f = f[:-3] + "ao"
    return f[:5] if len(f) > 5 else f


@lru_cache(maxsize=50_000)
def content_stems(text: str) -> tuple[str, ...]:
    """Stems of the words that carry meaning (model answers repeat: cached)."""
    out = []
    for w in words(text):
        f = fold_word(w)
        if f in STOPWORDS or (len(f) < 2 and not f.isdigit()):
            continue
        out.append(stem(w))
    return tuple(out)


@lru_cache(maxsize=500_000)
def stems_close(a: str, b: str) -> bool:
    """Stems equal, or one edit apart when long enough (typos: 'memoria'/'memroia'): optimal string
    alignment distance ≤ 1, so a swap of two adjacent letters counts once but 'comer'/'comte' do not match."""
    if a == b:
        return True
    if min(len(a), len(b)) < 5 or abs(len(a) - len(b)) > 1:
        return False
    from rapidfuzz.distance import OSA

    return OSA.distance(a, b, score_cutoff=1) <= 1


def _has_stem(s: str, bag: set[str]) -> bool:
    return s in bag or any(stems_close(s, b) for b in bag)


_CONCEPT_WORD_SHARE = 0.6  # "most" of a concept's words: 1 of 1, 2 of 2 or 3, 3 of 4 or 5
# a long concept, a whole claim (kb.writing.answer_points.GIST_WORDS, issue 26 gist30): half its content words, so a
# right reply that says the claim in its own words still holds it (eval/answer_points_hits.py: right replies hit
# 0.42 of the answer points at 0.6, 0.45 with this, as at the shorter gists before; wrong ones 0.13 -> 0.14)
LONG_CONCEPT_STEMS = 9
_LONG_CONCEPT_SHARE = 0.5


def concept_hits(concepts: Sequence[str], reply: str) -> tuple[list[str], list[str]]:
    """(present, missing): a concept is present when most of its content words appear in the
    reply, inflected, without accents or with a one-letter typo. A concept "A / B" names
    alternatives: either one present is enough ("named_modules() / named_parameters()")."""
    bag = set(content_stems(reply))
    present: list[str] = []
    missing: list[str] = []
    for c in concepts:
        alts = [cs for cs in (content_stems(a) for a in re.split(r"\s/\s", c)) if cs]
        if not alts:
            continue
        hit = any(sum(_has_stem(s, bag) for s in cs) >= math.ceil(
            (_LONG_CONCEPT_SHARE if len(cs) >= LONG_CONCEPT_STEMS else _CONCEPT_WORD_SHARE) * len(cs)) for cs in alts)
        (present if hit else missing).append(c)
    return present, missing


@lru_cache(maxsize=20_000)
def _char_grams(text: str) -> Counter:  # cached: do not mutate
    t = " " + re.sub(r"\s+", " ", fold(text)).strip() + " "
    return Counter(t[i : i + n] for n in (3, 4, 5) for i in range(len(t) - n + 1))


def _cosine_counts(a: Counter, b: Counter) -> float:
    if not a or not b:
        return 0.0
    dot = sum(v * b.get(k, 0) for k, v in a.items())
    return dot / math.sqrt(sum(v * v for v in a.values()) * sum(v * v for v in b.values()))


def references(q: Question) -> list[str]:
    """The model answer and any other accepted answers (a reference cell may hold several, one per line)."""
    refs = [r.strip() for r in q.answer.split("\n") if r.strip()]
    refs += [a for a in q.accepted if a.strip()]
    return refs or [q.answer]


_NO_STOP = re.compile(r"^\W*no\s*([,.;:!]|$)", re.IGNORECASE)  # "No, …", "No." (es/en/pt: a no)
_YES_SI = re.compile(r"^\W*(s[ií])\b\s*([,.;:!]|$)?", re.IGNORECASE)


def leading_polarity(text: str, lang: str = "") -> str | None:
    """'yes' / 'no' when the reply opens with one ('Sim, …', 'No, …'). Spanish 'si' without an
    accent is 'if' ('Si la GPU…'): it means yes only when written 'sí' or followed by a comma or full stop.
    Portuguese 'no' is 'in the' ('No DDP, cada processo…'): in a text that is not Spanish or English
    (``lang``, or detected) it means no only when a comma or a full stop follows it."""
    ws = [fold(w) for w in words(text)[:2]]
    if not ws:
        return None
    if ws[0] == "si":
        m = _YES_SI.match(text)
        return "yes" if m and (m.group(1).lower() == "sí" or m.group(2) is not None) else None
    if ws[0] in {fold(w) for w in _YES}:
        return "yes"
    if ws[0] == "no" and _NO_STOP.match(text):
        return "no"  # "No, solo en la GPU 0." ("no solo" without the comma is "not only")
    if ws[0] == "no" and (lang or detect_language(text, "")) not in ("es", "en"):
        return None
    if ws[0] in _NO and not (len(ws) > 1 and ws[1] in {"so", "solo", "apenas", "only"}):
        return "no"
    return None


# words that open a question asking for something other than yes or no (pt, es, en), folded
_ASKS_FOR = frozenset({
    "que", "qual", "quais", "como", "porque", "quando", "onde", "quem", "quanto", "quantos", "quantas", "cual",
    "cuales", "cuando", "donde", "quien", "cuanto", "cuantos", "cuantas", "what", "which", "how", "why", "when",
    "where", "who", "whom", "whose", "explique", "explica", "explain", "descreva", "describe", "cite", "liste"})
_NEGATORS = frozenset({"nao", "no", "not", "nunca", "never", "nem", "ni"})


def yes_no_question(prompt: str) -> bool:
    """The prompt's last question asks to be answered yes or no ("Seu modelo treinado foi perdido?",
    "¿Puede una variable…?"): it holds no interrogative word and offers no alternatives ("A ou B?")."""
    asked = [q for q in sentences(prompt) if q.rstrip().endswith("?")]
    if not asked:
        return False
    # an interrogative anywhere ("Ao lançar torchrun …, por que se usa …?"), also after a stop with no
    # space ("… de vacinação.Quais são …?"), or a relative "que": no yes/no question, to be safe
    ws = {fold(w) for w in re.findall(r"\w+", asked[-1])}
    # alternatives: pt "ou", en "or", es "o" (in Portuguese "o" is the article: "O TensorFlow libera …?")
    offers = bool({"ou", "or"} & ws) or ("o" in ws and "¿" in asked[-1])
    return bool(ws) and not (_ASKS_FOR & ws) and not offers


def answer_polarity(prompt: str, reference: str, lang: str = "") -> str | None:
    """'yes' / 'no' a model answer gives: the word it opens with ('Sim, …'), or, for a yes/no question,
    a first sentence that says no near its start ('O modelo não será perdido.' to 'Seu modelo treinado
    foi perdido?')."""
    lead = leading_polarity(reference, lang)
    if lead or not yes_no_question(prompt):
        return lead
    first = (sentences(reference) or [reference])[0]
    # "no" says no in es and en; in pt (or a text too short to tell) it is "in the"
    says_no = (lang or detect_language(f"{prompt} {reference}", "")) in ("es", "en")
    negators = _NEGATORS if says_no else _NEGATORS - {"no"}
    return "no" if negators & {fold(w) for w in words(first)[:5]} else None


def is_keyword_list(reply: str) -> bool:
    """Comma/line-separated short items with (almost) no function words, or four or more words with
    none ("trava thread bytecode CPU"): keywords, not an answer."""
    items = [p.strip() for p in re.split(r"[,;\n/]+|\s+-\s+", reply) if p.strip()]
    ws = words(reply)
    if not ws:
        return False
    function = sum(fold(w) in STOPWORDS for w in ws)
    if not re.search(r"[^\w\s]", reply):  # no punctuation: a string of bare words, unless function words join them
        return 4 <= len(ws) <= 12 and function == 0
    return len(items) >= 3 and all(len(words(p)) <= 3 for p in items) and function <= 1


# A question that asks for a list ("cite três…", "liste", "enumere", "quais são os…", "name three…"): a
# list is its answer, not a sign of keywords instead of one.
_LIST_ASK = re.compile(
    r"\b(cite|citar|liste|listar|enumere|enumerar|enumera|mencione|mencionar|menciona|nomeie|nombra|nombre\s+\w+\s+"
    r"(?:tipos|ejemplos|causas)|list|name\s+(?:two|three|four|five|the)|quais\s+s[aã]o|cu[aá]les\s+son|"
    r"what\s+are\s+the|which\s+are\s+the|d[eê]\s+(?:dois|duas|tr[eê]s|quatro|cinco)|"
    r"(?:dois|duas|tr[eê]s|quatro|cinco|dos|tres|cuatro|two|three|four|five)\s+(?:exemplos|ejemplos|examples|"
    r"tipos|types|fun[cç][oõ]es|funciones|functions|caracter[ií]sticas|characteristics|partes|parts|"
    r"fatores|factores|factors|causas|causes|vantagens|ventajas|advantages))\b",
    re.IGNORECASE)


# ...and nothing more: "quais são os órgãos e suas funções" asks for what each does, which a list of names does
# not say (PT_ASAG dev: such lists graded 1 of 3 by the graders, 44 of 57)
_MORE_ASK = re.compile(r"\b(?:e|and|y)\s+(?:\w+\s+){0,3}(?:fun[cç]|funcion|function|como|how|por\s*que|why)"
                       r"|expli|descre|describ", re.IGNORECASE)


def asks_for_list(prompt: str) -> bool:
    """The question asks for several items (cite, list, enumerate, name three, quais são…) and nothing
    more (not "and their functions", "and explain"): a reply that lists them answers it."""
    p = fold(prompt)
    return bool(_LIST_ASK.search(p)) and not _MORE_ASK.search(p)


# A passage the question quotes for the reply to explain: «…», “…”, "…" or ‘…’ of three words or more.
_QUOTED = re.compile(r"«([^»]+)»|“([^”]+)”|\"([^\"]+)\"|‘([^’]+)’")


def quotes_a_text(prompt: str) -> bool:
    """The question quotes a passage of three words or more (a saying, a definition, a line of a text):
    a reply that reuses its words may be explaining it, not copying the question."""
    return any(len(words(next(g for g in m.groups() if g))) >= 3 for m in _QUOTED.finditer(prompt))
