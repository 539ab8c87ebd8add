"""Two rules of the offline answer (:mod:`kb.answering`) that stand on their own: the named-entity guard (a
question naming one thing of the course, "DataCollatorWithPadding", is answered from a page that names it) and
the tie rule (two pages whose best units score alike are both quoted)."""

from __future__ import annotations

import re
from typing import Any

from .search import lexical_tokens
from .text import fold, fold_word, words

# Two pages whose best units score within this of each other are a tie: the answer quotes the runner-up's unit
# too. 0.05 is the smallest step the score's hand-set weights express (LANGUAGE_BONUS; one place of RANK_WEIGHT
# is 0.03): below it, which page wins is the score's noise. Of the three dev sets' answers won by less than this,
# 4 were wrong, and for 3 of them the runner-up was a right page (docs/measurements/ask.md, round 4).
TIE_MARGIN = 0.05

# tools one could use instead of another; a feature counts as its framework (FSDP, DDP are PyTorch's), and
# what works under any of them (Slurm, MPI, XLA) is none: "¿Cómo se configura FSDP?" is not another tool's
# question than a page "Sharding de parámetros en PyTorch"
FRAMEWORKS = frozenset(
    "pytorch torch keras tensorflow tf jax flax horovod deepspeed ray lightning accelerate mxnet onnx "
    "dask spark sklearn scikit-learn numba cupy triton fsdp ddp megatron vllm".split())
# A name of one thing of the course (a class, an API, an option, a strategy): a CamelCase word
# ("MultiWorkerMirroredStrategy", "DataLoader"), or letters with digits, dots or underscores ("ZeRO-3",
# "load_best_model_at_end", "tf.function"). Its stem ("multi") is shared with unrelated words ("Multiprocesamiento").
_CAMEL = re.compile(r"[a-z][A-Z]")
_IDENTIFIER = re.compile(r"[A-Za-z]{2}.*(?:[_.]|\d)|(?:[_.]|\d).*[A-Za-z]{2}")


def entities(question: str) -> list[str]:
    """The names of one thing a question holds (a CamelCase word, an identifier with digits, dots or underscores:
    "MultiWorkerMirroredStrategy", "load_best_model_at_end", "ZeRO-3"), folded; a framework ("PyTorch") is not
    one: a deck on it need not name it on every slide (:data:`FRAMEWORKS` have their own rule)."""
    out = []
    for w in words(question):
        if (_CAMEL.search(w) or _IDENTIFIER.search(w)) and fold_word(w) not in FRAMEWORKS:
            out.append(fold_word(w))
    return list(dict.fromkeys(out))


def _names_pattern(entity: str) -> re.Pattern:
    """Where a folded text names the entity as a whole word ("mirroredstrategy" is not named by
    "multiworkermirroredstrategy")."""
    return re.compile(r"(?<![\w.])" + re.escape(entity) + r"(?![\w])")


def known_entities(index, question: str) -> list[str]:
    """The entities of a question (:func:`entities`) that some passage of the course names (text or heading): a
    question on one of them is answered from a page that names it. Read from the passages holding its rarest
    lexical token (BM25's postings), not the whole course."""
    out = []
    for e in entities(question):
        posted = [j for t in lexical_tokens(e) if (j := index.lexical.vocab.get(t)) is not None]
        if not posted:
            continue
        j = min(posted, key=lambda j: index.lexical.indptr[j + 1] - index.lexical.indptr[j])
        pattern = _names_pattern(e)
        texts, headings = index.chunks.cols["text"], index.chunks.cols["heading"]
        if any(pattern.search(fold(f"{headings[int(d)] or ''}\n{texts[int(d)] or ''}"))
               for d in index.lexical.docs[index.lexical.indptr[j]:index.lexical.indptr[j + 1]]):
            out.append(e)
    return out


def _runner_up(q: Any, best: Any, picked: list, scored: list, all_units: list, evidence: dict[int, float],
               floor: tuple[float, float]) -> list:
    """What another page of the same deck answers when its best unit ties with the answer's (within
    :data:`TIE_MARGIN`) and passes the evidence floor (``floor``: kb.answering's MIN_SUBJECT_SHARE and
    MIN_SIMILARITY; ``q``, ``best`` and the lists are its _Question, Scored and Units): the two closest answers
    quoted, each with its passage, rather than one picked by the score's noise. Nothing when the runner-up quotes
    what the answer already does (a deck and its text copy), nor for a difference (it already quotes a unit for
    each side)."""
    min_share, min_similarity = floor
    if q.kind == "difference":
        return []
    source = q.read[best.unit.page][0].chunk.source  # a tie with another deck is another topic, not another slide
    rivals = [s for s in scored if s.unit.page != best.unit.page and s.score >= best.score - TIE_MARGIN
              and q.read[s.unit.page][0].chunk.source == source
              and (evidence[s.unit.page] >= min_share or s.cosine >= min_similarity)
              and q.read[s.unit.page][0].chunk.kind != "transcript"]
    if not rivals:
        return []
    more = [s for s in q.compose(max(rivals, key=lambda s: s.score), scored, all_units)
            if s.unit.page != best.unit.page]

    def norm(units: list) -> str:
        return " ".join(fold(" ".join(s.unit.text for s in units)).split())

    quoted, rival = norm(picked), norm(more)
    return more if more and rival not in quoted and quoted not in rival else []
