"""A stem that says "todos ellos" of things it never names points at a sentence the student does not
see (``dangling-reference``, from the registry's ``group-pronoun``)."""

from __future__ import annotations

from kb.quiz import Citation, Question
from kb.writing.checklist import CheckContext, run_checks

PASSAGE = ("Torch.autograd: durante el forward se crea un grafo de objetos graph_fn. Llamando a la pasada "
           "backward vamos ejecutando la función apply() sobre todos ellos.")


def _cloze(prompt: str) -> Question:
    return Question(type="cloze", prompt=prompt, answer="apply()", lang="es",
                    citations=(Citation("tensores.pdf", "p. 41", "c1", PASSAGE),))


def test_a_group_the_stem_never_names():
    q = _cloze("Completa el espacio en blanco: En autograd, llamando a la pasada backward vamos ejecutando la "
               "función _____ sobre todos ellos.")
    assert "dangling-reference" in run_checks(q, CheckContext(PASSAGE))
    assert "dangling-reference" not in run_checks(q, CheckContext(PASSAGE), skip=frozenset({"group-pronoun"}))


def test_a_group_the_stem_counts():
    q = _cloze("Completa el espacio en blanco: En autograd, el backward recorre tres nodos del grafo y ejecuta la "
               "función _____ sobre todos ellos.")
    assert "dangling-reference" not in run_checks(q, CheckContext(PASSAGE))
