"""What a slide's bullets say, as a model answer: its lead-in sentence, its top bullets with their sub-bullets, in
order and within a length, with no line of code nor link (:func:`slide_answer`). A plain question on an outline
idea (:mod:`kb.writing.plan`) is answered by it: the outline's idea text runs the bullets together, which a student
cannot read as sentences nor a grader mark by.
"""

from __future__ import annotations

import re

from ..text import fold, words
from .code_statement import code_statement

PLAIN_WORDS = (8, 90)  # words of an idea's text a plain question takes as its model answer (hand-set: fewer
# says nothing to mark, more is a slide to recite)
LEAD_WORDS = 5  # fewest words of a lead-in sentence a question quotes (hand-set: "Definimos:" says nothing)
_BULLET = re.compile(r"^(?P<indent>\s*)(?:[-*•◦▪●○■□☐➢➤►▶‣⁃·]\s*)+")
# a line of code or a link in a slide's text: no sentence of a model answer ("x_data = torch.tensor(data)",
# "import torch, math", "a a.reshape(8,4)", "Comet: https://www.comet.com")
_CODE_LINE = re.compile(r"^(?:import |from \S+ import |def |class |for \S.* in |with \S.* as |print\(|return\b|@\w|#)"
                        r"|https?://|^(?![A-ZÁÉÍÓÚ][a-záéíóúñç]+\s)\S+(?:\s\S+)?\([^()]*\)\s*$"
                        # a dotted call opening it, a "# comment" after code ("Ejecutar train()": a sentence naming
                        # a call)
                        r"|^[a-z_][\w.]*\.\w+\(|\)\s+#\s"
                        # a shell command, a Python statement head with its call ("./build/all_reduce_perf -b 8",
                        # "export NCCL_DEBUG=INFO", "with torch.cuda.graph(g2, pool=g1.pool())", "if k not in seen",
                        # "L.seed_everything(42) + …"; r11)
                        r"|^(?:\./|export |mpirun |python |pip |ncu |nsys |torchrun )|^(?:with|if|elif|while) \S.*"
                        r"(?:\)|:|\bnot in \w+)$|^[A-Z]\.\w+\("
                        # a call cut over lines ("setup(name=…, ext_modules=[…],", "trainer = DPOTrainer(…,")
                        r"|^[a-z_][\w.]* = [\w.]+\(|^[a-z_][\w.]*\(.*=.*,$|^[a-z_]\w*=\S.*[,)]$")
# an assignment: code when its left side is a lower-case identifier with "_", "." or "[" ("x_data = …",
# "model.eval = …", "a, b = …") or its right side a call or a literal ("loss = criterion(out, y)", "lr = 0.01");
# not a formula ("Precisión = TP / (TP + FP)", "F1 = 2·P·R / (P + R)")
_ASSIGN = re.compile(r"^(?P<lhs>[\w.\[\]'\"]+(?:\s*,\s*[\w.\[\]]+)*)\s*=(?!=)\s*(?P<rhs>.*)$")
_CODE_LHS = re.compile(r"^[a-z_][a-z0-9_]*(?:[._\[,]|$)")
_CODE_RHS = re.compile(r"^(?:[\w.]+\s*//\s*[\w.]+$|"  # (a floor division: "rep = H // G")
                       r"[\w.]+\(.*\)|-?\d[\d._e-]*|[\"'].*[\"']|True|False|None|\[.*\]|\{.*\})\s*(?:#.*)?$")


# what a code block leaves on a line once the reader joins its lines (")", "},"), a line opening a block ("plan = {")
# or an entry of one ('"k": f(),'), a C/C++ statement ("f(…);", "{ m.impl(…); }", "__global__ void k(…"): no
# sentence; an answer opening on it is turned down (code-answer: "). Retorna GradSampleModule …", opacus_pt r12)
_REMAINDER = re.compile(r"^[)\]}(\[{,.;:\s]+$|[{(\[]$|^[\"'][^\"']+[\"']\s*:\s*\S.*,$"
                        r"|^(?=.*\().*\)\s*;$|\{.*;\s*\}?$|^__\w+__\s")


def _code_line(text: str) -> bool:
    """A line of code or a link (:data:`_CODE_LINE`, or an assignment :data:`_ASSIGN` whose sides look like code)."""
    if _CODE_LINE.search(text) or code_statement(text):  # ("N, D = X", "model(x.cuda())", "yield buf[i]": r14/r15)
        return True
    m = _ASSIGN.match(text)
    if not m:
        return False
    lhs, rhs = m.group("lhs"), m.group("rhs")
    return bool(re.search(r"[_.\[]|,", lhs) and _CODE_LHS.match(lhs) or _CODE_RHS.match(rhs))


def _units(passage: str) -> list[tuple[list[str], bool]]:
    """A slide's top bullets, each with its sub-bullets, and whether it ends on a colon (a lead-in);
    a line its passages' overlap repeats once; no line of code or link; none after a code fence."""
    units: list[tuple[list[str], bool]] = []
    seen: set[str] = set()
    for line in passage.split("\n"):
        m = _BULLET.match(line)
        text = (line[m.end():] if m else line).strip()
        if not text or fold(text) in seen:
            continue
        if text.startswith("```"):
            break
        seen.add(fold(text))
        if _code_line(text) or _REMAINDER.search(text):
            continue
        if m and m.group("indent") and units:
            units[-1][0].append(text.rstrip(".;"))
        else:
            units.append(([text.rstrip(".;:")], text.endswith(":")))
    return units


def lead_in(passage: str) -> str:
    """The sentence a slide opens its list with ("TensorBoard proporciona diversas herramientas …:", "Dado un
    tensor a de tamaño (2,4,4), podemos" over its sub-bullets), "" when it opens on none."""
    units = _units(passage)
    if len(units) < 2 and not (units and len(units[0][0]) > 2):
        return ""
    (first, *subs), colon = units[0]
    # (a sentence, not a labelled item: "LSTM: [output, h, c]; GRU y SimpleRNN: [output, h]")
    sentence = not first.endswith("?") and ": " not in first and ";" not in first
    return first if (colon or subs) and len(words(first)) >= LEAD_WORDS and sentence else ""


def slide_answer(passage: str, limit: int = PLAIN_WORDS[1], *, skip_lead: bool = False) -> str:
    """What a slide's bullets say, as a model answer: each top bullet a sentence, its sub-bullets after it
    ("Proporciona: herramientas …; definición de modelos …."), whole bullets up to ``limit`` words, no code
    line nor link; "" for fewer than two lines, or when code comes first; with ``skip_lead``, what follows
    the slide's lead-in (:func:`lead_in`). The outline's idea text runs the bullets together ("… automática
    Junto a Pytorch …"), which a student cannot read as sentences nor a grader mark by."""
    units = slide_bullets(passage, limit, skip_lead=skip_lead)
    out = [f"{top}: {'; '.join(subs)}." if subs else f"{top}." for top, *subs in units]
    return " ".join(out) if sum(len(u) for u in units) >= 2 else ""


def slide_bullets(passage: str, limit: int = PLAIN_WORDS[1], *, skip_lead: bool = False) -> list[list[str]]:
    """The top bullets (each with its sub-bullets) :func:`slide_answer` says, in order: all of them when they fit in
    ``limit`` words; else every top bullet, when those fit, with its sub-bullets taken a round at a time (each
    bullet's first, then its second …) while they fit (a slide's three objectives are its answer, their details
    second: raters of round 31 asked for the third objective a cut after the second left out), a lead-in ("Greedy
    soup - pasos:") never without its first sub-bullet (alone it says nothing: round 32's raters); else the top
    bullets, with their sub-bullets, that fit in order."""
    pairs = _units(passage)
    if skip_lead and pairs:
        pairs = [([x], False) for x in pairs[0][0][1:]] + pairs[1:]
    units = [u for u, _ in pairs]
    # each top bullet with what it cannot go without: a lead-in's first sub-bullet
    heads = [u[:2] if lead and len(u) > 1 else u[:1] for u, lead in pairs]
    if _size(*units) > limit and len(units) > 1 and _size(*heads) <= limit:
        kept = [list(h) for h in heads]
        n = _size(*heads)
        for depth in range(1, max(len(u) for u in units)):
            for u, k in zip(units, kept, strict=True):
                if depth < len(u) and len(k) == depth and n + _size([u[depth]]) <= limit:
                    k.append(u[depth])
                    n += _size([u[depth]])
        return kept
    out: list[list[str]] = []
    n = 0
    for unit in units:
        if n + _size(unit) > limit:
            break
        out.append(unit)
        n += _size(unit)
    return out


def _size(*units: list[str]) -> int:
    """Words in the lines of ``units``."""
    return sum(len(words(x)) for u in units for x in u)
