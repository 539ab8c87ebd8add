"""What every export shares: labels per language, the quiz's language, citations as text,
prompts as HTML (Moodle and Anki render HTML), stable integer ids. Stdlib only."""

from __future__ import annotations

import html
import re

from ..quiz import Citation, Question, Quiz
from ..records import content_hash

LABELS = {
    "pt": {"name": "Nome", "date": "Data", "answer": "Resposta", "true": "Verdadeiro", "false": "Falso",
           "key": "Gabarito", "source": "Fonte", "concepts": "Conceitos-chave", "correct": "Correta",
           "model": "Resposta modelo", "right": "Correto.", "wrong": "Incorreto.", "also": "Também aceito"},
    "es": {"name": "Nombre", "date": "Fecha", "answer": "Respuesta", "true": "Verdadero", "false": "Falso",
           "key": "Solucionario", "source": "Fuente", "concepts": "Conceptos clave", "correct": "Correcta",
           "model": "Respuesta modelo", "right": "Correcto.", "wrong": "Incorrecto.", "also": "También se acepta"},
    "en": {"name": "Name", "date": "Date", "answer": "Answer", "true": "True", "false": "False",
           "key": "Answer key", "source": "Source", "concepts": "Key concepts", "correct": "Correct",
           "model": "Model answer", "right": "Correct.", "wrong": "Incorrect.", "also": "Also accepted"},
}
LETTERS = "abcdefghij"
GAP = "_____"  # the blank the offline writer puts in a cloze prompt (and Moodle's GIFT importer too)


def labels(q: Question) -> dict[str, str]:
    """The question's language's labels (English when unknown)."""
    return LABELS.get(q.lang, LABELS["en"])


_TF_WORD = re.compile(r"^\s*(true|false|verdadeiro|verdadero|falso|v|f)\b[\s.:;,—–-]*", re.IGNORECASE)


def tf_answer(q: Question) -> str:
    """A true/false question's answer in its language: the word (``Falso``), then, when the model
    answer says more (the corrected statement, what the source says), that, without a repeated
    word; never the English ``true``/``false`` in a pt/es quiz."""
    lab = labels(q)
    word = lab["true"] if q.correct else lab["false"]
    rest = _TF_WORD.sub("", q.answer, count=1).strip() if _TF_WORD.match(q.answer) else q.answer.strip()
    return f"{word}. {rest}" if rest else f"{word}."


def quiz_lang(quiz: Quiz) -> str:
    """The most common language of the quiz's questions (English when none is known)."""
    langs = [q.lang for q in quiz.questions if q.lang in LABELS]
    return max(sorted(set(langs)), key=langs.count) if langs else "en"


def citation_text(c: Citation) -> str:
    """The citation as source · locator — “quote”."""
    where = f"{c.source} · {c.locator}" if c.locator else c.source
    return where + (f" — “{c.quote}”" if c.quote else "")


_MD_CODE = re.compile(r"```.*?```|`[^`\n]+`", re.DOTALL)
_MD_SPECIAL = re.compile(r"(_{3,})|([\\*_\[\]<`])")


def md_text(text: str) -> str:
    """Plain text as Markdown that renders as written: ``\\``, ``*``, ``_``, ``[``, ``]``, ``<`` and a
    stray backtick escaped (``__len__()`` is not bold); code spans and fences kept as code, and a
    blank (``_____``) kept as it is."""
    out: list[str] = []
    pos = 0
    for m in _MD_CODE.finditer(text):
        out.append(_md_escape(text[pos:m.start()]))
        out.append(m.group(0))
        pos = m.end()
    out.append(_md_escape(text[pos:]))
    return "".join(out)


def _md_escape(text: str) -> str:
    return _MD_SPECIAL.sub(lambda m: m.group(1) or "\\" + m.group(2), text)


_FENCE = re.compile(r"```([\w+-]*)[^\S\n]*\n(.*?)\n?```", re.DOTALL)
_INLINE_CODE = re.compile(r"`([^`\n]+)`")


def to_html(text: str) -> str:
    """Plain text (a prompt, an answer, a quote) as safe HTML: ``<``, ``&`` and ``>`` escaped,
    fenced code as ``<pre><code>`` (spacing kept), inline `code` as ``<code>``, line breaks as
    ``<br>``. Quotes are left alone: these strings go in element content, never in attributes."""
    out: list[str] = []
    pos = 0
    for m in _FENCE.finditer(text):
        out.append(_inline_html(text[pos:m.start()]))
        lang = f' class="language-{m.group(1)}"' if m.group(1) else ""
        out.append(f"<pre><code{lang}>{html.escape(m.group(2), quote=False)}</code></pre>")
        pos = m.end()
    out.append(_inline_html(text[pos:]))
    return "".join(out)


def _inline_html(text: str) -> str:
    parts = []
    pos = 0
    for m in _INLINE_CODE.finditer(text):
        parts.append(html.escape(text[pos:m.start()], quote=False))
        parts.append(f"<code>{html.escape(m.group(1), quote=False)}</code>")
        pos = m.end()
    parts.append(html.escape(text[pos:], quote=False))
    return "".join(parts).replace("\r\n", "\n").replace("\n", "<br>\n")


def stable_int(*parts: str, bits: int = 52) -> int:
    """A positive integer id derived from ``parts`` (Anki model and deck ids): the same parts
    give the same id on every export, and it fits a JavaScript number (Anki's UI needs that)."""
    return int(content_hash(*parts, n=16), 16) % (1 << bits) + 1
