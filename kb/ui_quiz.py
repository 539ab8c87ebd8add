"""Quizzes on the terminal: a quiz, what ``kb quiz generate`` wrote or rejected (defects in words),
``kb outline``, and ``kb eval quiz`` with the drop-risk reasons in words.
"""

from __future__ import annotations

from .ui_console import stderr, stdout

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
        "obvious-false": _("the false statement is of another kind than the term's meaning: false at a glance"),
        "plain-key": _("its answer is a plain word or its options are a slide's alternatives, not terms"),
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
        if r.get("risk_not_estimated"):
            stdout().print(_("  not estimated for {k} written by a model (it is learned from ratings of the offline "
                             "writer's questions)").format(k=r["risk_not_estimated"]), markup=False)
    for p in risky:
        risk = p["drop_risk"]
        stdout().print("  " + _("{id}: likely to be dropped (p = {p:.2f}): {why}").format(
            id=p["id"], p=risk["p"], why="; ".join(x for w in risk["why"] if (x := risk_words(w))) or "-"),
            markup=False)
    _model_review(r)
    # what these checks cannot see: teachers who read kb's questions on decks it was never tuned on kept
    # about 1 in 5 as written and edited most of the rest (README, "What a teacher keeps")
    stdout().print(_("These checks see form (cut-off text, giveaways, support, duplicates), not whether a "
                     "teacher would ask it this way: read the questions before class."), markup=False,
                   style="dim")


def _model_review(r: dict) -> None:
    """``kb eval quiz``'s lines of the model's review (advisory): its counts, each drop and fix with its reason
    (drops first), what it did not review, and what the requests spent."""
    from .i18n import _

    review = r.get("model_review")
    if not review:
        return
    stdout().print(_("the model's review ({model}, advisory): keep {keep}, fix {fix}, drop {drop} of {n}")
                   .format(model=review["model"], keep=review["keep"], fix=review["fix"], drop=review["drop"],
                           n=r["n"]), markup=False)
    from .llm.reviewer import VERDICT_WORDS

    for verdict in ("drop", "fix"):
        for p in r["per_question"]:
            mr = p.get("model_review")
            if mr and mr["verdict"] == verdict:
                stdout().print(f"  {p['id']}: {_(VERDICT_WORDS[verdict])}: {mr['reason'] or '-'}", markup=False)
    failed = review.get("failed", 0)
    if failed:
        stdout().print(_("  not reviewed: {k} (their request failed: see below)").format(k=failed), markup=False)
    if r["n"] - review["reviewed"] - failed > 0:
        stdout().print(_("  not reviewed: {k} (the model's reply left them out)").format(
            k=r["n"] - review["reviewed"] - failed), markup=False)
    from .i18n import text

    for line in [*review.get("notes", []), "LLM: " + review.get("usage", "")]:
        stdout().print(text(line), markup=False, style="dim")


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
