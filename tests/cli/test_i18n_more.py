"""What a teacher reads from ``kb outline``, ``kb sources``, ``kb search``, ``kb ask`` and ``kb llm check``
reads in Portuguese and in Spanish, run with the real CLI: their output is scanned for English words of
kb's interface (and of these commands), leaving out the course's own words they show (titles, passages)."""

from __future__ import annotations

import json
import re

import pytest

from ..conftest import run_kb
from ..openai_stub import OpenAIStub, reply
from .i18n_words import english_left

# these commands' own English words (none a Portuguese or Spanish word: not "central", nor "offline" in pt)
MORE = re.compile(r"\b(relevance|passages?|found|sections?|definition|procedure|code|title|steps|defined|"
                  r"pages|every|its|text|ingested|state|incomplete|chunks|lang|kind|transcript|index|headings|"
                  r"bookmarks|more|listed|endpoint|models?|latency|output|mode|warning|shown|instead)\b",
                  re.IGNORECASE)
WORD = re.compile(r"\w+")
SOURCE = "004_846eda6c7740515b.txt"  # the Spanish slides: an outline with sections, kinds and a "more" line


def ui_words_left(out: str, *content: str) -> list[str]:
    """The English interface words in ``out`` (option names left out) that are not words of the course's
    ``content`` it shows."""
    out = re.sub(r"--[\w-]+", " ", out)
    course = {w.lower() for c in content for w in WORD.findall(c)}
    return [w for w in english_left(out, MORE) if w not in course]


def outline_content(ws) -> list[str]:
    o = json.loads(run_kb(["outline", SOURCE, "--json"], cwd=ws).stdout)
    return [o["title"], o["source"], *(s["title"] + " " + s["locator"] for s in o["sections"]),
            *(i["name"] + " " + i["locator"] for s in o["sections"] for i in s["ideas"])]


def passages_content(got: dict, key: str) -> list[str]:
    return [got.get("answer", ""), *(h["citation"] + " " + h["text"] for h in got[key])]


QUESTION = "Como limitar a memória da GPU?"


@pytest.mark.parametrize("lang", ["pt", "es"])
def test_outline_sources_search_and_ask_read_in_the_language(ingested_workspace, lang):
    ws = ingested_workspace
    content = outline_content(ws)
    out = run_kb(["--ui-lang", lang, "outline", SOURCE], cwd=ws)
    assert out.returncode == 0, out.stderr
    said = {"pt": ("seções a partir de títulos", "definição", "seções", "as ideias mais centrais"),
            "es": ("secciones a partir de títulos", "definición", "secciones más", "las ideas más centrales")}[lang]
    assert all(s in out.stdout for s in said), out.stdout
    assert ui_words_left(out.stdout + out.stderr, *content) == [], out.stdout

    src = run_kb(["--ui-lang", lang, "sources"], cwd=ws)
    assert src.returncode == 0 and {"pt": "fonte", "es": "fuente"}[lang] in src.stdout, src.stdout
    assert ui_words_left(src.stdout + src.stderr) == [], src.stdout

    hits = run_kb(["--ui-lang", lang, "search", "memória da GPU", "-k", "2"], cwd=ws)
    got = json.loads(run_kb(["search", "memória da GPU", "-k", "2", "--json"], cwd=ws).stdout)
    assert {"pt": "relevância", "es": "relevancia"}[lang] in hits.stdout, hits.stdout
    assert ui_words_left(hits.stdout + hits.stderr, *passages_content(got, "hits")) == [], hits.stdout
    none = run_kb(["--ui-lang", lang, "search", "zzqx vvkw", "--mode", "bm25"], cwd=ws)
    assert none.returncode == 0 and none.stdout.strip() and ui_words_left(none.stdout) == [], none.stdout

    ans = run_kb(["--ui-lang", lang, "ask", QUESTION, "-k", "2"], cwd=ws)
    got = json.loads(run_kb(["ask", QUESTION, "-k", "2", "--json"], cwd=ws).stdout)
    assert ans.returncode == 0 and got["found"], ans.stderr
    assert ui_words_left(ans.stdout + ans.stderr, *passages_content(got, "passages")) == [], ans.stdout


def test_the_scan_sees_these_commands_english(ingested_workspace):
    ws = ingested_workspace
    out = run_kb(["outline", SOURCE], cwd=ws).stdout
    assert {"definition", "sections", "the"} <= set(ui_words_left(out, *outline_content(ws)))
    assert {"ingested", "state", "transcript"} <= set(ui_words_left(run_kb(["sources"], cwd=ws).stdout))
    assert ui_words_left(run_kb(["search", "zzqx vvkw", "--mode", "bm25"], cwd=ws).stdout) == ["found", "passages"]


def _llm_env(url: str) -> dict[str, str]:
    return {"OPENAI_BASE_URL": url, "KB_LLM_MODEL": "qwen2.5", "OPENAI_API_KEY": "k"}


@pytest.mark.parametrize("lang", ["pt", "es"])
def test_llm_check_and_asks_fallback_read_in_the_language(ingested_workspace, lang):
    ws = ingested_workspace
    with OpenAIStub(lambda b: reply({"ok": True, "word": "kb"}), models=["qwen2.5"]) as stub:
        check = run_kb(["--ui-lang", lang, "llm", "check"], cwd=ws, env=_llm_env(stub.url))
        url = stub.url
    assert check.returncode == 0, check.stderr
    assert {"pt": "modo de saída: json_schema", "es": "modo de salida: json_schema"}[lang] in check.stdout
    assert ui_words_left(check.stdout + check.stderr) == [], check.stdout
    english = run_kb(["llm", "check"], cwd=ws, env=_llm_env(url))  # the stub is gone: an error, in English
    assert english.returncode == 5 and "cannot be reached" in english.stderr
    # the endpoint is gone: kb ask answers offline and says why, in the language
    ans = run_kb(["--ui-lang", lang, "ask", QUESTION, "-k", "2"], cwd=ws, env=_llm_env(url))
    got = json.loads(run_kb(["ask", QUESTION, "-k", "2", "--json", "--offline"], cwd=ws).stdout)
    assert ans.returncode == 0 and ans.stderr.strip(), ans.stderr
    assert ui_words_left(ans.stdout + ans.stderr, *passages_content(got, "passages")) == [], ans.stderr


@pytest.mark.parametrize("lang", ["pt", "es"])
def test_eval_quiz_reads_in_the_language(ingested_workspace, lang):
    ws = ingested_workspace
    assert run_kb(["quiz", "generate", "-n", "6"], cwd=ws).returncode == 0
    got = json.loads(run_kb(["eval", "quiz", "quizzes/course.json", "--json"], cwd=ws).stdout)
    content = [p["id"] for p in got["per_question"]] + [
        m for p in (got.get("top_ideas") or {}).get("per_source", {}).values() for m in p["missing"]]
    out = run_kb(["--ui-lang", lang, "eval", "quiz", "quizzes/course.json"], cwd=ws)
    assert out.returncode == 0, out.stderr
    assert {"pt": "sem nenhum defeito", "es": "sin ningún defecto"}[lang] in out.stdout, out.stdout
    assert ui_words_left(out.stdout + out.stderr, *content) == [], out.stdout
    english = run_kb(["eval", "quiz", "quizzes/course.json"], cwd=ws).stdout
    assert {"questions", "the"} <= set(ui_words_left(english, *content))  # the scan sees the English


GRADED = ("question,reference,answer,score\n" + "".join(
    f'"A variável na /gpu:0 pode ser usada na /gpu:1?","Sim. O TensorFlow transfere o valor da variável.",'
    f'"{a}",{s}\n' for a, s in [("Sim, o valor é transferido.", 10), ("Sim, é copiada.", 8), ("Não pode.", 0),
                                ("Uma receita de bolo.", 0), ("Sim.", 4), ("Talvez.", "x")]))


@pytest.mark.parametrize("lang", ["pt", "es"])
def test_eval_grader_reads_in_the_language(tmp_path, lang):
    (tmp_path / "d.csv").write_text(GRADED, encoding="utf-8")
    args = ["eval", "grader", "d.csv", "--scale", "0-10", "--offline", "--review-budget", "20"]
    out = run_kb(["--ui-lang", lang, *args], cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    said = {"pt": ("por questão", "não é um número — linha ignorada"),
            "es": ("por pregunta", "no es un número — fila omitida")}[lang]
    assert said[0] in out.stdout and said[1] in out.stderr, out.stdout + out.stderr
    question = GRADED.splitlines()[1]
    assert ui_words_left(out.stdout + out.stderr, question) == [], out.stdout + out.stderr
    english = run_kb(args, cwd=tmp_path)
    assert {"question", "replies", "skipped"} <= set(ui_words_left(english.stdout + english.stderr, question))


ASK_SET = ('{"question": "Como limitar a memória da GPU?", "source": "sources/001_96d83118e2ee854a.txt", '
           '"pages": [1], "evidence": ["per_process_gpu_memory_fraction"], "split": "dev"}\n')
QUERIES = '{"query": "como limitar a memória da GPU?", "evidence": ["per_process_gpu_memory_fraction"]}\n'


@pytest.mark.parametrize("lang", ["pt", "es"])
def test_eval_ask_and_retrieval_read_in_the_language(ingested_workspace, lang):
    ws = ingested_workspace
    (ws / "ask.jsonl").write_text(ASK_SET, encoding="utf-8")
    (ws / "q.jsonl").write_text(QUERIES, encoding="utf-8")
    got = json.loads(run_kb(["eval", "ask", "ask.jsonl", "--offline", "--json"], cwd=ws).stdout)
    content = [q["question"] + " " + q["expected"] + " " + " ".join(q["cited"]) for q in got["questions"]]
    assert got["questions"][0]["verdict"] != "correct"  # a text source has no page 1: its line is printed
    out = run_kb(["--ui-lang", lang, "eval", "ask", "ask.jsonl", "--offline"], cwd=ws)
    assert out.returncode == 0 and {"pt": "esperado", "es": "esperado"}[lang] in out.stdout, out.stderr
    assert ui_words_left(out.stdout + out.stderr, *content) == [], out.stdout
    english = run_kb(["eval", "ask", "ask.jsonl", "--offline"], cwd=ws).stdout
    assert {"questions", "found", "expected"} <= set(ui_words_left(english, *content)), english
    ret = run_kb(["--ui-lang", lang, "eval", "retrieval", "q.jsonl"], cwd=ws)
    assert ret.returncode == 0 and "modo" in ret.stdout, ret.stderr
    assert ui_words_left(ret.stdout + ret.stderr) == [], ret.stdout
    assert ui_words_left(run_kb(["eval", "retrieval", "q.jsonl"], cwd=ws).stdout) == ["mode"]
