"""Ideas a passage states, as a reader sees them: whole bullets and sentences with the slide
title they sit under. Stdlib only.

The question writer works from these instead of from raw lines. Slide text as PDF readers
give it wraps one bullet over several lines and may push the second line of a title into the
body; :func:`read_slide` rejoins both, so a question never starts or ends mid-sentence even on
text that was not rejoined upstream.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..records import Chunk
from ..text import fold, words

# a new item: bullet glyphs, "-"/"*"/"–" followed by a space, "1." / "1)" steps, "A." options
_MARK = re.compile(r"^\s*(?:(?P<glyph>[•◦▪●○■□➢➤►▶‣⁃·])|(?P<dash>[-*–](?=\s))|(?P<num>\d{1,2})[.)](?=\s)|"
                   r"(?P<letter>[A-H])[.)](?=\s+[A-ZÁÉÍÓÚ]))\s*")
_END = re.compile(r"[.!?…]['\"”»)]*$")
_LABEL = re.compile(r"^(?P<label>[^:]{2,70}?)\s*:\s+(?P<body>\S.{14,})$")
# words a title or phrase never ends with when it is whole (an intensifier always has its word after it:
# "cola muy" was a line wrapped before "baja", asked as a model answer on split AG)
_DANGLING = frozenset("""a al ao aos as com como de del do dos da das e el em en entre la las los o os para por
    pelo pela que sin sem su sus un una um uma y the of and to for in on with from an or ate hasta until desde
    sobre muy very tao""".split())


_QUANTIFIERS = frozenset("""algunos algunas alguns algumas varios varias vários várias muchos muchas muitos muitas
    some many several these estos estas estes estas otros otras outros outras""".split())


@dataclass(frozen=True)
class Item:
    """One bullet, numbered step or paragraph sentence group, rejoined and cleaned."""

    text: str
    index: int
    run: int  # consecutive labelled items ("X: …") share a run: they are siblings of one list
    label: str = ""
    body: str = ""
    step: int | None = None
    whole: bool = True  # ended at an item boundary, not at the end of the passage mid-sentence
    level: int = 0  # indentation of its first line: a sub-bullet is deeper than the bullet above it


@dataclass
class Slide:
    """A passage read as a slide: its title (what it is about) and its items (whole bullets)."""

    chunk: Chunk
    title: str
    items: list[Item] = field(default_factory=list)


def clean_inline(text: str) -> str:
    """Markdown emphasis, stray spaces before punctuation and ``f ()`` spacing from PDF text."""
    t = text.replace("`", "").replace("\u00a0", " ")
    # a mark that opens after a word character is part of a formula, not emphasis: "|d - d*| / d*" (AbsRel, round
    # 18: "|d - d| / d"), "x**2", "(C / 120) ** 0.5"; emphasis wraps a phrase: "**Nota:**", "*importante*"
    t = re.sub(r"(?<![\w*])(\*\*|\*)(?=[^\s*])([^*\n]+?)(?<=[^\s*])\1(?![\w*])", r"\2", t)
    t = re.sub(r"\s+", " ", t).strip()
    t = re.sub(r"\s+([.,;:!?)\]])(?![\w(])", r"\1", t)  # not " .to(device)": a method, not a full stop
    t = re.sub(r"([(\[¿¡])\s+", r"\1", t)
    t = re.sub(r"(\w) \(\)", r"\1()", t)
    t = re.sub(r"(__\w+) (__)", r"\1\2", t)
    t = re.sub(r"\b(pre|pós|pos|post|sub|multi|semi|non|auto)- (\w)", r"\1-\2", t)  # "pre- entrenados" wrapped
    # "… parámetros. -> batch size" after a full stop points to another slide; an arrow inside a bullet is
    # what follows from it ("val ruidosa / dataset pequeno -> 10-20", "(0.4512 -> 0.4510 com 1e-3 -> NÃO
    # conta)"), and cutting there left fragments: "(adivinha pelo nome" (held-out split AH)
    t = re.sub(r"(?<=[.!?])\s*->\s*[^.]*$", "", t)
    # ... and so does an arrow to "another subject" ("modelo não cabe em 1 GPU -> outro assunto (FSDP, …)")
    t = re.sub(r"\s*->\s*(?:outro assunto|otro tema|another topic|próxima aula|próxima clase|next lecture)\b.*$", "", t,
               flags=re.I)
    return t.strip()


def title_of(chunk: Chunk) -> str:
    """The slide/section title: the last heading segment, without lab/notebook residue."""
    head = (chunk.locator.heading or "").split(" > ")[-1]
    head = re.split(r"\s*[•·]\s*Lab\s*\d*:", head)[0]
    return clean_inline(head)


def _is_title_tail(first: str, title: str) -> bool:
    if not title or _END.search(title) or title.endswith(":") or _MARK.match(first):
        return False
    ws = words(first)
    if not ws or len(ws) > 5 or _END.search(first):
        return False
    last = fold(words(title)[-1]) if words(title) else ""
    return first[0].islower() or last in _DANGLING or len(ws) <= 3


def read_slide(chunk: Chunk) -> Slide:
    """Items of a passage with the passage's title (two-line titles rejoined)."""
    title = title_of(chunk)
    lines = chunk.text.split("\n")
    if lines and _is_title_tail(lines[0].strip(), title):
        title = f"{title} {clean_inline(lines[0])}"
        lines = lines[1:]
    raw: list[tuple[str, int | None, bool, int]] = []  # text, step number, opened by a marker, indent
    cur: list[str] = []
    cur_step: int | None = None
    cur_marked = False
    cur_indent = 0

    def close() -> None:
        nonlocal cur, cur_step, cur_marked
        if cur:
            raw.append((" ".join(cur), cur_step, cur_marked, cur_indent))
        cur, cur_step, cur_marked = [], None, False

    for line in lines:
        s = line.strip()
        if not s:
            close()
            continue
        m = _MARK.match(s)
        if m:
            close()
            cur = [s[m.end():].strip()]
            cur_step = int(m.group("num")) if m.group("num") else None
            cur_marked = True
            cur_indent = len(line) - len(line.lstrip())
            continue
        if cur and (not _END.search(cur[-1]) or s[0].islower() or cur[-1].endswith(",")):
            cur.append(s)  # a wrapped line of the same bullet or sentence
        else:
            close()
            cur = [s]
            cur_indent = len(line) - len(line.lstrip())
    close()
    return Slide(chunk, title, _items(raw))


def _items(raw: list[tuple[str, int | None, bool, int]]) -> list[Item]:
    """The slide's items from its rejoined bullets (text, step number, marked, indent), each
    labelled one in the run of the list it belongs to."""
    items: list[Item] = []
    run = 0
    prev_label = False
    for i, (text, step, _marked, indent) in enumerate(raw):
        t = clean_inline(text)
        if not t:
            continue
        m = _LABEL.match(t)
        label = body = ""
        # (a label with a number or a year is no term: "1024: …", and "SDXL (2023): …", "ResMLP (Touvron et al.,
        # 2021): …", a paper or version a history slide lists; read as a list of terms, session 23 asked such lists
        # as "which term matches" and round 28's raters dropped all nine, 27 of 27 ratings: trivia)
        if m and len(words(m.group("label"))) <= 7 and not re.search(r"https?|www\.|\d{3,}", m.group("label")):
            label, body = m.group("label").strip(), m.group("body").strip()
        sibling = _sibling_above(items, indent) if label and not prev_label else None
        if sibling is not None:
            run = sibling.run  # "GANs: …" and "VAEs: …", each with its own sub-bullets: one list
        elif not (label and prev_label):
            run = max([run, *(it.run for it in items)]) + 1
        prev_label = bool(label)
        last = i == len(raw) - 1
        whole = not last or bool(_END.search(t)) or not words(t) or fold(words(t)[-1]) not in _DANGLING
        items.append(Item(t, i, run, label, body, step, whole, indent))
    return items + _groups(items, max([run, *(it.run for it in items)]))


def _sibling_above(items: list[Item], indent: int) -> Item | None:
    """The labelled bullet at ``indent`` this one continues the list of, when only its own
    sub-bullets (deeper ones) stand between them; None when a bullet of this level or above does."""
    for it in reversed(items):
        if it.level > indent:
            continue
        return it if it.level == indent and it.label else None
    return None


def _groups(items: list[Item], run: int) -> list[Item]:
    """A short header bullet ("Coherencia de versión:") and the bullets under it, as one
    labelled item (each its own run: the groups of a slide are not one list)."""
    out: list[Item] = []
    for i, it in enumerate(items):
        head = it.text[:-1].strip() if it.text.endswith(":") else ""
        if not head or len(words(head)) > 6 or re.match(r"(?i)(para|to|por ejemplo|por exemplo|for example)\b", head):
            continue
        first, last = fold(words(head)[0]), fold(words(head)[-1])
        if first in _QUANTIFIERS or re.search(r"(an|en|am|em)$", last) and len(words(head)) > 1:
            continue  # "Algunas configuraciones comunes incluyen:" introduces a list, it is no concept
        body: list[Item] = []
        for nxt in items[i + 1:]:
            if nxt.text.endswith(":") or nxt.label and len(words(nxt.label)) <= 3:
                break
            body.append(nxt)
        short_whole_body = bool(body) and all(b.whole and len(words(b.text)) >= 4 for b in body) and len(body) <= 3
        if short_whole_body and not re.search(r"(a|e|an|en|ar|er|ir)$", fold(words(head)[0])) \
                or short_whole_body and head[:1].isupper() and len(words(head)) >= 2 \
                and fold(words(head)[0]).endswith(("cion", "cao", "dad", "dade", "miento", "mento", "ncia", "sis")):
            run += 1
            text = " ".join(b.text if _END.search(b.text) else b.text + "." for b in body)
            out.append(Item(f"{head}: {text}", 1000 + i, run, head, text, None, True))
    return out


def complete_sentence(text: str, min_words: int = 6, max_words: int = 60) -> bool:
    """A self-contained statement: capitalised start, no dangling last word, sane length,
    no URL, balanced brackets."""
    ws = words(text)
    if not min_words <= len(ws) <= max_words or "http" in text or "www." in text:
        return False
    first = text.lstrip("¿¡\"“«(")
    code_start = bool(ws) and bool(re.match(r"[\w]+[._(]", first))  # "torch.hub es …"
    if not first or not (first[0].isupper() or first[0].isdigit() or first.startswith(("_", ".")) or code_start):
        return False
    if fold(ws[-1]) in _DANGLING or text.rstrip().endswith((",", ":", ";", "-", "(")):
        return False
    if text.count("(") != text.count(")") or text.count("«") != text.count("»"):
        return False
    if re.search(r"[^\s.:;!?¿¡«“\"(] (A|O|Os|As|El|La|Los|Las|The|Um|Uma|Un|Una|En|Em|In|Com|Con|With|Para|Por)"
                 r" [a-zà-ÿ]", text):
        return False  # "… como processo A maioria …": two sentences run together without a stop
    if re.search(r"\w\([^)]*,\S", text):
        return False  # a code call "f(a,b,shape=(3,2))" inside the sentence
    letters = sum(ch.isalpha() for ch in text)
    return letters / max(1, len(text)) > 0.6


def dangling(text: str) -> bool:
    """Ends on a function word or a comma: the rest of the sentence is missing."""
    t = text.rstrip(" »”\"'")
    ws = words(t)
    return bool(ws) and (fold(ws[-1]) in _DANGLING or t.endswith((",", ":", ";", " -"))
                         or t.endswith("(") and not t.endswith("()"))
