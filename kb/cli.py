"""The ``kb`` command line: parse options, open the workspace, call one library
function, render the result. Heavy imports happen inside the commands."""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import Callable, List, Optional

import typer

from .config import Settings
from .errors import ExitCode, KbError

app = typer.Typer(
    name="kb",
    help="Turn a course's materials into a searchable knowledge base, exercises and grades.\n\n"
    "Example: kb ingest sources/ && kb search \"como limitar a memória da GPU?\"",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
eval_app = typer.Typer(help="Measure retrieval quality.\n\nExample: kb eval retrieval eval/queries.jsonl",
                       no_args_is_help=True)
app.add_typer(eval_app, name="eval")


class State:
    settings: Settings = Settings()
    traceback: bool = False


def _version(value: bool) -> None:
    if value:
        from . import __version__

        typer.echo(f"kb {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    home: Optional[Path] = typer.Option(None, "--home", help="Workspace folder (default .kb, env KB_HOME)."),
    store: Optional[str] = typer.Option(None, "--store", help="Chroma server URL, e.g. http://127.0.0.1:8000 (env KB_STORE_URL)."),
    traceback: bool = typer.Option(False, "--traceback", help="Show the full stack on errors (for bug reports)."),
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version."),
) -> None:
    """Turn a course's materials into a searchable knowledge base, exercises and grades.

    Example: kb ingest sources/ && kb search "como limitar a memória da GPU?"
    """
    State.settings = Settings.from_env(home=home, store_url=store)
    State.traceback = traceback


def boundary(fn: Callable) -> Callable:
    """Turn domain errors into one short message and an exit code; --traceback shows the stack."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except KbError as e:
            if State.traceback:
                raise
            from . import ui

            ui.error(e.message, e.hint)
            raise typer.Exit(int(e.exit_code))
        except KeyboardInterrupt:
            sys.stderr.write("kb: interrupted\n")
            raise typer.Exit(int(ExitCode.INTERRUPTED))

    return wrapper


@app.command()
@boundary
def ingest(
    paths: List[Path] = typer.Argument(..., help="Files or folders (PDF, Markdown, text, VTT/SRT, HTML)."),
    embedder: Optional[str] = typer.Option(None, "--embedder", "-e", help="use-m3 (default) or st:<model name or path>."),
    rebuild: bool = typer.Option(False, "--rebuild", help="Drop the store and re-embed everything (e.g. after changing embedder)."),
    keep_missing: bool = typer.Option(False, "--keep-missing", help="Keep chunks of files deleted from the ingested folders."),
    max_mb: float = typer.Option(20.0, "--max-mb", help="Skip files larger than this many MB, with a message."),
    json_out: bool = typer.Option(False, "--json", help="Print the report as JSON on stdout."),
) -> None:
    """Add course materials to the knowledge base; re-run any time: only changed files are redone.

    Files deleted from an ingested folder are removed from the store (--keep-missing keeps them).
    A file that cannot be read is reported with its fix; the others are still ingested and the
    command exits with code 1.

    Example: kb ingest sources/
    """
    from . import ui
    from .ingest import ingest as run_ingest
    from .workspace import open_workspace

    ws = open_workspace(State.settings, embedder, create=True, rebuild=rebuild)
    progress = ui.IngestProgress()
    try:
        report = run_ingest(paths, ws.store, ws.embedder, prune=not keep_missing, max_mb=max_mb, progress=progress)
    finally:
        progress.stop()
    if json_out:
        ui.print_json(report.to_json())
    else:
        ui.ingest_summary(report)
    if report.interrupted:
        ui.message("interrupted: what was written is consistent; run the same command again to finish")
        raise typer.Exit(int(ExitCode.INTERRUPTED))
    if report.failed:
        raise typer.Exit(int(ExitCode.FAILED))


@app.command()
@boundary
def sources(json_out: bool = typer.Option(False, "--json", help="Print the list as JSON on stdout.")) -> None:
    """List what is in the knowledge base: files, kind, chunks, language, when ingested.

    Example: kb sources
    """
    from . import ui
    from .store import open_store

    store = open_store(State.settings)
    rows = store.sources()
    if json_out:
        ui.print_json({"store": store.info, "sources": rows})
    elif not rows:
        ui.message("the knowledge base is empty: run kb ingest sources/")
    else:
        ui.sources_table(rows)


@app.command()
@boundary
def search(
    query: str = typer.Argument(..., help="What to look for, in any of the course's languages."),
    k: int = typer.Option(5, "-k", help="How many passages to show."),
    mode: str = typer.Option("hybrid", "--mode", help="hybrid (default), dense or bm25."),
    json_out: bool = typer.Option(False, "--json", help="Print hits as JSON on stdout."),
) -> None:
    """Find passages with citations (file + page, heading, or lecture timestamps).

    Example: kb search "como limitar a memória da GPU?" -k 5
    """
    from . import ui
    from .workspace import open_workspace

    ws = open_workspace(State.settings)
    hits = ws.retriever.search(query, k=k, mode=mode)
    if json_out:
        ui.print_json({"query": query, "mode": mode, "hits": [h.to_json() for h in hits]})
    else:
        ui.hits(hits, query)


@eval_app.command("retrieval")
@boundary
def eval_retrieval(
    queries: Path = typer.Argument(..., help="JSONL: one {\"query\": ..., \"evidence\": [phrases]} per line."),
    k: int = typer.Option(10, "-k", help="Depth for MRR@k (hit@1, hit@5 and MRR@10 are always reported)."),
    mode: str = typer.Option("hybrid", "--mode", help="hybrid, dense, bm25, or all to compare them."),
    json_out: bool = typer.Option(False, "--json", help="Print one JSON object on stdout."),
) -> None:
    """Score retrieval on a query set: hit@1, hit@5 and MRR@10.

    Example: kb eval retrieval eval/queries.jsonl --mode all
    """
    from . import ui
    from .evaluate import evaluate_retrieval, load_queries
    from .search import MODES
    from .workspace import open_workspace

    qs = load_queries(queries)
    ws = open_workspace(State.settings)
    modes = MODES if mode == "all" else (mode,)
    results = [evaluate_retrieval(ws.retriever, qs, k=k, mode=m) for m in modes]
    if json_out:
        ui.print_json(results[0] if len(results) == 1 else {"results": results})
    else:
        ui.retrieval_table(results)


def run() -> None:
    """Console-script entry point."""
    app()


if __name__ == "__main__":
    run()
