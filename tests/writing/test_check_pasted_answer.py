"""A short answer that is a paste (a config, a list of links, the slide's "Recordemos que:") is no
model answer (``pasted-answer``)."""

from __future__ import annotations

from kb.quiz import Citation, Question
from kb.writing.checklist import CheckContext, run_checks

YAML = "apiVersion: v1 kind: PersistentVolumeClaim metadata: name: ckpt-pvc spec: accessModes: [ReadWriteMany]"
LINKS = "Amazon SageMaker Autopilot: https://aws.amazon.com/sagemaker/autopilot Google Cloud AutoML: https://cloud.google.com/automl"


def _short(prompt: str, answer: str, passage: str) -> tuple[Question, CheckContext]:
    q = Question(type="short", prompt=prompt, answer=answer, lang="es",
                 citations=(Citation("d.pdf", "p. 1", "c1", answer),))
    return q, CheckContext(passage)


def test_a_config_pasted_as_the_answer():
    q, ctx = _short("En Kubernetes, ¿cómo se pide un volumen compartido para los checkpoints?", YAML,
                    "PVC para checkpoints: " + YAML)
    assert "pasted-answer" in run_checks(q, ctx)


def test_links_pasted_as_the_answer():
    q, ctx = _short("En AutoML, ¿qué otras herramientas existen?", LINKS, "Otras herramientas AutoML: " + LINKS)
    assert "pasted-answer" in run_checks(q, ctx)


def test_the_slides_reminder_pasted_as_the_answer():
    answer = "Recordemos que: Un modelo está compuesto de muchos parámetros aprendibles (learnable parameters)."
    q, ctx = _short("En PyTorch, ¿qué papel tienen los optimizadores?", answer, "Optimizadores. " + answer)
    assert "pasted-answer" in run_checks(q, ctx)


def test_an_answer_in_sentences():
    answer = "Con un PersistentVolumeClaim de acceso ReadWriteMany, que todos los nodos pueden escribir."
    q, ctx = _short("En Kubernetes, ¿cómo se pide un volumen compartido para los checkpoints?", answer,
                    "PVC para checkpoints: " + answer)
    assert "pasted-answer" not in run_checks(q, ctx)
