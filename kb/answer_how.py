"""A "how" question's answer (issue 30, round 10): the slide's code block whole and in order, from the slide whose
title names the task.

A slide's code block reaches the store in pieces: the PDF reader takes a line of code it cannot tell from prose
(a call continued over indented lines, a command line after ``git clone …``) as a line of text, so the block is
stored as a code chunk, then a text chunk that opens with the rest of the code, then the slide's bullets
(``model, optimizer, … = privacy_engine.make_private_with_epsilon( module=model, …`` before ``)`` / ``eps =
privacy_engine.get_epsilon(…)``). Quoting the code chunks alone then quotes the block's tail. Here a page's code
is put back together: its code chunks and, next to one of them, the unbulleted lines of a text chunk that read as
code, in the order the slide has them.

And the slide that answers a "how" is the one with the procedure: when the best unit is a line of a slide without
code, the slide of its deck that holds code and whose title names the task at least as well (a title announcing a
recipe, code or an example counts for more) answers (:func:`how_page`).

Pure functions of chunks and of kb.answering's question; no import of the answerer.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from .records import Chunk
from .text import fold

_BULLET = re.compile(r"^\s*(?:[•◦▪\-*]|\d{1,2}[.)])\s+")
# a line of code or a command: an assignment, a call, brackets, a path to run, a shell or Python keyword at its start
_CODE_LINE = re.compile(r"[=(){}\[\]]|^\s*(?:\./|\$ |import |from \S+ import |def |class |return |with |for |if |"
                        r"git |pip |python |mpirun |torchrun |srun |docker |nsys |ncu )")
_PROSE_END = re.compile(r"[.:;]\s*$")  # a sentence or a lead-in ends so; a line of code seldom does


def is_code_line(line: str) -> bool:
    """Whether an unbulleted line of a text chunk reads as code (the reader's misread piece of a code block)."""
    return bool(line.strip()) and not _BULLET.match(line) and bool(_CODE_LINE.search(line)) \
        and not _PROSE_END.search(line)


def code_block(chunks: list[Chunk]) -> list[Chunk]:
    """A page's code, in the order of its chunks (``chunks``: all of the page's, sorted by ordinal): each code chunk
    with the code lines the reader left in the text chunks beside it — the lines that close a text chunk just before
    a code chunk, and those that open a text chunk just after one — as one code passage per run of pieces."""
    if not any(c.is_code for c in chunks):
        return []
    lines: list[tuple[str, Chunk | None]] = []  # each line of the page, with its code chunk (None: text)
    for n, c in enumerate(chunks):
        text = c.text.split("\n")
        if c.is_code:
            lines += [(line, c) for line in text]
            continue
        after = n > 0 and chunks[n - 1].is_code
        before = n + 1 < len(chunks) and chunks[n + 1].is_code
        code = [False] * len(text)
        for i in range(len(text)) if after else ():  # the lines that open a text chunk after code
            if not is_code_line(text[i]):
                break
            code[i] = True
        for i in reversed(range(len(text))) if before else ():  # the lines that close one before code
            if not is_code_line(text[i]):
                break
            code[i] = True
        lines += [(line, c if is_code else None) for line, is_code in zip(text, code, strict=True)]
    out: list[Chunk] = []
    run: list[str] = []
    head: Chunk | None = None
    for line, owner in lines + [("", None)]:
        if owner is None:
            if head is not None:
                out.append(_joined(head, run))
            run, head = [], None
            continue
        run.append(line)
        head = head or (owner if owner.is_code else None)
    return out


def _joined(head: Chunk, lines: list[str]) -> Chunk:
    text = "\n".join(lines)
    return head if text == head.text else replace(head, text=text, id="")



# A title that announces a procedure or its code ("Receta para el DataLoader", "Adam 8-bit: código", "Exemplo mínimo")
_HOW_TITLE = re.compile(r"\b(receta|receita|c[oó]digo|code|ejemplo|exemplo|example|c[oó]mo|como|how|pasos|passos|"
                        r"passo a passo|paso a paso|procedimiento|procedimento|uso|usage|recipe)\b", re.I)


def how_page(q: Any, best: Any, scored: list) -> Any:
    """For a "how" answered by a line of a page without code, the best unit of the page of its deck that holds code
    and whose title names the task at least as well (:func:`kb.answer_pages.page_match`, plus a title announcing a
    procedure or its code): the answer is the slide with the procedure, not the line that shares the most words."""
    from .answer_pages import KIND_CUE, MIN_PAGE_MATCH, page_match

    page = best.unit.page
    if q.read[page][1] or best.unit.is_code:
        return best
    deck = q.read[page][0].chunk.source

    def match(n: int) -> float:
        title = (q.read[n][0].chunk.locator.heading or "").split(" > ")[-1]
        return page_match(q, n) + (KIND_CUE if _HOW_TITLE.search(fold(title)) else 0.0)

    coded = [n for n in range(len(q.read)) if q.read[n][1] and q.read[n][0].chunk.source == deck
             and any(s.unit.page == n for s in scored)]
    top = max(coded, key=lambda n: (match(n), -n), default=None)
    if top is None or match(top) < max(MIN_PAGE_MATCH, match(page)):
        return best
    return max((s for s in scored if s.unit.page == top), key=lambda s: s.score)
