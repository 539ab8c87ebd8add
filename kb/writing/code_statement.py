"""A slide's line that is a code statement a prose model answer must not hold.

Fresh raters of rounds 14 and 15 (eval/real_heldout_r14, r15) fixed short answers whose "sentences" were lines of
the slide's code glued in: "N, D = X.", "model(x.cuda()).", "continue. yield buf[i].", "global stop_requested.
break.". :func:`code_statement` names the kinds :func:`kb.writing.slide_bullets._code_line` did not catch: a bare
keyword statement, a keyword with a short code operand, a tuple unpacking, an expression assigned to a lower-case
name, a chained call cut from its line and a whole line that is one (nested) call.
"""

from __future__ import annotations

import re

# a statement that is its keyword alone ("continue", "break", "pass"; "Continue treinando" is a sentence)
_BARE = re.compile(r"^(?:continue|break|pass|else:|try:|finally:)\s*$")
# a keyword with a short operand written as code ("yield buf[i]", "yield from leer(f)", "global stop_requested",
# "raise ValueError(msg)", "return loss"): at most three tokens after it, none of them a plain word of a sentence
_KEYWORD = re.compile(r"^(?:yield(?:\s+from)?|global|nonlocal|raise|return|del|await|assert)\s+(?P<rest>\S.*)$")
_CODE_TOKEN = re.compile(r"[_\[\](){}=.*/+<>@]|^[a-z]+[A-Z]|^\w$")
# a tuple unpacking ("N, D = X", "(loss, logits), grads = f(x)", "grad, = torch.autograd.grad(…)")
_UNPACK = re.compile(r"^\(?[A-Za-z_]\w*(?:\s*,\s*\(?[A-Za-z_]\w*\)?)*\s*,\s*\)?(?:\s*[A-Za-z_]\w*\)?)?\s*=(?!=)\s*\S")
# an assignment to a lower-case name whose right side is an expression, not prose ("idx = self.order[:max(n, 1)]",
# "dp = world // (tp * pp)", "out = a * b + 1.0"; not "Precisión = TP / (TP + FP)" nor "x = lo que entra")
_ASSIGN = re.compile(r"^[a-z_][a-z0-9_]*\s*(?:[-+*/@]|//)?=(?!=)\s*(?P<rhs>\S.*)$")
_PROSE = re.compile(r"[^\W\d_]{2,}\s+[^\W\d_]{2,}\s+[^\W\d_]{2,}")  # three plain words in a row
# a formula written for people, not code: "x" or "·" as the times sign, "^" as the power, "~" as about
# ("tempo = C / (n_gpus x pico x MFU)", "custo = 6 x N x D", "lr = base ~ 1e-3"); code writes *, ** and no ~
_MATH = re.compile(r"\s[x×·]\s|\^|~|≈")
# a chained call cut from its line ('.shuffle(5000).decode("pil")': the rest of "ds = (wds.WebDataset(…)"); a
# command with flags is left in: it is the answer of "¿cómo se lanza …?", which this line does not see
_CHAINED = re.compile(r"^\.[a-z_]\w*\(")
# a line that opens on a call of a lower-case name ("model(x.cuda())", "f(g(x), y)")
_CALL_OPEN = re.compile(r"^[a-z_][\w.]*\(")


def _one_call(text: str) -> bool:
    """``text`` is one call whose bracket opened after its name closes at its very end (brackets nested)."""
    if not _CALL_OPEN.match(text) or not text.endswith(")"):
        return False
    depth = 0
    for i, ch in enumerate(text):
        depth += (ch == "(") - (ch == ")")
        if depth == 0 and ch == ")":
            return i == len(text) - 1
    return False


def code_statement(line: str) -> bool:
    """A line of code that reads as no sentence: a bare keyword statement, a keyword with a short code operand,
    a tuple unpacking, an assignment of an expression to a lower-case name, a chained call (".shuffle(5000)") or a
    whole line that is one call
    ("model(x.cuda())")."""
    t = line.strip().rstrip(";")
    if _BARE.match(t) or _UNPACK.match(t) or _one_call(t) or _CHAINED.match(t):
        return True
    if (a := _ASSIGN.match(t)) and not _PROSE.search(a.group("rhs")) and not _MATH.search(a.group("rhs")):
        return True
    m = _KEYWORD.match(t)
    if not m:
        return False
    rest = m.group("rest").split()
    return len(rest) <= 3 and all(_CODE_TOKEN.search(w) or w.islower() and len(rest) == 1 for w in rest)
