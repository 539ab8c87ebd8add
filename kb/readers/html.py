"""Saved web pages: readable text only (headings, paragraphs, list items, tables and code; no
scripts, styles, navigation, headers or footers)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from ..records import Block, Locator
from ..text import clean_inline

_SKIP = {"script", "style", "nav", "header", "footer", "aside", "noscript", "svg", "form", "button", "template",
         "iframe"}
_DROP = {"script", "style", "noscript", "svg", "template", "iframe", "button", "form"}  # nothing in them is text
_BLOCK = {"p", "div", "li", "ul", "ol", "section", "article", "main", "br", "table", "blockquote", "dd", "dt",
          "figcaption", "pre", "caption"}
_VOID = {"br", "img", "hr", "meta", "link", "input", "source", "wbr", "col", "area", "base", "embed", "param", "track"}


class _Readable(HTMLParser):
    """Headings, paragraphs, list items, table rows (cells joined by " | ") and code. Page
    chrome (navigation, header, footer, asides) is skipped, except the headings in it: a
    page's ``<h1>`` often sits inside its ``<header>``."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.skip = 0  # depth inside page chrome
        self.drop = 0  # depth inside scripts, styles...
        self.items: list[tuple[str, int, str, bool]] = []  # (kind, level, text, is_code)
        self.buf: list[str] = []
        self.heading_level = 0
        self.pre = 0
        self.title = ""
        self.in_title = False
        self.row: list[str] | None = None
        self.cell: list[str] | None = None
        self.table_rows: list[str] = []
        self.tables = 0

    def _flush(self) -> None:
        text = "".join(self.buf)
        text = text.strip("\n") if self.pre else clean_inline(" ".join(text.split()))
        if text.strip():
            kind = "h" if self.heading_level else "p"
            self.items.append((kind, self.heading_level, text, bool(self.pre)))
        self.buf = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        """Open a tag: enter skipped or dropped chrome, a heading, a table part or preformatted text."""
        if tag in _DROP:
            if tag not in _VOID:
                self.drop += 1
            return
        if tag in _SKIP:
            self.skip += 1
        elif tag == "title":
            self.in_title = True
        elif re.fullmatch(r"h[1-6]", tag):
            self._flush()
            self.heading_level = int(tag[1])
        elif tag == "table":
            self._flush()
            self.tables += 1
        elif tag == "tr":
            self.row = []
        elif tag in ("td", "th"):
            self.cell = []
        elif tag in _BLOCK and self.cell is None:
            self._flush()
            if tag == "pre":
                self.pre += 1
        elif tag == "br" and self.cell is not None:
            self.cell.append(" ")

    def handle_endtag(self, tag: str) -> None:
        """Close a tag: leave what :meth:`handle_starttag` entered, ending the block or table row it held."""
        if tag in _DROP:
            self.drop = max(0, self.drop - 1)
        elif tag in _SKIP:
            self.skip = max(0, self.skip - 1)
        elif tag == "title":
            self.in_title = False
        elif re.fullmatch(r"h[1-6]", tag):
            self._flush()
            self.heading_level = 0
        elif tag in ("td", "th", "tr", "table"):
            self._end_table_part(tag)
        elif tag in _BLOCK and self.cell is None:
            self._flush()
            if tag == "pre":
                self.pre = max(0, self.pre - 1)

    def _end_table_part(self, tag: str) -> None:
        """A cell ends into its row, a row into the table's lines, the outermost table into one item."""
        if tag in ("td", "th"):
            if self.cell is not None and self.row is not None:
                self.row.append(clean_inline(" ".join("".join(self.cell).split())))
            self.cell = None
        elif tag == "tr":
            if self.row and any(self.row):
                self.table_rows.append(" | ".join(self.row))
            self.row = None
        else:  # table
            self.tables = max(0, self.tables - 1)
            if not self.tables and self.table_rows:
                if not self.skip:
                    self.items.append(("p", 0, "\n".join(self.table_rows), False))
                self.table_rows = []

    def handle_data(self, data: str) -> None:
        """Collect text into the page title, the open table cell or the current block; text in dropped
        tags is lost, and in page chrome only a heading's text is kept."""
        if self.drop:
            return
        if self.in_title:
            self.title += data
        elif self.cell is not None:
            self.cell.append(data)
        elif not self.skip or self.heading_level:
            self.buf.append(data)


def read_html(text: str) -> list[Block]:
    """Readable text of a saved page: headings, paragraphs, list items and code; no
    scripts, styles, navigation, headers or footers."""
    p = _Readable()
    p.feed(text)
    p.close()
    p._flush()
    blocks: list[Block] = []
    path: list[tuple[int, str]] = []
    title = " ".join(p.title.split())
    for kind, level, para, is_code in p.items:
        if kind == "h":
            path = [(lv, t) for lv, t in path if lv < level] + [(level, para)]
            continue
        heading = " > ".join(t for _, t in path) or title or None
        blocks.append(Block(text=para, locator=Locator(heading=heading), is_code=is_code))
    return blocks
