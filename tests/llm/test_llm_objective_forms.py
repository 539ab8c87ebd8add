"""A quiz the LLM writer writes holds the model's questions only: the offline sibling pattern's objective forms
(:func:`kb.writing.objective_forms.objective_alternates`) are offered to the offline writer's quiz, never mixed into
a model's, whose file records the model as its writer (``generator``)."""

from __future__ import annotations

from kb.llm import LLMClient, LLMWriter
from kb.workspace import open_workspace
from kb.writing.generate import GenerationRequest, generate_quiz

from ..openai_stub import OpenAIStub
from .test_llm import _settings, good_questions


def test_an_llm_quiz_of_every_type_holds_no_offline_pattern_question(ws):
    with OpenAIStub(good_questions) as stub:
        settings = _settings(ws, stub.url)
        report = generate_quiz(open_workspace(settings), GenerationRequest(n=12), LLMWriter(LLMClient(settings)))
    qs = report.quiz.questions
    assert qs and report.quiz.generator["kind"] == "llm"
    assert {q.origin for q in qs} == {"llm"}, [(q.origin, q.prompt[:60]) for q in qs if q.origin != "llm"]
