"""``giveaway`` (kb/writing/checks.py) for a multiple choice whose right option alone shares a word with its stem
reads a name's parts between hyphens whatever their case: «… da HiPPO-LegS» → S4D-LegS, «… um adaptador LoRA» →
LCM-LoRA (rounds 24 and 30: every rater dropped both; over rounds 8-31's rated multiple choices these two are the only
ones the parts newly flag). A part every option shares gives nothing away."""

from __future__ import annotations

from kb.quiz import Question
from kb.writing.checklist import CheckContext, run_checks


def _mcq(prompt: str, choices: tuple[str, ...], correct: int) -> Question:
    return Question("mcq", prompt, choices[correct], (), lang="pt", choices=choices, correct=correct)


def test_a_part_of_the_right_options_name_in_the_description_gives_it_away():
    legs = _mcq("Em modelos de espaço de estados estruturados, qual termo corresponde a esta descrição: «lambda_n = "
                "valores próprios da parte normal da HiPPO-LegS (aproxima o S4)»?",
                ("S4D-Lin", "S4D-LegS", "Identidade", "Aleatória"), 1)
    lora = _mcq("Em destilação de difusão, qual termo corresponde a esta descrição: «a destilação se guarda como um "
                "adaptador LoRA»?", ("Pérdida adversarial", "Skipping-step", "LCM-LoRA", "LCM"), 2)
    assert "giveaway" in run_checks(legs, CheckContext(passage=""))
    assert "giveaway" in run_checks(lora, CheckContext(passage=""))
    # (a part another option shares gives nothing away: "LoRA" in LCM-LoRA and LoRA-FA)
    shared = _mcq("Em destilação de difusão, qual termo corresponde a esta descrição: «a destilação se guarda como um "
                  "adaptador LoRA»?", ("LoRA-FA", "Skipping-step", "LCM-LoRA", "LCM"), 2)
    assert "giveaway" not in run_checks(shared, CheckContext(passage=""))
