"""Exercise generation: which passages a quiz draws on, selection and the service (the writer seam's
types live in :mod:`kb.writing.seam`, the course's term statistics in :mod:`kb.writing.course`; both
are importable from here too).

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

import functools
import math
import os
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Sequence

from ..errors import Phrase, UsageError
from ..i18n import N_, Message
from ..quiz import TYPES, Citation, Question, Quiz
from ..records import Chunk, source_matcher
from ..text import fold, words
from .checks import SUPPORT_THRESHOLD, support, word_overlap  # noqa: F401  (public names)
from .course import _EXERCISE_HEADING, _SKIP_HEADING, CourseTerms, _clean, _term_ok  # noqa: F401  (their old import path)
from .seam import Draft, GenerationRequest, QuestionWriter, Rejected, WriterOutput  # noqa: F401

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
    ideas: list[frozenset[str]] = []
    for i, d in enumerate(order):
        q = d.question
        if q.id in ids or (q.type, d.key) in keys:
            continue
        mine = {x for x in d.item.split("|") if x}
        if mine & items:  # one question per source sentence, whatever its type: the best one
            rejected.append(Rejected(q.prompt[:80], Message(N_("its sentence is asked by a better question"))))
            continue
        idea = _idea(q)
        if any(idea and o and len(idea & o) >= _SAME_IDEA * min(len(idea), len(o)) for o in ideas):
            rejected.append(Rejected(q.prompt[:80], Message(N_("its idea is asked by a better question"))))
            continue  # the same sentence in two sources (a deck and its transcript), or its cloze
        if q.id in duplicate_questions([order[j].question for j in kept] + [q]):
            rejected.append(Rejected(q.prompt[:80], Message(N_("asks what a kept question asks"))))
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


@functools.lru_cache(maxsize=8192)
def _idea(q: Question) -> frozenset[str]:
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
    st = frozenset(stems(text))
    return st if len(st) >= 5 else frozenset()


def _section(d: Draft) -> tuple[str, str]:
    if d.section:  # the deck's own section (kb.outline) of the idea the draft asks
        return d.chunk.source, "§" + d.section
    loc = d.chunk.locator
    return d.chunk.source, (f"p{loc.page}" if loc.page is not None else (loc.heading or "")[:60])


class _Selection:
    """The drafts chosen so far, and the ideas, items and types they use up."""

    def __init__(self, primary: dict[int, Draft] | None = None) -> None:
        self.chosen: list[Draft] = []
        self.used_keys: set[str] = set()
        self.used_items: set[str] = set()
        self.per_type: Counter[str] = Counter()
        # an alternative form (by ``id``) → the pool's draft of its sentence: taking a form uses up both's
        # term and sentences (a true/false keyed "oversampling" whose short form is "oversampling|undersampling")
        self.primary = primary or {}

    def take(self, d: Draft) -> None:
        self.chosen.append(d)
        self.per_type[d.question.type] += 1
        for x in {id(d): d, id(p := self.primary.get(id(d), d)): p}.values():
            self.used_keys.add(x.key)
            self.used_items.update(i for i in x.item.split("|") if i)

    def without(self, out: Draft) -> _Selection:
        """The same selection less ``out``."""
        rest = _Selection(self.primary)
        for d in self.chosen:
            if d is not out:
                rest.take(d)
        return rest

    def free(self, d: Draft) -> bool:
        """Not chosen yet, its idea and its items not asked about yet, not the very stem of a chosen short
        answer (two slides asked of one topic: "¿qué es el ring all-reduce?"), and neither its answer written
        in a chosen stem nor a chosen answer written in its stem."""
        from .checks import answer_written_in

        if d in self.chosen or d.key in self.used_keys or any(x in self.used_items for x in d.item.split("|") if x):
            return False
        if d.question.type == "short" and any(c.question.prompt == d.question.prompt for c in self.chosen):
            return False
        # (between d and the chosen ones only: two chosen questions that give each other away, which an earlier
        # stage let through, turned every further candidate down — round 30's gpusort_es stopped at 5 of 12)
        chosen = [c.question for c in self.chosen]
        return not answer_written_in(d.question, chosen) and not any(answer_written_in(c, [d.question])
                                                                      for c in chosen)


def _forms(pool: Sequence[Draft], alternates: Sequence[Draft], request: GenerationRequest) -> dict[int, list[Draft]]:
    """For each pool draft (by ``id``), the other forms written from its sentence(s) — a definition's
    short answer and its multiple choice or cloze, a scope's question and its false statement — that
    :func:`dedupe` set aside (one question per sentence). Each has passed the checks; only the asked
    types and difficulty, one per type, none that reads a sentence the draft does not."""
    from .wording import q_unsituated

    pooled = {id(d) for d in pool}
    out: dict[int, list[Draft]] = {}
    for d in pool:
        mine = {x for x in d.item.split("|") if x}
        if not mine:
            continue
        alts: dict[str, Draft] = {}
        for a in alternates:
            t = a.question.type
            if (id(a) in pooled or t == d.question.type or t not in request.types
                    or (request.difficulty and a.question.difficulty != request.difficulty)):
                continue
            theirs = {x for x in a.item.split("|") if x}
            if t == "cloze" and q_unsituated(a.question.prompt.split(": ", 1)[-1]):
                continue  # a sentence to complete in place of a question says where it is ("En PyTorch, _____ …")
            if theirs and theirs <= mine and (t not in alts or a.priority > alts[t].priority):
                alts[t] = a
        if alts:
            out[id(d)] = sorted(alts.values(), key=lambda a: (-a.priority, a.question.id))
    if out:  # a form whose answer another draft's stem writes ("DTensor" in "En DTensor, …") would keep
        # that draft out of the quiz (answers_elsewhere): its idea stays in the form dedupe chose
        from .checks import answer_written_in

        for k, found in list(out.items()):  # (its own sentence's question writes its answer, of course)
            others = [p.question for p in pool if id(p) != k]
            out[k] = [a for a in found if not answer_written_in(a.question, others)]
    return {k: v for k, v in out.items() if v}


def _best_form(sel: _Selection, d: Draft, forms: dict[int, list[Draft]], cap: int | None = None) -> Draft | None:
    """The form of ``d``'s idea to ask: ``d`` itself (the form :func:`dedupe` ranked first) unless its
    type already leads the quiz by two or more over another free form's type — then that form, so the
    mix stays near the target (no type above ~40 %). None when no form is free (or all are at ``cap``)."""
    cands = [f for f in (d, *forms.get(id(d), ())) if _form_free(sel, f, d)
             and not (cap is not None and sel.per_type[f.question.type] >= cap)]
    if not cands:
        return None
    return min(cands, key=lambda f: (sel.per_type[f.question.type] - (f is d), f is not d, -f.priority, f.question.id))


def _form_free(sel: _Selection, f: Draft, primary: Draft) -> bool:
    """Free, and not the same idea or question as a chosen one: what :func:`dedupe` checked among the
    pool's drafts, checked again here because a chosen question may be another sentence's other form."""
    if not sel.free(f):
        return False
    from .checks import duplicate_questions

    idea = _idea(f.question)
    if idea and any((o := _idea(c.question)) and len(idea & o) >= _SAME_IDEA * min(len(idea), len(o))
                    for c in sel.chosen):
        return False
    return f.question.id not in duplicate_questions([*(c.question for c in sel.chosen), f.question])


def _selection_pool(drafts: list[Draft], request: GenerationRequest, notes: list[str]) -> list[Draft]:
    """The drafts of the asked types (and difficulty), best first."""
    pool = [d for d in drafts if d.question.type in request.types]
    if request.difficulty:
        matching = [d for d in pool if d.question.difficulty == request.difficulty]
        if len(matching) < request.n:
            notes.append(Message("--difficulty {difficulty}: the material supports {n} such questions",
                                 difficulty=request.difficulty, n=len(matching)))
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


def _take_type_floors(sel: _Selection, ordered_groups: list[list[Draft]], request: GenerationRequest,
                      forms: dict[int, list[Draft]] | None = None) -> None:
    """A floor for each asked type the material has (20 questions, 4 types: 2 each), best first; an
    idea's other form counts (a definition's multiple choice for its short answer)."""
    forms = forms or {}
    floor = max(1, request.n // (2 * len(request.types))) if len(request.types) > 1 else 0
    for t in request.types:
        for g in ordered_groups:
            if sel.per_type[t] >= floor or len(sel.chosen) >= request.n:
                break
            pick = next((f for d in g for f in (d, *forms.get(id(d), ()))
                         if f.question.type == t and _form_free(sel, f, d)), None)
            if pick is not None and not any(_section(x) == _section(pick) for x in sel.chosen):
                sel.take(pick)


def _take_rounds(sel: _Selection, ordered_groups: list[list[Draft]], request: GenerationRequest, cap: int,
                 forms: dict[int, list[Draft]] | None = None) -> None:
    """One question per section per round until n, first with no type above cap, then without the cap;
    each idea asked in the form that keeps the mix nearest the target (:func:`_best_form`)."""
    forms = forms or {}
    for capped in (True, False):
        progress = True
        while progress and len(sel.chosen) < request.n:
            progress = False
            for g in ordered_groups:
                if len(sel.chosen) >= request.n:
                    break
                free = [(d, f) for d in g if (f := _best_form(sel, d, forms, cap if capped else None)) is not None]
                if not free:
                    continue
                # among the section's near-best ideas, the type the quiz has least of
                near = [(d, f) for d, f in free if d.priority >= free[0][0].priority - 0.5]
                sel.take(min(near, key=lambda df: (sel.per_type[df[1].question.type], -df[0].priority,
                                                   df[0].question.id))[1])
                progress = True


def _rebalance(sel: _Selection, pool: list[Draft], forms: dict[int, list[Draft]], share: float = 0.4) -> None:
    """After selection, while a type holds more than ``share`` of the quiz, ask one of its ideas in
    another form of a type at least two behind (a definition's cloze for its short answer), the one
    that costs least priority: the same ideas, the mix nearer the target (2 questions: one each)."""
    primary = {id(f): d for d in pool for f in (d, *forms.get(id(d), ()))}
    while sel.chosen:
        count = Counter(d.question.type for d in sel.chosen)
        top, most = count.most_common(1)[0]
        if most <= share * len(sel.chosen):
            return
        best: tuple[float, Draft, Draft] | None = None
        for c in sel.chosen:
            p = primary.get(id(c))
            if c.question.type != top or p is None:
                continue
            rest = sel.without(c)
            for f in (p, *forms.get(id(p), ())):
                if count[f.question.type] + 2 <= most and _form_free(rest, f, p) \
                        and (best is None or c.priority - f.priority < best[0]):
                    best = (c.priority - f.priority, c, f)
        if best is None:
            return
        sel.chosen[sel.chosen.index(best[1])] = best[2]
        sel.per_type = Counter(d.question.type for d in sel.chosen)


def _no_lone_mcq(sel: _Selection, pool: list[Draft], alternates: Sequence[Draft] = (),
                 forms: dict[int, list[Draft]] | None = None) -> None:
    """One multiple choice alone has its right option wherever it is: 100 % at one position.
    Ask a second chosen idea in its multiple-choice form, else bring in a second (in place of the
    weakest true/false or cloze), else ask the lone one in another form of its sentence (its cloze
    among ``alternates``, the drafts before one question per sentence was kept, first), else the
    next best idea."""
    mcqs = [d for d in sel.chosen if d.question.type == "mcq"]
    if len(mcqs) != 1:
        return
    forms = forms or {}
    primary = {id(f): d for d in pool for f in (d, *forms.get(id(d), ()))}

    without = sel.without

    for c in [d for d in sel.chosen if d.question.type != "mcq" and id(d) in primary]:
        p = primary[id(c)]
        mcq = next((f for f in (p, *forms.get(id(p), ())) if f.question.type == "mcq"), None)
        if mcq is not None and _form_free(without(c), mcq, p):
            sel.chosen[sel.chosen.index(c)] = mcq
            return
    weakest = sorted((d for d in sel.chosen if d.question.type in ("tf", "cloze")), key=lambda d: d.priority)
    for cand in (d for d in pool if d.question.type == "mcq" and d not in sel.chosen):
        for out in weakest:
            if without(out).free(cand):
                sel.chosen[sel.chosen.index(out)] = cand
                return
    lone = mcqs[0]
    rest = without(lone)
    ranked = sorted(pool, key=lambda d: -d.priority)
    from .wording import q_unsituated

    # (checked as every other form is: free, not a chosen idea or question, a cloze that says where it is)
    same = [d for d in alternates if d.item == lone.item and d.question.type == "cloze" and _form_free(rest, d, lone)
            and not q_unsituated(d.question.prompt.split(": ", 1)[-1])]
    own = primary.get(id(lone))
    mine = [] if own is None else [f for f in (own, *forms.get(id(own), ()))
                                   if f.question.type != "mcq" and _form_free(rest, f, own)]
    other = (next(iter(same), None) or next(iter(mine), None)
             or next((d for d in ranked if d.question.type != "mcq" and rest.free(d)), None))
    if other is not None:  # the same sentence's cloze or other form, or the next best idea
        sel.chosen[sel.chosen.index(lone)] = other


def select(drafts: list[Draft], request: GenerationRequest,
           alternates: Sequence[Draft] = ()) -> tuple[list[Draft], list[str]]:
    """Up to n questions, central ideas first, spread over sources and sections (one question
    per section per round), one question per idea and per term, no type above ~40 % when
    several were asked for. ``alternates`` (every draft, before :func:`dedupe`) give a lone
    multiple choice its own sentence's cloze. Returns the chosen drafts and notes on why fewer
    were chosen."""
    notes: list[str] = []
    pool = _selection_pool(drafts, request, notes)
    ordered_groups = _section_groups(pool)
    forms = _forms(pool, alternates, request) if len(request.types) > 1 else {}
    cap = max(2, math.ceil(0.4 * request.n)) if len(request.types) > 1 else request.n
    sel = _Selection({id(f): d for d in pool for f in forms.get(id(d), ())})
    _take_type_floors(sel, ordered_groups, request, forms)
    _take_rounds(sel, ordered_groups, request, cap, forms)
    _rebalance(sel, pool, forms)
    had_mcq = any(d.question.type == "mcq" for d in sel.chosen)
    _no_lone_mcq(sel, [d for g in ordered_groups for d in g],
                 [d for d in alternates if d.question.type in request.types], forms)
    if had_mcq and not any(d.question.type == "mcq" for d in sel.chosen):
        notes.append(Message("no multiple choice: the material gave one, and one alone has its right option at "
                             "one position, so it is asked in another form"))
    order = {t: i for i, t in enumerate(TYPES)}
    return sorted(sel.chosen, key=lambda d: (d.chunk.source, d.chunk.ordinal, order[d.question.type])), notes


def _take_further(sel: _Selection, groups: list[list[Draft]], near: Callable[[Draft], bool], n: int,
                  forms: dict[int, list[Draft]], pool: list[Draft], several: bool) -> None:
    """Up to n, one form of each further idea (``groups``: its forms; none ``near`` a chosen one), in order; an idea
    whose only free forms would put a type above ~40 % waits until every other further idea is tried (a slide
    asked of its topic has a short answer only: kb/writing/pattern_topic.py)."""
    cap = max(2, math.ceil(0.4 * n)) if several else None
    waiting: list[Draft] = []
    for g in groups:
        if len(sel.chosen) >= n:
            return
        live = [f for f in g if not near(f)]  # (a near-duplicate form: the idea may still be asked in another)
        if not live:
            continue
        pool.append(live[0])
        forms[id(live[0])] = live[1:] if several else []  # (a further idea: no draft of the pool)
        pick = _best_form(sel, live[0], forms, cap)
        if pick is None and cap is not None:
            waiting.append(live[0])
        elif pick is not None:
            sel.take(pick)
    for d in waiting:
        if len(sel.chosen) >= n:
            return
        if (pick := _best_form(sel, d, forms)) is not None:
            sel.take(pick)


def _fill(chosen: list[Draft], more: Sequence[Draft], n: int, embedder=None, threshold: float = 0.88,
          request: GenerationRequest | None = None, pool: Sequence[Draft] = (),
          alternates: Sequence[Draft] = ()) -> list[Draft]:
    """The chosen drafts and, up to n, one form of each further idea in ``more`` (its forms are the
    drafts of one ``item`` in a row: plan.fill_questions), each free of them (:func:`_form_free`: not the
    same term, sentence, idea or question, no answer given away either way; with ``embedder``, no
    near-duplicate of a chosen one of its type, as :func:`dedupe` checks the pool), in the chosen ones'
    order. Each idea is asked in the form that keeps the mix (:func:`_best_form`; with ``request``, only
    its types and difficulty), and the quiz is rebalanced after, so no type holds above ~40 % of it when
    the fill could ask another form (a filled quiz used to be two thirds short answers): a chosen idea's other
    forms too (``pool``, the drafts selection chose from, and ``alternates``, as :func:`select` takes them)."""
    sel = _Selection()
    for d in chosen:
        sel.take(d)
    if request is not None:
        more = _asked_kinds(more, request)
    from .form_prior import worth

    # last resorts last, a planned (top) idea's first, then the forms teachers keep most and drop least
    # (form_prior.worth; as weighed against the draft's deck, Draft.worth), in a pass of their own: a further idea
    # whose short answer waits for the mix (_take_further) goes before any last resort
    last = sorted((d for d in more if d.fallback),
                  key=lambda d: (d.plan is None, -(worth(d.question) if d.worth is None else d.worth)))
    more = [*(d for d in more if not d.fallback), *last]
    groups: list[list[Draft]] = []
    for d in more:
        if groups and d.item and groups[-1][0].item == d.item and groups[-1][0].fallback == d.fallback:
            groups[-1].append(d)
        else:
            groups.append([d])
    vec: dict[int, object] = {}
    if embedder is not None and more and len(chosen) < n:
        texts = [f"{d.question.prompt}\n{d.question.answer}" for d in [*chosen, *more]]
        vec = dict(zip((id(d) for d in [*chosen, *more]), embedder.embed_documents(texts), strict=True))

    def near(d: Draft) -> bool:
        return bool(vec) and any(c.question.type == d.question.type
                                 and float(vec[id(c)] @ vec[id(d)]) >= threshold  # type: ignore[operator]
                                 for c in sel.chosen)

    several = request is None or len(request.types) > 1
    forms: dict[int, list[Draft]] = _forms(pool, alternates, request) if several and request and pool else {}
    pool = list(pool)
    for stage in (False, True):  # the other forms, then the last resorts
        _take_further(sel, [g for g in groups if g[0].fallback == stage], near, n, forms, pool, several)
    if several and len(sel.chosen) > len(chosen):
        _rebalance(sel, pool, forms)
        _no_lone_mcq(sel, pool, (), forms)
    order = {t: i for i, t in enumerate(TYPES)}
    return sorted(sel.chosen, key=lambda d: (d.chunk.source, d.chunk.ordinal, order[d.question.type]))


def _fill_short(ws, request: GenerationRequest, course: CourseTerms, passages: Sequence[Chunk], planned: int,
                chosen: list[Draft], last: list[Draft], kept: list[Draft], drafts: list[Draft]) -> list[Draft]:
    """A quiz short of n (the offline writer): plain questions on further outline ideas, where short answers are
    asked for at the default difficulty, then the last resorts (``last``: asked only after every other form); where
    short answers are not asked for, the last resorts of the types asked ("--types cloze": a cloze on a prose word)."""
    from . import form_prior, plan

    if "short" not in request.types or request.difficulty not in ("", None, "medium"):
        return _fill(chosen, last, request.n, ws.embedder, request=request, pool=kept, alternates=drafts) \
            if last else chosen
    # (a top idea's last resort before a further idea's: _fill asks every last resort after the other forms)
    from .subject import whole_text

    by_id = {c.id: c for c in passages}
    more = plan.fill_questions(course.outlines, chosen, by_id, course, planned, request.lang)
    form_prior.weigh(more, last_resorts=True, deck_text=functools.partial(whole_text, course))
    chosen = _fill(chosen, [*last, *more], request.n, ws.embedder, request=request, pool=kept, alternates=drafts)
    if len(chosen) < request.n and more:
        # still short: the fill took one idea per passage, and where the fill turned that idea's forms down
        # (same term or sentence as a chosen question) the passage's other ideas are reached in a second pass
        again = plan.fill_questions(course.outlines, chosen, by_id, course, planned, request.lang,
                                    skip=frozenset(d.idea for d in more if d.idea))
        form_prior.weigh(again, last_resorts=True, deck_text=functools.partial(whole_text, course))
        if again:
            chosen = _fill(chosen, again, request.n, ws.embedder, request=request, pool=kept, alternates=drafts)
    return chosen


def _asked_kinds(drafts: Sequence[Draft], request: GenerationRequest) -> list[Draft]:
    """The drafts of the types and the difficulty asked for."""
    return [d for d in drafts if d.question.type in request.types
            and not (request.difficulty and d.question.difficulty != request.difficulty)]


def _spare_mcqs(last: Sequence[Draft], request: GenerationRequest, chosen: Sequence[Draft]) -> list[Draft]:
    """The last-resort multiple choices a lone one may be paired with: one of four options first (a guess 1 in 4;
    ``mcq:few`` and ``mcq:unnamed`` are last resorts of near worth), then the one of most worth."""
    return sorted((d for d in _asked_kinds(last, request) if d.question.type == "mcq" and d not in chosen),
                  key=lambda d: (len(d.question.choices) < 4, -(d.worth if d.worth is not None else 0.0)))


def _second_mcq(chosen: list[Draft], last: Sequence[Draft], request: GenerationRequest) -> list[Draft]:
    """A lone multiple choice gets a second from the last resorts (:func:`_spare_mcqs`) in place of the weakest
    true/false or cloze (:func:`_no_lone_mcq`): one alone has its right option at one position."""
    spare = _spare_mcqs(last, request, chosen)
    if not spare or sum(d.question.type == "mcq" for d in chosen) != 1:
        return chosen
    sel = _Selection()
    for d in chosen:
        sel.take(d)
    _no_lone_mcq(sel, spare)
    return sel.chosen


def _pair_mcq(chosen: list[Draft], pool: Sequence[Draft], alternates: Sequence[Draft], last: Sequence[Draft],
              request: GenerationRequest) -> list[Draft]:
    """A quiz of several types with no multiple choice where a chosen idea has one among its forms that is no last
    resort asks it, paired with a second (:func:`_no_lone_mcq`: another chosen idea's, a further draft's, else a last
    resort, :func:`_spare_mcqs`, in place of the weakest true/false or cloze);
    where none comes, the quiz stays as it was. A last-resort multiple choice (``mcq:unnamed``) kept out of the quiz
    used to keep out the one it would have been paired with too (optuna_es's "Objective / Trial / Study", session
    27)."""
    if "mcq" not in request.types or len(request.types) < 2 or any(d.question.type == "mcq" for d in chosen):
        return chosen
    asked = list(_asked_kinds(pool, request))
    forms = _forms(asked, [d for d in alternates if d.question.type in request.types], request)
    primary = {id(f): d for d in asked for f in (d, *forms.get(id(d), ()))}
    sel = _Selection({id(f): d for d in asked for f in forms.get(id(d), ())})
    for d in chosen:
        sel.take(d)
    best: tuple[Draft, Draft] | None = None
    for c in sel.chosen:
        p = primary.get(id(c))
        if p is None:
            continue
        for f in (p, *forms.get(id(p), ())):
            if f.question.type == "mcq" and not f.fallback and _form_free(sel.without(c), f, p) \
                    and (best is None or f.priority > best[1].priority):
                best = (c, f)
    if best is None:
        return chosen
    sel.chosen[sel.chosen.index(best[0])] = best[1]
    _no_lone_mcq(sel, [*asked, *_spare_mcqs(last, request, sel.chosen)], (), forms)
    return sel.chosen if sum(d.question.type == "mcq" for d in sel.chosen) >= 2 else chosen


def _types_left_out(request: GenerationRequest, chosen: Sequence[Draft], last: Sequence[Draft],
                    said: Sequence[object] = ()) -> list[Message]:
    """A note for each type asked for (of several) whose every candidate was a last resort the quiz did not need (none
    for a multiple choice the notes ``said`` already account for: one alone, asked in another form)."""
    out = []
    lone_mcq = any(str(n).startswith("no multiple choice") for n in said)
    if len(request.types) > 1 and len(chosen) >= request.n:  # (a short quiz asked every last resort it could)
        spare = {d.question.id: d for d in _asked_kinds(last, request) if d not in chosen}
        for t in request.types:
            left = sum(1 for d in spare.values() if d.question.type == t)
            if left and not any(d.question.type == t for d in chosen) and not (t == "mcq" and lone_mcq):
                out.append(Message(N_("no question of type {type}: its {n} candidate(s) are of a form teachers "
                                      "seldom keep as written, left out as last resorts (--types {type} alone "
                                      "asks them)"), type=t, n=left))
    return out


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
    drafts: list[Draft] = field(default_factory=list)  # every candidate that passed the checks, aimed (plan.aim)
    chosen: list[Draft] = field(default_factory=list)  # the drafts the quiz's questions come from


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
        wanted = source_matcher(request.sources, root=getattr(ws.store, "root", None))
        everything, chunks = chunks, [c for c in chunks if wanted(c.source)]
        if not chunks:
            names = {os.path.basename(s.replace("\\", "/")) for s in request.sources}
            near = sorted({c.source for c in everything if os.path.basename(c.source) in names})
            if near:
                raise UsageError("--source {sources}: not in the knowledge base",
                                 "did you mean --source {near}? check kb sources for the exact paths, or ingest the "
                                 "file first", sources=", ".join(request.sources), near=" / ".join(near))
            raise UsageError("--source {sources}: not in the knowledge base",
                             "check kb sources for the exact paths, or ingest the file first",
                             sources=", ".join(request.sources))
    if request.topic:
        allowed = {c.id for c in chunks}
        hits = ws.retriever.search(request.topic, k=max(12, 2 * request.n))
        ranked = [h.chunk for h in hits if h.chunk.id in allowed]
        rel = topic_relevance(ws.embedder, request.topic, [c.text for c in ranked])
        on = [c for c, (ok, _) in zip(ranked, rel, strict=True) if ok]
        if not on:
            best = max((sim for _, sim in rel), default=0.0)
            raise UsageError("--topic {topic!r}: the course does not cover it (closest passage similarity "
                             "{best:.2f}, below {topic_floor})",
                             "try the words the course uses (kb search), or leave out --topic",
                             topic=request.topic, best=best, topic_floor=TOPIC_FLOOR)
        chunks = on
    return chunks


def generate_quiz(ws, request: GenerationRequest, writer: QuestionWriter, title: str | None = None,
                  now: str | None = None) -> GenerationReport:
    """Write a quiz from the knowledge base. Deterministic for the offline writer."""
    import datetime as dt

    from ..outline import TOP_IDEAS
    from . import form_prior, plan
    from .positions import balance_positions

    request.validate()
    all_chunks = list(ws.store.all_chunks())
    if not all_chunks:
        raise UsageError("the knowledge base is empty", "run kb ingest sources/ first")
    passages = choose_passages(ws, request, all_chunks)
    course = CourseTerms(all_chunks, ws.embedder)
    course.outlines = plan.outlines(passages, all_chunks)  # plan, then write: what each source teaches
    out = writer.write(passages, request, course)
    planned = plan.plan_size(request.n)
    plan.aim(out.drafts, course.outlines, planned)  # one question per top idea first, spread over the sections
    if writer.name == "offline" and "short" in request.types:  # a plain question on a top idea no pattern fits
        extra, failed = plan.plain_questions(course.outlines, out.drafts, {c.id: c for c in passages}, course,
                                             planned, request.lang)
        out.drafts += extra
        out.rejected += failed
    # the forms teachers keep first among drafts of near priority (kb.writing.form_prior); before the objective
    # forms are made, so a form ranks just below its question as weighed (objective_forms.FORM_STEP)
    # a form teachers keep far less often than the mean question, or drop more often than they keep, is a last resort
    # (Draft.fallback), for the offline writer whose questions the prior was fitted on (form_prior.last_resort)
    from .subject import whole_text

    offline, deck = writer.name == "offline", functools.partial(whole_text, course)  # (a form is read on its deck)
    form_prior.weigh(out.drafts, last_resorts=offline, deck_text=deck)
    if offline and set(request.types) - {"short"}:  # an asked idea's objective forms, for the mix
        # (the offline patterns' questions: not mixed into a model's quiz, which records the model as its writer)
        from .objective_forms import objective_alternates

        alternates = objective_alternates(course.outlines, out.drafts, {c.id: c for c in passages}, course,
                                          request.lang)
        form_prior.weigh(alternates, weight=0.0, last_resorts=True, deck_text=deck)  # (weighed as made; last resorts)
        out.drafts += alternates
    if request.topic:  # keep the topic's best passages first
        rank = {c.id: i for i, c in enumerate(passages)}
        for d in out.drafts:
            d.priority -= 0.05 * rank.get(d.chunk.id, len(rank))
    # one question per sentence among the types asked for (a short question does not keep out
    # the multiple choice of its sentence from a --types mcq,tf quiz)
    # (a last-resort form, Draft.fallback, waits for the fill: asked only when every other form is used)
    last = [d for d in out.drafts if d.fallback]
    drafts = [d for d in out.drafts if not d.fallback]
    kept, dup = dedupe([d for d in drafts if d.question.type in request.types], ws.embedder)
    chosen, notes = select(kept, request, drafts)
    if len(chosen) < request.n and writer.name == "offline":
        chosen = _fill_short(ws, request, course, passages, planned, chosen, last, kept, drafts)
    chosen = _second_mcq(chosen, last, request)
    chosen = _pair_mcq(chosen, kept, drafts, last, request)
    if any(d.question.type == "mcq" for d in chosen):  # (paired after all: select's "no multiple choice" note is moot)
        notes = [m for m in notes if not str(m).startswith("no multiple choice")]
    # a sentence asked in another form than dedupe kept: that form is no longer "rejected", its first is
    asked = {d.question.prompt[:80] for d in chosen}
    items = {x for d in chosen for x in d.item.split("|") if x}
    dup = [r for r in dup if r.what not in asked] + [
        Rejected(d.question.prompt[:80], Message(N_("its sentence is asked by a better question")))
        for d in [*kept, *_asked_kinds(last, request)]
        if d not in chosen and items & {x for x in d.item.split("|") if x}]
    # an exercise read from two overlapping passages is turned down twice: say (and count) it once
    rejected = list(dict.fromkeys(out.rejected + dup))
    notes = out.notes + notes + plan.coverage(course.outlines, chosen, out.drafts, rejected, TOP_IDEAS)
    notes += _types_left_out(request, chosen, last, notes)
    if last_used := sum(d.fallback for d in chosen):
        notes.append(Message(N_("{n} question(s) are a last resort to reach {asked}, of a form teachers seldom keep "
                                "as written (a slide's topic in general words, a one-line answer, three options): "
                                "review them first (kb quiz review)"),
                             n=last_used, asked=request.n))
    if len(chosen) < request.n:
        scope = (f"--topic {request.topic!r}" if request.topic else
                 ", ".join(request.sources) if request.sources else Phrase(N_("the course")))
        why = Counter(r.reason.split(":")[0] if r.reason.startswith("failed") else r.reason
                      for r in rejected)
        # each reason counted, in words (the check names stay in --json): "8 failed checks; 1 …"; the
        # words of a reason are translated with the note (N_: the catalogs have them)
        N_("failed checks")
        parts = {f"r{i}": Message("{n} {reason}", n=n, reason=Phrase(reason))
                 for i, (reason, n) in enumerate(why.most_common(3))}
        template = "; ".join(f"{{{k}}}" for k in parts)
        detail = Message(template, **parts) if parts else ""
        notes.append(Message(N_("wrote {n} of {asked}: {scope} supports only {n} question that passes the checks "
                                "({passages} passages, {candidates} candidates{rejected})") if len(chosen) == 1 else
                             N_("wrote {n} of {asked}: {scope} supports only {n} questions that pass the checks "
                                "({passages} passages, {candidates} candidates{rejected})"),
                             n=len(chosen), asked=request.n, scope=scope, passages=len(passages),
                             candidates=len(out.drafts),
                             rejected=Message("; rejected: {detail}", detail=detail) if detail else ""))
    from dataclasses import replace

    from .setting import contracted, unrepeated

    def worded(q: Question) -> Question:
        # a short question's setting the question itself repeats is left out ("Em AWQ, quando usar AWQ?"); a setting
        # that opens on its article contracts with "Em" ("Em a biblioteca Thrust," → "Na biblioteca Thrust,")
        p = contracted(unrepeated(q.prompt) if q.type == "short" else q.prompt, q.lang)
        return replace(q, prompt=p, id="") if p != q.prompt else q

    questions = balance_positions([worded(d.question) for d in chosen])
    info = ws.store.info
    quiz = Quiz(
        title=title or quiz_title(request, [q.lang for q in questions]),
        questions=tuple(questions),
        created_at=now or dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat(),
        generator=getattr(writer, "generator", None)
        or ({"kind": "offline"} if writer.name == "offline" else {"kind": "llm", "model": writer.name}),
        kb={"location": info["location"], "collection": info["collection"], "revision": info["revision"],
            "embedder": info["embedder"], "chunks": info["chunks"]},
        params={"n": request.n, "types": list(request.types), "topic": request.topic, "sources": list(request.sources),
                "difficulty": request.difficulty, "lang": request.lang},
    )
    return GenerationReport(quiz, rejected, out.errors, len(out.drafts), len(passages), notes, out.drafts, chosen)


def quiz_title(request: GenerationRequest, langs: list[str]) -> str:
    """"Quiz: <topic | sources | whole course>" in the questions' language (a title students read)."""
    from ..i18n import in_language, main_language

    lang = main_language(langs) or "en"
    if request.topic:
        what = request.topic
    elif request.sources:
        what = ", ".join(s.rsplit("/", 1)[-1] for s in request.sources)
    else:
        what = in_language(lang, "whole course")
    return in_language(lang, "Quiz: {what}").format(what=what)


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
