"""A stem asks what its model answer says, in the deck's own setting (issue 26, rounds 11-12: after the concepts,
the stem was the fresh raters' main reason to fix a question).

- a "what is X" answered by the commands that start X, by precautions, by what to do with X, by a problem X may
  cause or by a table is asked by that kind (kb/writing/stem_forms.py): "¿qué es MPS?" → "¿cómo se pone en marcha
  MPS?", "¿qué significa «torch.compile»?" → "¿qué problema tiene que ver con torch.compile y cómo se resuelve?";
  the registry's check flags the what-is stems left, whoever wrote them;
- a title that names an area of work ("Monitorización", "Orden de ejecución", "Vocabulário") is explained only where
  its article is sure, the weakest form (never "explica qué es coste de memoria");
- a stem is never set in a fragment with a lost symbol ("Em -DP, …" of "(epsilon, delta)-DP") nor in a one-word
  slide label ("Em compatibilidade, …"), and a deck titled "PyTorch em GPUs AMD com ROCm" is set in ROCm.

Written on round 12's decks (mig_es, hooks_es, opacus_pt, rocm_pt), rendered as eval/deck_pdf.py renders them,
through the public API.
"""

from __future__ import annotations

import re

import pytest

from kb.quiz import Question
from kb.writing.checklist import CheckContext, run_checks
from kb.writing.pattern_topic import topic_form
from kb.writing.setting import slide_label
from kb.writing.stem_forms import answer_kind, kind_stem

from ..conftest import deck_quizzes, heldout_decks

DECKS = ("mig_es", "hooks_es", "opacus_pt", "rocm_pt")


@pytest.mark.parametrize(("prompt", "answer", "lang", "stem"), [
    ("Al compartir GPUs, ¿qué es MPS?", "sudo nvidia-smi -i 0 -c EXCLUSIVE_PROCESS # recomendado", "es",
     "Al compartir GPUs, ¿cómo se pone en marcha MPS?"),
    ("En PyTorch, ¿qué significa «torch.compile»?",
     "torch.compile: los hooks pueden provocar graph breaks o recompilaciones; regístralos antes de compilar", "es",
     "En PyTorch, ¿qué problema tiene que ver con torch.compile y cómo se resuelve?"),
    ("Em privacidade diferencial no treino, o que significa «LSTM/RNN»?",
     "LSTM/RNN: usar opacus.layers.DPLSTM, que expõe as operações para os hooks", "pt",
     "Em privacidade diferencial no treino, o que fazer com LSTM/RNN?"),
    ("En reproducibilidad, ¿qué es seed_everything?", "Llamarla al principio, antes de construir el modelo", "es",
     "En reproducibilidad, ¿qué hay que hacer con seed_everything?"),
    ("Em checkpoints distribuídos, o que é async_save?",
     "Nunca iniciar um novo salvamento antes de esperar o future anterior; usar um process group gloo", "pt",
     "Em checkpoints distribuídos, que cuidados tomar ao usar async_save?"),
    ("En DTensor, ¿qué es redistribute?",
     "Shard(d) -> Replicate(): all-gather. Partial() -> Replicate(): all-reduce. Partial() -> Shard(d): "
     "reduce-scatter.", "es", "En DTensor, ¿qué hace redistribute en cada caso?"),
])
def test_a_what_is_stem_is_asked_by_what_its_answer_says(prompt, answer, lang, stem):
    assert kind_stem(prompt, answer, lang) == stem


@pytest.mark.parametrize(("name", "answer", "lang"), [
    ("CUDA Graph", "Una representación del trabajo en GPU como un grafo: nodos = kernels", "es"),
    ("WGAN", "Trocar a divergência JS pela distância de Wasserstein-1 (earth mover's distance)", "pt"),
    ("checkpointing selectivo", "No todas las activaciones cuestan lo mismo: unas son caras de recomputar", "es"),
    ("Membership inference", "Membership inference: descobrir se um registro estava no conjunto de treino", "pt"),
    ("EMA", "EMA = Exponential Moving Average (média móvel exponencial)", "pt"),
])
def test_a_definition_keeps_its_what_is_stem(name, answer, lang):
    assert answer_kind(answer, name, lang) == ""


def test_the_registry_flags_a_what_is_answered_by_commands_whoever_wrote_it():
    q = Question(type="short", prompt="Al compartir GPUs, ¿qué es MPS?", answer="sudo nvidia-smi -i 0 -c "
                 "EXCLUSIVE_PROCESS # solo el servidor MPS usa la GPU. nvidia-cuda-mps-control -d", lang="es",
                 citations=(), concepts=("nvidia-cuda-mps-control -d",))
    assert "not-a-definition" in run_checks(q, CheckContext(passage=q.answer))
    asked = Question(type="short", prompt="Al compartir GPUs, ¿cómo se pone en marcha MPS?", answer=q.answer,
                     lang="es", citations=(), concepts=q.concepts)
    assert "not-a-definition" not in run_checks(asked, CheckContext(passage=q.answer))


@pytest.mark.parametrize(("title", "lang", "stem"), [
    ("Monitorización", "es", "En {s}, explica la monitorización."),
    ("Orden de ejecución", "es", "En {s}, explica el orden de ejecución."),
    ("Depuración y herramientas", "es", "En {s}, explica la depuración y herramientas."),
    ("Vocabulário", "pt", "Em {s}, explique o vocabulário."),
    # where its article is not sure, nothing ("explica qué es coste de memoria": ungrammatical, r12 raters)
    ("Coste de memoria", "es", ""),
    ("Desempenho: o que comparar", "pt", "Em {s}, o que comparar no desempenho?"),
    # a term, a noun with its adjective, a topic after a role are asked
    ("Fugas de memoria con hooks", "es", "En {s}, explica las fugas de memoria con hooks."),
    ("Entrenamiento distribuido", "es", "En {s}, explica el entrenamiento distribuido."),
    ("El problema: la sobrecarga de lanzamiento", "es", "En {s}, explica la sobrecarga de lanzamiento."),
])
def test_a_title_that_names_an_area_of_work_is_explained_only_with_a_sure_article(title, lang, stem):
    assert topic_form(title, lang, "list", lambda _: False) == stem


def test_a_setting_with_a_lost_symbol_is_a_slide_label():
    assert slide_label("-DP", "pt")
    assert slide_label("ε", "es")
    assert not slide_label("FP8", "pt")
    assert not slide_label("JAX", "es")
    assert not slide_label("T5", "es") and not slide_label("C4", "pt")  # (a model's or a corpus's name: round 26)
    assert slide_label("ML", "es")  # (a name every deck writes situates nothing)
    # a name that opens on its own brackets is whole (round 38's "(IA)^3 y la receta T-Few" set every stem of its
    # deck, and the deck wrote 1 question of 12); brackets whose words were lost are not
    assert not slide_label("(IA)^3 y la receta T-Few", "es") and not slide_label("(IA)^3", "es")
    assert slide_label("(IA)", "es")  # (whole brackets, but fewer letters than a name needs)
    assert slide_label("(, )-DP", "pt") and slide_label("()", "es")


@pytest.fixture(scope="module")
def quizzes(tmp_path_factory, model_cache):
    """``generate_quiz`` -n 12 offline on each deck (library call), in one knowledge base."""
    return deck_quizzes(tmp_path_factory.mktemp("stem_forms"), heldout_decks(DECKS), DECKS, model_cache)


@pytest.mark.slow
def test_round_12_stems_ask_what_their_answers_say_in_the_deck_s_setting(quizzes):
    prompts = {name: [q.prompt for q in qs] for name, qs in quizzes.items()}
    assert all(len(p) >= 9 for p in prompts.values()), prompts
    assert "Al compartir GPUs, ¿cómo se pone en marcha MPS?" in prompts["mig_es"], prompts["mig_es"]
    assert "Al compartir GPUs, ¿qué es MPS?" not in prompts["mig_es"]
    assert any("¿qué problema tiene que ver con torch.compile" in p for p in prompts["hooks_es"]), prompts["hooks_es"]
    assert not [p for p in prompts["hooks_es"] if "«torch.compile»" in p]
    assert not [p for p in prompts["opacus_pt"] if re.match(r"Em\s+\W", p)], prompts["opacus_pt"]
    rocm = prompts["rocm_pt"]
    assert not [p for p in rocm if re.search(r"\bEm (PyTorch|compatibilidade),", p)], rocm
    assert sum("Em ROCm, " in p for p in rocm) >= 5, rocm
