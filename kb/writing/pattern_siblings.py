"""Objective questions on an outline idea's siblings: a labelled list of terms, each with its description
("broadcast: un root envía su tensor a todos; reduce: todos envían, el root recibe la suma; …").

Where an idea offers at least :data:`MIN_SIBLINGS` sibling terms that each carry a description, the
plan asks it in a kind Moodle marks itself before a short answer a teacher has to grade:

- a multiple choice "which term matches this description", the other siblings (of the answer's kind)
  as the wrong options;
- a true/false that attaches one sibling's description to another (false by construction; the answer
  quotes what the source says of it).

Labels that are a slide's wording and not terms ("Problema", "Ventaja", "En PyTorch", "Hay que
promediarlos": :func:`kb.writing.plan.asked_as_term`) make no sibling: the idea gets neither form.
Every form goes through the one registry of checks (:func:`kb.writing.checklist.run_checks`) as the
plain questions do; this module only writes candidates.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..quiz import Question
from ..text import STOPWORDS, fold, words

if TYPE_CHECKING:
    from ..outline import Idea
    from ..records import Chunk
    from .checklist import CheckContext
    from .seam import Draft

MIN_SIBLINGS = 3  # fewest sibling terms a "which term" question is asked among (3 options: a guess is 1 in 3;
# the offline writer's own label pattern asks among 4, filling up with the deck's terms — see pattern_labels)
MAX_OPTIONS = 4  # options of a multiple choice (the answer and up to three siblings)
DESCRIPTION_WORDS = (4, 30)  # words of a description a stem quotes (hand-set: fewer says nothing to tell terms
# apart by, more is a paragraph to read in a stem)


def term_labels(labels: list[str], is_term: Callable[[str], bool]) -> list[bool]:
    """Which labels of a list name terms: each one the term test passes (:func:`_named`, ``is_term``:
    :func:`kb.writing.plan.asked_as_term`), or one of a family of siblings named by one head noun and what
    tells them apart ("Puerta de olvido", "Puerta de entrada", "Puerta de salida"; "Conjunto de validação",
    "Conjunto de teste") — not a slide's wording ("Problema", "Ventaja", "En PyTorch", "Hay que
    promediarlos") nor a numbered part ("Opção A", "Nivel 1", "fold 2") nor a condition ("B << B_noise -> …")."""
    heads = Counter(h for x in labels if (h := _head(x)))
    return [_named(x, is_term) or (h := _head(x)) != "" and heads[h] >= 2 for x in labels]


def _head(label: str) -> str:
    """The head noun of a label of two to four words whose last is a word, not a letter or a number
    ("Puerta de olvido" → "puerta"); "" for any other label."""
    ws = words(re.sub(r"\s*\([^)]*\)", "", label))
    if not 2 <= len(ws) <= 4 or re.search(r"[=<>]", label) or len(ws[-1]) < 3 or not ws[-1].isalpha() \
            or not ws[0][:1].isupper() or fold(ws[0]) in STOPWORDS or fold(ws[0]) in _FRAGMENT:
        return ""
    return fold(ws[0])


# words a slide's sentence fragment opens on, not a term ("Dentro del rango", "Hay que …", "Fuera del …")
_FRAGMENT = frozenset("dentro fuera hay cuando quando durante antes despues depois usar use sin sem com con "
                      "cada todo todos toda todas".split())


def siblings(idea: Idea, is_term: Callable[[str], bool],
             in_deck: Callable[[str], bool] = lambda x: True) -> list[tuple[str, str]]:
    """The (term, description) pairs of a labelled list idea whose label is a term (``is_term``, and one the
    deck uses as a term: ``in_deck``, :func:`kb.writing.deck_term.deck_term`), when there are at least
    :data:`MIN_SIBLINGS` of them and they are most of the list; [] otherwise. A label of a slide's wording
    ("Problema", "Solución", "Consecuencia"; "Moraleja", "Geométricos", "Variantes": ordinary words the deck
    says only as labels) is no sibling, and a label the list says twice is a sub-bullet's role ("Sintoma"
    under each of three causes), no term either."""
    if idea.kind != "list":
        return []
    parts = list_items(idea.text)
    pairs = [(x, b.rstrip(".")) for x, b in parts if x]
    said = Counter(fold(x) for x, _ in pairs)
    from .terms import _untagged

    # a label with a bracketed role is named by its name ("TPESampler (por defecto)", "Beam search (num_beams)")
    named = term_labels([x for x, _ in pairs], lambda x: is_term(x) or (u := _untagged(x)) != x and is_term(u))
    terms = [(x, b) for (x, b), t in zip(pairs, named, strict=True)
             if said[fold(x)] == 1 and t and (in_deck(x) or in_deck(_untagged(x)))]
    if len(terms) < MIN_SIBLINGS or 2 * len(terms) < len(parts):
        return []
    return terms


def list_items(text: str) -> list[tuple[str, str]]:
    """A labelled list idea's items as (label, body): a part of its text ("; "-joined) with no label of its own
    continues the item before it ("Greedy: escolhe o token mais provável; rápido, repetitivo" is one item, its
    description holding a semicolon); a part before any labelled one is an item with no label ("")."""
    out: list[tuple[str, str]] = []
    for part in text.split("; "):
        # (the label's colon is the first outside brackets: "Fat-tree com oversubscription (ex.: 2:1): barateia …")
        m = re.match(r"^((?:[^:()]|\([^()]*\))*):(.*)$", part)
        label, sep, body = (m.group(1), ":", m.group(2)) if m else (part, "", "")
        if sep and label.strip() and body.strip():
            out.append((label.strip(), body.strip()))
        elif out and out[-1][0]:
            out[-1] = (out[-1][0], f"{out[-1][1]}; {part.strip()}")
        else:
            out.append(("", part.strip()))
    return out


def _definition_body(idea: Idea) -> str:
    """What a definition idea says its term is ("Data parallelism: cada worker tiene …" → "cada worker tiene …");
    "" when its text does not open on its name and a colon."""
    head, sep, body = idea.text.partition(":")
    return body.strip().rstrip(".") if sep and fold(head.strip()) == fold(idea.name) else ""


def defined_siblings(idea: Idea, ideas: Sequence[Idea], is_term: Callable[[str], bool]) -> list[tuple[str, str]]:
    """A definition idea's (term, description) first, then the other terms its section defines (``ideas``: its
    outline's), the more central first: the terms a student could take for it (a term of another section is
    of another kind: "FB15k y WN18" among TransE and ComplEx). [] when its name is no term or its section
    defines fewer than :data:`MIN_SIBLINGS` terms."""
    body = _definition_body(idea) if idea.kind == "definition" else ""
    if not body or not _named(idea.name, is_term):
        return []
    seen = {fold(idea.name)}
    out = [(idea.name, body)]
    for o in sorted(ideas, key=lambda o: -o.score):
        if o.kind == "definition" and o.section == idea.section and fold(o.name) not in seen \
                and (b := _definition_body(o)) and _named(o.name, is_term):
            seen.add(fold(o.name))
            out.append((o.name, b))
    return out if len(out) >= MIN_SIBLINGS else []


def _named(label: str, is_term: Callable[[str], bool]) -> bool:
    """A label that names a term: not a setting or a condition ("NCCL_ALGO=Ring", "I > I*": asked what it
    does, not named), not a phrase opening on a function word ("Em Hugging Face", "Con batch más grande"),
    and a term by ``is_term``."""
    ws = words(label)
    return bool(ws) and not re.search(r"[=<>]", label) and fold(ws[0]) not in STOPWORDS and is_term(label)


def _gives_away(term: str, body: str, others: list[str]) -> bool:
    """The description names its own term, or a word of it no sibling shares ("reduce-scatter: … reduce …"
    names it; "all-reduce" beside "reduce" shares "reduce" with a sibling and gives nothing away)."""
    if fold(term) in fold(body):
        return True
    mine = {fold(w) for w in words(term) if fold(w) not in STOPWORDS and len(w) >= 4}
    theirs = {fold(w) for o in others for w in words(o)}
    said = {fold(w) for w in words(body)}
    return bool((mine - theirs) & said)


def _describes(body: str) -> bool:
    """A description a stem can quote: a few words, not a list of its own, not code, not a row of figures
    ("max 0.250, f'(-6) ~ 0.0025": a table's cells, which another row's figures do not contradict in words),
    not a list of examples ("fn.resize, fn.crop, fn.rotate": the student would sort examples into a slide's
    category, :func:`kb.writing.check_label_answer.lists_examples`)."""
    from .check_label_answer import lists_examples

    if lists_examples(body):
        return False
    n = len(words(body))
    figures = len(re.findall(r"\d+(?:[.,]\d+)?", body))
    return (DESCRIPTION_WORDS[0] <= n <= DESCRIPTION_WORDS[1] and not re.search(r"[=\[\]{}]|\w\(|->", body)
            and not body.rstrip().endswith("?") and 3 * figures < n)


def _unfigured(text: str) -> str:
    """A description without its figures, folded ("cerca de 16 GB/s" → "cerca de gb/s")."""
    return " ".join(fold(re.sub(r"\d+(?:[.,]\d+)?", "", text)).split())


def objective_questions(idea: Idea, pairs: list[tuple[str, str]], subject: str, lang: str,
                        of_kind: Callable[[str, str], bool], first_only: bool = False,
                        named: Callable[[str], bool] = lambda _: True) -> list[tuple[Question, str]]:
    """The multiple choices, then the true/false statements, on the idea's sibling ``pairs``
    (:func:`siblings`), each with the lines of the list it asks ("reduce: todos envían, …"): one of each
    per sibling whose description can be asked (:func:`_describes`, not naming its term); the plan keeps
    the first of each kind that passes the checks. Set in the deck's ``subject`` (a slide's title is a
    label students do not see: the registry flags it); none without one. ``of_kind(option, answer)``: an
    option a student could take for the answer. With ``first_only``, only the first pair is asked (a defined
    term, the deck's other defined terms its siblings: :func:`defined_siblings`). The wrong options are the
    siblings ``named`` across the deck first (its terms, not a slide's labels: ``mcq:unnamed``, form_prior)."""
    from .check_objective_kind import of_glosses_kind
    from .terms import _untagged
    from .wording import _t, lower_first

    if not subject:
        return []
    labels = [_untagged(x) for x, _ in pairs]
    choices: list[tuple[Question, str]] = []
    false: list[tuple[Question, str]] = []
    for i, (label, body) in enumerate(pairs[:1] if first_only else pairs):
        # (each of the other's kind, both ways: "síntoma" among NumPy and Reproducibilidad is the odd one out)
        others = [x for j, x in enumerate(labels) if j != i and of_kind(x, labels[i]) and of_kind(labels[i], x)]
        others = sorted(others, key=lambda x: not named(x))  # (stable: in the list's order otherwise)
        # (a description told from a sibling's by its figures alone, "Gen3: cerca de 16 GB/s" beside "Gen4: cerca de
        # 32 GB/s", asks a number to recall: trivia)
        by_figure = any(j != i and _unfigured(b) == _unfigured(body) for j, (_, b) in enumerate(pairs))
        if len(others) >= MIN_SIBLINGS - 1 and _describes(body) and not by_figure \
                and not _gives_away(labels[i], body, others):
            desc = lower_first(body) if body[:1].isupper() and not body.split()[0].isupper() else body
            choices.append((Question("mcq", _t("which_label", lang, c=subject, d=desc), labels[i], (), (labels[i],),
                                     "easy", lang, choices=(labels[i], *others[:MAX_OPTIONS - 1]), correct=0,
                                     origin="siblings"), f"{label}: {body}"))
        # the next sibling's description said of this one: false by construction; the first following one of the
        # kind of this one's (a list of values said of a count is false at a glance: check_objective_kind)
        j = next((k % len(pairs) for k in range(i + 1, i + len(pairs))
                  if of_glosses_kind(pairs[k % len(pairs)][1], body)), (i + 1) % len(pairs))
        other_label, other_body = pairs[j]
        # (two of a kind: "NumPy" said to be "síntoma"'s description is false at a glance; and two descriptions:
        # a formula's label, "Backprop: dL/dz_1 = …", said to be "neuronas que quedan siempre a 0" is no claim)
        if _describes(other_body) and _describes(body) \
                and of_kind(labels[j], labels[i]) and of_kind(labels[i], labels[j]) \
                and not _gives_away(labels[j], other_body, [labels[i]]) and fold(labels[i]) not in fold(other_body) \
                and not says_same(body, other_body):  # (a false statement still true: the two glosses say one thing)
            stmt = _t("label_means", lang, c=subject, t=labels[i], d=other_body).rstrip(".") + "."
            said = f"{label}: {body}."
            false.append((Question("tf", _t("tf", lang, s=stmt),
                                   f"{_t('false', lang)}. {_t('source_says', lang, s=said)}", (), (body,), "easy",
                                   lang, correct=False, origin="siblings"),
                          f"{label}: {body}; {other_label}: {other_body}"))
    return choices + false


SAME_GIST = 0.6  # share of the smaller gloss's content stems two glosses share to say one thing (hand-set: table
# rows "binária; não" share all; two glosses of one list that differ in their point share under half)


def says_same(a: str, b: str) -> bool:
    """Two glosses that say one thing (:data:`SAME_GIST` of the smaller's content stems, each at least 2): one
    said of the other's term is no false statement ("still true": raters drop it, issue 26 item 6)."""
    from .checks import stems

    sa, sb = stems(a), stems(b)
    return len(sa) >= 2 and len(sb) >= 2 and len(sa & sb) >= SAME_GIST * min(len(sa), len(sb))


OBJECTIVE_PRIORITY = 0.1  # added to a plain question's priority for an objective form of the same idea: where
# an idea offers one, it is asked before its short answer (Moodle marks it; issue 26, item 6); selection
# still asks it as a short answer when the quiz holds enough objective questions (generate._best_form)


def objective_drafts(idea: Idea, chunk: Chunk, passage: str, deck: CheckContext, subject: str, lang: str,
                     is_term: Callable[[str], bool], priority: float) -> list[Draft]:
    """The objective forms (:func:`objective_questions`) of an idea that pass the registry's checks, as
    drafts of one idea (``item`` ``idea:<key>``, which selection asks in one form only)."""
    from dataclasses import replace

    from ..quiz import Citation
    from .checklist import run_checks
    from .deck_term import deck_term
    from .seam import Draft
    from .terms import of_answers_kind

    def in_deck(label: str) -> bool:  # a term the deck uses as one, not an ordinary word said only as a label
        return deck_term(label, deck.source_text, lang)

    from ..lang import summary_title

    if summary_title(idea.locator.split(" · ", 1)[-1]):  # a recap slide ("Resumen") restates what its slides teach
        return []
    pairs = siblings(idea, is_term, in_deck)
    defined = not pairs and deck.outline is not None
    if defined:
        pairs = defined_siblings(idea, deck.outline.ideas, lambda x: is_term(x) and in_deck(x))
    if not pairs:
        return []
    ctx = replace(deck, passage=passage)
    out: list[Draft] = []
    from .deck_term import NAMED_LINES, named_lines

    for q, quote in objective_questions(idea, pairs, subject, lang, lambda o, a: of_answers_kind(o, a, lang),
                                        first_only=defined,
                                        named=lambda x: named_lines(x, deck.source_text) >= NAMED_LINES):
        if any(d.question.type == q.type for d in out):
            continue  # (one of each kind: the first that passes the checks)
        q = replace(q, citations=(Citation(chunk.source, chunk.locator.describe(), chunk.id, quote[:500]),))
        if run_checks(q, ctx):
            continue
        out.append(Draft(q, chunk, key="idea:" + idea.key, priority=priority + OBJECTIVE_PRIORITY,
                         item="idea:" + idea.key, idea=idea.key, section=idea.section))
    return out
