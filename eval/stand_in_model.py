"""An OpenAI-compatible endpoint whose replies are written by a stand-in model outside kb: a person, or a
fresh helper that sees only the request — to measure the LLM writer as a capable model would serve it,
where no such model runs on this machine.

It records and replays, keyed by the request's text:

    python eval/stand_in_model.py serve DIR --port 8765 &          # the endpoint, at http://127.0.0.1:8765/v1
    OPENAI_BASE_URL=http://127.0.0.1:8765/v1 KB_LLM_MODEL=stand-in OPENAI_API_KEY=x KB_LLM_CONCURRENCY=1 \\
        kb quiz generate -n 12 --no-cache --source decks/DECK.pdf -o q/DECK.L.json
    python eval/stand_in_model.py tasks DIR --helpers 6              # what is still to answer, in task files
    ... each task file's replies written into DIR/replies/ ...; clear DIR/log.txt and run kb again: done when
    the log has no "miss"

A request it has a reply for (DIR/replies/KEY.json: the reply's content, one JSON object) is answered with
it; any other is written to DIR/requests/KEY.json and answered ``{"questions": []}`` (a model that found
nothing to ask), so kb goes on to its next request and every request a run sends is recorded. kb's
requests depend on the replies before them (how many it still needs), so a run is repeated until it sends
none without a reply; then the quiz is what a model answering exactly those replies would give kb.

The key is the system and user messages, with the number of questions asked ("Write 2 questions in …")
left out; a stored reply with more questions than a request asks for is cut to that many, as a model
asked for fewer would write fewer (one with fewer is logged "short"). Replies always end with
``finish_reason: stop``; a retried request gets the same reply. Run kb with ``--no-cache`` (kb caches
replies by request), ``KB_LLM_CONCURRENCY=1`` (the order it sends in) and ``KB_LLM_RETRIES=0``. A run is
complete when its log (DIR/log.txt, cleared before it) has no "miss". A helper answers a task file's
requests together: told to answer each on its own, it may still avoid repeating itself across them, as a
model seeing one request at a time could not.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

_WANT = re.compile(r"\n\nWrite (\d+) questions? in\b")  # (kb's closing instruction: its last match)
_SOURCE = re.compile(r"Passage 1: \(([^,)·]+?)(?: · |,|\))")

TASK = """You are the language model behind an OpenAI-compatible chat-completions API. Each request below comes from a
program that writes exam questions from course slides, or reviews them. Answer each one exactly as a
careful, capable model would: read its SYSTEM and USER messages, follow every instruction in them, and reply
with the one JSON object the USER message describes (no prose, no code fence). Answer each request on its
own, as if you had not seen the others (a model behind an API sees one request at a time). Use only what the
request says: do not open any other file on this machine, and do not run programs other than to check that
your replies parse.

For each request, write your reply to the file named after it (REPLY FILE), as UTF-8 text holding only the
JSON object. When all {n} files exist, check that each parses (python3 -c "import json; json.load(open(F))"),
then stop and reply with one line: how many replies you wrote.
"""


def key_of(system: str, user: str) -> str:
    """The request's key: its messages, less the number of questions asked."""
    last = list(_WANT.finditer(user))[-1:]  # (kb's instruction closes the message: the last match only)
    if last:
        user = user[:last[0].start()] + "\n\nWrite N questions in" + user[last[0].end():]
    return hashlib.sha1((system + "\0" + user).encode("utf-8")).hexdigest()[:16]


def _reply_content(folder: Path, key: str, want: int | None) -> tuple[str | None, bool]:
    """The stored reply for ``key`` cut to ``want`` questions (None when there is none), and whether it holds
    fewer than ``want`` (the log says "short": a model asked for more would have written more)."""
    path = folder / "replies" / f"{key}.json"
    if not path.exists():
        return None, False
    text = path.read_text(encoding="utf-8").strip()
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return text, False  # served as written: kb says what it makes of it
    short = False
    if want and isinstance(data, dict) and isinstance(data.get("questions"), list):
        short = 0 < len(data["questions"]) < want  # (none at all: the model found nothing to ask)
        data["questions"] = data["questions"][:want]
    return json.dumps(data, ensure_ascii=False), short


def serve(folder: Path, port: int) -> None:
    server = make_server(folder, port)
    print(f"http://127.0.0.1:{server.server_address[1]}/v1", flush=True)
    server.serve_forever()


def make_server(folder: Path, port: int = 0) -> ThreadingHTTPServer:  # noqa: C901 (the handler is inline)
    """The endpoint on 127.0.0.1:``port`` (0: any free port), not yet serving."""
    (folder / "requests").mkdir(parents=True, exist_ok=True)
    (folder / "replies").mkdir(parents=True, exist_ok=True)
    lock = threading.Lock()
    seq = [len(list((folder / "requests").glob("*.json")))]

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def _send(self, status: int, obj: dict) -> None:
            payload = json.dumps(obj, ensure_ascii=False).encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def do_GET(self):
            self._send(200, {"object": "list", "data": [{"id": "stand-in", "object": "model"}]})

        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
            msgs = body.get("messages") or []
            system = next((m["content"] for m in msgs if m.get("role") == "system"), "")
            user = msgs[-1]["content"] if msgs else ""
            found = list(_WANT.finditer(user))
            want = int(found[-1].group(1)) if found else None
            key = key_of(system, user)
            content, short = _reply_content(folder, key, want)
            with lock:
                if content is None:
                    content = '{"questions": []}'
                    path = folder / "requests" / f"{key}.json"
                    if not path.exists():
                        src = _SOURCE.search(user)
                        path.write_text(json.dumps({"key": key, "seq": seq[0], "want": want,
                                                    "source": src.group(1) if src else "", "system": system,
                                                    "user": user}, ensure_ascii=False, indent=1), encoding="utf-8")
                        seq[0] += 1
                    (folder / "log.txt").open("a", encoding="utf-8").write(f"miss {key}\n")
                else:
                    (folder / "log.txt").open("a", encoding="utf-8").write(f"{'short' if short else 'hit'} {key}\n")
            self._send(200, {"id": "chatcmpl-stand-in", "object": "chat.completion", "created": int(time.time()),
                             "model": body.get("model", "stand-in"),
                             "choices": [{"index": 0, "finish_reason": "stop",
                                          "message": {"role": "assistant", "content": content}}],
                             "usage": {"prompt_tokens": len(system + user) // 4,
                                       "completion_tokens": len(content) // 4,
                                       "total_tokens": (len(system + user) + len(content)) // 4}})

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    return server


def pending(folder: Path) -> list[dict]:
    """The recorded requests without a reply, in the order they were first sent."""
    reqs = [json.loads(p.read_text(encoding="utf-8")) for p in (folder / "requests").glob("*.json")]
    return sorted((r for r in reqs if not (folder / "replies" / f"{r['key']}.json").exists()), key=lambda r: r["seq"])


def tasks(folder: Path, helpers: int, first: int | None) -> list[Path]:
    """Task files for ``helpers`` stand-ins, each with its share of the pending requests (a source's requests
    stay together; a request that names no passage's source, such as a quiz's review, stands alone); with
    ``first``, only each source's first that many pending requests."""
    todo = pending(folder)
    if first is not None:
        seen: dict[str, int] = {}
        keep = []
        for r in todo:
            group = r["source"] or r["key"]  # (as below: a request that names no source stands alone)
            seen[group] = seen.get(group, 0) + 1
            if seen[group] <= first:
                keep.append(r)
        todo = keep
    by_source: dict[str, list[dict]] = {}
    for r in todo:
        by_source.setdefault(r["source"] or r["key"], []).append(r)
    groups: list[list[dict]] = [[] for _ in range(max(1, helpers))]
    for reqs in sorted(by_source.values(), key=len, reverse=True):
        min(groups, key=len).extend(reqs)
    out = []
    (folder / "tasks").mkdir(exist_ok=True)
    stamp = time.strftime("%H%M%S")
    for n, group in enumerate(g for g in groups if g):
        parts = [TASK.format(n=len(group))]
        for r in group:
            reply = (folder / "replies" / f"{r['key']}.json").resolve()
            parts.append(f"\n======== REQUEST {r['key']}\nREPLY FILE: {reply}\n---- SYSTEM\n{r['system']}\n"
                         f"---- USER\n{r['user']}\n")
        path = folder / "tasks" / f"task_{stamp}_{n + 1}.md"
        path.write_text("".join(parts), encoding="utf-8")
        out.append(path)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog="example:\n" + __doc__.split("\n\n")[2],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("serve")
    s.add_argument("folder", type=Path)
    s.add_argument("--port", type=int, default=8765)
    t = sub.add_parser("tasks")
    t.add_argument("folder", type=Path)
    t.add_argument("--helpers", type=int, default=4)
    t.add_argument("--first", type=int, help="only each source's first N pending requests")
    args = ap.parse_args()
    if args.cmd == "serve":
        serve(args.folder, args.port)
    else:
        if not (args.folder / "requests").is_dir():
            sys.exit(f"stand_in_model: {args.folder} holds no recorded requests (no requests/ folder): serve it and "
                     "run kb against it first")
        files = tasks(args.folder, args.helpers, args.first)
        print(f"{len(pending(args.folder))} pending; task files: " + (", ".join(map(str, files)) or "none"))


if __name__ == "__main__":
    main()
