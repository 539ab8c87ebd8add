"""The fault suite: what a careless user and a hostile tester do to kb, and what must hold.

Every case asserts the exit code, that the message names the file (or option) and the fix,
and, where a store or a grade is at stake, that nothing stored was lost: chunk ids are
compared with a clean ingest of the same tiny course. The "Faults kb survives" table (docs/measurements/faults.md) lists
each case with the test that holds it.

In-process (typer's CliRunner) wherever the process itself does not matter; real child
processes for signals and locks; a real ``chroma run`` on 127.0.0.1.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kb.config import Settings
from kb.errors import ExitCode, StoreError
from kb.grading.base import Grade
from kb.ingest import Progress, ingest, rebuild
from kb.readers import read_document
from kb.store import ASIDE, OLD, backend_failure
from kb.workspace import open_workspace

from ..conftest import ROOT
from ..openai_stub import Behaviour, OpenAIStub, reply
from ..pdfgen import encrypt_pdf, make_pdf
from .helpers import ChromaServer, kb, make_course, run_kb_process, snapshot, wait_until

CHROMA = Path(os.sys.executable).parent / "chroma"
needs_chroma = pytest.mark.skipif(not CHROMA.exists(), reason="the chroma CLI is not installed")
not_root = pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their permissions")


# --------------------------------------------------------------------------- fixtures

@pytest.fixture(scope="module")
def clean_root(tmp_path_factory):
    """A clean ingest of the tiny course (root/course, workspace root/.kb), never handed to a test."""
    root = tmp_path_factory.mktemp("clean")
    make_course(root / "course")
    cwd = os.getcwd()
    os.chdir(root)
    try:
        r = kb(["ingest", "course"])
    finally:
        os.chdir(cwd)
    assert r.exit_code == 0, r.stderr
    return root


@pytest.fixture(scope="module")
def clean(clean_root):
    """Chunk ids of a clean ingest of the tiny course."""
    return snapshot(clean_root / ".kb")


@pytest.fixture
def course(tmp_path, monkeypatch, clean, clean_root):
    """A workspace (tmp/.kb) with the tiny course (tmp/course) ingested; cwd = tmp. A copy of
    the clean ingest (the same files, the same store) rather than a new ingest per test."""
    shutil.copytree(clean_root, tmp_path, dirs_exist_ok=True)
    monkeypatch.chdir(tmp_path)
    assert snapshot(tmp_path / ".kb") == clean
    return tmp_path


def _kept(root: Path, clean) -> None:
    """Nothing stored was lost, nothing duplicated: the store equals a clean ingest."""
    assert snapshot(root / ".kb") == clean


# --------------------------------------------------------------------------- source identity

def test_ingest_from_another_folder_prunes_nothing(course, clean, monkeypatch):
    (course / "other").mkdir()
    monkeypatch.chdir(course / "other")
    r = kb(["--home", "../.kb", "ingest", "."])
    assert r.exit_code == ExitCode.FAILED
    err = r.said
    assert "no supported files found" in err and "--prune-empty" in err and "0 removed" not in err
    _kept(course, clean)


def test_same_folder_by_absolute_path_from_elsewhere_is_not_duplicated(course, clean, monkeypatch, tmp_path_factory):
    monkeypatch.chdir(tmp_path_factory.mktemp("elsewhere"))
    r = kb(["--home", str(course / ".kb"), "ingest", str(course / "course")])
    assert r.exit_code == 0, r.stderr
    assert "3 unchanged" in r.said
    _kept(course, clean)


def test_same_folder_through_a_symlink_is_the_same_course(course, clean):
    (course / "link").symlink_to(course / "course")
    r = kb(["ingest", "link"])
    assert r.exit_code == 0 and "3 unchanged" in r.said
    _kept(course, clean)


def test_empty_course_folder_is_never_pruned(course, clean):
    for f in (course / "course").iterdir():
        f.rename(course / f.name)  # the folder is empty now (e.g. a sync client emptied it)
    r = kb(["ingest", "course"])
    assert r.exit_code == ExitCode.FAILED
    err = r.said
    assert "course: no supported files found; its 3 stored sources were kept" in err
    assert "--prune-empty" in err
    _kept(course, clean)


def test_prune_empty_means_it(course):
    for f in (course / "course").iterdir():
        f.unlink()
    r = kb(["ingest", "course", "--prune-empty"])
    assert r.exit_code == 0, r.stderr
    assert "3 removed" in r.said
    assert snapshot(course / ".kb") == {}


def test_unmounted_course_folder_prunes_nothing(course, clean):
    shutil.rmtree(course / "course")  # the drive is not mounted: the path is gone
    r = kb(["ingest", "course"])
    assert r.exit_code == ExitCode.FAILED
    assert "course: no such file or folder" in r.said and "check the path" in r.said
    _kept(course, clean)


def test_a_deleted_file_is_pruned_only_under_the_folder_given(course, clean):
    make_course(course / "extra")
    (course / "extra" / "aula1.md").unlink()
    assert kb(["ingest", "extra"]).exit_code == 0
    (course / "extra" / "aula2.txt").unlink()
    r = kb(["ingest", "extra"])
    assert r.exit_code == 0 and "1 removed" in r.said
    snap = snapshot(course / ".kb")
    assert {k: v for k, v in snap.items() if k.startswith("course/")} == clean  # other root untouched
    assert set(snap) - set(clean) == {"extra/aula3.vtt"}


def test_moved_course_keeps_its_chunks_without_duplicates(course, clean):
    (course / "course").rename(course / "renamed")
    r = kb(["ingest", "renamed"])
    assert r.exit_code == 0, r.stderr
    err = r.said
    assert "3 updated" in err and "was stored as 'course/aula1.md'" in err
    snap = snapshot(course / ".kb")
    assert set(snap) == {"renamed/aula1.md", "renamed/aula2.txt", "renamed/aula3.vtt"}
    assert sum(len(v) for v in snap.values()) == sum(len(v) for v in clean.values())


def test_a_copied_workspace_reads_its_sources_relative_to_itself(course, clean, tmp_path_factory, monkeypatch):
    copy = tmp_path_factory.mktemp("copy") / "ws"
    shutil.copytree(course, copy)
    monkeypatch.chdir(copy)
    r = kb(["sources", "--json"])
    assert r.exit_code == 0
    assert sorted(s["source"] for s in json.loads(r.stdout)["sources"]) == sorted(clean)
    r = kb(["ingest", "course"])
    assert r.exit_code == 0 and "3 unchanged" in r.said
    _kept(copy, clean)


def test_names_from_an_older_kb_are_migrated_not_duplicated(course, clean, tmp_path_factory, monkeypatch):
    # an older kb named sources relative to the cwd it ran in: moving the store elsewhere
    # reproduces names ("course/aula1.md") that no longer resolve from the store's folder
    other = tmp_path_factory.mktemp("older")
    shutil.move(str(course / ".kb"), str(other / ".kb"))
    r = kb(["--home", str(other / ".kb"), "ingest", "course"])
    assert r.exit_code == 0, r.stderr
    assert "3 updated" in r.said
    snap = snapshot(other / ".kb")
    assert len(snap) == 3 and all(k.endswith(("aula1.md", "aula2.txt", "aula3.vtt")) for k in snap)
    assert sum(len(v) for v in snap.values()) == sum(len(v) for v in clean.values())
    again = kb(["--home", str(other / ".kb"), "ingest", "course"])
    assert "3 unchanged" in again.said


# --------------------------------------------------------------------------- rebuild

def test_rebuild_of_a_zero_byte_file_keeps_the_store(course, clean):
    (course / "zero.txt").write_bytes(b"")
    r = kb(["ingest", "--rebuild", "zero.txt"])
    assert r.exit_code == ExitCode.FAILED
    err = r.said
    assert "zero.txt" in err and "file is empty" in err and "rebuild not applied" in err
    assert "left as it was" in err
    _kept(course, clean)


def test_rebuild_of_one_file_rebuilds_only_that_one(course, clean):
    r = kb(["ingest", "--rebuild", "course/aula2.txt"])
    assert r.exit_code == 0, r.stderr
    assert "rebuild applied" in r.said and "1 added" in r.said
    _kept(course, clean)


def test_rebuild_of_a_mistyped_path_keeps_the_store(course, clean):
    r = kb(["ingest", "--rebuild", "cuorse"])
    assert r.exit_code == ExitCode.INPUT
    assert "nothing to ingest in cuorse; the knowledge base was left as it was" in r.said
    assert "check the paths" in r.said
    _kept(course, clean)


def test_interrupted_rebuild_keeps_the_old_store(course, clean):
    ws = open_workspace(Settings(home=course / ".kb"), create=True, rebuild=True)
    calls = []

    def interrupting(path, max_mb):
        calls.append(path)
        if len(calls) == 2:
            raise KeyboardInterrupt  # Ctrl-C halfway through the rebuild
        return read_document(path, max_mb)

    report = rebuild([Path("course")], ws.store, ws.embedder, reader=interrupting)
    assert report.interrupted and report.rebuild == "not applied: interrupted"
    _kept(course, clean)


def test_crash_between_the_swap_renames_is_undone_by_the_next_ingest(course, clean):
    import chromadb

    client = chromadb.PersistentClient(path=str(course / ".kb" / "chroma"))
    client.get_collection("course").modify(name="course" + OLD)  # crashed after the first rename
    client.create_collection("course" + ASIDE)
    r = kb(["ingest", "course"])
    assert r.exit_code == 0 and "3 unchanged" in r.said
    _kept(course, clean)


def _left_by_a_killed_rebuild(root: Path, suffix: str) -> None:
    """What a SIGKILLed ``kb ingest --rebuild`` leaves beside the store: the collection it was filling
    (``__rebuild``), or, killed after the swap's renames, the one it replaced (``__old``)."""
    import chromadb

    client = chromadb.PersistentClient(path=str(root / ".kb" / "chroma"))
    left = client.create_collection("course" + suffix, configuration={"hnsw": {"space": "cosine"}},
                                    embedding_function=None)
    left.add(ids=["half"], documents=["meio"], embeddings=[[0.1] * 512], metadatas=[{"source": "course/aula1.md"}])


@pytest.mark.parametrize("suffix", [ASIDE, OLD])
@pytest.mark.parametrize("args", [["ingest", "course"], ["ingest", "--rebuild", "course/aula2.txt"]])
def test_killed_rebuild_leftover_is_removed_by_the_next_ingest_which_says_so(course, clean, args, suffix):
    import chromadb

    _left_by_a_killed_rebuild(course, suffix)
    r = kb(args)
    assert r.exit_code == 0, r.said
    assert f"removed 'course{suffix}' (1 chunks)" in r.said and "kb ingest --rebuild that was stopped" in r.said
    names = {c.name for c in chromadb.PersistentClient(path=str(course / ".kb" / "chroma")).list_collections()}
    assert names == {"course"}
    _kept(course, clean)
    assert "removed" not in kb(["ingest", "course"]).said.split("|")[0]  # said once, not every time


def test_rebuild_after_a_chunker_change_rereads_every_source(course, clean):
    import chromadb

    from kb.config import CHUNKING_VERSION

    col = chromadb.PersistentClient(path=str(course / ".kb" / "chroma")).get_collection("course")
    meta = {k: v for k, v in (col.metadata or {}).items() if k != "hnsw:space"}
    col.modify(metadata={**meta, "kb_chunking": CHUNKING_VERSION - 1})  # built by an older chunker
    r = kb(["search", "memória"])
    assert r.exit_code == ExitCode.STORE and "run kb ingest --rebuild" in r.said
    r = kb(["ingest", "--rebuild", "course/aula1.md"])
    assert r.exit_code == 0, r.said
    assert "3 added" in r.said  # the other two were read again, not carried over
    _kept(course, clean)
    assert kb(["search", "memória"]).exit_code == 0


def _sections(path: Path, n: int, word: str = "dados") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(f"# Seção {i}\n\nTexto curto da seção {i} sobre {word}.\n\n" for i in range(n)),
                    encoding="utf-8")
    return path


def test_deleted_hnsw_segment_is_named_and_repaired_by_rebuild(tmp_path):
    """Chroma keeps vectors in its HNSW segment files once a collection passes its sync threshold
    (1,000 rows): with those files deleted every read of vectors failed with "Error finding id",
    and --rebuild too (it read the old vectors to carry the other sources over)."""
    from chromadb.api.shared_system_client import SharedSystemClient

    from kb.store import open_store

    from .helpers import TinyEmbedder

    home = tmp_path / ".kb"
    big = _sections(tmp_path / "course" / "big.md", 1500)
    _sections(tmp_path / "extra" / "other.md", 20, "redes")
    store = open_store(Settings(home=home), TinyEmbedder.id, TinyEmbedder.dim, create=True)
    assert not ingest([tmp_path / "course", tmp_path / "extra"], store, TinyEmbedder()).failed
    segments = [d for d in (home / "chroma").iterdir() if d.is_dir()]
    assert segments
    for d in segments:
        shutil.rmtree(d)
    SharedSystemClient.clear_system_cache()  # what a new kb process sees
    big.write_text(big.read_text(encoding="utf-8") + "# Fim\n\nUma seção nova.\n", encoding="utf-8")
    store = open_store(Settings(home=home))
    with pytest.raises(StoreError) as e:
        ingest([tmp_path / "course"], store, TinyEmbedder())
    assert "vector index does not hold" in e.value.message and "kb ingest --rebuild" in e.value.hint
    aside = open_store(Settings(home=home), TinyEmbedder.id, TinyEmbedder.dim, create=True, rebuild=True)
    report = rebuild([tmp_path / "course"], aside, TinyEmbedder())
    assert report.rebuild == "applied" and report.carried == 20  # other.md carried, its text embedded again
    store = open_store(Settings(home=home))
    ids = [i for i, _ in store.all_metadata()]
    assert len(ids) == 1521 and len(store.get_vectors(ids)) == 1521


def test_full_rebuild_reproduces_a_clean_store(course, clean):
    r = kb(["ingest", "--rebuild", "course"])
    assert r.exit_code == 0, r.stderr
    _kept(course, clean)


# --------------------------------------------------------------------------- one writer per workspace

def test_second_ingest_says_another_is_running(course, clean):
    from kb.lock import writer_lock

    with writer_lock(course / ".kb"):
        r = kb(["ingest", "course"], env={"KB_LOCK_WAIT": "0"})
    assert r.exit_code == ExitCode.STORE
    err = r.said
    assert f"another kb ingest (process {os.getpid()}) is writing to" in err and "wait for it" in err
    _kept(course, clean)


def test_second_ingest_waits_for_the_first(course, clean):
    from kb.lock import writer_lock

    # the lock is released once the second ingest says it is waiting (not after a fixed sleep,
    # which a loaded machine outlasts before the ingest reaches the lock)
    with writer_lock(course / ".kb"):
        p = run_kb_process(["ingest", "course"], course, env={"KB_LOCK_WAIT": "300"})
        said = ""
        while p.stderr is not None and "waiting for it" not in said:  # bounded: readline ends at EOF
            line = p.stderr.readline()
            if not line:
                break
            said += line
    out, err = p.communicate(timeout=300)
    assert p.returncode == 0 and "waiting for it" in said, (p.returncode, said + err)
    _kept(course, clean)


def _search_while(procs, home: Path, allowed: tuple[str, ...]) -> list[str]:
    """Search in-process until the child processes end; what went wrong, if anything."""
    errors = []
    while any(p.poll() is None for p in procs):  # bounded by the children
        r = kb(["--home", str(home), "search", "memória da GPU", "--json"])
        if r.exit_code != 0 and not (r.exit_code == ExitCode.STORE and any(a in r.said for a in allowed)):
            errors.append(r.said or repr(r.exception))
        time.sleep(0.2)
    return errors


def test_search_while_the_store_is_being_created_waits_instead_of_building_tables(tmp_path, monkeypatch):
    """A reader that opened Chroma's folder while the first ingest was still creating its tables would
    create them too, and one of the two failed ("table collections already exists"). The creator marks
    the folder while it makes the tables: the reader says so and touches nothing."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".kb" / "chroma").mkdir(parents=True)
    (tmp_path / ".kb" / "chroma.creating").touch()
    r = kb(["search", "memória da GPU"])
    assert r.exit_code == ExitCode.STORE and "being written for the first time" in r.said
    assert list((tmp_path / ".kb" / "chroma").iterdir()) == []  # no tables built by the reader
    make_course(tmp_path / "course")
    assert kb(["ingest", "course"]).exit_code == 0  # an ingest (also after a stopped one) clears the mark
    assert not (tmp_path / ".kb" / "chroma.creating").exists()
    assert kb(["search", "memória da GPU"]).exit_code == 0


def test_two_ingests_at_once_from_scratch(tmp_path, clean):
    make_course(tmp_path / "course")
    procs = [run_kb_process(["ingest", "course"], tmp_path) for _ in range(2)]
    errors = _search_while(procs, tmp_path / ".kb", ("no knowledge base", "being written for the first time"))
    outs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    assert any("waiting for it" in err for _, err in outs) or all("3 added" not in e for _, e in outs[1:])
    assert errors == []
    assert snapshot(tmp_path / ".kb") == clean


def test_search_during_ingest_is_never_blocked(course, clean):
    make_pdf(course / "course" / "slides.pdf", [["Servidor de parametros", "Os workers pedem os pesos."]])
    (course / "course" / "aula2.txt").write_text((course / "course" / "aula2.txt").read_text() + "\nMais um.\n")
    p = run_kb_process(["ingest", "course"], course)
    errors = _search_while([p], course / ".kb", ())
    out, err = p.communicate(timeout=300)
    assert p.returncode == 0, err
    assert errors == []
    assert set(snapshot(course / ".kb")) == set(clean) | {"course/slides.pdf"}


# --------------------------------------------------------------------------- signals and workers

def _start_when_writing(root: Path, ignore_sigint: bool = False):
    p = run_kb_process(["ingest", "course"], root, ignore_sigint=ignore_sigint)
    assert wait_until(lambda: (root / ".kb" / "chroma").is_dir() or p.poll() is not None, 120)
    return p


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT, signal.SIGTERM])
def test_killed_ingest_then_rerun_equals_a_clean_one(tmp_path, clean, sig):
    make_course(tmp_path / "course")
    p = _start_when_writing(tmp_path, ignore_sigint=True)  # SIGINT must work even when ignored at start
    time.sleep(0.5)
    p.send_signal(sig)
    out, err = p.communicate(timeout=120)
    if sig != signal.SIGKILL and p.returncode not in (0,):
        # on a loaded machine the signal can land after the report, in the interpreter's teardown
        # (CPython has restored the default handler there): killed, but with the work complete
        reported = "added" in out + err
        assert p.returncode == ExitCode.INTERRUPTED or (p.returncode == -sig and reported), (p.returncode, err)
    monkey = os.getcwd()
    os.chdir(tmp_path)
    try:
        r = kb(["ingest", "course"])
    finally:
        os.chdir(monkey)
    assert r.exit_code == 0, r.stderr
    assert snapshot(tmp_path / ".kb") == clean


def test_study_can_be_interrupted_when_started_with_sigint_ignored(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    _quiz(tmp_path / "quizzes" / "q.json")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KB_", "OPENAI_"))}
    env.update({"PYTHONPATH": str(ROOT), "COLUMNS": "100"})
    child = pexpect.spawn(os.sys.executable, ["-m", "kb.cli", "study", "--offline"], cwd=str(tmp_path), env=env,
                          encoding="utf-8", timeout=60, use_poll=True,
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))  # as under nohup
    child.expect("O que o GIL impede")
    child.expect("> ")
    child.kill(signal.SIGINT)
    child.expect(pexpect.EOF, timeout=30)
    child.close()
    assert child.exitstatus == ExitCode.INTERRUPTED, (child.exitstatus, child.signalstatus)


# --------------------------------------------------------------------------- bad files (ingest goes on)

def _one_bad(root: Path, name: str, content: bytes | None = None, args: tuple[str, ...] = ()):
    bad = root / "bad"
    bad.mkdir(exist_ok=True)
    if content is not None:
        (bad / name).write_bytes(content)
    r = kb(["ingest", "course", "bad", *args])
    return r, r.said


def test_encrypted_pdf(course, clean):
    (course / "bad").mkdir()
    encrypt_pdf(make_pdf(course / "plain.pdf", [["Texto"]]), course / "bad" / "protegido.pdf")
    r, err = _one_bad(course, "protegido.pdf")
    assert r.exit_code == ExitCode.FAILED and "protegido.pdf" in err and "qpdf --decrypt" in err
    _kept(course, clean)


def test_truncated_pdf(course, clean):
    make_pdf(course / "ok.pdf", [["Servidor de parametros", "texto"]])
    data = (course / "ok.pdf").read_bytes()
    r, err = _one_bad(course, "cortado.pdf", data[: len(data) // 2])
    assert r.exit_code == ExitCode.FAILED and "cortado.pdf" in err
    assert "damaged" in err or "no readable text" in err
    _kept(course, clean)


def test_zero_byte_file(course, clean):
    r, err = _one_bad(course, "vazio.md", b"")
    assert r.exit_code == ExitCode.FAILED and "vazio.md: file is empty" in err and "add content" in err
    _kept(course, clean)


def test_oversize_file(course, clean):
    r, err = _one_bad(course, "grande.txt", ("palavra " * 20000).encode(), ("--max-mb", "0.05"))
    assert r.exit_code == ExitCode.FAILED and "grande.txt: file is 0.2 MB, over the 0.05 MB limit" in err
    assert "--max-mb 1" in err
    _kept(course, clean)


def test_utf16_file(course, clean):
    r, err = _one_bad(course, "utf16.txt", "Paralelismo de dados com réplicas.".encode("utf-16"))
    assert r.exit_code == ExitCode.FAILED and "utf16.txt" in err and "UTF-8" in err
    _kept(course, clean)


def test_latin1_file_is_read_with_a_note(course, clean):
    r, err = _one_bad(course, "latin1.txt", "A memória da GPU é limitada; não há réplicas.\n".encode("latin-1"))
    assert r.exit_code == 0, err
    assert "latin1.txt" in err and "not UTF-8" in err and "save as UTF-8" in err
    snap = snapshot(course / ".kb")
    assert {k: v for k, v in snap.items() if k.startswith("course/")} == clean


def test_malformed_vtt(course, clean):
    r, err = _one_bad(course, "quebrado.vtt", b"WEBVTT\n\n00:00:xx --> nonsense\n\n-->\n")
    assert "quebrado.vtt" in err
    assert r.exit_code in (0, ExitCode.FAILED)
    snap = snapshot(course / ".kb")
    assert {k: v for k, v in snap.items() if k.startswith("course/")} == clean


def test_malformed_srt(course, clean):
    r, err = _one_bad(course, "quebrado.srt", b"1\n00:00:01,000 --> \n\n2\nbanana --> 00:00\n")
    assert "quebrado.srt" in err
    assert r.exit_code in (0, ExitCode.FAILED)
    snap = snapshot(course / ".kb")
    assert {k: v for k, v in snap.items() if k.startswith("course/")} == clean


def test_noise_without_nul_bytes_is_not_text(course, clean):
    import random

    rnd = random.Random(7)
    noise = bytes(rnd.randrange(1, 256) for _ in range(4096))
    r, err = _one_bad(course, "ruido.txt", noise)
    assert r.exit_code == ExitCode.FAILED
    assert "ruido.txt: does not look like text" in err and "export it as UTF-8 text" in err
    _kept(course, clean)


def test_binary_with_a_text_extension(course, clean):
    r, err = _one_bad(course, "imagem.md", b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8)
    assert r.exit_code == ExitCode.FAILED and "imagem.md" in err and "text" in err
    _kept(course, clean)


def test_symlink_loop_inside_the_course(course, clean):
    (course / "course" / "loop").symlink_to(course / "course")
    (course / "course" / "broken.md").symlink_to(course / "nowhere.md")
    r = kb(["ingest", "course"])
    err = r.said
    assert r.exit_code == ExitCode.FAILED and "broken.md: a broken symbolic link" in err and "fix or remove" in err
    _kept(course, clean)


def test_unusable_path_argument_does_not_stop_the_others(course, clean):
    long_name = "x" * 300 + ".md"  # the OS refuses the name itself (ENAMETOOLONG)
    r = kb(["ingest", long_name, "course"])
    err = r.said
    assert r.exit_code == ExitCode.FAILED and "cannot read" in err and "3 unchanged" in err
    _kept(course, clean)


@not_root
def test_unreadable_folder_does_not_stop_the_others(course, clean):
    locked = course / "course" / "locked"
    locked.mkdir()
    (locked / "x.md").write_text("# x\n\ntexto\n")
    locked.chmod(0)
    try:
        r = kb(["ingest", "course"])
    finally:
        locked.chmod(stat.S_IRWXU)
    assert r.exit_code == ExitCode.FAILED and "locked" in r.said and "permissions" in r.said
    _kept(course, clean)


def test_huge_single_line_file_shows_progress_within_the_file(tmp_path):
    words = ["dados", "paralelismo", "modelo", "gpu", "memória", "rede", "treino", "lote", "réplica"]
    line = " ".join(words[i * 7 % len(words)] for i in range(60000))  # ~420 KB, one line
    (tmp_path / "linha.txt").write_text(line, encoding="utf-8")
    seen = []

    class Seen(Progress):
        def embedding(self, source, done, total):
            seen.append((done, total))

    ws = open_workspace(Settings(home=tmp_path / ".kb"), create=True)
    report = ingest([tmp_path / "linha.txt"], ws.store, ws.embedder, progress=Seen())
    assert report.count("added") == 1 and not report.failed
    n = report.files[0].chunks
    assert n > 256 and seen and seen[-1] == (n, n)  # progress moved inside the one file
    assert all(len(c.text) <= 1100 for c in ws.store.all_chunks())


def test_too_many_sql_variables_reading_ids_of_a_big_file(course, clean):
    """Chroma puts every id of one get() in one SQL statement: 32,766 ids (a 40,000-section file's
    chunks, or a search index over a big store) failed with "too many SQL variables"."""
    from kb.store import open_store

    store = open_store(Settings(home=course / ".kb"))
    ids = [f"absent{i}" for i in range(40000)] + sorted(clean["course/aula1.md"])
    assert set(store.get_vectors(ids)) == set(clean["course/aula1.md"])
    assert {c.id for c in store.get(ids)} == set(clean["course/aula1.md"])
    store.delete([f"absent{i}" for i in range(40000)])
    _kept(course, clean)


@pytest.mark.slow
def test_too_many_sql_variables_one_file_of_33000_sections_does_not_stop_the_ingest(tmp_path):
    """A Markdown file of 33,000 sections (33,000 chunks, over SQLite's 32,766 variables): the file and
    the one after it are ingested, and what the next run reads of the file is read page by page, not in one
    get() of every chunk of it."""
    from kb.store import open_store

    from .helpers import TinyEmbedder

    (tmp_path / "course").mkdir()
    with open(tmp_path / "course" / "a_big.md", "w", encoding="utf-8") as f:
        for i in range(33000):
            f.write(f"# Seção {i}\n\nTexto curto da seção {i} sobre dados.\n\n")
    (tmp_path / "course" / "b_after.md").write_text("# Depois\n\nO arquivo depois do grande.\n", encoding="utf-8")
    store = open_store(Settings(home=tmp_path / ".kb"), TinyEmbedder.id, TinyEmbedder.dim, create=True)
    report = ingest([tmp_path / "course"], store, TinyEmbedder())
    assert [(f.source.rsplit("/", 1)[-1], f.status) for f in report.files] == [("a_big.md", "added"),
                                                                               ("b_after.md", "added")]
    assert report.files[0].chunks > 32766 and store.count() == report.files[0].chunks + 1
    state = store.source_state(tmp_path / "course" / "a_big.md")  # what the next run reads of it
    assert state is not None and state.complete and len(state.ids) == report.files[0].chunks


# --------------------------------------------------------------------------- Chroma server

@pytest.fixture
def server(tmp_path):
    if not CHROMA.exists():
        pytest.skip("the chroma CLI is not installed")
    s = ChromaServer(tmp_path / "chroma-data").start()
    yield s
    s.stop()


def test_server_down_at_start_is_exit_4(tmp_path, monkeypatch):
    from .helpers import refused_port

    make_course(tmp_path / "course")
    monkeypatch.chdir(tmp_path)
    with refused_port() as port:  # no other worker's server can take it meanwhile
        r = kb(["--store", f"http://127.0.0.1:{port}", "ingest", "course"])
    assert r.exit_code == ExitCode.STORE
    err = r.said
    assert "cannot reach the Chroma server at http://127.0.0.1:" in err and "chroma run" in err


def test_server_killed_mid_ingest_then_restarted(server, tmp_path, monkeypatch):
    make_course(tmp_path / "course")
    monkeypatch.chdir(tmp_path)
    settings = Settings(home=tmp_path / ".kb", store_url=server.url)
    ws = open_workspace(settings, create=True)
    calls = []

    def killing_reader(path, max_mb):
        calls.append(path)
        if len(calls) == 2:
            server.kill()  # the server dies after the first file was written
        return read_document(path, max_mb)

    with pytest.raises(StoreError) as e:
        ingest([Path("course")], ws.store, ws.embedder, reader=killing_reader)
    assert e.value.exit_code == ExitCode.STORE
    assert f"lost the connection to the Chroma server at {server.url}" in e.value.message
    assert "restart the server" in e.value.hint
    # the CLI says the same with exit 4
    r = kb(["--store", server.url, "ingest", "course"])
    assert r.exit_code == ExitCode.STORE and "chroma run" in r.said
    server.start()  # same data folder, same port
    r = kb(["--store", server.url, "ingest", "course"])
    assert r.exit_code == 0, r.stderr
    snap = snapshot(tmp_path / ".kb", server.url)
    assert len(snap) == 3 and all(k.startswith("/") for k in snap)  # a server names sources absolutely
    again = kb(["--store", server.url, "ingest", "course"])
    assert "3 unchanged" in again.said
    assert snapshot(tmp_path / ".kb", server.url) == snap


def test_frozen_server_times_out_with_exit_4(server, tmp_path, monkeypatch):
    make_course(tmp_path / "course")
    monkeypatch.chdir(tmp_path)
    assert kb(["--store", server.url, "ingest", "course"]).exit_code == 0
    server.freeze()
    try:
        t0 = time.monotonic()
        r = kb(["--store", server.url, "search", "memória"], env={"KB_STORE_TIMEOUT": "2"})
        took = time.monotonic() - t0
    finally:
        server.thaw()
    assert r.exit_code == ExitCode.STORE and took < 60
    assert "Chroma server" in r.said and server.url in r.said


def test_frozen_server_mid_command(server, tmp_path, monkeypatch):
    make_course(tmp_path / "course")
    monkeypatch.chdir(tmp_path)
    assert kb(["--store", server.url, "ingest", "course"]).exit_code == 0
    # the short timeout only for the frozen call: an ingest on a loaded machine may take longer per call
    monkeypatch.setenv("KB_STORE_TIMEOUT", "2")
    ws = open_workspace(Settings(home=tmp_path / ".kb", store_url=server.url))
    server.freeze()  # our own server (start checked it holds the port), every thread stopped
    try:
        with pytest.raises(StoreError) as e:
            ws.store.count()
    finally:
        server.thaw()
    assert "did not answer in time" in e.value.message and "KB_STORE_TIMEOUT" in e.value.hint


@pytest.fixture
def small_disk(tmp_path):
    """A 30 MB tmpfs (needs root and mount; skipped elsewhere)."""
    import subprocess

    mnt = tmp_path / "disk"
    mnt.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=30m", "tmpfs", str(mnt)],
                                           capture_output=True).returncode != 0:
        pytest.skip("cannot mount a small tmpfs here (needs root)")
    yield mnt
    subprocess.run(["umount", "-l", str(mnt)], capture_output=True)


def test_disk_full_mid_ingest_is_exit_4_and_loses_nothing(small_disk, tmp_path, monkeypatch):
    make_course(tmp_path / "course")
    monkeypatch.chdir(tmp_path)
    home = ["--home", str(small_disk / ".kb")]
    assert kb([*home, "ingest", "course"]).exit_code == 0
    before = snapshot(small_disk / ".kb")
    with open(small_disk / "filler", "wb") as f:  # fill the disk to the last byte
        try:
            while True:
                f.write(b"\0" * (1 << 20))
                f.flush()
        except OSError:
            pass
    for i in range(8):
        (tmp_path / "course" / f"extra{i}.txt").write_text(AULA_EXTRA.format(i=i) * 40, encoding="utf-8")
    r = kb([*home, "ingest", "course"])
    assert r.exit_code == ExitCode.STORE, r.said
    assert "is full" in r.said and "free some space" in r.said and str(small_disk) in r.said
    (small_disk / "filler").unlink()
    after = snapshot(small_disk / ".kb")
    assert all(after.get(k) == v for k, v in before.items())  # nothing stored was lost
    r = kb([*home, "ingest", "course"])
    assert r.exit_code == 0, r.said
    rows = json.loads(kb([*home, "sources", "--json"]).stdout)["sources"]
    assert len(rows) == 11 and all(row["complete"] for row in rows)


AULA_EXTRA = "Extra {i}: o all-reduce em anel envia pedaços do gradiente ao vizinho, passo a passo. "


def test_disk_full_is_a_clear_store_error():
    import errno

    err = backend_failure(OSError(errno.ENOSPC, "No space left on device"), "/x/.kb/chroma")
    assert err is not None and err.exit_code == ExitCode.STORE
    assert "disk holding the knowledge base at /x/.kb/chroma is full" in err.message and "free some space" in err.hint
    sqlite_full = backend_failure(sqlite3.OperationalError("database or disk is full"), "/x/.kb/chroma")
    assert sqlite_full is not None and "is full" in sqlite_full.message


# --------------------------------------------------------------------------- LLM endpoint

def _llm_env(url: str) -> dict[str, str]:
    return {"OPENAI_BASE_URL": url, "KB_LLM_MODEL": "stub", "OPENAI_API_KEY": "k", "KB_LLM_RETRIES": "1",
            "KB_LLM_TIMEOUT": "2"}


HTML = b"<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>"
LLM_FAULTS = {
    "http500": lambda b: Behaviour(status=500),
    "html200": lambda b: Behaviour(raw=HTML, content_type="text/html"),
    "html200_as_json": lambda b: Behaviour(raw=HTML),
    "invalid_json_body": lambda b: Behaviour(raw=b'{"choices": [{"message": '),
    "timeout": lambda b: Behaviour("{}", delay=5.0),
    "not_a_completion": lambda b: Behaviour(raw=b'{"error": "overloaded"}'),
}


@pytest.mark.parametrize("fault", sorted(LLM_FAULTS))
def test_quiz_generate_with_a_failing_llm_is_exit_5_and_writes_nothing(course, fault):
    with OpenAIStub(LLM_FAULTS[fault]) as stub:
        r = kb(["quiz", "generate", "-n", "2", "--types", "short"], env=_llm_env(stub.url))
    err = r.said
    assert r.exit_code == ExitCode.BACKEND, err
    assert stub.url in err and "--offline" in err
    assert "no question written; quizzes/course.json was not written" in err
    assert not (course / "quizzes" / "course.json").exists()


@pytest.mark.parametrize("fault", ["http500", "html200", "invalid_json_body"])
def test_ask_with_a_failing_llm_falls_back_to_the_extractive_answer(course, fault):
    with OpenAIStub(LLM_FAULTS[fault]) as stub:
        r = kb(["ask", "Como limitar a memória da GPU?", "--json"], env=_llm_env(stub.url))
    err = r.said
    assert r.exit_code == 0 and "kb: warning: the LLM at" in err and stub.url in err and "--offline" in err
    answer = json.loads(r.stdout)
    assert answer["method"] == "extractive" and "set_memory_growth" in answer["answer"]
    assert stub.url in answer["warning"]


@pytest.mark.parametrize("fault", ["html200", "invalid_json_body"])
def test_grade_with_a_failing_llm_writes_reports_and_exits_5(course, fault):
    quiz = _quiz(course / "quizzes" / "q.json")
    (course / "replies.csv").write_text("student,question_id,answer\nana,gil,O GIL impede threads em paralelo\n"
                                        "rui,gil,não sei\n", encoding="utf-8")
    with OpenAIStub(LLM_FAULTS[fault]) as stub:
        r = kb(["grade", str(quiz), "replies.csv", "--out", "out"], env=_llm_env(stub.url))
    err = r.said
    assert r.exit_code == ExitCode.BACKEND and "the LLM grader stopped" in err and "--offline" in err
    grades = json.loads((course / "out" / "grades.json").read_text(encoding="utf-8"))
    assert "ana" in json.dumps(grades) and "rui" in json.dumps(grades)


def test_ask_with_a_reply_of_the_wrong_shape(course):
    from ..openai_stub import reply

    with OpenAIStub(lambda b: reply({"answer": ["lista"], "found": "talvez", "cited": 3})) as stub:
        r = kb(["ask", "Como limitar a memória da GPU?", "--json"], env=_llm_env(stub.url))
    assert r.exit_code == 0, (r.said, r.exception)
    assert json.loads(r.stdout)["found"] is False


def test_grade_with_a_grade_of_the_wrong_shape_falls_back_flagged(course):
    from ..openai_stub import reply

    quiz = _quiz(course / "quizzes" / "q.json")
    (course / "replies.csv").write_text("student,question_id,answer\nana,gil,O GIL impede threads em paralelo\n",
                                        encoding="utf-8")
    with OpenAIStub(lambda b: reply({"score": [3], "feedback": {"x": 1}, "present": "threads"})) as stub:
        r = kb(["grade", str(quiz), "replies.csv", "--out", "out"], env=_llm_env(stub.url))
    assert r.exit_code == 0, (r.said, r.exception)
    grades = json.loads((course / "out" / "grades.json").read_text(encoding="utf-8"))
    assert "llm_invalid" in json.dumps(grades)


def _dribbling(body: dict) -> Behaviour:
    # headers at once, then one byte every 50 ms: each read is quick, the whole reply would take ~3 min
    return Behaviour('{"answer": "' + "x" * 3500 + '", "found": true, "cited": [1]}', dribble=0.05)


@pytest.mark.parametrize("command", ["quiz generate", "grade", "ask"])
def test_a_dribbling_reply_ends_at_the_whole_reply_deadline(course, command):
    quiz = _quiz(course / "quizzes" / "q.json")
    (course / "replies.csv").write_text("student,question_id,answer\nana,gil,O GIL impede threads em paralelo\n",
                                        encoding="utf-8")
    args = {"quiz generate": ["quiz", "generate", "-n", "2", "--types", "short"],
            "grade": ["grade", str(quiz), "replies.csv", "--out", "out"],
            "ask": ["ask", "Como limitar a memória da GPU?"]}[command]
    with OpenAIStub(_dribbling) as stub:
        start = time.monotonic()
        r = kb(args, env={**_llm_env(stub.url), "KB_LLM_TIMEOUT": "1", "KB_LLM_RETRIES": "0"})
        took = time.monotonic() - start
    assert "failed 1 time: timed out after 1 s (the whole reply)" in r.said, r.said
    assert took < 90, took  # bounded by KB_LLM_TIMEOUT, not by the server's pace (~3 min a reply)
    expected = {"quiz generate": ExitCode.BACKEND, "grade": ExitCode.BACKEND, "ask": ExitCode.OK}[command]
    assert r.exit_code == expected, r.said
    if command == "grade":
        assert "llm_unavailable" in (course / "out" / "grades.json").read_text(encoding="utf-8")


def test_ctrl_c_during_llm_requests_ends_the_command_and_keeps_the_replies_received(course):
    answered: list[str] = []

    def first_fast_then_hang(body):
        if not answered:
            answered.append(body["messages"][-1]["content"])
            return reply({"questions": []})
        return Behaviour("{}", delay=120)  # the next requests hang: Ctrl-C must not wait for them

    cache = course / ".kb" / "cache" / "llm"
    with OpenAIStub(first_fast_then_hang) as stub:
        env = {**_llm_env(stub.url), "KB_LLM_TIMEOUT": "600", "KB_LLM_CONCURRENCY": "2"}
        # SIGINT ignored at start (nohup, `cmd &`): kb restores Ctrl-C for its LLM commands itself
        p = run_kb_process(["quiz", "generate", "-n", "8", "--types", "short"], course, env=env, ignore_sigint=True)
        try:
            assert wait_until(lambda: len(stub.requests) >= 2 and any(cache.rglob("*.json")), 120), p.poll()
            p.send_signal(signal.SIGINT)
            _, err = p.communicate(timeout=60)  # not the 120 s a hanging request would take
        finally:
            if p.poll() is None:
                p.kill()
                p.communicate()
        assert p.returncode == ExitCode.INTERRUPTED, err
        assert "kb: interrupted" in err and "Traceback" not in err
        assert len(list(cache.rglob("*.json"))) == 1  # the reply received is kept
        sent = len(stub.requests)
        stub.script = lambda b: reply({"questions": []})  # the same endpoint, answering now
        kb(["quiz", "generate", "-n", "8", "--types", "short"], env=_llm_env(stub.url))
    again = [b["messages"][-1]["content"] for b in stub.requests[sent:]]
    assert again and answered[0] not in again  # what was received is not asked again


# --------------------------------------------------------------------------- bad environment values

@pytest.mark.parametrize("var, value", [("KB_LLM_TIMEOUT", "5s"), ("KB_LLM_RETRIES", "abc"),
                                        ("KB_LLM_TIMEOUT", "-1"), ("KB_LLM_RETRIES", "1.5")])
def test_bad_environment_value_is_a_usage_error(tmp_path, monkeypatch, var, value):
    monkeypatch.chdir(tmp_path)
    r = kb(["sources"], env={var: value})
    assert r.exit_code == ExitCode.USAGE
    err = r.said
    assert f"{var}={value!r} is not" in err and f"set {var} to" in err
    assert "Traceback" not in r.stderr and not isinstance(r.exception, ValueError)


def test_bad_lock_wait_value(course):
    r = kb(["ingest", "course"], env={"KB_LOCK_WAIT": "soon"})
    assert r.exit_code == ExitCode.USAGE and "KB_LOCK_WAIT='soon'" in r.said


def test_bad_store_timeout_value(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = kb(["--store", "http://127.0.0.1:9", "sources"], env={"KB_STORE_TIMEOUT": "1m"})
    assert r.exit_code == ExitCode.USAGE and "KB_STORE_TIMEOUT='1m'" in r.said


# --------------------------------------------------------------------------- quiz files

QUESTION = {"id": "gil", "type": "short", "prompt": "O que o GIL impede?",
            "answer": "Que threads Python executem bytecode em paralelo.",
            "citations": [{"source": "course/aula1.md", "locator": "GIL", "chunk_id": "c1", "quote": "q"}],
            "concepts": ["threads", "paralelo"], "difficulty": "medium", "lang": "pt"}
CLOZE = {"id": "cl", "type": "cloze", "prompt": "O _____ sobrepõe preparação e treino.", "answer": "prefetch",
         "citations": [], "concepts": ["prefetch"], "lang": "pt"}


def _quiz(path: Path, **changes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = {"schema": 1, "title": "faults", "created_at": "", "generator": {"kind": "offline"}, "kb": {}, "params": {},
           "questions": [dict(QUESTION), dict(CLOZE)]}
    for k, v in changes.items():
        if k.startswith("q_"):
            doc["questions"][1][k[2:]] = v
        else:
            doc[k] = v
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.mark.parametrize("change, field", [
    ({"q_accepted": 5}, "accepted"),
    ({"q_accepted": "abc"}, "accepted"),
    ({"generator": "offline"}, "generator"),
    ({"kb": [1, 2]}, "kb"),
    ({"q_concepts": "prefetch"}, "concepts"),
    ({"q_lang": ["pt"]}, "lang"),
    ({"q_citations": [{"source": 5}]}, "citations"),
    ({"schema": "1"}, "schema"),
])
def test_quiz_field_of_the_wrong_type_names_file_question_and_field(tmp_path, monkeypatch, change, field):
    monkeypatch.chdir(tmp_path)
    q = _quiz(tmp_path / "quizzes" / "bad.json", **change)
    r = kb(["quiz", "show", str(q)])
    assert r.exit_code == ExitCode.INPUT
    err = r.said
    assert "bad.json" in err and f'"{field}"' in err and "fix:" in err
    if field not in ("generator", "kb", "schema"):
        assert "question cl" in err


def test_deeply_nested_quiz(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "deep.json").write_text("[" * 100000 + "]" * 100000)
    r = kb(["quiz", "show", "deep.json"])
    assert r.exit_code == ExitCode.INPUT and "deep.json" in r.said and "fix:" in r.said


def test_accepted_abc_is_not_three_letters(tmp_path, monkeypatch):
    from kb.quiz import load_quiz

    monkeypatch.chdir(tmp_path)
    good = load_quiz(_quiz(tmp_path / "ok.json", q_accepted=["abc"]))
    assert good.question("cl").accepted == ("abc",)
    r = kb(["quiz", "show", str(_quiz(tmp_path / "bad.json", q_accepted="abc"))])
    assert r.exit_code == ExitCode.INPUT and '"accepted" = "abc"' in r.said


def test_one_bad_quiz_is_skipped_by_progress(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _quiz(tmp_path / "quizzes" / "good.json")
    _quiz(tmp_path / "quizzes" / "bad.json", generator="offline")
    r = kb(["progress", "--json"])
    assert r.exit_code == 0, r.stderr
    assert "skipped quizzes/bad.json" in r.said and '"generator"' in r.said
    assert json.loads(r.stdout)["new"] == 2


def test_one_bad_quiz_is_skipped_by_study(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _quiz(tmp_path / "quizzes" / "good.json")
    _quiz(tmp_path / "quizzes" / "bad.json", q_accepted=5)
    r = kb(["study", "--offline", "--new", "1"], input=":q\n")
    assert r.exit_code == 0, r.stderr
    assert "skipped quizzes/bad.json" in r.said
    assert "O que o GIL impede?" in r.stdout


# --------------------------------------------------------------------------- --source paths

def _chosen(root: Path, *sources: str) -> set[str]:
    from kb.writing.generate import GenerationRequest, choose_passages

    ws = open_workspace(Settings(home=root / ".kb"))
    return {c.source for c in choose_passages(ws, GenerationRequest(n=2, sources=sources), list(ws.store.all_chunks()))}


def test_source_given_as_an_absolute_path_is_found(course):
    assert _chosen(course, str(course / "course" / "aula1.md")) == {"course/aula1.md"}


def test_source_given_through_dot_dot_is_found(course):
    assert _chosen(course, "./course/../course/aula1.md") == {"course/aula1.md"}
    assert _chosen(course, "course/./aula2.txt", "./course/aula3.vtt") == {"course/aula2.txt", "course/aula3.vtt"}


def test_source_relative_to_the_workspace_folder_is_found_from_elsewhere(course, monkeypatch):
    (course / "other").mkdir()
    monkeypatch.chdir(course / "other")
    assert _chosen(course, "course/aula2.txt") == {str(course / "course" / "aula2.txt")}
    assert _chosen(course, "../course/aula2.txt") == {str(course / "course" / "aula2.txt")}


def test_source_that_does_not_exist_never_picks_another_file_of_the_same_name(course):
    for wrong in ("../aula1.md", "aula1.md", "outro/aula1.md"):
        r = kb(["quiz", "generate", "--offline", "-n", "2", "--source", wrong])
        assert r.exit_code == ExitCode.USAGE, (wrong, r.said)
        assert f"--source {wrong}: not in the knowledge base" in r.said
        assert "did you mean --source course/aula1.md?" in r.said
    assert not (course / "quizzes").exists()


# --------------------------------------------------------------------------- read-only workspace, caches

def test_read_only_kb_home_search_and_ask_answer_from_the_cached_index(course):
    from .helpers import read_only

    with read_only(course / ".kb"):
        r = kb(["search", "memória da GPU", "--json"])
        assert r.exit_code == 0, r.said
        assert any(h["source"] == "course/aula1.md" for h in json.loads(r.stdout)["hits"])
        r = kb(["ask", "--offline", "Como limitar a memória da GPU?"])
        assert r.exit_code == 0, r.said


def test_read_only_kb_home_without_a_cached_index_is_reported_read_only(course):
    from .helpers import read_only

    for index in (course / ".kb" / "cache").glob("index-*.pkl"):
        index.unlink()
    with read_only(course / ".kb"):
        for args in (["search", "memória da GPU"], ["ask", "--offline", "Como limitar a memória?"], ["sources"]):
            r = kb(args)
            assert r.exit_code == ExitCode.STORE, (args, r.said)
            assert "the knowledge base at .kb is read-only" in r.said and "chmod -R u+w .kb" in r.said, r.said
            assert "damaged" not in r.said and "Traceback" not in r.stderr


def test_read_only_kb_home_ingest_is_exit_4_and_changes_nothing(course, clean):
    from .helpers import read_only

    (course / "course" / "aula4.md").write_text("# Nova\n\nUma aula nova sobre filas de dados.\n", encoding="utf-8")
    with read_only(course / ".kb"):
        for args in (["ingest", "course"], ["ingest", "--rebuild", "course"]):
            r = kb(args)
            assert r.exit_code == ExitCode.STORE, (args, r.said)
            assert "the knowledge base at .kb is read-only" in r.said and "--home/KB_HOME" in r.said
            assert "damaged" not in r.said
            assert r.exception is None or isinstance(r.exception, SystemExit)  # no traceback
    _kept(course, clean)


def test_read_only_cache_folder_study_still_grades_and_saves(course):
    from .helpers import read_only

    _quiz(course / "quizzes" / "q.json")
    with read_only(course / ".kb" / "cache"):
        r = kb(["study", "--offline", "--new", "1"], input="Que threads executem bytecode em paralelo\n\n:q\n")
    assert r.exit_code == 0, (r.said, r.exception)
    assert "1 answered" in r.said or "1 answered" in r.stdout


@pytest.mark.parametrize("damage", ["not_a_database", "damaged_pages"])
def test_damaged_embedding_cache_is_moved_aside_and_rebuilt(course, clean, damage):
    cache = course / ".kb" / "cache" / "embeddings.sqlite"
    if damage == "not_a_database":
        cache.write_bytes(b"not a database " * 500)  # a bad copy
    else:
        _damage(cache)  # a failing disk: the header reads, the rows do not ("database disk image is malformed")
    assert kb(["search", "memória da GPU"]).exit_code == 0
    (course / "course" / "aula2.txt").write_text(
        (course / "course" / "aula2.txt").read_text(encoding="utf-8") + "\nMais uma frase.\n", encoding="utf-8")
    r = kb(["ingest", "course"])
    assert r.exit_code == 0, r.said
    assert "1 updated" in r.said
    assert [p.name[:len("embeddings.sqlite.damaged-")] for p in cache.parent.glob("embeddings.sqlite.damaged-*")] \
        == ["embeddings.sqlite.damaged-"]
    assert sqlite3.connect(cache).execute("SELECT count(*) FROM vec").fetchone()[0] > 0  # a new, working cache


def test_cache_folder_replaced_by_a_file_is_named_with_the_fix(course, clean):
    shutil.rmtree(course / ".kb" / "cache")
    (course / ".kb" / "cache").write_text("not a folder")
    for args in (["search", "memória da GPU"], ["ingest", "course"]):
        r = kb(args)
        assert r.exit_code == ExitCode.STORE, (args, r.said)
        assert ".kb/cache is a file, not a folder" in r.said and "mv .kb/cache .kb/cache.old" in r.said
    _kept(course, clean)


# --------------------------------------------------------------------------- study database

def _damage(db: Path) -> None:
    """Overwrite the pages after the first with noise (as a failing disk or a bad copy would)."""
    data = bytearray(db.read_bytes())
    page = int.from_bytes(data[16:18], "big") or 65536
    for i in range(page, len(data)):
        data[i] = (i * 131) % 251
    db.write_bytes(bytes(data))


def _studied(root: Path) -> Path:
    from kb.quiz import load_quiz
    from kb.study import Item, StudyDB

    q = load_quiz(_quiz(root / "quizzes" / "q.json"))
    db = StudyDB(root / ".kb" / "study.sqlite")
    db.record(Item(q.question("cl"), "q"), Grade("cl", 3, 1.0, "correct", "ok"), "prefetch")
    db._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    _damage(root / ".kb" / "study.sqlite")
    return root / ".kb" / "study.sqlite"


def test_damaged_study_db_progress_says_so(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _studied(tmp_path)
    r = kb(["progress"])
    assert r.exit_code == ExitCode.STORE
    err = r.said
    assert "study.sqlite: the study database is damaged" in err and "run kb study" in err


def test_damaged_study_db_is_repaired_and_the_answer_saved(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    db = _studied(tmp_path)
    r = kb(["study", "--offline", "--new", "5"], input="Impede threads em paralelo\n\n\n:q\n")
    assert r.exit_code == 0, (r.stderr, r.exception)
    err = r.said
    assert "study.sqlite was damaged" in err and "moved the damaged file to" in err
    assert list(db.parent.glob("study.sqlite.damaged-*"))
    con = sqlite3.connect(db)
    replies = [row[0] for row in con.execute("SELECT reply FROM reviews")]
    assert "Impede threads em paralelo" in replies
    assert kb(["progress", "--json"]).exit_code == 0


def test_study_db_damaged_mid_session_keeps_the_answer(tmp_path):
    from kb.quiz import load_quiz
    from kb.study import Item, StudyDB

    q = load_quiz(_quiz(tmp_path / "quizzes" / "q.json"))
    path = tmp_path / ".kb" / "study.sqlite"
    db = StudyDB(path)  # the session has the database open ...
    for i in range(40):
        db.record(Item(q.question("cl"), "q"), Grade("cl", 3, 1.0, "correct", "ok"), f"prefetch {i}")
    db._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    _damage(path)  # ... when the file is damaged under it
    db.record(Item(q.question("gil"), "q"), Grade("gil", 2, 0.6, "partial", "ok"), "minha resposta")
    assert "was damaged" in db.repaired and list(path.parent.glob("study.sqlite.damaged-*"))
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA quick_check").fetchall() == [("ok",)]
    replies = [r[0] for r in con.execute("SELECT reply FROM reviews")]
    assert replies.count("minha resposta") == 1  # saved once, not lost, not twice


# --------------------------------------------------------------------------- grading input and output

def test_a_128_kb_reply_does_not_stop_the_class(course):
    quiz = _quiz(course / "quizzes" / "q.json")
    long_reply = "O GIL impede threads em paralelo. " * 4000  # ~136 KB in one CSV field
    (course / "replies.csv").write_text(f'student,question_id,answer\nana,gil,"{long_reply}"\nrui,cl,prefetch\n',
                                        encoding="utf-8")
    r = kb(["grade", str(quiz), "replies.csv", "--out", "out", "--offline"])
    assert r.exit_code == 0, r.stderr
    text = (course / "out" / "grades.json").read_text(encoding="utf-8")
    assert "ana" in text and "rui" in text


def test_out_naming_a_file(course):
    quiz = _quiz(course / "quizzes" / "q.json")
    (course / "replies.csv").write_text("student,question_id,answer\nrui,cl,prefetch\n", encoding="utf-8")
    (course / "grades.csv").write_text("earlier grades\n")
    for out in ("grades.csv", "novo.csv"):
        r = kb(["grade", str(quiz), "replies.csv", "--out", out, "--offline"])
        assert r.exit_code == ExitCode.INPUT
        assert f"--out {out}: names a file" in r.said and "give a folder" in r.said
    assert (course / "grades.csv").read_text() == "earlier grades\n"


def test_files_follow_the_umask(course):
    quiz = _quiz(course / "quizzes" / "q.json")
    (course / "replies.csv").write_text("student,question_id,answer\nrui,cl,prefetch\n", encoding="utf-8")
    old = os.umask(0o022)
    try:
        r = kb(["grade", str(quiz), "replies.csv", "--out", "out", "--offline"])
    finally:
        os.umask(old)
    assert r.exit_code == 0, r.stderr
    for name in ("grades.csv", "grades.md", "grades.json"):
        assert stat.S_IMODE((course / "out" / name).stat().st_mode) == 0o644, name


def test_sigterm_outside_the_commands_work_still_exits_130():
    """SIGTERM that lands once the command's own handler is gone (its work done, the report being
    written) ends kb with 130, not the default action's -15 (a stand-in for that moment, in a child)."""
    code = ("import os, signal, time\n"
            "from kb import cli\n"
            "def done_and_reporting():\n"
            "    os.kill(os.getpid(), signal.SIGTERM)\n"
            "    time.sleep(30)\n"
            "cli.app = done_and_reporting\n"
            "cli.run()\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == ExitCode.INTERRUPTED, (r.returncode, r.stderr)


# --------------------------------------------------------------------------- calibration files

@pytest.mark.parametrize("content, why", [
    ("[" * 100000 + "]" * 100000, "nested too deeply to read"),
    ('{"schema": 2, "cuts": [NaN, 1, 2]}', "'cuts' must be three increasing finite numbers"),
    ('{"schema": 2, "cuts": [0.5, 1, Infinity]}', "'cuts' must be three increasing finite numbers"),
    ('{"schema": 2, "cuts": [0.5, 1, 2], "offsets": {"cl": NaN}}', "'offsets' must map question ids to finite"),
], ids=["nested_100000_deep", "nan_cut", "infinite_cut", "nan_offset"])
def test_bad_calibration_file_is_exit_3_for_grade_and_a_note_for_study(tmp_path, monkeypatch, content, why):
    monkeypatch.chdir(tmp_path)
    quiz = _quiz(tmp_path / "quizzes" / "q.json")
    (tmp_path / "quizzes" / "q.calibration").write_text(content, encoding="utf-8")
    (tmp_path / "replies.csv").write_text("student,question_id,answer\nrui,cl,prefetch\n", encoding="utf-8")
    r = kb(["grade", str(quiz), "replies.csv", "--out", "out", "--offline"])
    assert r.exit_code == ExitCode.INPUT, (r.said, r.exception)
    assert f"quizzes/q.calibration: not a kb calibration ({why}" in r.said and "delete it, or refit it" in r.said
    assert not (tmp_path / "out").exists()  # nothing graded at a level nobody chose
    r = kb(["study", "--offline", "--new", "1"], input=":q\n")
    assert r.exit_code == 0, (r.said, r.exception)  # study grades at the default level and says so
    assert "q.calibration: not a kb calibration" in r.said and "default grading level used" in r.said


# --------------------------------------------------------------------------- terminal escape codes

EVIL = "\x1b[31m\u202e"  # colour red, then right-to-left override: obeyed if written raw


def _raw_codes(text: str) -> bool:
    return "\x1b" in text or "\u202e" in text


def test_escape_codes_in_a_quiz_prompt_are_shown_escaped(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    quiz = _quiz(tmp_path / "quizzes" / "q.json", q_prompt=f"O {EVIL}_____ sobrepõe preparação e treino.")
    r = kb(["quiz", "show", str(quiz)])
    assert r.exit_code == 0 and not _raw_codes(r.stdout)
    assert "O \\x1b[31m\\u202e_____ sobrepõe" in r.stdout  # shown, visibly, not hidden
    r = kb(["study", "--offline", "--new", "5"], input="x\n\n\n:q\n")
    assert r.exit_code == 0, (r.said, r.exception)
    assert not _raw_codes(r.stdout + r.stderr) and "O \\x1b[31m\\u202e_____ sobrepõe" in r.stdout


def test_escape_codes_in_a_file_name_are_shown_escaped(course):
    from typer.testing import CliRunner

    from kb.cli import app

    (course / "course" / f"aula{EVIL}4.md").write_text("# Prefetch\n\nO prefetch de tf.data sobrepõe lotes.\n",
                                                       encoding="utf-8")
    (course / "course" / f"vazio{EVIL}.md").write_text("", encoding="utf-8")
    shown = "aula\\x1b[31m\\u202e4.md"
    r = CliRunner().invoke(app, ["ingest", "course"], env={"COLUMNS": "200"})  # the table, not --json
    assert r.exit_code == ExitCode.FAILED and not _raw_codes(r.stdout + r.stderr)
    assert shown in r.stderr and "vazio\\x1b[31m\\u202e.md" in r.stderr
    r = kb(["sources"])
    assert r.exit_code == 0 and not _raw_codes(r.stdout) and shown in r.stdout
    r = kb(["search", "prefetch tf.data sobrepõe lotes"])
    assert r.exit_code == 0 and not _raw_codes(r.stdout) and shown in r.stdout


# --------------------------------------------------------------------------- unreadable and oddly named files

def test_permission_error_on_a_file_names_it_and_the_fix(course, clean):
    import errno

    def denying(path, max_mb):  # what the reader meets on a file it may not open (also as root, here)
        if path.name == "aula2.txt":
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return read_document(path, max_mb)

    (course / "course" / "aula2.txt").write_text(AULA_EXTRA.format(i=1), encoding="utf-8")  # changed: re-read
    ws = open_workspace(Settings(home=course / ".kb"))
    report = ingest([Path("course")], ws.store, ws.embedder, reader=denying)
    [failed] = [f for f in report.files if f.status == "failed"]
    assert failed.source == "course/aula2.txt"
    assert failed.message == "course/aula2.txt: cannot read (Permission denied)"
    assert "chmod u+r 'course/aula2.txt'" in failed.hint and "--traceback" not in failed.hint
    assert snapshot(course / ".kb") == clean  # the old chunks of the unreadable file are kept


@not_root
def test_unreadable_file_is_a_permission_message_not_a_bug_report(course, clean):
    (course / "course" / "aula2.txt").chmod(0)
    try:
        r = kb(["ingest", "course"])
    finally:
        (course / "course" / "aula2.txt").chmod(0o644)
    assert r.exit_code == ExitCode.FAILED
    assert "aula2.txt" in r.said and "permission" in r.said.lower() and "--traceback" not in r.said
    _kept(course, clean)


def test_non_utf8_file_name_is_named_with_its_bytes_and_the_fix(course, clean):
    name = os.fsencode(course / "course") + b"/caf\xe9.md"  # Latin-1 bytes, as from an old zip
    with open(name, "w", encoding="utf-8") as f:
        f.write("# Café\n\nO prefetch sobrepõe lotes.\n")
    r = kb(["ingest", "course"])
    assert r.exit_code == ExitCode.FAILED, r.said
    assert "course/caf\\xe9.md: failed; course/caf\\xe9.md: the file name is not UTF-8" in r.said
    assert "rename the file" in r.said and "--traceback" not in r.said and "3 unchanged" in r.said
    _kept(course, clean)


# --------------------------------------------------------------------------- output paths

@pytest.mark.parametrize("fmt", ["md", "moodle", "anki"])
def test_export_o_naming_a_folder(tmp_path, monkeypatch, fmt):
    monkeypatch.chdir(tmp_path)
    quiz = _quiz(tmp_path / "quizzes" / "q.json")
    (tmp_path / "out").mkdir()
    r = kb(["quiz", "export", str(quiz), "--format", fmt, "-o", "out"])
    assert r.exit_code == ExitCode.INPUT, (r.said, r.exception)
    ext = {"md": "md", "moodle": "xml", "anki": "apkg"}[fmt]
    assert "-o out: is a folder, and this writes one file" in r.said and f"-o out/q.{ext}" in r.said
    assert list((tmp_path / "out").iterdir()) == []


def test_generate_o_naming_a_folder(course):
    (course / "out").mkdir()
    for extra in ([], ["--force"]):
        r = kb(["quiz", "generate", "-n", "2", "--offline", "-o", "out", *extra])
        assert r.exit_code == ExitCode.INPUT, (r.said, r.exception)
        assert "--out out: is a folder" in r.said and "--out out/quiz.json" in r.said
    assert list((course / "out").iterdir()) == []


def test_export_to_a_read_only_folder(tmp_path, monkeypatch):
    from .helpers import read_only

    monkeypatch.chdir(tmp_path)
    quiz = _quiz(tmp_path / "quizzes" / "q.json")
    (tmp_path / "shared").mkdir()
    with read_only(tmp_path / "shared"):
        for target in ("shared/q.xml", "shared/sub/q.xml"):  # the folder, or one to be made in it
            r = kb(["quiz", "export", str(quiz), "--format", "moodle", "-o", target])
            assert r.exit_code == ExitCode.INPUT, (r.said, r.exception)
            assert f"-o {target}: cannot write in shared" in r.said and "choose a folder you can write to" in r.said


def test_generate_into_a_read_only_folder(course):
    from .helpers import read_only

    (course / "quizzes").mkdir()
    with read_only(course / "quizzes"):
        r = kb(["quiz", "generate", "-n", "2", "--offline"])  # the default, quizzes/course.json
        assert r.exit_code == ExitCode.INPUT, (r.said, r.exception)
        assert "--out quizzes/course.json: cannot write in quizzes" in r.said and "chmod u+w" in r.said


# --------------------------------------------------------------------------- study database: read-only, locked, Ctrl-C

def _healthy_study_db(root: Path) -> Path:
    from kb.quiz import load_quiz
    from kb.study import Item, StudyDB

    q = load_quiz(_quiz(root / "quizzes" / "q.json"))
    db = StudyDB(root / ".kb" / "study.sqlite")
    db.record(Item(q.question("cl"), "q"), Grade("cl", 3, 1.0, "correct", "ok"), "prefetch")
    db.close()
    return root / ".kb" / "study.sqlite"


def test_read_only_study_db_is_not_damaged_nor_replaced(tmp_path, monkeypatch):
    from .helpers import read_only

    monkeypatch.chdir(tmp_path)
    db = _healthy_study_db(tmp_path)
    before = db.read_bytes()
    with read_only(db):
        r = kb(["study", "--offline", "--new", "5"], input="Impede threads em paralelo\n\n\n:q\n")
        assert r.exit_code == ExitCode.STORE, (r.said, r.exception)
        assert "study.sqlite: the study database cannot be written: the file or its folder is read-only" in r.said
        assert "damaged" not in r.said and "chmod u+w" in r.said
        r = kb(["progress", "--json"])  # reading it needs no write to the file itself
        assert r.exit_code == 0, r.said
        assert json.loads(r.stdout)["reviews"] == 1
    assert not list(db.parent.glob("study.sqlite.damaged-*")) and db.read_bytes() == before


def test_progress_and_study_on_a_read_only_workspace_say_read_only(tmp_path, monkeypatch):
    from .helpers import read_only

    monkeypatch.chdir(tmp_path)
    db = _healthy_study_db(tmp_path)
    before = db.read_bytes()
    with read_only(tmp_path / ".kb"):
        for args, fix in ((["progress"], "-wal and -shm"), (["study", "--offline"], "kb study saves every answer")):
            r = kb(args, input=":q\n")
            assert r.exit_code == ExitCode.STORE, (args, r.said, r.exception)
            assert "the study database cannot be written: the file or its folder is read-only" in r.said
            assert "damaged" not in r.said and fix in r.said and "--home" in r.said
    assert sorted(p.name for p in db.parent.iterdir()) == ["study.sqlite"] and db.read_bytes() == before


def test_study_db_locked_by_another_process_keeps_the_answer(tmp_path):
    db = _healthy_study_db(tmp_path)
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another process writing, for longer than kb's 10 s busy timeout
    p = run_kb_process(["study", "--offline", "--new", "5"], tmp_path, stdin=subprocess.PIPE)
    assert p.stdin is not None and p.stdout is not None
    p.stdin.write("Impede threads em paralelo\n\n")
    p.stdin.flush()
    seen = ""
    while "locked by another process" not in seen:  # bounded: readline ends at EOF
        line = p.stdout.readline()
        if not line:
            break
        seen += line
    holder.execute("ROLLBACK")  # the other process is done: Enter tries again
    holder.close()
    out, err = p.communicate("\nq\n", timeout=120)
    assert "locked by another process" in seen, (seen + out, err)
    assert p.returncode == 0, (seen + out, err)
    replies = [r[0] for r in sqlite3.connect(db).execute("SELECT reply FROM reviews")]
    assert replies.count("Impede threads em paralelo") == 1  # saved once, not lost


def test_study_db_locked_to_the_end_is_exit_4_with_the_answer_shown(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    db = _healthy_study_db(tmp_path)
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        r = kb(["study", "--offline", "--new", "5"], input="Impede threads em paralelo\n\nq\n")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert r.exit_code == ExitCode.STORE, (r.said, r.exception)
    assert "study.sqlite: the study database is locked by another process" in r.said
    assert "was not saved (it was: 'Impede threads em paralelo')" in r.said and "close the other kb study" in r.said


def test_ctrl_c_in_study_exits_130(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    _quiz(tmp_path / "quizzes" / "q.json")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KB_", "OPENAI_"))}
    env.update({"PYTHONPATH": str(ROOT), "COLUMNS": "100"})
    # the child starts with SIGINT at its default, whatever the CI runner left (it may ignore it)
    child = pexpect.spawn(os.sys.executable, ["-m", "kb.cli", "study", "--offline"], cwd=str(tmp_path), env=env,
                          encoding="utf-8", timeout=60, use_poll=True,
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    child.expect("O que o GIL impede")
    child.expect("> ")
    child.sendintr()  # Ctrl-C, as typed on the terminal
    child.expect(pexpect.EOF, timeout=30)
    child.close()
    assert child.exitstatus == ExitCode.INTERRUPTED, (child.exitstatus, child.signalstatus, child.before)


def test_escape_codes_in_a_quiz_exported_to_the_terminal_are_shown_escaped(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    quiz = _quiz(tmp_path / "quizzes" / "q.json", q_prompt=f"O {EVIL}_____ sobrepõe preparação e treino.")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KB_", "OPENAI_"))}
    env.update({"PYTHONPATH": str(ROOT), "NO_COLOR": "1"})
    child = pexpect.spawn(os.sys.executable, ["-m", "kb.cli", "quiz", "export", str(quiz)], cwd=str(tmp_path),
                          env=env, encoding="utf-8", timeout=60, use_poll=True)
    child.expect(pexpect.EOF)
    child.close()
    shown = child.before
    # Markdown escapes the '[' (kb's export escapes what Markdown would read as syntax), then the terminal shows
    # the escape code itself as text
    assert child.exitstatus == 0 and "O \\x1b\\[31m\\u202e_____ sobrepõe" in shown and not _raw_codes(shown)
    r = kb(["quiz", "export", str(quiz)])  # piped: the data as it is
    assert f"O {EVIL}_____ sobrepõe".replace("[", "\\[") in r.stdout  # the codes as they are, Markdown-escaped
