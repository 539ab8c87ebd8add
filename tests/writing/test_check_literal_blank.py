"""A cloze whose blank is a string literal or a file name is flagged (eval/real_heldout_r8: "_____" → w.pt)."""

from __future__ import annotations

from kb.quiz import Citation, Question
from kb.writing.checklist import CheckContext, run_checks

_CITE = (Citation("deck.pdf", "p. 3", "", ""),)


def _cloze(prompt: str, answer: str) -> Question:
    return Question("cloze", prompt, answer, _CITE, lang="pt", concepts=(answer,), origin="cloze")


def test_a_blank_in_quotes_or_on_a_file_name_is_flagged_a_blank_on_a_call_is_not():
    q = _cloze('Complete a lacuna: Em PyTorch, torch.save(model.state_dict(), "_____") salva os tensores.', "w.pt")
    assert "literal-blank" in run_checks(q, CheckContext('torch.save(model.state_dict(), "w.pt") salva os tensores.'))
    call = _cloze("Complete a lacuna: Em PyTorch, _____ salva apenas os tensores de parâmetros e buffers.",
                  "model.state_dict()")
    assert "literal-blank" not in run_checks(call, CheckContext("model.state_dict() salva os tensores de parâmetros"))
