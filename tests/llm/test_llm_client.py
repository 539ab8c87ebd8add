"""kb.llm's client, cache and pool against a real local HTTP server speaking the OpenAI
chat-completions API (tests/openai_stub.py): output modes and their fallbacks, retries, a 429
that pauses every worker, the whole-reply deadline, the cache, parallel requests in order."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from kb.config import Settings
from kb.errors import BackendError
from kb.llm.client import EndpointError, LLMClient, complete_objects
from kb.llm.pool import run_parallel
from kb.llm.schemas import GradeReply

from ..conftest import ROOT
from ..openai_stub import Behaviour, OpenAIStub, reply

GRADE = {"reasoning": "ok", "score": 2, "feedback": "Quase.", "present": [], "missing": []}


def _client(tmp_path: Path, url: str, **kw) -> LLMClient:
    cache = kw.pop("cache", True)
    return LLMClient(Settings(home=tmp_path / ".kb", llm_base_url=url, llm_model="stub-model", llm_api_key="k",
                              llm_timeout=kw.pop("timeout", 5.0), llm_retries=kw.pop("retries", 1),
                              llm_concurrency=kw.pop("concurrency", 4)), cache=cache)


def test_schema_mode_sends_the_json_schema_of_the_reply_model(tmp_path):
    with OpenAIStub(lambda b: reply(GRADE)) as stub:
        got = _client(tmp_path, stub.url).request("s", "u", schema=GradeReply)
    fmt = stub.requests[0]["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["name"] == "GradeReply"
    assert fmt["json_schema"]["schema"]["properties"]["score"]["enum"] == [0, 1, 2, 3]
    assert got.mode == "json_schema" and got.data["score"] == 2 and not got.cached


def test_json_mode_when_the_server_rejects_json_schema(tmp_path):
    with OpenAIStub(lambda b: reply(GRADE), accepts=("json_object",)) as stub:
        client = _client(tmp_path, stub.url)
        first = client.request("s", "u1", schema=GradeReply)
        second = client.request("s", "u2", schema=GradeReply)
    assert [b["response_format"]["type"] for b in stub.rejected] == ["json_schema"]  # asked once, remembered
    assert [b["response_format"]["type"] for b in stub.requests] == ["json_object", "json_object"]
    assert first.mode == second.mode == client.mode == "json_object"
    assert client.usage.requests == 3


def test_prose_when_the_server_takes_no_response_format(tmp_path):
    prose = 'Claro! Aqui está:\n```json\n{"reasoning": "r", "score": 1, "feedback": "f"}\n```\nEspero ter ajudado.'
    with OpenAIStub(lambda b: Behaviour(prose), accepts=()) as stub:
        client = _client(tmp_path, stub.url)
        got = client.request("s", "u", schema=GradeReply)
    assert [b["response_format"]["type"] for b in stub.rejected] == ["json_schema", "json_object"]
    assert "response_format" not in stub.requests[0]
    assert got.mode == "prose" and got.data["score"] == 1


def test_a_server_that_ignores_response_format_is_parsed_from_its_prose(tmp_path):
    with OpenAIStub(lambda b: Behaviour('Resultado: {"reasoning": "r", "score": 3, "feedback": "ok"} fim')) as stub:
        got = _client(tmp_path, stub.url).request("s", "u", schema=GradeReply)
    assert got.data["score"] == 3 and len(stub.requests) == 1


def test_http_500_is_retried_then_succeeds(tmp_path):
    with OpenAIStub([Behaviour(status=500), reply(GRADE)]) as stub:
        client = _client(tmp_path, stub.url, retries=1)
        assert client.chat_json("s", "u")["score"] == 2
    assert len(stub.requests) == 2 and client.usage.requests == 2


def test_http_500_every_time_is_a_backend_error_naming_the_endpoint(tmp_path):
    with OpenAIStub(lambda b: Behaviour(status=500)) as stub:
        with pytest.raises(BackendError) as e:
            _client(tmp_path, stub.url, retries=1).chat_json("s", "u")
    assert e.value.message == f"the LLM at {stub.url} failed 2 times: server error (HTTP 500)"
    assert "--offline" in e.value.hint and not isinstance(e.value, EndpointError)


def test_html_page_with_status_200(tmp_path):
    html = b"<!DOCTYPE html><html><body>Bad Gateway</body></html>"
    with OpenAIStub(lambda b: Behaviour(raw=html, content_type="text/html")) as stub:
        with pytest.raises(BackendError) as e:
            _client(tmp_path, stub.url, retries=0).chat_json("s", "u")
    assert "answered with something that is not a chat completion ('<!DOCTYPE html>" in e.value.message
    assert "an HTML page?" in e.value.message


def test_unreachable_endpoint_is_not_retried(tmp_path):
    with OpenAIStub([]) as stub:
        url = stub.url
    with pytest.raises(EndpointError) as e:  # the server is gone: connection refused
        _client(tmp_path, url, retries=3).chat_json("s", "u")
    assert "cannot be reached" in e.value.message and "OPENAI_BASE_URL" in e.value.hint


def test_a_429_with_retry_after_pauses_every_worker(tmp_path):
    arrived: list[tuple[float, str]] = []
    lock = threading.Lock()

    def script(body):
        user = body["messages"][-1]["content"]
        with lock:
            first_429 = user == "u0" and not any(u == "u0" for _, u in arrived)
            arrived.append((time.monotonic(), user))
        if first_429:
            return Behaviour(status=429, retry_after="1")
        return Behaviour('{"ok": true}', delay=0.2)

    with OpenAIStub(script) as stub:
        client = _client(tmp_path, stub.url, concurrency=2, retries=2)
        out = run_parallel(lambda u: client.chat_json("s", u), [f"u{i}" for i in range(6)], 2, client)
    assert out == [{"ok": True}] * 6
    t429 = arrived[0][0] if arrived[0][1] == "u0" else next(t for t, u in arrived if u == "u0")
    # the other worker's request in flight when the 429 came is answered; every later one waits 1 s
    later = [t for t, u in arrived if t > t429 + 0.05 and u != "u0"]
    assert later and all(t >= t429 + 0.95 for t in later), [(round(t - t429, 2), u) for t, u in arrived]
    assert len(stub.requests) == 7


def test_a_timeout_is_retried_then_a_clear_error(tmp_path):
    with OpenAIStub(lambda b: Behaviour("{}", delay=3.0)) as stub:
        with pytest.raises(BackendError) as e:
            _client(tmp_path, stub.url, timeout=0.5, retries=1).chat_json("s", "u")
    assert "failed 2 times: timed out after 0.5 s" in e.value.message and "KB_LLM_TIMEOUT" in e.value.hint


def test_a_dribbling_reply_is_cut_at_the_whole_reply_deadline(tmp_path):
    # headers at once, then a byte every 50 ms: each read is quick, the whole reply would take ~2 min
    slow = Behaviour('{"reasoning": "' + "x" * 2000 + '", "score": 1, "feedback": "f"}', dribble=0.05)
    with OpenAIStub(lambda b: slow) as stub:
        start = time.monotonic()
        with pytest.raises(BackendError) as e:
            _client(tmp_path, stub.url, timeout=1.0, retries=0).chat_json("s", "u")
        took = time.monotonic() - start
    assert "failed 1 time: timed out after 1 s (the whole reply)" in e.value.message
    assert took < 30, took  # bounded by the deadline, not by the server's pace (~120 s)


def test_a_dribbling_error_reply_is_cut_at_the_whole_reply_deadline_too(tmp_path):
    # a 500 whose body (read by the openai client itself) comes a byte every 50 ms: ~2.6 s, deadline 1 s
    with OpenAIStub(lambda b: Behaviour(status=500, dribble=0.05)) as stub:
        with pytest.raises(BackendError) as e:
            _client(tmp_path, stub.url, timeout=1.0, retries=0).chat_json("s", "u")
    assert "failed 1 time: timed out after 1 s (the whole reply)" in e.value.message, e.value.message


def test_a_truncated_reply_is_retried_unless_accepted(tmp_path):
    cut = '{"questions": [{"type": "short", "prompt": "a"}, {"type": "cloze", "prompt": "b'
    with OpenAIStub(lambda b: Behaviour(cut, finish="length")) as stub:
        client = _client(tmp_path, stub.url, retries=1)
        with pytest.raises(BackendError, match=r"failed 2 times: reply truncated \(finish_reason=length\)"):
            client.chat_json("s", "u")
        got = client.request("s", "u2", accept_truncated=True)
    assert got.truncated and complete_objects(got.text, "questions") == [{"type": "short", "prompt": "a"}]
    assert len(stub.requests) == 3


def test_invalid_json_then_a_good_reply(tmp_path):
    with OpenAIStub([Behaviour('{"score": 2, "feedback": "trunc'), reply(GRADE)]) as stub:
        assert _client(tmp_path, stub.url, retries=1).chat_json("s", "u") == GRADE
    assert len(stub.requests) == 2


def test_the_cache_answers_the_same_request_and_no_cache_asks_again(tmp_path):
    with OpenAIStub(lambda b: Behaviour('{"ok": true}', tokens=(120, 30))) as stub:
        first = _client(tmp_path, stub.url)
        first.request("s", "u", max_tokens=50)
        again = _client(tmp_path, stub.url)  # another run, same workspace
        got = again.request("s", "u", max_tokens=50)
        other = again.request("s", "u", max_tokens=60)  # another parameter: another request
        forced = _client(tmp_path, stub.url, cache=False)
        forced.request("s", "u", max_tokens=50)
    assert got.cached and got.data == {"ok": True} and not other.cached
    assert len(stub.requests) == 3
    assert (first.usage.requests, first.usage.prompt_tokens, first.usage.completion_tokens) == (1, 120, 30)
    assert (again.usage.requests, again.usage.cached) == (1, 1)
    assert list((tmp_path / ".kb" / "cache" / "llm").rglob("*.json"))


def test_a_cache_that_cannot_be_written_is_said_once_and_the_run_goes_on(tmp_path):
    (tmp_path / ".kb" / "cache").mkdir(parents=True)
    (tmp_path / ".kb" / "cache" / "llm").write_text("a file where the folder should be")
    with OpenAIStub(lambda b: Behaviour('{"ok": true}')) as stub:
        client = _client(tmp_path, stub.url)
        assert client.chat_json("s", "u1") == client.chat_json("s", "u2") == {"ok": True}
    assert len(client.notes) == 1 and "LLM replies are not cached: cannot write" in client.notes[0]


def test_parallel_requests_overlap_and_come_back_in_order(tmp_path):
    def script(body):  # the first requests answer last
        n = int(body["messages"][-1]["content"][1:])
        return Behaviour(f'{{"n": {n}}}', delay=0.8 - 0.1 * n)

    with OpenAIStub(script) as stub:
        client = _client(tmp_path, stub.url, concurrency=4)
        out = run_parallel(lambda u: client.chat_json("s", u), [f"u{i}" for i in range(8)], 4, client)
    assert [o["n"] for o in out] == list(range(8))
    assert stub.max_in_flight >= 3 and client.usage.max_in_flight >= 3


def test_an_exception_stays_in_its_item(tmp_path):
    def fn(i):
        if i == 2:
            raise BackendError("boom")
        return i

    out = run_parallel(fn, list(range(5)), 3)
    assert out[:2] == [0, 1] and isinstance(out[2], BackendError) and out[3:] == [3, 4]


def test_grading_never_imports_the_llm_package_and_the_llm_package_imports_no_client_at_import():
    import subprocess
    import sys

    code = ("import sys, kb.grading, kb.writing.generate\n"
            "assert not [m for m in sys.modules if m.startswith('kb.llm')], 'kb.grading imports kb.llm'\n"
            "import kb.llm\n"
            "assert 'httpx' not in sys.modules and 'kb.llm.client' not in sys.modules\n"
            "from kb.llm import LLMGrader, LLMWriter\n"
            "print('ok')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.stdout.strip() == "ok", out.stderr


def test_the_factory_picks_by_name(tmp_path):
    from kb.errors import UsageError
    from kb.llm.factory import backend_name, get_writer
    from kb.llm.writer import LLMWriter
    from kb.writing.offline import OfflineWriter

    settings = Settings(home=tmp_path, llm_base_url="http://127.0.0.1:9/v1", llm_model="m")
    assert backend_name(settings) == "llm:m" and backend_name(settings, offline=True) == "offline"
    assert isinstance(get_writer(settings), LLMWriter) and get_writer(settings).name == "m"
    assert isinstance(get_writer(settings, "offline"), OfflineWriter)
    assert get_writer(settings, "llm:other").name == "other"
    with pytest.raises(UsageError, match="unknown LLM backend 'gpt'"):
        get_writer(settings, "gpt")


def test_a_server_that_answers_one_at_a_time_gets_one_request_at_a_time_after_a_timeout(tmp_path):
    one_slot = threading.Lock()

    def script(body):  # a local server with one slot: requests queue, the queue eats their deadline
        with one_slot:
            time.sleep(0.6)
        return Behaviour('{"ok": true}')

    with OpenAIStub(script) as stub:
        client = _client(tmp_path, stub.url, concurrency=4, timeout=1.5, retries=5, cache=False)
        out = run_parallel(lambda u: client.chat_json("s", u), [f"u{i}" for i in range(6)], 4, client)
    assert out == [{"ok": True}] * 6, out
    assert any("timed out while other requests were in flight" in n for n in client.notes)
