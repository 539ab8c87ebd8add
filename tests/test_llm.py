"""The LLM writer and kb ask against a real local HTTP server speaking the OpenAI
chat-completions API: good replies, malformed and truncated JSON, rate limits, timeouts."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from kb.config import Settings
from kb.errors import BackendError
from kb.llm import LLMClient, LLMWriter, parse_json_object
from kb.workspace import open_workspace
from kb.writing.generate import GenerationRequest, generate_quiz

from .conftest import run_kb
from .openai_stub import Behaviour, OpenAIStub, reply


def _passage(body: dict, n: int = 1) -> str:
    user = body["messages"][-1]["content"]
    m = re.search(rf"Passage {n}: \([^\n]*\)\n(.*?)(?:\n\nPassage {n + 1}:|\n\nWrite )", user, re.S)
    return m.group(1) if m else ""


def _good_questions(body: dict) -> Behaviour:
    """Questions grounded in the passages the request carries, plus one that is not."""
    # a whole sentence (capital to full stop) of the first passage that has one: what a model should quote
    n, sentence = 1, ""
    for i in (1, 2, 3):
        whole = [x.strip(" •*-") for x in re.split(r"(?<=[.!?])\s+|\n", _passage(body, i))]
        whole = [x for x in whole if re.match(r"^[A-ZÀ-Ú][^:]{30,}[.!?]$", x)]
        if whole:
            n, sentence = i, max(whole, key=len)
            break
    sentence = sentence or max(re.split(r"(?<=[.!?])\s+|\n", _passage(body)), key=len).strip()
    words = [w for w in re.findall(r"\w{5,}", sentence) if sentence.lower().count(w.lower()) == 1]
    term = words[len(words) // 2] if words else "termo"
    return reply({"questions": [
        {"type": "short", "passage": n,
         "prompt": f"O que o curso explica sobre {' e '.join(sorted(words, key=len)[-2:])}?",
         "answer": sentence,
         "quote": sentence, "concepts": words[:3], "difficulty": "medium"},
        {"type": "cloze", "passage": n, "prompt": sentence.replace(term, "_____", 1), "answer": term,
         "quote": sentence, "concepts": [term], "difficulty": "easy"},
        {"type": "short", "passage": 1, "prompt": "Qual é a capital da França?", "answer": "Paris é a capital.",
         "quote": "Paris é a capital da França.", "concepts": ["Paris"]},
        {"type": "short", "passage": 9, "prompt": "Pergunta sem passagem?", "answer": "x", "quote": "x"},
    ]})


@pytest.fixture
def ws(ingested, tmp_path, monkeypatch):
    shutil.copytree(ingested, tmp_path / "ws")
    monkeypatch.chdir(tmp_path / "ws")
    return tmp_path / "ws"


def _settings(ws: Path, url: str, **kw) -> Settings:
    return Settings(home=ws / ".kb", llm_base_url=url, llm_model="stub-model", llm_api_key="k",
                    llm_timeout=kw.pop("timeout", 5.0), llm_retries=kw.pop("retries", 2))


def test_llm_writer_validates_and_reports_rejections(ws):
    with OpenAIStub(_good_questions) as stub:
        settings = _settings(ws, stub.url)
        report = generate_quiz(open_workspace(settings), GenerationRequest(n=4, types=("short", "cloze")),
                               LLMWriter(LLMClient(settings)))
    qs = report.quiz.questions
    gen = report.quiz.generator
    assert (gen["kind"], gen["model"], gen["output"]) == ("llm", "stub-model", "json_schema")
    assert gen["usage"]["requests"] == len(stub.requests) and gen["usage"]["prompt_tokens"] == len(stub.requests)
    assert len(qs) == 4 and {q.origin for q in qs} == {"llm"}
    assert all(q.citations[0].chunk_id and q.citations[0].quote for q in qs)
    reasons = {r.reason for r in report.rejected}
    assert "the quote is not in the cited passage" in reasons  # Paris
    assert "no valid citation (passage number)" in reasons
    fmt = stub.requests[0]["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["name"] == "QuestionsReply"
    assert "questions" in fmt["json_schema"]["schema"]["properties"]
    assert stub.requests[0]["model"] == "stub-model"


def test_malformed_then_good_reply_is_retried(ws):
    calls = []

    def script(body):
        calls.append(1)
        if len(calls) == 1:
            return Behaviour('{"questions": [ {"type": "short", "prompt": "trunc')  # invalid JSON
        if len(calls) == 2:
            return Behaviour("", status=429)
        return _good_questions(body)

    with OpenAIStub(script) as stub:
        settings = _settings(ws, stub.url)
        report = generate_quiz(open_workspace(settings), GenerationRequest(n=2, types=("short",)),
                               LLMWriter(LLMClient(settings)))
    assert len(report.quiz.questions) == 2 and not report.errors and len(calls) >= 3


def test_a_truncated_reply_keeps_its_complete_questions_and_asks_again_for_fewer(ws):
    def script(body):
        good = _good_questions(body)
        user = body["messages"][-1]["content"]
        if "Write 4 questions" in user:  # cut inside the second question, as a reply that ran into its cap
            cut = good.content.index('{"type": "cloze"') + 25
            return Behaviour(good.content[:cut], finish="length")
        return good

    with OpenAIStub(script) as stub:
        r = run_kb(["quiz", "generate", "-n", "6", "--types", "short,cloze"], cwd=ws,
                   env={"OPENAI_BASE_URL": stub.url, "KB_LLM_MODEL": "stub-model", "KB_LLM_RETRIES": "1",
                        "OPENAI_API_KEY": "k", "KB_LLM_CONCURRENCY": "1"})
    assert r.returncode in (0, 1), r.stderr
    wants = [re.search(r"Write (\d+) questions", b["messages"][-1]["content"]).group(1) for b in stub.requests]
    assert wants[:2] == ["4", "2"]  # the cut batch asked again for half as many
    assert ("a reply was cut at its token cap (repeating itself?): 1 complete question kept, asked again for 2"
            in r.stderr)
    quiz = json.loads((ws / "quizzes" / "course.json").read_text(encoding="utf-8"))
    assert quiz["questions"]  # the run went on: nothing was lost to the cut reply


def test_timeout_is_a_clear_error(ws):
    with OpenAIStub(lambda body: Behaviour("{}", delay=2.0)) as stub:
        client = LLMClient(_settings(ws, stub.url, timeout=0.5, retries=1))
        with pytest.raises(BackendError) as e:
            client.chat_json("s", "u")
    assert "failed 2 times: timed out after 0.5 s" in e.value.message
    assert "KB_LLM_TIMEOUT" in e.value.hint


def test_parse_json_object_tolerates_fences_and_prose():
    assert parse_json_object('Sure!\n```json\n{"a": 1}\n```') == {"a": 1}
    assert parse_json_object('noise {"a": {"b": 2}} trailing') == {"a": {"b": 2}}
    with pytest.raises(ValueError):
        parse_json_object("no json here")


def test_ask_with_llm_cites_passages(ws):
    def script(body):
        user = body["messages"][-1]["content"]
        assert "[1]" in user and "Question: O que é o GIL?" in user
        return reply({"answer": "O GIL é um lock global do interpretador Python [1].", "found": True, "cited": [1]})

    with OpenAIStub(script) as stub:
        r = run_kb(["ask", "O que é o GIL?", "--json"], cwd=ws,
                   env={"OPENAI_BASE_URL": stub.url, "KB_LLM_MODEL": "stub-model", "OPENAI_API_KEY": "k"})
    assert r.returncode == 0, r.stderr
    a = json.loads(r.stdout)
    assert a["method"] == "llm:stub-model" and a["found"] and a["cited"] == [1]
    assert len(a["passages"]) == 5


def test_ask_with_llm_says_when_course_lacks_answer(ws):
    with OpenAIStub(lambda b: reply({"answer": "O curso não contém essa informação.", "found": False,
                                     "cited": []})) as stub:
        r = run_kb(["ask", "Quem ganhou a copa de 2022?", "--json"], cwd=ws,
                   env={"OPENAI_BASE_URL": stub.url, "KB_LLM_MODEL": "stub-model"})
    assert json.loads(r.stdout)["found"] is False
