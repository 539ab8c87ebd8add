"""Studying on the terminal: the end of a ``kb study`` session and ``kb progress``.
"""

from __future__ import annotations

from .ui_console import stdout


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
