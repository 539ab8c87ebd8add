"""What the LLM writer sends, in which order (``LLMWriter._batches`` and the cap in ``write``): one request per
planned idea of each source's outline, the sources in turn, then each source's other passages; none planned for a
``--topic`` quiz or a caller's own idea; a planned request asks two questions. Unit tests on the writer with an outline
made by hand (the real outline's planning is kb.outline's, tested there)."""

from __future__ import annotations

from types import SimpleNamespace

from kb.llm.writer import _MAX_PER_REPLY, _PER_IDEA, LLMWriter, WriterContext, _asks
from kb.records import Chunk, Locator
from kb.writing.generate import GenerationRequest


def _chunks(source: str, n: int) -> list[Chunk]:
    return [Chunk(source, "pdf", f"{source} slide {i} text", Locator(page=i), "es", i, "h", n) for i in range(n)]


def _idea(name: str, *chunks: Chunk) -> SimpleNamespace:
    return SimpleNamespace(name=name, section="S", chunk_ids=tuple(c.id for c in chunks))


class _Outline:
    def __init__(self, ideas: list[SimpleNamespace]) -> None:
        self.ideas = ideas

    def top(self, k: int) -> list[SimpleNamespace]:
        return self.ideas[:k]


def _course(a: list[Chunk], b: list[Chunk]) -> SimpleNamespace:
    return SimpleNamespace(outlines={
        "a.pdf": _Outline([_idea("A1", a[3]), _idea("A2", a[0], a[1]), _idea("A3", a[3])]),
        "b.pdf": _Outline([_idea("B1", b[2])]),
    })


def _writer() -> LLMWriter:
    return LLMWriter(client=SimpleNamespace())  # (only _batches is called: no request is sent)


def test_planned_ideas_first_the_sources_in_turn_then_each_sources_other_passages():
    a, b = _chunks("a.pdf", 6), _chunks("b.pdf", 4)
    # (interleaved over the sources, as write() does)
    usable = [x for pair in zip(a[:4], b, strict=True) for x in pair] + a[4:]
    batches = _writer()._batches(usable, GenerationRequest(n=12), _course(a, b), None)
    planned = [(tuple(c.id for c in p), idea) for p, idea in batches if idea]
    # A1 and A3 are read from one slide: one request asks both; the sources take turns
    assert planned == [((a[3].id,), "A1 (S); A3 (S)"), ((b[2].id,), "B1 (S)"), ((a[0].id, a[1].id), "A2 (S)")]
    rest = [[c.id for c in p] for p, idea in batches if not idea]
    # the other passages: each batch one source's, in reading order, the sources in turn (b's first here: its
    # slide 0 comes before a's slide 2 among the passages left)
    assert rest == [[b[0].id, b[1].id, b[3].id], [a[2].id, a[4].id, a[5].id]]
    sent = [c.id for p, _ in batches for c in p]
    assert sorted(sent) == sorted(c.id for c in usable) and len(sent) == len(set(sent))  # every passage once


def test_no_plan_for_a_topic_quiz_or_a_callers_own_idea():
    a, b = _chunks("a.pdf", 6), _chunks("b.pdf", 4)
    usable = a + b
    for request, context in ((GenerationRequest(n=12, topic="x"), None),
                             (GenerationRequest(n=12), WriterContext(idea="what the caller asks"))):
        batches = _writer()._batches(usable, request, _course(a, b), context)
        assert [c.id for p, _ in batches for c in p] == [c.id for c in usable]  # retrieval's order, three at a time
        assert not any(idea for _, idea in batches) and len(batches[0][0]) == 3


def test_a_planned_request_asks_two_questions():  # (the cap on a whole run: test_llm.py's long-run estimate)
    assert _asks(((), "A1 (S)")) == _PER_IDEA and _asks(((), "")) == _MAX_PER_REPLY
    assert _asks(((), ""), 3) == 3 and _asks(((), "A1 (S)"), 3) == _PER_IDEA
