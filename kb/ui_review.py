"""`kb quiz review`'s terminal screen (the :class:`kb.review.ReviewScreen` protocol): one question card at a time,
with rich; kept apart from :mod:`kb.ui` so neither grows past its size."""

from __future__ import annotations

import sys

from .i18n import N_
from .ui import STATUS_STYLE, stdout

# shown on the review card of a question the writer asked only to reach -n (origin "labels")
LAST_RESORT = N_("a last resort to reach -n: a slide asked of its topic in general words (fresh teachers edited "
                 "such questions into one real question before using them)")


# shown on the review card of an offline question of a form fresh teachers seldom keep (kb.writing.form_prior)
SELDOM_KEPT = N_("a last resort to reach -n: a form fresh teachers seldom keep as written (a one-line answer, three "
                 "options)")


def _seldom_kept(q) -> bool:
    from .writing.form_prior import last_resort

    return last_resort(q.type, q.prompt, q.answer, options=len(q.choices))


class ReviewScreen:
    """`kb quiz review`'s terminal (see :class:`kb.review.ReviewScreen`): one question card at a time,
    fitting 80×24, coloured unless NO_COLOR or piped; the teacher's keys are read from stdin."""

    QUOTE_CHARS = 240  # the cited passage is shown up to this many characters: the card fits 24 lines

    def __init__(self, read=input) -> None:
        self.con = stdout()
        self._read = read

    def card(self, q, n: int, total: int, reviewed: int) -> None:
        """Type, prompt, choices, model answer, concepts and the cited passage with its locator."""
        from rich.markup import escape

        from .export._common import tf_answer
        from .i18n import _, type_word

        con = self.con
        state = {"kept": _("kept"), "edited": _("edited"), "dropped": _("dropped")}.get(q.status, _("draft"))
        level = {"easy": _("easy"), "medium": _("medium"), "hard": _("hard")}.get(q.difficulty, q.difficulty)
        status = f" · [{STATUS_STYLE.get(q.status, 'yellow')}]{state}[/]"
        con.print()
        con.print(f"[bold]{n}/{total}[/bold] · {type_word(q.type)} · {level} · {q.lang} · {q.id}{status}  "
                  f"[dim]({_('reviewed {n} of {total}').format(n=reviewed, total=total)})[/dim]")
        if q.origin == "labels":  # the writer's last resort (kb.writing.seam.Draft.fallback): name it before the prompt
            con.print(f"[yellow]{escape(_(LAST_RESORT))}[/yellow]")
        elif q.origin not in ("llm", "harvested") and _seldom_kept(q):  # (the offline writer's other last resorts)
            con.print(f"[yellow]{escape(_(SELDOM_KEPT))}[/yellow]")
        con.print(f"[bold]{escape(q.prompt)}[/bold]")
        for i, choice in enumerate(q.choices):
            mark = " [green]✓[/green]" if i == q.correct else ""
            con.print(f"  {'abcdefghij'[i]}) {escape(choice)}{mark}")
        answer = _("Answer:")
        if q.type == "tf":  # the word in the question's language, then the corrected statement kb has
            con.print(f"[green]{answer}[/green] {escape(tf_answer(q))}")
        elif q.type != "mcq":
            also = " [dim]({})[/dim]".format(escape(_("also: {replies}").format(replies="; ".join(q.accepted)))) \
                if q.accepted else ""
            con.print(f"[green]{answer}[/green] {escape(q.answer)}{also}")
        if q.concepts:
            con.print(f"[dim]{_('Concepts:')}[/dim] {escape('; '.join(q.concepts))}")
        for c in q.citations[:1]:
            where = escape(c.source) + (" · " + escape(c.locator) if c.locator else "")
            con.print(f"[cyan]{_('Source:')} {where}[/cyan]")
            if c.quote:
                quote = " ".join(c.quote.split())
                quote = quote if len(quote) <= self.QUOTE_CHARS else quote[:self.QUOTE_CHARS - 1].rstrip() + "…"
                con.print(f"[dim]  “{escape(quote)}”[/dim]")

    def say(self, text: str, style: str = "") -> None:
        """One message line (rich markup in ``text`` is not interpreted)."""
        self.con.print(text, style=style or None, markup=False)

    def read(self, prompt: str) -> str:
        """One line from the teacher (EOFError when stdin has ended)."""
        sys.stdout.flush()
        return self._read(prompt)
