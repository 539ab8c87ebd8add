"""What the knowledge base holds and answers, on the terminal: ingest's report, ``kb sources``, search
hits, ``kb ask``'s answer, and the retrieval and ask evaluations.
"""

from __future__ import annotations

from typing import Sequence

from .ui_console import error, message, print_json, stderr, stdout


def ingest_summary(report) -> None:
    """Print an ``IngestReport`` to stderr: one row per file (failures with their hint), then the counts."""
    from rich.table import Table

    from .i18n import _, ngettext, text

    table = Table(title="kb ingest", title_justify="left")
    for col in (_("file"), _("status"), _("kind"), _("chunks"), _("note")):
        table.add_column(col, overflow="fold")
    style = {"failed": "red", "added": "green", "updated": "cyan", "removed": "magenta", "unchanged": "dim"}
    word = {"failed": _("failed"), "added": _("added"), "updated": _("updated"), "removed": _("removed"),
            "unchanged": _("unchanged")}
    for f in report.files:
        if f.status == "failed":  # the error in the interface language (--json keeps the English)
            msg, hint = f.error.localized() if f.error is not None else (f.message, f.hint)
            note = msg.split(": ", 1)[-1] + (f" — {hint}" if hint else "")
        else:
            note = text(f.message)
        table.add_row(f.source, word.get(f.status, f.status), f.kind, str(f.chunks) if f.chunks else "", note,
                      style=style.get(f.status))
    con = stderr()
    con.print(table)
    counts = {"added": ngettext("{n} added", "{n} added", report.count("added")),
              "updated": ngettext("{n} updated", "{n} updated", report.count("updated")),
              "unchanged": ngettext("{n} unchanged", "{n} unchanged", report.count("unchanged")),
              "removed": ngettext("{n} removed", "{n} removed", report.count("removed")),
              "failed": ngettext("{n} failed", "{n} failed", report.count("failed"))}
    done = ", ".join(text.format(n=report.count(s)) for s, text in counts.items() if report.count(s))
    con.print((done or _("nothing to do")) + "; "
              + ngettext("{n} chunk embedded", "{n} chunks embedded", report.embedded).format(n=report.embedded)
              + ", " + _("{n} reused").format(n=report.cached), markup=False)


def ingest_result(result, json_out: bool = False) -> None:
    """Render `KB.ingest`'s result: notes, the report (table or JSON), how a rebuild or an
    interruption ended."""
    from .i18n import _, text

    report = result.value
    for note in result.notes:
        message(f"kb: {text(note)}", "yellow")
    print_json(report.to_json()) if json_out else ingest_summary(report)
    if report.rebuild.startswith("not"):
        error(_("rebuild {outcome}; the knowledge base was left as it was").format(outcome=report.rebuild),
              _("fix or remove the failing paths and run the same command again"))
    elif report.rebuild:
        message(_("rebuild applied ({n} chunks of other sources carried over)").format(n=report.carried))
    if report.interrupted:
        message(_("interrupted: what was written is consistent; run the same command again to finish"))


def sources_table(rows: Sequence[dict]) -> None:
    """Print ``kb sources`` rows (from ``ChromaStore.sources``) as a table on stdout."""
    from rich.table import Table

    from .i18n import _

    table = Table()
    for col in (_("source"), _("kind"), _("chunks"), _("lang"), _("ingested (UTC)"), _("state")):
        table.add_column(col, overflow="fold")
    kinds = {"pdf": "pdf", "markdown": "markdown", "html": "html", "text": _("text"), "transcript": _("transcript")}
    for r in rows:
        langs = " ".join(f"{k}:{v}" for k, v in r["langs"].items()) if len(r["langs"]) > 1 else r["lang"]
        table.add_row(r["source"], kinds.get(r["kind"], r["kind"]), str(r["chunks"]), langs,
                      (r["ingested_at"] or "")[:19].replace("T", " "),
                      "ok" if r["complete"] else _("incomplete — re-run kb ingest"))
    stdout().print(table)


def hits(hits_: Sequence, width: int = 700) -> None:
    """Print search hits on stdout: rank, citation, relevance and the passage cut at ``width`` characters."""
    from rich.markup import escape

    from .i18n import _

    con = stdout()
    if not hits_:
        con.print(_("no passages found"), markup=False)
        return
    for h in hits_:
        text = h.chunk.text if len(h.chunk.text) <= width else h.chunk.text[:width].rsplit(" ", 1)[0] + " …"
        con.print(f"[bold][{h.rank}][/bold] [cyan]{escape(h.chunk.citation())}[/cyan]  "
                  f"[dim]{escape(_('relevance {score:.2f}').format(score=h.score))}[/dim]")
        con.print(escape(text))
        con.print()


def retrieval_table(results: Sequence[dict]) -> None:
    """Print ``kb eval retrieval`` results, one row per mode with hit@1, hit@5 and MRR@10."""
    from rich.table import Table

    from .i18n import _

    table = Table()
    for col in (_("mode"), "n", "hit@1", "hit@5", "MRR@10"):
        table.add_column(col, justify="right" if col != _("mode") else "left")
    for r in results:
        table.add_row(r["mode"], str(r["n"]), f"{r['hit@1']:.3f}", f"{r['hit@5']:.3f}", f"{r['mrr@10']:.3f}")
    stdout().print(table)


def ask_eval(r: dict) -> None:
    """Print ``kb eval ask`` results: one row per split and for all, then each answer not judged correct."""
    from rich.markup import escape
    from rich.table import Table

    from .i18n import _

    table = Table()
    cols = (_("questions"), "n", _("correct"), _("partly"), _("wrong"), _("not found"), _("quoted"),
            _("page hit@1"), _("page hit@5"))
    for i, col in enumerate(cols):
        table.add_column(col, justify="right" if i else "left")
    rows = [*r["splits"].items(), (_("all"), r)]
    for name, s in rows:
        table.add_row(name, str(s["n"]), *(f"{s[key]:.0%}" for key in (
            "correct", "partly", "wrong", "not_found", "quoted", "page_hit@1", "page_hit@5")))
    stdout().print(table)
    verdicts = {"correct": _("correct"), "partly": _("partly"), "wrong": _("wrong")}
    for q in r["questions"]:
        if q["verdict"] != "correct":
            why = _("expected {expected}; evidence {held}/{evidence}; cited {cited}").format(
                expected=q["expected"], held=q["evidence_held"], evidence=q["evidence"],
                cited=", ".join(q["cited"]) or "-")
            stdout().print(f"  {escape('[' + verdicts.get(q['verdict'], q['verdict']) + ']')} {escape(q['question'])}  "
                           f"[dim]({escape(why)})[/dim]")


def answer(ans) -> None:
    """Print an ``ask`` answer on stdout, then each retrieved passage, marked ``*`` when the answer cites it."""
    from rich.markup import escape

    con = stdout()
    con.print(escape(ans.text))
    con.print()
    for h in ans.hits:
        used = "*" if h.rank in ans.cited else " "
        con.print(f"{used}[{h.rank}] [cyan]{escape(h.chunk.citation())}[/cyan]")
        snippet = " ".join(h.chunk.text.split())
        con.print(f"     [dim]{escape(snippet[:220] + (' …' if len(snippet) > 220 else ''))}[/dim]")
