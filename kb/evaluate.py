"""Measurements anyone can rerun: retrieval quality over a JSONL query set.

Each line of the query file: ``{"query": "...", "evidence": ["phrase", ...]}``. A hit is
relevant when any evidence phrase occurs in what the user sees of it, its heading and text
(accents, case and spacing ignored). An optional ``"split"`` ("dev"/"test") marks which
queries may guide choices and which are held out.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator, Sequence

from .errors import InputError
from .grading.agreement import agreement, pearson
from .i18n import N_, Message
from .records import source_matcher
from .search import Retriever
from .text import fold


@dataclass(frozen=True)
class EvalQuery:
    """One retrieval query with the evidence strings a relevant passage contains."""

    query: str
    evidence: tuple[str, ...]
    lang: str | None = None
    line: int = 0
    split: str | None = None  # "dev" (may guide choices) or "test" (held out), when the file says


def jsonl_objects(path: Path, hint: str) -> Iterator[tuple[int, dict]]:
    """(line number, object) of each non-blank, non-``#`` line of a JSONL file; a missing file (with
    ``hint``) or a line that is not JSON is an InputError naming the file and the line. A line that is
    JSON but not an object gives ``{}``, for the caller to name what it lacks."""
    if not path.exists():
        raise InputError("{path}: no such file", hint, path=path)
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            raise InputError("{path}:{n}: not valid JSON ({msg})",
                             "write one JSON object per line",
                             path=path, n=n, msg=e.msg) from e
        yield n, obj if isinstance(obj, dict) else {}


def load_queries(path: Path) -> list[EvalQuery]:
    """Read and validate a query file; errors name the file, the line and the fix."""
    out: list[EvalQuery] = []
    for n, obj in jsonl_objects(path, N_("give a JSONL file with one {{\"query\", \"evidence\"}} object per line")):
        q, ev = obj.get("query"), obj.get("evidence")
        if not isinstance(q, str) or not q.strip():
            raise InputError("{path}:{n}: missing \"query\"",
                             "add \"query\": \"the question\"",
                             path=path, n=n)
        if isinstance(ev, str):
            ev = [ev]
        if not isinstance(ev, list) or not ev or not all(isinstance(e, str) and e.strip() for e in ev):
            raise InputError("{path}:{n}: \"evidence\" must be a non-empty list of phrases",
                             "add \"evidence\": [\"a phrase the relevant passage contains\"]",
                             path=path, n=n)
        out.append(EvalQuery(q, tuple(ev), obj.get("lang"), n, obj.get("split")))
    if not out:
        raise InputError("{path}: no queries found",
                         "add one JSON object per line",
                         path=path)
    return out


def _norm(s: str) -> str:
    return re.sub(r"\s+", " ", fold(s)).strip()


def is_relevant(text: str, evidence: Sequence[str]) -> bool:
    """Whether a passage contains one of the evidence strings (case, accents and spacing ignored)."""
    t = _norm(text)
    return any(_norm(e) in t for e in evidence)


def seen_text(chunk) -> str:
    """What the user sees of a hit, and what relevance is judged on: heading and passage."""
    return f"{chunk.locator.heading or ''}\n{chunk.text}"


def evaluate_retrieval(retriever: Retriever, queries: Sequence[EvalQuery], k: int = 10, mode: str = "hybrid") -> dict:
    """hit@1, hit@5 and MRR@k (fractions 0–1) plus the first relevant rank of each query."""
    results = retriever.search_many([q.query for q in queries], k=max(k, 10), mode=mode)
    per_query = []
    h1 = h5 = rr = 0.0
    for q, hits in zip(queries, results, strict=True):
        rank = next((h.rank for h in hits if is_relevant(seen_text(h.chunk), q.evidence)), None)
        h1 += rank == 1
        h5 += rank is not None and rank <= 5
        rr += 1.0 / rank if rank is not None and rank <= k else 0.0
        per_query.append({"query": q.query, "lang": q.lang, "rank": rank,
                          "top": hits[0].chunk.citation() if hits else None})
    n = len(queries)
    return {"mode": mode, "n": n, "k": k, "hit@1": h1 / n, "hit@5": h5 / n, f"mrr@{k}": rr / n,
            "mrr@10": _mrr_at(per_query, 10), "queries": per_query}


def _mrr_at(per_query: list[dict], k: int) -> float:
    return sum(1.0 / q["rank"] for q in per_query if q["rank"] and q["rank"] <= k) / max(1, len(per_query))


def _section(chunk) -> tuple:
    """The part of a source a citation points a student to: its page, heading or transcript segment."""
    loc = chunk.locator
    return (chunk.source, loc.page, loc.heading, loc.segment)


def evaluate_quiz(ws, quiz, duplicate_threshold: float = 0.88, reviewer: Any = None) -> dict:
    """What a teacher would find wrong with a quiz, checked against the knowledge base.

    Per question (:mod:`kb.writing.checklist`, the one registry the writers run too): cut-off text, a stem
    that gives the answer away, options naming the same thing, an answer the cited passage does
    not support (true/false: a true statement must be in the passage, a false one must
    contradict a quote that is), distractors or false-statement words the cited source never
    mentions (implausible to its students), an answer another question writes in its stem
    (``answer-elsewhere``), a claim the source's own code contradicts (``contradicts-code``), a
    short answer of empty qualifiers (``vague-answer``), plus off-topic (for a ``--topic`` quiz:
    the cited passage is not about the topic), a language that is not the question's, and near-duplicates
    (prompt + answer cosine ≥ 0.88, the later one counts). The headline ``clean`` is the share
    of questions with none of these; the registry's advisory flags (``vague-stem``: a form a teacher
    mostly edits, which kb's writers no longer write but a quiz written elsewhere or before may hold)
    are reported in ``defects`` but do not count against it.

    Per quiz: the most common correct position's share of the multiple choice
    (``position_skew``), questions written vs asked, and coverage of the sections (PDF pages,
    heading paths) of the sources the quiz was asked for — not of the whole course — and of their top
    ideas (``top_ideas``: the 5 most central ideas of each such source that the quiz cites, by :mod:`kb.outline`).
    ``answerable@5`` (the prompt retrieves its own passage in the top 5) is reported, not a defect.

    Advisory, beside the checks: each question's ``drop_risk`` (:mod:`kb.writing.defect_model`, a model
    learned from teachers' KEEP/FIX/DROP ratings: ``p``, ``likely``, ``why``) and ``likely_dropped``, their
    count. It removes nothing and does not count against ``clean``.

    With a ``reviewer`` (:class:`kb.llm.reviewer.LLMReviewer`: a model configured), each question is also read by
    the model with its cited passage and its deck's outline: ``model_review`` per question (``verdict`` keep, fix
    or drop, and ``reason``; None when not reviewed) and, per quiz, the count of each verdict, ``failed`` (questions
    whose request failed) and ``failure`` with ``failure_hint`` (the first failed request's error and fix, "").
    Advisory too: ``flagged`` (in ``--json``) counts the questions a check or the model's drop names, which is what
    a teacher should read first.
    """
    from collections import Counter, defaultdict

    from .llm.reviewer import review_questions
    from .outline import TOP_IDEAS, build_outline
    from .text import detect_language
    from .writing.checklist import ADVISORY, CheckContext, question_defects, quiz_defects
    from .writing.checks import (
        position_skew,
        thin_concepts,
        vocabulary,
    )
    from .writing.defect_model import drop_risk
    from .writing.generate import CourseTerms, passage_usable, topic_relevance
    from .writing.plan import top_idea_coverage
    from .writing.subject import deck_subject

    qs = list(quiz.questions)
    if not qs:
        raise InputError("the quiz has no questions", "generate some with kb quiz generate")
    cited_ids = [q.citations[0].chunk_id if q.citations else "" for q in qs]
    chunks = {c.id: c for c in ws.store.get([i for i in cited_ids if i])}
    source_text: dict[str, str] = defaultdict(str)
    section_text: dict[tuple, str] = defaultdict(str)  # a page or heading's passages, in order
    cited_sources = {c.source for c in chunks.values()}
    every_chunk = sorted(ws.store.all_chunks(), key=lambda c: (c.source, c.ordinal))
    for c in every_chunk:
        if c.source in cited_sources:
            source_text[c.source] += f"\n{c.locator.heading or ''}\n{c.text}"
            section_text[_section(c)] += f"\n{c.text}"
    found: list[list[str]] = []
    outlines: dict = {}  # what each cited source teaches: its subject, for the stem-setting check
    course = CourseTerms(every_chunk, ws.embedder)  # the course's own verb test, as the writer runs it
    vocabs = {src: vocabulary(text) for src, text in source_text.items()}
    for q, cid in zip(qs, cited_ids, strict=True):
        chunk = chunks.get(cid)
        if chunk is None:
            found.append(["unsupported"] + (["thin-concepts"] if thin_concepts(q) else []))
            continue
        if chunk.source not in outlines:
            outlines[chunk.source] = build_outline(every_chunk, chunk.source)
            # (as generate_quiz gives the writers: a source without pages takes its subject from its outline)
            course.outlines[chunk.source] = outlines[chunk.source]
        ctx = CheckContext(chunk.text, source_text[chunk.source], vocabs.get(chunk.source), ws.embedder,
                           course.verb_like, outline=outlines[chunk.source], subject=deck_subject(course, chunk.source))
        found.append(question_defects(q, ctx, section_text[_section(chunk)]))
    topic = quiz.params.get("topic") if isinstance(quiz.params, dict) else None
    if topic:
        rel = topic_relevance(ws.embedder, topic, [chunks[c].text if c in chunks else "" for c in cited_ids])
        for f, (ok, _) in zip(found, rel, strict=True):
            if not ok:
                f.append("off-topic")
    lang_ok = [detect_language(q.prompt, default=q.lang) == q.lang for q in qs]
    for f, ok in zip(found, lang_ok, strict=True):
        if not ok:
            f.append("language")
    across, dup_pairs = quiz_defects(qs, ws.embedder, duplicate_threshold)
    for q, f in zip(qs, found, strict=True):
        f += [d for d in across[q.id] if d not in f]
    results = ws.retriever.search_many([q.prompt for q in qs], k=5)
    answerable = [cid in {h.chunk.id for h in hits} for cid, hits in zip(cited_ids, results, strict=True)]

    # coverage of what the quiz was asked to cover
    kb_sources = sorted({r["source"] for r in ws.store.sources()})
    wanted = [str(x) for x in (quiz.params.get("sources") or [])] if isinstance(quiz.params, dict) else []
    chosen = source_matcher(wanted, root=getattr(ws.store, "root", None))
    scope = [s for s in kb_sources if not wanted or chosen(s)]
    used = {c.source for q in qs for c in q.citations}

    def section(c) -> tuple[str, str]:
        loc = c.locator
        return c.source, (f"p{loc.page}" if loc.page is not None else (loc.heading or ""))

    in_scope = [c for c in every_chunk if c.source in scope and passage_usable(c)]
    sections = {section(c) for c in in_scope}
    covered = {section(chunks[c]) for c in cited_ids if c in chunks} & sections
    plans = {src: build_outline(every_chunk, src) for src in scope if src in used or wanted}
    top_ideas = top_idea_coverage(qs, plans, TOP_IDEAS)
    n = len(qs)
    asked = int(quiz.params.get("n") or n) if isinstance(quiz.params, dict) else n
    mcq = sum(1 for q in qs if q.type == "mcq")
    tally = Counter(d for f in found for d in f)
    # advisory: learned from teachers' ratings (kb.writing.defect_model), never removes a question
    risks = [drop_risk(q, section_text[_section(chunks[c])], source_text[chunks[c].source]) if c in chunks
             else drop_risk(q) for q, c in zip(qs, cited_ids, strict=True)]
    reviews = [None] * n if reviewer is None else review_questions(
        reviewer, qs, [chunks.get(c) for c in cited_ids], every_chunk, course)
    review = {} if reviewer is None else {"model_review": {
        "model": reviewer.name, "reviewed": sum(1 for r in reviews if r),
        **{v: sum(1 for r in reviews if r and r["verdict"] == v) for v in ("keep", "fix", "drop")},
        "failure": reviewer.failure, "failure_hint": reviewer.failure_hint, "failed": reviewer.failed,
        "notes": list(reviewer.notes) + list(reviewer.client.notes),
        "usage": reviewer.client.usage.summary()}}
    return {
        "n": n,
        "asked": asked,
        "short_by": max(0, asked - n),
        "clean": sum(1 for f in found if not set(f) - set(ADVISORY)) / n,  # (advisory flags: reported, not counted)
        "defects": dict(sorted(tally.items())),
        "supported": sum(1 for f in found if "unsupported" not in f) / n,
        "answerable@5": sum(answerable) / n,
        "near_duplicate_pairs": len(dup_pairs),
        "language_match": sum(lang_ok) / n,
        "mcq": mcq,
        "position_skew": position_skew(qs),
        "types": dict(Counter(q.type for q in qs)),
        "source_coverage": len(used & set(scope)) / max(1, len(scope)),
        "section_coverage": len(covered) / max(1, len(sections)),
        "sections_covered": len(covered),
        "sections_total": len(sections),
        "sources_used": sorted(used),
        "likely_dropped": sum(1 for r in risks if r["likely"]),  # advisory (kb.writing.defect_model)
        "risk_not_estimated": sum(1 for r in risks if r.get("fitted") is False),  # (a model's questions)
        "top_ideas": top_ideas,  # of each source asked for (or used), its TOP_IDEAS most central ideas (kb outline)
        **review,
        "flagged": sum(1 for f, r in zip(found, reviews, strict=True)
                       if set(f) - set(ADVISORY) or (r and r["verdict"] == "drop")),
        "per_question": [
            {"id": q.id, "type": q.type, "defects": f, "supported": "unsupported" not in f, "answerable": a,
             "lang_ok": lg, "drop_risk": risk, **({"model_review": mr} if reviewer is not None else {})}
            for q, f, a, lg, risk, mr in zip(qs, found, answerable, lang_ok, risks, reviews, strict=True)
        ],
        "duplicates": dup_pairs,
    }


# --------------------------------------------------------------------------- grader

@dataclass(frozen=True)
class GradedRow:
    """One human-graded reply of a grading data set, with its score on the data's own scale."""

    question: str
    references: tuple[str, ...]
    answer: str
    human: float  # on the 0–3 scale
    concepts: tuple[str, ...]
    line: int
    question_id: str = ""
    lang: str = ""  # the question's language: the file's ``lang`` column, else detected


def parse_scale(text: str) -> tuple[float, float]:
    """`--scale 0-3` → (0.0, 3.0); InputError naming the fix for anything else."""
    m = re.fullmatch(r"\s*(-?\d+(?:\.\d+)?)\s*[-–:]\s*(-?\d+(?:\.\d+)?)\s*", text or "")
    if not m or float(m.group(1)) >= float(m.group(2)):
        raise InputError("bad --scale '{text}'",
                         "write it as LOW-HIGH, e.g. --scale 0-3 or --scale 0-10",
                         text=text)
    return float(m.group(1)), float(m.group(2))


def load_grading_data(path: Path, scale: tuple[float, float] | None = None) -> tuple[list[GradedRow], list[str]]:
    """Rows of a human-graded CSV (question, reference, answer, score[, concepts][, question_id]).
    Human scores are mapped from ``scale`` (default: the file's own min–max) to 0–3."""
    from .grading.replies import read_csv

    rows, notes = read_csv(path, required=("question", "reference", "answer", "score"))
    out: list[GradedRow] = []
    raw: list[tuple[dict, float]] = []
    for r in rows:
        try:
            raw.append((r, float(r["score"].replace(",", "."))))
        except ValueError:
            notes.append(Message("{path}:{line}: score '{score}' is not a number — row skipped", path=path,
                                 line=r["_line"], score=r["score"]))
    if not raw:
        raise InputError("{path}: no gradable rows",
                         "each row needs question, reference, answer and a numeric score",
                         path=path)
    lo, hi = scale or (min(s for _, s in raw), max(s for _, s in raw))
    if hi <= lo:
        raise InputError("{path}: every score is {lo}",
                         "pass the scale explicitly, e.g. --scale 0-3",
                         path=path, lo=lo)
    for r, s in raw:
        if not lo <= s <= hi:
            notes.append(Message("{path}:{line}: score {score} outside the scale {lo:g}-{hi:g} — row skipped",
                                 path=path, line=r["_line"], score=s, lo=lo, hi=hi))
            continue
        refs = tuple(x.strip() for x in r["reference"].split("\n") if x.strip())
        if not refs or not r["question"].strip():
            notes.append(Message("{path}:{line}: empty question or reference — row skipped", path=path,
                                 line=r["_line"]))
            continue
        concepts = tuple(c.strip() for c in (r.get("concepts") or "").split(";") if c.strip())
        lang = question_language(r["question"], refs, (r.get("lang") or "").strip().lower())
        out.append(GradedRow(r["question"].strip(), refs, r["answer"], (s - lo) / (hi - lo) * 3, concepts,
                             r["_line"], (r.get("question_id") or "").strip(), lang))
    return out, notes


_LANGS = ("pt", "es", "en")


@lru_cache(maxsize=4096)
def _detect(text: str) -> str:
    from .text import detect_language

    return detect_language(text, default="")


def question_language(question: str, references: Sequence[str], given: str = "") -> str:
    """The language a question is asked and answered in: ``given`` (a ``lang`` column) when it is
    pt/es/en, else detected from the question and its model answers ('' when unsure)."""
    if given in _LANGS:
        return given
    return _detect(question + "\n" + "\n".join(references))


def grading_tasks(rows: Sequence[GradedRow]):
    """The rows as grading tasks: one short question per row, its references as model answers."""
    from .grading.base import Task
    from .quiz import Question

    qs: dict[tuple, Question] = {}
    tasks = []
    for r in rows:
        key = (r.question, r.references, r.concepts, r.lang)
        if key not in qs:
            qs[key] = Question("short", r.question, "\n".join(r.references), (), concepts=r.concepts,
                               id=r.question_id or "", lang=r.lang)
        tasks.append(Task(qs[key], r.answer))
    return tasks


def evaluate_grader(grader, rows: Sequence[GradedRow]) -> tuple[dict, list]:
    """Grade every row with ``grader`` and compare with the human scores."""
    from collections import defaultdict

    grades = grader.grade(grading_tasks(rows))
    result = agreement([r.human for r in rows], [g.score * 3 for g in grades], [g.points for g in grades])
    result["human_mean"] = sum(r.human for r in rows) / max(1, len(rows))
    result["kb_mean"] = sum(g.points for g in grades) / max(1, len(grades))
    per_q: dict[str, list] = defaultdict(list)
    for r, g in zip(rows, grades, strict=True):
        per_q[r.question_id or r.question].append((r.human, g.score * 3))
    result["per_question"] = [
        {"question": q, "n": len(v), "human_mean": sum(h for h, _ in v) / len(v),
         "kb_mean": sum(p for _, p in v) / len(v), "pearson": pearson([h for h, _ in v], [p for _, p in v])}
        for q, v in per_q.items()
    ]
    result["grader"] = grader.name
    return result, grades


def evaluate_calibration(grader, rows: Sequence[GradedRow], k: int, seeds: Sequence[int] = (0, 1, 2)) -> dict:
    """What a teacher's own grades buy: for each seed, ``k`` rows per question are the teacher's
    examples (:func:`kb.grading.calibration.fit_calibration`), the other rows are graded by the default
    level and by the calibrated one, and both are compared with the human scores. Metrics are the
    mean over seeds. Questions with ≤ k rows are left out, named in ``left_out`` with their row count
    (nothing of them would remain to report on), and the rest is reported; when every question has
    ≤ k rows there is no rest: only ``k``, ``seeds`` and ``left_out`` (the caller says so)."""
    from collections import Counter

    import numpy as np

    from .grading.calibration import fit_calibration, sample_per_question

    counts = Counter(r.question_id or r.question for r in rows)
    left_out = [{"question": q, "rows": n} for q, n in counts.items() if k and n <= k]
    if left_out and len(left_out) == len(counts):
        return {"k": k, "seeds": list(seeds), "left_out": left_out}
    rows = [r for r in rows if counts[r.question_id or r.question] > k or not k]
    tasks = grading_tasks(rows)
    keys = [r.question_id or r.question for r in rows]
    per_seed: dict[str, list[dict]] = {"default": [], "calibrated": []}
    for seed in seeds:
        train = set(sample_per_question(keys, k, seed)) if k else set()
        rest = [i for i in range(len(rows)) if i not in train]
        if not rest:
            raise InputError("--calibrate-k {k} leaves no row to report on",
                             "use a smaller k",
                             k=k)
        human = [rows[i].human for i in rest]
        default = grader.grade([tasks[i] for i in rest])
        per_seed["default"].append(_summary(human, default))
        if k:
            teacher = [(tasks[i], int(np.clip(np.rint(rows[i].human), 0, 3))) for i in sorted(train)]
            cal = fit_calibration(grader, teacher, leave_one_out=False)
            tuned = cal.grader(grader, [t.question.id for t in tasks])
            per_seed["calibrated"].append(_summary(human, tuned.grade([tasks[i] for i in rest])))
        else:
            per_seed["calibrated"].append(per_seed["default"][-1])
    mean = {name: {m: float(np.mean([s[m] for s in runs])) for m in runs[0]} for name, runs in per_seed.items()}
    return {"k": k, "seeds": list(seeds), **mean, "left_out": left_out}


def parse_budgets(text: str) -> list[float]:
    """`--review-budget 5,10,20` → [5.0, 10.0, 20.0]; InputError naming the fix for anything else."""
    try:
        out = [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        out = []
    if not out or not all(0 < b <= 100 for b in out):
        raise InputError("bad --review-budget '{text}'",
                         "give percentages of the replies, e.g. --review-budget 5,10,20",
                         text=text)
    return out


def evaluate_review(grader, rows: Sequence[GradedRow], grades: Sequence, budgets: Sequence[float],
                    seeds: Sequence[int] = (0, 1, 2)) -> dict:
    """``review``: at each budget, a teacher's decisions (as many as that % of the replies) on answer
    groups in kb's review order, propagated (:func:`kb.grading.review.simulate`), measured on every
    row; ``review_random``: the same decisions in a random order of the same groups (mean of
    ``seeds``, with the seeds' lowest and highest QWK as ``qwk_min`` and ``qwk_max``), the baseline."""
    from .grading.review import simulate

    tasks = grading_tasks(rows)
    human = [r.human for r in rows]
    kb = simulate(grader, tasks, human, grades, budgets)
    runs = [simulate(grader, tasks, human, grades, budgets, order="random", seed=s) for s in seeds]
    rnd = [{k: (v if k in ("budget_pct", "read") else _mean_or_none([r[i][k] for r in runs]))
            for k, v in first.items()} for i, first in enumerate(runs[0])]
    # the seeds' spread: kb's order is clearly above a random one only above the best seed (on the Spanish science
    # set, 1,139 replies in 1,074 groups, ten seeds span QWK 0.683-0.710 at 10 %, more than kb's order differs)
    for i, r in enumerate(rnd):
        r["qwk_min"] = min(x[i]["qwk"] for x in runs)
        r["qwk_max"] = max(x[i]["qwk"] for x in runs)
    return {"review": kb, "review_random": rnd}


def _mean_or_none(xs: Sequence[Any]) -> Any:
    """The mean of ``xs``, or None when one of them is (a random order that covered every reply has no rest)."""
    return None if any(x is None for x in xs) else sum(xs) / len(xs)


def _summary(human, grades) -> dict:
    import numpy as np

    a = agreement(human, [g.score * 3 for g in grades], [g.points for g in grades])
    return {"n": a["n"], "human_mean": float(np.mean(human)), "kb_mean": float(np.mean([g.points for g in grades])),
            "pearson": a["pearson"], "qwk": a["qwk"], "exact": a["exact"]}


# --- kb eval ask: answers judged by the evidence they hold and the page they cite -------------------------

ASK_KINDS = ("what", "how", "why", "which", "list", "difference")


@dataclass(frozen=True)
class AskItem:
    """One question of an ask set: the source file and pages that answer it and the phrases a right
    answer holds (all of them)."""

    question: str
    evidence: tuple[str, ...]
    source: str  # file name, e.g. "03Datos.pdf"
    pages: tuple[int, ...]
    kind: str | None = None
    lang: str | None = None
    split: str | None = None
    line: int = 0


def load_ask_set(path: Path) -> list[AskItem]:
    """Read an ask set: one ``{"question", "source", "pages", "evidence", ["kind", "lang", "split"]}``
    per line (``#`` lines are comments); errors name the file, the line and the fix."""
    out: list[AskItem] = []
    for n, obj in jsonl_objects(path, N_("give a JSONL file with one {{\"question\", \"source\", \"pages\", "
                                         "\"evidence\"}} object per line")):
        q, ev, src, pages = obj.get("question"), obj.get("evidence"), obj.get("source"), obj.get("pages")
        if not isinstance(q, str) or not q.strip():
            raise InputError("{path}:{n}: missing \"question\"",
                             "add \"question\": \"the student's question\"",
                             path=path, n=n)
        if isinstance(ev, str):
            ev = [ev]
        if not isinstance(ev, list) or not ev or not all(isinstance(e, str) and e.strip() for e in ev):
            raise InputError("{path}:{n}: \"evidence\" must be a non-empty list of phrases",
                             "add \"evidence\": [\"a phrase a right answer holds\"]",
                             path=path, n=n)
        if not isinstance(src, str) or not src.strip():
            raise InputError("{path}:{n}: missing \"source\"",
                             "add \"source\": \"the file name that answers it\"",
                             path=path, n=n)
        if isinstance(pages, int):
            pages = [pages]
        if not isinstance(pages, list) or not pages or not all(isinstance(p, int) and p > 0 for p in pages):
            raise InputError("{path}:{n}: \"pages\" must be a non-empty list of page numbers",
                             "add \"pages\": [the page that answers it]",
                             path=path, n=n)
        out.append(AskItem(q, tuple(ev), Path(src).name, tuple(pages), obj.get("kind"), obj.get("lang"),
                           obj.get("split"), n))
    if not out:
        raise InputError("{path}: no questions found",
                         "add one JSON object per line",
                         path=path)
    return out


def _squash(s: str) -> str:
    """Accents, case and every space dropped: slide PDFs glue words ("tensortridimensional") or split them."""
    return "".join(fold(s).split())


def _on_page(chunk, item: AskItem) -> bool:
    return Path(chunk.source).name == item.source and chunk.locator.page in item.pages


_CITE = re.compile(r"[ \t]*\[(\d+(?:\s*,\s*\d+)*)\](?=[ \t]*(?:\n|$))")  # a marker ends a line


def _quoted(answer) -> bool:
    """Whether every part of the answer is text of the passage it cites (what an extractive answer
    promises: it states nothing its cited passage does not)."""
    by_rank = {h.rank: _squash(seen_text(h.chunk)) for h in answer.hits}
    parts = _CITE.split(answer.text)
    # split: [text, "1", text, "2, 3", text...]
    for i in range(0, len(parts) - 1, 2):
        text = _squash(re.sub(r"^[-•*\d.)\s]+", "", parts[i]).rstrip("."))
        ranks = [int(r) for r in parts[i + 1].split(",")]
        # each quoted line on its own: a list may skip lines of its page (code shown as its own passage)
        pieces = [p for line in parts[i].split("\n")
                  for p in re.split(r"…|\.\.\.|;", _squash(re.sub(r"^[-•*\d.)\s]+", "", line)).rstrip(".")) if p]
        if text and not all(any(p.rstrip(".") in by_rank.get(r, "") for r in ranks) for p in pieces):
            return False
    return True


def judge_answer(item: AskItem, answer) -> dict:
    """The verdict on one answer: ``correct`` (every evidence phrase in the answer, and a cited
    passage from the right page), ``partly`` (some of the evidence, or the right page cited),
    ``wrong`` otherwise (a "not found" answer included)."""
    text = _squash(answer.text)
    held = [e for e in item.evidence if _squash(e) in text]
    cited = [h for h in answer.hits if h.rank in answer.cited]
    page_cited = any(_on_page(h.chunk, item) for h in cited)
    retrieved = next((h.rank for h in answer.hits if _on_page(h.chunk, item)), None)
    if answer.found and len(held) == len(item.evidence) and page_cited:
        verdict = "correct"
    elif answer.found and (held or page_cited):
        verdict = "partly"
    else:
        verdict = "wrong"
    return {"question": item.question, "kind": item.kind, "split": item.split, "verdict": verdict,
            "found": answer.found, "evidence_held": len(held), "evidence": len(item.evidence),
            "page_cited": page_cited, "retrieved_rank": retrieved, "quoted": _quoted(answer) if answer.found else True,
            "answer": answer.text, "cited": [h.chunk.citation() for h in cited],
            "expected": f"{item.source} · p. {'/'.join(map(str, item.pages))}"}


def summarize_ask(per: list[dict]) -> dict:
    """Shares of correct / partly / wrong answers, "not found" answers, answers that quote their cited
    passage, and whether the right page was among the passages (hit@1, hit@5)."""
    n = max(1, len(per))
    return {"n": len(per),
            "correct": sum(p["verdict"] == "correct" for p in per) / n,
            "partly": sum(p["verdict"] == "partly" for p in per) / n,
            "wrong": sum(p["verdict"] == "wrong" for p in per) / n,
            "not_found": sum(not p["found"] for p in per) / n,
            "quoted": sum(p["quoted"] for p in per) / n,
            "page_hit@1": sum(p["retrieved_rank"] == 1 for p in per) / n,
            "page_hit@5": sum(p["retrieved_rank"] is not None and p["retrieved_rank"] <= 5 for p in per) / n}


def evaluate_ask(answer_fn, items: Sequence[AskItem]) -> dict:
    """Ask every question with ``answer_fn(question) -> Answer`` and judge each answer
    (:func:`judge_answer`); totals for the whole set and for each split it names."""
    per = [judge_answer(item, answer_fn(item.question)) for item in items]
    splits = sorted({p["split"] for p in per if p["split"]})
    return {**summarize_ask(per), "splits": {s: summarize_ask([p for p in per if p["split"] == s]) for s in splits},
            "questions": per}
