"""Question patterns on named code entities ("la clase Sampler", "el método torch.save()"): a sentence
to complete, as multiple choice when the deck names enough entities of the same kind.
"""

from __future__ import annotations

import re

from ..quiz import Question
from ..text import STOPWORDS, fold, sentences, words
from .checks import giveaway, same_thing
from .concepts import _sentence_end, _uniform_names
from .generate import CourseTerms, Draft
from .ideas import Item, Slide, complete_sentence
from .terms import _FUNCTION_BLANK, _MISTAKES_TITLE, _statement_start
from .wording import _CAT_GROUP, _CATEGORY, _EXAMPLE_LABEL, GENERIC_LABEL, Entity, _t
from .writer_core import WriterCore


class CodeEntityPatterns(WriterCore):
    """Questions on named code entities: a sentence to complete, typed or multiple choice."""


    # ------------------------------------------------------------------ named code entities
    def _entities(self, course: CourseTerms) -> list[Entity]:
        if course.entities is None:
            found: dict[tuple[str, str], Entity] = {}
            for c in course.chunks:
                if c.is_code:
                    continue
                text = " ".join(c.text.split())
                text = re.sub(r"(\w) \(\)", r"\1()", text)
                for m in _CATEGORY.finditer(text):
                    name = m.group("id")
                    if name.endswith(".") and "()" not in name:
                        name = name.rstrip(".")
                    group = _CAT_GROUP[m.group("cat").lower()]
                    if fold(name) in STOPWORDS or len(name) < 3 or name.lower() in _CAT_GROUP:
                        continue
                    if group == "class" and not name.rstrip("()").split(".")[-1][:1].isupper():
                        continue  # "la clase torchvision.datasets": a module, not a class
                    code_like = "_" in name or "." in name or "()" in name or bool(re.search(r"[a-z][A-Z]", name))
                    english = m.group("cat").lower() in ("class", "method", "function", "option", "parameter",
                                                         "argument")
                    if not (code_like or not english and (group == "class" and name[0].isupper() and name.isascii()
                            or group == "option" and name.isascii() and name.islower() and len(name) >= 4)):
                        continue  # "el método calculada", "la función Python": words, not code
                    found.setdefault((group, name), Entity(group, name, c.source))
            course.entities = sorted(found.values(), key=lambda e: (e.group, e.name))
        return course.entities

    def _entity_items(self, slide: Slide, lang: str, course: CourseTerms, entities: list[Entity],
                      out: list[Draft]) -> None:
        """Questions on the code entities the slide's sentences name ("la clase DataLoader"):
        a cloze on the name, and multiple choice where same-kind distractors are found."""
        if _MISTAKES_TITLE.search(slide.title):
            return  # a list of mistakes ("pasar un int de Python a un RawKernel …") states no facts
        for item in slide.items:
            if not item.whole or _EXAMPLE_LABEL.match(item.label):
                continue  # "Escenario: ResNet-50 …, una GPU de clase A100, batch 256": an example's details
            # a term's label is the sentence's subject ("Numba: compilador JIT … baseado em LLVM"); a
            # role's ("Ojo: …") is not
            text = item.body[:1].upper() + item.body[1:] if item.label and (
                GENERIC_LABEL.match(item.label) or not self._term_like(item.label, slide)) else item.text
            for s in sentences(text) or [text]:
                if complete_sentence(s, min_words=9) and _statement_start(s):
                    self._entity_sentence(slide, item, s, lang, course, entities, out)

    def _entity_sentence(self, slide: Slide, item: Item, s: str, lang: str, course: CourseTerms,
                         entities: list[Entity], out: list[Draft]) -> None:
        """The sentence's first known entity that can be blanked, asked: one per sentence."""
        for m in _CATEGORY.finditer(s):
            name = m.group("id").rstrip(".") if "()" not in m.group("id") else m.group("id")
            ent = next((e for e in entities if e.name == name), None)
            if ent is None or s.count(name) != 1:
                continue
            if item.step is not None and not self._ctx(slide, name):
                return  # a step without its goal ("Crear una instancia … con la clase _____") is ambiguous
            if not self._blankable(slide, name, ent, s) or fold(name) in _FUNCTION_BLANK:
                continue  # (a relative, "cada parámetro cuyo p.grad …", is no entity to blank)
            self._entity_questions(slide, item, s, name, ent, lang, course, entities, out)
            return

    def _blankable(self, slide: Slide, name: str, ent: Entity, s: str) -> bool:
        """The sentence, the name blanked, still asks for that name and not for any other."""
        core = fold(re.split(r"[.(]", name.rstrip("()"))[-1] or name)
        if len(core) >= 4 and len(re.findall(re.escape(core[:6]), fold(s))) > 1:
            return False  # "la clase DataLoader para crear DataLoaders": the stem names the answer
        if re.search(rf"\w/{re.escape(name)}\b|\b{re.escape(name)}/\w", s):
            return False  # "ZeRO/_____": the other half of a pair of names gives it away
        if ent.group == "callable" and not self._ctx(slide, name) and not re.search(
                r"\b(PyTorch|TensorFlow|Keras|torch|tf|Dataset|DataLoader)\b", s.replace(name, " ")):
            return False  # "Utiliza la función _____ para cargar un modelo": torch.load? torch.hub.load?
        return True

    def _entity_questions(self, slide: Slide, item: Item, s: str, name: str, ent: Entity, lang: str,
                          course: CourseTerms, entities: list[Entity], out: list[Draft]) -> None:
        """The multiple choice (when the options and a context that gives nothing away are
        found) and the cloze on one entity of the sentence."""
        blanked = _sentence_end(s.replace(name, "_____", 1))
        pool = self._distractors(name, ent, s, slide.chunk.source, course, entities)
        prio = 2.4 + self._centrality(name, slide, course)
        accepted = tuple(a for a in dict.fromkeys((name.rstrip("()"), name.split(".")[-1])) if a != name)
        concepts = (name,)
        choices = _uniform_names(name, pool, s)
        if choices:
            # the slide title situates the sentence ("Data Loading en Dispositivos
            # Múltiples") unless it echoes the right option only (checks.giveaway)
            for ctx in dict.fromkeys((self._title_ctx(slide), self._ctx(slide, name))):
                q = Question("mcq", _t("complete", lang, s=blanked, c=ctx), choices[0], (), (name,), "easy",
                             lang, choices=choices, correct=0, origin="mcq")
                if not giveaway(q):
                    out.append(self._draft(slide, item, q, fold(name), prio + 0.2, quote=s))
                    break
        q = Question("cloze", self._cloze_prompt(slide, blanked, name, lang), name, (), concepts,
                     "medium", lang, accepted=accepted, origin="cloze")
        out.append(self._draft(slide, item, q, fold(name), prio, quote=s))

    def _distractors(self, name: str, ent: Entity, s: str, source: str, course: CourseTerms,
                     entities: list[Entity]) -> list[str]:
        """Other entities of the same kind from the same source only (a TensorFlow function
        among PyTorch options gives the answer away), none that could be right too."""
        same_src = [e.name for e in entities if e.group == ent.group and e.source == source]
        pool: list[str] = []
        for cand in same_src:
            if same_thing(cand, name) or fold(cand) in fold(s) or any(same_thing(cand, p) for p in pool):
                continue
            if self._also_fits(cand, name, s, source, course):
                continue
            pool.append(cand)
        return pool

    @staticmethod
    def _also_fits(cand: str, answer: str, sentence: str, source: str, course: CourseTerms) -> bool:
        """The source opens a sentence about the candidate with the same words as the stem
        ("Podemos aplicar transformaciones … DataLoader … el parámetro transform"): the candidate
        might be right too, so it is no distractor. A parallel sentence for another purpose
        ("Para cargar …, utilizamos el método torch.load()") is a good one."""
        def lead(text: str) -> list[str]:
            return [fold(w)[:5] for w in words(text) if len(w) >= 4 and fold(w) not in STOPWORDS][:3]

        want = lead(sentence.replace(answer, " "))
        if len(want) < 3:
            return False
        short = cand.split(".")[-1] if "." in cand.rstrip(".") else cand  # torch.utils.data.DataLoader → DataLoader
        for c in course.by_source.get(source, []):
            if short not in c.text:
                continue
            for other in sentences(" ".join(c.text.split())):
                if short in other and set(lead(other.replace(short, " "))) == set(want):
                    return True
        return False
