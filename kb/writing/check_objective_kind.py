"""Objective questions a teacher drops because their answer is obvious by its kind (issue 26, rounds 14-16).

- :func:`false_of_other_kind`: a true/false "«LABEL» significa: GLOSS" whose false gloss is of another kind than
  the label's own: a list of values said to be what a count or an action means ("«num_nodes» significa: "cpu",
  "cuda", "mps" …", the true gloss "número de máquinas"), or a plural verb said of one thing ("«n_warmup_steps»
  significa: asignan presupuesto …"): a student rejects it without knowing the course.
- :func:`plain_key`: a "which term matches this description" whose key is a plain word of the language, not a
  term of the deck ("saída", "modificar"), or whose options are a slide's numbered alternatives ("Opção 2").
- :func:`figures_description`: a multiple choice or true/false whose quoted description is a row of figures («380
  px, 19 M, 4.2 GFLOPs, 82.9 %» → B4, «(10, 3, 3, 3, 3, 2, 2)» → Kernels): a table's cells to memorise, dropped
  in 6 of 6 ratings of rounds 19-24 (and 26 of 27 on round 25, where it was read); on rounds 26-27, rated after it
  was written (the session-start writer's questions), 15 ratings: KEEP 3, FIX 9, DROP 3 — kept less often than
  multiple choice there (24-39 %), dropped less often too (35-49 %): the weakest evidence of these rules;
- :func:`cut_option`: a multiple choice with an option cut inside its brackets or quotes ("Modelos multilíngues
  (ex.", 'aviso "Some wei': a bracket opened and never closed, an odd quote): 3 of 3 ratings of rounds 19-24
  dropped, 6 of 9 on round 25;
- :func:`blank_form`: a cloze whose blank is a command-line flag ("interleaved com --_____") or a clause's shard
  ("Si la pérdida"). (A sentence to
  complete that opens, after the deck's setting, on "se" with no subject, "En cuDNN, se fijan una vez …", is
  ``no-subject``: :mod:`kb.writing.check_subject`.)
- :func:`notation_answer`: a cloze whose blank, or a multiple choice whose key, is a formula's symbol
  (:data:`NOTATION`: "alpha_t", "U_jj", "n_{l+1}", "sum_i") that the deck does not write as code ("n_fft=400",
  "def causal(b, h, q_idx, kv_idx)": :func:`written_as_code`): the slide's notation, not an idea (raters: "tests
  notation, not understanding"). Read on rounds 32-33 (such cloze blanks: 24 ratings, KEEP 0, DROP 14) and checked
  on rounds 14-31, where it was not written: such clozes kept 6 % and dropped 42 % (33 ratings; other clozes 19 % /
  41 %), such multiple choices kept 6 % and dropped 83 % (18; others 34 % / 32 %)
  (``python eval/notation_answers.py 14-31``).
- :func:`prose_blank`: a cloze whose blank is no code entity (:data:`CODE_BLANK`): a prose word ("pooling",
  "activaciones", "ganancia"), a name or acronym ("COCO", "BERT", "DDIM"), a hyphenated term ("encoder-decoder").
  Read on every rated cloze, by the blank's class, against short answers: rounds 8-24 kept such clozes 22 % of the
  time and dropped 34 % (428 ratings; short answers 31 % / 3 %), rounds 25-29 10 % / 61 % (186; 23 % / 7 %); a
  blank on a code entity 32 % / 18 % (192) and 21 % / 37 % (63). On round 30, rated before the check was written,
  such clozes were kept 0 of 30 times and dropped 28. The sentence around a prose blank gives it away or is a detail
  (a year's venue, a side method's name); a short answer on the same idea is kept more and dropped less.

Written on the objective DROP ratings of rounds 14-16 (eval/real_heldout_r14..16); measured once on rounds 10-13
(``python eval/flag_objective_ratings.py --rounds 10 11 12 13 --types mcq tf cloze --newest --any``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..quiz import Question
from ..text import STOPWORDS_ES, STOPWORDS_PT, fold
from .checks import everyday_word

# a blank that is a code entity: an identifier with "_", a call, a dotted or camelCase name ("all_gather", "f()",
# "torch.compile", "DataLoader" is camelCase inside)
CODE_BLANK = re.compile(r"[_()\[\]]|\w\.\w|[a-z][A-Z]")
# "«LABEL» significa: GLOSS" (pt/es/en) and the answer's "“LABEL: GLOSS”"
_MEANS = re.compile(r"«(?P<label>[^»]+)»\s+(?:significa|means):\s*(?P<gloss>.+?)\.?$")
_SAID = re.compile(r"“(?P<label>[^”:]+):\s*(?P<gloss>[^”]+)”")
_ITEMS = re.compile(r"[,()]|\s(?:ou|o|y|e|or)\s")
# a third person plural verb (es -an/-en, pt -am/-em): said of one parameter, its grammar gives it away
_PLURAL_VERB = {"es": re.compile(r"^[a-záéíóúñ]{3,}[ae]n$"), "pt": re.compile(r"^[a-záéíóúâêôãõç]{3,}[ae]m$")}
# a slide's numbered alternative or a section label offered as a term: "Opção 2", "Uso típico"
_SLIDE_LABEL = re.compile(r"^(?:op[cç][aã]o|opci[oó]n|option|caso|case|passo|paso|step)\s*\d+$"
                          r"|^uso t[ií]pico$|^typical use$", re.I)
# a numbered step's sub-step, every option one: "3a", "3b)" (round 25: AWQ's steps 3a-3e asked as terms, dropped by
# every rater); lower case only: "7B", "13B", "2D" name sizes and dimensions
_SUB_STEP = re.compile(r"^\d{1,2}[a-z]\)?$")
_BLANK = r"_{3,}"
_GREEK = ("alpha|beta|gamma|delta|epsilon|eps|zeta|eta|theta|iota|kappa|lambda|lam|mu|nu|xi|pi|rho|sigma|tau|upsilon"
          "|phi|chi|psi|omega")
# a formula's symbol: a letter or two (Latin or Greek), or a Greek letter's name, with subscripts of at most three
# characters, a Greek letter's name or in braces ("alpha_t", "U_jj", "OT_eps", "n_{l+1}", "eps_hat", "eps_theta"),
# maybe a power ("sigma^2" too); or a short name with a one-character index ("sum_k", "w_i"). Not a code name with
# longer parts ("tp_size", "num_workers", "capacity_factor"); one the deck writes as code is spared by
# :func:`notation_symbol` ("n_fft=400", "T_max=100", "def causal(b, h, q_idx, kv_idx)")
_HEAD = rf"(?:[a-zα-ω]{{1,2}}|{_GREEK})"
_SUB = rf"_(?:\{{[^{{}}\s]{{1,8}}\}}|{_GREEK}|[a-z0-9]{{1,3}})"
NOTATION = re.compile(rf"{_HEAD}(?:{_SUB})+(?:\^\S{{1,4}})?|{_HEAD}\^\S{{1,4}}|[a-z]{{1,4}}_[a-z0-9]", re.I)


def written_as_code(name: str, text: str) -> bool:
    """``text`` (a deck) writes ``name`` as code: a keyword argument or a flag's value ("n_fft=400", "-arch=sm_80"),
    a function's parameter ("def causal(b, h, q_idx, kv_idx):"), an attribute ("df.to_csv"). (A math formula writes
    "x_t = …" with spaces and "eps_theta(x_t, t)" as a function: neither spares the symbol.)"""
    n = re.escape(name)
    return bool(text) and bool(re.search(rf"(?<![\w.]){n}=(?!=)|(?<=\w=){n}(?!\w)|\.{n}(?!\w)"
                                         rf"|\b(?:def|lambda)\s*\w*\([^)]*(?<![\w.]){n}(?!\w)", text))


def notation_symbol(answer: str, text: str = "") -> bool:
    """``answer`` is a formula's symbol (:data:`NOTATION`) that the deck ``text`` does not write as code."""
    a = answer.strip()
    return bool(NOTATION.fullmatch(a)) and not written_as_code(a, text)


def _enumeration(gloss: str) -> bool:
    """The gloss is mostly a list of names or values ("vmap, grad, jvp", '"cpu", "cuda" ou "auto"'): outside
    brackets, at least two items and half of them or more a single token; or, in brackets, three single tokens or
    more and nothing else ("backend (hf, vllm, openai-completions)"; "(forward) y … (reverse)" is no list)."""
    inside = " ".join(re.findall(r"\(([^()]*)\)", gloss))
    outside = re.sub(r"\([^()]*\)", " ", gloss)

    def items(text: str) -> list[str]:
        return [x for x in (x.strip(" .\"'…") for x in _ITEMS.split(text)) if x]

    out = items(outside)
    single = [x for x in out if " " not in x]
    if len(single) >= 2 and 2 * len(single) >= len(out):
        return True
    within = items(inside)
    return len(within) >= 3 and all(" " not in x for x in within)


def of_glosses_kind(false: str, own: str) -> bool:
    """``false`` can be said of a label whose own gloss is ``own`` without its kind giving it away: not a list
    of values where ``own`` is none (the sibling pattern picks such a sibling for its false statement)."""
    return not (_enumeration(false) and not _enumeration(own))


def false_of_other_kind(q: Question, verb_like: Callable[[str], bool] | None = None,
                        source_text: str = "") -> str | None:
    """'obvious-false' for a true/false that says one label means another's gloss of another kind: a list of
    values where the label's own gloss is no list, or a plural verb opening it (by the course's verb test, or
    a word the deck ``source_text`` writes but never after an article) where the label's own gloss does not."""
    if q.type != "tf" or q.correct is not False:
        return None
    said, own = _MEANS.search(q.prompt.strip()), _SAID.search(q.answer)
    if not said or not own:
        return None
    false, true = said.group("gloss"), own.group("gloss")
    if not of_glosses_kind(false, true):
        return "obvious-false"
    plural = _PLURAL_VERB.get(q.lang)
    first = fold(false.split()[0]) if false.split() else ""
    own_first = fold(true.split()[0]) if true.split() else ""
    if plural and plural.match(first) and not plural.match(own_first) and _verb(first, verb_like, source_text):
        return "obvious-false"
    return None


_STOP = frozenset(fold(w) for w in STOPWORDS_ES | STOPWORDS_PT)
_ARTICLE = r"(?:el|la|los|las|un|una|unos|unas|del|al|o|a|os|as|um|uma|do|da|dos|das|no|na|nos|nas)"


def _verb(word: str, verb_like: Callable[[str], bool] | None, source_text: str) -> bool:
    """``word`` (folded) is a verb: no function word ("também"), and the course's verb test says so, or the deck
    never writes it after an article ("asignan"; "imagen", "orden" follow one)."""
    if word in _STOP:
        return False
    if verb_like is not None and verb_like(word):
        return True
    text = fold(source_text)
    return bool(text) and re.search(rf"\b{word}\b", text) is not None \
        and re.search(rf"\b{_ARTICLE}\s+{word}\b", text) is None


def plain_key(q: Question, verb_like: Callable[[str], bool] | None = None) -> str | None:
    """'plain-key' for a multiple choice whose key is a lower-case word of everyday language or a verb's
    infinitive (with the course's verb test), no term a student learns from the deck, or one of whose options
    is a slide's numbered alternative or section label."""
    if q.type != "mcq" or not q.choices:
        return None
    if any(_SLIDE_LABEL.match(x.strip()) for x in q.choices) or all(_SUB_STEP.match(x.strip()) for x in q.choices):
        return "plain-key"
    key = q.correct_text.strip()
    if not re.fullmatch(r"[a-záéíóúâêôãõçñ]+", key):
        return None
    if everyday_word(key, q.lang):
        return "plain-key"
    infinitive = re.search(r"(?:ar|er|ir)$", key) and q.lang in ("es", "pt")
    return "plain-key" if infinitive and verb_like is not None and verb_like(fold(key)) else None


_QUOTED = re.compile(r"«([^»]+)»")
_FIGURE = re.compile(r"^[(\[{~≈]?[-+]?\d[\d.,:/x%]*[)\]}]?[,;]?$")  # a figure: "380", "4.2", "(10,", "2)", "82.9"
FIGURES_SHARE = 0.5  # a description this share of whose words hold a digit is a row of figures (hand-set: «380 px,
# 19 M, 4.2 GFLOPs, 82.9 %» is 4 of 8; «cerca de 16 GB/s», a gloss with one figure, 1 of 4)


def figures_description(q: Question) -> str | None:
    """'trivia' for a multiple choice (or a true/false) whose quoted description is a row of figures."""
    if q.type == "mcq":
        quoted = _QUOTED.findall(q.prompt)
        desc = quoted[-1] if quoted else ""
    elif q.type == "tf":
        m = _MEANS.search(q.prompt.strip())
        desc = m.group("gloss") if m else ""
    else:
        return None
    tokens = desc.split()
    if len(tokens) < 2 or re.search(r"\w\(", desc):
        return None  # (a call's arguments are code, not a table's cells: «torch.zeros(2, 3) @ torch.ones(3, 4)»)
    return "trivia" if sum(bool(_FIGURE.match(t)) for t in tokens) >= FIGURES_SHARE * len(tokens) else None


def cut_option(q: Question) -> str | None:
    """'cut-off' for a multiple choice with an option whose brackets or double quotes do not close."""
    if q.type != "mcq":
        return None
    for option in q.choices:  # (an interval "[0, 1)" or a numbered "1) inicializar" closes what it opens, or more)
        if option.count("(") + option.count("[") > option.count(")") + option.count("]") or option.count('"') % 2:
            return "cut-off"
    return None


def prose_blank(q: Question) -> str | None:
    """'trivial-blank' for a cloze whose blank is no code entity (module doc)."""
    return "trivial-blank" if q.type == "cloze" and not CODE_BLANK.search(q.answer.strip()) else None


def notation_answer(q: Question, source_text: str = "") -> str | None:
    """'trivial-blank' for a cloze whose blank, 'trivia' for a multiple choice whose key, is a formula's symbol that
    the deck (``source_text``) does not write as code (:func:`notation_symbol`)."""
    answer = q.answer if q.type == "cloze" else q.correct_text if q.type == "mcq" else ""
    if not answer or not notation_symbol(answer, source_text):
        return None
    return "trivial-blank" if q.type == "cloze" else "trivia"


def blank_form(q: Question) -> str | None:
    """'trivial-blank' for a blank on a command-line flag or words opening on a function word."""
    if q.type != "cloze":
        return None
    a = q.answer.strip()
    if re.search(rf"(?<![\w])--?{_BLANK}", q.prompt) or a.startswith("-"):
        return "trivial-blank"
    stop = {"es": STOPWORDS_ES, "pt": STOPWORDS_PT}.get(q.lang, frozenset())
    first = a.split()[0].lower() if a.split() else ""
    # "Si la pérdida": a clause's shard, no concept; an article opens a term ("la tasa de aprendizaje")
    return "trivial-blank" if len(a.split()) >= 2 and first in stop and not re.fullmatch(_ARTICLE, first) else None
