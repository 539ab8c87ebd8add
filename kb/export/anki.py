"""Anki package (.apkg) via genanki, for Anki's File → Import.

One note per question. Cloze questions whose prompt has the blank (``_____``) become Anki cloze
notes (``{{c1::answer}}``); the others are "kb question" notes with Front (prompt, and the
choices of a multiple choice), Back (model answer, key concepts; the correct choice; true or
false), Source (the citations) and the kb id. Tags: ``kb``, ``kb::type::…``,
``kb::difficulty::…``, ``kb::lang::…``, ``kb::source::…``, ``kb::topic::…``.

Ids are derived, never random: the note GUID from the question's id, the deck id from the
quiz title, the note-type ids from their names. Re-exporting an edited quiz (ids are kept in
the quiz file) therefore updates the same notes on import instead of adding copies — Anki
updates a note only when the imported one is newer, so the package carries one time value, the
quiz file's modification time; the zip entries have a fixed date. Same quiz file, same bytes.
"""

from __future__ import annotations

import io
import itertools
import re
import sqlite3
import tempfile
import zipfile
from pathlib import Path

from ..errors import UsageError
from ..quiz import Question, Quiz
from ._common import GAP, LETTERS, citation_text, labels, stable_int, tf_answer, to_html

MODEL_VERSION = "1"  # bump when the fields or templates change: a new note type, not a broken one
CSS = """.card { font-family: sans-serif; font-size: 20px; text-align: left; color: black; background: white; }
.choices { margin-top: .5em; }
.source { margin-top: 1.5em; font-size: 14px; color: #666; }
pre { text-align: left; font-size: 16px; }
"""


def _genanki():
    try:
        import genanki
    except ImportError:  # pragma: no cover - genanki is a dependency of kb
        raise UsageError("--format anki needs the genanki package, which is not installed",
                         "pip install genanki (it is a dependency of kb: pip install -e . installs it)") from None
    return genanki


def note_guid(q: Question) -> str:
    """The note's GUID in Anki: the same for every export of this question."""
    return _genanki().guid_for("kb", q.id)


def _tag(text: str) -> str:
    return re.sub(r"\s+", "_", text.strip()) or "_"


class AnkiExporter:
    """The quiz as one Anki deck named after it (``answers`` changes nothing: the back of a
    card is the answer)."""

    extension = "apkg"
    binary = True

    def __init__(self, timestamp: int = 0) -> None:
        self.timestamp = int(timestamp)  # seconds; note and note-type modification time

    def models(self):
        """The basic and cloze note types, with ids stable across exports."""
        genanki = _genanki()
        basic = genanki.Model(
            stable_int("kb", "anki-model", "basic", MODEL_VERSION), "kb question",
            fields=[{"name": "Front"}, {"name": "Back"}, {"name": "Source"}, {"name": "Id"}],
            templates=[{"name": "Card 1", "qfmt": "{{Front}}",
                        "afmt": '{{FrontSide}}<hr id="answer">{{Back}}<div class="source">{{Source}}</div>'}],
            css=CSS,
        )
        cloze = genanki.Model(
            stable_int("kb", "anki-model", "cloze", MODEL_VERSION), "kb cloze",
            fields=[{"name": "Text"}, {"name": "Back Extra"}, {"name": "Source"}, {"name": "Id"}],
            templates=[{"name": "Cloze", "qfmt": "{{cloze:Text}}",
                        "afmt": '{{cloze:Text}}<br>{{Back Extra}}<div class="source">{{Source}}</div>'}],
            css=CSS, model_type=genanki.Model.CLOZE,
        )
        return basic, cloze

    def render(self, quiz: Quiz, answers: bool = False) -> bytes:
        """The quiz as an Anki .apkg deck (bytes), one note per question."""
        genanki = _genanki()
        basic, cloze = self.models()
        deck = genanki.Deck(stable_int("kb", "anki-deck", quiz.title), quiz.title)
        topic = str(quiz.params.get("topic") or "") if isinstance(quiz.params, dict) else ""
        for q in quiz.questions:
            tags = ["kb", f"kb::type::{q.type}", f"kb::difficulty::{q.difficulty}", f"kb::lang::{q.lang}"]
            tags += sorted({f"kb::source::{_tag(Path(c.source).name)}" for c in q.citations})
            if topic:
                tags.append(f"kb::topic::{_tag(topic)}")
            source = "<br>".join(to_html(citation_text(c)) for c in q.citations)
            text = _cloze_text(q)
            if text is not None:
                extra = to_html(f"{labels(q)['also']}: {'; '.join(q.accepted)}") if q.accepted else ""
                fields = [text, extra, source, q.id]
                model = cloze
            else:
                fields = [_front(q), _back(q), source, q.id]
                model = basic
            deck.add_note(genanki.Note(model=model, fields=fields, tags=tags, guid=note_guid(q)))
        return self._package(genanki, deck)

    def _package(self, genanki, deck) -> bytes:
        # genanki.Package.write_to_file stamps the zip entries with the time of writing; this
        # writes the same collection with fixed zip dates so equal quizzes give equal bytes.
        package = genanki.Package(deck)
        with tempfile.TemporaryDirectory(prefix="kb-anki-") as tmp:
            db = Path(tmp) / "collection.anki2"
            conn = sqlite3.connect(db)
            try:
                package.write_to_db(conn.cursor(), self.timestamp, itertools.count(self.timestamp * 1000 + 1))
                conn.commit()
            finally:
                conn.close()
            collection = db.read_bytes()
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as z:
            for name, payload in (("collection.anki2", collection), ("media", b"{}")):
                info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                z.writestr(info, payload)
        return buf.getvalue()


def _cloze_text(q: Question) -> str | None:
    """The prompt with its blank as ``{{c1::answer}}``, or None when it cannot be a cloze note."""
    if q.type != "cloze" or GAP not in q.prompt or "}}" in q.answer or "::" in q.answer:
        return None
    answer = to_html(q.answer)
    before, after = (_hide(_no_braces(to_html(part)), answer) for part in q.prompt.split(GAP, 1))
    return f"{before}{{{{c1::{answer}}}}}{after}"


def _hide(html_text: str, answer: str) -> str:
    """Where the prompt says the answer again beside its blank, that too as the same deletion (c1): the
    card's front never shows the word it asks for (answers under 3 characters are left alone)."""
    if len(answer) < 3:
        return html_text
    return re.sub(rf"(?<!\w){re.escape(answer)}(?!\w)", lambda m: f"{{{{c1::{m.group(0)}}}}}", html_text,
                  flags=re.IGNORECASE)


def _no_braces(html_text: str) -> str:
    """Braces as entities: a literal ``{{c2::…}}`` in the prompt must not become a deletion."""
    return html_text.replace("{", "&#123;").replace("}", "&#125;")


def _front(q: Question) -> str:
    lab = labels(q)
    front = to_html(q.prompt)
    if q.type == "mcq":
        items = "".join(f"<li>{to_html(c)}</li>" for c in q.choices)
        front += f'<ol class="choices" type="a">{items}</ol>'
    elif q.type == "tf" and not _asks_true_or_false(q.prompt, lab):  # "Verdadeiro ou falso? …" says it already
        front += f'<div class="choices">{lab["true"]} / {lab["false"]}</div>'
    return front


def _asks_true_or_false(prompt: str, lab: dict[str, str]) -> bool:
    """The prompt itself names both words (the offline writer's "Verdadeiro ou falso? …")."""
    words = set(re.findall(r"\w+", prompt.lower()))
    return lab["true"].lower() in words and lab["false"].lower() in words


def _back(q: Question) -> str:
    lab = labels(q)
    if q.type == "mcq" and isinstance(q.correct, int):
        back = f"{LETTERS[q.correct]}) {to_html(q.correct_text)}"
    elif q.type == "tf":
        word, _, rest = tf_answer(q).partition(". ")  # "Falso. A fonte diz: …": the word once, then the rest
        back = f"<b>{word.rstrip('.')}</b>" + (f"<br>{to_html(rest)}" if rest else "")
    else:
        back = to_html(q.answer)
        if q.accepted:
            back += f"<br><i>{lab['also']}:</i> {to_html('; '.join(q.accepted))}"
    if q.concepts and q.type == "short":
        back += f"<br><i>{lab['concepts']}:</i> {to_html('; '.join(q.concepts))}"
    return back
