"""The cloze pattern: a blank on a key course term in a self-contained sentence, and the blanks it
turns down (trivial words, halves of a phrase).
"""

from __future__ import annotations

import re

from ..quiz import Question
from ..text import STOPWORDS, fold, sentences, words
from .checks import norm
from .checks_form import COUNTED, common_name, elided_subject
from .concepts import LIST_BLANK, _deck_title, _sentence_end
from .generate import CourseTerms, Draft
from .ideas import Item, Slide, complete_sentence
from .terms import _COMPARATIVE, _FUNCTION_BLANK, _MISTAKES_TITLE, _statement_start, refers_back
from .wording import _TECH, NOT_NOUN_W
from .writer_core import WriterCore


class ClozePatterns(WriterCore):
    """The cloze on a key course term, last of the patterns."""


    # ------------------------------------------------------------------ cloze on a key term
    def _cloze(self, slide: Slide, lang: str, course: CourseTerms, out: list[Draft]) -> None:
        """One cloze per slide, on its most important key term (see _cloze_pick)."""
        best = self._cloze_pick(slide, course)
        if not best:
            return
        score, s, term, item = best
        blanked = re.sub(rf"(?<![\w.]){re.escape(term)}(?![\w])", "_____", s, count=1)
        if "_____" not in blanked or LIST_BLANK.search(blanked):
            return  # an item of an enumeration: any of its siblings would fit the blank
        accepted = tuple(a for a in dict.fromkeys((term.lower(), fold(term))) if a != term)
        q = Question("cloze", self._cloze_prompt(slide, _sentence_end(blanked), term, lang), term, (),
                     (term,), "easy", lang, accepted=accepted, origin="cloze")
        out.append(self._draft(slide, item, q, fold(term), 1.4 + 0.02 * score, quote=s))

    def _cloze_pick(self, slide: Slide, course: CourseTerms) -> tuple[float, str, str, Item] | None:
        """(score, sentence, term, item): the key term of the slide's plain sentences that
        scores highest by course importance and centrality; None when there is none."""
        best: tuple[float, str, str, Item] | None = None
        if _MISTAKES_TITLE.search(slide.title):
            return None  # "tomar out[:, -1] con secuencias rellenadas …": a mistake, not a fact to complete
        for item in slide.items:
            if not item.whole or item.label:
                continue
            # one clause: "Normalizar las entradas …; ReLU en la _____ tiende a explotar" asked two things
            for s in [c for x in sentences(item.text) or [item.text] for c in re.split(r";\s+", x)]:
                if not complete_sentence(s, min_words=8, max_words=40) or "?" in s or not _statement_start(s) \
                        or refers_back(s) or " | " in s or " -> " in s:
                    # (a table's row in cells is no sentence; "X -> Y" says two things, and a blank in either
                    # half asked the other: both raters kept 2 of the 25 such clozes once arrows were read)
                    continue
                if elided_subject(s):
                    continue  # "Se combina a menudo con temperature y con _____": its subject is the slide's title
                first = words(s)[0] if words(s) else ""
                for w in dict.fromkeys(words(s)):  # in the sentence's order: ties go to the first
                    if not self._key_term(w, s, first, course) or self._trivial_blank(w, s, slide, course):
                        continue
                    score = course.importance(w) + self._centrality(w, slide, course)
                    if best is None or score > best[0]:
                        best = (score, s, w, item)
        return best

    @staticmethod
    def _key_term(w: str, s: str, first: str, course: CourseTerms) -> bool:
        """The word of the sentence is a course term in its own right, a noun, not its first word."""
        fw = fold(w)
        if fw in STOPWORDS or fw in _FUNCTION_BLANK or len(fw) < 4 or fw.isdigit() or w == first:
            return False
        if course.df.get(fw, 0) < 2 or not (fw in course.pool_folded or _TECH.match(w)):
            return False
        if NOT_NOUN_W.search(fw) and not _TECH.match(w):
            return False  # "… como este es _____ sobre la Mesh" → distribuido: a participle, no key term
        if any(fw in fold(t).split() and fold(t) != fw and f" {fold(t)} " in f" {norm(s)} "
               for t in course.terms_with(fw)):
            return False  # "parameter _____": half of a course term
        return True

    @staticmethod
    def _trivial_blank(w: str, s: str, slide: Slide, course: CourseTerms) -> bool:
        """Blanking the word would ask for one word of a phrase, trivia, or the obvious."""
        fw = fold(w)
        toks = [fold(x) for x in words(s)]
        i = toks.index(fw)
        near = [" ".join(toks[j:j + 2]) for j in (i - 1, i) if 0 <= j and j + 1 < len(toks)]
        if any(course.folded_text.count(f" {b} ") >= 2 for b in near):
            return True  # "parameter _____": one word of a phrase the course uses as a whole
        if course.df.get(fw, 0) > 0.08 * course.n_docs or re.search(rf"\([^)]*{re.escape(w)}", s):
            return True  # "GPUs" everywhere; "RDD (Resilient Distributed _____)": trivia
        deck = _deck_title(course, slide.chunk.source)
        if course.source_share(w, slide.chunk.source) > 0.3 or fw in fold(slide.title) or fw in fold(deck):
            # "PyTorch" in a PyTorch deck, the slide's own title, the deck's subject ("hiperparâmetros"
            # in "Otimização de hiperparâmetros em escala"): trivial blanks
            return True
        if COUNTED.search(re.sub(rf"(?<![\w.]){re.escape(w)}(?![\w])", "_____", s, count=1)) or common_name(w):
            return True  # "sumado de las 4 _____" → GPUs: the count says what fills it (checks_form.counted_blank)
        if re.search(rf"\w/{re.escape(w)}\b|\b{re.escape(w)}/\w", s):
            return True  # "ZeRO/_____": the other half of a pair of names gives it away
        if i and toks[i - 1] in _COMPARATIVE:
            return True  # "Mejor _____ al utilizar múltiples recursos": any good quality fits (escalabilidad,
            # rendimiento, velocidad; both raters of the clozes the list fix let through dropped it)
        return len(re.findall(rf"(?<![\w.]){re.escape(fw)}", fold(s))) != 1 or f"{w}(" in s
