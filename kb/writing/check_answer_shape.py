"""Two giveaways of a question's answer that teachers drop, whoever wrote the question (issue 26, item 5).

- ``answer-in-description`` (beside :func:`kb.writing.check_label_answer.answer_in_description`): a "which
  term matches this description" multiple choice whose description calls a library by its usual prefix and
  whose answer is that library ("«np.random.seed(s) para el generador global …»" → NumPy; "«torch.manual_seed(s)
  siembra …»" → PyTorch): the student reads the answer off the code name.
- ``code-answer``: a short question whose model answer opens on a shard of code the PDF's lines left behind
  ("else. {"params": regular_params}, …", "if step % 1000 == 0. if future is not None. …", "). Retorna …"):
  no answer to the question asked, and nothing a grader can mark a reply against.

Fresh raters dropped every question of both kinds on eval/real_heldout_r8–r12 (6 and 6 DROP ratings; the
code shard also 2 FIX, no KEEP). Both run in the one registry (:mod:`kb.writing.checklist`). Stdlib only.
"""

from __future__ import annotations

import re

from ..quiz import Question
from ..text import fold
from .check_label_answer import _QUOTED, naming_choice

# a library's usual prefix in code → a word its name contains (folded, letters and digits only)
LIBRARY_PREFIX = {
    "np": "numpy", "numpy": "numpy", "torch": "torch", "tf": "tensorflow", "keras": "keras", "pd": "pandas",
    "jax": "jax", "jnp": "jax", "pl": "lightning", "sklearn": "scikit", "cp": "cupy", "dask": "dask", "ray": "ray",
}
_PREFIX = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\.[A-Za-z_]")


def library_in_description(q: Question) -> list[str]:
    """["answer-in-description"] for a naming multiple choice whose quoted description writes a code name
    with the answer library's prefix (:data:`LIBRARY_PREFIX`)."""
    term = naming_choice(q)
    m = _QUOTED.search(q.prompt) if term else None
    if m is None:
        return []
    answer = re.sub(r"[^a-z0-9]", "", fold(term))
    named = {LIBRARY_PREFIX.get(p) for p in _PREFIX.findall(m.group(1))} - {None}
    return ["answer-in-description"] if any(lib and lib in answer for lib in named) else []


# a statement's opening keyword (Python)
_KEYWORD = r"(?:else|elif|if|for|while|with|try|except|finally|return|def|class|import|from|yield|raise)"
STATEMENT_WORDS = 8  # most words of a code line ("if future is not None."); a longer piece is a sentence
# the answer's first piece: up to a sentence's end (". ", "; ", ": ")
_FIRST = re.compile(r"^.*?(?:[.;:](?=\s)|$)", re.S)
# an item's number, letter or roman numeral ("1) …", "b) …", "ii) …"), after a space, a colon or a semicolon
_ENUMERATOR = re.compile(r"(?:^|(?<=[\s:;,]))(?:\d{1,2}|[a-zA-Z]|[ivx]{2,4}|[IVX]{2,4})\)")
# a JSON object's key opening the answer: a shard of a code block's object ('"parameters": {"type": …')
_JSON_KEY = re.compile(r'^"[^"\n]+"\s*:\s*[\[{"\d]')
# a stem that asks for code, whose answer may well be code
_ASKS_CODE = re.compile(r"(?i)\b(?:c[óo]digo|code|escrib[ae]|escreva|write|imprime|prints?|sintaxe|sintaxis|"
                        r"syntax|firma|assinatura|signature|completa el c|complete o c)\b")


def code_answer(q: Question) -> list[str]:
    """["code-answer"] for a short question whose answer opens on a line of code cut from its start (its first
    sentence closes more brackets than it opens: "TrainingArguments, Trainer). …", or a quoted JSON key:
    "\"parameters\": {…}", whatever the stem asks: rounds 8-22 raters kept none of 16 such ratings, dropped 6), or,
    for a stem that asks no code, on a code statement cut from its block (a keyword with an operator or a bare
    full stop: "else.", "if x == 0.") or on a bracket."""
    if q.type != "short":
        return []
    answer = q.answer.strip()
    first = m.group(0) if (m := _FIRST.match(answer)) else answer
    cut = _ENUMERATOR.sub(" ", first)  # (an item's number, "1) cuantizar", closes nothing)
    if sum(map(cut.count, ")]}")) > sum(map(cut.count, "([{")) or _JSON_KEY.match(answer):
        return ["code-answer"]
    if _ASKS_CODE.search(q.prompt):
        return []
    statement = re.match(rf"^{_KEYWORD}\b", first) and len(first.split()) <= STATEMENT_WORDS \
        and re.search(r"[=%<>(){}\[\]]|\.$", first)
    if statement or re.match(r"^[{}\[\])]", answer):
        return ["code-answer"]
    return []
