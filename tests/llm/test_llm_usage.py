"""Usage and cost of the LLM path (issue 29): tokens, time and (with KB_LLM_PRICE) cost of a command
in its summary and in the quiz file, and the estimate said before a large run. Against
tests/openai_stub.py (a real HTTP server on 127.0.0.1)."""

from __future__ import annotations

import json
import re

import pytest

from ..conftest import run_kb
from ..openai_stub import Behaviour, OpenAIStub
from .conftest import stub_env
from .test_llm import good_questions


def _num(text: str) -> int:
    return int(text.replace(",", ""))


def test_a_large_run_says_its_requests_tokens_and_cost_before_it_starts(ws):
    # -n 50 on the sample course (178 passages): one request per planned idea (each source's 50 most central, the
    # ideas of one slide together), two questions each, then the passages no idea holds, three at a time, four
    # questions each: ~71 requests; "each" is the largest cap (four questions), "in all" adds up each request's own.
    # The endpoint then refuses the key, so the run stops at once — the estimate was already said
    with OpenAIStub(lambda body: Behaviour('{"error": {"message": "bad key"}}', status=401)) as stub:
        r = run_kb(["quiz", "generate", "-n", "50", "--types", "short"], cwd=ws,
                   env=stub_env(stub.url, KB_LLM_PRICE="0.5,1.5"))
    assert r.returncode == 5, r.stderr
    m = re.search(r"kb: the LLM writer may send up to (\d+) requests to stub-model: ~(\d+) prompt and ≤(\d+) "
                  r"completion tokens each, 4 at a time \(it stops once 75 questions pass the checks\); "
                  r"~([\d,]+) prompt \+ ≤([\d,]+) completion tokens in all, at most ([\d.]+) at KB_LLM_PRICE",
                  " ".join(r.stderr.split()))
    assert m, r.stderr
    requests, prompt, completion = int(m.group(1)), int(m.group(2)), int(m.group(3))
    assert 55 <= requests <= 85 and completion == 4 * 320 + 300
    # the prompt estimate is the first request's own prompt (~4 characters a token), outline and terms included
    # (the first batch's, one of the first requests to arrive)
    sent = [sum(len(x["content"]) for x in b["messages"]) / 4 for b in stub.requests]
    assert any(abs(prompt - s) <= 1 for s in sent), (prompt, sent)
    total = _num(m.group(5))
    assert _num(m.group(4)) == requests * prompt and requests * 940 < total < requests * completion
    assert float(m.group(6)) == pytest.approx((requests * prompt * 0.5 + total * 1.5) / 1000, rel=1e-3)
    assert r.stderr.index("may send up to") < r.stderr.index("refused the API key")  # said before, not after
    assert len(stub.requests) <= 4  # the key was refused: nothing more was sent


def test_tokens_time_and_cost_are_in_the_summary_and_the_quiz_file(ws):
    def script(body: dict) -> Behaviour:
        b = good_questions(body)
        b.tokens = (1000, 200)
        return b

    with OpenAIStub(script) as stub:
        r = run_kb(["quiz", "generate", "-n", "3", "--types", "short,cloze", "-o", "q.json"], cwd=ws,
                   env=stub_env(stub.url, KB_LLM_PRICE="0.5,2"))
    assert r.returncode == 0, r.stderr
    n = len(stub.requests)
    usage = json.loads((ws / "q.json").read_text(encoding="utf-8"))["generator"]["usage"]
    assert (usage["requests"], usage["cached"], usage["prompt_tokens"], usage["completion_tokens"]) == (
        n, 0, 1000 * n, 200 * n)
    assert usage["cost"] == pytest.approx(n * (1000 * 0.5 + 200 * 2) / 1000)
    assert usage["seconds"] > 0 and 0 < usage["wall_seconds"] <= usage["seconds"] + 0.01
    assert 1 <= usage["max_in_flight"] <= 4
    said = " ".join(r.stderr.split())
    assert (f"LLM: {n} request{'s' if n > 1 else ''} sent, 0 answered from the cache; {1000 * n} prompt + "
            f"{200 * n} completion tokens;") in said
    assert f"cost {n * 0.9:.4g} at KB_LLM_PRICE" in said


@pytest.mark.parametrize("value", ["cheap", "0.1,0.2,0.3", "-1", "nan", "0.1,"])
def test_a_price_that_is_not_a_price_is_a_usage_error(ws, value):
    r = run_kb(["quiz", "generate", "-n", "1"], cwd=ws, env=stub_env("http://127.0.0.1:9/v1", KB_LLM_PRICE=value))
    assert r.returncode == 2
    assert f"KB_LLM_PRICE={value!r} is not the price of 1,000 prompt tokens" in " ".join(r.stderr.split())
