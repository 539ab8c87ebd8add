"""Errors and hints in the interface language (kb.errors.KbError.localized): every error kb raises is an
English template filled after translation, the Portuguese and Spanish catalogs have each one with the
same placeholders, and the real CLI prints them in pt and es while --json and CSV stay English."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from kb import i18n
from kb.errors import InputError, KbError, Phrase, StoreError

from ..conftest import run_kb
from ..grading.test_grading import QUIZ

KB = Path(i18n.__file__).parent
TREES = {f: ast.parse(f.read_text(encoding="utf-8")) for f in sorted(KB.rglob("*.py"))}


def placeholders(template: str) -> set[str]:
    """The field names a str.format template uses (``{{``/``}}`` are literal braces)."""
    return set(re.findall(r"\{(\w+)[^{}]*\}", template.replace("{{", "").replace("}}", "")))


def _error_classes() -> set[str]:
    names = {"KbError"}
    while True:
        more = {n.name for t in TREES.values() for n in ast.walk(t) if isinstance(n, ast.ClassDef)
                and any(getattr(b, "id", getattr(b, "attr", None)) in names for b in n.bases)} - names
        if not more:
            return names
        names |= more


ERRORS = _error_classes() | {"Message"}  # kb.i18n.Message: a report's problems and notes, kept as data


def _templates(node: ast.expr | None) -> list[str] | None:
    """The literal templates an argument can be (both sides of ``a if c else b``, ``N_("…")``); None for
    an f-string, a concatenation or a call: text formatted before translation, which no catalog can hold."""
    if node is None:
        return []
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "N_" and isinstance(node.args[0], ast.Constant):
        return [node.args[0].value]
    if isinstance(node, ast.IfExp):
        a, b = _templates(node.body), _templates(node.orelse)
        return None if a is None or b is None else a + b
    return None


def _error_calls():
    """(where, message templates, hint templates, field names or None when ``**fields`` is passed on)
    for every call of a KbError class in kb/; a template passed through a variable is checked where
    it is written (``N_``)."""
    for f, tree in TREES.items():
        for n in ast.walk(tree):
            if not isinstance(n, ast.Call):
                continue
            name = n.func.id if isinstance(n.func, ast.Name) else getattr(n.func, "attr", None)
            if name not in ERRORS:
                continue
            hint = n.args[1] if len(n.args) > 1 else next((k.value for k in n.keywords if k.arg == "hint"), None)
            fields = None if any(k.arg is None for k in n.keywords) else {k.arg for k in n.keywords if k.arg != "hint"}
            args = [n.args[0] if n.args else None, hint]
            passed = [isinstance(a, ast.Name) or (isinstance(a, ast.Attribute) and a.attr.endswith("template"))
                      for a in args]
            yield f"{f.relative_to(KB.parent)}:{n.lineno}", args, passed, fields


def catalog_templates() -> set[str]:
    """Every error template in kb/: the literals of error calls and every ``N_("…")``."""
    out: set[str] = set()
    for _where, args, _passed, _fields in _error_calls():
        for a in args:
            out.update(_templates(a) or [])
    for tree in TREES.values():
        for n in ast.walk(tree):
            if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "N_":
                assert isinstance(n.args[0], ast.Constant), ast.unparse(n)
                out.add(n.args[0].value)
    return {t for t in out if t}


def test_every_error_is_a_template_filled_after_translation():
    calls = list(_error_calls())
    assert len(calls) > 100  # the extraction sees kb's errors
    wrong = []
    for where, args, passed, fields in calls:
        found = [[] if ok else _templates(a) for a, ok in zip(args, passed, strict=True)]
        if None in found:
            wrong.append(f"{where}: an error formatted before translation (use a template and fields)")
        elif fields is not None and not any(passed):
            used = set().union(*(placeholders(t) for ts in found for t in ts))
            if used != fields:
                wrong.append(f"{where}: the template uses {sorted(used)}, the call gives {sorted(fields)}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("lang", ["pt", "es"])
def test_every_error_and_hint_is_translated_with_the_same_placeholders(lang):
    entries = i18n.parse_po((KB / "locale" / lang / "LC_MESSAGES" / "kb.po").read_text(encoding="utf-8"))
    templates = catalog_templates()
    assert len(templates) > 150
    missing = sorted(t for t in templates if t not in entries)
    assert not missing, f"{lang}: {len(missing)} untranslated, e.g. {missing[:3]}"
    for t in templates:
        assert placeholders(entries[t]) == placeholders(t), (lang, t, entries[t])
        assert entries[t] != t or not re.search(r"[a-z]{4,} [a-z]{4,}", t), f"{lang}: left in English: {t!r}"


def test_an_error_is_english_in_message_and_translated_by_localized():
    e = InputError("{path}: question {question} has no model answer", "regenerate it or add \"answer\"",
                   path="quizzes/w3.json", question="q7")
    assert e.message == "quizzes/w3.json: question q7 has no model answer" and str(e).endswith('add "answer"')
    i18n.choose("pt")
    assert e.localized() == ("quizzes/w3.json: a questão q7 não tem resposta modelo",
                             "gere-a de novo ou acrescente \"answer\"")
    i18n.choose("es")
    assert e.localized()[0] == "quizzes/w3.json: la pregunta q7 no tiene respuesta modelo"
    assert e.message == "quizzes/w3.json: question q7 has no model answer"  # what --json and logs carry
    # words among the fields are translated with the message; a value never is
    words = InputError("{path}:1: missing column(s) {missing} (found: {found})", "x", path="r.csv",
                       missing="answer", found=Phrase("nothing"))
    assert words.localized()[0] == "r.csv:1: falta(n) la(s) columna(s) answer (encontradas: nada)"
    assert KbError("{what} failed", what="nothing").localized()[0] == "nothing failed"  # not in a catalog: as written
    # an error inside another one gives its own message, translated
    inner = StoreError("{path}: the study database is damaged ({problem})", "", path="s.db", problem="x")
    outer = StoreError("{locked}; your answer to question {question} was not saved (it was: {reply!r})", "",
                       locked=inner, question="q1", reply="sim")
    assert outer.message == "s.db: the study database is damaged (x); your answer to question q1 was not saved " \
        "(it was: 'sim')"
    i18n.choose("es")
    assert outer.localized()[0].startswith("s.db: la base de datos de estudio está dañada (x); su respuesta")


@pytest.fixture
def ws(tmp_path, monkeypatch):
    (tmp_path / "quizzes").mkdir()
    (tmp_path / "quizzes" / "semana3.json").write_text(json.dumps(QUIZ, ensure_ascii=False), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


# what each command prints for an error a teacher or student makes, in each language (exit code, then
# the lines' beginnings): the English is the msgid, so a changed English message fails here too
CASES = {
    "quiz export": (["quiz", "export", "quizzes/nada.json", "--format", "md"], 3, {
        "en": ["kb: error: quizzes/nada.json: no such quiz file",
               "fix: generate one with kb quiz generate, or check the path"],
        "pt": ["kb: erro: quizzes/nada.json: arquivo de questionário inexistente",
               "como resolver: gere um com kb quiz generate, ou confira o caminho"],
        "es": ["kb: error: quizzes/nada.json: no existe el archivo de cuestionario",
               "cómo resolverlo: genere uno con kb quiz generate, o revise la ruta"]}),
    "grade": (["grade", "quizzes/semana3.json", "r.csv", "--offline"], 3, {
        "en": ["kb: error: r.csv:1: missing column(s) question_id, answer (found: student, nota)"],
        "pt": ["kb: erro: r.csv:1: falta(m) a(s) coluna(s) question_id, answer (encontradas: student, nota)",
               "como resolver: a primeira linha deve dar o nome das colunas: student, question_id, answer"],
        "es": ["kb: error: r.csv:1: falta(n) la(s) columna(s) question_id, answer (encontradas: student, nota)",
               "cómo resolverlo: la primera línea debe nombrar las columnas: student, question_id, answer"]}),
    "ask": (["ask", "o que é o GIL?"], 4, {
        "en": ["kb: error: no knowledge base at "],
        "pt": ["kb: erro: não há base de conhecimento em ",
               "como resolver: rode kb ingest sources/ primeiro, ou aponte --home/KB_HOME para o espaço de trabalho"],
        "es": ["kb: error: no hay base de conocimiento en ",
               "cómo resolverlo: ejecute kb ingest sources/ primero, o apunte --home/KB_HOME al espacio de trabajo"]}),
    "quiz generate": (["quiz", "generate", "--offline", "-n", "0"], 2, {
        "en": ["kb: error: -n 0: must be at least 1"],
        "pt": ["kb: erro: -n 0: precisa ser pelo menos 1"],
        "es": ["kb: error: -n 0: debe ser al menos 1"]}),
    "quiz review": (["quiz", "review", "quizzes/w9.json"], 3, {
        "en": ["kb: error: quizzes/w9.json: no such quiz file"],
        "pt": ["kb: erro: quizzes/w9.json: arquivo de questionário inexistente"],
        "es": ["kb: error: quizzes/w9.json: no existe el archivo de cuestionario"]}),
}


@pytest.mark.parametrize("lang", ["en", "pt", "es"])
@pytest.mark.parametrize("command", sorted(CASES))
def test_the_cli_prints_errors_and_hints_in_the_interface_language(ws, command, lang):
    (ws / "r.csv").write_text("nome,nota\nAna,3\n", encoding="utf-8")
    args, code, expected = CASES[command]
    r = run_kb(["--ui-lang", lang, *args], cwd=ws)
    err = " ".join(r.stderr.split())  # rich wraps long lines at the terminal's width
    assert r.returncode == code, r.stderr
    for line in expected[lang]:
        assert line in err, (command, lang, r.stderr)
    if lang != "en":  # nothing left in English: no "error:"/"fix:" words, no English hint
        assert "fix:" not in err and " the " not in err, err


INGEST = {  # a path that is not there: the table of files, the failure and its hint, the counts
    "en": ["┃ file ┃ status ┃", "│ nada │ failed │", "no such file or folder — check the path (kb ingest",
           "1 failed; 0 chunks embedded, 0 reused"],
    "pt": ["┃ arquivo ┃ situação ┃", "│ nada    │ falhou   │",
           "arquivo ou pasta inexistente — confira o caminho (kb ingest",
           "1 falhou; 0 trechos vetorizados, 0 reaproveitados"],
    "es": ["┃ archivo ┃ estado ┃", "│ nada    │ falló  │",
           "no existe el archivo o la carpeta — revise la ruta (kb ingest",
           "1 falló; 0 fragmentos vectorizados, 0 reutilizados"],
}


@pytest.mark.parametrize("lang", ["en", "pt", "es"])
def test_ingest_failures_read_in_the_language_and_json_keeps_the_english(ws, lang):
    r = run_kb(["--ui-lang", lang, "ingest", "nada"], cwd=ws)
    assert r.returncode == 1, r.stderr
    for piece in INGEST[lang]:
        assert piece in r.stderr, (lang, piece, r.stderr)
    j = run_kb(["--ui-lang", lang, "ingest", "nada", "--json"], cwd=ws)
    failed = json.loads(j.stdout)["files"][0]
    assert failed["message"] == "nada: no such file or folder" and failed["status"] == "failed"
    assert failed["hint"] == "check the path (kb ingest takes files and folders)" and "error" not in failed


def test_study_errors_follow_the_variable_and_a_broken_quiz_reads_in_spanish(ws):
    (ws / "quizzes" / "rota.json").write_text('{"questions": [{"id": "a", "type": "short", "prompt": "¿Qué?"}]}',
                                              encoding="utf-8")
    r = run_kb(["study", "quizzes/rota.json"], cwd=ws, env={"KB_UI_LANG": "es"})
    assert r.returncode == 3
    assert "quizzes/rota.json: la pregunta a no tiene respuesta modelo" in r.stderr
    assert "cómo resolverlo: genérela de nuevo o añada \"answer\"" in r.stderr


class _TwoArgs(Exception):
    def __init__(self, what, where):  # like some libraries' exceptions: pickle cannot rebuild it
        super().__init__(f"{what} at {where}")


def test_an_error_crosses_processes_and_still_speaks_the_language():
    import pickle

    e = InputError("{path}: damaged PDF ({kind}: {error})", "re-export the PDF or remove it", path="a.pdf",
                   kind="_TwoArgs", error=_TwoArgs("bad xref", 7))
    back = pickle.loads(pickle.dumps(e))  # an ingest worker hands its failed file to the parent this way
    assert back.message == "a.pdf: damaged PDF (_TwoArgs: bad xref at 7)"
    i18n.choose("pt")
    assert back.localized() == ("a.pdf: PDF danificado (_TwoArgs: bad xref at 7)", "exporte o PDF de novo ou remova-o")


def test_an_ingest_note_reads_in_the_language_and_json_keeps_the_english(ingested_workspace):
    ws = ingested_workspace
    (ws / "sources" / "aula_latin1.txt").write_bytes("Aula 9\n\nA memória da GPU é limitada; use lotes menores.\n"
                                                     .encode("cp1252"))
    r = run_kb(["--ui-lang", "pt", "ingest", "sources"], cwd=ws)
    assert r.returncode == 0, r.stderr
    said = " ".join(r.stderr.replace("│", " ").split())
    assert "adicionado" in said and "não é UTF-8 (a partir da linha 3); lido como Windows-1252/Latin-1" in said, \
        r.stderr
    (ws / "sources" / "aula_latin1.txt").write_bytes("Aula 9\n\nA memória da GPU é pequena.\n".encode("cp1252"))
    j = run_kb(["--ui-lang", "pt", "ingest", "sources", "--json"], cwd=ws)
    note = next(f for f in json.loads(j.stdout)["files"] if f["source"].endswith("aula_latin1.txt"))["message"]
    assert note == "not UTF-8 (from line 3); read as Windows-1252/Latin-1 — check accents, save as UTF-8"
