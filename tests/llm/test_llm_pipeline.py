"""The writer's requests as a pipeline (issue 29): a reply taken frees its slot for the next batch
at once, never after a whole round of requests; what is sent and the quiz depend on the replies,
not on which one came first. Against tests/openai_stub.py (a real HTTP server on 127.0.0.1)."""

from __future__ import annotations

import json
import threading

from kb.llm.pool import OrderedPool, run_parallel

from ..conftest import run_kb
from ..openai_stub import Behaviour, OpenAIStub
from .conftest import stub_env
from .test_llm import good_questions


def test_an_item_taken_frees_its_worker_for_the_next_while_a_slow_one_still_runs():
    slow_may_end = threading.Event()
    third_started = threading.Event()

    def fn(item: str) -> str:
        if item == "slow":
            assert slow_may_end.wait(10)
        if item == "third":
            third_started.set()
        return item.upper()

    with OrderedPool(fn, 2) as pool:
        pool.submit("fast")
        pool.submit("slow")
        assert pool.take() == ("fast", "FAST")
        pool.submit("third")  # a round of two would wait for "slow" before starting it
        assert third_started.wait(10)
        assert pool.pending == 2
        slow_may_end.set()
        assert [pool.take()[1] for _ in range(2)] == ["SLOW", "THIRD"]  # in the order submitted
    assert run_parallel(fn, ["a", "b", "third"], 2) == ["A", "B", "THIRD"]


def _delayed(slow: int):
    """Grounded questions; request number ``slow`` (in arrival order) takes 2 s, the others 0.1 s."""
    seen: list[int] = []
    lock = threading.Lock()

    def script(body: dict) -> Behaviour:
        with lock:
            seen.append(1)
            k = len(seen)
        b = good_questions(body)
        b.delay = 2.0 if k == slow else 0.1
        return b

    return script


def test_the_writer_sends_the_next_batch_while_a_slow_reply_is_still_in_flight(ws):
    arrivals: list[int] = []
    third = threading.Event()
    overlapped: list[bool] = []
    lock = threading.Lock()

    def script(body: dict) -> Behaviour:
        with lock:
            arrivals.append(1)
            k = len(arrivals)
        if k == 3:
            third.set()
        if k == 2:  # the second request answers only once a third has come, or after 20 s
            overlapped.append(third.wait(20))
        return good_questions(body)

    with OpenAIStub(script) as stub:
        r = run_kb(["quiz", "generate", "-n", "6", "--types", "short,cloze", "--no-cache"], cwd=ws,
                   env=stub_env(stub.url, KB_LLM_CONCURRENCY="2"))
    assert r.returncode == 0, r.stderr
    # the first reply freed its worker: the third request went out while the second was in flight —
    # waves of two would have held it, and every later request, behind the slow one
    assert overlapped == [True] and len(stub.requests) >= 3
    assert "up to 2 at once" in r.stderr


def test_the_quiz_does_not_depend_on_which_reply_came_first(ws):
    quizzes = []
    for slow in (1, 2):
        with OpenAIStub(_delayed(slow)) as stub:
            r = run_kb(["quiz", "generate", "-n", "6", "--types", "short,cloze", "--no-cache", "-o", f"q{slow}.json"],
                       cwd=ws, env=stub_env(stub.url, KB_LLM_CONCURRENCY="3"))
        assert r.returncode == 0, r.stderr
        doc = json.loads((ws / f"q{slow}.json").read_text(encoding="utf-8"))
        quizzes.append((len(stub.requests), [q["id"] for q in doc["questions"]]))
    assert quizzes[0] == quizzes[1] and quizzes[0][1]


def test_a_stopped_pool_runs_no_queued_item_and_finishes_the_one_in_flight():
    started: list[str] = []
    may_end = threading.Event()

    def fn(item: str) -> str:
        started.append(item)
        assert may_end.wait(10)
        return item.upper()

    with OrderedPool(fn, 1) as pool:
        for item in ("a", "b", "c"):
            pool.submit(item)
        while not started:
            may_end.wait(0.01)
        pool.stop()  # "a" is in flight, "b" and "c" wait for the worker
        may_end.set()
        assert [pool.take() for _ in range(3)] == [("a", "A"), ("b", None), ("c", None)]
    assert started == ["a"]


def test_a_failing_endpoint_gets_no_more_requests_than_the_two_failures_that_stop_the_run(ws):
    # one request at a time (a local server with one slot): after a failed batch nothing is queued
    # ahead, so the second failure ends the run before a third request is sent (each may cost a timeout)
    with OpenAIStub(lambda body: Behaviour(status=500)) as stub:
        r = run_kb(["quiz", "generate", "-n", "8", "--types", "short"], cwd=ws,
                   env=stub_env(stub.url, KB_LLM_CONCURRENCY="1", KB_LLM_RETRIES="0"))
    assert r.returncode == 5, r.stderr
    assert len(stub.requests) == 2
    assert "one batch of passages got no usable reply" in r.stderr
