"""Helpers for the fault suite (tests/faults/test_faults.py): a tiny course, the kb CLI in-process,
snapshots of what a store holds, a real Chroma server, and processes seen through /proc."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from typer.testing import CliRunner

from kb.cli import app
from kb.config import Settings
from kb.store import open_store

from ..conftest import ROOT
from ..pdfgen import make_pdf

AULA1 = """# Paralelismo de dados

O paralelismo de dados replica o modelo em cada GPU e divide o lote entre as réplicas.
Os gradientes de todas as réplicas são somados com all-reduce antes de atualizar os pesos.

## Limitar a memória da GPU

Para limitar a memória da GPU no TensorFlow usa-se set_memory_growth ou um limite virtual.
Sem isso, o processo reserva quase toda a memória do dispositivo logo no início.
"""

AULA2 = """Estrategias de distribución

La estrategia MirroredStrategy soporta entrenamiento síncrono en varias GPU de un nodo.
Cada réplica calcula gradientes sobre su parte del lote y se promedian con all-reduce en anillo.

El servidor de parámetros guarda los pesos y los trabajadores piden y envían actualizaciones.
"""

AULA3 = """WEBVTT

00:00:01.000 --> 00:00:05.000
Hoje vamos falar de pipelines de dados com tf.data.

00:00:05.000 --> 00:00:10.000
O prefetch sobrepõe a preparação do próximo lote com o treino do lote atual.
"""


def make_course(folder: Path, pdf: bool = False) -> Path:
    """Three small sources (Markdown pt, text es, WebVTT) — and a one-page PDF with ``pdf``."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "aula1.md").write_text(AULA1, encoding="utf-8")
    (folder / "aula2.txt").write_text(AULA2, encoding="utf-8")
    (folder / "aula3.vtt").write_text(AULA3, encoding="utf-8")
    if pdf:
        make_pdf(folder / "slides.pdf", [["Servidor de parametros", "Os workers pedem os pesos ao servidor."],
                                         ["All-reduce em anel", "Cada GPU envia um pedaco ao vizinho."]])
    return folder


def kb(args: list[str], env: dict[str, str] | None = None, input: str | None = None):
    """The kb command line, in-process. Returns the click Result (exit_code, stdout, stderr)
    with ``said``: everything the user was told, on one line (for ``kb ingest``, its report
    rows "file: status; message — hint" and the counts, read from ``--json``)."""
    import json

    full = {"COLUMNS": "200"}
    full.update(env or {})
    ingest = "ingest" in args
    if ingest and "--json" not in args:
        args = [*args, "--json"]
    r = CliRunner().invoke(app, args, env=full, input=input)
    said = [flat(r.stderr)]
    if ingest and r.stdout.strip():
        rep = json.loads(r.stdout)
        for f in rep["files"]:
            said.append(f"{f['source']}: {f['status']}; {f.get('message', '')} — {f.get('hint', '')}")
        said.append(", ".join(f"{n} {k}" for k, n in rep["summary"].items() if n))
    r.said = " | ".join(said)
    return r


def flat(text: str) -> str:
    """Output with rich's line wrapping undone."""
    return " ".join(text.split())


def snapshot(home: Path, store_url: str | None = None) -> dict[str, frozenset[str]]:
    """What a store holds: stored source name → its chunk ids."""
    store = open_store(Settings(home=home, store_url=store_url))
    out: dict[str, set[str]] = {}
    for id_, meta in store.all_metadata():
        out.setdefault(meta["source"], set()).add(id_)
    return {k: frozenset(v) for k, v in out.items()}


def all_ids(snap: dict[str, frozenset[str]]) -> set[str]:
    return set().union(*snap.values()) if snap else set()


def run_kb_process(args: list[str], cwd: Path, env: dict[str, str] | None = None, ignore_sigint: bool = False,
                   stdin=subprocess.DEVNULL) -> subprocess.Popen:
    """Start the real ``kb`` in a child process (for signals, locks and workers)."""
    full = {k: v for k, v in os.environ.items() if not k.startswith(("KB_", "OPENAI_"))}
    full.update({"COLUMNS": "200", "PYTHONIOENCODING": "utf-8", "PYTHONPATH": str(ROOT)})
    full.update(env or {})

    def pre() -> None:
        if ignore_sigint:
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # as under nohup or some CI runners

    return subprocess.Popen([sys.executable, "-m", "kb.cli", *args], cwd=cwd, env=full, stdin=stdin,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=pre)


def all_threads_stopped(pid: int) -> bool:
    """True when every thread of ``pid`` is in the stopped state (T, or t when traced)."""
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
        states = [(t / "stat").read_text() for t in tasks]
    except OSError:
        return False
    return bool(states) and all(st[st.rfind(")") + 2 :].split()[0] in ("T", "t") for st in states)


def wait_until(check, timeout: float, step: float = 0.05) -> bool:
    """Poll ``check`` until true or ``timeout`` seconds pass (a bounded loop)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(step)
    return bool(check())


def free_port() -> int:
    """A port nothing listens on now. Another process may take it before it is used: a server
    started on it must check that it got it (see :class:`ChromaServer`)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def refused_port() -> Iterator[int]:
    """A port that refuses connections for the duration of the block: bound, never listening,
    so no other process (another xdist worker's server) can take it meanwhile."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        yield s.getsockname()[1]


def listening_inodes(port: int) -> set[str]:
    """Socket inodes listening on TCP ``port`` (any address), read from /proc/net/tcp{,6}."""
    out = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            f = line.split()
            if f[3] == "0A" and int(f[1].rsplit(":", 1)[1], 16) == port:  # 0A: LISTEN
                out.add(f[9])
    return out


def owns_socket(pid: int, inodes: set[str]) -> bool:
    """True when process ``pid`` holds one of the sockets ``inodes`` (its /proc/PID/fd links)."""
    wanted = {f"socket:[{i}]" for i in inodes}
    try:
        fds = list(Path(f"/proc/{pid}/fd").iterdir())
    except OSError:
        return False
    for fd in fds:
        try:
            if os.readlink(fd) in wanted:
                return True
        except OSError:
            continue
    return False


class ChromaServer:
    """``chroma run`` on 127.0.0.1 and a free port, with a data folder that outlives restarts.

    Started only when OUR process listens on the port: a free port can be taken by another
    process (another xdist worker's server) between choosing and binding it; our ``chroma run``
    then exits ("Address ... is not available") while the other server answers the heartbeat,
    and a test would freeze or kill a dead process and talk to a live stranger. ``start`` then
    tries again on another port (``url`` follows ``port``)."""

    def __init__(self, path: Path, port: int | None = None) -> None:
        self.path, self.port = path, port or free_port()
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ChromaServer:
        exe = Path(sys.executable).parent / "chroma"
        for _attempt in range(5):
            self.proc = subprocess.Popen([str(exe), "run", "--path", str(self.path), "--host", "127.0.0.1",
                                          "--port", str(self.port)], stdout=subprocess.DEVNULL,
                                         stderr=subprocess.DEVNULL,
                                         env={**os.environ, "ANONYMIZED_TELEMETRY": "False"})
            wait_until(lambda: self._up() or self._exited(), 90, 0.25)
            if self._up():
                return self
            if not self._exited():
                break  # alive but not serving within 90 s
            self.port = free_port()  # ours exited: the port was taken; try another
        self.stop()
        raise RuntimeError("chroma run did not start within 90 s")

    def _exited(self) -> bool:
        return self.proc is None or self.proc.poll() is not None

    def _up(self) -> bool:
        """Our own process is alive, holds the listening socket, and answers the heartbeat."""
        import urllib.request

        if self.proc is None or self.proc.poll() is not None:
            return False
        if Path("/proc/net/tcp").exists() and not owns_socket(self.proc.pid, listening_inodes(self.port)):
            return False
        try:
            with urllib.request.urlopen(f"{self.url}/api/v2/heartbeat", timeout=1) as r:
                return r.status == 200
        except OSError:
            return False

    def freeze(self) -> None:
        """SIGSTOP the server and wait until every one of its threads is stopped. kill() returns as
        soon as the signal is queued; the kernel wakes one thread to take it, and the others stop
        only once that thread runs: on a loaded machine another thread may still answer a request
        meanwhile (how test_frozen_server_mid_command once saw no timeout)."""
        assert self.proc is not None and self.proc.poll() is None, "the server is not running"
        pid = self.proc.pid
        os.kill(pid, signal.SIGSTOP)
        if not wait_until(lambda: all_threads_stopped(pid), 60, 0.01):
            raise RuntimeError(f"chroma run (process {pid}) did not stop within 60 s of SIGSTOP")

    def thaw(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGCONT)

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGCONT)
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


def names(text: str) -> set[str]:
    """File names mentioned in a message."""
    return set(re.findall(r"[\w.-]+\.(?:md|txt|vtt|srt|pdf|json|csv|sqlite)", text))


class TinyEmbedder:
    """A 4-d embedder made of each text's hash: for cases about the store, where tens of thousands of
    chunks through the real model (1.7 ms each) would be the whole cost of the test."""

    id = "test:tiny"
    dim = 4

    def embed_documents(self, texts):
        import hashlib

        import numpy as np

        rows = [np.frombuffer(hashlib.sha256(t.encode()).digest()[:16], dtype=np.uint32) for t in texts]
        return (np.array(rows, dtype=np.float64).reshape(-1, 4) + 1.0).astype(np.float32)

    embed_queries = embed_documents


@contextlib.contextmanager
def read_only(folder: Path):
    """``folder`` read-only for this process while the block runs: a read-only bind mount as root
    (root writes whatever the permissions say; EROFS), else every file and folder chmod a-w (EACCES).
    Skips the test where neither can be done."""
    import pytest

    if os.geteuid() != 0:
        modes = {p: p.stat().st_mode for p in [folder, *folder.rglob("*")]}
        for p in modes:
            p.chmod(modes[p] & ~0o222)
        try:
            yield folder
        finally:
            for p, mode in modes.items():
                p.chmod(mode)
        return
    f = str(folder)
    if subprocess.run(["mount", "--bind", f, f], capture_output=True).returncode != 0:
        pytest.skip("cannot bind-mount a folder read-only here")
    try:
        if subprocess.run(["mount", "-o", "remount,ro,bind", f], capture_output=True).returncode != 0:
            pytest.skip("cannot remount a folder read-only here")
        yield folder
    finally:
        subprocess.run(["umount", "-l", f], capture_output=True)
