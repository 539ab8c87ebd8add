"""The language of what a student or teacher reads (study screens, progress, grade reports):
English, Portuguese or Spanish, with stdlib ``gettext``.

The catalogs are the ``.po`` files in ``kb/locale/<lang>/LC_MESSAGES/kb.po`` (what a translator
edits); each is compiled to ``.mo`` bytes in memory the first time it is used, so a stale ``.mo``
can never be shipped. The language is, first to last: ``--ui-lang``, ``KB_UI_LANG``, the locale
(``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``; ``C``/``POSIX`` say nothing), the course's
main language (the quiz's, given by the command; else the workspace's, :func:`assume_course`), English.
Machine-readable output (``--json``, CSV keys) is never translated. Stdlib only.

Errors (:class:`kb.errors.KbError`) and messages kept as data (:class:`Message`: a grade report's
problems and notes) are English templates with fields: the template is the catalog's msgid, translated
first and filled after. A template passed through a variable is marked ``N_("…")``; the msgids a
catalog needs are the literals of ``_()``, ``ngettext()``, ``in_language()``, ``N_()``, error classes
and ``Message()`` (tests/test_i18n.py and tests/test_i18n_errors.py extract them).
"""

from __future__ import annotations

import ast
import contextlib
import gettext
import io
import os
import struct
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from pathlib import Path

LANGS = ("en", "pt", "es")
LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "kb"

_chosen: str | None = None  # --ui-lang; None: KB_UI_LANG, the locale, else the course decides
_course: str | None = None  # the course's main language, the last resort before English
_finder: Callable[[], str | None] | None = None  # the workspace's main language, asked only when needed
COURSE_LANGUAGE_FILE = "course-language"  # in the workspace (KB_HOME): the store's passages' main language


def normalize(value: str | None) -> str | None:
    """``pt_BR.UTF-8`` → ``pt``; None for an empty value, ``C``/``POSIX`` or a language kb has no catalog for."""
    if not value:
        return None
    for part in value.split(":"):  # LANGUAGE is a list: pt_BR:pt:en
        code = part.split(".")[0].split("@")[0].split("_")[0].split("-")[0].lower()
        if code in LANGS:
            return code
    return None


def from_environment(explicit: str | None = None) -> str | None:
    """The language ``--ui-lang`` (``explicit``), ``KB_UI_LANG`` or the locale ask for; None when none does."""
    if explicit is not None:
        return explicit
    for var in ("KB_UI_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        lang = normalize(os.environ.get(var))
        if lang:
            return lang
    return None


def choose(lang: str | None) -> None:
    """Set the interface language for this process (``None``: ``KB_UI_LANG``, the locale, else the course's)."""
    global _chosen
    _chosen = lang


@contextlib.contextmanager
def course(lang: str | None) -> Iterator[None]:
    """Within the block, ``lang`` is the course's main language: the interface language when neither
    ``--ui-lang``, ``KB_UI_LANG`` nor the locale chose one."""
    global _course
    saved, _course = _course, normalize(lang)
    try:
        yield
    finally:
        _course = saved


def assume_course(finder: Callable[[], str | None] | None) -> None:
    """Where the course's main language comes from outside a :func:`course` block (the workspace's:
    its passages', else its quizzes'): ``finder`` is called once, and only when neither ``--ui-lang``,
    ``KB_UI_LANG`` nor the locale chose a language (a command that needs no language reads nothing)."""
    global _finder
    _finder = cache(finder) if finder is not None else None


def current() -> str:
    """The interface language now in use: ``en``, ``pt`` or ``es``."""
    return _chosen or from_environment() or _course or normalize(_finder() if _finder else None) or "en"


def read_course_language(home: Path) -> str | None:
    """The main language of the passages in the workspace ``home`` (written by ``kb ingest``); None
    when there is none yet or it cannot be read."""
    try:
        return normalize((home / COURSE_LANGUAGE_FILE).read_text(encoding="utf-8").strip())
    except (OSError, UnicodeDecodeError):
        return None


def parse_po(text: str) -> dict[str, str]:
    """A ``.po`` file's entries as ``.mo`` keys and values: ``msgid`` → ``msgstr``; a plural entry's
    key is ``msgid\\0msgid_plural`` and its value the forms joined by ``\\0`` (gettext's layout).
    Untranslated entries (empty ``msgstr``) are left out, so the English text shows."""
    entries: dict[str, str] = {}
    cur: dict[str, list[str]] = {}
    field = ""

    def flush() -> None:
        if "msgid" in cur:
            key = "".join(cur["msgid"])
            if "msgid_plural" in cur:
                key += "\0" + "".join(cur["msgid_plural"])
                forms = ["".join(cur[k]) for k in sorted(k for k in cur if k.startswith("msgstr["))]
                value = "\0".join(forms) if all(forms) else ""
            else:
                value = "".join(cur.get("msgstr", []))
            if value:
                entries[key] = value
        cur.clear()

    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            if not line and cur:
                flush()
            continue
        if line.startswith('"'):
            cur[field].append(ast.literal_eval(line))
            continue
        keyword, _, rest = line.partition(" ")
        if keyword == "msgid":  # a new entry (msgid_plural is another keyword)
            flush()
        field = keyword
        cur[field] = [ast.literal_eval(rest.strip())]
    flush()
    return entries


def compile_mo(entries: dict[str, str]) -> bytes:
    """The ``.mo`` bytes (GNU format, little-endian, no hash table) for ``entries`` from :func:`parse_po`."""
    keys = sorted(entries)
    ids = [k.encode("utf-8") for k in keys]
    strs = [entries[k].encode("utf-8") for k in keys]
    n = len(keys)
    key_start = 7 * 4 + 16 * n  # header, then the two tables of (length, offset) pairs
    offsets: list[int] = []
    blob = b""
    for s in ids + strs:
        offsets += [len(s), key_start + len(blob)]
        blob += s + b"\0"
    header = struct.pack("<7I", 0x950412DE, 0, n, 7 * 4, 7 * 4 + 8 * n, 0, 0)
    return header + struct.pack(f"<{4 * n}I", *offsets) + blob


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The catalog for ``lang`` compiled from its ``.po`` (English, or a missing catalog: the text as written)."""
    po = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    if lang == "en" or not po.is_file():
        return gettext.NullTranslations()
    return gettext.GNUTranslations(io.BytesIO(compile_mo(parse_po(po.read_text(encoding="utf-8")))))


def _(message: str) -> str:
    """``message`` in the interface language."""
    return translations(current()).gettext(message)


class Phrase(str):
    """A field of a message that is words for the reader, not a value (\"a whole number\", \"nothing\"):
    translated with the message (mark its text with :func:`N_` so the catalogs have it)."""


class Message(str):
    """A message kb keeps as data (a grade report's problems and notes): the English text, which
    --json, CSV and equality see, that knows its template and fields, so :meth:`localized` (and
    :func:`text`) can say it in the interface language later, as :class:`kb.errors.KbError` does."""

    template: str
    fields: dict[str, object]

    def __new__(cls, template: str, **fields: object) -> Message:
        """The English text of ``template`` filled with ``fields``, remembering both."""
        made = super().__new__(cls, fill(template, {k: english(v) for k, v in fields.items()}))
        made.template, made.fields = template, kept(fields)
        return made

    def localized(self) -> str:
        """The message in the interface language (English where a catalog lacks it)."""
        return fill(_(self.template), {k: local(v) for k, v in self.fields.items()})


def text(message: str) -> str:
    """``message`` in the interface language when it is a :class:`Message`, else as it is."""
    return message.localized() if isinstance(message, Message) else message


def fill(template: str, fields: dict[str, object]) -> str:
    """``template`` with ``fields`` put in (str.format); as written when there are none."""
    return template.format(**fields) if fields else template


def kept(fields: dict[str, object]) -> dict[str, object]:
    """``fields`` as a message keeps them: another program's exception as its text (it may not survive
    pickling, and a failed file's error crosses from an ingest worker process); kb's own errors and
    messages, words and plain values as they are."""
    return {k: str(v) if isinstance(v, BaseException) and not callable(getattr(v, "localized", None)) else v
            for k, v in fields.items()}


def english(value: object) -> object:
    """A message's field as the English text shows it: an error (``kb.errors.KbError``) by its message."""
    return getattr(value, "message", value) if callable(getattr(value, "localized", None)) \
        and not isinstance(value, str) else value


def local(value: object) -> object:
    """A message's field in the interface language: words (:class:`Phrase`) translated, a
    :class:`Message` or an error said in the language (an error by its message), a value as it is."""
    if isinstance(value, Phrase):
        return _(value)
    if isinstance(value, Message):
        return value.localized()
    said = getattr(value, "localized", None)
    return said()[0] if callable(said) else value


def N_(message: str) -> str:
    """``message`` as written: marks a template translated later, where it is used (an error's
    message or hint passed through a helper, a :class:`kb.errors.Phrase`); extracted like ``_()``."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n``, in the interface language."""
    return translations(current()).ngettext(singular, plural, n)


def verdict_word(verdict: str) -> str:
    """A grade's verdict (``correct``, ``partial``, ``incorrect``) in the interface language."""
    return {"correct": _("correct"), "partial": _("partial"), "incorrect": _("incorrect")}.get(verdict, verdict)


def in_language(lang: str, message: str) -> str:
    """``message`` in ``lang`` whatever the interface language: for content students read in the
    course's language (a quiz's title). Extracted like ``_()`` (see tests/cli/test_i18n.py)."""
    return translations(normalize(lang) or "en").gettext(message)


def main_language(langs: Iterable[str | None]) -> str | None:
    """The most common of ``langs`` (question languages); None when there is none."""
    seen = [lang for lang in langs if lang]
    return max(sorted(set(seen)), key=seen.count) if seen else None


def type_word(qtype: str) -> str:
    """A question type (``short``, ``mcq``, ``cloze``, ``tf``) as a student or teacher reads it (English
    keeps kb's own names, which --json, the quiz file and the docs use)."""
    return {"short": _("short"), "mcq": _("mcq"), "cloze": _("cloze"), "tf": _("tf")}.get(qtype, qtype)
