"""A "which term" whose description names code that opens the answer is a giveaway
(eval/real_heldout_r8: tf.data → TFRecord)."""

from __future__ import annotations

from kb.quiz import Citation, Question
from kb.writing.checklist import CheckContext, run_checks

_CITE = (Citation("deck.pdf", "p. 3", "", ""),)


def _which(description: str, choices: tuple[str, ...]) -> Question:
    return Question("mcq", f"Em WebDataset, qual termo corresponde a esta descrição: «{description}»?", choices[0],
                    _CITE, lang="pt", choices=choices, correct=0, concepts=(choices[0],), origin="mcq")


def test_a_code_name_in_the_description_that_opens_the_answer_is_a_giveaway():
    q = _which("registros protobuf em arquivos sequenciais, lidos com tf.data",
               ("TFRecord (TensorFlow)", "MosaicML Streaming (MDS)", "Hugging Face datasets"))
    assert "giveaway" in run_checks(q, CheckContext("TFRecord (TensorFlow): registros protobuf, lidos com tf.data"))
    fair = _which("shards tar lidos em sequência, com amostras agrupadas por nome",
                  ("WebDataset", "MosaicML Streaming (MDS)", "Hugging Face datasets"))
    assert "giveaway" not in run_checks(fair, CheckContext("WebDataset: shards tar lidos em sequência"))
