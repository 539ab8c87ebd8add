"""`kb eval grader --review-budget` reports a random order's spread over its seeds beside their mean, so
that "kb's order is above a random one" can be read against how much random orders differ among
themselves: the real command line, the use-m3 embedder and the offline grader."""

from __future__ import annotations

import json

import pytest

from ..conftest import run_kb
from .test_grading import QUIZ, write_csv

# twenty distinct replies, each its own group: which ones a random order decides first changes what kb learns
RIGHT = ["Uma trava do interpretador que deixa uma thread por vez executar bytecode.",
         "O Global Interpreter Lock: só uma thread roda código Python de cada vez.",
         "Um lock global do CPython que serializa a execução das threads.",
         "Trava global que impede duas threads de executarem bytecode ao mesmo tempo.",
         "Mecanismo do interpretador que limita o paralelismo de threads em Python.",
         "Um mutex do interpretador: as threads se revezam para executar.",
         "Lock do CPython que protege o estado do interpretador; uma thread por vez.",
         "A trava que faz threads Python não rodarem em paralelo em vários núcleos.",
         "Um bloqueio global que permite uma só thread ativa no interpretador.",
         "É o lock que garante que só uma thread execute instruções Python por vez."]
WRONG = ["É um compilador que deixa o Python mais rápido.",
         "Uma biblioteca gráfica para interfaces.",
         "O gerenciador de pacotes do Python.",
         "Um tipo de lista imutável.",
         "Um formato de arquivo de imagens.",
         "A função que imprime na tela.",
         "Um banco de dados embutido.",
         "O coletor de lixo que libera memória de objetos sem referência.",
         "Um servidor web para aplicações Python.",
         "A máquina virtual Java usada pelo Jython."]


@pytest.fixture
def spread_data(tmp_path):
    q, ref = QUIZ["questions"][0]["prompt"], QUIZ["questions"][0]["answer"]
    rows = [("question", "reference", "answer", "score")]
    # a strict teacher: half the right replies get 1, not 3, so what a decision teaches depends on which it is
    rows += [(q, ref, r, 3 if i % 2 else 1) for i, r in enumerate(RIGHT)] + [(q, ref, w, 0) for w in WRONG]
    return write_csv(tmp_path / "data.csv", rows)


def test_review_budget_reports_the_random_orders_spread(tmp_path, spread_data):
    r = run_kb(["eval", "grader", str(spread_data), "--offline", "--review-budget", "10,20,40", "--json"],
               cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    rnd = out["review_random"]
    assert [x["read"] for x in rnd] == [2, 4, 8]
    for x in rnd:
        assert x["qwk_min"] <= x["qwk"] <= x["qwk_max"]
    # three seeds that decide different replies first do not all end at the same QWK
    assert any(x["qwk_min"] < x["qwk_max"] for x in rnd)
    # kb's own order is one order: no range
    assert "qwk_min" not in out["review"][0]


def test_review_budget_table_shows_the_range(tmp_path, spread_data):
    r = run_kb(["eval", "grader", str(spread_data), "--offline", "--review-budget", "20,40"], cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    out = json.loads(run_kb(["eval", "grader", str(spread_data), "--offline", "--review-budget", "20,40", "--json"],
                            cwd=tmp_path).stdout)
    ranged = [x for x in out["review_random"] if x["qwk_min"] < x["qwk_max"]]
    assert ranged
    for x in ranged:
        assert f"{x['qwk']:.3f} ({x['qwk_min']:.3f}–{x['qwk_max']:.3f})" in r.stdout


def test_review_budget_reports_the_rest_the_decisions_did_not_cover(tmp_path, spread_data):
    r = run_kb(["eval", "grader", str(spread_data), "--offline", "--review-budget", "10,100", "--json"],
               cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    some, every = out["review"]
    assert some["covered"] == 2 and -1.0 <= some["qwk_rest"] <= 1.0
    # every reply decided: the teacher's grades are the whole set, and nothing was left to propagate to
    assert every["covered"] == 20 and every["qwk"] == pytest.approx(1.0) and every["qwk_rest"] is None
    assert out["review_random"][1]["qwk_rest"] is None and out["review_random"][0]["qwk_rest"] is not None
