"""The one registry of checks every question goes through, whoever wrote it.

The offline writer keeps a draft only when :func:`run_checks` finds nothing, the LLM writer's
validation turns down what it finds, and ``kb eval quiz`` reports it. Each entry of :data:`CHECKS`
takes the question and a :class:`CheckContext` (the cited passage, the whole source, its word counts,
the embedder, the course's own verb test and its outline) and returns the defect names it sees, in the order
:data:`CHECKS` lists them. The checks against the passage alone live in :mod:`kb.writing.checks`;
those that were private to the offline writer (a code name the stem already says, an attribute of
nothing, a blank on a verb or an everyday word, an answer in another language) live here.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..quiz import Question
from ..text import STOPWORDS_ES, STOPWORDS_PT, detect_language, fold, words
from . import checks as c
from . import checks_form as form
from .asked_term import asked_term, garbled_term
from .check_answer_shape import code_answer, library_in_description
from .check_blind_guess import meaning_giveaway
from .check_label_answer import answer_in_description, label_answer, label_option, subject_answer
from .check_label_list import labels_not_terms
from .check_objective_kind import (
    blank_form,
    cut_option,
    false_of_other_kind,
    figures_description,
    notation_answer,
    plain_key,
    prose_blank,
)
from .check_restates import restates_question
from .check_subject import no_subject
from .concept_faults import fragment_concepts
from .concept_use import unusable_concepts
from .setting import stem_setting
from .stem_forms import what_is_not_defined
from .trivia import copied_true, trivia, trivial_term

# a code name: "f()", "__len__", "torch.utils.data"
CODE_NAME = re.compile(r"(?<![\w.])(?:[A-Za-z_][\w.]*\(\)|__\w+__(?:\(\))?|[A-Za-z_]+(?:[._][A-Za-z0-9_]+)+)")


@dataclass
class CheckContext:
    """What a question is checked against: its cited passage, the whole source (headings and
    passages) when known, the source's word counts (for glued words; from the passage when not
    given), the embedder (support by cosine), the course's verb test (for blanks on verbs) and the
    source's outline."""

    passage: str
    source_text: str = ""
    vocab: Counter | None = None
    embedder: Any = None
    verb_like: Callable[[str], bool] | None = None
    outline: Any = None  # the source's kb.outline.Outline, when known (what the deck teaches: its subject, its ideas)
    # an embedder for what a question's words mean (a multiple choice answered by meaning: check_blind_guess), where
    # ``embedder`` is not given so that support stays lexical (the offline writer's drafts)
    meaning: Any = None
    subject: str = ""  # the deck's subject, the setting its quiz's stems carry ("ordenación en GPU"), when known

    def __post_init__(self) -> None:
        if not self.vocab:  # (as checks.defects: empty counts are the passage's)
            self.vocab = c.vocabulary(self.passage)


def named_in_stem(q: Question) -> list[str]:
    """["giveaway"] when every code name a short answer gives extends one the stem already
    says ("… torch.hub …?" → torch.hub.load()): the stem names the answer."""
    if q.type != "short":
        return []
    asked = [n.rstrip("()") for n in CODE_NAME.findall(q.prompt) if "." in n]
    names = [n for n in CODE_NAME.findall(q.answer) if "." in n]
    if asked and names and all(any(n.startswith(a + ".") for a in asked) for n in names):
        return ["giveaway"]
    return []


def bare_attribute(q: Question) -> list[str]:
    """["no-subject"] for "¿Cuál es el cuello de botella?" with nothing saying of what: an attribute
    asked where no subject a student knows could situate it."""
    m = re.match(r"^(?:¿\s*)?(?:Cu[aá]l es|Qual [eé]|What is) (?:el|la|o|a|the)\s(?!diferen)\S+"
                 r"(?P<of>\s(?:de|del|do|da|dos|das|of)\s)?", q.prompt)
    return ["no-subject"] if q.type == "short" and m and not m.group("of") else []  # ("… la idea de QAT?" says)


def trivial_blank(q: Question, verb_like: Callable[[str], bool] | None = None) -> list[str]:
    """["trivial-blank"] for a blank on a verb ("cada parâmetro _____ um DTensor" → vira; ``verb_like``
    is the course's own test, skipped when not given), on an everyday word, or on words a name in
    the stem abbreviates ("AOTAutograd traza el backward _____" → ahead-of-time)."""
    if q.type != "cloze":
        return []
    a = q.answer.strip()
    if verb_like is not None and re.fullmatch(r"[a-záéíóúâêôãõç]+", a) and verb_like(fold(a)):
        return ["trivial-blank"]
    if re.fullmatch(r"[a-záéíóúâêôãõçñ]+", a) and c.everyday_word(a, q.lang):
        # an everyday word ("solo", "datos", "arquitectura", "cuyo", "auto") is no course term to
        # recall: raters dropped 7 of 9 such blanks on held-out splits D–Q (kept "entorno", "armazenamento")
        return ["trivial-blank"]
    initials = "".join(w[0] for w in re.split(r"[\s-]+", a) if w).upper()
    if len(initials) >= 2 and re.search(rf"\b{re.escape(initials)}", q.prompt):  # (an answer's "(" or "[" is text)
        return ["trivial-blank"]
    gloss = re.search(r"_____\s*\((?P<g>[^(),]+)\)", q.prompt)
    if "(_____)" in q.prompt or gloss and re.fullmatch(r"[a-z-]+", a) and len(words(gloss.group("g"))) <= 2:
        # a word the bracket beside it glosses: "default _____ (anchors)" (both raters of split U:
        # "the word 'anchors' beside it gives it away"); "_____ (fast path)" asks SDPA, a name
        return ["trivial-blank"]
    return []


def other_language(q: Question) -> list[str]:
    """["answer-language"] for a short answer in another language than its stem (a Spanish
    question on the slide's English note): the student would have to translate to match it."""
    own = {"es": STOPWORDS_ES, "pt": STOPWORDS_PT}.get(q.lang)
    plain = [w for w in words(CODE_NAME.sub(" ", q.answer)) if w.isalpha()]
    if q.type != "short" or own is None or len(plain) < 4:
        return []
    if detect_language(q.answer, default=q.lang) == "en":
        return ["answer-language"]
    # "DataParallel: single-process multi-thread; …": not one function word of the stem's language
    return [] if any(w.lower() in own for w in plain) or re.search(r"[áéíóúñãõç]", q.answer, re.I) \
        else ["answer-language"]


def in_stem(concept: str, prompt: str) -> bool:
    """The stem already says ``concept``, as whole words (folded: no case, no accents)."""
    want = " ".join(fold(w) for w in words(concept))
    return bool(want) and f" {want} " in " " + " ".join(fold(w) for w in words(prompt)) + " "


def concept_in_stem(q: Question) -> list[str]:
    """["concept-in-stem"] for a short question with a key concept its stem already says ("¿qué significa
    cada uno de estos elementos de «T»: Backend store; Artifact store?" with those labels as concepts): a
    grader would credit a reply that only repeats the stem (fresh raters fixed every such question,
    eval/real_heldout_r6)."""
    if q.type != "short" or q.origin == "harvested":
        return []
    return ["concept-in-stem"] if any(in_stem(x, q.prompt) for x in q.concepts) else []


def garbled_asked_term(q: Question, verb_like: Callable[[str], bool] | None = None) -> list[str]:
    """["garbled-term"] for a "what is" question whose term swallowed a clause ("¿Qué es Ray Tune determina …?")."""
    term = asked_term(q.prompt) if q.type == "short" and q.origin != "harvested" else ""
    return ["garbled-term"] if term and garbled_term(term, verb_like) else []


_TITLES: dict[int, tuple[Any, str]] = {}


def _titles(outline: Any) -> str:
    """The deck's titles and idea names, one a line ("" without an outline); once per outline."""
    if outline is None:
        return ""
    hit = _TITLES.get(id(outline))
    if hit is None or hit[0] is not outline:
        if len(_TITLES) > 64:
            _TITLES.clear()
        text = "\n".join([outline.title, *(s.title for s in outline.sections), *(i.name for i in outline.ideas)])
        hit = _TITLES[id(outline)] = (outline, text)
    return hit[1]


def _one(check: Callable[..., str | None]) -> Callable[[Question, CheckContext], list[str]]:
    return lambda q, ctx: [d] if (d := check(q)) else []


Check = Callable[[Question, CheckContext], list[str]]
# name → check, in the order their defects are reported
CHECKS: dict[str, Check] = {
    "cut-off": lambda q, ctx: [d] if (d := c.cut_off(q, ctx.passage)) else [],
    "giveaway": _one(c.giveaway),
    "duplicate-choices": _one(c.duplicate_choices),
    "unsupported": lambda q, ctx: [d] if (d := c.unsupported(q, ctx.passage, ctx.embedder)) else [],
    "dangling-reference": _one(c.dangling_reference),
    "subjective": _one(c.subjective),
    "restates-question": _one(restates_question),
    "no-context": _one(c.no_context),
    "glued-words": lambda q, ctx: [d] if (d := c.glued_words(q, ctx.vocab or Counter())) else [],
    # a statement whose subject is elsewhere: opening on a verb, or on "se" after its setting
    # (kb/writing/check_subject.py)
    "no-subject": lambda q, ctx: [d] if (d := no_subject(q, ctx.vocab or Counter())) else [],
    "vague-answer": _one(c.vague_answer),
    "several-right": lambda q, ctx: [d] if (d := c.several_right(q, ctx.passage)) else [],
    "partial-answer": _one(c.partial_answer),
    "named-in-stem": lambda q, ctx: named_in_stem(q),
    "garbled-term": lambda q, ctx: garbled_asked_term(q, ctx.verb_like),
    "concept-in-stem": lambda q, ctx: concept_in_stem(q),
    # what teachers drop as trivial (kb/writing/trivia.py): a detail as the answer, a copied true definition,
    # an everyday word's meaning
    "trivia": lambda q, ctx: [d] if (d := trivia(q, ctx.source_text, _titles(ctx.outline))) else [],
    "copied-true": lambda q, ctx: [d] if (d := copied_true(q, ctx.passage)) else [],
    "trivial-term": lambda q, ctx: [d] if (d := trivial_term(q, ctx.source_text)) else [],
    "bare-attribute": lambda q, ctx: bare_attribute(q),
    "trivial-blank": lambda q, ctx: trivial_blank(q, ctx.verb_like),
    "answer-language": lambda q, ctx: other_language(q),
    # a stem set by a slide's label, or (with the deck's outline) by nothing of the deck's subject
    # (an exercise the course itself asks is set as its author wrote it)
    "stem-setting": lambda q, ctx: [d] if q.origin != "harvested" and (d := stem_setting(q.prompt, q.lang, ctx.outline))
    else [],
    "source": lambda q, ctx: c.source_defects(q, ctx.source_text) if ctx.source_text else [],
    # forms teachers drop that the checks above let through (kb/writing/checks_form.py)
    "ill-posed-compare": _one(form.ill_posed_compare),
    "not-a-definition": _one(form.not_a_definition),
    "meaning-not-defined": _one(form.meaning_not_defined),  # reported as not-a-definition
    # a "what is X" answered by commands, cautions, what to do with X, a problem it may cause, a table (issue 26,
    # r11-r12; kb/writing/stem_forms.py): the writers ask it by what the answer says where a form is sure
    "what-is-not-defined": _one(what_is_not_defined),  # reported as not-a-definition
    "pasted-answer": _one(form.pasted_answer),
    "acronym-in-stem": _one(form.acronym_in_stem),
    "group-pronoun": _one(form.group_pronoun),
    "subjectless-statement": _one(form.subjectless_statement),  # reported as no-subject
    "counted-blank": _one(form.counted_blank),  # reported as trivial-blank
    # an objective question asking a slide's label, not a term of the course, or whose description lists the
    # answer's examples or says it (kb/writing/check_label_answer.py)
    "label-answer": lambda q, ctx: label_answer(q, ctx.source_text),
    "label-option": _one(label_option),  # ("Outros", "Ex.", "Ponto-chave" among the options)
    # reported as giveaway: "Em PPO, …? PPO", or the deck's subject as the answer ("ordenación" in "ordenación en GPU")
    "subject-answer": lambda q, ctx: [d] if (d := subject_answer(q, ctx.subject)) else [],
    # (or whose right option a reader picks by meaning: «descarta saídas …» → discard_iterator; check_blind_guess.py)
    "meaning-giveaway": lambda q, ctx: [d] if (d := meaning_giveaway(q, ctx.meaning or ctx.embedder)) else [],
    # (or whose code names the answer's library, "np.random.seed" → NumPy: kb/writing/check_answer_shape.py)
    "answer-in-description": lambda q, ctx: answer_in_description(q) or library_in_description(q),
    # a model answer that opens on a shard of code (kb/writing/check_answer_shape.py)
    "code-answer": lambda q, ctx: code_answer(q),
    # objective questions answered by their kind: a false statement of another kind than its label's gloss, a
    # plain word as a "which term" key, a blank on a flag or a symbol (kb/writing/check_objective_kind.py)
    "obvious-false": lambda q, ctx: [d] if (d := false_of_other_kind(q, ctx.verb_like, ctx.source_text)) else [],
    "plain-key": lambda q, ctx: [d] if (d := plain_key(q, ctx.verb_like)) else [],
    "blank-form": _one(blank_form),  # reported as trivial-blank
    # a cloze's blank or a multiple choice's key that is a formula's symbol ("alpha_t", "U_jj"): reported as
    # trivial-blank / trivia (kb/writing/check_objective_kind.py)
    "notation-answer": lambda q, ctx: [d] if (d := notation_answer(q, ctx.source_text)) else [],
    "prose-blank": _one(prose_blank),  # reported as trivial-blank: a cloze's blank that is no code entity
    "figures-description": _one(figures_description),  # reported as trivia: a table's row of figures to recognise
    "cut-option": _one(cut_option),  # reported as cut-off: an option cut inside its brackets or quotes
}

# advisory: what kb eval quiz reports (question_defects) but the writers do not turn a draft down for
# (run_checks): forms a teacher mostly edits rather than drops, which the writers still write
ADVISORY: dict[str, Check] = {
    # a concept no teacher keeps as a key concept: a fragment, worked numbers or an example, a version remark
    # (kb/writing/concept_faults.py); the writers leave such concepts out where another remains
    "fragment-concept": _one(fragment_concepts),
    "vague-stem": _one(form.vague_stem),
    # a concept a grader cannot mark with (a code fragment, a quoted message, a lone generic word) that the
    # writers could not leave out (kb/writing/concept_use.py)
    "unusable-concept": _one(unusable_concepts),
    # a stem asking what each of a slide's labels means where they are numbered steps, sentences or words the deck
    # says only as labels (kb/writing/check_label_list.py): teachers drop or edit it
    "labels-not-terms": lambda q, ctx: labels_not_terms(q, ctx.source_text),
}


def run_checks(q: Question, ctx: CheckContext, skip: frozenset[str] = frozenset()) -> list[str]:
    """Every defect the registry's checks (but those in ``skip``) see in one question, each once (several checks
    report one defect: ``meaning-not-defined`` and ``what-is-not-defined`` both say ``not-a-definition``)."""
    return list(dict.fromkeys(d for name, check in CHECKS.items() if name not in skip for d in check(q, ctx)))


def question_defects(q: Question, ctx: CheckContext, section_passage: str = "") -> list[str]:
    """What ``kb eval quiz`` reports of one question: the registry's checks, with ``unsupported``
    withdrawn when the cited page or heading as a whole (``section_passage``) backs the answer (an
    answer that runs on past its passage's window), plus ``thin-concepts`` (a grader's concepts,
    judged by the evaluation only: the writer keeps the question)."""
    found = run_checks(q, ctx, skip=frozenset({"source"}))
    if section_passage and "unsupported" in found and not c.unsupported(q, section_passage, ctx.embedder):
        found.remove("unsupported")
    if ctx.source_text:
        found += c.source_defects(q, ctx.source_text)
    found += [d for check in ADVISORY.values() for d in check(q, ctx) if d not in found]
    if c.thin_concepts(q):
        found.append("thin-concepts")
    return found


def quiz_defects(questions: list[Question], embedder: Any = None, duplicate_threshold: float = 0.88
                 ) -> tuple[dict[str, list[str]], list[tuple[str, str, float]]]:
    """What ``kb eval quiz`` sees across a quiz's questions: each question's id → ``near-duplicate``
    (a later question asking what an earlier one asks: prompt + answer cosine ≥ ``duplicate_threshold``
    with an embedder, or the same statement up to wording and option order) and ``answer-elsewhere``
    (its answer written in another's stem); and the duplicate pairs (earlier id, later id, similarity)."""
    qs = questions
    pairs: list[tuple[str, str, float]] = []
    if embedder is not None and len(qs) > 1:
        import numpy as np

        vecs = embedder.embed_documents([f"{q.prompt}\n{q.correct_text}" for q in qs])
        sims = vecs @ vecs.T
        np.fill_diagonal(sims, 0)
        pairs = [(qs[i].id, qs[j].id, round(float(sims[i, j]), 3))
                 for i in range(len(qs)) for j in range(i + 1, len(qs)) if sims[i, j] >= duplicate_threshold]
    same = c.duplicate_questions(qs)  # same statement, other wording or option order
    pairs += [(next(p.id for p in qs[:i] if p.id != q.id), q.id, 1.0) for i, q in enumerate(qs)
              if q.id in same and not any(q.id == later for _, later, _ in pairs)]
    found: dict[str, list[str]] = {q.id: [] for q in qs}
    for _, later, _ in pairs:
        if "near-duplicate" not in found[later]:
            found[later].append("near-duplicate")
    for qid in c.answers_elsewhere(qs):  # one question's answer written in another's stem
        found[qid].append("answer-elsewhere")
    return found, pairs
