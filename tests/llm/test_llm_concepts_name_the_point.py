"""The LLM writer's key concepts go through the same test of what a teacher keeps as the offline writer's
(kb/writing/concept_faults.py, issue 26 concepts27): a fragment ("Na prática") or worked numbers ("modelo de 7B
parâmetros") it writes beside a whole phrase is left out, and the question kept; its concepts are its model answer's
points (kb/writing/answer_points.py, issue 26 concepts28). Against the real local OpenAI-compatible server
(tests/openai_stub.py) and the real sample course."""

from __future__ import annotations

from .test_llm_checks import QUOTE, _generate, _one_question

SHORT = {"type": "short", "prompt": "No capítulo 12, qual comando verifica o uso da memória da GPU?",
         "answer": "Na prática, com o nvidia-smi, que mostra quanta memória da GPU cada processo ocupa (um modelo de "
                   "7B parâmetros ocupa a GPU inteira).", "quote": QUOTE,
         "concepts": ["mostra quanta memória da GPU cada processo ocupa", "Na prática", "modelo de 7B parâmetros"],
         "difficulty": "easy"}


def test_a_fragment_or_worked_numbers_the_llm_gives_as_concepts_are_left_out(ws):
    report, _, _ = _generate(ws, _one_question(SHORT), ("short",))
    assert [q.prompt for q in report.quiz.questions] == [SHORT["prompt"]], report.rejected
    concepts = report.quiz.questions[0].concepts
    assert len(concepts) == 1 and "mostra quanta memória da GPU cada processo ocupa" in concepts[0], concepts
    assert not any("prática" in c or "7B" in c for c in concepts), concepts
