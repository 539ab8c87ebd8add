"""Terminal rendering with rich. Services never import this; the CLI does.

Messages and progress go to stderr; data goes to stdout. Colour follows rich's rules
(off when piped or when ``NO_COLOR`` is set); progress bars only on a terminal.
"""

from __future__ import annotations

import json
import sys
from typing import Any, Sequence

_console_class: Any = None


def _console(**options: Any):
    """A rich Console whose every string (printed, in a table cell, a rule's title) passes through
    :func:`kb.text.visible` first: a file name, quiz prompt or passage holding ``ESC[31m`` or RLO
    (U+202E) is shown escaped, never obeyed by the terminal. The one place text meets the terminal."""
    global _console_class
    if _console_class is None:
        from rich.console import Console

        from .text import visible

        class ShownConsole(Console):
            def render_str(self, text: str, **kwargs: Any):
                return super().render_str(visible(text), **kwargs)

        _console_class = ShownConsole
    return _console_class(**options)


def stdout():
    """A rich console on stdout, for data: no soft wrapping and no syntax highlighting of numbers."""
    return _console(soft_wrap=False, highlight=False)


def stderr():
    """A rich console on stderr, for messages, warnings and progress."""
    return _console(stderr=True, highlight=False)


def print_json(obj: Any) -> None:
    """Write ``obj`` to stdout as indented JSON, non-ASCII kept as is (what every ``--json`` prints)."""
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, indent=2) + "\n")


def message(text: str, style: str = "") -> None:
    """Print one message line to stderr, in ``style`` (rich markup in ``text`` is not interpreted)."""
    stderr().print(text, style=style or None, markup=False)


def error(msg: str, hint: str = "") -> None:
    """Print ``kb: error: MSG`` to stderr, then ``fix: HINT`` on its own line when there is a hint."""
    from .i18n import _

    con = stderr()
    con.print(_("kb: error: {message}").format(message=msg), style="bold red", markup=False)
    if hint:
        con.print("  " + _("fix: {hint}").format(hint=hint), style="yellow", markup=False)


class IngestProgress:
    """A rich progress bar on a terminal; silent when stderr is not one."""

    def __init__(self) -> None:
        self._progress: Any = None  # a rich Progress once started (rich imported lazily)
        self._task: Any = None

    def start(self, total_files: int) -> None:
        """Show a bar of ``total_files`` files; does nothing when stderr is not a terminal or there is nothing to do."""
        if not sys.stderr.isatty() or total_files == 0:
            return
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self._progress = Progress(TextColumn("ingest"), BarColumn(), MofNCompleteColumn(),
                                  TimeElapsedColumn(), TextColumn("{task.description}"),
                                  console=stderr(), transient=True)
        self._progress.start()
        self._task = self._progress.add_task("", total=total_files)

    def file_done(self, result) -> None:
        """Advance the bar by one file and show the end of its name (``result`` is a ``FileResult``)."""
        if self._progress is not None:
            self._progress.update(self._task, advance=1, description=_shown(result.source[-40:]))

    def embedding(self, source: str, done: int, total: int) -> None:
        """Show how many of one file's chunks are embedded, so a huge file shows progress within it."""
        if self._progress is not None:
            from .i18n import _

            self._progress.update(self._task, description=_shown(_("{source}: {done}/{total} chunks embedded").format(
                source=source[-40:], done=done, total=total)))

    def stop(self) -> None:
        """Remove the bar (it is transient); safe to call when none was started."""
        if self._progress is not None:
            self._progress.stop()


def _shown(text: str) -> str:
    """A progress bar's description (rich markup, not a console string): escaped and made visible."""
    from rich.markup import escape

    from .text import visible

    return escape(visible(text))


class LLMProgress:
    """LLM requests in flight as a rich progress bar on a terminal (silent when stderr is not one);
    notes (an estimate before a long run) always go to stderr."""

    def __init__(self) -> None:
        self._progress: Any = None
        self._task: Any = None

    def start(self, total: int, what: str) -> None:
        """Show a bar of ``total`` requests labelled ``what``."""
        if not sys.stderr.isatty() or total == 0:
            return
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self._progress = Progress(TextColumn(what), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                                  console=stderr(), transient=True)
        self._progress.start()
        self._task = self._progress.add_task("", total=total)

    def advance(self) -> None:
        """One request answered."""
        if self._progress is not None:
            self._progress.update(self._task, advance=1)

    def stop(self) -> None:
        """Remove the bar (transient); safe when none was started."""
        if self._progress is not None:
            self._progress.stop()
            self._progress = None

    def note(self, text: str) -> None:
        """Say ``text`` now, on stderr."""
        message(f"kb: {text}", "dim")


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


STATUS_STYLE = {"kept": "green", "edited": "cyan", "dropped": "red"}  # the review status of a question


def quiz(q_, show_answers: bool = True) -> None:
    """A quiz, readable in the terminal."""
    from rich.markup import escape

    from .export._common import tf_answer
    from .i18n import _, ngettext, type_word

    con = stdout()
    n = len(q_.questions)
    con.print(f"[bold]{escape(q_.title)}[/bold]  [dim]{ngettext('{n} question', '{n} questions', n).format(n=n)} · "
              f"{escape(q_.generator.get('model') or q_.generator.get('kind', ''))}[/dim]")
    con.print()
    reviewed = any(q.status for q in q_.questions)  # a quiz nobody reviewed yet is not all "draft" labels
    for n, q in enumerate(q_.questions, start=1):
        state = {"kept": _("kept"), "edited": _("edited"), "dropped": _("dropped")}.get(q.status, _("draft"))
        level = {"easy": _("easy"), "medium": _("medium"), "hard": _("hard")}.get(q.difficulty, q.difficulty)
        label = f"[{STATUS_STYLE.get(q.status, 'yellow')}]\\[{state}][/] " if reviewed else ""
        con.print(f"[bold]{n}.[/bold] {label}[dim]({type_word(q.type)}, {level}, {q.lang}, {q.id})[/dim] "
                  f"{escape(q.prompt)}")
        for i, choice in enumerate(q.choices):
            mark = " [green]✓[/green]" if show_answers and i == q.correct else ""
            con.print(f"    {'abcdefghij'[i]}) {escape(choice)}{mark}")
        if show_answers:
            if q.type != "mcq":  # a true/false answer: the word in the question's language, never "false"
                con.print(f"    [green]→ {escape(tf_answer(q) if q.type == 'tf' else q.answer)}[/green]")
            if q.concepts:
                con.print(f"    [dim]{_('concepts: {items}').format(items=escape('; '.join(q.concepts)))}[/dim]")
            for c in q.citations:
                con.print(f"    [cyan]{escape(c.source)} · {escape(c.locator)}[/cyan]")
        con.print()


def defect_words(reason: str) -> str:
    """A rejected draft's reason in words a teacher understands (\"failed checks: giveaway\" → \"the question
    gives the answer away\"); the check names stay in --json and in the quiz file."""
    from .i18n import _, text

    words = {
        "cut-off": _("the text stops mid-sentence"),
        "giveaway": _("the question gives the answer away"),
        "duplicate-choices": _("two options say the same"),
        "unsupported": _("the cited passage does not back the answer"),
        "implausible-distractor": _("a wrong option nobody would pick"),
        "dangling-reference": _("the question points to something it does not say"),
        "subjective": _("it rests on an opinion"),
        "restates-question": _("the answer repeats the question"),
        "glued-words": _("words run together in the PDF text"),
        "duplicate-question": _("another question asks the same"),
        "no-context": _("it does not say what it is about"),
        "no-subject": _("the sentence has no subject"),
        "answer-elsewhere": _("another question shows the answer"),
        "contradicts-code": _("the course's own code says otherwise"),
        "vague-answer": _("the answer is too vague"),
        "several-right": _("more than one option is right"),
        "partial-answer": _("a list is asked, one item answered"),
        "trivial-blank": _("the blank is on a verb or an everyday word"),
        "answer-language": _("the answer is in another language"),
        "thin-concepts": _("its key concepts are everyday words"),
        "slide-label-context": _("it is set by a slide's label students do not see"),
        "missing-context": _("it does not name the deck's subject"),
        "garbled-term": _("the term it asks is part of a sentence"),
        "trivia": _("it asks a detail, not an idea the deck teaches"),
        "copied-true": _("a true statement copied from the slide word for word"),
        "trivial-term": _("it asks what an everyday word means"),
        "concept-in-stem": _("a key concept is already in the question"),
        "off-topic": _("it is not about the quiz's topic"),  # kb eval quiz's own checks
        "language": _("it is not in the question's language"),
        "near-duplicate": _("another question is nearly the same"),
        "label-answer": _("its answer is a slide's label, not a term of the course"),
        "answer-in-description": _("the description lists examples of the answer or says it"),
        "ill-posed-compare": _("the two things it compares are not two of a kind"),
        "not-a-definition": _("the answer does not say what it is"),
        "pasted-answer": _("the answer is pasted from the slide (a link, a config), not an answer"),
        "vague-stem": _("the question is too vague to answer"),
        "unusable-concept": _("a key concept a grader cannot mark with"),
        "code-answer": _("the answer opens on a shard of code, not an answer"),
        "labels-not-terms": _("it asks what the slide's labels mean, and they are no terms"),
        "fragment-concept": _("a key concept is a fragment, an example or a version remark"),
    }
    if not reason.startswith("failed checks: "):
        return text(reason)
    return "; ".join(words.get(c.strip(), c.strip()) for c in reason[len("failed checks: "):].split(","))


def generation_summary(report, path) -> None:
    """Print to stderr what ``kb quiz generate`` wrote to ``path`` (or that it wrote nothing), the rejected
    candidates (near-duplicates only counted), notes and errors."""
    from .i18n import _, ngettext, text

    con = stderr()
    where = {"path": path, "candidates": report.candidates, "passages": report.passages}
    if report.quiz.questions:
        n = len(report.quiz.questions)
        con.print(ngettext("wrote {n} question to {path} ({candidates} candidates from {passages} passages)",
                           "wrote {n} questions to {path} ({candidates} candidates from {passages} passages)",
                           n).format(n=n, **where), markup=False)
    else:
        con.print(_("no question written; {path} was not written ({candidates} candidates from {passages} "
                    "passages)").format(**where), markup=False)
    for r in report.rejected:
        if not r.reason.startswith("near-duplicate"):
            con.print("  " + _("rejected: {what} — {why}").format(what=r.what, why=defect_words(r.reason)),
                      markup=False, style="yellow")
    dups = sum(1 for r in report.rejected if r.reason.startswith("near-duplicate"))
    if dups:
        con.print("  " + ngettext("{n} near-duplicate candidate dropped", "{n} near-duplicate candidates dropped",
                                  dups).format(n=dups), markup=False, style="dim")
    for note in getattr(report, "notes", []):
        con.print("  " + _("note: {note}").format(note=text(note)), markup=False, style="yellow")
    for e in report.errors:
        con.print(_("kb: error: {message}").format(message=text(e)), markup=False, style="bold red")


def outline(o, top: int = 5, per_section: int = 4) -> None:
    """Print ``kb outline``: the source's title, then each section with its best ideas (kind, name,
    locator), the ``top`` most central numbered by rank, in one screen."""
    from .i18n import _, ngettext

    con = stdout()
    origin = {"bookmarks": _("bookmarks"), "index": _("index"), "headings": _("headings")}.get(o.from_, o.from_)
    con.print(f"{o.title}  (" + ngettext("{source}; sections from {origin}, {n} idea",
                                        "{source}; sections from {origin}, {n} ideas", len(o.ideas)).format(
                  source=o.source, origin=origin, n=len(o.ideas)) + ")", markup=False, style="bold")
    kinds = {"definition": _("definition"), "list": _("list"), "procedure": _("procedure"), "code": _("code"),
             "title": _("title")}
    unnamed = {("code", "code"): _("code"), ("procedure", "steps"): _("steps")}  # kb's own name for a nameless idea
    rank = {id(i): n for n, i in enumerate(o.top(top), start=1)}
    shown = o.sections
    if len(shown) > 10:  # one screen: the sections holding the 20 most central ideas
        central = {id(i) for i in o.top(20)}
        shown = tuple(s for s in o.sections if any(id(i) in central for i in s.ideas))
        per_section = 3
    width = max([10, *(len(w) for w in kinds.values())])
    for s in shown:
        best = sorted(s.ideas, key=lambda i: -i.score)[:per_section]
        if not best:
            continue
        con.print(f"{s.title}  [{s.locator}]", markup=False, style="cyan")
        for i in (x for x in s.ideas if x in best):
            mark = f"{rank[id(i)]:>2}." if id(i) in rank else "   "
            name = unnamed.get((i.kind, i.name), i.name)
            con.print(f" {mark} {kinds.get(i.kind, i.kind):<{width}} {name[:60]}  ({i.locator.split(' · ')[0]})",
                      markup=False, style="bold" if id(i) in rank else None)
    if len(shown) < len(o.sections):
        more = len(o.sections) - len(shown)
        con.print("… " + ngettext("{n} more section", "{n} more sections", more).format(n=more), markup=False,
                  style="dim")
    con.print(_("1–{top}: the most central ideas (named in the index and titles, repeated, defined, given pages); "
                "--json for every idea with its text").format(top=top), markup=False, style="dim")


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


def quiz_eval(r: dict) -> None:
    """Print ``kb eval quiz`` results: the share without defects, each defect's count (in words; --json
    keeps the checks' names), coverage, and the ids of the questions with defects."""
    from rich.markup import escape
    from rich.table import Table

    from .i18n import _, type_word

    def said(defect: str) -> str:
        return defect_words("failed checks: " + defect)

    t = Table(show_header=False)
    t.add_row(_("questions"), f"{r['n']}" + (" " + _("of {asked} asked").format(asked=r["asked"])
                                              if r.get("short_by") else ""))
    t.add_row(f"[bold]{escape(_('without any defect'))}[/bold]", f"[bold]{r['clean']:.0%}[/bold]")
    for name, count in r.get("defects", {}).items():
        t.add_row(f"  {escape(said(name))}", str(count))
    t.add_row(_("supported by the cited passage"), f"{r['supported']:.0%}")
    t.add_row(_("answerable (prompt retrieves its passage, top 5)"), f"{r['answerable@5']:.0%}")
    t.add_row(_("near-duplicate pairs"), str(r["near_duplicate_pairs"]))
    t.add_row(_("language match"), f"{r['language_match']:.0%}")
    if r.get("mcq"):
        t.add_row(_("correct option at its most common position"),
                  _("{share:.0%} of {n} multiple choice").format(share=r["position_skew"], n=r["mcq"]))
    t.add_row(_("type mix"), ", ".join(f"{type_word(k)} {v}" for k, v in sorted(r["types"].items())))
    t.add_row(_("sources covered"), f"{r['source_coverage']:.0%} ({len(r['sources_used'])})")
    t.add_row(_("sections covered (pages / headings asked for)"),
              _("{share:.0%} ({covered} of {total})").format(share=r["section_coverage"], covered=r["sections_covered"],
                                                             total=r["sections_total"]))
    ti = r.get("top_ideas") or {}
    if ti.get("total"):
        t.add_row(_("top ideas asked (5 per source, kb outline)"),
                  _("{share:.0%} ({covered} of {total})").format(share=ti["share"], covered=ti["covered"],
                                                                 total=ti["total"]))
    stdout().print(t)
    for src, p in sorted((ti.get("per_source") or {}).items())[:3]:
        if p["missing"]:
            stdout().print(_("  {source}: not asked: {ideas}").format(
                source=src, ideas="; ".join(f"«{m}»" for m in p["missing"])), markup=False)
    bad = [p for p in r["per_question"] if p.get("defects")]
    for p in bad:
        stdout().print(f"  {p['id']}: {'; '.join(said(d) for d in p['defects'])}", markup=False)
    risky = [p for p in r["per_question"] if (p.get("drop_risk") or {}).get("likely")]
    if "likely_dropped" in r:  # advisory, learned from teachers' ratings (kb.writing.defect_model)
        stdout().print(_("likely to be dropped by a teacher (advisory, learned from teachers' ratings): {k} of {n}")
                       .format(k=r["likely_dropped"], n=r["n"]), markup=False)
    for p in risky:
        risk = p["drop_risk"]
        stdout().print("  " + _("{id}: likely to be dropped (p = {p:.2f}): {why}").format(
            id=p["id"], p=risk["p"], why="; ".join(x for w in risk["why"] if (x := risk_words(w))) or "-"),
            markup=False)
    # what these checks cannot see: teachers who read kb's questions on decks it was never tuned on kept
    # about 1 in 5 as written and edited most of the rest (README, "What a teacher keeps")
    stdout().print(_("These checks see form (cut-off text, giveaways, support, duplicates), not whether a "
                     "teacher would ask it this way: read the questions before class."), markup=False,
                   style="dim")


def risk_words(why: dict) -> str:
    """One reason of the drop-risk model (``{"feature": name, "high": bool}``) in words."""
    from .i18n import _, type_word

    name, high = why["feature"], why["high"]
    if name.startswith("check:"):  # (a registry check by its key; the defect it reports has the words)
        defect = _CHECK_DEFECT.get(name[6:], name[6:])
        said = defect_words("failed checks: " + defect)
        return "" if said == defect else said
    if name.startswith("type:"):
        return _("a {type} question").format(type=type_word(name[5:]))
    low_high = {
        "stem words (log)": (_("a short stem"), _("a long stem")),
        "answer words (log)": (_("a short answer"), _("a long answer")),
        "options differ in length": (_("options of the same length"), _("options of very different lengths")),
        "answer's words in the stem": (_("an answer that shares no word with the stem"),
                                       _("the answer's words are in the stem")),
        "concepts (count)": (_("few or no key concepts"), _("many key concepts")),
    }
    if name in low_high:
        return low_high[name][high]
    return {
        "stem quotes a title": _("the stem quotes a slide title"),
        "stem lists labels": _("the stem lists the slide's labels"),
        "stem opens with a setting": _("the stem opens with a setting (\"En X,\")"),
        "answer is code": _("the answer is code"),
        "answer brackets unbalanced": _("the answer's brackets do not close"),
        "blank is an everyday word": _("the blank is an everyday word"),
        "blank is a code token": _("the blank is a code token"),
        "options mix code and prose": _("options mix code and prose"),
        "concept fragments (share)": _("key concepts that are fragments"),
        "concepts the stem says (share)": _("key concepts the stem already says"),
        "form checks (count)": _("several form checks fail"),
        "stem's setting not in the deck": _("the stem is set in something the deck does not say"),
    }.get(name, "")  # (a feature with no words is left out of the reasons, never shown by its name)


# registry checks named by key whose defect has another name (kb/writing/checklist.py)
_CHECK_DEFECT = {"group-pronoun": "dangling-reference", "acronym-in-stem": "giveaway", "named-in-stem": "giveaway",
                 "subjectless-statement": "no-subject", "bare-attribute": "no-subject",
                 "counted-blank": "trivial-blank", "meaning-not-defined": "not-a-definition",
                 "stem-setting": "missing-context", "source": "unsupported"}


def calibration(qc) -> None:
    """Which grade levels kb grade uses: refitted from the teacher's grades (with the leave-one-out
    agreement on them), or the one stored beside the quiz."""
    from .i18n import _

    cal = qc.calibration
    if not qc.refitted:
        message(_("kb: grading with the calibration in {path} ({n} teacher-graded replies)").format(
            path=qc.path, n=cal.examples) + _graded_like_note(cal))
        return
    loo, base = cal.agreement.get("leave_one_out"), cal.agreement.get("default")
    line = _("kb: calibrated on {n} teacher-graded replies, saved to {path}").format(n=cal.examples, path=qc.path)
    if loo and loo.get("n"):
        line += _("; agreement with your grades, leave-one-out: exact {exact:.2f}, QWK {qwk:.2f}, mean {mean:.2f} "
                  "vs your {yours:.2f} (default level: exact {base_exact:.2f}, QWK {base_qwk:.2f}, mean "
                  "{base_mean:.2f})").format(exact=loo["exact"], qwk=loo["qwk"], mean=loo["kb_mean"],
                                             yours=loo["teacher_mean"], base_exact=base["exact"],
                                             base_qwk=base["qwk"], base_mean=base["kb_mean"])
    message(line + _graded_like_note(cal))


def _graded_like_note(cal) -> str:
    """Where the teacher's graded replies grade the replies like them (questions with enough of them)."""
    from .grading.offline import GRADED_LIKE_MIN
    from .i18n import ngettext

    n = sum(len(v) >= GRADED_LIKE_MIN for v in cal.graded.values())
    return ngettext("; on {n} question with {least}+ graded replies, a reply like one you graded is graded partly "
                    "like it", "; on {n} questions with {least}+ graded replies, a reply like one you graded is "
                    "graded partly like it", n).format(n=n, least=GRADED_LIKE_MIN) if n else ""


def class_report(report, paths: dict | None = None) -> None:
    """Per-student table, per-question statistics, then where the reports went."""
    from rich.table import Table

    from .export._common import quiz_lang
    from .i18n import _, course, type_word

    quiz = report.quiz
    table, totals = report.table(), report.totals()
    con = stdout()
    with course(quiz_lang(quiz)):
        # names and totals never wrap: at 80 columns the question columns that do not fit are left out
        name_w = max([len(_("student")), *(len(s) for s in report.students)])
        total_w = max([len(_("total")), *(len(f"{t['points']}/{t['max']}") for t in totals.values())])
        room = con.width - 1 - (name_w + 3) - (total_w + 3) - (3 + 3)
        shown = [q for i, q in enumerate(quiz.questions, 1) if (len(f"Q{i}") + 3) * i <= room]
        title = quiz.title + " — " + _("points per question (0–3)")
        if len(shown) < len(quiz.questions):
            title += " · " + _("Q1–Q{k} of {n}: every question in grades.md and class.csv").format(
                k=len(shown), n=len(quiz.questions))
        t = Table(title=title)
        t.add_column(_("student"), no_wrap=True)
        for i in range(1, len(shown) + 1):
            t.add_column(_("Q{n}").format(n=i), justify="right")
        t.add_column(_("total"), justify="right", no_wrap=True)
        t.add_column("%", justify="right", no_wrap=True)
        for s in report.students:
            cells = []
            for q in shown:
                g = table[s].get(q.id)
                cells.append("–" if g is None else f"{g.points}{'*' if g.grader == 'override' else ''}")
            tot = totals[s]
            t.add_row(s, *cells, f"{tot['points']}/{tot['max']}", f"{tot['percent']:.0f}")
        con.print(t)
        qs = Table(title=_("questions"))
        cols = ("#", _("type"), _("replies"), _("mean"), _("spread"), _("Correct").lower(), _("most missed concepts"))
        for i, col in enumerate(cols):
            qs.add_column(col, justify="left" if i in (1, 6) else "right")
        for st in report.question_stats():
            qs.add_row(str(st["number"]), type_word(st["type"]), str(st["replies"]),
                       "–" if st["mean"] is None else f"{st['mean']:.2f}",
                       "–" if st["stdev"] is None else f"{st['stdev']:.2f}", str(st["correct"]),
                       ", ".join(st["missed_concepts"]) or "–")
        con.print(qs)
        _class_report_notes(report, paths)


def _class_report_notes(report, paths: dict | None) -> None:
    """After the tables, on stderr: overrides kept, replies to check, rows skipped, notes, files written."""
    from .i18n import _, ngettext, text

    err = stderr()
    if report.overrides_kept:
        n = report.overrides_kept
        err.print(ngettext("{n} instructor override kept (marked *)", "{n} instructor overrides kept (marked *)",
                           n).format(n=n), markup=False)
    checks = report.to_check()
    if checks:
        section = _("Replies to check")
        see = _("see '{section}' in {path}").format(section=section, path=paths["markdown"]) \
            if paths and "markdown" in paths else _("see '{section}'").format(section=section)
        err.print(ngettext("{n} reply to check: it may say the opposite of the model answer, not counted in the "
                           "points ({see})", "{n} replies to check: each may say the opposite of the model answer, "
                           "not counted in the points ({see})", len(checks)).format(n=len(checks), see=see),
                  markup=False)
    for p in report.problems:
        err.print(_("kb: skipped: {problem}").format(problem=text(p)), markup=False, style="yellow")
    for n in report.notes:
        err.print(_("kb: note: {note}").format(note=text(n)), markup=False, style="dim")
    if paths:
        err.print(_("wrote {paths}").format(paths=", ".join(str(p) for p in paths.values())), markup=False)


def grade_result(result, quiz_name: str, json_out: bool = False) -> None:
    """Render `KB.grade`'s result: the calibration, notes, the class report (tables or JSON), the
    rows skipped and a failed LLM endpoint."""
    from .i18n import _, text

    run = result.value
    if run.calibration is not None:
        calibration(run.calibration)
    shown_later = set(run.report.notes) if run.report is not None and not json_out else set()
    for note in result.notes:
        if note not in shown_later:  # class_report prints the report's own notes: once, not twice
            message(f"kb: {text(note)}", "yellow" if run.report is None else "dim")
    if run.report is None:
        for p in result.problems:
            message(f"kb: {text(p)}", "yellow")
    elif json_out:
        from .grading.gradebook import report_json

        print_json(report_json(run.report, quiz_name))
        for p in result.problems:
            message(_("kb: skipped: {problem}").format(problem=text(p)), "yellow")
    else:
        class_report(run.report, run.paths)
        from .grading.classfiles import terminal_chart

        for line in terminal_chart(run.report):  # each question's points: how many got 0, 1, 2, 3
            stdout().print(line, markup=False, style="dim")
    if result.backend_failure:
        error(result.backend_failure, _("check the endpoint and re-run, or add --offline"))


def _review_table(r: dict) -> None:
    """The ``--review-budget`` table: 0 % (the default grade), then each budget, kb's order and random."""
    from rich.table import Table

    from .i18n import _

    con = stdout()
    rt = Table(title=_("a teacher's decisions on answer groups, propagated (every reply counted; random: the same "
                       "groups in a random order, mean of 3 seeds)"))
    for col in (_("budget"), _("decisions"), _("replies covered"), _("qwk kb order"), _("qwk random"), "pearson",
                _("exact"), _("mean")):
        rt.add_column(col, justify="right")
    rt.add_row("0 %", "0", "0", f"{r['qwk']:.3f}", f"{r['qwk']:.3f}", f"{r['pearson']:.3f}", f"{r['exact']:.3f}",
               f"{r['kb_mean']:.2f}")
    for m, b in zip(r["review"], r["review_random"], strict=True):
        rt.add_row(f"{m['budget_pct']:g} %", str(m["read"]), str(m["covered"]), f"{m['qwk']:.3f}",
                   _random_qwk(b), f"{m['pearson']:.3f}", f"{m['exact']:.3f}", f"{m['mean']:.2f}")
    con.print(rt)


def _random_qwk(b: dict) -> str:
    """A random order's QWK: the seeds' mean and, when they differ, their range."""
    if "qwk_min" not in b or b["qwk_min"] == b["qwk_max"]:
        return f"{b['qwk']:.3f}"
    return f"{b['qwk']:.3f} ({b['qwk_min']:.3f}–{b['qwk_max']:.3f})"


def grader_eval(r: dict) -> None:
    """Print ``kb eval grader`` results: agreement with the human scores, the calibration comparison when
    present, the confusion matrix and per-question agreement."""
    from rich.table import Table

    from .i18n import _

    con = stdout()
    t = Table(show_header=False, title=_("grader {grader} vs human scores (0–3)").format(grader=r["grader"]))
    t.add_row(_("replies"), str(r["n"]))
    if "human_mean" in r:
        t.add_row(_("mean human / kb"), f"{r['human_mean']:.2f} / {r['kb_mean']:.2f}")
    for k, label in (("pearson", "pearson"), ("spearman", "spearman"), ("qwk", "qwk"), ("exact", _("exact"))):
        t.add_row(label, f"{r[k]:.3f}")
    con.print(t)
    if "calibration" in r and "default" in r["calibration"]:
        c = r["calibration"]
        ct = Table(title=_("teacher calibration: {k} graded replies per question, reported on the others "
                           "(mean of seeds {seeds})").format(k=c["k"], seeds=", ".join(map(str, c["seeds"]))))
        for col in (_("level"), "n", _("human mean"), _("kb mean"), "pearson", "qwk", _("exact")):
            ct.add_column(col, justify="left" if col == _("level") else "right")
        for name in ("default", "calibrated"):
            m = c[name]
            ct.add_row({"default": _("default"), "calibrated": _("calibrated")}[name], f"{m['n']:.0f}",
                       f"{m['human_mean']:.2f}", f"{m['kb_mean']:.2f}", f"{m['pearson']:.3f}",
                       f"{m['qwk']:.3f}", f"{m['exact']:.3f}")
        con.print(ct)
    if "review" in r:
        _review_table(r)
    cm = Table(title=_("confusion (rows: human, columns: kb)"))
    cm.add_column(_("human"))
    for j in range(4):
        cm.add_column(str(j), justify="right")
    for i, row in enumerate(r["confusion"]):
        cm.add_row(str(i), *[str(x) for x in row])
    con.print(cm)
    pq = Table(title=_("per question"))
    for col in (_("question"), "n", _("human mean"), _("kb mean"), "pearson"):
        pq.add_column(col, justify="left" if col == _("question") else "right")
    for q in r["per_question"]:
        label = q["question"] if len(q["question"]) <= 50 else q["question"][:49] + "…"
        pq.add_row(label, str(q["n"]), f"{q['human_mean']:.2f}", f"{q['kb_mean']:.2f}", f"{q['pearson']:.3f}")
    con.print(pq)


def study_summary(summary, progress: dict) -> None:
    """Print the end of a study session: answers by verdict, skips, overrides, what is due and the streak."""
    from .i18n import _, ngettext

    con = stdout()
    v = summary.verdicts
    con.print("\n" + _("session: {answered} answered ({correct} correct, {partial} partial, {incorrect} incorrect), "
                       "{skipped} skipped").format(answered=summary.answered, skipped=summary.skipped, **v)
              + (", " + _("{n} marked right by you").format(n=summary.overridden) if summary.overridden else ""),
              markup=False)
    next_due = progress.get("next_due")
    next_review = " · " + _("next review {when}").format(when=next_due[:16].replace("T", " ") + " UTC") \
        if next_due else ""
    con.print(_("saved. due now: {due} · reviewed so far: {reviewed} · streak: ").format(**progress)
              + ngettext("{n} day", "{n} days", progress["streak"]).format(n=progress["streak"])
              + next_review, markup=False)


def progress_report(p: dict) -> None:
    """Print ``kb progress``: per-source table, counts, when reviews come due and the weakest topics."""
    from rich.table import Table

    from .i18n import _, ngettext

    con = stdout()
    t = Table(title=_("progress by source"))
    for col in (_("source"), _("questions"), _("reviewed"), _("learned"), _("due"), _("mean pts")):
        t.add_column(col, justify="left" if col == _("source") else "right")
    nameless = {"(no source)": _("(no source)"), "(no topic)": _("(no topic)")}  # --json keeps kb's own words
    for b in p["sources"]:
        src = nameless.get(b["source"], b["source"] if len(b["source"]) <= 34 else "…" + b["source"][-33:])
        t.add_row(src, str(b["questions"]), str(b["reviewed"]), str(b["learned"]), str(b["due"]),
                  "–" if b["mean_points"] is None else f"{b['mean_points']:.1f}")
    con.print(t)
    u = p["upcoming"]
    con.print(_("reviewed {reviewed} · learned {learned} · new {new} · streak ").format(**p)
              + ngettext("{n} day", "{n} days", p["streak"]).format(n=p["streak"]), markup=False)
    con.print(_("due: now {now} · later today {today} · tomorrow {tomorrow} · this week {this_week} · "
                "later {later}").format(**u), markup=False)
    if p["weakest"]:
        w = Table(title=_("weakest topics"))
        for i, col in enumerate((_("topic"), _("source"), _("mean pts"), _("questions"))):
            w.add_column(col, justify="right" if i >= 2 else "left")
        for r in p["weakest"]:
            w.add_row(nameless.get(r["topic"], r["topic"][:30]), r["source"].rsplit("/", 1)[-1][:24],
                      f"{r['mean_points']:.1f}",
                      str(r["questions"]))
        con.print(w)
