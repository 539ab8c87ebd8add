"""Text helpers shared by readers, search and generation: accent folding, word
tokens, stop-words and language detection for pt/es/en. Stdlib only."""

from __future__ import annotations

import functools
import re
import unicodedata
from functools import lru_cache

_WORD = re.compile(r"[0-9A-Za-zÀ-ÖØ-öø-ÿ_]+(?:[.\-'][0-9A-Za-zÀ-ÖØ-öø-ÿ_]+)*")

# Small, hand-checked function-word lists. They serve two jobs: language detection
# (which list a text hits most) and dropping function words from lexical search.
STOPWORDS_PT = frozenset(
    """a à ao aos as às até com como da das de do dos e é ela elas ele eles em entre era
    essa esse esta este eu foi há isso isto já la lhe mais mas me mesmo muito na não nas
    nem no nos nós o os ou para pela pelas pelo pelos por qual quando que se sem ser seu
    sua são também te tem tu um uma umas uns você vocês vai ser estão está pode são ou
    então né aí aqui onde qual quais cada sobre após ainda depois dessa desse disso num
    numa""".split()
)
STOPWORDS_ES = frozenset(
    """a al algo algunas algunos ante como con contra cual cuando de del desde donde
    durante e el ella ellas ellos en entre era es esa ese eso esta este esto estos ha hay
    la las le les lo los más me mi muy nada ni no nos o otra otro para pero poco por porque
    que qué se sea según ser si sí sin sobre son su sus también tiene todo tu un una unas
    uno unos y ya puede cada donde cómo qué cuál""".split()
)
STOPWORDS_EN = frozenset(
    """a about after all also an and any are as at be because been but by can could did
    do does for from had has have how i if in into is it its may more most no not of on
    one or other our out over so some such than that the their them then there these they
    this those through to up use used using was we were what when where which while who
    why will with would you your""".split()
)
STOPWORDS = STOPWORDS_PT | STOPWORDS_ES | STOPWORDS_EN
# callers test folded words ("nao", "tambem"): hold the folded forms too
STOPWORDS = STOPWORDS | frozenset(unicodedata.normalize("NFKD", w).encode("ascii", "ignore").decode()
                                  for w in STOPWORDS)

# Words that tell pt from es (both share many function words).
_MARKERS = {
    "pt": frozenset("não são também você então uma é às ao aos pelo pela dos das nós isso está muito".split()),
    "es": frozenset("el los del y es también pero muy está son una más según sí qué cómo puede".split()),
    "en": frozenset("the and is are of to with which that this for from".split()),
}


_NON_ASCII = re.compile(r"[^\x00-\x7f]+")


def _drop_combining(m: re.Match[str]) -> str:
    return "".join(c for c in m.group() if not unicodedata.combining(c))


def fold(text: str) -> str:
    """Lower-case and strip accents: ``Dependências`` → ``dependencias``. A word or a short phrase is cached: the
    writer folds the same words of a deck again for every candidate (263,000 calls for one deck's -n 12)."""
    return _fold_short(text) if len(text) <= _FOLD_CACHED else _fold(text)


_FOLD_CACHED = 80  # characters of a text whose fold is cached (a word, a term, a stem; not a passage)


@functools.lru_cache(maxsize=1 << 16)
def _fold_short(text: str) -> str:
    return _fold(text)


def _fold(text: str) -> str:
    nfkd = unicodedata.normalize("NFKD", text.lower())
    # only non-ASCII runs can hold a combining mark: a Python loop over those few characters
    # instead of every one (ingest folds every block; the loop was a tenth of reading a course)
    return nfkd if nfkd.isascii() else _NON_ASCII.sub(_drop_combining, nfkd)


def words(text: str) -> list[str]:
    """Word tokens as written (keeps ``tf.device``, ``mini-lote``, ``CUDA_VISIBLE_DEVICES``)."""
    return _WORD.findall(text)


@lru_cache(maxsize=200_000)
def fold_word(w: str) -> str:
    """fold() of one word, cached."""
    return fold(w)


def search_tokens(text: str) -> list[str]:
    """Tokens for lexical search: folded words without stop-words, with dotted/hyphenated
    compounds also split into their parts (``tf.device`` → ``tf.device``, ``tf``, ``device``)."""
    out: list[str] = []
    for w in words(text):
        f = fold_word(w)
        if f in STOPWORDS or len(f) < 2 and not f.isdigit():
            continue
        out.append(f)
        if any(c in f for c in ".-'"):
            out.extend(p for p in re.split(r"[.\-']", f) if len(p) > 1 and p not in STOPWORDS)
    return out


# Language detection: marker words among the first _LANG_SAMPLE_WORDS words, plus _ACCENT_WEIGHT
# per letter found in one language only (in the first _LANG_SAMPLE_CHARS characters); below
# _LANG_MIN_EVIDENCE the default is kept. Set by hand with the first chunker (a33589a), not measured.
_LANG_SAMPLE_WORDS = 2000
_LANG_SAMPLE_CHARS = 20000
_ACCENT_WEIGHT = 2
_LANG_MIN_EVIDENCE = 2


_MARKER_LANGS: dict[str, tuple[str, ...]] = {}
for _lang, _markers in _MARKERS.items():
    for _w in _markers:
        _MARKER_LANGS[_w] = (*_MARKER_LANGS.get(_w, ()), _lang)


def language_scores(text: str) -> dict[str, int]:
    """Evidence for ``pt``, ``es`` and ``en``: marker function words among the first words, and
    letters only one language writes. "y" counts only between two words of three letters or more
    ("datos y modelos"): "(x, y)" and "[x x|y y]" are variables."""
    counts = {lang: 0 for lang in _MARKERS}
    ws = words(text.lower())[:_LANG_SAMPLE_WORDS]
    last = len(ws) - 1
    for i, w in enumerate(ws):
        langs = _MARKER_LANGS.get(w)
        if langs is None:
            continue
        if w == "y" and not (0 < i < last and all(len(x) >= 3 and x.isalpha() for x in (ws[i - 1], ws[i + 1]))):
            continue  # ("é" is Portuguese wherever it stands: "O que é o GIL?")
        for lang in langs:
            counts[lang] += 1
    # accented letters that exist in one language only
    counts["pt"] += _ACCENT_WEIGHT * len(_PT_LETTERS.findall(text, 0, _LANG_SAMPLE_CHARS))
    counts["es"] += _ACCENT_WEIGHT * len(_ES_LETTERS.findall(text, 0, _LANG_SAMPLE_CHARS))
    return counts


_PT_LETTERS = re.compile(r"[ãõç]")
_ES_LETTERS = re.compile(r"[ñ¿¡]")


def language_of(scores: dict[str, int], default: str = "pt") -> str:
    """The language :func:`language_scores` gives most evidence for; ``default`` when unsure."""
    best = max(scores, key=lambda k: scores[k])
    return best if scores[best] >= _LANG_MIN_EVIDENCE else default


def detect_language(text: str, default: str = "pt") -> str:
    """``pt``, ``es`` or ``en`` by :func:`language_scores`; ``default`` when unsure."""
    return language_of(language_scores(text), default)


def normalize_space(text: str) -> str:
    """Collapse runs of spaces/tabs, trim lines, and keep at most one blank line."""
    lines = [re.sub(r"[ \t\u00a0]+", " ", ln).strip() for ln in text.splitlines()]
    out: list[str] = []
    for ln in lines:
        if not ln and (not out or not out[-1]):
            continue
        out.append(ln)
    return "\n".join(out).strip()


# abbreviations a capital or a bracket may follow inside a sentence: "Jaderberg et al. (2017): …"
# was cut into "(2017): otimiza …" and asked as a cloze
_ABBREVIATION_END = re.compile(r"(?:\bet al|\be\.g|\bi\.e|\bp\. ?ej|\bp\. ?ex|\bcf|\bvs|\b[Ff]ig|\b[DS]ra?|\bProf)\.$")


def sentences(text: str) -> list[str]:
    """Split prose into sentences (keeps abbreviations like ``ex.`` / ``tf.device`` / ``et al.`` intact)."""
    parts = [p.strip() for p in re.split(r"(?<=[.!?])\s+(?=[A-ZÀ-Ö¿¡\"“(])", text.strip()) if p.strip()]
    out: list[str] = []
    for p in parts:
        if out and _ABBREVIATION_END.search(out[-1]):
            out[-1] = f"{out[-1]} {p}"
        else:
            out.append(p)
    return out


# ---------------------------------------------------------------- text as a reader sees it
# Helpers the readers share to turn extracted lines back into the sentences and bullets a
# person reads: wrapped lines rejoined, footnote markers, LaTeX residue, inline HTML and
# source credits removed, and lines that may never be a heading recognised.

BULLET_CHARS = "•◦▪▫●○■□☐☑✓✔➢➤►▶‣⁃·"
_BULLET = re.compile(r"^\s*(?:(?:[" + BULLET_CHARS + r"]+|[-*–](?=\s)|\d{1,2}[.)](?=\s))\s*)+")
_URL = re.compile(r"(?:https?://|www\.)\S+", re.I)
_URL_LINE = re.compile(r"^\s*(?:[" + BULLET_CHARS + r"\-*]\s*)?[¹²³⁴⁵⁶⁷⁸⁹⁰\d]*\s*(?:https?://|www\.)\S*\s*$", re.I)
_CREDIT = re.compile(r"^\s*(?:[" + BULLET_CHARS + r"\-*]\s*)?"
                     r"(?:fuente|fonte|source|créditos?|credits?|imagem|imagen|image)\s*:", re.I)
# a "$" that opens a shell variable or command ("$SLURM_JOB_ID", "${HOME}", "$(hostname)") opens no LaTeX:
# `export MASTER_ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)` lost all between the two "$"
_LATEX = re.compile(r"\$(?!\(|\{?[A-Z_][A-Z0-9_]+\b)\^?\{?[^$\n]{0,60}?\}?\$|\\mathrm\{[^}]*\}")
_SUPERSCRIPT = re.compile(r"[¹²³⁴⁵⁶⁷⁸⁹⁰]+")
# a superscript after a lone letter, a digit or a bracket is an exponent ("O(L²)", "x²", "10³"), not
# a footnote mark ("datos¹"): dropping it turned O(L²) into O(L) in a model answer
_EXPONENT = re.compile(r"(?:(?<![A-Za-z])[A-Za-z]|[\d)\]])(?P<sup>[¹²³⁴⁵⁶⁷⁸⁹⁰]+)")
_SUPER_DIGITS = str.maketrans("¹²³⁴⁵⁶⁷⁸⁹⁰", "1234567890")
_EMPHASIS = re.compile(r"(?<![\w*])(\*\*|\*)(?=\S)([^*\n]+?)(?<=\S)\1(?![\w*])")
# ("<s>" and "</s>" are not in it: in a course on language models they are the sentence tokens a slide lists,
# "<pad> (usado como blank), <s>, </s>, <unk>", and a reader that dropped them left "blank),,, <unk>"; round 25)
_INLINE_TAG = re.compile(r"</?(?:u|b|i|em|strong|sup|sub|span|mark|small|font)\b[^>]*>", re.I)
# words after which a line cannot end a sentence or a title (so the next line continues it)
_OPEN_ENDINGS = frozenset(
    """a à ao aos as o os de da das do dos del al el la las los lo en em no na nos nas y e o ou u
    con com por para pelo pela sin sem sobre entre que como un una uno um uma and or of the to in
    for with on by from at an""".split()
)
_TERMINAL = (".", "!", "?", ":", ";", "…", ".)", ".\"", ".”")



def leading_sentences(text: str, limit: int) -> str:
    """The whole sentences at the start of ``text`` that fit in ``limit`` characters ("" when not even
    the first one does)."""
    kept = ""
    for s in sentences(text):
        if len(kept) + len(s) + 1 > limit:
            break
        kept = f"{kept} {s}".strip()
    return kept

def strip_bullet(line: str) -> tuple[str, str]:
    """``("•", "text")`` for a bullet or numbered item, ``("", line)`` otherwise."""
    m = _BULLET.match(line)
    if not m:
        return "", line.strip()
    marker = m.group(0).strip()
    return marker, line[m.end():].strip()


def clean_inline(text: str) -> str:
    """Drop what a reader does not read: LaTeX residue (``$^{\\mathrm{1}}$``), footnote
    markers (``³``), inline HTML tags (``<u>``) and doubled spaces."""
    text = _LATEX.sub("", text)
    text = _EXPONENT.sub(lambda m: m.group(0)[: m.start("sup") - m.start()] + "^"
                         + m.group("sup").translate(_SUPER_DIGITS), text)
    text = _SUPERSCRIPT.sub("", text)
    text = _INLINE_TAG.sub("", text)
    text = _EMPHASIS.sub(r"\2", text)
    return re.sub(r"[ \t\u00a0]{2,}", " ", text).strip()


def is_noise_line(line: str) -> bool:
    """A bare URL, a footnote that is only a URL, or a source credit ("Fuente: ...")."""
    s = line.strip()
    return bool(_URL_LINE.match(s) or _CREDIT.match(s))


def looks_like_code_line(line: str) -> bool:
    """One line of source code or a shell command (an import, an assignment, a lone call, also with a
    trailing comment: "y.backward(retain_graph=True)  # mantém os buffers"), or a line of C, C++ or CUDA
    (:func:`c_code_line`)."""
    return bool(_CODE_LINE_RE.match(line)) or c_code_line(line)


# a line of C, C++ or CUDA: a preprocessor line, a CUDA or C++ declaration keyword, a block's brace, a loop's or a
# function's head, or a statement ending on ";" that holds code (a call, "::", "->", an index, an assignment, "//")
_C_HEAD = re.compile(r"^\s*(?:#\s*(?:include|pragma|define|ifn?def|endif)\b|(?:__global__|__device__|__host__|"
                     r"__shared__|__constant__|template\s*<|namespace\s+\w|using\s+\w+\s*=|typedef\s)|"
                     r"[{}]\s*;?\s*(?://.*)?$|(?:for|while|if|switch)\s*\(.*\)\s*(?:\{|.*;)\s*(?://.*)?$|"
                     r".*\)\s*(?:const\s*)?\{\s*(?://.*)?$)")
_C_STATEMENT = re.compile(r"^\s*\S.*;\s*(?://.*)?$")
_C_CODE = re.compile(r"\w\([^;]*\)\s*;|::|->|\+\+|\w\[[^\]]*\]|\w\s*[+\-*/|&^]?=\s*[\w\-(&*.]|;\s*//")


def c_code_line(line: str) -> bool:
    """A line of C, C++ or CUDA ("cg::thread_block block = cg::this_thread_block();", "block.sync(); // equivale a
    __syncthreads()", "__global__ void k(float* x) {", "#include <cuda.h>", "}"): a parallel-computing deck's code,
    which the Python-shaped patterns read as prose and the reader glued to the bullet above it. Checked on 22 code
    decks of rounds 8-28 it was not written on (cutlass_es, barriers_es, sycl_es, openacc_es, thrust_pt, mpi_pt …):
    524 more lines read as code, 40 of 40 sampled C, C++ or CUDA; no line of the shared Python decks changed."""
    return bool(_C_HEAD.match(line)) or bool(_C_STATEMENT.match(line) and _C_CODE.search(line))


_CODE_LINE_RE = re.compile(
    r"^\s*(?:(?:cd|pip3?|python3?|git|conda|source|export|mkdir|module|srun|sbatch|sudo|apt(?:-get)?|ls|nvidia-smi|docker|kubectl)\s+\S|"
    r"(?:FROM|RUN|COPY|ADD|ENV|ARG|WORKDIR|ENTRYPOINT|CMD|EXPOSE|USER|VOLUME|LABEL)\s+\S|"  # a Dockerfile's
    r"\S*\$\{?[A-Z_]{2,}|import \w|from [\w.]+ import|#\s*[A-Za-z]|try:|except\b|else:|def \w+\(|class \w+[(:]|"
    r"return\b|print\(|for \w+ in .*:$|if .*:$|"
    r"with .*:$|@\w[\w.]*$|\$ |\w[\w.\[\]]*\s*[+\-*/]?=\s*\S|[\w.]+\([^()]*(?:\([^()]*\)[^()]*)*\)\s*(?:#.*)?$|"
    r"[)\]}]+,?\s*$)"
)


# A heading has at least one letter in _HEADING_LETTER_RATIO of its characters (and 2 or more):
# "3.2 %" or "-> x" is not one. Set by hand, not measured.
_HEADING_LETTER_RATIO = 3


def can_be_heading(line: str) -> bool:
    """False for lines that must never become a section heading: URLs, footnotes,
    source credits, code, and lines that are mostly punctuation or digits."""
    s = line.strip()
    if not s or is_noise_line(s) or _URL.search(s) or looks_like_code_line(s):
        return False
    if re.match(r"^[¹²³⁴⁵⁶⁷⁸⁹⁰\d]+\s*\S", s) and _SUPERSCRIPT.match(s):
        return False  # "³ Apache Spark" footnote
    if not (s[0].isalnum() or s[0] in "¿¡\"“'(«"):
        return False  # ".RING: ..." continues a line; "-> x" is an arrow note
    letters = sum(c.isalpha() for c in s)
    return letters >= max(2, len(s) // _HEADING_LETTER_RATIO)


def ends_open(text: str) -> bool:
    """True when a line is clearly unfinished: no terminal punctuation, or it ends with a
    preposition/article ("... solo en el"), or with a hyphenated word break."""
    s = text.rstrip()
    if not s:
        return False
    if s.endswith("-") or s.endswith(","):
        return True
    last = fold(s.split()[-1])
    if last in _OPEN_ENDINGS:
        return True
    return not s.endswith(_TERMINAL)


def join_wrapped(prev: str, line: str) -> str:
    """Join a wrapped line to the text before it ("pre-" + "entrenados" → "pre-entrenados")."""
    prev, line = prev.rstrip(), line.strip()
    if prev.endswith("-") and len(prev) > 1 and prev[-2].isalpha() and line[:1].islower():
        return prev + line
    return f"{prev} {line}" if prev else line


def rejoin_lines(lines: list[tuple[int, str]]) -> list[tuple[str, str, int]]:
    """Rejoin wrapped lines into the items a reader sees. ``lines`` holds (indent, text)
    pairs; a blank text marks a paragraph break. Returns (bullet marker or "", text, indent).

    A line starts a new item when it starts with a bullet or a number ("1."), or follows a
    blank line; otherwise it continues the item before it when it starts in lower case, is
    indented past the item's marker, or the item does not end a sentence yet."""
    items: list[list] = []  # [marker, text, indent of the marker]
    broke = True
    for indent, raw in lines:
        if not raw.strip():
            broke = True
            continue
        marker, text = strip_bullet(raw)
        if not text:
            continue
        cur = items[-1] if items and not broke else None
        if " | " in text and not marker \
                and not (cur and cur[0] and text[:1].islower() and ends_open(cur[1])):
            # a table row stays a row; a bullet that says "pros | cons" is a bullet, and its wrapped
            # rest ("• WebDataset (tar): …, blobs" / "grandes | sem índice") is its rest: read as rows,
            # "• TFRecord: … | amarrado ao TF," lost its bullet and the Parquet bullet ran on into it
            items.append(["", text, indent])
            broke = True
            continue
        if marker in ("-", "–") and items and not broke and items[-1][1].count("(") > items[-1][1].count(")") \
                and text.count(")") > text.count("("):
            # a minus the line wrapped before, inside a bracket the line closes, is no bullet ("s(x~) = (D(x~)" /
            # "- x~) / sigma^2": the formula read as two items, "(D(x~); x~)", fixed by round 30's raters)
            items[-1][1] = f"{items[-1][1]} - {text}"
            broke = False
            continue
        if marker or broke or not items:
            items.append([marker, text, indent])
        else:
            cur = items[-1]
            starts_lower = text[:1].islower() or not text[:1].isalpha()
            if starts_lower or ends_open(cur[1]) or (cur[0] and indent > cur[2]):
                cur[1] = join_wrapped(cur[1], text)
            else:
                items.append(["", text, indent])
        broke = False
    return [(m, re.sub(r"\s+([.,;:!?])(?=\s|$)", r"\1", re.sub(r"\s+", " ", t)).strip(), ind) for m, t, ind in items]


# Characters a terminal obeys instead of showing: C0/C1 controls (ESC starts colour, cursor and
# title sequences; CR overwrites the line), the bidirectional marks, embeddings, overrides and
# isolates (RLO, U+202E, reverses what follows: "exe.txt" shown as "txt.exe"), and lone
# surrogates (the bytes of a file name that is not UTF-8, as Python reads it, which no
# terminal can be sent). Tab and newline are layout, kept.
_HIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def visible(text: str) -> str:
    """``text`` with every control, bidi-override and lone-surrogate character shown as an escape
    (``\\x1b``, ``\\u202e``; a non-UTF-8 byte of a file name as ``\\xe9``): safe to write to a
    terminal, and what is there can be seen. Everything else is kept as it is."""

    def shown(m: re.Match) -> str:
        o = ord(m.group(0))
        if 0xDC80 <= o <= 0xDCFF:  # os.fsdecode's surrogateescape of the byte o - 0xDC00
            return f"\\x{o - 0xDC00:02x}"
        return f"\\x{o:02x}" if o < 0x100 else f"\\u{o:04x}"

    return _HIDDEN.sub(shown, text)


def join_windows(texts: list[str]) -> str:
    """Consecutive passages of one slide or page as one text: a passage repeats the last whole lines of the one before
    it (the chunker's overlap, :func:`kb.chunking._windows`), and those lines are kept once ("• YOLOv3: …" read twice
    made a labelled list of one label, asked as two)."""
    lines: list[str] = []
    for text in texts:
        new = text.split("\n")
        same = next((j for j in range(min(len(lines), len(new)), 0, -1) if lines[-j:] == new[:j]), 0)
        lines += new[same:]
    return "\n".join(lines)
