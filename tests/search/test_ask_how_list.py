"""kb ask offline on "how" and "list" questions: the steps and the page's code whole and in order, the slide
whose heading names what the list is of, shell commands kept as written; and no answer states what its
cited passage does not. A small deck written for these tests (not one of eval/ask_set.jsonl's or
eval/ask_dev_extra.jsonl's) is rendered to a real PDF and ingested with the sample course."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kb.answering import Unit, acronyms, is_steps, question_kind, spells_out
from kb.text import clean_inline

from ..conftest import ROOT, course_with_decks, run_kb, text_deck
from .helpers import ask, cited_pages

DECK = """\
=== Computación paralela en clusters
• Curso de frameworks de deep learning
=== Recortar gradientes
• Por norma global: reescalar el gradiente cuando su norma supera un umbral c
• PyTorch: siempre entre backward() y step()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
• Con AMP: desescalar los gradientes antes de recortarlos
    scaler.unscale_(optimizer)
    scaler.step(optimizer)
=== Monitoramento e gestão de jobs
• squeue -u $USER: jobs na fila e em execução
• scontrol show job JOBID: todos os detalhes da alocação
• sacct -j JOBID: histórico de jobs já terminados
• scancel JOBID: cancela jobs
=== Retropropagación en el tiempo
• La retropropagación en el tiempo es backprop estándar sobre el grafo desplegado
• Procedimiento:
  • 1. Forward de t=1 a T guardando las activaciones
  • 2. Pérdida total como suma de las pérdidas de cada paso
  • 3. Backward de t=T a t=1 acumulando los gradientes
• Coste: memoria proporcional a T
=== Endereço do nó mestre
• O nó mestre é o primeiro nó da alocação
    export MASTER_ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
• SLURM_PROCID: rank global da task
=== Kernels acelerados con cuDNN
• PyTorch: usar el kernel de cuDNN no exige condiciones a nn.LSTM sobre tensores CUDA
  • Un bucle Python con nn.LSTMCell no aprovecha el kernel de secuencia completa
  • lstm.flatten_parameters() junta los pesos en un bloque contiguo
• Keras usa cuDNN en GPU solo si:
  • activation="tanh" y recurrent_activation="sigmoid"
  • recurrent_dropout=0
  • unroll=False y use_bias=True
"""


@pytest.fixture(scope="module")
def course(tmp_path_factory, course_template) -> Path:
    """The sample course and the deck above (corpora/cluster_es.pdf), ingested by `kb ingest`."""
    return course_with_decks(tmp_path_factory.mktemp("cluster"), text_deck("cluster_es", DECK), course_template / ".kb")



def test_shell_variables_and_commands_are_not_taken_for_latex():
    line = 'export MASTER_ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)'
    assert clean_inline(line) == line
    assert clean_inline("--rdzv_endpoint=$MASTER_ADDR:$MASTER_PORT y ${HOME}") == \
        "--rdzv_endpoint=$MASTER_ADDR:$MASTER_PORT y ${HOME}"
    assert clean_inline("los datos$^{\\mathrm{1}}$ y la matriz $W$") == "los datos y la matriz"


def test_a_list_of_numbered_or_labelled_steps_is_steps():
    assert is_steps(Unit(0, ["• Procedimiento:", "  • Poner a cero", "  • Forward"], 0))
    assert is_steps(Unit(0, ["• Entrenar", "  • 1. Forward", "  • 2. Backward"], 0))
    assert not is_steps(Unit(0, ["• Ventajas", "  • rápido", "  • barato"], 0))
    assert not is_steps(Unit(0, ["• Procedimiento: forward y backward"], 0))


def test_an_acronym_is_spelled_out_by_the_capitals_of_consecutive_words():
    assert acronyms("O que é LoRA?") == ["LRA"] and acronyms("¿Qué es PEFT?") == ["PEFT"]
    assert acronyms("¿Qué es un optimizador?") == [] and acronyms("¿Qué hace Nesterov?") == []
    assert spells_out("LoRA: Low-Rank Adaptation (Hu et al., 2021)", "LRA")
    assert spells_out("PEFT (Parameter-Efficient Fine-Tuning)", "PEFT")
    assert not spells_out("LoRA: hiperparâmetros principais", "LRA")
    assert not spells_out("Full FT vs LoRA vs QLoRA", "LRA")
    assert not spells_out("stochastic gradient descent", "SGD")  # not capitalised: a phrase, not the expansion


def test_a_how_question_gets_the_pages_code_whole_and_in_order(course):
    a = ask(course, "¿Cómo se recortan los gradientes en PyTorch?")
    assert a["found"] and ("cluster_es.pdf", 2) in cited_pages(a)
    text = a["answer"]
    assert text.index("loss.backward()") < text.index("clip_grad_norm_") < text.index("scaler.step(optimizer)")


def test_a_steps_question_gets_the_numbered_steps(course):
    a = ask(course, "¿Qué pasos sigue la retropropagación en el tiempo?")
    assert question_kind("¿Qué pasos sigue la retropropagación en el tiempo?") == "how"
    assert ("cluster_es.pdf", 4) in cited_pages(a)
    text = a["answer"]
    assert text.index("Forward de t=1") < text.index("Pérdida total") < text.index("Backward de t=T")


def test_a_list_question_gets_the_slide_whose_heading_names_what_the_list_is_of(course):
    a = ask(course, "Quais comandos servem para monitorar jobs?")
    assert ("cluster_es.pdf", 3) in cited_pages(a)
    text = a["answer"]
    assert text.index("squeue -u $USER") < text.index("scontrol show job") < text.index("sacct -j") \
        < text.index("scancel")


def test_a_list_question_gets_the_list_labelled_with_its_subject_not_anothers(course):
    a = ask(course, "¿Qué condiciones exige Keras para usar cuDNN?")
    assert ("cluster_es.pdf", 6) in cited_pages(a)
    assert "recurrent_dropout=0" in a["answer"] and "unroll=False" in a["answer"]
    assert "flatten_parameters" not in a["answer"]


def test_a_shell_command_is_quoted_as_written(course):
    a = ask(course, "Como obter o endereço do nó mestre?")
    assert 'export MASTER_ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)' in a["answer"]


def test_no_answer_states_what_its_cited_passage_does_not(course):
    """Every line of every answer, of every kind, is text of the passage it cites (kb eval ask's "quoted")."""
    questions = [
        ("¿Cómo se recortan los gradientes en PyTorch?", 2), ("¿Qué pasos sigue la retropropagación en el tiempo?", 4),
        ("Quais comandos servem para monitorar jobs?", 3), ("Como obter o endereço do nó mestre?", 5),
        ("¿Qué es la retropropagación en el tiempo?", 4), ("¿Por qué desescalar los gradientes con AMP?", 2),
        ("¿Cuál es la diferencia entre squeue y sacct?", 3), ("O que é o all-reduce?", 1),
        ("Como limitar a memória da GPU?", 1), ("¿Qué estrategias de distribución ofrece TensorFlow?", 1),
    ]
    rows = [{"question": q, "source": "cluster_es.pdf", "pages": [p], "evidence": ["-"], "split": "dev"}
            for q, p in questions]
    path = course / "set.jsonl"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows), encoding="utf-8")
    r = run_kb(["eval", "ask", str(path), "--offline", "--json"], cwd=course)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert sum(q["answer"] != "" and "[" in q["answer"] for q in got["questions"]) >= 8  # answers, not "not found"
    assert [q["question"] for q in got["questions"] if not q["quoted"]] == []


def test_a_cold_kb_ask_opens_no_chroma_and_runs_blas_on_one_thread(course):
    """kb ask reads the cached search index (no chromadb import) and, unless the user chose, runs numpy's BLAS
    on one thread: a query is one short text (bench/ask.py --cold measures what both save)."""
    import os
    import subprocess
    import sys

    code = ("import os, sys\nfrom kb.cli import app\n"
            "try:\n    app(['ask', '¿Cómo se recortan los gradientes?', '--offline', '--json'])\n"
            "except SystemExit as e:\n    assert not e.code, e.code\n"
            "print('chromadb' in sys.modules, os.environ.get('OPENBLAS_NUM_THREADS'))\n")
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    env.update(KB_HOME=str(course / ".kb"), PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=course, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "False 1"
    env["OPENBLAS_NUM_THREADS"] = "2"  # the user's own setting wins
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=course, env=env)
    assert out.stdout.strip().splitlines()[-1] == "False 2"


def test_a_language_model_s_sentence_tokens_are_text_not_markup():
    # (a slide's token list: the reader dropped "<s>" and "</s>" as strikethrough tags, round 25's wav2vec_pt)
    line = 'tem 32 tokens: 26 letras, "|" (espaço), <pad> (usado como blank), <s>, </s>, <unk>'
    assert clean_inline(line) == line
    assert clean_inline("um texto <u>sublinhado</u>") == "um texto sublinhado"
