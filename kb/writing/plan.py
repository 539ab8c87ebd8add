"""Plan, then write: aim a quiz at what its sources teach (:mod:`kb.outline`).

``generate_quiz`` builds the outline of each source it draws on, then:

- :func:`aim` ties each draft to the outline idea it asks (its passage, and the idea whose text its
  quote shares most words with), raises its priority by the idea's centrality and, when that idea
  (or one on its topic) is among the source's :func:`plan_size` top ideas, by its place in that plan,
  and files it under the idea's section, so selection takes central ideas first, one question per
  section per round;
- :func:`plain_questions` writes, for a top idea no pattern wrote a question about, a plain short
  question on it ("En conjuntos de datos, ¿qué caracteriza a Data Shuffling?"), answered by the
  idea's own bullets and kept only when it passes the checks (:mod:`kb.writing.checklist`);
- :func:`coverage` says which of each source's top ideas the quiz asks and, for each it does not,
  why (no pattern fits it, its questions failed checks, or another question won its place).
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..i18n import Message
from ..lang import FACET_WORDS, FILLER_WORDS, divider_title
from ..lang.en import DIVIDER_WORDS as DIVIDER_EN
from ..lang.en import FACET_WORDS as FACET_EN
from ..lang.en import FILLER_WORDS as FILLER_EN
from ..quiz import Citation, Question
from ..records import Chunk
from ..text import STOPWORDS, fold, join_windows, words
from .checklist import CheckContext, run_checks
from .checks import generic_title, thin_concepts
from .checks_form import meaning_kind
from .concepts import _source_frameworks, concepts_beside_stem, phrase_concepts
from .deck_context import deck_context, deck_language
from .form_retry import retry_form
from .infinitive import infinitive
from .lead_stem import LEAD
from .pattern_discourse import list_labels
from .pattern_topic import WEAK, topic_stems
from .seam import Draft, Rejected
from .setting import unset
from .slide_bullets import PLAIN_WORDS, lead_in, slide_answer
from .stem_forms import kind_stem
from .subject import deck_subject, library_of, with_task_setting

if TYPE_CHECKING:
    from ..outline import Idea, Outline
    from .course import CourseTerms

CENTRAL_BONUS = 1.0  # priority added to a draft on the deck's most central idea (scaled by score / best score);
# hand-set so that centrality orders drafts within a pattern's usual spread (~1) without overriding the
# harvested exercises (3.3) — measured by count written and top-idea coverage on ../shared/corpora
PLAIN_PRIORITY = 1.0  # a plain question on an idea ranks below any pattern's question on the same idea
PLAN_BONUS = 1.0  # priority added to a draft on the most central planned idea, less down the plan (aim)
PLANNED_SHARE = 0.5  # of a quiz's questions, the share planned on the top ideas (plan_size)
MAX_SOURCES_LISTED = 3  # the summary lists each source's top ideas for up to this many sources

_PLAIN = {  # what a defined term means (a slide's title or list is asked of its topic: kb.writing.pattern_topic)
    "es": "En {s}, ¿qué significa «{t}»?", "pt": "Em {s}, o que significa «{t}»?",
    "en": "In {s}, what does «{t}» mean?",
}
_MEANS_AS = {  # a label whose text says what to do about it, or when it is the better choice, asked as that
    # (:func:`~kb.writing.checks_form.meaning_kind`: "¿qué significa «Reproducibilidad»?" → "fijar la semilla")
    "do": {"es": "En {s}, ¿qué se recomienda hacer en cuanto a «{t}»?",
           "pt": "Em {s}, o que se recomenda fazer quanto a «{t}»?", "en": "In {s}, what should one do about «{t}»?"},
    "when": {"es": "En {s}, ¿cuándo conviene usar «{t}»?", "pt": "Em {s}, quando convém usar «{t}»?",
             "en": "In {s}, when should «{t}» be used?"},
}


def outlines(passages: Sequence[Chunk], all_chunks: Sequence[Chunk]) -> dict[str, Outline]:
    """The outline of each source the passages come from."""
    from ..outline import build_outline

    return {src: build_outline(all_chunks, src) for src in dict.fromkeys(c.source for c in passages)}


def _overlap(a: str, b: str) -> int:
    wa = {fold(w) for w in words(a) if fold(w) not in STOPWORDS}
    return len(wa & {fold(w) for w in words(b) if fold(w) not in STOPWORDS})


def idea_asked(q: Question, chunk_id: str, outline: Outline | None) -> Idea | None:
    """The outline idea a question citing ``chunk_id`` asks: among the ideas of that passage, the one
    its quotes and answer share most words with (ties: the more central)."""
    if outline is None:
        return None
    mine = [i for i in outline.ideas if chunk_id in i.chunk_ids]
    if not mine:
        return None
    said = " ".join([*(c.quote for c in q.citations), q.answer])
    return max(mine, key=lambda i: (_overlap(said, f"{i.name} {i.text}"), i.score))


def idea_of(d: Draft, outline: Outline | None) -> Idea | None:
    """The outline idea a draft asks (:func:`idea_asked` on its passage)."""
    return idea_asked(d.question, d.chunk.id, outline)


def asks(ideas: Sequence[Idea], top: Idea) -> bool:
    """Questions on ``ideas`` ask the top idea: one of them is it, is named as it (a slide's title and its
    list), or is on its topic ("Configuración de DDP" asks "Distributed Data Parallelism")."""
    from ..outline import same_topic

    return any(i.key == top.key or fold(i.name) == fold(top.name) or same_topic(i, top) for i in ideas)


def _ideas(o: Outline, keys: set[str]) -> list[Idea]:
    return [i for i in o.ideas if i.key in keys]


def top_idea_coverage(questions: Sequence[Question], plans: dict[str, Outline], k: int) -> dict:
    """How many of each source's top ``k`` ideas the questions ask (``kb eval quiz``): covered, total,
    share, and the names of those not asked, per source."""
    asked: dict[str, list[Idea]] = {}
    for q in questions:
        for c in q.citations[:1]:
            idea = idea_asked(q, c.chunk_id, plans.get(c.source))
            if idea is not None:
                asked.setdefault(c.source, []).append(idea)
    per: dict[str, dict] = {}
    for src, o in plans.items():
        top = o.top(k)
        hit = [asks(asked.get(src, []), i) for i in top]
        per[src] = {"covered": sum(hit), "total": len(top),
                    "missing": [i.name for i, h in zip(top, hit, strict=True) if not h]}
    covered, total = sum(p["covered"] for p in per.values()), sum(p["total"] for p in per.values())
    return {"covered": covered, "total": total, "share": covered / total if total else 0.0, "per_source": per}


def plan_size(n: int) -> int:
    """How many of a source's top ideas a quiz of n questions plans one question each for: half of
    its questions, and at least the :data:`~kb.outline.TOP_IDEAS` a summary reports on (the
    rest go to the type mix and to what no top idea holds)."""
    from ..outline import TOP_IDEAS

    return max(TOP_IDEAS, math.ceil(PLANNED_SHARE * n))


def plan_rank(idea: Idea, top: Sequence[Idea]) -> int | None:
    """The rank among ``top`` of the idea or of the top idea on its topic ("Configuración de DDP" asks
    the top idea "Distributed Data Parallelism"); None when it is on none of them."""
    from ..outline import same_topic

    for r, t in enumerate(top):
        if idea.key == t.key or fold(idea.name) == fold(t.name) or same_topic(idea, t):
            return r
    return None


def aim(drafts: Sequence[Draft], plans: dict[str, Outline], k: int = 0) -> None:
    """Each draft's priority raised by its idea's centrality, its section the idea's section, and its
    ``plan`` the rank of its idea among the source's ``k`` planned top ideas (selection takes one
    question on each first)."""
    best = {src: max((i.score for i in o.ideas), default=0.0) for src, o in plans.items()}
    tops = {src: o.top(k) for src, o in plans.items()} if k else {}
    for d in drafts:
        idea = idea_of(d, plans.get(d.chunk.source))
        if idea is None:
            continue
        d.idea = idea.key
        d.section = idea.section
        d.plan = plan_rank(idea, tops.get(d.chunk.source, ()))
        if d.plan is not None:
            d.priority += PLAN_BONUS * (k - d.plan) / k
        if best[d.chunk.source] > 0:
            d.priority += CENTRAL_BONUS * max(0.0, idea.score) / best[d.chunk.source]


CONCEPT_WORDS = 3  # most words of a title that names one concept (hand-set: "Autograd multihilo", "Algoritmos SGD")
_CONNECTORS = frozenset("en con para por sobre y e o vs com em no na sem in with for on and or of de do da del".split())


def concept_title(title: str) -> bool:
    """A title that names one concept ("Keras", "Entrenamiento distribuido", "Autograd multihilo"), not a slide's
    heading that sets one in a context or a facet ("Tensorboard en Pytorch", "Autograd en tiempo de
    entrenamiento", "Tensores en Pytorch: Manipulación", "Otras herramientas"): a slide title asked as a
    concept is what fresh raters fixed or dropped (eval/real_heldout_r5)."""
    ws = [fold(w) for w in words(title)]
    return (0 < len(ws) <= CONCEPT_WORDS and not any(ch in title for ch in ":?¿()«»\"")
            and not any(w in _CONNECTORS or w in FILLER_WORDS or w in FACET_WORDS for w in ws))


def task_title(title: str, lang: str) -> str:
    """A title that names a task, opening on an infinitive ("Guardar y cargar modelos en GPU", "Medir tiempos
    con CUDA events"), as it reads after "¿cómo se puede …?" ("guardar y cargar modelos en GPU"); "" for
    any other title, and for English (no infinitive to tell from a noun)."""
    first, *rest = title.split()
    if (lang not in ("es", "pt") or any(ch in title for ch in ":?¿«»") or not rest
            or fold(rest[0]) in ("de", "del", "da", "do", "das", "dos") or not infinitive(first, lang, rest[0])):
        return ""  # ("Lugar de ejecución", "Similar", "Docker compose", "Taller práctico": a noun, an adjective)
    return first.lower() + title[len(first):]


def slide_label(name: str, titled: frozenset[str] = frozenset()) -> bool:
    """A label one plain word no slide title of the deck names (``titled``: their folded words): "Moraleja",
    "Síntomas", "Uso" are a slide's wording, not terms a student is asked to define — unlike a name with a
    capital inside, a digit or a sign ("LoRA", "NF4", "return_state"), or "Dropout" under "Técnica Dropout"."""
    ws = name.split()
    return len(ws) == 1 and ws[0].isalpha() and ws[0][1:] == ws[0][1:].lower() and fold(ws[0]) not in titled


_ENGLISH_TERM = re.compile(r"(?:tion|ing|ness|ment)$")  # "Activation checkpointing": English spellings es/pt lack


def asked_as_term(name: str, mentions: Callable[[str], int], lang: str) -> bool:
    """``name`` is a term "¿qué significa «X»?" can ask: a code identifier ("default_collate",
    "model.no_sync()"), an acronym or a CamelCase name, an English technical term in a Spanish or
    Portuguese deck ("Activation checkpointing", "dying ReLU"), or a phrase the deck itself says again
    (``mentions``: how many of its lines say it, :func:`kb.writing.terms.term_like`) — never a slide's
    label or a phrase of ordinary words ("Definición", "Otras señales", "Cenário típico", "Mismo principio
    en CPU", "intuición SGD", "lookup em dimensão baixa (ex."): fresh raters fixed or dropped every such
    stem (eval/real_heldout_r6, the questions only the fill wrote)."""
    from .terms import term_like

    bare = name.strip(" \"'“”")
    # a slide's English wording ("Next steps", "Other signals", "Overview": everyday words, one of them a
    # slide's) is no term, in any deck, unless the deck says it again
    if _english_wording(words(bare)) and mentions(bare) < 2:
        return False
    if term_like(bare, mentions, lang):
        return True
    quoted = re.findall(r"[\"“]([^\"”]{3,40})[\"”]", name)  # «Replicação "between-graph"»: a term it qualifies
    if any(q != bare and asked_as_term(q, mentions, lang) for q in quoted):
        return True
    ws = words(re.sub(r"\s*\([^)]*\)", "", bare))  # (a gloss in brackets: "Link prediction (completar el KG)")
    if lang not in ("es", "pt"):
        return False  # (an English term only stands out in a Spanish or Portuguese deck)
    return (bool(ws) and all(w.isascii() and w.isalpha() for w in ws) and len(ws) <= 3 and not bare.endswith("(")
            and (any(_ENGLISH_TERM.search(w.lower()) for w in ws) or all(_english(w) for w in ws)))


# English words slides use for their own parts, not for a subject (beside kb.lang.en's filler, facet and
# divider words): "Next steps", "Typical scenario"
_SLIDE_WORDING_EN = FILLER_EN | FACET_EN | DIVIDER_EN | frozenset("typical scenario scenarios".split())
_SLIDE_PHRASES_EN = ("next steps",)  # (a phrase: "Step size", "Next token" are terms)
# words of that wording that qualify the noun after them ("Other signals"); the others are nouns, a slide's
# wording as a phrase's head ("Typical scenario", "Types of …") and a technical compound's modifier
# ("Unit tests", "Class imbalance", "Session state")
_WORDING_MODIFIERS = frozenset("other more additional general brief basic advanced typical".split())


def _english_wording(ws: Sequence[str]) -> bool:
    """Every word everyday English (:func:`~kb.writing.checks.everyday_word`) and one of them a slide's own
    wording ("Next steps", "Other signals"; not "Registered model")."""
    from .checks import everyday_word

    low = [w.lower() for w in ws]
    if not low or not all(everyday_word(w, "en") for w in low):
        return False
    phrase = " ".join(low)
    return any(p in phrase for p in _SLIDE_PHRASES_EN) or any(
        w in _SLIDE_WORDING_EN and (i == len(low) - 1 or w in _WORDING_MODIFIERS or low[i + 1] in ("of", "to", "for"))
        for i, w in enumerate(low))


def _english(word: str) -> bool:
    """English text says ``word`` more than Spanish or Portuguese text does ("Registered", "model")."""
    from .checks import _zipf

    return _zipf(word, "en") > max(_zipf(word, "es"), _zipf(word, "pt"))


def _recap_of_actions(idea: Idea, lang: str) -> bool:
    """A recap slide's line that says what to do about a term ("Codebook collapse: monitorar utilização/
    perplexidade; restart, k-means init" on "Resumo"), no definition of it: asked what it means, its answer
    would be the remedies (fresh raters fixed it, eval/real_heldout_r6). A recap line that says what the term
    is ("GIL: um thread executa bytecode Python por vez") is a definition like any other."""
    title = idea.locator.rsplit(" · ", 1)[-1] if " · " in idea.locator else ""
    first, after, *_ = idea.text.split(":", 1)[-1].split() + ["", ""]
    return divider_title(title) and infinitive(first, lang, after)


def _definition_form(label: str, text: str, lang: str, means: str) -> list[str]:
    """The template a definition idea is asked by: what its label means, unless its text says what to do
    about it or when it is the better choice (then that), or the label is an action (no form)."""
    kind = meaning_kind(label, text, lang)
    if kind in _MEANS_AS:
        return [_MEANS_AS[kind].get(lang, _MEANS_AS[kind]["en"])]
    return [] if kind else [means]


LIST_LABELS = 5  # most labels of a list asked as its items (the bound the plan has had since round 8; not measured)


def _whole_first(stems: Sequence[tuple[str, bool]], whole: str, part: str) -> list[tuple[str, str, bool]]:
    """A topic stem answered by the whole slide (:func:`slide_answer`: what the slide says of its topic, not the one
    list the plan picked, "explica las restricciones" answered by its two exceptions, r11 raters), and by that list
    only where the whole slide fails the checks (a slide that is no definition of "¿qué es MinHash?")."""
    out: list[tuple[str, str, bool]] = []
    for stem, weak in stems:
        out += [(stem, answer, weak) for answer in dict.fromkeys(x for x in (whole, part) if x)]
    return out


def _topic_asks(idea: Idea, lang: str, passage: str, term: Callable[[str], bool]) -> list[tuple[str, str, bool]] | None:
    """The (template, answer, last resort) forms a slide's title, list or procedure idea is asked by: its lead-in,
    and a question on its topic by its title's class of text (:func:`~kb.writing.pattern_topic.topic_stem`; a
    last resort in its weakest class, "explica la organización de los logs", and a long list's every form:
    :data:`LIST_LABELS`); [] for a definition, None for a list no question fits (two rows of a table under one
    label)."""
    asks: list[tuple[str, str, bool]] = []
    stems = [(stem, cls in WEAK) for cls, stem in topic_stems(idea.name, lang, idea.kind, term)]
    if idea.kind == "list":
        # a part with no label of its own goes on the one before it ("En CUDA: se usa CUDA IPC; exige método spawn
        # o forkserver"): no label to paste in the stem (r8-r9 raters: "split off its bullet"; issue 26)
        labels = list_labels(idea.text)
        if len(labels) > LIST_LABELS:
            # a long slide (its sub-bullets' labels counted: "Datos; TSP; Pérdida; Teacher forcing; …") is asked of
            # its topic, answered by the slide (slide_answer), as a last resort (Draft.fallback: asked only where the
            # other forms leave the quiz short): left unasked, such slides left decks short of -n and key ideas
            # unasked (dev round 32: pointernet_es's "Entrenamiento supervisado"). On dev rounds 32-35 (80 decks),
            # decks >= 10: 70 -> 74; asked only for further ideas, 72
            whole = slide_answer(passage)
            return [(stem, whole, True) for stem, _ in stems] if whole else None
        if len(labels) < 2 or len({fold(x) for x in labels}) < len(labels):
            return None  # ("Síncrono; Síncrono; Asíncrono": two rows of a table under one label)
        # asked of the slide's topic by its title's class of text, answered by the whole items in order; its
        # labels never in the stem (slide vocabulary: "Paso 1; Resultado; Em cada falha"; r8-r10 raters)
        asks += _whole_first(stems, slide_answer(passage), idea.text)
    elif idea.kind == "procedure":
        asks += _whole_first(stems, slide_answer(passage), idea.text)
    elif idea.kind == "title":
        # asked by the slide's lead-in and answered by what follows it, never as "¿qué caracteriza a «T»?":
        # a title is no concept (fresh raters fixed or dropped every such stem, eval/real_heldout_r5)
        if (lead := lead_in(passage)) and (bullets := slide_answer(passage, skip_lead=True)):
            asks.append((LEAD.get(lang, LEAD["en"]).replace("{t}", lead.replace("{", "(").replace("}", ")")),
                         bullets, False))
        # then a question on the slide's topic by its title's class of text (:mod:`kb.writing.pattern_topic`: a
        # task asked how, a name what it is, a noun phrase explained), never "¿qué se entiende por «T»?" (a title
        # the student never saw, fixed by fresh raters each time, r8-r10)
        if len(words(idea.text)) >= PLAIN_WORDS[0] and (bullets := slide_answer(passage)):
            asks += [(stem, bullets, weak) for stem, weak in stems]
    return asks


def plain_forms(idea: Idea, subject: str, lang: str, passage: str = "",
                titled: frozenset[str] | None = None,
                mentions: Callable[[str], int] | None = None) -> list[tuple[str, str]]:
    """:func:`marked_forms` without their last-resort marks."""
    return [(p, a) for p, a, _ in marked_forms(idea, subject, lang, passage, titled, mentions)]


def marked_forms(idea: Idea, subject: str, lang: str, passage: str = "",
                 titled: frozenset[str] | None = None,
                 mentions: Callable[[str], int] | None = None) -> list[tuple[str, str, bool]]:
    """The (prompt, answer) forms of a plain question on an idea, best first; none for a kind it does
    not fit. Each is set in the deck's ``subject`` (:func:`kb.writing.subject.deck_subject`, as the
    writer's own stems are), unset where there is none or the idea is the subject itself; a labelled list
    is asked of its slide's topic (:func:`_topic_asks`; its labels never in the stem); a definition by its
    name, unless that is a one-word slide label
    (:func:`slide_label`, with the deck's ``titled`` words; None: not tested) or no term at all
    (:func:`asked_as_term`, with the deck's ``mentions``; None: not tested). A slide's title is never
    asked as a concept ("¿qué caracteriza a «Tensorboard en Pytorch»?": raters fixed or dropped each) but by
    the slide's own lead-in (:func:`lead_in`), answered by the bullets that follow it, and by a question on its
    topic from its title's class of text (:mod:`kb.writing.pattern_topic`: "Limitaciones" → "¿cuáles son las
    limitaciones?", "Longformer" → "¿qué es Longformer?"), answered by its bullets (:func:`slide_answer`: no
    code line nor link). The first form that passes the checks is kept."""
    means = _PLAIN.get(lang, _PLAIN["en"])
    title = idea.name
    if generic_title(title) or divider_title(title):
        return []  # ("¿Qué caracteriza a «Consideraciones adicionales»?" asks a slide's label, nothing of the deck)
    asks = _topic_asks(idea, lang, passage, lambda x: asked_as_term(x, mentions or (lambda _: 0), lang))
    if asks is None:
        return []
    if (idea.kind == "definition" and PLAIN_WORDS[0] <= len(words(idea.text)) <= PLAIN_WORDS[1]
          and (titled is None or not slide_label(title, titled))
          and (mentions is None or asked_as_term(title, mentions, lang))
          and not _recap_of_actions(idea, lang)):
        # the slide's own topic ("EMA" on "EMA dos pesos: definição") is answered by what the slide says of it,
        # not its one line ("o que é EMA?" answered by the acronym, r11 raters)
        heading = fold(idea.locator.split(" · ", 1)[1]) if " · " in idea.locator else ""
        whole = slide_answer(passage) if heading.split()[:1] == fold(title).split()[:1] and heading.startswith(
            fold(title)) else ""
        asks += [(t, whole or idea.text, False) for t in _definition_form(title, idea.text, lang, means)]
    # set in the deck's subject; unset only where there is none, or the idea is the deck's subject itself
    # ("En TensorFlow, ¿qué caracteriza a «TensorFlow»?"): a stem stripped of its setting to get past a
    # check ("O que significa «TensorFlow»?" after "Em computação distribuída, …" restated its answer)
    # is no better question
    set_in = bool(subject) and fold(subject) != fold(title)
    out: list[tuple[str, str, bool]] = []
    for template, answer, weak in asks:
        form = ((template if set_in else unset(template)).format(s=subject, t=title), answer, weak)
        if form[:2] not in [f[:2] for f in out]:
            out.append(form)
    return out


def _concepts(idea: Idea, prompt: str, answer: str, course: CourseTerms, src: str) -> tuple[str, ...]:
    """What a reply to a plain question must say: for a labelled list, the key phrase of each item's
    description (its labels are in the stem: a grader would credit a reply that repeats the stem, as
    fresh raters said of every such question, eval/real_heldout_r6); else the answer's key phrases
    (:func:`~kb.writing.concepts.phrase_concepts`), else its rarest terms; the answer's points take their place last
    (:func:`~kb.writing.answer_points.with_answer_points`, in :func:`~kb.writing.concepts.concepts_beside_stem`)."""
    from .concepts import phrase_concepts

    if idea.kind == "list":
        out: list[str] = []
        for part in idea.text.split("; "):
            body = part.split(":", 1)[1].strip() if ":" in part else ""
            found = (phrase_concepts(body, prompt, k=1) or course.key_concepts(body, exclude=prompt, k=1, source=src)
                     if body else ())
            out += [x for x in found[:1] if x not in out]
        if out:
            return tuple(out)
    return phrase_concepts(answer, prompt) or course.key_concepts(answer, exclude=prompt, source=src)


def plain_questions(plans: dict[str, Outline], drafts: Sequence[Draft], chunks: dict[str, Chunk],
                    course: CourseTerms, k: int, lang: str | None) -> tuple[list[Draft], list[Rejected]]:
    """A plain short question for each of a source's top ``k`` ideas that no draft asks, kept when
    it passes the checks; the ones that fail come back as rejections."""
    asked = {d.idea for d in drafts if d.idea}
    planned = {(d.chunk.source, d.plan) for d in drafts if d.plan is not None}  # (a draft on its topic asks it)
    out: list[Draft] = []
    rejected: list[Rejected] = []
    for src, o in plans.items():
        ctx = deck_context(src, o, course)
        deck_lang = deck_language(course, src, "")  # (once per source; a slide's own language is not the quiz's)
        for rank, idea in enumerate(o.top(k)):
            chunk = chunks.get(idea.chunk_ids[0])
            if (idea.key in asked or (src, rank) in planned or chunk is None
                    or (lang and (deck_lang or chunk.lang) != lang)):
                continue
            forms, why = idea_drafts(idea, chunk, chunks, course, ctx)
            if why is not None:
                rejected.append(why)
            for d in forms:
                d.plan = rank
                d.priority += CENTRAL_BONUS * idea.score / max(1e-9, o.top(1)[0].score) + PLAN_BONUS * (k - rank) / k
            out += forms
    return out, rejected


@functools.lru_cache(maxsize=16)
def _lines(text: str) -> frozenset[str]:
    """A deck's distinct lines, folded (once per deck: a str caches its own hash)."""
    return frozenset(fold(ln.strip(" •-*")) for ln in text.split("\n") if ln.strip())


def _mentions(deck: CheckContext) -> Callable[[str], int]:
    """How many distinct lines of the deck say a phrase other than as their label ("Otras señales: …")."""
    lines = _lines(deck.source_text)
    return lambda phrase: sum(1 for ln in lines if (f := fold(phrase)) in ln and not ln.startswith(f + ":"))


def _plain_draft(idea: Idea, chunk: Chunk, chunks: dict[str, Chunk], course: CourseTerms,
                 deck: CheckContext, further: bool = False) -> tuple[Draft | None, Rejected | None]:
    """A plain short question on one idea: its first form (:func:`plain_forms`) that passes the checks,
    else None and a rejection saying what each form failed (None when no form fits the idea)."""
    from dataclasses import replace

    from .form_prior import order_forms

    src = chunk.source
    passage = _slide_text(idea, chunk, chunks)
    lang = deck_language(course, src, chunk.lang)
    subject = deck_subject(course, src)
    libraries = {fold(n) for n, _ in _source_frameworks(course, src)} | {fold(library_of(course, src)), fold(subject)}
    if idea.kind == "definition" and fold(idea.name) in libraries:
        return None, None  # ("¿Qué significa «PyTorch»?" on "PyTorch: nn.LSTM/GRU por defecto U(…)": a label)
    # a planned (central) idea's one-word label is asked ("Components: 1 Coordinator, N PS, N Workers" holds a
    # key idea of 004's); only a further idea's is taken for a slide label (fill_questions)
    titled = None if further is False else frozenset(fold(w) for i in deck.outline.ideas if " · " in i.locator
                                                     for w in words(i.locator.split(" · ", 1)[1]))
    fallback = False
    if idea.kind == "list" and not _term_labels(idea, _mentions(deck), lang if lang in _PLAIN else "en"):
        # ("¿qué significa cada uno de … Problema; Solución?": a slide's parts, no terms) asked of the slide's
        # topic when they are discourse roles, else not at all
        from .pattern_discourse import discourse_form, role_items

        form = discourse_form(idea, subject, lang if lang in _PLAIN else "en")
        forms = [(*form, False)] if form and not generic_title(idea.name) and not divider_title(idea.name) else []
        asked = replace(idea, text=role_items(idea, lang if lang in _PLAIN else "en"))  # (what the stem asks)
        if not forms:  # what each label means: a last resort (Draft.fallback), the idea is asked at all
            forms = marked_forms(idea, subject, lang if lang in _PLAIN else "en", passage, titled, _mentions(deck))
            asked, fallback = idea, True
    else:
        forms = marked_forms(idea, subject, lang if lang in _PLAIN else "en", passage, titled, _mentions(deck))
        asked = idea
    if not forms:
        return None, None
    ctx = replace(deck, passage=passage)
    failed: list[tuple[str, list[str]]] = []
    general = {f[0] for f in forms if f[2]}  # (a slide's topic in general words: origin "labels", named in review)
    forms = order_forms(forms)  # (the forms teachers keep first; one they seldom keep a last resort: form_prior)
    for raw, answer, weak in forms:  # (a form turned down for its form adds the one that fits: form_retry)
        last = fallback or weak  # (a list of a slide's own wording, or a title asked in its weakest class)
        prompt = with_task_setting(raw, course, src, lang)  # ("Al medir el rendimiento …, ¿…?")
        prompt = kind_stem(prompt, answer, lang) or prompt  # (a "what is" asked by what its answer says)
        cand = Question(type="short", prompt=prompt, answer=answer,
                        citations=(Citation(src, chunk.locator.describe(), chunk.id, answer[:500]),),
                        concepts=_concepts(asked, prompt, answer, course, src), difficulty="medium",
                        lang=lang, origin="labels" if fallback or raw in general else "idea")
        cand = concepts_beside_stem(cand, course, src)
        found = run_checks(cand, ctx)
        if not found and thin_concepts(cand):  # (kb eval quiz flags it: a grader could not mark with them)
            found = ["thin-concepts"]
        if not found:
            return Draft(cand, chunk, key="idea:" + idea.key, priority=PLAIN_PRIORITY, item="", idea=idea.key,
                         section=idea.section, fallback=last), None
        failed.append((prompt, found))
        if (again := retry_form(raw, found, lang)) and all(again != f[0] for f in forms):
            forms.append((again, answer, True))
            general.add(again)
    if not failed:
        return None, None
    reasons = list(dict.fromkeys(x for _, found in failed for x in found))
    return None, Rejected(failed[0][0][:80], "failed checks: " + ", ".join(reasons), chunk.id)


def _slide_text(idea: Idea, chunk: Chunk, chunks: dict[str, Chunk]) -> str:
    """The text of the slide an idea is on: every passage of its source on its page(s), in order (an idea's own
    passages may hold part of it: "explica las restricciones" answered by the slide's last two bullets, r11
    raters); its own passages where it has no page."""
    own = "\n".join(chunks[i].text for i in idea.chunk_ids if i in chunks)
    page = chunk.locator.page
    if page is None:
        return own
    pages = range(page, page + max(1, idea.pages))
    same = [c.text for c in chunks.values() if c.source == chunk.source and c.locator.page in pages]
    return join_windows(same) or own


def _term_labels(idea: Idea, mentions: Callable[[str], int], lang: str) -> bool:
    """Every label of a labelled list idea is a term (:func:`asked_as_term`), not a slide's wording ("Problema",
    "Ventaja", "En PyTorch", "Hay que promediarlos"; :func:`kb.writing.pattern_siblings.term_labels`): asked what
    each means, such labels say nothing out of their slide and became the concepts (0 kept of 20 by fresh
    raters, eval/real_heldout_r7)."""
    from .pattern_siblings import term_labels

    return all(term_labels(list_labels(idea.text), lambda x: asked_as_term(x, mentions, lang)))


def idea_drafts(idea: Idea, chunk: Chunk, chunks: dict[str, Chunk], course: CourseTerms, deck: CheckContext,
                further: bool = False) -> tuple[list[Draft], Rejected | None]:
    """An idea's questions, one idea (``item`` ``idea:<key>``) in several forms: its objective forms where its
    siblings offer them (:mod:`kb.writing.pattern_siblings`: a multiple choice, a true/false) before its plain
    short question (:func:`_plain_draft`); selection asks it in the form that keeps the quiz's mix."""
    errors = error_drafts(idea, chunk, chunks, course, deck)
    if errors is not None:
        return errors
    d, why = _plain_draft(idea, chunk, chunks, course, deck, further)
    out = objective_forms(idea, chunk, chunks, course, deck)
    if d is not None:
        d.item = "idea:" + idea.key
        out.append(d)
    return out, why if not out else None


def objective_forms(idea: Idea, chunk: Chunk, chunks: dict[str, Chunk], course: CourseTerms,
                    deck: CheckContext) -> list[Draft]:
    """An idea's objective forms where its siblings offer them (:func:`.pattern_siblings.objective_drafts`)."""
    from .pattern_siblings import objective_drafts

    lang = deck_language(course, chunk.source, chunk.lang)
    passage = "\n".join(chunks[i].text for i in idea.chunk_ids if i in chunks)
    mentions = _mentions(deck)
    return objective_drafts(idea, chunk, passage, deck, deck_subject(course, chunk.source), lang,
                            lambda label: asked_as_term(label, mentions, lang), PLAIN_PRIORITY)


def error_drafts(idea: Idea, chunk: Chunk, chunks: dict[str, Chunk], course: CourseTerms,
                 deck: CheckContext) -> tuple[list[Draft], Rejected | None] | None:
    """A common-mistakes slide's questions (:mod:`kb.writing.pattern_errors`): its first
    :data:`~kb.writing.pattern_errors.PER_SLIDE` "cause -> consequence" bullets that pass the registry's checks,
    each its own item (one per bullet, not one per slide); None when the idea is no such slide."""
    from dataclasses import replace

    from .pattern_errors import PER_SLIDE, error_forms, options

    src = chunk.source
    lang = deck_language(course, src, chunk.lang)
    passage = "\n".join(chunks[i].text for i in idea.chunk_ids if i in chunks)
    forms = error_forms(idea.name, passage, deck_subject(course, src), lang)
    choices = options(passage, lang) if forms else {}
    if idea.kind != "title" or not forms:
        return None
    ctx = replace(deck, passage=passage)
    out: list[Draft] = []
    failed: list[str] = []
    for j, (prompt, answer) in enumerate(forms):
        prompt = with_task_setting(prompt, course, src, lang)
        cand = Question(type="short", prompt=prompt, answer=answer,
                        citations=(Citation(src, chunk.locator.describe(), chunk.id, answer[:500]),),
                        concepts=phrase_concepts(answer, prompt) or course.key_concepts(answer, exclude=prompt,
                                                                                        source=src),
                        difficulty="medium", lang=lang, origin="errors")
        found = run_checks(cand, ctx) or (["thin-concepts"] if thin_concepts(cand) else [])
        if found:
            failed += [x for x in found if x not in failed]
            continue
        key = f"idea:{idea.key}#{j}"
        out.append(Draft(cand, chunk, key=key, priority=PLAIN_PRIORITY, item=key, idea=idea.key,
                         section=idea.section))
        if j in choices:  # (its multiple-choice form, same item: selection asks one of the two, for the mix)
            mcq = Question("mcq", prompt, choices[j][0], cand.citations, cand.concepts, "medium", lang,
                           choices=choices[j], correct=0, origin="errors")
            if not run_checks(mcq, ctx):
                out.append(Draft(mcq, chunk, key=key + "mcq", priority=PLAIN_PRIORITY, item=key, idea=idea.key,
                                 section=idea.section))
        if len({d.item for d in out}) >= PER_SLIDE:
            break
    why = None if out else Rejected(forms[0][0][:80], "failed checks: " + ", ".join(failed), chunk.id)
    return out, why


def fill_questions(plans: dict[str, Outline], chosen: Sequence[Draft], chunks: dict[str, Chunk],
                   course: CourseTerms, k: int, lang: str | None, skip: frozenset[str] = frozenset()) -> list[Draft]:
    """When a quiz is short of its n: a plain question on each further idea of the outline (past the
    ``k`` planned ones, which :func:`plain_questions` tried), one per idea and per passage, none on an idea
    or a passage a chosen question already asks, each passing the same checks; in the order selection would take
    them — one per section per round, the more central first within a round; none on an idea in ``skip`` (one the
    fill offered before and turned down: ``kb.writing.generate``'s second pass reaches the ideas beside it)."""
    have = [i for o in plans.values() for i in _ideas(o, {d.idea for d in chosen if d.idea})]
    cited = {c.chunk_id for d in chosen for c in d.question.citations}
    rounds: list[list[list[Draft]]] = []
    for src, o in plans.items():
        ctx: CheckContext | None = None
        per_section: dict[str, int] = {}
        tried = {i.key for i in o.top(k)} | skip
        deck_lang = deck_language(course, src, "")
        for idea in o.top(len(o.ideas)):
            chunk = chunks.get(idea.chunk_ids[0])
            if (idea.key in tried or chunk is None or (lang and (deck_lang or chunk.lang) != lang)
                    or asks(have, idea) or cited & set(idea.chunk_ids)):
                continue
            ctx = ctx or deck_context(src, o, course)
            forms, _ = idea_drafts(idea, chunk, chunks, course, ctx, further=True)
            if not forms:
                continue
            for d in forms:
                d.priority += CENTRAL_BONUS * max(0.0, idea.score) / max(1e-9, o.top(1)[0].score)
            r = per_section.get(idea.section, 0)
            per_section[idea.section] = r + 1
            rounds += [[] for _ in range(r + 1 - len(rounds))]
            rounds[r].append(forms)
            have.append(idea)
            cited |= set(idea.chunk_ids)  # (one per passage: three "X son útiles para …" of one slide are one idea)
    # (an idea's forms stay together, its best first: generate._fill asks each idea in one of them)
    return [d for r in rounds for forms in sorted(r, key=lambda f: -f[0].priority) for d in forms]


def coverage(plans: dict[str, Outline], chosen: Sequence[Draft], drafts: Sequence[Draft],
             rejected: Sequence[Rejected], k: int) -> list[str]:
    """Notes saying, per source, which of its top ``k`` ideas the quiz asks and why each other has none."""
    if not plans:
        return []
    # an idea is asked when a question asks it, one named as it (its title and its list on one slide) or
    # one on its topic (:func:`asks`)
    have_keys = {d.idea for d in chosen if d.idea}
    written_keys = {d.idea for d in drafts if d.idea}
    failed: dict[str, list[str]] = {}
    for r in rejected:
        if r.chunk_id and r.reason.startswith("failed checks"):
            failed.setdefault(r.chunk_id, []).extend(x.strip() for x in r.reason.split(":", 1)[1].split(","))
    notes: list[str] = []
    total = hit = 0
    for src, o in plans.items():
        top = o.top(k)
        total += len(top)
        have, written = _ideas(o, have_keys), _ideas(o, written_keys)
        mine = [i for i in top if asks(have, i)]
        hit += len(mine)
        if len(plans) > MAX_SOURCES_LISTED:
            continue
        missing: Message | None = None
        for i in top:
            if i in mine:
                continue
            why: Message
            if asks(written, i):
                why = Message("another question took its place")
            elif any(c in failed for c in i.chunk_ids):
                reasons = sorted({x for c in i.chunk_ids for x in failed.get(c, [])})
                why = Message("its questions failed checks ({checks})", checks=", ".join(reasons[:3]))
            else:
                why = Message("no question pattern fits it")
            one = Message("«{idea}» ({where}): {why}", idea=i.name, where=i.locator.split(" · ")[0], why=why)
            missing = one if missing is None else Message("{ideas}; {idea}", ideas=missing, idea=one)
        name = src.rsplit("/", 1)[-1]
        notes.append(Message("{name}: asks {n} of its top {top} ideas{asked}{missing}", name=name, n=len(mine),
                             top=len(top), asked=" (" + "; ".join(f"«{i.name}»" for i in mine) + ")" if mine else "",
                             missing=Message("; not asked: {ideas}", ideas=missing) if missing else ""))
    if len(plans) > MAX_SOURCES_LISTED:
        notes.append(Message("asks {hit} of the {total} top ideas of its {n} sources (kb outline SOURCE lists them)",
                             hit=hit, total=total, n=len(plans)))
    return notes
