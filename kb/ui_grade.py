"""Grading on the terminal: the calibration line, the class report (per student, per question),
``kb grade``'s result and ``kb eval grader``'s tables.
"""

from __future__ import annotations

from .ui_console import error, message, print_json, stderr, stdout


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
