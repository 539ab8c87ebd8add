"""A prose model answer holds no line of the slide's code (issue 26, garble29): fresh raters of rounds 14 and 15
fixed short answers that opened on "N, D = X.", "model(x.cuda()).", "continue. yield buf[i].", "global
stop_requested. break." — code lines of the slide glued in as sentences. Through the public API
(``generate_quiz``, offline writer) on a real PDF rendered as eval/deck_pdf.py renders decks; the check is the
deck's own code lines, not a rater's wording."""

from __future__ import annotations

import re

import pytest

from ..conftest import deck_quizzes, text_deck

DECK = """=== Leyes de escala en la práctica
• Curso de entrenamiento a gran escala: cómo extrapolar la pérdida desde runs pequeños
=== Ajuste en Python
    import numpy as np
    from scipy.optimize import curve_fit
    def ley(X, E, A, alpha, B, beta):
        N, D = X
        return E + A / N**alpha + B / D**beta
    params, _ = curve_fit(ley, (N_runs, D_runs), L_runs, p0=p0, maxfev=20000)
• Ajustar en espacio log (log L) o con pérdida de Huber reduce el peso de outliers
• Reportar incertidumbre: repetir el ajuste con bootstrap sobre los runs
=== Recalibrar running stats
    model.train()
    for m in model.modules():
        if isinstance(m, nn.modules.batchnorm._BatchNorm):
            m.reset_running_stats()
    with torch.no_grad():
        for x, _ in calib_loader:
            model(x.cuda())
    model.eval()
• Útil tras fine-tuning con batch pequeño o tras podar o cuantizar el modelo
• Las estadísticas se recalculan con datos del nuevo dominio sin tocar los pesos
=== Shuffle con buffer
    def shuffle_buffer(it, size, rng):
        buf = []
        for x in it:
            if len(buf) < size:
                buf.append(x)
                continue
            i = rng.randrange(size)
            yield buf[i]
            buf[i] = x
        yield from buf
• Buffer mayor -> mejor aleatoriedad, pero más memoria y más tiempo de arranque
• Mismo principio que el shuffle con buffer de tf.data y de WebDataset
=== WebDataset
• Shards en formato tar estándar: las muestras son ficheros con el mismo nombre base
• Lectura en streaming desde disco, HTTP u object storage con el mismo código
    import webdataset as wds
    ds = (wds.WebDataset(url, shardshuffle=True, nodesplitter=wds.split_by_node)
          .shuffle(5000).decode("pil").to_tuple("jpg", "cls").map_tuple(transform, int))
• Es un IterableDataset: no hay len() fiable ni índice
=== Parada limpia ante SIGTERM
    stop_requested = False
    def handler(signum, frame):
        global stop_requested
        stop_requested = True
    for step, batch in enumerate(loader):
        if stop_requested:
            save_checkpoint(step)
            break
• El aviso de la nube llega como SIGTERM unos segundos antes de parar la instancia
• El handler solo marca una bandera; el bucle guarda el checkpoint y termina
"""

CODE = [ln.strip() for ln in DECK.splitlines() if ln.startswith("    ")]


@pytest.fixture(scope="module")
def quizzes(tmp_path_factory, model_cache):
    return deck_quizzes(tmp_path_factory.mktemp("shards"), text_deck("shards_es", DECK), ("shards_es",), model_cache,
                        n=12)


def _sentences(answer: str) -> list[str]:
    return [s.strip().rstrip(".") for s in re.split(r"(?<=[.!?])\s+", answer) if s.strip()]


def test_no_short_answer_holds_a_line_of_the_slide_s_code(quizzes):
    shorts = [q for q in quizzes["shards_es"] if q.type == "short"]
    slides = {"Ajuste en Python", "WebDataset", "Recalibrar running stats", "Shuffle con buffer",
              "Parada limpia ante SIGTERM"}
    on_code = [q for q in shorts if any(q.citations[0].locator.endswith(f" · {t}") for t in slides)]
    assert on_code, [(q.type, q.prompt, q.citations[0].locator) for q in quizzes["shards_es"]]
    shards = [(q.prompt, s) for q in on_code for s in _sentences(q.answer) if s in CODE]
    assert not shards, shards
    # what the slides say in prose is still the answer
    assert any("bootstrap" in q.answer or "fine-tuning" in q.answer or "aleatoriedad" in q.answer
               or "SIGTERM" in q.answer for q in on_code), [q.answer for q in on_code]


@pytest.mark.parametrize("line, code", [
    ("dp = world // (tp * pp)", True), ("idx = self.order[:max(n, 1)]", True), ("N, D = X", True),
    ("model(x.cuda())", True), ("continue", True),
    # a formula written for people is the slide's answer, not code: "x" as the times sign, "^", "~"
    ("tempo = C / (n_gpus x pico x MFU)", False), ("custo = 6 x N x D", False), ("erro ~ 1/sqrt(n)", False),
    ("Continue treinando com lr menor", False)])
def test_a_code_statement_is_told_from_a_formula_and_a_sentence(line, code):
    from kb.writing.code_statement import code_statement

    assert code_statement(line) is code
