"""click/typer's own usage errors (``Usage:``, ``Error: No such option…``, ``Invalid value for…``)
in kb's interface language (:mod:`kb.i18n`).

The click that typer vendors (``typer._click``) writes its messages as plain English f-strings, not
through gettext, so they cannot be translated where they are made. They are translated where they are
shown instead: the catalog ``kb/locale/<lang>/LC_MESSAGES/click.po`` (domain ``click``, compiled in
memory on first use like ``kb.po``) holds click's English messages as templates (``No such option:
{name}``); a message that matches a template in full is said with the translation, its ``{message}``
fields translated the same way and every other field as it was. A message no template matches stays
English. :class:`KbGroup` (kb's top-level command) decides the language from ``--ui-lang`` and
``KB_UI_LANG``/the locale before click parses anything, and shows its usage errors this way. Stdlib only
(``kb --help`` stays light).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from functools import cache
from typing import Any

import typer
from typer._click import Context
from typer._click.exceptions import UsageError  # typer's own click (it has no gettext: see above)
from typer.core import TyperGroup

from . import i18n

DOMAIN = "click"
_FIELD = re.compile(r"\{(\w+)\}")


@cache
def catalog(lang: str) -> dict[str, str]:
    """click's English templates and their ``lang`` translations, in the catalog's order (a more
    specific template first); empty for English or a missing catalog."""
    po = i18n.LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    if lang == "en" or not po.is_file():
        return {}
    entries = i18n.parse_po(po.read_text(encoding="utf-8"))
    entries.pop("", None)  # the header
    return entries


@cache
def _pattern(template: str) -> re.Pattern[str]:
    """``template`` as a regular expression whose groups are its fields."""
    parts, pos = [], 0
    for m in _FIELD.finditer(template):
        parts += [re.escape(template[pos:m.start()]), f"(?P<{m.group(1)}>.+?)"]
        pos = m.end()
    parts.append(re.escape(template[pos:]))
    return re.compile("".join(parts), re.DOTALL)


def translate(message: str, lang: str | None = None) -> str:
    """click's English ``message`` in ``lang`` (default: the interface language); as it is when no
    template of the catalog matches it in full."""
    entries = catalog(lang or i18n.current())
    for template, said in entries.items():
        if "{" not in template:
            if message == template:
                return said
            continue
        m = _pattern(template).fullmatch(message)
        if m:
            fields = {k: translate(v, lang) if k == "message" else v for k, v in m.groupdict().items()}
            return said.format(**fields)
    return message


def word(text: str) -> str:
    """A fixed piece of click's output (``Usage:``) in the interface language."""
    return catalog(i18n.current()).get(text, text)


def show(error: UsageError, file: Any = None) -> None:
    """Show a click usage error as click does (usage line, help hint, ``Error: …`` on stderr), in
    the interface language."""
    ctx = error.ctx
    color = ctx.color if ctx is not None else None
    if ctx is not None:
        hint = ""
        if ctx.command.get_help_option(ctx) is not None:
            hint = translate(f"Try '{ctx.command_path} {ctx.help_option_names[0]}' for help.") + "\n"
        usage = ctx.get_usage()
        if usage.startswith("Usage: "):
            usage = word("Usage:") + " " + usage[len("Usage: "):]
        typer.echo(f"{usage}\n{hint}", file=file, err=True, color=color)
    typer.echo(translate(f"Error: {error.format_message()}"), file=file, err=True, color=color)


def early_language(args: Sequence[str]) -> str | None:
    """The language ``--ui-lang`` asks for among kb's ``args`` (before click parses them); None when
    it is not given or names no language kb speaks (the command's callback reports that)."""
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--ui-lang" and i + 1 < len(args):
            return i18n.normalize(args[i + 1])
        if arg.startswith("--ui-lang="):
            return i18n.normalize(arg.partition("=")[2])
    return None


HELP_TEXT = "Show this message and exit."  # the --help option's own help (click's, English)


def _help_option_texts(command: Any, text: str) -> None:
    """Give the ``--help`` option of ``command`` and of every command under it the help ``text``
    (click makes each command's help option once and keeps it; set on every run, so an English run
    after a Portuguese one in the same process says English again)."""
    option = command.get_help_option(Context(command))
    if option is not None:
        option.help = text
    for sub in getattr(command, "commands", {}).values():
        _help_option_texts(sub, text)


def _localize(error: UsageError) -> None:
    """Have ``error`` shown in the interface language (not the help page kb shows with no arguments)."""
    if type(error).__name__ != "NoArgsIsHelpError":
        error.show = lambda file=None: show(error, file)  # type: ignore[method-assign]


class KbGroup(TyperGroup):
    """kb's top-level command: chooses the interface language before click parses the arguments,
    and shows click's usage errors (its own and its subcommands') in that language."""

    def main(self, args: Sequence[str] | None = None, *a: Any, **kw: Any) -> Any:
        """Run kb as click does, the interface language chosen first (``--ui-lang``, else the
        environment; the course's language is known only once the callback has run)."""
        i18n.choose(early_language(sys.argv[1:] if args is None else list(args)))
        i18n.assume_course(None)
        _help_option_texts(self, word(HELP_TEXT))
        return super().main(args, *a, **kw)

    def make_context(self, *a: Any, **kw: Any) -> Any:
        """Parse kb's own options; a usage error is shown in the interface language."""
        try:
            return super().make_context(*a, **kw)
        except UsageError as e:
            _localize(e)
            raise

    def invoke(self, ctx: Any) -> Any:
        """Run the subcommand; its usage errors are shown in the interface language."""
        try:
            return super().invoke(ctx)
        except UsageError as e:
            _localize(e)
            raise
