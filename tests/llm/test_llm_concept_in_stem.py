"""A short question the LLM writes with a key concept its stem already says is repaired, not thrown away:
the concept the stem says is left out (as the offline writer does) before the registry's concept-in-stem
runs. Against the real local OpenAI-compatible server (tests/openai_stub.py) and the real sample course."""

from __future__ import annotations

from kb.config import Settings
from kb.llm import LLMClient, LLMWriter
from kb.workspace import open_workspace
from kb.writing.generate import GenerationRequest, generate_quiz

from ..openai_stub import OpenAIStub, reply
from .test_llm_checks import QUOTE, SOURCE, passage_with

SHORT = {"type": "short", "prompt": "No capítulo 12, qual comando verifica o uso da memória da GPU?",
         "answer": "Com o nvidia-smi, que mostra quanta memória da GPU cada processo ocupa.", "quote": QUOTE,
         "concepts": ["memória da GPU", "nvidia-smi"], "difficulty": "easy"}


def test_a_concept_the_stem_says_is_left_out_and_the_question_kept(ws):
    def script(body: dict):
        n = passage_with(body, "nvidia-smi")
        return reply({"questions": [{**SHORT, "passage": n}] if n else []})

    with OpenAIStub(script) as stub:
        settings = Settings(home=ws / ".kb", llm_base_url=stub.url, llm_model="stub-model", llm_api_key="k",
                            llm_timeout=5.0, llm_retries=0)
        report = generate_quiz(open_workspace(settings), GenerationRequest(n=1, types=("short",), sources=(SOURCE,)),
                               LLMWriter(LLMClient(settings)))
        prompt = stub.requests[0]["messages"]
    assert [q.prompt for q in report.quiz.questions] == [SHORT["prompt"]], report.rejected
    assert report.quiz.questions[0].concepts == ("nvidia-smi",)
    # the prompt asks for concepts the question does not already say
    assert "never words the prompt already says" in " ".join(m["content"] for m in prompt)
