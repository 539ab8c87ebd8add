"""Writer v15: a slide's arrows are part of what it says.

Terse slides write "->" for "leads to" in about one bullet of six (1,887 of 11,483 bullets in the 66
held-out decks). The writer's line cleaner dropped everything from an arrow to the end of a bullet
that had no full stop after it (meant for a pointer to another slide, "… parámetros. -> batch size"),
so it read "val ruidosa / dataset pequeno -> 10-20" as "val ruidosa / dataset pequeno" and "min_delta:
menor ganho que conta (0.4512 -> 0.4510 com 1e-3 -> NÃO conta)" as "… (0.4512 -> 0.4510 com 1e-3":
both raters of split AH fixed the multiple-choice question built on it for a description "cut off
mid-parenthesis". Now an arrow is dropped only after a full stop or before "another subject"; a
concept and a false statement take what a description says before its arrow (what follows one is a
consequence, not what the thing is). With arrows read, three things the cut had hidden showed:
the cut-off check read the next bullet as a line's rest when the line ended on ")" (so the whole
min_delta description was rejected as cut off); a cloze blanked one half of "X -> Y" (raters of the
tuning decks kept 2 of 25 such clozes); and settings ("save_best_only=True <-> save_top_k=1 +
monitor") were quoted as a description to name.
"""

from __future__ import annotations

import re

from kb.records import Chunk, Locator
from kb.writing.concepts import before_arrow, gist_of
from kb.writing.ideas import clean_inline, read_slide

from ..conftest import write_heldout_decks


def test_an_arrow_inside_a_bullet_is_kept_and_a_pointer_after_a_full_stop_is_not():
    assert clean_inline("val ruidosa / dataset pequeno -> 10-20") == "val ruidosa / dataset pequeno -> 10-20"
    assert clean_inline("min_delta: menor ganho que conta (0.4512 -> 0.4510 com 1e-3 -> NÃO conta)").endswith(
        "-> NÃO conta)")
    assert clean_inline("Se recomienda ajustar los parámetros. -> batch size") \
        == "Se recomienda ajustar los parámetros."
    assert clean_inline("Memória: modelo não cabe em 1 GPU -> outro assunto (FSDP, tensor/pipeline parallel)") \
        == "Memória: modelo não cabe em 1 GPU"


def test_a_slides_items_keep_their_arrows():
    text = ("• mode: \"min\" | \"max\" | \"auto\" (adivinha pelo nome -> prefira explícito)\n"
            "• patience: épocas sem melhora antes de parar\n"
            "  • val ruidosa / dataset pequeno -> 10-20\n"
            "• min_delta: menor ganho que conta (0.4512 -> 0.4510 com 1e-3 -> NÃO conta)")
    slide = read_slide(Chunk("c.pdf", "pdf", text, Locator(page=7, heading="EarlyStopping: parâmetros que importam"),
                             "pt", 0, "h", 1))
    assert [it.text for it in slide.items] == [
        'mode: "min" | "max" | "auto" (adivinha pelo nome -> prefira explícito)',
        "patience: épocas sem melhora antes de parar",
        "val ruidosa / dataset pequeno -> 10-20",
        "min_delta: menor ganho que conta (0.4512 -> 0.4510 com 1e-3 -> NÃO conta)"]


def test_a_concept_is_what_comes_before_the_arrow_unless_the_chain_is_the_point():
    assert before_arrow("mismo equipo, misma máquina y mismo código -> mismo resultado") \
        == "mismo equipo, misma máquina y mismo código"
    assert before_arrow("podar pouco -> fine-tune -> podar mais -> fine-tune") \
        == "podar pouco -> fine-tune -> podar mais -> fine-tune"
    assert gist_of("mismo equipo, misma máquina y mismo código -> mismo resultado") \
        == "mismo equipo, misma máquina y mismo código"
    assert not gist_of("índice do processo no nó -> usado para escolher a GPU").endswith("->")


def test_no_question_on_the_decks_of_split_ah_quotes_a_bracket_it_does_not_close(tmp_path, course_template):
    written = write_heldout_decks(tmp_path / "ws", ("callbacks_pt", "monitoring_es"), course_template / ".kb")
    questions = [q for src, deck in written.items() if src != "course" for q in deck["drafts"]]
    assert questions
    for q in questions:
        for text in (q.prompt, q.answer, *q.choices, *q.concepts):
            quoted = re.findall(r"«([^»]*)»", text) or [text]
            for part in quoted:
                assert part.count("(") <= part.count(")"), (q.prompt, text)
    # the multiple choice on min_delta quotes its bracket whole: the cut-off check had read the next bullet as its
    # rest. Since the meaning-giveaway check (kb/writing/check_blind_guess.py) it is turned down as a giveaway
    # («menor ganho que conta» reads as "min delta"), never as cut off
    delta = [r for src, deck in written.items() if src != "course" for r in deck["rejected"]
             if "«menor ganho que cont" in r.what]
    assert delta and all("giveaway" in r.reason and "cut-off" not in r.reason for r in delta), delta
    # settings are no description to name: "Checkpoint: save_best_only=True <-> save_top_k=1 + monitor"
    assert not [q.prompt for q in questions if q.type == "mcq" and "<->" in q.prompt]
    # "X -> Y" says two things: no cloze blanks one half ("Monitorar MSE de treino E _____ -> overfitting …")
    assert not [q.prompt for q in questions if q.type == "cloze" and " -> " in q.prompt]


def test_a_new_bullet_closes_the_line_above_it():
    from kb.writing.checks import cut_in_passage

    passage = ("• min_delta: menor ganho que conta (0.4512 -> 0.4510 com 1e-3 -> NÃO conta)\n"
               "• restore_best_weights: padrão False!")
    assert not cut_in_passage("min_delta: menor ganho que conta (0.4512 -> 0.4510 com 1e-3 -> NÃO conta)", passage)
    # a line the passage carries on past its end is still cut off
    assert cut_in_passage("min_delta: menor ganho que", passage)

