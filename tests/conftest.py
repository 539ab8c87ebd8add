"""Shared fixtures: an isolated environment and home folder for every test, a temporary
workspace with the sample course, and one ingested knowledge base per session; the ``kb``
command line in-process (``run_kb``) and, where the process itself matters, in a child
process (``run_kb_process``)."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest

ROOT = Path(__file__).resolve().parent.parent
# ``python -c CLI_THEN_CHROMADB ARGS…``: the real CLI in a fresh process, then whether it imported chromadb
# (the last line of stdout); the command must exit 0
CLI_THEN_CHROMADB = """
import sys
from kb.cli import app
try:
    app(sys.argv[1:])
except SystemExit as e:
    assert not e.code, e.code
print("chromadb" in sys.modules)
"""
SOURCES = ROOT / "sources"
SHARED = Path(os.environ.get("KB_SHARED_DIR") or ROOT.parent / "shared")  # ../shared beside the checkout
CORPORA = SHARED / "corpora"
E2E = ROOT / "tests" / "e2e"  # the real decks, a real model, a real server: marked e2e


@pytest.fixture(scope="session")
def model_cache(tmp_path_factory):
    """One folder for kb's model snapshots (the USE-m3 pickle, ~70 MB) for the whole session:
    a child process then loads the model in ~0.2 s instead of rebuilding it (~1.5 s) and
    writing a snapshot into every test's fresh home folder."""
    return tmp_path_factory.mktemp("model-cache")


@pytest.fixture(autouse=True)
def isolated_env(monkeypatch, tmp_path_factory, model_cache):
    """No KB_/OPENAI_ variable or home-folder state leaks into a test (only the model snapshot
    cache is shared, through XDG_CACHE_HOME; tests of the snapshot set KB_MODEL_CACHE). So passages
    rank by the store's own vectors (KB_RANKING_EMBEDDER's default, none) whatever a developer's shell
    sets; tests/search/test_ranking_second_embedder.py sets it where e5-small ranking is tested."""
    for var in list(os.environ):
        if var.startswith(("KB_", "OPENAI_")) or var == "NO_COLOR":
            monkeypatch.delenv(var, raising=False)
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CACHE_HOME", str(model_cache))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("ANONYMIZED_TELEMETRY", "False")
    monkeypatch.setenv("LANGUAGE", "en")  # the interface in English whatever the machine's locale (kb.i18n)
    monkeypatch.setattr("kb.i18n._chosen", None)  # no --ui-lang of an earlier in-process run
    monkeypatch.setattr("kb.i18n._finder", None)  # nor the course language an earlier run looked for
    yield


@pytest.fixture(autouse=True)
def release_chroma_clients():
    """In-process tests open a Chroma client per workspace and chromadb caches each one (with its
    SQLite and segment files) for the life of the process; drop them after each test so the suite
    does not run out of file descriptors."""
    yield
    cached = sys.modules.get("chromadb.api.shared_system_client")
    if cached is not None:
        cached.SharedSystemClient.clear_system_cache()


@pytest.fixture
def workspace(tmp_path, monkeypatch):
    """A temporary working directory holding a copy of the sample course in sources/."""
    shutil.copytree(SOURCES, tmp_path / "sources")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture(scope="session")
def course_template(tmp_path_factory, model_cache):
    """The sample course (sources/) after one library ingest (``kb.ingest.ingest``) from
    scratch, built once per session and never handed to a test: copy it (``ingested_workspace``)."""
    from kb.config import Settings
    from kb.ingest import ingest
    from kb.workspace import open_workspace

    ws = tmp_path_factory.mktemp("course-template")
    shutil.copytree(SOURCES, ws / "sources")
    mp = pytest.MonkeyPatch()
    mp.setenv("XDG_CACHE_HOME", str(model_cache))
    mp.chdir(ws)
    try:
        opened = open_workspace(Settings(home=ws / ".kb"), create=True)
        report = ingest([Path("sources")], opened.store, opened.embedder)
        assert len(report.files) == 5 and not report.failed
    finally:
        mp.undo()
    return ws


@pytest.fixture
def ingested_workspace(course_template, tmp_path, monkeypatch):
    """A private copy of the ingested sample course in tmp_path (cwd), for a test that needs a
    store to start from and writes to it: the same state as ingesting sources/ there."""
    shutil.copytree(course_template, tmp_path, dirs_exist_ok=True)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture(scope="session")
def ingested(course_template, tmp_path_factory, model_cache):
    """A workspace whose .kb was built once from the sample course by ``kb ingest sources``
    (read-only for tests; a test that writes copies it with shutil.copytree). It starts from
    the library-ingested template: the command finds every file unchanged and, like any
    ``kb ingest``, caches the search index."""
    ws = tmp_path_factory.mktemp("ingested")
    shutil.copytree(course_template, ws, dirs_exist_ok=True)
    r = run_kb(["ingest", "sources"], cwd=ws, env={"XDG_CACHE_HOME": str(model_cache)})
    assert r.returncode == 0, r.stderr
    return ws


@pytest.fixture(scope="session")
def decks_home(tmp_path_factory, model_cache):
    """The .kb of the three real slide decks (03Datos, 05modelos, 001TFDist) and the same
    "TensorFlow distribuido" deck as text (sources/004_*), ingested once per session by
    ``kb ingest`` (read-only; its embedding cache seeds other knowledge bases of these decks)."""
    skip_without_shared(CORPORA)
    home = tmp_path_factory.mktemp("decks") / ".kb"
    paths = [CORPORA / n for n in ("03Datos.pdf", "05modelos.pdf", "001TFDist.pdf")]
    paths.append(next(SOURCES.glob("004_*.txt")))
    r = run_kb(["ingest", *paths], cwd=home.parent, env={"KB_HOME": str(home), "XDG_CACHE_HOME": str(model_cache)})
    assert r.returncode == 0, r.stderr
    return home


@pytest.fixture(scope="session")
def real_decks_course(tmp_path_factory, decks_home, course_template) -> Path:
    """The sample course in sources/ and the three real decks in corpora/, ingested once per session
    by ``kb ingest`` with the session's embedding caches (read-only: a test that writes copies it)."""
    def add(corpora: Path) -> None:
        for name in ("03Datos.pdf", "05modelos.pdf", "001TFDist.pdf"):
            shutil.copy(CORPORA / name, corpora / name)

    return course_with_decks(tmp_path_factory.mktemp("real-decks"), add, decks_home, course_template / ".kb")


# the two averagings of 001TFDist, situated by the deck's subject (writer v10: a comparison stem with
# nothing before it said not in what)
SYNC_ASYNC = ("En TensorFlow distribuido, ¿qué diferencia hay entre el promediado síncrono y el promediado "
              "asíncrono de los pesos?")


def seed_embedding_cache(home: Path, *from_homes: Path) -> None:
    """Give a new workspace ``home`` the embedding caches of ``from_homes`` (vectors keyed by model
    and text hash): ingesting the same passages there reads their vectors instead of computing
    them again (~9 s of CPU for the sample course). Copied through SQLite: the cache is in WAL mode."""
    import sqlite3

    (home / "cache").mkdir(parents=True, exist_ok=True)
    dst = sqlite3.connect(home / "cache" / "embeddings.sqlite")
    try:
        first, *rest = from_homes
        src = sqlite3.connect(first / "cache" / "embeddings.sqlite")
        try:
            src.backup(dst)
        finally:
            src.close()
        for other in rest:
            dst.execute("ATTACH DATABASE ? AS other", (str(other / "cache" / "embeddings.sqlite"),))
            with dst:
                dst.execute("INSERT OR IGNORE INTO vec SELECT * FROM other.vec")
            dst.execute("DETACH DATABASE other")
    finally:
        dst.close()


class CliResult(NamedTuple):
    """What ``run_kb`` returns: the fields of subprocess.CompletedProcess that tests read."""

    returncode: int
    stdout: str
    stderr: str


def course_with_decks(root: Path, add_decks, *seed_homes: Path) -> Path:
    """A workspace at ``root``: the sample course in ``sources/`` and the decks ``add_decks(corpora)``
    puts in ``corpora/``, ingested by ``kb ingest`` with the embedding caches of ``seed_homes``."""
    shutil.copytree(SOURCES, root / "sources")
    (root / "corpora").mkdir()
    add_decks(root / "corpora")
    seed_embedding_cache(root / ".kb", *seed_homes)
    r = run_kb(["ingest", "sources", "corpora"], cwd=root)
    assert r.returncode == 0, r.stderr
    return root


def _deck_pdf():
    """``eval/deck_pdf.py`` (the script that renders a text deck to a real PDF), loaded as a module."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("deck_pdf", ROOT / "eval" / "deck_pdf.py")
    assert spec and spec.loader
    deck_pdf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(deck_pdf)
    return deck_pdf


def heldout_decks(names):
    """``add_decks`` for :func:`course_with_decks`: the held-out decks ``names`` (eval/heldout_decks/
    NAME.txt) rendered to real PDFs as ``eval/deck_pdf.py`` renders them, so no ../shared is needed."""
    deck_pdf = _deck_pdf()

    def add(corpora: Path) -> None:
        for name in names:
            deck_pdf.render(ROOT / "eval" / "heldout_decks" / f"{name}.txt", corpora / f"{name}.pdf")

    return add


def text_deck(name: str, text: str):
    """``add_decks`` for :func:`course_with_decks`: a deck written in the test (``text``, deck_pdf's text
    format) rendered to ``corpora/NAME.pdf``."""
    deck_pdf = _deck_pdf()

    def add(corpora: Path) -> None:
        (corpora.parent / f"{name}.txt").write_text(text, encoding="utf-8")
        deck_pdf.render(corpora.parent / f"{name}.txt", corpora / f"{name}.pdf")

    return add


def deck_quizzes(root: Path, add_decks, names, model_cache: Path, n: int = 12) -> dict[str, list]:
    """``generate_quiz`` -n ``n`` offline (library call) on each deck of ``names``, the decks ``add_decks(corpora)``
    puts in ``root/corpora`` ingested alone into one knowledge base: {name: the quiz's questions}."""
    import kb
    from kb.writing.generate import GenerationRequest, generate_quiz
    from kb.writing.offline import OfflineWriter

    (root / "corpora").mkdir()
    add_decks(root / "corpora")
    r = run_kb(["ingest", "corpora"], cwd=root, env={"XDG_CACHE_HOME": str(model_cache)})
    assert r.returncode == 0, r.stderr
    course = kb.open(root / ".kb")
    out = {}
    for name in names:
        src = next(s["source"] for s in course.sources() if s["source"].endswith(f"{name}.pdf"))
        rep = generate_quiz(course.workspace, GenerationRequest(n=n, sources=(src,)), OfflineWriter(), now="t")
        out[name] = rep.quiz.questions
    return out


def write_offline(ws, sources: dict[str, int]) -> dict[str, dict]:
    """The offline writer's work on each source of a workspace, as ``kb quiz generate --source S -n N``
    does it: per source, every draft that passed the checks (``drafts``), what was rejected
    (``rejected``) and the quiz chosen from them (``quiz``); ``"course"`` holds the course terms."""
    from kb.writing.generate import CourseTerms, GenerationRequest, choose_passages, dedupe, select
    from kb.writing.offline import OfflineWriter

    chunks = list(ws.store.all_chunks())
    course = CourseTerms(chunks, ws.embedder)
    out: dict[str, dict] = {"course": {"terms": course}}
    for src, n in sources.items():
        req = GenerationRequest(n=n, sources=(src,))
        w = OfflineWriter().write(choose_passages(ws, req, chunks), req, course)
        kept, _ = dedupe(w.drafts, ws.embedder)
        chosen, _ = select(kept, req, w.drafts)
        out[src] = {"drafts": [d.question for d in w.drafts], "rejected": w.rejected,
                    "quiz": [d.question for d in chosen]}
    return out


def write_heldout_decks(root: Path, decks, course_home: Path, n: int = 12) -> dict[str, dict]:
    """:func:`write_offline` on a workspace at ``root`` holding the sample course and the held-out
    ``decks`` (eval/heldout_decks/), each asked ``-n n`` with ``--source``, as the rated splits were."""
    from kb.config import Settings
    from kb.workspace import open_workspace

    root = course_with_decks(root, heldout_decks(decks), course_home)
    return write_offline(open_workspace(Settings(home=root / ".kb")), {f"corpora/{name}.pdf": n for name in decks})


def run_kb(args, cwd, input=None, env=None) -> CliResult:
    """Run the real ``kb`` command line in this process (typer's CliRunner), from ``cwd``.

    The same app, callback, error boundary and exit codes as the console script (``kb.cli.run``
    only calls ``app()``); stdout and stderr are captured apart. KB_/OPENAI_ variables of the
    test process are hidden unless ``env`` sets them. An exception that escapes the boundary is
    re-raised here (in a child process it would be a traceback and exit 1). Use
    ``run_kb_process`` where the process itself matters: a terminal, signals, two processes,
    what a fresh interpreter imports."""
    from typer.testing import CliRunner

    from kb.cli import app

    full: dict[str, str | None] = {k: None for k in os.environ if k.startswith(("KB_", "OPENAI_"))}
    full.update({"COLUMNS": "200"})
    full.update(env or {})
    old = os.getcwd()
    os.chdir(cwd)
    try:
        r = CliRunner().invoke(app, [str(a) for a in args], input=input, env=full, catch_exceptions=False)
    finally:
        os.chdir(old)
    return CliResult(r.exit_code, r.stdout, r.stderr)


def run_kb_process(args, cwd, input=None, env=None, timeout=600):
    """Run the real ``kb`` command line in a child process."""
    full_env = {k: v for k, v in os.environ.items() if not k.startswith(("KB_", "OPENAI_"))}
    full_env.update({"COLUMNS": "200", "PYTHONIOENCODING": "utf-8"})
    full_env.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "kb.cli", *args], cwd=cwd, input=input, capture_output=True,
        text=True, env=full_env, timeout=timeout,
    )


def pytest_collection_modifyitems(config, items):
    """Every test in tests/e2e/ is marked e2e (``-m "not e2e"`` leaves them out; CI runs them).
    In a pytest-xdist worker (``-n 2 --dist loadfile --no-loadscope-reorder``), put the files
    with long tests (marked slow) first, so that the workers take them first and no worker is
    left running one alone at the end; the order is otherwise the files' own."""
    for item in items:
        if E2E in item.path.resolve().parents:
            item.add_marker(pytest.mark.e2e)
    if os.environ.get("PYTEST_XDIST_WORKER"):
        slow_files = {item.path for item in items if item.get_closest_marker("slow")}
        items.sort(key=lambda item: item.path not in slow_files)  # stable: the slow files first


def skip_without_shared(path: Path) -> None:
    """Skip the test when ``path`` (inside ../shared or KB_SHARED_DIR) is missing on a user's checkout;
    fail it in CI (the CI variable set, as every CI service sets it), where a missing ../shared would
    otherwise turn a fifth of the suite into quiet skips."""
    if not path.exists():
        skip_or_fail_in_ci(f"{path} is missing (../shared beside the checkout, or KB_SHARED_DIR)")


def skip_or_fail_in_ci(why: str) -> None:
    """Skip the test on a user's checkout; fail it in CI (CI set, as .ci/run and CI services set it)."""
    if os.environ.get("CI", "").lower() not in ("", "0", "false", "no"):
        pytest.fail(f"{why}: CI must run the tests that need it", pytrace=False)
    pytest.skip(why)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """``@pytest.mark.needs_shared(path)``: skip_without_shared(path) before the test runs;
    ``@pytest.mark.needs_modules(*modules, hint=...)``: the same for modules of an optional extra."""
    for mark in item.iter_markers("needs_shared"):
        skip_without_shared(mark.args[0])
    for mark in item.iter_markers("needs_modules"):
        missing = [m for m in mark.args if importlib.util.find_spec(m) is None]
        if missing:
            skip_or_fail_in_ci(f"{', '.join(missing)} not installed ({mark.kwargs.get('hint', 'an optional extra')})")


needs_corpora = pytest.mark.needs_shared(CORPORA)
