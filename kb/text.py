"""Text helpers shared by readers, search and generation: accent folding, word
tokens, stop-words and language detection for pt/es/en. Stdlib only."""

from __future__ import annotations

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
STOPWORDS = STOPWORDS | frozenset(unicodedata.normalize("NFKD", w).encode("ascii", "ignore").decode() for w in STOPWORDS)

# Words that tell pt from es (both share many function words).
_MARKERS = {
    "pt": frozenset("não são também você então uma é às ao aos pelo pela dos das nós isso está muito".split()),
    "es": frozenset("el los del y es también pero muy está son una más según sí qué cómo puede".split()),
    "en": frozenset("the and is are of to with which that this for from".split()),
}


def fold(text: str) -> str:
    """Lower-case and strip accents: ``Dependências`` → ``dependencias``."""
    nfkd = unicodedata.normalize("NFKD", text.lower())
    return "".join(c for c in nfkd if not unicodedata.combining(c))


def words(text: str) -> list[str]:
    """Word tokens as written (keeps ``tf.device``, ``mini-lote``, ``CUDA_VISIBLE_DEVICES``)."""
    return _WORD.findall(text)


@lru_cache(maxsize=200_000)
def fold_word(w: str) -> str:
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


def detect_language(text: str, default: str = "pt") -> str:
    """``pt``, ``es`` or ``en`` by counting marker function words; ``default`` when unsure."""
    counts = {lang: 0 for lang in _MARKERS}
    for w in words(text.lower())[:2000]:
        for lang, markers in _MARKERS.items():
            if w in markers:
                counts[lang] += 1
    # accented letters that exist in one language only
    counts["pt"] += 2 * len(re.findall(r"[ãõç]", text[:20000]))
    counts["es"] += 2 * len(re.findall(r"[ñ¿¡]", text[:20000]))
    best = max(counts, key=lambda k: counts[k])
    return best if counts[best] >= 2 else default


def normalize_space(text: str) -> str:
    """Collapse runs of spaces/tabs, trim lines, and keep at most one blank line."""
    lines = [re.sub(r"[ \t\u00a0]+", " ", ln).strip() for ln in text.splitlines()]
    out: list[str] = []
    for ln in lines:
        if not ln and (not out or not out[-1]):
            continue
        out.append(ln)
    return "\n".join(out).strip()


def sentences(text: str) -> list[str]:
    """Split prose into sentences (keeps abbreviations like ``ex.`` / ``tf.device`` intact)."""
    parts = re.split(r"(?<=[.!?])\s+(?=[A-ZÀ-Ö¿¡\"“(])", text.strip())
    return [p.strip() for p in parts if p.strip()]
