"""``kb eval quiz`` prints each defect in words (kb.ui.defect_words); an advisory check of the registry reports
its own name, so each needs its words, or the table shows a check's key ("fragment-concept")."""

from __future__ import annotations

import pytest

from kb import i18n
from kb.ui import defect_words
from kb.writing.checklist import ADVISORY


@pytest.mark.parametrize("lang", ["en", "pt", "es"])
def test_every_advisory_defect_is_said_in_words(lang):
    i18n.choose(lang)  # (the autouse isolated_env fixture resets the choice)
    unsaid = [name for name in ADVISORY if defect_words("failed checks: " + name) == name]
    assert not unsaid, unsaid
