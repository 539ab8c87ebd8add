"""The interface in English, Portuguese and Spanish (kb.i18n): the catalogs are complete and
compile with stdlib gettext; the real `kb study` and `kb grade` read in each language; the
language comes from --ui-lang, KB_UI_LANG, the locale, then the course; --json stays English."""

from __future__ import annotations

import ast
import gettext
import io
import json
import re
from pathlib import Path

import pytest

from kb import i18n

from ..conftest import run_kb
from ..grading.test_grading import QUIZ

KB = Path(i18n.__file__).parent
PLACEHOLDER = re.compile(r"\{(\w*)\}")


def _messages() -> list[tuple[str, str | None]]:
    """Every literal message kb passes to _(), N_() (marked to be said later) or ngettext(), as (msgid,
    msgid_plural or None)."""
    found: list[tuple[str, str | None]] = []
    for f in sorted(KB.rglob("*.py")):
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            args = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if node.func.id in ("_", "N_") and len(args) == 1:
                found.append((args[0], None))
            elif node.func.id == "in_language" and len(args) == 1:  # in_language(lang, "message")
                found.append((args[0], None))
            elif node.func.id == "ngettext" and len(args) == 2:
                found.append((args[0], args[1]))
    return sorted(set(found), key=str)


@pytest.mark.parametrize("lang", ["pt", "es"])
def test_every_message_is_translated_with_the_same_placeholders(lang):
    text = (KB / "locale" / lang / "LC_MESSAGES" / "kb.po").read_text(encoding="utf-8")
    ids = re.findall(r'^msgid (".*")$', text, re.MULTILINE)
    assert len(ids) == len(set(ids)), f"{lang}: a msgid twice (the second would win silently)"
    entries = i18n.parse_po(text)
    messages = _messages()
    assert len(messages) > 50  # the extraction sees the study screens, progress and the grade report
    for msgid, plural in messages:
        key = msgid if plural is None else f"{msgid}\0{plural}"
        assert key in entries, f"{lang}: no translation for {msgid!r}"
        for form in entries[key].split("\0"):
            assert set(PLACEHOLDER.findall(form)) == set(PLACEHOLDER.findall(msgid)), (lang, msgid, form)


def test_po_compiles_to_mo_that_stdlib_gettext_reads():
    po = ('msgid ""\nmsgstr ""\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
          '# a comment\nmsgid "Model answer:"\nmsgstr "Resposta modelo:"\n\n'
          'msgid "untranslated"\nmsgstr ""\n\n'
          'msgid "{n} day"\nmsgid_plural "{n} days"\nmsgstr[0] "{n} dia"\nmsgstr[1] "{n} dias"\n\n'
          'msgid ""\n"two "\n"lines"\nmsgstr "duas linhas \\"entre aspas\\""\n')
    t = gettext.GNUTranslations(io.BytesIO(i18n.compile_mo(i18n.parse_po(po))))
    assert t.gettext("Model answer:") == "Resposta modelo:"
    assert t.gettext("untranslated") == "untranslated"
    assert [t.ngettext("{n} day", "{n} days", n) for n in (1, 2, 0)] == ["{n} dia", "{n} dias", "{n} dias"]
    assert t.gettext("two lines") == 'duas linhas "entre aspas"'


def test_language_order_option_then_variable_then_locale_then_course(monkeypatch):
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    assert i18n.current() == "en"
    with i18n.course("es"):
        assert i18n.current() == "es"
        monkeypatch.setenv("LANG", "C.UTF-8")  # says nothing: the course still decides
        assert i18n.current() == "es"
        monkeypatch.setenv("LANG", "pt_BR.UTF-8")
        assert i18n.current() == "pt"
        monkeypatch.setenv("KB_UI_LANG", "en")
        assert i18n.current() == "en"
        i18n.choose("es")
        assert i18n.current() == "es"
    assert i18n.normalize("fr_FR.UTF-8") is None and i18n.normalize("fr:es_MX") == "es"


@pytest.fixture
def ws(tmp_path, monkeypatch):
    (tmp_path / "quizzes").mkdir()
    (tmp_path / "quizzes" / "semana3.json").write_text(json.dumps(QUIZ, ensure_ascii=False), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


STUDY = {  # what one cloze answered right shows, in each language
    "en": ["1/1 · cloze · new", "Answer with the missing term, then Enter. :h hint · :s skip · :q quit",
           "✓ correct 3/3", "Model answer: all-reduce", "next review in 10 min",
           "session: 1 answered (1 correct, 0 partial, 0 incorrect), 0 skipped", "streak: 1 day"],
    "pt": ["1/1 · lacuna · nova", "Responda com o termo que falta e Enter. :h dica · :s pular · :q sair",
           "✓ correta 3/3", "Resposta modelo: all-reduce", "próxima revisão em 10 min",
           "sessão: respondidas 1 (corretas 1, parciais 0, incorretas 0), puladas 0", "sequência: 1 dia"],
    "es": ["1/1 · completar · nueva", "Responda con el término que falta y Enter. :h pista · :s omitir · :q salir",
           "✓ correcta 3/3", "Respuesta modelo: all-reduce", "próximo repaso en 10 min",
           "sesión: respondidas 1 (correctas 1, parciales 0, incorrectas 0), omitidas 0", "racha: 1 día"],
}


@pytest.mark.parametrize("lang", ["en", "pt", "es"])
def test_study_screens_in_each_language(ws, lang):
    r = run_kb(["--ui-lang", lang, "study", "--topic", "all-reduce"], cwd=ws, input="o All-Reduce\n\n")
    assert r.returncode == 0, r.stderr
    out = " ".join(r.stdout.split())  # rich wraps long lines at the terminal's width
    for line in STUDY[lang]:
        assert line in out, (lang, line, r.stdout)
    p = run_kb(["--ui-lang", lang, "progress"], cwd=ws)
    assert {"en": "progress by source", "pt": "progresso por fonte", "es": "progreso por fuente"}[lang] in p.stdout
    # nothing left to study: the message is in the language too
    r = run_kb(["--ui-lang", lang, "study", "--topic", "all-reduce"], cwd=ws, input="")
    assert {"en": "nothing to study now", "pt": "nada para estudar agora",
            "es": "nada que estudiar ahora"}[lang] in r.stderr


def test_study_follows_the_variable_then_the_course_and_json_stays_english(ws):
    r = run_kb(["study", "--topic", "all-reduce"], cwd=ws, input=":s\n", env={"KB_UI_LANG": "es"})
    assert "omitida" in r.stdout
    # no option, variable or locale: the quiz's language (Portuguese)
    r = run_kb(["study", "--topic", "all-reduce"], cwd=ws, input=":s\n", env={"LANGUAGE": None, "LC_ALL": None,
                                                                             "LC_MESSAGES": None, "LANG": "C.UTF-8"})
    assert "pulada" in r.stdout
    p = run_kb(["--ui-lang", "pt", "progress", "--json"], cwd=ws)
    assert {"reviewed", "due", "streak", "sources"} <= set(json.loads(p.stdout))


def test_unknown_interface_language_names_the_fix(ws):
    r = run_kb(["--ui-lang", "fr", "progress"], cwd=ws)
    assert r.returncode == 2 and "--ui-lang fr: not a language kb speaks" in r.stderr and "use en, pt or es" in r.stderr
    r = run_kb(["progress"], cwd=ws, env={"KB_UI_LANG": "klingon"})
    assert r.returncode == 2 and "KB_UI_LANG klingon: not a language kb speaks" in r.stderr


REPORT = {
    "pt": ["# Notas — Semana 3", "2 de 5 questões respondidas por 2 alunos", "## Questões", "| # | Tipo | Respostas |",
           "| 1 | curta | 2 |",
           "## Alunos", "| Aluno | Q1 | Q2 | Pontos | % |", "## Comentários", "- **Q1** 2/3 parcial — ",
           "- **Q2** 0/3 incorreta — ", "## Problemas nas respostas"],
    "es": ["# Notas — Semana 3", "2 de 5 preguntas respondidas por 2 alumnos", "## Preguntas",
           "| # | Tipo | Respuestas |", "| 1 | corta | 2 |",
           "## Alumnos", "| Alumno | P1 | P2 | Puntos | % |", "## Comentarios",
           "- **P1** 2/3 parcial — ", "- **P2** 0/3 incorrecta — ", "## Problemas en las respuestas"],
    "en": ["# Grades — Semana 3", "2 of 5 questions answered by 2 students", "## Questions", "| # | Type | Replies |",
           "## Students", "| Student | Q1 | Q2 | Points | % |", "## Feedback", "- **Q1** 2/3 partial — ",
           "- **Q2** 0/3 incorrect — ", "## Problems in the replies"],
}


@pytest.mark.parametrize("lang", ["en", "pt", "es"])
def test_grade_report_in_each_language_with_english_csv_and_json(ws, lang):
    (ws / "r.csv").write_text('student,question_id,answer\nAna,gil,"trava global, uma thread por vez"\nAna,gpu,\n'
                              "Bia,gil,não sei\n", encoding="utf-8")
    r = run_kb(["--ui-lang", lang, "grade", "quizzes/semana3.json", "r.csv", "--out", "rep", "--offline", "--json"],
               cwd=ws)
    assert r.returncode == 0, r.stderr
    md = (ws / "rep" / "grades.md").read_text(encoding="utf-8")
    for line in REPORT[lang]:
        assert line in md, (lang, line, md)
    assert (ws / "rep" / "grades.csv").read_text(encoding="utf-8").startswith("student,")
    assert "students" in json.loads(r.stdout)


TF_QUIZ = {"schema": 1, "title": "Semana 3", "questions": [
    {"id": "spark", "type": "tf", "prompt": "O Spark guarda os dados intermediários sempre em disco.",
     "answer": "false", "correct": False, "lang": "pt"},  # what an LLM writes
    {"id": "gil", "type": "tf", "prompt": "El GIL permite una thread a la vez.", "answer": "True. Una por vez.",
     "correct": True, "lang": "es"},
    {"id": "off", "type": "tf", "prompt": "O GIL acelera threads.", "correct": False, "lang": "pt",
     "answer": "Falso. A fonte diz: o GIL limita o paralelismo."},  # what the offline writer writes
]}


def test_true_false_in_the_key_and_moodle_feedback_in_the_question_language(ws):
    (ws / "quizzes" / "tf.json").write_text(json.dumps(TF_QUIZ, ensure_ascii=False), encoding="utf-8")
    r = run_kb(["quiz", "export", "quizzes/tf.json", "--format", "md", "--answers", "--out", "key.md"], cwd=ws)
    assert r.returncode == 0, r.stderr
    key = (ws / "key.md").read_text(encoding="utf-8")
    assert "- **Resposta:** Falso.\n" in key and "- **Respuesta:** Verdadero. Una por vez.\n" in key
    assert "- **Resposta:** Falso. A fonte diz: o GIL limita o paralelismo.\n" in key  # not "Falso. Falso."
    assert not re.search(r"\b(true|false)\b", key, re.IGNORECASE)
    r = run_kb(["quiz", "export", "quizzes/tf.json", "--format", "moodle", "--out", "q.xml"], cwd=ws)
    assert r.returncode == 0, r.stderr
    xml = (ws / "q.xml").read_text(encoding="utf-8")
    assert "Incorreto. Falso." in xml and "Incorrecto. Verdadero. Una por vez." in xml
    assert not re.search(r"Incorrec?to\. (true|false)", xml)


def test_a_generated_quiz_title_is_in_the_questions_language():
    from kb.writing.generate import GenerationRequest, quiz_title

    assert quiz_title(GenerationRequest(topic="all-reduce"), ["pt", "pt", "es"]) == "Questionário: all-reduce"
    assert quiz_title(GenerationRequest(sources=("sources/03Datos.pdf",)), ["es"]) == "Cuestionario: 03Datos.pdf"
    assert quiz_title(GenerationRequest(), []) == "Quiz: whole course"
    i18n.choose("es")  # the interface language does not change what students read in the quiz file
    assert quiz_title(GenerationRequest(), ["pt"]) == "Questionário: curso inteiro"


MD_QUIZ = {"schema": 1, "title": "Semana_3 *revisão*", "questions": [
    {"id": "len", "type": "short", "prompt": "O que faz o método __len__() de uma classe?", "lang": "pt",
     "answer": "__len__() devolve o tamanho: len(x) chama x.__len__(); 2*3*4 não é ênfase.",
     "concepts": ["__len__", "tamanho"], "citations": [{"source": "sources/aula_03.pdf", "locator": "p. 2",
                                                        "quote": "o *dunder* __len__"}]},
    {"id": "cz", "type": "cloze", "prompt": "O método _____ inicializa o objeto; use `self.__dict__`.", "lang": "pt",
     "answer": "__init__", "accepted": ["[init]"]},
    {"id": "mc", "type": "mcq", "prompt": "Qual?", "lang": "pt", "answer": "<b>a_b</b>",
     "choices": ["<b>a_b</b>", "x[0]"], "correct": 0},
]}


def test_markdown_key_renders_as_written(ws):
    from markdown_it import MarkdownIt

    from kb.export import get_exporter
    from kb.quiz import load_quiz

    (ws / "md.json").write_text(json.dumps(MD_QUIZ, ensure_ascii=False), encoding="utf-8")
    quiz = load_quiz(ws / "md.json")
    md = MarkdownIt("commonmark")
    for answers in (True, False):
        html = md.render(get_exporter("md").render(quiz, answers=answers))
        assert "<strong>" not in html.replace("<strong>Resposta:</strong>", "").replace(
            "<strong>Conceitos-chave:</strong>", "").replace("<strong>Fonte:</strong>", "").replace(
            "<strong>Correta:</strong>", "")
        assert "<em>" not in html.replace("<em>(+ [init])</em>", "")
        assert "método __len__() de uma classe" in html and "Semana_3 *revisão*" in html
        assert "O método _____ inicializa o objeto; use <code>self.__dict__</code>." in html
        assert "&lt;b&gt;a_b&lt;/b&gt;" in html and "x[0]" in html
        if answers:
            assert "__len__() devolve o tamanho: len(x) chama x.__len__(); 2*3*4 não é ênfase." in html
            assert "__init__ <em>(+ [init])</em>" in html and "sources/aula_03.pdf" in html
            assert "o *dunder* __len__" in html


def test_rejected_drafts_read_in_words_and_help_says_what_lang_does(ws):
    from kb.ui import defect_words

    assert defect_words("failed checks: giveaway, contradicts-code") == (
        "the question gives the answer away; the course's own code says otherwise")
    i18n.choose("pt")
    assert defect_words("failed checks: giveaway") == "a pergunta entrega a resposta"
    assert defect_words("near-duplicate of q1") == "near-duplicate of q1"
    r = run_kb(["quiz", "generate", "--help"], cwd=ws)
    assert "nothing is translated" in " ".join(r.stdout.split())


def test_anki_true_false_back_says_the_word_once_and_moodle_keeps_the_essay_answer_for_the_grader(ws):
    import xml.etree.ElementTree as ET

    from ..writing.test_export import read_apkg

    (ws / "quizzes" / "tf.json").write_text(json.dumps(TF_QUIZ, ensure_ascii=False), encoding="utf-8")
    r = run_kb(["quiz", "export", "quizzes/tf.json", "--format", "anki", "--out", "tf.apkg"], cwd=ws)
    assert r.returncode == 0, r.stderr
    backs = [note["fields"]["Back"] for note in read_apkg((ws / "tf.apkg").read_bytes())["notes"]]
    assert backs == ["<b>Falso</b>", "<b>Verdadero</b><br>Una por vez.",
                     "<b>Falso</b><br>A fonte diz: o GIL limita o paralelismo."]
    r = run_kb(["quiz", "export", "quizzes/semana3.json", "--format", "moodle", "--out", "q.xml"], cwd=ws)
    assert r.returncode == 0, r.stderr
    essay = next(q for q in ET.parse(ws / "q.xml").getroot() if q.get("type") == "essay")
    assert "O GIL (Global Interpreter Lock)" in essay.findtext("graderinfo/text")
    assert "O GIL (Global Interpreter Lock)" not in essay.findtext("generalfeedback/text")
