"""Objective forms of ideas a pattern already asks as a short answer (issue 26, item 6).

A pattern question on one label of a labelled list ("En Optuna, ¿qué significa «Trial»?") asks an idea whose
siblings offer a multiple choice ("¿qué término corresponde a esta descripción: «función que recibe un trial y
devuelve el valor a optimizar»?", the other labels as options) or a true/false. :func:`kb.writing.plan.plain_questions`
offers those forms only for a top idea no pattern asks; this module offers them for every list or definition idea a
pattern's question asks, as *other forms of that question* (the same ``item``): :func:`kb.writing.generate.dedupe`
keeps one question per item, and selection (``_forms``, ``_best_form``, ``_rebalance``) asks the idea in the form that
keeps the quiz's mix near the target — no type above ~40 % where the deck offers the other kinds. Each form has
passed the one registry of checks (:func:`kb.writing.checklist.run_checks`) in
:func:`kb.writing.pattern_siblings.objective_drafts`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..outline import Outline
    from ..records import Chunk
    from .course import CourseTerms
    from .seam import Draft

OBJECTIVE_KINDS = ("list", "definition")  # the outline ideas whose siblings can offer an objective form
FORM_STEP = 0.01  # an objective form ranks just below the pattern question it is another form of: dedupe keeps the
# pattern's question, selection swaps in the form for the mix (generate._rebalance), not for a higher priority (so
# the form prior weighs the drafts before these forms are made: kb.writing.generate.generate_quiz)


def objective_alternates(plans: dict[str, Outline], drafts: Sequence[Draft], chunks: dict[str, Chunk],
                         course: CourseTerms, lang: str | None) -> list[Draft]:
    """For each list or definition idea of each source's outline, its objective forms: as other forms of the best
    short draft with an item on the idea (its primary), else on its slide (a slide's title idea asked, its list
    idea not), with the primary's item, key stem, section and priority just below it; on a slide no draft asks,
    as a question of its own (item ``idea:<key>``, ranked by the idea's centrality as a plain question is). None of
    a type the idea already has a draft of."""
    from functools import partial

    from .deck_context import deck_context, deck_language
    from .form_prior import weigh
    from .plan import CENTRAL_BONUS, objective_forms
    from .subject import whole_text

    primary, have, asked = _primaries(drafts)
    written = {d.question.id for d in drafts}
    out: list[Draft] = []
    for src, o in plans.items():
        deck_lang = deck_language(course, src, "")
        best = max((i.score for i in o.ideas), default=0.0)
        ctx = None
        for idea in o.ideas:
            chunk = chunks.get(idea.chunk_ids[0]) if idea.chunk_ids else None
            if idea.kind not in OBJECTIVE_KINDS or chunk is None or (lang and (deck_lang or chunk.lang) != lang):
                continue
            slide = (src, _slide(idea.page, idea.locator.split(" · ", 1)[-1]))
            p = primary.get((src, idea.key)) or primary.get(slide)
            if p is None and slide in asked:
                continue  # (its slide asked in another form already: a cloze)
            ctx = ctx or deck_context(src, o, course)
            for f in objective_forms(idea, chunk, chunks, course, ctx):
                if (src, idea.key, f.question.type) in have or f.question.id in written:
                    continue
                if p is not None:
                    f.item, f.key = p.item, f"{p.key}#{f.question.type}"
                    f.priority, f.section, f.plan = p.priority - FORM_STEP, p.section, p.plan
                else:  # a question of its own: weighed as any draft is (its primary's form has its primary's weight)
                    if best > 0:
                        f.priority += CENTRAL_BONUS * max(0.0, idea.score) / best
                    weigh([f], deck_text=partial(whole_text, course))
                out.append(f)
    return out


def _slide(page: int | None, heading: str | None) -> str:
    """A slide's key: its page, else its heading (a deck's index sections span several slides: not a slide)."""
    return f"p{page}" if page is not None else "§" + (heading or "").split(" > ")[-1]


def _primaries(drafts: Sequence[Draft]) -> tuple[dict[tuple[str, str], Draft], set[tuple[str, str, str]],
                                                  set[tuple[str, str]]]:
    """The best short draft with an item per (source, idea key) and per (source, slide); the (source, idea, type)
    the drafts hold; the (source, slide) they ask."""
    primary: dict[tuple[str, str], Draft] = {}
    have: set[tuple[str, str, str]] = set()
    asked: set[tuple[str, str]] = set()
    for d in drafts:
        if not d.idea:
            continue
        have.add((d.chunk.source, d.idea, d.question.type))
        slide = (d.chunk.source, _slide(d.chunk.locator.page, d.chunk.locator.heading))
        asked.add(slide)
        if d.item and not d.fallback and d.question.type == "short":
            for k in ((d.chunk.source, d.idea), slide):
                p = primary.get(k)
                if p is None or (-d.priority, d.question.id) < (-p.priority, p.question.id):
                    primary[k] = d
    return primary, have, asked
