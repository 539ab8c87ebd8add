"""An objective form of a question ranks just below that question, after the form prior has weighed the drafts.

``objective_forms.FORM_STEP`` promises that ``dedupe`` keeps a pattern's question and selection swaps in its
objective form only for the mix. The form prior (``form_prior.weigh``) moves a draft by its form's KEEP rate;
applied after the forms were made, it lifted a multiple choice above the short answer it is a form of (review20),
and the sample course's Keras list was asked twice as "¿qué término corresponde a esta descripción?" instead of by
its patterns' cloze and true/false."""

from __future__ import annotations

import json
import shutil

from ..conftest import run_kb


def test_the_form_prior_does_not_lift_an_objective_form_above_its_question(ingested, tmp_path):
    ws = tmp_path / "ws"
    shutil.copytree(ingested, ws)
    r = run_kb(["quiz", "generate", "-n", "10", "--json"], cwd=ws)
    assert r.returncode == 0, r.stderr
    qs = json.loads(r.stdout)["questions"]
    assert len(qs) == 10
    which_term = [q for q in qs if q["type"] == "mcq" and "corresponde a esta descripción" in q["prompt"]]
    assert len(which_term) <= 1, [q["prompt"] for q in which_term]
    # (its patterns' true/false; its cloze on a prose word, "modelo Sequential", is a last resort this quiz does not
    # need: kb.writing.form_prior.last_resort)
    assert any(q["type"] == "tf" and "Keras" in q["prompt"] for q in qs), [q["prompt"] for q in qs]
