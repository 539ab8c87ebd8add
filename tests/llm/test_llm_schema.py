"""One set of models (issue 29): the JSON Schema the writer sends as ``response_format`` is made from
the pydantic models that validate the quiz file (kb/quiz_schema.py), and the quiz file records which
output mode the replies came in (json_schema, json_object or prose)."""

from __future__ import annotations

import json

import pytest

from kb.quiz import DIFFICULTIES, TYPES
from kb.quiz_schema import CitationModel, QuestionModel

from ..conftest import run_kb
from ..openai_stub import OpenAIStub
from .conftest import stub_env
from .test_llm import good_questions

SHARED = ("type", "prompt", "answer", "choices", "correct", "concepts", "difficulty")


def _shape(schema: dict) -> dict:
    """A field's JSON Schema without what only a reply adds (bounds, defaults, titles) or only a file
    allows (null: every field of a quiz file may be left out)."""
    if "anyOf" in schema:
        kinds = [_shape(s) for s in schema["anyOf"] if s.get("type") != "null"]
        return kinds[0] if len(kinds) == 1 else {"anyOf": kinds}
    out = {k: v for k, v in schema.items() if k not in ("maxLength", "maxItems", "default", "title")}
    if "items" in out:
        out["items"] = _shape(out["items"])
    return out


def test_the_reply_schema_is_made_of_the_quiz_files_own_fields():
    from kb.llm.schemas import DraftQuestion, QuestionsReply

    reply = QuestionsReply.model_json_schema()["$defs"]["DraftQuestion"]["properties"]
    file = QuestionModel.model_json_schema()["properties"]
    for name in SHARED:
        assert _shape(reply[name]) == _shape(file[name]), name
    assert _shape(reply["quote"]) == _shape(CitationModel.model_json_schema()["properties"]["quote"])
    assert reply["type"]["enum"] == list(TYPES) and reply["difficulty"]["enum"] == list(DIFFICULTIES)
    # what a reply must carry, and the bounds a grammar-constrained model writes within
    assert set(DraftQuestion.model_json_schema()["required"]) == {"type", "passage", "prompt", "answer", "quote"}
    assert reply["prompt"]["maxLength"] == 400 and reply["choices"]["items"]["maxLength"] == 60
    # the file model and the reply model turn down the same wrong type
    for model in (QuestionModel, DraftQuestion):
        with pytest.raises(ValueError):
            model.model_validate({"type": "essay", "passage": 1, "prompt": "p", "answer": "a", "quote": "q"})


def test_a_quiz_file_with_a_type_the_schema_does_not_know_names_the_field_and_the_choices(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    quiz = {"schema": 2, "title": "t", "questions": [
        {"id": "q1", "type": "essay", "prompt": "P?", "answer": "A.", "citations": [], "lang": "pt"}]}
    (tmp_path / "q.json").write_text(json.dumps(quiz), encoding="utf-8")
    r = run_kb(["quiz", "show", "q.json"], cwd=tmp_path)
    assert r.returncode == 3, r.stderr
    assert 'q.json: question q1 has "type" = "essay", not one of short, mcq, cloze, tf' in r.stderr


@pytest.mark.parametrize("accepts, mode", [
    (("json_schema", "json_object"), "json_schema"),
    (("json_object",), "json_object"),
    ((), "prose"),  # a server that takes no response_format: asked in prose, its JSON object parsed
])
def test_the_quiz_records_the_output_mode_its_replies_came_in(ws, accepts, mode):
    from kb.llm.schemas import QuestionsReply

    with OpenAIStub(good_questions, accepts=accepts) as stub:
        r = run_kb(["quiz", "generate", "-n", "2", "--types", "short,cloze", "-o", "q.json"], cwd=ws,
                   env=stub_env(stub.url))
    assert r.returncode == 0, r.stderr
    doc = json.loads((ws / "q.json").read_text(encoding="utf-8"))
    assert doc["generator"]["output"] == mode and f"output mode {mode}" in r.stderr
    assert doc["questions"]  # and the quiz file the replies became reads back through the same models
    sent = [b.get("response_format") for b in stub.requests]
    if mode == "json_schema":
        assert all(f["json_schema"]["schema"] == QuestionsReply.model_json_schema() for f in sent)
    elif mode == "json_object":
        assert sent and all(f == {"type": "json_object"} for f in sent) and stub.rejected
    else:
        assert sent and all(f is None for f in sent)  # each worker may meet a rejection before the switch
        assert {b["response_format"]["type"] for b in stub.rejected} == {"json_schema", "json_object"}
