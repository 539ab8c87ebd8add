"""The stem that asks a slide by its own lead-in sentence, not by its title (a title is no concept a student saw):
the one wording :mod:`kb.writing.plan` writes and :mod:`kb.writing.form_prior` names as the form ``lead``. Stdlib
only (a leaf: form_prior cannot import plan, which imports it)."""

from __future__ import annotations

# the words that make a stem the lead-in to complete, whatever its setting and slide
LEAD_ASK = {"es": "completa esta idea", "pt": "complete esta ideia", "en": "complete this point"}

# {s}: the deck's subject; {t}: the slide's lead-in
LEAD = {
    "es": "En {s}, " + LEAD_ASK["es"] + " del material y explica cada punto: «{t}: …»",
    "pt": "Em {s}, " + LEAD_ASK["pt"] + " do material e explique cada ponto: «{t}: …»",
    "en": "In {s}, " + LEAD_ASK["en"] + " of the material and explain each part: «{t}: …»",
}
