"""A draft the checks turn down for its form, asked in a form that fits before its idea is given up (issue 26).

A plain question on an idea (:func:`kb.writing.plan._plain_draft`) asks a definition idea "what is X" /
"what does «X» mean". Where the slide's text says something else of X, and :func:`kb.writing.stem_forms.kind_stem`
finds no kind to ask it by, the registry turns the draft down (``not-a-definition``: "o que é a validação do
modelo?" answered by "Nem toda camada é compatível com DP-SGD; BatchNorm mistura … -> gradiente por exemplo perde
sentido; Chame fix ANTES …", r12) and the idea used to go unasked. What such an answer says is what to keep in mind
about X, so the same answer is asked so ("…, o que se deve ter em conta sobre a validação do
modelo?", :func:`kb.writing.stem_forms.about_stem`), which the checks then judge like any other stem. It is a last
resort (``Draft.fallback``): asked only to reach n.

The stems are per language (``kb.lang.*``: ``ANSWER_KIND_STEMS["about"]``). Stdlib only.
"""

from __future__ import annotations

from collections.abc import Sequence

from .stem_forms import about_stem

# the checks that turn a "what is" down for its form (the answer does not say what X is), not for its content
FORM_CHECKS = frozenset({"not-a-definition"})


def retry_form(prompt: str, found: Sequence[str], lang: str) -> str | None:
    """The stem to try next for a plain question the checks turned down (``found``) only for its form: its
    :func:`about_stem`; None where a check found more than the form (the answer itself would fail again)."""
    if not found or not set(found) <= FORM_CHECKS:
        return None
    return about_stem(prompt, lang)
