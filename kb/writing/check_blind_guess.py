"""A multiple choice a student answers without the course: the right option means what the description says.

``meaning-giveaway`` (reported as ``giveaway``): a "which term matches this description" question whose right option
is, to a multilingual sentence embedder, clearly nearer the quoted description than every other option is («não
verifica se a memoryview foi inicializada» → initializedcheck, «descarta saídas que não interessam» → discard_iterator,
«dezenas de GB, alta latência» → Memória global (HBM)). A reader of the language picks it by meaning, as the
lexical giveaway of :func:`kb.writing.checks.giveaway` picks an option by a shared word; the embedder sees a
translation, a cognate or a paraphrase too.

Measured on the fresh raters' multiple choices (``eval/real_heldout_r*/ratings.csv``, USE-m3 as kb embeds): with the
right option ahead of the nearest other by more than :data:`BLIND_MARGIN`, rounds 8-24 dropped 69 % of 32 ratings
(20 % of the other 881) and rounds 25-29 61 % of 33 (45 % of the other 630); rounds 30-31, rated with the check in one
version, hold 3 such ratings. The margin is the default embedder's: with
another (e5-small, a sentence-transformers model) the check does not run, as its cosines are on another scale.
"""

from __future__ import annotations

from typing import Any

from ..quiz import Question
from .statement import statement, which_term

BLIND_MARGIN = 0.15  # cosine by which the right option leads the nearest other (USE-m3; read above)
MEASURED_WITH = "use-m3"  # the embedder BLIND_MARGIN was measured with


def meaning_giveaway(q: Question, embedder: Any) -> str | None:
    """"giveaway" for a multiple choice whose right option is nearest its quoted description by meaning (module doc);
    None without the embedder it was measured with, or for any other question."""
    if not which_term(q) or embedder is None or getattr(embedder, "id", "") != MEASURED_WITH:
        return None  # (a consequence or a fix quoted beside its options is near the right one by design)
    description = statement(q)  # (a "which term" stem's quoted description)
    if not description or len(q.choices) < 3 or not isinstance(q.correct, int) or not 0 <= q.correct < len(q.choices):
        return None
    vecs = embedder.embed_documents([description, *q.choices])
    sims = [float(vecs[0] @ v) for v in vecs[1:]]
    right = sims[q.correct]
    nearest_other = max(s for i, s in enumerate(sims) if i != q.correct)
    return "giveaway" if right - nearest_other > BLIND_MARGIN else None
