"""Slide text: a page of layout text (a PDF page) split into a title and blocks of prose,
bullets and code, and plain-text files (slides or pages saved as text) read the same way."""

from __future__ import annotations

import re
from collections import Counter

from ..records import Block, Locator
from ..text import (
    STOPWORDS,
    c_code_line,
    can_be_heading,
    clean_inline,
    fold,
    is_noise_line,
    looks_like_code_line,
    rejoin_lines,
    strip_bullet,
    words,
)

# A slide title: a first line of at most _TITLE_MAX_WORDS words, joined with up to two wrapped
# lines of at most _TITLE_LINE_MAX_WORDS words each (a line of at most _TITLE_SHORT_WORDS words
# without end punctuation, above a bullet, counts as wrapped), _TITLE_MAX_CHARS characters in all.
# Set by hand, not measured.
_TITLE_MAX_WORDS = 14
_TITLE_LINE_MAX_WORDS = 8
_TITLE_SHORT_WORDS = 4
_TITLE_MAX_LINES = 3
_TITLE_MAX_CHARS = 110


def _line(raw: str) -> tuple[int, str]:
    expanded = raw.expandtabs(4)
    return len(expanded) - len(expanded.lstrip()), clean_inline(expanded)


def split_slide(raw: str, title: str | None = None) -> tuple[str, list[tuple[str, bool]]]:
    """A page of layout text → (title, [(text, is_code), ...]).

    The title is the page's first line, joined with the next one or two when the title was
    wrapped ("Implementación de Data Augmentation" / "en PyTorch"); URLs, footnotes and
    source credits are dropped and never become the title. Bullets and sentences wrapped
    over several lines are rejoined (:func:`kb.text.rejoin_lines`); code stays a block with
    its line breaks. ``title``: the title the page's font sizes gave (``raw`` is then the body
    only), used as it is."""
    lines: list[tuple[int, str]] = []
    dropped_url = False
    for ln in raw.splitlines():
        indent, text = _line(ln)
        if not text:
            lines.append((0, ""))
            continue
        if is_noise_line(text) or re.fullmatch(r"\d{1,3}", text):
            dropped_url = True
            continue
        if dropped_url and " " not in text and re.search(r"[/#%=]|^[\w\-.]+$", text) and not looks_like_code_line(text):
            continue  # the wrapped tail of a URL dropped just before
        dropped_url = False
        lines.append((indent, text))
    while lines and not lines[0][1]:
        lines.pop(0)
    if title is not None:
        return title, _body_parts(lines)
    title_parts: list[str] = []
    i = 0
    if lines and not strip_bullet(lines[0][1])[0] and len(words(lines[0][1])) <= _TITLE_MAX_WORDS and (
            can_be_heading(lines[0][1]) or _identifier_title(lines[0][1], next((t for _, t in lines[1:] if t), ""))):
        title_parts.append(lines[0][1])
        i = 1
        while i < len(lines) and len(title_parts) < _TITLE_MAX_LINES:
            text = lines[i][1]
            if (not text or strip_bullet(text)[0] or not can_be_heading(text)
                    or len(words(text)) > _TITLE_LINE_MAX_WORDS):
                break
            nxt = lines[i + 1][1] if i + 1 < len(lines) else ""
            last = fold(title_parts[-1].split()[-1]) if title_parts[-1].split() else ""
            wrapped = (text[:1].islower() or last in _TITLE_OPEN
                       or (len(words(text)) <= _TITLE_SHORT_WORDS and not text.rstrip().endswith((".", "!", "?", ";"))
                           and (not nxt or bool(strip_bullet(nxt)[0]))))
            if not wrapped or len(" ".join(title_parts)) + len(text) > _TITLE_MAX_CHARS:
                break
            title_parts.append(text)
            i += 1
    title = " ".join(" ".join(title_parts).split())
    title = re.sub(r"(\w)- (\w)", r"\1-\2", title)
    return title, _body_parts(lines[i:])


def _identifier_title(line: str, nxt: str) -> bool:
    """A slide titled with a bare identifier ("@tf.function", "torch.hub") above bullets."""
    return bool(re.fullmatch(r"@?[A-Za-z_][\w.]*(?:\(\))?", line.strip())) and bool(strip_bullet(nxt)[0])


_TITLE_OPEN = frozenset(
    "de del la las el los en y e a al con para por sobre da do das dos em no na com o os as ou".split())


# words a wrapped bullet's line may stop on, mid-phrase, before its continuation
_MID_PHRASE = frozenset("de del la el los las en y e o a al con para por da do das dos em no na com os as ou vs vs. "
                        "versus".split())


def _continues(prose: list[tuple[int, str]], indent: int) -> bool:
    """The line is the wrapped rest of the bullet above, however much it looks like code: that
    bullet stops mid-phrase ("con q =", "pin_memory() y .to(device,", "Function vs", an open bracket) and the
    line is not indented less than it ("• Cuantización afín: x ~ scale * (q - zero_point), con q
    =" / "clamp(round(x / scale) + zero_point)")."""
    last = next(((ind, t) for ind, t in reversed(prose) if t), None)
    if last is None or indent < last[0]:
        return False
    t = last[1].rstrip()
    return t.endswith((",", "=", "(", "[", "{", "+", "-", "*", "/")) or t.count("(") > t.count(")") \
        or fold(t.split()[-1]) in _MID_PHRASE


def _body_parts(lines: list[tuple[int, str]]) -> list[tuple[str, bool]]:
    """Split body lines into prose (rejoined into items) and code blocks."""
    parts: list[tuple[str, bool]] = []
    prose: list[tuple[int, str]] = []
    code: list[tuple[int, str]] = []

    def flush_prose() -> None:
        """Append the prose lines gathered so far as one part (rejoined, sub-bullets indented), then reset."""
        items = rejoin_lines(prose)
        base = min((ind for m, _, ind in items if m), default=0)
        text = "\n".join(("  " if m and ind > base + 1 else "") + _render_item(m, t) for m, t, ind in items if t)
        if text.strip():
            parts.append((text, False))
        prose.clear()

    def flush_code() -> None:
        """Append the code lines gathered so far as one code part (indent kept relative to its least), then reset."""
        while code and not code[-1][1]:
            code.pop()
        if code:
            base = min(ind for ind, t in code if t)
            parts.append(("\n".join(" " * max(0, ind - base) + re.sub(r" {2,}", " ", t) if t else ""
                                    for ind, t in code), True))
        code.clear()

    for indent, text in lines:
        in_code = bool(code)
        if in_code:
            prev = next((t for _, t in reversed(code) if t), "")
            base = min(ind for ind, t in code if t)
            if not text:
                code.append((indent, text))
                continue
            if not strip_bullet(text)[0] and (looks_like_code_line(text) or prev.rstrip().endswith(tuple("([{,:\\"))
                                              or indent > base or text.lstrip().startswith("#")):
                code.append((indent, text))
                continue
            flush_code()
        if text and not strip_bullet(text)[0] and (looks_like_code_line(text) or _pasted_command(text, indent, prose)) \
                and (c_code_line(text) or not _prose_like(text) and not _prose_assignment(text)) \
                and not _continues(prose, indent):  # (a C statement is code whatever its words: "if (…) out[r] = v;")
            flush_prose()
            code.append((indent, text))
            continue
        prose.append((indent, text))
    flush_prose()
    flush_code()
    return parts


# A line that looks like code is prose when it has at least _PROSE_MIN_WORDS words and more than
# _PROSE_STOPWORD_SHARE of them are stop-words. Set by hand, not measured.
_PROSE_MIN_WORDS = 6
_PROSE_STOPWORD_SHARE = 0.3


# a shell command: a program, up to three arguments, then a flag ("kubectl get nodes -o …", "torchrun
# --nnodes=2:4 …")
_SHELL_COMMAND = re.compile(r"^[a-z][\w.-]*(?:\s+[^\s-]\S*){0,3}\s+--?[A-Za-z][\w-]*(?:[=\s]|$)")


def _pasted_command(text: str, indent: int, prose: list[tuple[int, str]]) -> bool:
    """A shell command pasted under a bullet, not the bullet's wrapped rest: a command indented deeper
    than the bullet's text, or any line continued with a backslash. Read as the bullet's rest,
    "Conferir quantas GPUs cada nó oferece kubectl get nodes -o …" became a cloze on a column name
    (split U); a wrapped line that opens on a flag ("herda --cpus-per-task do sbatch; …") stays prose."""
    if re.search(r"\s\\$", text):
        return True
    last = next(((ind, t) for ind, t in reversed(prose) if t), None)
    column = last[0] + (2 if last and strip_bullet(last[1])[0] else 0) if last else 0
    return bool(_SHELL_COMMAND.match(text)) and indent > column


def _prose_like(text: str) -> bool:
    """A line that matched a code pattern but reads as prose ("Por ejemplo: x = 1" is code,
    "El resultado = la suma de los pesos" is not)."""
    ws = words(text)
    return len(ws) >= _PROSE_MIN_WORDS and sum(w.lower() in STOPWORDS for w in ws) / len(ws) > _PROSE_STOPWORD_SHARE


# "baja = afinado final": words after the "=" with no operator between them are no Python (a slide's
# "X = what it does", wrapped onto its own line), unless a keyword joins them ("f = lambda x: x"); a
# one-letter word is a formula's ("B = a x b", "Y = X W")
_WORDS_ASSIGNED = re.compile(r"^\s*[\w.]+\s*=\s*(?P<a>[^\W\d]\w+)\s+(?P<b>[^\W\d]\w+)(?!\w|=)")
_PY_KEYWORDS = frozenset("lambda not if else and or in is for await yield async from".split())


def _prose_assignment(text: str) -> bool:
    """An assignment whose right side is words ("cola muy / baja = afinado final"), not code."""
    m = _WORDS_ASSIGNED.match(text)
    # (a shell line: "HOROVOD_GPU_OPERATIONS=NCCL HOROVOD_WITH_PYTORCH=1 pip install … --no-cache-dir")
    return m is not None and m.group("a") not in _PY_KEYWORDS and m.group("b") not in _PY_KEYWORDS \
        and not re.search(r"\s--?[A-Za-z]", text)


def _render_item(marker: str, text: str) -> str:
    if not marker:
        return text
    if marker[0].isdigit():
        return f"{marker} {text}"
    return f"• {text}"


_CODE_LINE = re.compile(
    r"^\s*(import |from \S+ import|def |class |return\b|print\(|for .* in .*:|if .*:|with .*:|@\w|#|\$ |"
    r"[\w.\[\]]+\s*=\s*\S|[\w.]+\(.*\)\s*$|[)\]}]\s*$)"
)


_CODE_SHARE = 0.6  # a block is code when at least this share of its lines look like code; set by hand, not measured


def looks_like_code(text: str) -> bool:
    """True when most lines look like source code (assignments, calls, imports)."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines:
        return False
    code = sum(1 for ln in lines if _CODE_LINE.match(ln))
    return code / len(lines) >= _CODE_SHARE


def _paragraphs_with_fences(text: str) -> list[tuple[str, bool]]:
    """Split on blank lines, keeping ``` fenced code blocks whole. Returns (text, is_code)."""
    out: list[tuple[str, bool]] = []
    buf: list[str] = []
    in_fence = False
    for line in text.split("\n"):
        if line.strip().startswith("```"):
            if in_fence:
                buf.append(line)
                out.append(("\n".join(buf).strip(), True))
                buf, in_fence = [], False
            else:
                if buf:
                    out.append(("\n".join(buf).strip(), False))
                buf, in_fence = [line], True
            continue
        if in_fence:
            buf.append(line)
        elif not line.strip():
            if buf:
                out.append(("\n".join(buf).strip(), False))
                buf = []
        else:
            buf.append(line)
    if buf:
        out.append(("\n".join(buf).strip(), in_fence))
    return [(t, c) for t, c in out if t]


# Plain text: a title is one line of at most _PLAIN_TITLE_MAX_CHARS characters and
# _PLAIN_TITLE_MAX_WORDS words; a line shorter than _BOILER_MAX_CHARS seen _BOILER_REPEATS times or
# more is page furniture (footer, institute name) and dropped. Set by hand, not measured.
_PLAIN_TITLE_MAX_CHARS = 70
_PLAIN_TITLE_MAX_WORDS = 9
_BOILER_MAX_CHARS = 80
_BOILER_REPEATS = 3


def _is_title(para: str) -> bool:
    """A slide or section title: one short line without sentence punctuation, and never a
    URL, a footnote, a source credit or a line of code."""
    if "\n" in para or len(para) > _PLAIN_TITLE_MAX_CHARS:
        return False
    w = words(para)
    return (0 < len(w) <= _PLAIN_TITLE_MAX_WORDS and not para.rstrip().endswith((".", ";", ",", ":", "?", "!"))
            and not strip_bullet(para)[0] and can_be_heading(para))


def _table_row(line: str) -> str:
    """A tab-separated line is a table row: its cells are joined with " | " ("GPU | Memória")."""
    cells = [c.strip() for c in line.strip().split("\t")]
    return " | ".join(c for c in cells if c) if len([c for c in cells if c]) > 1 else line


def read_plain(text: str) -> list[Block]:
    """Slide text or a saved page: paragraphs, with short title lines as headings. Lines that
    repeat three or more times (footers, page numbers, institute names), bare URLs, footnotes
    and source credits are dropped; lines wrapped inside a sentence or bullet are rejoined."""
    paras = _paragraphs_with_fences(text)
    counts = Counter(p for p, c in paras if not c and len(p) < _BOILER_MAX_CHARS)
    boiler = {p for p, n in counts.items() if n >= _BOILER_REPEATS}
    blocks: list[Block] = []
    heading: str | None = None
    for para, is_code in paras:
        if not is_code:
            kept = [(len(ln) - len(ln.lstrip()), clean_inline(_table_row(ln))) for ln in para.split("\n")
                    if ln.strip() not in boiler and not is_noise_line(ln)]
            kept = [(ind, ln) for ind, ln in kept if ln and not re.fullmatch(r"[\d\s]+", ln)]
            if not kept:
                continue
            if len(kept) == 1 and _is_title(kept[0][1]):
                heading = kept[0][1].strip()
                continue
            if looks_like_code("\n".join(ln for _, ln in kept)):
                blocks.append(Block(text="\n".join(ln for _, ln in kept), locator=Locator(heading=heading),
                                    is_code=True))
                continue
            items = rejoin_lines(kept)
            base = min((ind for m, _, ind in items if m), default=0)
            para = "\n".join(("  " if m and ind > base else "") + _render_item(m, t) for m, t, ind in items if t)
            if not para.strip():
                continue
        blocks.append(Block(text=para, locator=Locator(heading=heading), is_code=is_code))
    return blocks
