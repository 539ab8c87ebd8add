"""Answer groups: the replies to one question that say the same thing, so that a teacher grades the
group once and every member takes that grade (Powergrading, Basu et al. TACL 2013; "Divide and
Correct", Brooks et al. L@S 2014; Gradescope's answer groups).

Two replies share a group when their words are the same after folding case, accents and punctuation,
or when both their meaning (USE-m3 cosine) and their letters (character 3–5-gram cosine) are close to
the group's first reply. The thresholds were measured on PT_ASAG dev questions 36–42 only
(``bench/review_budget.py --tune``), never on the questions reported.

Groups are formed largest first (the replies written most often found a group), so a group's
representative is its most common wording; singletons stay singletons.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any, Sequence

from ..text import fold
from .signals import _char_grams, _cosine_counts

# measured on PT_ASAG 36–42 (dev, 4,613 replies): a member of a group of two or more has its representative's
# human grade 74 % of the time at 0.85, 78 % at 0.90, 82 % for the very same words (the graders gave the same
# words different grades: "metabolismo", 81 times, 44 × 2 and 35 × 1); a teacher's decisions on 10 % of the
# replies, in kb's order and propagated (kb.grading.kernel), give QWK 0.785 at 0.90 and 0.776 at 0.85
GROUP_COSINE = 0.90
GROUP_CHARS = 0.60
MAX_COMPARED_CHARS = 2000  # a reply longer than this is compared by its first 2,000 characters


def normalise(text: str) -> str:
    """A reply's words only: folded case and accents, punctuation and spacing collapsed."""
    return " ".join(re.findall(r"\w+", fold(text[:MAX_COMPARED_CHARS])))


@dataclass(frozen=True)
class AnswerGroup:
    """The replies (indices into the caller's list) to one question that say the same thing; the
    representative (the first member) is the wording written most often."""

    question_id: str
    members: tuple[int, ...]

    @property
    def representative(self) -> int:
        """The index of the reply a teacher reads for the whole group."""
        return self.members[0]

    @property
    def size(self) -> int:
        """How many replies take the group's grade."""
        return len(self.members)


def group_id(question_id: str, representative: str) -> str:
    """A stable id for a group: its question and its representative's words (the same reply heads
    the same group on a re-run, so a teacher's grade finds its group again)."""
    h = hashlib.sha1(f"{question_id}\n{normalise(representative)}".encode()).hexdigest()
    return "g" + h[:8]


def group_replies(question_ids: Sequence[str], replies: Sequence[str], vectors: Any, *,
                  cosine: float = GROUP_COSINE, chars: float = GROUP_CHARS) -> list[AnswerGroup]:
    """Per question, the replies that say the same thing, largest group first (then by question and
    first reply, so the order is deterministic). ``vectors``: one embedding per reply (any norm)."""
    import numpy as np

    raw = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(raw, axis=1, keepdims=True) if len(raw) else np.ones((0, 1), dtype=np.float32)
    vecs = raw / np.where(norms == 0, 1, norms)
    by_q: dict[str, dict[str, list[int]]] = {}
    for i, (q, r) in enumerate(zip(question_ids, replies, strict=True)):
        by_q.setdefault(q, {}).setdefault(normalise(r), []).append(i)
    out: list[AnswerGroup] = []
    for q, buckets in by_q.items():
        # the most written wordings first: they found the groups and represent them
        order = sorted(buckets.items(), key=lambda kv: (-len(kv[1]), kv[1][0]))
        leaders: list[int] = []  # the representative of each group, by group index
        grams: list[Any] = []
        members: list[list[int]] = []
        for text, idx in order:
            best = -1
            if leaders and text:
                sims = vecs[leaders] @ vecs[idx[0]]
                for j in np.argsort(-sims):
                    if sims[j] < cosine:
                        break
                    if _cosine_counts(_char_grams(text), grams[j]) >= chars:
                        best = int(j)
                        break
            if best < 0:
                leaders.append(idx[0])
                grams.append(_char_grams(text))
                members.append(list(idx))
            else:
                members[best].extend(idx)
        out += [AnswerGroup(q, tuple(m)) for m in members]
    return sorted(out, key=lambda g: (-g.size, g.members[0]))
