"""The transport to any OpenAI-compatible chat-completions endpoint (OpenAI, vLLM, Ollama,
llama.cpp), spoken through the ``openai`` client (one ``openai.OpenAI`` per :class:`LLMClient`,
its own retries off, on an ``httpx.Client`` sized to the workers), with what kb adds around it:

- a **whole-reply deadline**: ``KB_LLM_TIMEOUT`` bounds one attempt from the request to the last
  byte of its reply. The client's timeout bounds each read only, so kb reads the reply through
  ``with_streaming_response`` piece by piece and checks the deadline (and Ctrl-C) between pieces;
  a server that sends its headers and then dribbles bytes cannot hold a command for ever. An error
  reply's body, which the openai client reads itself, is bounded by a response hook on its
  ``http_client`` (:func:`_bounded`);
- **structured output**: a JSON Schema made from a pydantic model (``response_format``
  ``json_schema``), falling back to JSON mode (``json_object``) and then to prose parsed for
  its JSON object, once per client, when the endpoint rejects the mode; :attr:`LLMClient.mode`
  says which one works;
- **retries** of what asking again can fix (timeouts, 429, 5xx, a body that is not a chat
  completion, invalid JSON) — kb's own, so that a 429's ``Retry-After`` pauses every worker of
  the client and the reply's body is judged by kb (an HTML page with status 200 is retried);
- a **response cache** (:mod:`kb.llm.cache`) and **usage** (requests, cached replies, tokens,
  seconds) per client.

Every failure ends as a :class:`~kb.errors.BackendError` (exit 5) naming the endpoint and the fix;
:class:`EndpointError`, a subclass, marks the ones no retry or later request can fix (wrong URL,
key or model), after which callers stop asking.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterator

from ..config import Settings
from ..errors import BackendError
from ..i18n import N_

if TYPE_CHECKING:
    from openai import OpenAI

MODES = ("json_schema", "json_object", "prose")


class EndpointError(BackendError):
    """The endpoint cannot serve this client at all (unreachable, key refused, model unknown,
    request rejected): asking again, or asking something else, will not help."""


class Cancelled(Exception):
    """The run was interrupted (Ctrl-C): the worker stops at the next read."""


@dataclass
class Usage:
    """What one client spent: requests sent, replies served from the cache, tokens, seconds."""

    requests: int = 0
    cached: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0  # summed over requests (parallel requests overlap)
    wall_seconds: float = 0.0  # while at least one request was in flight: what the requests cost in time
    max_in_flight: int = 0
    price: tuple[float, float] | None = None  # per 1,000 prompt and completion tokens (KB_LLM_PRICE)

    @property
    def cost(self) -> float | None:
        """What the tokens cost at ``price`` (None without a price)."""
        if self.price is None:
            return None
        return (self.prompt_tokens * self.price[0] + self.completion_tokens * self.price[1]) / 1000

    def to_json(self) -> dict[str, Any]:
        """The usage as the quiz metadata and ``--json`` reports record it."""
        return {"requests": self.requests, "cached": self.cached, "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens, "seconds": round(self.seconds, 2),
                "wall_seconds": round(self.wall_seconds, 2), "max_in_flight": self.max_in_flight,
                **({"cost": round(self.cost, 4)} if self.cost is not None else {})}

    def summary(self) -> str:
        """One line for a command's summary."""
        return (f"{self.requests} request{'s' if self.requests != 1 else ''} sent, {self.cached} answered from "
                f"the cache; {self.prompt_tokens} prompt + {self.completion_tokens} completion tokens; "
                f"{self.seconds:.1f} s of requests" + (f" in {self.wall_seconds:.1f} s, up to {self.max_in_flight} "
                                                       "at once" if self.requests else "")
                + (f"; cost {self.cost:.4g} at KB_LLM_PRICE" if self.cost is not None else ""))


@dataclass(frozen=True)
class Reply:
    """One reply: its JSON object (``{}`` when a truncated reply held none), its text, whether the
    model ran into its token cap, the output mode it was asked in and whether the cache served it."""

    data: dict[str, Any]
    text: str
    truncated: bool = False
    mode: str = "json_object"
    cached: bool = False


@dataclass
class _Attempt:
    status: int = 0
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)


class LLMClient:
    """Chat completions that must come back as one JSON object; thread-safe (the workers of
    :func:`kb.llm.pool.run_parallel` share one client, its mode, its pause and its usage)."""

    def __init__(self, settings: Settings, *, cache: bool | None = None) -> None:
        if not settings.llm_model:
            raise EndpointError("no LLM model configured",
                                "set KB_LLM_MODEL (and OPENAI_BASE_URL for a local server)")
        self.model = settings.llm_model
        self.base_url = (settings.llm_base_url or "https://api.openai.com/v1").rstrip("/")
        self.retries = max(0, settings.llm_retries)
        self.timeout = float(settings.llm_timeout) or 1e9
        self.concurrency = max(1, int(getattr(settings, "llm_concurrency", 4) or 1))
        self.mode = "json_schema"
        self.usage = Usage(price=getattr(settings, "llm_price", None))
        self.cancel = threading.Event()
        self.notes: list[str] = []  # said once to the user (a cache that cannot be written, a mode fallback)
        self._lock = threading.Lock()
        self._pause_until = 0.0
        self._in_flight = 0
        self._busy_since = 0.0
        # requests allowed in flight at once: the workers' number, until a reply times out while others
        # were in flight — a local server with one slot queues them, and the queue eats the deadline
        self._allowed = self.concurrency
        self._gate = threading.Condition(self._lock)
        use_cache = getattr(settings, "llm_cache", True) if cache is None else cache
        from .cache import ResponseCache

        self.cache = ResponseCache(settings.cache_dir / "llm", read=use_cache)
        self._local = threading.local()  # this worker's deadline, for the error bodies openai reads itself
        self._api_key = settings.llm_api_key or "not-needed"
        self._http: Any = None
        self._httpx: Any = None
        self._openai: OpenAI | None = None
        self._bad_url: Exception | None = None
        self._made = threading.Lock()
        # set once the openai client is made (or failed to be): until then the writer keeps its own
        # start-up work off the GIL that the import needs (kb/llm/writer.py, bench/llm_parallel.py)
        self.transport_ready = threading.Event()
        self._dead: EndpointError | None = None  # the endpoint cannot serve this client: no request is sent

    def _gone(self, error: EndpointError) -> EndpointError:
        """``error`` (unreachable, key refused, model unknown), remembered: every later request of this
        client fails with it at once instead of asking again (the workers of a run stop together)."""
        self._dead = error
        return error

    def _transport(self) -> None:
        """Make the ``openai`` client at the first request, not before: importing openai and httpx takes
        ~1-2 s (bench/llm_parallel.py), which a command answered wholly from the cache never pays."""
        with self._made:
            if self._http is not None:
                return
            try:
                self._make_transport()
            finally:
                self.transport_ready.set()

    def _make_transport(self) -> None:
        """See :meth:`_transport` (called under its lock)."""
        import httpx
        import openai

        # one connection per worker, and two to spare (a retry while a closed one lingers)
        self._http = httpx.Client(limits=httpx.Limits(max_connections=self.concurrency + 2),
                                  event_hooks={"response": [self._bound]})
        self._httpx = httpx
        # Any: openai 1.x types these as httpx's, later ones as httpx2's and take httpx's at run time
        timeout: Any = httpx.Timeout(self.timeout, connect=min(self.timeout, 10.0))  # per read, not per reply
        http_client: Any = self._http
        try:
            self._openai = openai.OpenAI(
                base_url=self.base_url, api_key=self._api_key,
                # kb retries itself: its 429 pause is shared by every worker, its judge reads the body
                max_retries=0,
                timeout=timeout, http_client=http_client)
        except Exception as e:  # noqa: BLE001 (an unparsable base URL: said at the first request, as before)
            self._bad_url = e

    # ------------------------------------------------------------------ errors
    def _fail(self, n: int, last: str) -> BackendError:
        return BackendError(N_("the LLM at {base_url} failed {n} time: {last}") if n == 1 else
                            N_("the LLM at {base_url} failed {n} times: {last}"),
                            "check the server, raise KB_LLM_TIMEOUT/KB_LLM_RETRIES, or add --offline (or unset "
                            "KB_LLM_MODEL) to work without the LLM", base_url=self.base_url, n=n, last=last)

    # ------------------------------------------------------------------ public
    def chat_json(self, system: str, user: str, max_tokens: int = 1500, *, schema: Any = None,
                  temperature: float = 0.2) -> dict[str, Any]:
        """One JSON object from the model, or BackendError."""
        return self.request(system, user, max_tokens=max_tokens, schema=schema, temperature=temperature).data

    def request(self, system: str, user: str, *, max_tokens: int = 1500, schema: Any = None,
                temperature: float = 0.2, accept_truncated: bool = False) -> Reply:
        """One reply as a JSON object, from the cache when this exact request was answered before.

        ``schema``: a pydantic model the reply should follow (sent as JSON Schema where the
        endpoint takes it). ``accept_truncated``: a reply cut by the token cap comes back with
        ``truncated=True`` (its text, for the caller to salvage) instead of being asked again."""
        key = self._key(system, user, max_tokens, schema, temperature)
        hit = self.cache.get(key)
        if hit is not None:
            reply = self._reply(hit.get("content", ""), hit.get("finish_reason"), str(hit.get("mode", "")),
                                accept_truncated, cached=True)
            if isinstance(reply, Reply):
                with self._lock:
                    self.usage.cached += 1
                return reply
        if self._dead is not None:
            raise EndpointError(self._dead.template, self._dead.hint_template, **self._dead.fields)
        last = ""
        attempts = 0
        while attempts <= self.retries:
            if self.cancel.is_set():
                raise Cancelled()
            mode = self.mode
            got = self._send(self._body(system, user, max_tokens, schema, temperature, mode))
            if isinstance(got, str):  # worth asking again
                attempts += 1
                last = got
                continue
            if got is None:  # the endpoint rejected the output mode: the next one, not counted as an attempt
                continue
            message, finish, _usage = got
            reply = self._reply(message, finish, mode, accept_truncated, cached=False)
            if isinstance(reply, str):
                attempts += 1
                last = reply
                continue
            self.cache.put(key, {"content": message, "finish_reason": finish, "mode": mode, "model": self.model})
            if self.cache.error and self.cache.error not in self.notes:
                self.notes.append(self.cache.error)
            return reply
        n = self.retries + 1
        raise self._fail(n, last)

    def close(self) -> None:
        """Stop: workers give up at their next read; open connections are closed."""
        self.cancel.set()
        try:
            if self._http is not None:
                self._http.close()  # the openai client's own connections
        except Exception:  # noqa: BLE001 (closing while a worker reads: nothing to report)
            pass

    def estimate(self, what: str, requests: int, prompt_chars: int, completion_tokens: int, until: str = "",
                 completion_total: int | None = None) -> str:
        """The line said before a long run: ``requests`` requests of ~``prompt_chars`` characters (~4 a
        token) and at most ``completion_tokens`` each (``completion_total``: at most that many in all, where
        the requests' caps differ), the tokens in all and, with ``KB_LLM_PRICE``, what they may cost at
        most; ``until``: when the run stops early."""
        prompt = -(-prompt_chars // 4)
        total = requests * completion_tokens if completion_total is None else completion_total
        line = (f"{what} may send up to {requests} requests to {self.model}: ~{prompt} prompt and "
                f"≤{completion_tokens} completion tokens each, {self.concurrency} at a time{until}; "
                f"~{requests * prompt:,} prompt + ≤{total:,} completion tokens in all")
        if self.usage.price is not None:
            most = (requests * prompt * self.usage.price[0] + total * self.usage.price[1]) / 1000
            line += f", at most {most:.4g} at KB_LLM_PRICE"
        return line

    # ------------------------------------------------------------------ request
    def _key(self, system: str, user: str, max_tokens: int, schema: Any, temperature: float) -> str:
        spec = {"endpoint": self.base_url, "model": self.model, "system": system, "user": user,
                "max_tokens": max_tokens, "temperature": temperature,
                "schema": schema.model_json_schema() if schema is not None else None}
        return hashlib.sha256(json.dumps(spec, sort_keys=True, ensure_ascii=False).encode()).hexdigest()

    def _body(self, system: str, user: str, max_tokens: int, schema: Any, temperature: float,
              mode: str) -> dict[str, Any]:
        body: dict[str, Any] = {"model": self.model, "temperature": temperature, "max_tokens": max_tokens,
                                "messages": [{"role": "system", "content": system},
                                             {"role": "user", "content": user}]}
        if mode == "json_schema" and schema is not None:
            body["response_format"] = {"type": "json_schema", "json_schema": {
                "name": schema.__name__, "schema": schema.model_json_schema(), "strict": False}}
        elif mode in ("json_schema", "json_object"):
            body["response_format"] = {"type": "json_object"}
        return body

    def _wait_for_pause(self) -> None:
        while True:
            with self._lock:
                wait = self._pause_until - time.monotonic()
            if wait <= 0:
                return
            if self.cancel.wait(min(wait, 0.2)):
                raise Cancelled()

    def _send(self, body: dict[str, Any]) -> tuple[str, str | None, dict[str, Any]] | str | None:
        """One attempt: (message text, finish_reason, usage), or why asking again may help (str),
        or None when the endpoint rejected the output mode (the client moved to the next one)."""
        self._transport()  # before the clock starts: importing openai is not the request's time
        self._wait_for_pause()
        with self._gate:
            while self._in_flight >= self._allowed:
                self._gate.wait(0.2)
                if self.cancel.is_set():
                    raise Cancelled()
            self.usage.requests += 1
            if not self._in_flight:
                self._busy_since = time.monotonic()
            self._in_flight += 1
            crowded = self._in_flight > 1
            self.usage.max_in_flight = max(self.usage.max_in_flight, self._in_flight)
        start = time.monotonic()
        try:
            got = self._post(body, start + self.timeout)
        finally:
            with self._gate:
                self._in_flight -= 1
                now = time.monotonic()
                self.usage.seconds += now - start
                if not self._in_flight:
                    self.usage.wall_seconds += now - self._busy_since
                self._gate.notify_all()
        if isinstance(got, str):
            if got.startswith("timed out") and (crowded or self._in_flight) and self._allowed > 1:
                with self._gate:
                    self._allowed = 1
                    self.notes.append("a reply timed out while other requests were in flight (a server that "
                                      "answers one at a time?): the rest were sent one at a time; set "
                                      "KB_LLM_CONCURRENCY=1 for this endpoint")
            return got
        judged = self._judge(got, body)
        if isinstance(judged, tuple):
            self._count_tokens(judged[2])  # every reply the server wrote, used or not
        return judged

    def _bound(self, response: Any) -> None:
        """The ``http_client``'s response hook: an error reply's body, which the openai client reads
        itself before it raises APIStatusError, ends at this worker's deadline too (kb reads the
        body of every other reply itself, in :meth:`_post`)."""
        deadline = getattr(self._local, "deadline", None)
        if deadline is not None and response.is_error:
            response.stream = _bounded()(response.stream, deadline, self.cancel)

    def _post(self, body: dict[str, Any], deadline: float) -> _Attempt | str:
        import openai

        httpx = self._httpx
        if self._openai is None:
            raise self._gone(EndpointError("the LLM at {base_url} cannot be reached ({bad_url})",
                                "fix OPENAI_BASE_URL (it usually ends in /v1), or add --offline",
                                base_url=self.base_url, bad_url=self._bad_url))
        self._local.deadline = deadline
        try:
            with self._openai.chat.completions.with_streaming_response.create(**body) as r:
                out = bytearray()
                for piece in r.iter_bytes():  # each piece as it arrives (a size would wait to fill it)
                    out += piece
                    if self.cancel.is_set():
                        raise Cancelled()
                    if time.monotonic() > deadline:
                        return f"timed out after {self.timeout:g} s (the whole reply)"
                return _Attempt(r.status_code, bytes(out), {k.lower(): v for k, v in r.headers.items()})
        except openai.APIStatusError as e:  # 4xx/5xx: its body already read, within the deadline (_bound)
            return _Attempt(e.status_code, e.response.content, {k.lower(): v for k, v in e.response.headers.items()})
        except _Late:
            return f"timed out after {self.timeout:g} s (the whole reply)"
        except (openai.APITimeoutError, httpx.TimeoutException):  # before the headers / between two pieces
            if self.cancel.is_set():
                raise Cancelled() from None
            return f"timed out after {self.timeout:g} s"
        # APIConnectionError: before the reply, httpx's error as its cause; TransportError: dropped while
        # reading; RuntimeError: the client was closed (Ctrl-C)
        except (openai.APIConnectionError, httpx.TransportError, RuntimeError) as e:
            if self.cancel.is_set():
                raise Cancelled() from None
            cause = (e.__cause__ or e) if isinstance(e, openai.APIConnectionError) else e
            if isinstance(cause, (httpx.ConnectError, httpx.UnsupportedProtocol, httpx.InvalidURL)):
                raise self._gone(EndpointError("the LLM at {base_url} cannot be reached ({cause})",
                                    "start the server or fix OPENAI_BASE_URL (it usually ends in /v1), or add "
                                    "--offline",
                                    base_url=self.base_url, cause=cause)) from e
            return f"connection failed ({type(cause).__name__}: {cause})"
        finally:
            self._local.deadline = None

    def _judge(self, got: _Attempt, body: dict[str, Any]) -> tuple[str, str | None, dict[str, Any]] | str | None:
        status = got.status
        if status == 429:
            wait = _retry_after(got.headers.get("retry-after"))
            with self._lock:  # every worker waits, not just this one
                self._pause_until = max(self._pause_until, time.monotonic() + wait)
            return "rate limited (HTTP 429)"
        if status >= 500:
            time.sleep(0.2)
            return f"server error (HTTP {status})"
        if status in (401, 403):
            raise self._gone(EndpointError("the LLM endpoint {base_url} refused the API key (HTTP {status})",
                                "set OPENAI_API_KEY to a valid key",
                                base_url=self.base_url, status=status))
        if status == 404:
            raise self._gone(EndpointError("model '{model}' not found at {base_url} (HTTP 404)",
                                "set KB_LLM_MODEL to a model the endpoint serves (kb llm check lists them), and "
                                "check OPENAI_BASE_URL (it usually ends in /v1)",
                                model=self.model, base_url=self.base_url))
        if status in (400, 422):
            text = got.body.decode("utf-8", "replace")[:300]
            fmt = body.get("response_format")
            if fmt is not None:  # this output mode is not served here: the next one, for every worker
                nxt = "json_object" if fmt.get("type") == "json_schema" else "prose"
                with self._lock:
                    if MODES.index(nxt) > MODES.index(self.mode):
                        self.mode = nxt
                return None
            raise EndpointError("the LLM endpoint {base_url} rejected the request (HTTP {status}: {text})",
                                "check KB_LLM_MODEL and the endpoint (kb llm check)",
                                base_url=self.base_url, status=status, text=text)
        if status != 200:
            return f"answered HTTP {status}"
        try:
            data = json.loads(got.body)
        except (ValueError, RecursionError):
            head = got.body.decode("utf-8", "replace").strip()[:60]
            return f"answered with something that is not a chat completion ({head!r}…; an HTML page?)"
        content, finish, why = completion_parts(data)
        if why:
            return why
        usage = data.get("usage") if isinstance(data, dict) else None
        return content, finish, usage if isinstance(usage, dict) else {}

    def _reply(self, content: str, finish: Any, mode: str, accept_truncated: bool, *, cached: bool) -> Reply | str:
        if finish == "length":
            if not accept_truncated:
                return "reply truncated (finish_reason=length)"
            try:
                data = parse_json_object(content)
            except ValueError:
                data = {}
            return Reply(data, content, True, mode, cached)
        if not content.strip():
            return "sent an empty reply"
        try:
            return Reply(parse_json_object(content), content, False, mode, cached)
        except ValueError as e:
            return f"replied with invalid JSON ({e})"

    def _count_tokens(self, usage: dict[str, Any]) -> None:
        with self._lock:
            for k in ("prompt_tokens", "completion_tokens"):
                v = usage.get(k)
                if isinstance(v, int) and not isinstance(v, bool) and v >= 0:
                    setattr(self.usage, k, getattr(self.usage, k) + v)


class _Late(Exception):
    """The whole-reply deadline passed while the openai client read a body itself."""


@functools.cache
def _bounded() -> Any:
    """The class of a response body that ends at ``deadline`` (raises :class:`_Late`) or at Ctrl-C
    (raises :class:`Cancelled`), checked between the pieces the server sends; an httpx stream, made
    at the first use so that importing this module imports no httpx."""
    import httpx

    class Bounded(httpx.SyncByteStream):
        def __init__(self, stream: Any, deadline: float, cancel: threading.Event) -> None:
            self.stream, self.deadline, self.cancel = stream, deadline, cancel

        def __iter__(self) -> Iterator[bytes]:
            for piece in self.stream:
                if self.cancel.is_set():
                    raise Cancelled()
                if time.monotonic() > self.deadline:
                    raise _Late()
                yield piece

        def close(self) -> None:
            self.stream.close()

    return Bounded


def _retry_after(value: str | None) -> float:
    """Seconds a 429 asks to wait (``Retry-After`` in seconds; capped at 60 s; 1 s when absent)."""
    try:
        return min(60.0, max(0.0, float(value))) if value is not None else 1.0
    except ValueError:
        return 1.0


def completion_parts(data: Any) -> tuple[str, str | None, str]:
    """(the reply's text, its finish_reason, "") or ("", None, why it is not a usable chat completion)."""
    from pydantic import BaseModel, ValidationError

    class Message(BaseModel):
        content: str | None = None

    class Choice(BaseModel):
        message: Message
        finish_reason: str | None = None

    class Completion(BaseModel):
        choices: list[Choice]

    try:
        got = Completion.model_validate(data)
    except ValidationError as e:
        return "", None, f"answered with something that is not a chat completion ({e.errors()[0]['msg']})"
    if not got.choices:
        return "", None, "sent an empty reply (no choices)"
    choice = got.choices[0]
    return choice.message.content or "", choice.finish_reason, ""


def completion_text(resp: Any) -> tuple[str, str]:
    """(the reply's text, "") or ("", why it is not a usable chat completion); a truncated or
    empty reply is not usable."""
    if isinstance(resp, (str, bytes)):
        head = (resp.decode("utf-8", "replace") if isinstance(resp, bytes) else resp).strip()[:60]
        return "", f"answered with something that is not a chat completion ({head!r}…; an HTML page?)"
    data = resp.model_dump() if hasattr(resp, "model_dump") else resp
    content, finish, why = completion_parts(data)
    if why:
        return "", why
    if finish == "length":
        return "", "reply truncated (finish_reason=length)"
    if not content.strip():
        return "", "sent an empty reply"
    return content, ""


def parse_json_object(text: str) -> dict[str, Any]:
    """The JSON object in a reply, tolerating code fences and prose around it."""
    text = text.strip()
    fence = re.search(r"```(?:json)?\s*(.*?)```", text, re.S)
    if fence:
        text = fence.group(1).strip()
    start = text.find("{")
    end = text.rfind("}")
    if start < 0 or end <= start:
        raise ValueError("no JSON object in the reply")
    try:
        obj = json.loads(text[start : end + 1])
    except RecursionError:
        raise ValueError("the reply nests too deeply") from None
    if not isinstance(obj, dict):
        raise ValueError("the reply is not a JSON object")
    return obj


def complete_objects(text: str, key: str) -> list[Any]:
    """The complete JSON objects of the list under ``key`` in a reply cut short (a truncated or
    repeating reply): ``{"questions": [{...}, {...}, {"type": "sh`` gives the first two."""
    m = re.search('"' + re.escape(key) + r'"\s*:\s*\[', text)
    if not m:
        return []
    dec = json.JSONDecoder()
    out: list[Any] = []
    i = m.end()
    while True:
        while i < len(text) and text[i] in " \t\r\n,":
            i += 1
        if i >= len(text) or text[i] != "{":
            return out
        try:
            obj, i = dec.raw_decode(text, i)
        except (ValueError, RecursionError):
            return out
        out.append(obj)
