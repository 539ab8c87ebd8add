"""Quiz exports (Moodle XML, GIFT, Anki, Markdown) and spreadsheet-safe gradebooks.

Each export is read back by an independent parser written here from the target's rules (the
GIFT one follows Moodle's importer step by step, the Moodle XML one checks the elements
Moodle's importer reads for each type, the Anki one opens the .apkg's SQLite collection; and
the official ``anki`` package imports the .apkg when it is installed), and every question of a
mixed quiz must come back with the same prompt, answer, choices and correct choice.
"""

from __future__ import annotations

import csv
import html
import io
import json
import os
import re
import shutil
import sqlite3
import tempfile
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kb.cli import app
from kb.export import export_quiz, get_exporter
from kb.quiz import load_quiz
from kb.sheets import csv_text, escape_cell, unescape_cell

GOLDEN = Path(__file__).parent / "golden"
CIT = {"source": "sources/aula 3.md", "locator": "p. 4 · Threads & <locks>", "chunk_id": "c9",
       "quote": "O GIL {global} protege: tudo & mais"}

# Every question type in pt and es, with accents, code, GIFT's specials (~ = # { } : \), HTML's
# (< & >), Moodle's wildcard (*), a percent sign where GIFT reads weights, and multi-line text.
MIXED = {
    "schema": 1, "title": "Semana 4: C/C++ & <threads>", "created_at": "2026-11-21T10:00:00+00:00",
    "generator": {"kind": "offline"}, "kb": {}, "params": {"topic": "concorrência"},
    "questions": [
        {"id": "qshortpt01", "type": "short", "lang": "pt", "difficulty": "hard",
         "prompt": "O que faz este código?\n```python\nwith lock:  # {seção crítica}\n    x = a < b && c\n```\n"
                   "Explique em 2 linhas.",
         "answer": "Garante exclusão mútua: só uma thread executa `x = a < b` por vez; ~ = # { } : \\ ficam.",
         "concepts": ["exclusão mútua", "lock"], "citations": [CIT]},
        {"id": "qshortes01", "type": "short", "lang": "es",
         "prompt": "¿Qué es un «mutex» y por qué 50% de los errores vienen de él?",
         "answer": "Un objeto de exclusión mutua: evita que dos hilos escriban a la vez.", "concepts": ["exclusión"],
         "citations": [CIT]},
        {"id": "qmcqpt0001", "type": "mcq", "lang": "pt",
         "prompt": "Qual expressão é verdadeira em C++ quando a = 1 e b = 2?",
         "answer": "a < b && b > a", "choices": ["a == b", "a < b && b > a", "{a: b} ~ #x", "%50% = metade"],
         "correct": 1, "concepts": [], "citations": [CIT]},
        {"id": "qmcqes0001", "type": "mcq", "lang": "es", "prompt": "¿Cuál estrategia replica el modelo en varias GPU?",
         "answer": "MirroredStrategy", "choices": ["MirroredStrategy", "TPUStrategy", "Ninguna: ¡ninguna!"],
         "correct": 0, "concepts": [], "citations": [CIT]},
        {"id": "qclozept01", "type": "cloze", "lang": "pt",
         "prompt": "Complete a lacuna: em C++, o _____ protege a seção crítica {sempre}.",
         "answer": "std::mutex", "accepted": ["mutex", "std::*mutex*"], "concepts": [], "citations": [CIT]},
        {"id": "qclozees01", "type": "cloze", "lang": "es",
         "prompt": "Completa: el bloqueo global de Python es el _____",
         "answer": "GIL", "accepted": ["gil"], "concepts": [], "citations": [CIT]},
        {"id": "qclozees02", "type": "cloze", "lang": "es", "prompt": "Completa: la _____ de datos reparte lotes.",
         "answer": "paralelización", "concepts": [], "citations": [CIT]},
        {"id": "qtfpt00001", "type": "tf", "lang": "pt", "prompt": "Verdadeiro ou falso? O GIL impede a & b < c.",
         "answer": "Verdadeiro.", "correct": True, "concepts": [], "citations": [CIT]},
        {"id": "qtfes00001", "type": "tf", "lang": "es", "prompt": "¿Verdadero o falso? Un hilo == un proceso.",
         "answer": "Falso.", "correct": False, "concepts": [], "citations": [CIT]},
    ],
}


@pytest.fixture
def mixed(tmp_path):
    path = tmp_path / "quizzes" / "semana4.json"
    path.parent.mkdir()
    path.write_text(json.dumps(MIXED, ensure_ascii=False, indent=1), encoding="utf-8")
    return path


def cli(args, cwd=None):
    runner = CliRunner()
    if cwd is not None:
        old = os.getcwd()
        os.chdir(cwd)
    try:
        return runner.invoke(app, args, catch_exceptions=False, env={"COLUMNS": "400"})
    finally:
        if cwd is not None:
            os.chdir(old)


def expected(path: Path) -> list[dict]:
    """What every format must carry back: type, prompt, answer, choices, correct, accepted."""
    out = []
    for q in load_quiz(path).questions:
        out.append({"id": q.id, "type": q.type, "prompt": q.prompt, "answer": q.answer, "choices": list(q.choices),
                    "correct": q.correct, "accepted": list(q.accepted)})
    return out


# --------------------------------------------------------------------------- HTML back to text

def html_to_text(s: str) -> str:
    """Undo kb's text → HTML (fences, inline code, line breaks, entities)."""
    s = re.sub(r'<pre><code(?: class="language-([\w+-]+)")?>(.*?)</code></pre>',
               lambda m: f"```{m.group(1) or ''}\n{m.group(2)}\n```", s, flags=re.DOTALL)
    s = re.sub(r"<code>(.*?)</code>", r"`\1`", s)
    s = s.replace("<br>\n", "\n")
    assert "<" not in s, f"unexpected markup left in {s!r}"  # every '<' of the text was escaped
    return html.unescape(s)


def labelled(s: str, sep: str) -> dict[str, str]:
    """'<strong>Label:</strong> value' parts of a feedback, by label."""
    out = {}
    for part in s.split(sep):
        m = re.fullmatch(r"(?:<p>)?<strong>([^<]+):</strong> (.*?)(?:</p>)?", part.strip(), re.DOTALL)
        assert m, part
        out[m.group(1)] = m.group(2)
    return out


MODEL = {"pt": "Resposta modelo", "es": "Respuesta modelo"}


# --------------------------------------------------------------------------- GIFT, parsed as Moodle does

GIFT_ESC = {"\\:": "\x01058", "\\#": "\x01035", "\\=": "\x01061", "\\{": "\x01123", "\\}": "\x01125",
            "\\~": "\x01126", "\\n": "\x01010"}
GIFT_CHR = {"\x01058": ":", "\x01035": "#", "\x01061": "=", "\x01123": "{", "\x01125": "}", "\x01126": "~",
            "\x01010": "\n"}


def gift_pre(s: str) -> str:
    s = s.replace("\\\\", "\x01092")
    for k, v in GIFT_ESC.items():
        s = s.replace(k, v)
    return s.replace("\x01092", "\\")


def gift_post(s: str) -> str:
    for k, v in GIFT_CHR.items():
        s = s.replace(k, v)
    return s


def gift_text(s: str, fmt: str) -> str:
    s = gift_post(s.strip()).strip()
    return html_to_text(s) if fmt == "html" else s


def parse_gift(text: str) -> tuple[str, list[dict]]:
    """A port of qformat_gift::readquestions/readquestion for the types kb writes."""
    category, questions = "", []
    for block in re.split(r"\n\s*\n", text):
        lines = [" " if ln.strip().startswith("//") else ln for ln in block.split("\n")]
        t = gift_pre("\n".join(lines).strip())
        if not t:
            continue
        if t.startswith("$CATEGORY:"):
            category = t[10:].strip()
            continue
        assert t.startswith("::"), t
        name, t = t[2:].split("::", 1)
        t = t.strip()
        start, end = t.index("{"), t.index("}")
        answer_text = t[start + 1:end].strip()
        if t.endswith("}"):
            qtext = t[:start] + t[end + 1:]
        else:
            qtext = t[:start] + "_____" + t[end + 1:]  # missing-word form
        general = ""
        if "####" in answer_text:
            i = answer_text.rindex("####")
            answer_text, general = answer_text[:i].strip(), answer_text[i + 4:]
        fmt = "moodle"
        if qtext.startswith("["):
            fmt, qtext = qtext[1:].split("]", 1)
        q = {"name": gift_post(name), "prompt": gift_text(qtext, fmt), "general": gift_post(general).strip()}
        if answer_text == "":
            q["qtype"] = "essay"
        elif "~" in answer_text:
            q["qtype"] = "multichoice"
            assert "=" in answer_text  # single answer
            answers = [a.strip() for a in answer_text.replace("=", "~=").split("~") if a.strip()]
            q["answers"] = []
            for a in answers:
                right = a.startswith("=")
                body, _, fb = (a[1:] if right else a).partition("#")
                assert not re.match(r"%-*\d{1,2}\.?\d*%", body), body  # would be read as a weight
                q["answers"].append((gift_text(body, fmt), right, gift_text(fb, fmt)))
        elif "=" in answer_text and "->" in answer_text:
            q["qtype"] = "match"
        elif answer_text.split("#")[0].strip() in ("T", "TRUE", "F", "FALSE"):
            q["qtype"] = "truefalse"
            bits = answer_text.split("#", 2)
            q["correct"] = bits[0].strip() in ("T", "TRUE")
            q["feedback"] = [gift_text(b, fmt) for b in bits[1:]]
        else:
            q["qtype"] = "shortanswer"
            q["answers"] = [gift_post(a.partition("#")[0].strip()) for a in answer_text.split("=") if a.strip()]
        questions.append(q)
    return category, questions


def test_gift_round_trip_keeps_every_question(mixed):
    text = export_quiz(mixed, "gift").data
    assert "\n\n\n" not in text and text.count("\n\n") == len(MIXED["questions"])  # one blank line before each question
    category, got = parse_gift(text)
    assert category == "$course$/top/Semana 4: C//C++ & <threads>"
    assert len(got) == len(MIXED["questions"])
    for q, g in zip(expected(mixed), got, strict=True):
        assert g["name"] == q["id"]
        assert g["prompt"] == q["prompt"], q["id"]
        lang = next(x["lang"] for x in MIXED["questions"] if x["id"] == q["id"])
        feedback = labelled(g["general"], "<br>")
        assert html_to_text(feedback["Fonte" if lang == "pt" else "Fuente"]) == \
            "sources/aula 3.md · p. 4 · Threads & <locks> — “O GIL {global} protege: tudo & mais”"
        if q["type"] == "short":
            assert g["qtype"] == "essay"
            assert html_to_text(feedback[MODEL[lang]]) == q["answer"]
        elif q["type"] == "mcq":
            assert g["qtype"] == "multichoice"
            assert [a[0] for a in g["answers"]] == q["choices"]
            assert [a[1] for a in g["answers"]].index(True) == q["correct"]
            assert all(a[2] for a in g["answers"])  # feedback on every choice
        elif q["type"] == "tf":
            assert g["qtype"] == "truefalse" and g["correct"] is q["correct"] and len(g["feedback"]) == 2
        else:
            assert g["qtype"] == "shortanswer"
            wildcard_free = [a.replace("\\*", "*") for a in g["answers"]]
            assert wildcard_free == [q["answer"], *q["accepted"]]
            assert html_to_text(feedback[MODEL[lang]]) == q["answer"]


# --------------------------------------------------------------------------- Moodle XML, as Moodle's importer reads it

REQUIRED = {  # elements qformat_xml::import_<type> reads (beyond name, questiontext, answers)
    "essay": ["responseformat", "responserequired", "responsefieldlines", "attachments", "graderinfo",
              "responsetemplate"],
    "multichoice": ["single", "shuffleanswers", "answernumbering", "correctfeedback", "partiallycorrectfeedback",
                    "incorrectfeedback"],
    "truefalse": [],
    "shortanswer": ["usecase"],
}
FORMATS = {"html", "moodle_auto_format", "plain_text", "markdown"}


def parse_moodle(text: str) -> tuple[str, list[dict]]:
    root = ET.fromstring(text.encode("utf-8"))
    assert root.tag == "quiz"
    first, *rest = list(root)
    assert first.get("type") == "category"
    category = first.findtext("category/text")
    out = []
    for el in rest:
        assert el.tag == "question"
        qtype = el.get("type")
        for tag in ["name/text", "questiontext/text", "generalfeedback/text", "defaultgrade", "penalty", "hidden",
                    "idnumber", *REQUIRED[qtype]]:
            assert el.find(tag) is not None, f"{qtype} lacks <{tag}>"
        for f in el.iter():
            if "format" in f.attrib:
                assert f.get("format") in FORMATS
        q = {"qtype": qtype, "name": el.findtext("name/text"), "idnumber": el.findtext("idnumber"),
             "prompt": html_to_text(el.findtext("questiontext/text")),
             "general": el.findtext("generalfeedback/text"), "grader": el.findtext("graderinfo/text"),
             "tags": [t.text for t in el.findall("tags/tag/text")],
             "answers": [(a.findtext("text"), float(a.get("fraction")), a.get("format"), a.findtext("feedback/text"))
                         for a in el.findall("answer")]}
        if qtype == "multichoice":
            q["single"] = el.findtext("single")
        out.append(q)
    return category, out


def test_moodle_xml_round_trip_and_shape_per_type(mixed):
    text = export_quiz(mixed, "moodle").data
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n')
    category, got = parse_moodle(text)
    assert category == "$course$/top/Semana 4: C//C++ & <threads>"
    assert len(got) == len(MIXED["questions"])
    for q, g in zip(expected(mixed), got, strict=True):
        assert g["idnumber"] == q["id"] and g["name"].startswith(q["id"] + " · ")
        assert g["prompt"] == q["prompt"], q["id"]
        assert {"kb", f"kb-{q['type']}"} <= set(g["tags"])
        lang = next(x["lang"] for x in MIXED["questions"] if x["id"] == q["id"])
        general = labelled(g["general"], "\n")
        assert "Threads &amp; &lt;locks&gt;" in general["Fonte" if lang == "pt" else "Fuente"]
        if q["type"] == "short":
            assert g["qtype"] == "essay" and g["answers"] == []
            grader = labelled(g["grader"], "\n")
            assert html_to_text(grader[MODEL[lang]]) == q["answer"]
            assert html_to_text(grader["Conceitos-chave" if lang == "pt" else "Conceptos clave"]) == "; ".join(
                next(x["concepts"] for x in MIXED["questions"] if x["id"] == q["id"]))
        elif q["type"] == "mcq":
            assert g["qtype"] == "multichoice" and g["single"] == "true"
            assert [html_to_text(a[0]) for a in g["answers"]] == q["choices"]
            assert [a[1] for a in g["answers"]].index(100.0) == q["correct"]
            assert sorted(a[1] for a in g["answers"]) == [0.0] * (len(q["choices"]) - 1) + [100.0]
            assert all(a[3] for a in g["answers"])
        elif q["type"] == "tf":
            assert g["qtype"] == "truefalse"
            assert [a[0] for a in g["answers"]] == ["true", "false"]
            right = {a[0]: a[1] for a in g["answers"]}
            assert right["true" if q["correct"] else "false"] == 100.0 and sum(right.values()) == 100.0
        else:
            assert g["qtype"] == "shortanswer"
            # plain text (Moodle compares replies with it), '*' escaped as its wildcard
            assert [a[0].replace("\\*", "*") for a in g["answers"]] == [q["answer"], *q["accepted"]]
            assert all(a[1] == 100.0 and a[2] == "moodle_auto_format" for a in g["answers"])
            assert html_to_text(general[MODEL[lang]]) == q["answer"]


# --------------------------------------------------------------------------- Anki

def read_apkg(data: bytes) -> dict:
    """The .apkg's collection: note types, decks and notes (fields by name, tags, guid)."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        assert set(z.namelist()) == {"collection.anki2", "media"}
        assert json.loads(z.read("media")) == {}
        with tempfile.TemporaryDirectory() as tmp:
            db = Path(tmp) / "c.anki2"
            db.write_bytes(z.read("collection.anki2"))
            con = sqlite3.connect(db)
            try:
                models = json.loads(con.execute("SELECT models FROM col").fetchone()[0])
                decks = json.loads(con.execute("SELECT decks FROM col").fetchone()[0])
                notes = []
                for guid, mid, flds, tags, mod in con.execute(
                        "SELECT guid, mid, flds, tags, mod FROM notes ORDER BY id"):
                    model = models[str(mid)]
                    names = [f["name"] for f in model["flds"]]
                    notes.append({"guid": guid, "model": model["name"], "mod": mod, "tags": tags.split(),
                                  "fields": dict(zip(names, flds.split("\x1f"), strict=False))})
                cards = con.execute("SELECT count(*), count(DISTINCT did) FROM cards").fetchone()
            finally:
                con.close()
    return {"models": models, "decks": decks, "notes": notes, "cards": cards}


def anki_question(note: dict) -> dict:
    """Prompt, answer, choices and correct choice back from a kb note."""
    f = note["fields"]
    if note["model"] == "kb cloze":
        m = re.search(r"\{\{c1::(.*?)\}\}", f["Text"])
        return {"id": f["Id"], "prompt": html_to_text(f["Text"].replace(m.group(0), "_____")),
                "answer": html_to_text(m.group(1))}
    front, back = f["Front"], f["Back"]
    out = {"id": f["Id"]}
    choices = re.search(r'<ol class="choices" type="a">(.*)</ol>$', front)
    if choices:
        out["choices"] = [html_to_text(c) for c in re.findall(r"<li>(.*?)</li>", choices.group(1))]
        front = front[: choices.start()]
        letter, text = re.fullmatch(r"([a-j])\) (.*)", back).groups()
        out["correct"] = "abcdefghij".index(letter)
        out["answer"] = html_to_text(text)
    tf = "kb::type::tf" in note["tags"]  # its front has the two words unless the prompt already asks them
    words = re.search(r'<div class="choices">[^<]*</div>$', front)
    if words:
        front = front[: words.start()]
    if tf:
        out["correct"] = re.match(r"<b>(.*?)</b>", back).group(1) in ("Verdadeiro", "Verdadero", "True")
    if not choices and not tf:
        out["answer"] = html_to_text(re.split(r"<br><i>", back)[0])
    out["prompt"] = html_to_text(front)
    return out


def test_anki_package_round_trip_tags_and_stable_ids(mixed):
    pkg = read_apkg(export_quiz(mixed, "anki", out=mixed.with_suffix(".apkg")).data)
    notes = pkg["notes"]
    assert len(notes) == len(MIXED["questions"]) and pkg["cards"] == (len(notes), 1)
    deck = [d for d in pkg["decks"].values() if d["name"] == MIXED["title"]]
    assert len(deck) == 1
    for q, n in zip(expected(mixed), notes, strict=True):
        g = anki_question(n)
        assert g["id"] == q["id"] and g["prompt"] == q["prompt"], q["id"]
        if q["type"] == "mcq":
            assert g["choices"] == q["choices"] and g["correct"] == q["correct"] and g["answer"] == q["answer"]
        elif q["type"] == "tf":
            assert g["correct"] is q["correct"]
        else:
            assert g["answer"] == q["answer"]
        assert "Threads &amp; &lt;locks&gt;" in n["fields"]["Source"]
        assert {"kb", f"kb::type::{q['type']}", "kb::source::aula_3.md", "kb::topic::concorrência"} <= set(n["tags"])
        assert any(t.startswith("kb::difficulty::") for t in n["tags"])
    models = {n["fields"]["Id"]: n["model"] for n in notes}
    assert models["qclozees01"] == "kb cloze" and models["qclozees02"] == "kb cloze"
    assert models["qclozept01"] == "kb question"  # 'std::mutex' would break {{c1::…}}: a plain note instead

    # an edited quiz (same ids, new text, a later file) keeps deck, note types and GUIDs
    doc = json.loads(mixed.read_text(encoding="utf-8"))
    doc["questions"][0]["prompt"] += " (editado)"
    edited = mixed.with_name("editado.json")
    edited.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    os.utime(edited, (mixed.stat().st_mtime + 60,) * 2)
    again = read_apkg(export_quiz(edited, "anki", out=edited.with_suffix(".apkg")).data)
    assert [n["guid"] for n in again["notes"]] == [n["guid"] for n in notes]
    assert again["models"].keys() == pkg["models"].keys() and again["decks"].keys() == pkg["decks"].keys()
    assert again["notes"][0]["fields"]["Front"].endswith(" (editado)")
    assert again["notes"][0]["mod"] > notes[0]["mod"]  # newer, so Anki's import updates the note


def test_anki_imports_the_package_and_updates_notes_on_reimport(mixed, tmp_path):
    collection = pytest.importorskip("anki.collection", reason="the official anki package is not installed")
    apkg = tmp_path / "semana4.apkg"
    assert cli(["quiz", "export", str(mixed), "--format", "anki", "-o", str(apkg)]).exit_code == 0
    (tmp_path / "anki").mkdir()
    col = collection.Collection(str(tmp_path / "anki" / "collection.anki2"))
    try:
        log = col.import_anki_package(collection.ImportAnkiPackageRequest(package_path=str(apkg))).log
        assert len(log.new) == len(MIXED["questions"]) and col.note_count() == len(MIXED["questions"])
        by_id = {col.get_note(n)["Id"]: col.get_note(n) for n in col.find_notes("")}
        assert set(by_id) == {q["id"] for q in MIXED["questions"]}
        assert col.find_notes("tag:kb::type::mcq") and len(col.find_notes("tag:kb::type::cloze")) == 3
        assert col.decks.id_for_name(MIXED["title"])
        cloze = by_id["qclozees01"]
        assert cloze.note_type()["name"] == "kb cloze" and "{{c1::GIL}}" in cloze["Text"]
        card = cloze.cards()[0]
        assert "[...]" in card.question() and "GIL" in card.answer()

        doc = json.loads(mixed.read_text(encoding="utf-8"))
        doc["questions"][2]["prompt"] = "Qual expressão é verdadeira (editada)?"
        mixed.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
        os.utime(mixed, (mixed.stat().st_mtime + 60,) * 2)
        assert cli(["quiz", "export", str(mixed), "--format", "anki", "-o", str(apkg)]).exit_code == 0
        log = col.import_anki_package(collection.ImportAnkiPackageRequest(package_path=str(apkg))).log
        assert len(log.new) == 0 and len(log.updated) >= 1
        assert col.note_count() == len(MIXED["questions"])  # updated, not duplicated
        note = col.get_note(col.find_notes("Id:qmcqpt0001")[0])
        assert note["Front"].startswith("Qual expressão é verdadeira (editada)?")
    finally:
        col.close()


# --------------------------------------------------------------------------- all formats

@pytest.mark.parametrize("fmt", ["md", "moodle", "gift", "anki"])
def test_exporting_twice_gives_identical_bytes(mixed, tmp_path, fmt):
    a, b = tmp_path / f"a.{fmt}", tmp_path / f"b.{fmt}"
    for out in (a, b):
        r = cli(["quiz", "export", str(mixed), "--format", fmt, "--answers", "-o", str(out)])
        assert r.exit_code == 0, r.output
    assert a.read_bytes() == b.read_bytes() and a.stat().st_size > 200


def test_golden_quiz_exports_to_every_format_without_mutating_it(tmp_path):
    quiz = tmp_path / "quiz.json"
    shutil.copy(GOLDEN / "quiz.json", quiz)
    before = quiz.read_bytes()
    for fmt in ("moodle", "gift"):
        r = cli(["quiz", "export", str(quiz), "--format", fmt])
        assert r.exit_code == 0 and "q0000000003" in r.stdout
    _, gift = parse_gift(export_quiz(quiz, "gift").data)
    assert gift[2]["prompt"] == "Complete a lacuna: O _____ protege chamadas simultâneas a um mesmo objeto na memória."
    assert [q["qtype"] for q in gift] == ["essay", "multichoice", "shortanswer", "truefalse"]
    assert quiz.read_bytes() == before


@pytest.mark.parametrize("fmt", ["md", "moodle", "gift", "anki"])
def test_export_refuses_to_overwrite_the_quiz_itself(mixed, fmt):
    before = mixed.read_bytes()
    r = cli(["quiz", "export", str(mixed), "--format", fmt, "-o", str(mixed)])
    assert r.exit_code == 2
    assert f"-o {mixed} is the quiz file itself" in r.stderr and "write the export to another file" in r.stderr
    assert mixed.read_bytes() == before
    # the same file by another name: relative path, symlink
    link = mixed.with_name("link.json")
    link.symlink_to(mixed)
    r = cli(["quiz", "export", "semana4.json", "--format", fmt, "-o", "link.json"], cwd=mixed.parent)
    assert r.exit_code == 2 and "is the quiz file itself" in r.stderr
    assert mixed.read_bytes() == before


def test_export_refuses_to_overwrite_another_quiz(mixed):
    other = mixed.with_name("other.json")
    shutil.copy(GOLDEN / "quiz.json", other)
    before = other.read_bytes()
    r = cli(["quiz", "export", str(mixed), "--format", "gift", "-o", str(other)])
    assert r.exit_code == 2 and f"-o {other} is a quiz file" in r.stderr and "e.g. -o" in r.stderr
    assert other.read_bytes() == before
    # any other existing file is replaced (atomically), as -o promises
    notes = mixed.with_name("notes.json")
    notes.write_text('{"not": "a quiz"}', encoding="utf-8")
    assert cli(["quiz", "export", str(mixed), "--format", "md", "-o", str(notes)]).exit_code == 0
    assert notes.read_text(encoding="utf-8").startswith("# Semana 4")


def test_gift_leaves_out_replies_it_cannot_carry(tmp_path):
    doc = {"schema": 1, "title": "t", "questions": [
        {"id": "qa", "type": "cloze", "prompt": "Em C, p_____campo lê o campo.", "answer": "->", "lang": "pt",
         "citations": []},
        {"id": "qb", "type": "cloze", "prompt": "Metade é _____.", "answer": "50%", "accepted": ["%50%", "p->x"],
         "lang": "pt", "citations": []}]}
    quiz = tmp_path / "q.json"
    quiz.write_text(json.dumps(doc), encoding="utf-8")
    _, got = parse_gift(export_quiz(quiz, "gift").data)
    assert got[0]["qtype"] == "essay" and "-&gt;" in got[0]["general"]  # graded by hand, not a matching question
    assert got[0]["prompt"] == "Em C, p_____campo lê o campo."
    assert got[1]["qtype"] == "shortanswer" and got[1]["answers"] == ["50%"]
    _, moodle = parse_moodle(export_quiz(quiz, "moodle").data)
    assert [a[0] for a in moodle[1]["answers"]] == ["50%", "%50%", "p->x"]


def test_anki_cloze_text_cannot_smuggle_a_deletion(tmp_path):
    doc = {"schema": 1, "title": "t", "questions": [
        {"id": "qc", "type": "cloze", "prompt": "O {{c2::x}} e o _____ {}.", "answer": "GIL", "lang": "pt",
         "citations": []}]}
    quiz = tmp_path / "q.json"
    quiz.write_text(json.dumps(doc), encoding="utf-8")
    note = read_apkg(export_quiz(quiz, "anki", out=tmp_path / "q.apkg").data)["notes"][0]
    assert note["model"] == "kb cloze" and note["fields"]["Text"].count("{{c") == 1
    assert anki_question(note)["prompt"] == doc["questions"][0]["prompt"]


def test_anki_needs_an_output_file_and_unknown_formats_are_named(mixed):
    r = cli(["quiz", "export", str(mixed), "--format", "anki"])
    assert r.exit_code == 2 and "binary .apkg" in r.stderr and f"add -o {mixed.with_suffix('.apkg')}" in r.stderr
    r = cli(["quiz", "export", str(mixed), "--format", "docx"])
    assert r.exit_code == 2 and "--format docx: unknown export format" in r.stderr and "moodle" in r.stderr


def test_markdown_exporter_is_unchanged():
    quiz = load_quiz(GOLDEN / "quiz.json")
    assert get_exporter("md").render(quiz, answers=True) == (GOLDEN / "key.md").read_text(encoding="utf-8")


# --------------------------------------------------------------------------- spreadsheets

NASTY = ["=HYPERLINK(\"http://x\",\"y\")", "+cmd|' /C calc'!A0", "@SUM(A1)", "-2+3", "\tTab", "\rCR",
         "'=already quoted", "''@twice", "Ana Júlia", "'apostrophe", "-", "O'Brien", ""]


def test_escape_cell_neutralises_formulas_and_round_trips():
    for s in NASTY:
        e = escape_cell(s)
        assert not re.match(r"[=+\-@\t\r]", e), s
        assert unescape_cell(e) == s
    assert escape_cell(3) == 3 and escape_cell("Ana") == "Ana" and escape_cell("=1") == "'=1"


def test_csv_dialects():
    rows = [["=1+1", 0.667, 2, "Zoë; \"quoted\""]]
    comma = csv_text(["student", "score", "points", "note"], rows)
    assert comma == 'student,score,points,note\n\'=1+1,0.667,2,"Zoë; ""quoted"""\n'
    eu = csv_text(["student", "score", "points", "note"], rows, "excel-eu")
    assert eu.encode("utf-8")[:3] == b"\xef\xbb\xbf"
    assert eu == '\ufeffstudent;score;points;note\r\n\'=1+1;0,667;2;"Zoë; ""quoted"""\r\n'


QUIZ_TF = {"schema": 1, "title": "t", "questions": [
    {"id": "q1", "type": "tf", "prompt": "Verdadeiro ou falso? O céu é azul.", "answer": "Verdadeiro.", "correct": True,
     "lang": "pt", "citations": []},
    {"id": "q2", "type": "cloze", "prompt": "O _____ protege.", "answer": "GIL", "lang": "pt", "citations": []}]}
STUDENTS = ["=HYPERLINK(\"http://x\",\"y\")", "+cmd|' /C calc'!A0", "@SUM(A1)", "Ana | Bia", "Zoë Ñúñez"]


@pytest.fixture
def class_replies(tmp_path):
    quiz = tmp_path / "t.json"
    quiz.write_text(json.dumps(QUIZ_TF), encoding="utf-8")
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["student", "question_id", "answer"])
    for s in STUDENTS:
        w.writerow([s, "q1", "verdadeiro"])
        w.writerow([s, "q2", "=gil" if s.startswith("@") else "gil"])
    replies = tmp_path / "replies.csv"
    replies.write_text(buf.getvalue(), encoding="utf-8")
    return quiz, replies


def xlsx_cells(path: Path, sheet: int = 1) -> list[list[str]]:
    """Cell texts of a worksheet (shared strings resolved); formulas would show as <f>."""
    with zipfile.ZipFile(path) as z:
        sst = ET.fromstring(z.read("xl/sharedStrings.xml"))
        ns = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main"}
        strings = ["".join(t.text or "" for t in si.iter(f"{{{ns['m']}}}t")) for si in sst.findall("m:si", ns)]
        ws = z.read(f"xl/worksheets/sheet{sheet}.xml")
        assert b"<f>" not in ws and b"<f " not in ws
        rows = []
        for row in ET.fromstring(ws).iter(f"{{{ns['m']}}}row"):
            cells = []
            for c in row.findall("m:c", ns):
                v = c.findtext("m:v", default="", namespaces=ns)
                cells.append(strings[int(v)] if c.get("t") == "s" else v)
            rows.append(cells)
        return rows


def test_grade_escapes_formulas_writes_xlsx_and_keeps_overrides(class_replies, tmp_path):
    quiz, replies = class_replies
    out = tmp_path / "rep"
    r = cli(["grade", str(quiz), str(replies), "--out", str(out), "--offline"])
    assert r.exit_code == 0, r.output
    text = (out / "grades.csv").read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:3] == ["student", "question_id", "points"]
    for row in rows[1:]:
        assert not re.match(r"[=+\-@\t\r]", row[0]), row
        assert unescape_cell(row[0]) in STUDENTS
    assert "'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")" in text and "'@SUM(A1)" in text
    xlsx = xlsx_cells(out / "grades.xlsx")
    assert xlsx[0][:3] == ["student", "question_id", "points"]
    assert sorted({row[0] for row in xlsx[1:]}) == sorted(STUDENTS)  # typed text cells: verbatim, no quote
    students = xlsx_cells(out / "grades.xlsx", 2)
    assert students[0] == ["student", "points", "max", "percent", "answered"] and len(students) == 1 + len(STUDENTS)
    assert "| Ana \\| Bia |" in (out / "grades.md").read_text(encoding="utf-8")

    # the instructor overrides the formula-named student's q2 in the CSV; a re-run keeps it
    rows = list(csv.DictReader(io.StringIO(text)))
    for row in rows:
        if row["student"] == "'@SUM(A1)" and row["question_id"] == "q2":
            row["override"] = "3"
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=list(rows[0]), lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    (out / "grades.csv").write_text(buf.getvalue(), encoding="utf-8")
    r = cli(["grade", str(quiz), str(replies), "--out", str(out), "--offline", "--json"])
    assert r.exit_code == 0, r.output
    doc = json.loads((out / "grades.json").read_text(encoding="utf-8"))
    assert doc["students"]["@SUM(A1)"]["grades"]["q2"]["points"] == 3 and doc["overrides_kept"] == 1


def test_grade_excel_eu_dialect(class_replies, tmp_path):
    quiz, replies = class_replies
    out = tmp_path / "rep"
    r = cli(["grade", str(quiz), str(replies), "--out", str(out), "--offline", "--csv-dialect", "excel-eu"])
    assert r.exit_code == 0, r.output
    raw = (out / "grades.csv").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbfstudent;question_id;points;score;") and b"\r\n" in raw
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig")), delimiter=";"))
    assert {r[0] for r in rows[1:]} >= {"Zoë Ñúñez", "'@SUM(A1)"}
    assert all("." not in r[3] for r in rows[1:])  # decimal comma (or whole numbers)
    # kb reads its own excel-eu gradebook back: an override typed there is kept
    rows = [r if not (r[0] == "Zoë Ñúñez" and r[1] == "q1") else r[:5] + ["1"] + r[6:] for r in rows]
    buf = io.StringIO()
    csv.writer(buf, delimiter=";", lineterminator="\r\n").writerows(rows)
    (out / "grades.csv").write_bytes(("\ufeff" + buf.getvalue()).encode("utf-8"))
    r = cli(["grade", str(quiz), str(replies), "--out", str(out), "--offline", "--csv-dialect", "excel-eu"])
    assert r.exit_code == 0, r.output
    doc = json.loads((out / "grades.json").read_text(encoding="utf-8"))
    assert doc["students"]["Zoë Ñúñez"]["grades"]["q1"]["points"] == 1

    r = cli(["grade", str(quiz), str(replies), "--out", str(tmp_path / "x"), "--csv-dialect", "excel"])
    assert r.exit_code == 2 and "--csv-dialect excel: unknown CSV dialect" in r.stderr and "excel-eu" in r.stderr
    assert not (tmp_path / "x").exists()


# --------------------------------------------------------------------------- a real quiz, files and imports

def test_generated_quiz_from_the_sample_course_survives_every_format(ingested, tmp_path):
    from ..conftest import run_kb

    ws = tmp_path / "ws"
    shutil.copytree(ingested, ws)
    r = run_kb(["quiz", "generate", "-n", "12", "-o", "quizzes/real.json"], cwd=ws)
    assert r.returncode == 0, r.stderr
    quiz = ws / "quizzes" / "real.json"
    want = expected(quiz)
    # the offline writer writes multiple choice only where >= 3 same-kind distractors exist, so a
    # sample-course quiz need not hold all four types; the mixed quiz above covers every type
    assert len({q["type"] for q in want}) >= 3
    _, gift = parse_gift(export_quiz(quiz, "gift").data)
    _, moodle = parse_moodle(export_quiz(quiz, "moodle").data)
    anki = [anki_question(n) for n in read_apkg(export_quiz(quiz, "anki", out=tmp_path / "r.apkg").data)["notes"]]
    for q, g, m, a in zip(want, gift, moodle, anki, strict=True):
        assert g["name"] == m["idnumber"] == a["id"] == q["id"]
        assert g["prompt"] == m["prompt"] == a["prompt"] == q["prompt"]
        if q["type"] == "mcq":
            assert ([x[0] for x in g["answers"]] == [html_to_text(x[0]) for x in m["answers"]]
                    == a["choices"] == q["choices"])
            assert a["correct"] == q["correct"] == [x[1] for x in g["answers"]].index(True)
        if q["type"] == "cloze":
            assert g["answers"][0] == m["answers"][0][0] == q["answer"].replace("*", "\\*")


def test_exports_do_not_load_genanki_or_xlsxwriter_until_used():
    import subprocess
    import sys

    code = ("import sys, kb.cli, kb.export, kb.sheets, kb.grading.gradebook; "
            "from kb.export import get_exporter; get_exporter('gift'); get_exporter('moodle'); "
            "assert 'genanki' not in sys.modules and 'xlsxwriter' not in sys.modules, sorted(sys.modules)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr


def test_files_are_replaced_atomically_with_the_users_umask(tmp_path):
    from kb.sheets import write_atomic_bytes

    target = tmp_path / "out" / "x.apkg"
    old = os.umask(0o027)
    try:
        write_atomic_bytes(target, b"one")
        write_atomic_bytes(target, b"two")
    finally:
        os.umask(old)
    assert target.read_bytes() == b"two" and (target.stat().st_mode & 0o777) == 0o640
    assert [p.name for p in target.parent.iterdir()] == ["x.apkg"]
