"""Markdown: blocks under their heading path (markdown-it's tokens), front matter title kept,
bold phrases kept as emphasis."""

from __future__ import annotations

import html
import re

from ..records import Block, Locator
from ..text import clean_inline

_FRONT_MATTER = re.compile(r"\A(?:---|\+\+\+)[ \t]*\n(.*?)\n(?:---|\+\+\+|\.\.\.)[ \t]*(?:\n|\Z)", re.S)


def _front_matter(text: str) -> tuple[str | None, str]:
    """(front matter title or None, the text without its front matter)."""
    m = _FRONT_MATTER.match(text)
    if not (m and re.search(r"(?m)^\w[\w-]*\s*[:=]", m.group(1))):
        return None, text
    t = re.search(r"(?mi)^title\s*[:=]\s*['\"]?(.*?)['\"]?\s*$", m.group(1))
    return (clean_inline(t.group(1)) if t and t.group(1).strip() else None), text[m.end():]


class _MarkdownBlocks:
    """Walks markdown-it's tokens into blocks, keeping the heading path and the lines of the
    open block; lists, tables and blockquotes (``depth`` > 0) form one block each."""

    def __init__(self, tokens: list, fm_title: str | None) -> None:
        self.tokens = tokens
        self.fm_title = fm_title
        self.blocks: list[Block] = []
        self.path: list[tuple[int, str]] = []
        self.lines: list[str] = []
        self.depth = 0  # nesting of lists/tables/blockquotes: their parts form one block
        self.list_level = 0
        self.row: list[str] = []
        self.ordered: list[int] = []  # per open list: the next item number, 0 for a bullet list
        self.emphasis: list[str] = []  # the bold phrases of the open block

    def read(self) -> list[Block]:
        """Walk every token and return the blocks, each under its heading path."""
        i = 0
        while i < len(self.tokens):
            if self.tokens[i].type == "heading_open":
                self._heading(i)
                i += 3  # heading_open, inline, heading_close
                continue
            self._token(i)
            i += 1
        self._flush()
        return self.blocks

    def _heading_path(self) -> str | None:
        return " > ".join(t for _, t in self.path) or self.fm_title

    def _flush(self) -> None:
        body = "\n".join(ln for ln in self.lines if ln.strip()).strip()
        if body:
            self.blocks.append(Block(text=body, locator=Locator(heading=self._heading_path()), is_code=False,
                                     emphasis=tuple(dict.fromkeys(self.emphasis))))
        self.lines.clear()
        self.emphasis.clear()

    def _open_group(self) -> None:
        if self.depth == 0:
            self._flush()
        self.depth += 1

    def _close_group(self) -> None:
        self.depth -= 1
        if self.depth == 0:
            self._flush()

    def _add_line(self, line: str) -> None:
        self.lines.append(line)
        if self.depth == 0:
            self._flush()

    def _heading(self, i: int) -> None:
        self._flush()
        level = int(self.tokens[i].tag[1])
        title = _inline_text(self.tokens[i + 1]) if i + 1 < len(self.tokens) else ""
        if title:
            self.path = [(lv, t) for lv, t in self.path if lv < level] + [(level, title)]

    def _token(self, i: int) -> None:
        tok = self.tokens[i]
        kind = tok.type
        if kind in ("fence", "code_block"):
            self._flush()
            code = tok.content.rstrip("\n")
            if code.strip():
                self.blocks.append(Block(text=code, locator=Locator(heading=self._heading_path()), is_code=True))
        elif kind in ("bullet_list_open", "ordered_list_open"):
            self._open_group()
            self.list_level += 1
            self.ordered.append(int(tok.attrs.get("start", 1) or 1) if kind == "ordered_list_open" else 0)
        elif kind in ("bullet_list_close", "ordered_list_close"):
            self.list_level -= 1
            self.ordered.pop()
            self._close_group()
        elif kind in ("table_open", "blockquote_open"):
            self._open_group()
        elif kind in ("table_close", "blockquote_close"):
            self._close_group()
        elif kind in ("tr_open", "th_open", "td_open", "tr_close"):
            self._table(i)
        elif kind == "inline" and self.tokens[i - 1].type == "paragraph_open":
            self._paragraph(i)
        elif kind == "html_block":
            raw_html = re.sub(r"<[^>]+>", " ", tok.content)
            if raw_html.strip():
                self._add_line(clean_inline(html.unescape(" ".join(raw_html.split()))))

    def _table(self, i: int) -> None:
        kind = self.tokens[i].type
        if kind == "tr_open":
            self.row = []
        elif kind in ("th_open", "td_open"):
            cell = self.tokens[i + 1]
            self.row.append(_inline_text(cell) if cell.type == "inline" else "")
            self.emphasis += _strong_phrases(cell) if cell.type == "inline" else []
        elif any(c for c in self.row):  # tr_close
            self.lines.append(" | ".join(self.row))

    def _paragraph(self, i: int) -> None:
        para = _inline_text(self.tokens[i])
        self.emphasis += _strong_phrases(self.tokens[i])
        if self.list_level and self.tokens[i - 2].type == "list_item_open":
            if self.ordered[-1]:
                para = f"{self.ordered[-1]}. {para}"
                self.ordered[-1] += 1
            else:
                para = f"• {para}"
            para = "  " * (self.list_level - 1) + para
        self._add_line(para)


def read_markdown(text: str) -> list[Block]:
    """Blocks per paragraph, list, table or code block with the heading path
    (``# A`` > ``## B`` > ``### C``), parsed by markdown-it (CommonMark + tables): underlined
    (``===``/``---``) headings, ``~~~`` and ``` fences, ``snake_case`` in headings and
    wrapped lines are read as a person reads them. Front matter is not text; its ``title``
    heads the text before the first heading."""
    from markdown_it import MarkdownIt

    fm_title, text = _front_matter(text)
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    return _MarkdownBlocks(tokens, fm_title).read()


def _inline_text(tok) -> str:
    """What a reader sees of an inline token: text and code spans, link text, line breaks
    as spaces; emphasis marks, images and inline HTML dropped."""
    out: list[str] = []
    for child in tok.children or []:
        if child.type in ("text", "code_inline"):
            out.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            out.append(" ")
        elif child.type == "image":
            out.append(child.content or "")
    return clean_inline(" ".join("".join(out).split()))


def _strong_phrases(tok) -> list[str]:
    """The phrases an inline token sets in bold (``**…**``, ``__…__``), as :func:`_inline_text`
    writes them: in a book summary's answers they are what its author marked as the point
    ("os valores … são armazenados em **contêineres gerenciados pelo próprio cluster**")."""
    out: list[str] = []
    buf: list[str] = []
    depth = 0
    for child in tok.children or []:
        if child.type == "strong_open":
            depth += 1
            buf = buf if depth > 1 else []
        elif child.type == "strong_close" and depth:
            depth -= 1
            phrase = clean_inline(" ".join("".join(buf).split())) if not depth else ""
            if phrase:
                out.append(phrase)
        elif depth and child.type in ("text", "code_inline"):
            buf.append(child.content)
        elif depth and child.type in ("softbreak", "hardbreak"):
            buf.append(" ")
    return out


def _strip_md(s: str) -> str:
    return re.sub(r"[*_`]+", "", s).strip()
