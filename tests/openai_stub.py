"""A real HTTP server on 127.0.0.1 that speaks the OpenAI chat-completions API, scripted
per test: each request pops the next behaviour (a reply, a truncated reply, malformed JSON,
a 429 with its Retry-After, a delay longer than the client's timeout, a reply that sends its
headers and then dribbles its bytes, or a raw body such as an HTML page). ``accepts`` says which
``response_format`` types the server takes (the others get HTTP 400, as servers without them
answer); ``GET /models`` lists ``models``. The server counts requests in flight."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable


class Behaviour:
    def __init__(self, content: str = "", finish: str = "stop", status: int = 200, delay: float = 0.0,
                 raw: bytes | None = None, content_type: str = "application/json", retry_after: str = "0",
                 dribble: float = 0.0, tokens: tuple[int, int] = (1, 1)) -> None:
        self.content, self.finish, self.status, self.delay = content, finish, status, delay
        self.raw, self.content_type, self.retry_after = raw, content_type, retry_after
        self.dribble = dribble  # seconds between bytes of the body, after the headers
        self.tokens = tokens  # (prompt, completion) tokens the usage reports


def reply(obj: Any) -> Behaviour:
    return Behaviour(json.dumps(obj, ensure_ascii=False))


class OpenAIStub:
    def __init__(self, script: list[Behaviour] | Callable[[dict], Behaviour],  # noqa: C901 (the handler is inline)
                 accepts: tuple[str, ...] = ("json_schema", "json_object"),
                 models: list[str] | bytes | None = None) -> None:
        self.script = script
        self.accepts = accepts
        self.models = models
        self.requests: list[dict] = []
        self.rejected: list[dict] = []  # requests answered 400 for their response_format
        self.in_flight = 0
        self.max_in_flight = 0
        self._lock = threading.Lock()
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep test output clean
                pass

            def do_GET(self):
                if isinstance(stub.models, bytes):  # a web page where the API should be
                    payload, status = stub.models, 200
                elif stub.models is None:
                    payload, status = b'{"error": {"message": "not found"}}', 404
                else:
                    payload, status = json.dumps({"object": "list", "data": [
                        {"id": m, "object": "model"} for m in stub.models]}).encode(), 200
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                fmt = (body.get("response_format") or {}).get("type")
                if fmt and fmt not in stub.accepts:
                    stub.rejected.append(body)
                    payload = json.dumps({"error": {"message": f"response_format {fmt} is not supported"}}).encode()
                    self.send_response(400)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                    return
                with stub._lock:
                    stub.requests.append(body)
                    stub.in_flight += 1
                    stub.max_in_flight = max(stub.max_in_flight, stub.in_flight)
                try:
                    self._answer(body)
                finally:
                    with stub._lock:
                        stub.in_flight -= 1

            def _answer(self, body):
                b = stub._next(body)
                if b.delay:
                    time.sleep(b.delay)
                if b.raw is not None:
                    payload = b.raw
                elif b.status != 200:
                    payload = json.dumps({"error": {"message": "stub error", "type": "stub"}}).encode()
                else:
                    payload = json.dumps({
                        "id": "chatcmpl-stub", "object": "chat.completion", "created": int(time.time()),
                        "model": body.get("model", "stub"),
                        "choices": [{"index": 0, "finish_reason": b.finish,
                                     "message": {"role": "assistant", "content": b.content}}],
                        "usage": {"prompt_tokens": b.tokens[0], "completion_tokens": b.tokens[1],
                                  "total_tokens": sum(b.tokens)},
                    }).encode()
                try:
                    self.send_response(b.status)
                    self.send_header("Content-Type", b.content_type)
                    self.send_header("Content-Length", str(len(payload)))
                    if b.status == 429:
                        self.send_header("Retry-After", b.retry_after)
                    self.end_headers()
                    if b.dribble:  # headers at once, then the body byte by byte
                        for i in range(len(payload)):
                            self.wfile.write(payload[i : i + 1])
                            self.wfile.flush()
                            time.sleep(b.dribble)
                    else:
                        self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout test)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def _next(self, body: dict) -> Behaviour:
        if callable(self.script):
            return self.script(body)
        with self._lock:
            return self.script.pop(0) if self.script else Behaviour("{}")

    def __enter__(self) -> OpenAIStub:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
