"""What the writer's prompt carries from what kb knows (issue 29, item 7; issue 26, item 2), asserted on the
prompts a real local server (tests/openai_stub.py) received: the deck's outline, the idea to ask about (planned:
the outline's most central ideas first, one request each, with that idea's own passages) and the passages.
"""

from __future__ import annotations

import json
import re

from kb.text import fold

from ..conftest import run_kb
from ..openai_stub import OpenAIStub
from .test_llm import good_questions

SOURCE = "sources/001_96d83118e2ee854a.txt"


def test_the_writer_prompt_carries_the_deck_outline_and_the_idea_of_its_own_passages(ws):
    outline = json.loads(run_kb(["outline", SOURCE, "--json"], cwd=ws).stdout)
    ideas = [i for s in outline["sections"] for i in s["ideas"]]
    with OpenAIStub(good_questions) as stub:
        r = run_kb(["quiz", "generate", "-n", "3", "--types", "short,cloze", "--source", SOURCE, "--no-cache"],
                   cwd=ws, env={"OPENAI_BASE_URL": stub.url, "KB_LLM_MODEL": "stub-model", "OPENAI_API_KEY": "k",
                        "KB_LLM_CONCURRENCY": "1"})  # (the requests in the order they are sent)
    assert r.returncode == 0, r.stderr
    assert stub.requests
    asked: list[str] = []
    for body in stub.requests:
        user = body["messages"][-1]["content"]
        # the deck's outline, where the passages sit: its title and its central ideas by section
        assert f"The deck's outline (where these passages sit):\n{outline['title']}\n- " in user
        # the idea to ask about: a central idea of that outline, sent with its own passages
        m = re.search(r"Ask about this idea: (.+?)\. (?:Every question names|Reply with the JSON object)", user)
        assert m, user[-600:]
        passages = re.findall(r"Passage \d+: \([^\n]*\)\n(.*?)(?=\n\nPassage \d+:|\n\nWrite )", user, re.S)
        for named in m.group(1).split("; "):  # (the ideas of one slide are asked in one request)
            mine = [i for i in ideas if f"{i['name']} ({i['section']})" == named or i["name"] == named]
            assert mine, (named, [i["name"] for i in ideas])
            said = set(re.findall(r"\w{5,}", " ".join(i["text"] for i in mine)))
            assert len({w for w in said if any(w in p for p in passages)}) >= 3, named
            asked.append(named)
        # and the passages themselves, after the fixed instructions
        assert user.index("Return JSON:") < user.index("Passage 1:")
    # planned: the first request asks the deck's most central idea (kb outline's "top"), the planned requests (n
    # ideas, first) each another
    first = next(i for i in ideas if outline["top"][0] == f"{i['locator']}#{fold(i['name'])}")
    assert asked[0] in (f"{first['name']} ({first['section']})", first["name"]), (asked, outline["top"][:3])
    assert len(set(asked[:3])) == 3, asked


def _last_lines(ws, types: str) -> list[str]:
    """The closing instruction of each request the writer sent for a quiz of ``types``."""
    with OpenAIStub(good_questions) as stub:
        r = run_kb(["quiz", "generate", "-n", "3", "--types", types, "--source", SOURCE, "--no-cache", "--force"],
                   cwd=ws, env={"OPENAI_BASE_URL": stub.url, "KB_LLM_MODEL": "stub-model",
                                      "OPENAI_API_KEY": "k", "KB_LLM_CONCURRENCY": "1"})
    assert stub.requests, r.stderr  # (the stub's questions may not be of the types asked: only the prompts count)
    return [b["messages"][-1]["content"].rsplit("\n\nWrite ", 1)[1] for b in stub.requests]


def test_with_short_answers_and_a_marked_kind_asked_half_of_each_request_is_of_a_marked_kind(ws):
    for line in _last_lines(ws, "short,mcq,tf,cloze"):
        want = int(line.split()[0])
        assert f"{want // 2} of them of a kind a computer marks — a multiple choice" in line, line
        assert "else a true/false statement" in line and "the rest short answers (types among" in line
    for line in _last_lines(ws, "short,tf"):
        assert "a kind a computer marks — a true/false statement — and the rest short answers (types" in line
        assert "multiple" not in line
    # no short answer asked, or no marked kind: the types are the model's choice among those asked
    for types in ("mcq,tf", "short,cloze"):
        for line in _last_lines(ws, types):
            assert "a computer marks" not in line and f"types among {types.replace(',', ', ')}, each type" in line
