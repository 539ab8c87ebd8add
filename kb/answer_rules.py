"""Two rules of the offline answer (:mod:`kb.answering`) that stand on their own: the named-entity guard (a
question naming one thing of the course, "DataCollatorWithPadding", is answered from a page that names it) and
the tie rule (two pages whose best units score alike are both quoted)."""

from __future__ import annotations

import re
from typing import Any

from .lexical import STEM_CHARS, lexical_tokens
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


# A question word held only inside a longer identifier or word is not the subject being named: "checkpoint" in
# "gradient_checkpointing" (snake_case), "Trainer" in "TrainingArguments" (CamelCase), "checkpoint" in
# "Gradient checkpointing" (the word grown into its gerund). A compound names it only as a whole ("PyTorch" for
# "pytorch"). Not tried to help: a compound of the question's words alone ("offload_optimizer" for "O que é offload do
# optimizer?") naming them moved no dev answer and quoted a config line instead of the definition.
_COMPOUND = re.compile(r"\w_\w|[a-z][A-Z]")
# A word grown past the question's only by an English gerund is another word ("checkpointing"); not any longer word:
# "configura" / "configuración", "entrena" / "entrenamiento" are the same subject in pt/es (a 5-letter stem apart).
GERUND = ("ing", "ings")


def is_compound(word: str) -> bool:
    """Whether a word as written (one dotted part) is an identifier made of words: snake_case or CamelCase."""
    return _COMPOUND.search(word) is not None


class QuestionWords:
    """The plain words of a question's subject (not identifiers), by their lexical stem: which of them a text names
    as words of their own (:meth:`terms`), not only inside a longer identifier or word."""

    def __init__(self, subject_words: list[str]):
        self.by_stem: dict[str, list[str]] = {}
        for w in subject_words:
            tokens = lexical_tokens(w)
            if is_compound(w) or len(tokens) != 1 or not tokens[0].isalpha():
                continue
            self.by_stem.setdefault(tokens[0], []).append(fold_word(w))
        self._memo: dict[str, set[str]] = {}

    def _names(self, stem: str, folded: str) -> bool:
        """Whether a folded plain word of a text names a question word of this stem: not an English gerund grown
        from it ("checkpointing" for "checkpoint", "sharding" for "shard": the process, not the thing)."""
        return any(not (folded.startswith(w) and folded[len(w):] in GERUND) for w in self.by_stem[stem])

    def terms(self, text: str, base: set[str]) -> set[str]:
        """``base`` (the text's terms, kb.answering._terms) without the question's stems that the text holds only
        inside longer identifiers or words."""
        if not self.by_stem:
            return base
        if text in self._memo:
            return self._memo[text]
        named: set[str] = set()
        # a dot joins names, not words ("layers.LSTM" names LSTM, "tf.distribute" names distribute): each its own
        for w in (name for word in words(text) for name in word.split(".") if name):
            if is_compound(w):
                whole = lexical_tokens(w)  # "PyTorch" names "pytorch"; "TrainingArguments" does not name "Trainer"
                if len(whole) == 1 and whole[0] in self.by_stem and any(
                        fold_word(w) in (q, q + "s", q + "es") for q in self.by_stem[whole[0]]):
                    named.add(whole[0])  # as a whole, or its plural ("DataLoaders"); not "TrainerCallback"
                continue
            for part in re.split(r"[-']", fold_word(w)):
                stem = part[:STEM_CHARS]
                if stem in self.by_stem and self._names(stem, part):
                    named.add(stem)
        held = {s for s in self.by_stem if s in base}
        out = set(base) | named
        for s in held - named:
            out.discard(s)
            out.difference_update("=" + w for w in self.by_stem[s])
        self._memo[text] = out
        return out


# The deck whose pages' headings name the question's subject is what the question is about: a unit of another deck
# that shares its words uses them in another sense ("¿Qué es el paralelismo de modelo?" answered from "Modelo mais
# rígido de paralelismo", a programming model, in a deck whose headings say "paralelismo" alone). A deck names the
# subject by the union of the headings of its pages read (the idf share of the topic's stems; a whole word's bonus
# would let "paralelismo" alone outweigh "Model parallelism"). On the three dev sets (104 questions) it moves one
# answer, wrong → correct. A bar of half the subject also moved a wrong one to "not found", but sent "¿Qué es el padding
# dinámico?" to a deck whose heading says "dinámica" (quantization) on questions written to check it.
DECK_NAMING_MIN = 0.99  # a deck names the whole subject (its headings together)
DECK_NAMING_MARGIN = 0.2  # and this much more than the best unit's deck


def deck_naming(q: Any) -> dict[str, float]:
    """For each deck (source) of the pages read, the share of the question's topic (stems) that their headings name
    together, read without the question's words they hold only inside longer ones (``q``: kb.answering's
    _Question)."""
    heads: dict[str, set[str]] = {}
    for hit, _code in q.read:
        heads.setdefault(hit.chunk.source, set()).update(q.terms(hit.chunk.locator.heading or ""))
    stems = [t for t in q.topic if not t.startswith("=")]
    return {source: q.share(stems, terms) for source, terms in heads.items()}


def naming_decks(q: Any, source: str) -> set[str]:
    """The decks whose headings name the question's subject where the best unit's deck (``source``) does not
    (:data:`DECK_NAMING_MIN`, :data:`DECK_NAMING_MARGIN`); empty when that deck is as good as any."""
    share = deck_naming(q)
    top = max(share.values(), default=0.0)
    if top < DECK_NAMING_MIN or share.get(source, 0.0) > top - DECK_NAMING_MARGIN:
        return set()
    return {s for s, v in share.items() if v > top - DECK_NAMING_MARGIN}
