"""A real HTTP server on 127.0.0.1 that speaks the OpenAI chat-completions API, scripted
per test: each request pops the next behaviour (a reply, a truncated reply, malformed JSON,
a 429, a delay longer than the client's timeout, or a raw body such as an HTML page)."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable


class Behaviour:
    def __init__(self, content: str = "", finish: str = "stop", status: int = 200, delay: float = 0.0,
                 raw: bytes | None = None, content_type: str = "application/json") -> None:
        self.content, self.finish, self.status, self.delay = content, finish, status, delay
        self.raw, self.content_type = raw, content_type


def reply(obj: Any) -> Behaviour:
    return Behaviour(json.dumps(obj, ensure_ascii=False))


class OpenAIStub:
    def __init__(self, script: list[Behaviour] | Callable[[dict], Behaviour]) -> None:
        self.script = script
        self.requests: list[dict] = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep test output clean
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                stub.requests.append(body)
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
                        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
                    }).encode()
                try:
                    self.send_response(b.status)
                    self.send_header("Content-Type", b.content_type)
                    self.send_header("Content-Length", str(len(payload)))
                    if b.status == 429:
                        self.send_header("Retry-After", "0")
                    self.end_headers()
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
        return self.script.pop(0) if self.script else Behaviour("{}")

    def __enter__(self) -> OpenAIStub:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
