"""Question patterns on purpose, how-to, what a thing enables, caveats, scope and contrast, and
procedures (numbered or imperative steps).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from ..quiz import Question
from ..text import STOPWORDS, fold, sentences, words
from .check_subject import IMPERATIVE as _IMPERATIVE
from .checklist import CODE_NAME as _CODE_NAME
from .checks import generic_title, norm, stems
from .concepts import _PLAIN_ACTION, _sentence_end, _step_actions
from .generate import CourseTerms, Draft
from .ideas import Item, Slide, complete_sentence, dangling, read_slide
from .terms import _CALL, _EMPTY_GOAL, _everyday, _tautology, _with_code_names
from .wording import (
    _ARTICLE,
    _CAVEAT,
    _ENABLES,
    _GERUND,
    _HOW_BY,
    _HOW_FOR,
    _HOW_IF,
    _PLACE_LEAD,
    _PRONOUN,
    _PURPOSE,
    _SCOPE,
    _SCOPE_LEAD,
    _TECH,
    _VAGUE_GOAL,
    _VS,
    _situate,
    _t,
    _title_ok,
    lower_first,
)
from .writer_core import WriterCore


class PurposePatterns(WriterCore):
    """Questions on purpose, how-to, what a thing enables, caveats, scope, contrast and steps."""


    # ------------------------------------------------------------------ purpose, scope, contrast, steps
    def _purpose(self, slide: Slide, lang: str, course: CourseTerms, out: list[Draft]) -> None:
        verbs = _IMPERATIVE.get(lang, {})
        for item in slide.items:
            s = item.text
            m = _PURPOSE.match(s)
            if not m or not item.whole or m.group("imp") not in verbs or not complete_sentence(s):
                continue
            obj, goal = m.group("obj"), m.group("goal").rstrip(".")
            if not 2 <= len(words(obj)) <= 14 or len(words(goal)) < 3 or dangling(obj):
                continue
            if lang != "en" and not fold(words(goal)[0]).endswith(("ar", "er", "ir")):
                continue  # "para la comunicación …": a purpose is an action
            if _VAGUE_GOAL.match(goal):
                continue  # "para comprender mejor …": what any look at anything is for: trivial
            if re.search(r"\b(para|to|como|such as)\b", obj) or any(w in verbs for w in words(obj)) \
                    or any(w.capitalize() in verbs for w in words(obj)[1:]):
                continue  # "iterar … y visualiza …": two instructions in one
            inf = verbs[m.group("imp")]
            tool_use = fold(m.group("imp")) in ("utiliza", "usa", "utilize", "use")
            if tool_use and re.search(r"\s(y|e|and)\s+\w+(ar|er|ir)\b", goal):
                continue  # "usa X para definir … y usar …": two goals, neither the tool's purpose
            if tool_use or _tautology(obj, goal, slide.title):
                # "utilizar torch.hub.load()" → "para cargar …": ask the other way round, how to
                # reach the goal; "congelar …" → "para evitar que se modifiquen": not at all
                main = _GERUND.split(goal, maxsplit=1)[0].strip(" ,")  # "cargar un modelo, especificando …"
                if fold(words(goal)[0]) not in _EMPTY_GOAL and len(words(main)) >= 3:
                    extra = goal[len(main):].strip(" ,")
                    answer = f"{m.group('imp')} {obj}" + (f", {extra}" if extra else "")
                    self._how_draft(slide, item, lang, course, main, answer, s, out)
                continue
            prompt = _t("purpose", lang, t=f"{inf} {obj}")
            about = self._title_ctx(slide).strip(" ()")
            if about and not stems(about) <= stems(prompt):
                prompt = _situate(prompt, about, lang)  # "¿Para qué sirve ajustar el tamaño del lote?": where?
            concepts = self._concepts(goal, obj, course) or tuple(w for w in words(goal) if len(w) > 5)[:3]
            if not concepts:
                continue
            goal_lead = {"es": "Para", "pt": "Para"}.get(lang, "To")
            q = Question("short", prompt, _sentence_end(f"{goal_lead} {goal}"), (), concepts, "medium", lang,
                         origin="purpose")
            out.append(self._draft(slide, item, q, "p:" + fold(obj)[:50], 2.3, quote=s))

    def _situated(self, slide: Slide, prompt: str, lang: str) -> str:
        """The prompt, situated by the slide title when the title says what the prompt leaves
        out: most of its words, or a code name ("Uso de torch.hub para cargar modelos …")."""
        about = self._title_ctx(slide).strip(" ()")
        if not about:
            return prompt
        t, p = stems(about), stems(prompt)
        named = any(_TECH.match(w) and fold(w)[:5] not in p for w in words(about))
        return _situate(prompt, about, lang) if named or len(t & p) * 2 < len(t) else prompt

    def _how_draft(self, slide: Slide, item: Item, lang: str, course: CourseTerms, goal: str, answer: str,
                   quote: str, out: list[Draft], prio: float = 2.7) -> None:
        goal = goal.strip().rstrip(".")
        if dangling(goal) or dangling(answer) or any(fold(w) in _PRONOUN for w in words(goal)) \
                or "esto" in fold(goal).split() or len(words(goal)) < 3:
            return  # "Para hacer esto, …": the goal is in another sentence
        first = fold(words(goal)[0])
        if lang in ("es", "pt") and not re.search(r"(ar|er|ir|arse|erse|irse)$", first):
            return  # a goal is an action: "guardar el estado del modelo"
        answer = _sentence_end(answer[:1].upper() + answer[1:])
        wrapped, wrapper = self._wrapped_example(answer, slide.chunk.source)
        if wrapped:  # "torch.load() y pasamos la ruta" → "El resultado se pasa a load_state_dict(): …"
            answer = f"{answer} {_t('passed_to', lang, w=wrapper, c=wrapped)}"
        # "se pueden obtener los nombres": the object is the passive subject
        obj = re.match(r"^\S+\s+(?:solo\s+|só\s+|apenas\s+)?(\S+)\s", goal + " ")
        plural = obj and (fold(obj.group(1)) in ("los", "las", "os", "as")
                          or fold(obj.group(1)) not in STOPWORDS and re.fullmatch(r"[^\W\d_]{3,}[^s]s", obj.group(1)))
        prompt = self._situated(slide, _t("how_pl" if plural else "how", lang, t=goal), lang)
        concepts = _with_code_names(answer, goal, self._concepts(answer, goal, course))
        if wrapper:  # the call that wraps the named one is a step a right reply names: load_state_dict()
            concepts = (wrapper, *concepts)[:4]
        if not concepts:
            return
        q = Question("short", prompt, answer, (), concepts, "hard", lang, origin="how")
        out.append(self._draft(slide, item, q, "h:" + fold(goal)[:50], prio + 0.05 * min(len(concepts), 3),
                               quote=quote))

    def _wrapped_example(self, answer: str, source: str) -> tuple[str, str]:
        """The source's code call that passes the call an answer names to another one, and that
        other one's name (``model.load_state_dict(torch.load(…))``, ``load_state_dict()`` for
        "utilizamos el método torch.load()", from the deck's ``model.load_state_dict(torch.load(
        'm.pth', map_location='cuda'))``): the step the sentence leaves out, as the course's code
        does it; ("", "") when the answer names no call or the code never wraps it."""
        names = [n.rstrip("()") for n in _CODE_NAME.findall(answer) if n.endswith("()")]
        if len(names) != 1:
            return "", ""
        name = names[0]
        inner = re.compile(rf"(?<![\w.]){re.escape(name)}\((?:[^()]|\([^()]*\))*\)")
        for text in self._texts(source):
            for m in _CALL.finditer(text):
                outer, args = m.group("f"), m.group("args")
                if outer.split(".")[-1] != name.split(".")[-1] and name not in outer \
                        and re.search(rf"(?<![\w.]){re.escape(name)}\(\s*[^)\s]", args):
                    # the inner call's own arguments are the sentence's business (and may be
                    # another question's answer, map_location): the structure is the point
                    return inner.sub(f"{name}(…)", m.group(0)), outer.split(".")[-1] + "()"
        return "", ""

    def _how(self, slide: Slide, lang: str, course: CourseTerms, out: list[Draft]) -> None:
        """How to reach a goal the slide names: "Para X, utilizamos Y" / "Podemos X utilizando Y" /
        "Si deseas X, utiliza Y" → "¿Cómo se puede X?" with Y as the model answer."""
        verbs = _IMPERATIVE.get(lang, {})
        for item in slide.items:
            if not item.whole:
                continue
            for s in sentences(item.text) or [item.text]:
                if not complete_sentence(s):
                    continue
                s0 = s.rstrip(".")
                m = _HOW_FOR.match(s0)
                if m:
                    self._how_draft(slide, item, lang, course, m.group("goal"), m.group("how"), s, out)
                    continue
                m = _HOW_BY.match(s0)
                if m:
                    self._how_draft(slide, item, lang, course, m.group("goal"),
                                    _t("by", lang, t=m.group("means")).rstrip("."), s, out, prio=2.5)
                    continue
                m = _HOW_IF.match(s0)
                if m and m.group("imp") in verbs:
                    self._how_draft(slide, item, lang, course, m.group("goal"), m.group("how"), s, out, prio=2.5)

    def _enables(self, slide: Slide, lang: str, course: CourseTerms, out: list[Draft]) -> None:
        """"Cargar el estado del modelo nos permite reanudar …" → "¿Qué permite cargar el estado
        del modelo?"; a subject that is a pronoun ("Esto permite …") is in another sentence."""
        for item in slide.items:
            if not item.whole:
                continue
            for s in sentences(item.text) or [item.text]:
                m = _ENABLES.match(s.rstrip("."))
                if not m or not complete_sentence(s):
                    continue
                subj, what = m.group("subj").strip(), m.group("what").strip()
                sw = [fold(w) for w in words(subj)]
                if not sw or sw[0] in _PRONOUN \
                        or set(sw) & {"que", "es", "son", "é", "são", "is", "are", "which", "this"} \
                        or dangling(what) or len(words(what)) < 4 or not subj[:1].isupper() and not subj[:1].isalpha():
                    continue
                if self._no_subject_word(subj, slide.chunk.source):
                    continue  # "Permite distribuir …" has no subject of its own
                if len(sw) <= 2 and course.source_share(words(subj)[-1], slide.chunk.source) > 0.3:
                    continue  # "PyTorch permite …" in a PyTorch deck: what the whole course is about
                if _tautology(subj, what, ""):
                    continue
                plural = m.group("verb") in ("permiten", "permitem", "allow")
                shown = lower_first(subj) \
                    if _ARTICLE.match(subj) or lang != "en" and fold(sw[0]).endswith(("ar", "er", "ir")) else subj
                prompt = _t("enables_pl" if plural else "enables", lang, t=shown)
                if m.group("ctx"):
                    prompt = f"{m.group('ctx')}, {prompt[0].lower() if prompt[0] != '¿' else '¿' + prompt[1].lower()}" \
                             f"{prompt[1:] if prompt[0] != '¿' else prompt[2:]}"
                if _everyday(what, lang):
                    continue  # "reanudar la capacitación o … hacer predicciones": a benefit anyone could guess
                answer = _sentence_end(what[:1].upper() + what[1:])
                concepts = self._concepts(what, subj, course)
                if not concepts:
                    continue
                q = Question("short", self._situated(slide, prompt, lang), answer, (), concepts, "medium", lang,
                             origin="enables")
                out.append(self._draft(slide, item, q, "e:" + fold(subj)[:50], 2.4, quote=s))

    def _caveats(self, slide: Slide, lang: str, course: CourseTerms, out: list[Draft]) -> None:
        """"Al cargar solo los parámetros, es importante asegurarse de que la estructura …" →
        "¿Qué hay que tener en cuenta al cargar solo los parámetros?"."""
        for item in slide.items:
            if not item.whole:
                continue
            for s in sentences(item.text) or [item.text]:
                m = _CAVEAT.match(s.rstrip("."))
                if not m or not complete_sentence(s):
                    continue
                sit, what, lead = m.group("sit").strip(), m.group("what").strip(), m.group("lead").lower()
                if dangling(what) or dangling(sit) or len(words(what)) < 4:
                    continue
                if lead.endswith("que") or lead.endswith("that"):
                    what = {"es": "Que ", "pt": "Que "}.get(lang, "That ") + what
                answer = _sentence_end(what[:1].upper() + what[1:])
                concepts = self._concepts(what, sit, course)
                if not concepts:
                    continue
                q = Question("short", self._situated(slide, _t("caveat", lang, t=sit), lang), answer, (), concepts,
                             "hard", lang, origin="caveat")
                out.append(self._draft(slide, item, q, "c:" + fold(sit)[:50], 2.0, quote=s))

    def _no_subject_word(self, text: str, source: str) -> bool:
        """The text opens on a conjugated verb ("Permite distribuir …", "Distribuye (shards) …")."""
        from .check_subject import no_subject

        q = Question("tf", f"? {text}", "", (), lang="es")
        return bool(no_subject(q, self._vocab.get(source) or Counter()))

    def _imperative_steps(self, slide: Slide, lang: str, course: CourseTerms, out: list[Draft]) -> None:
        """A slide titled by an action ("Cargar y utilizar modelos pre-entrenados en
        transferencia de aprendizaje") whose bullets are ≥ 3 instructions in a row (Utiliza …,
        Congela …, Reemplaza …, Entrena …): the steps of that action, in order. Bullets of the
        same page carried into the next passage count too."""
        verbs = _IMPERATIVE.get(lang, {})
        title = slide.title
        if not verbs or not _title_ok(title) or generic_title(title) or not words(title):
            return
        if not re.search(r"(ar|er|ir)$", fold(words(title)[0])) or lang == "en":
            return
        items = list(slide.items)
        seen = {norm(it.text) for it in items}
        course_ = self._course
        for c in sorted(course_.by_source.get(slide.chunk.source, []), key=lambda c: c.ordinal):
            if c.ordinal > slide.chunk.ordinal and c.locator.page == slide.chunk.locator.page \
                    and c.locator.heading == slide.chunk.locator.heading:
                items += [it for it in read_slide(c).items if norm(it.text) not in seen]
                seen |= {norm(it.text) for it in items}
        run: list[Item] = []
        best: list[Item] = []
        for it in items:
            first = it.text.split(" ", 1)[0]
            if first in verbs and it.whole and complete_sentence(it.text):
                run.append(it)
                best = run if len(run) > len(best) else best
            else:
                run = []
        if len(best) < 3 or best[0] not in slide.items:
            return
        answer = " ".join(f"{n}. {_sentence_end(it.text)}" for n, it in enumerate(best, start=1))
        # a tool a step merely uses ("Utiliza torch.hub para cargar …") is one way among others,
        # no concept a right reply must name; the tools of the steps' own actions are
        own = " ".join(it.text for it in best if verbs[it.text.split(" ", 1)[0]] not in _PLAIN_ACTION)
        concepts = _with_code_names(own, title, tuple(dict.fromkeys(
            c for it in best for c in self._concepts(it.text, title, course, 1))), k=5)
        concepts = tuple(dict.fromkeys([*_step_actions([it.text for it in best], title, lang), *concepts]))
        q = Question("short", _t("steps", lang, t=lower_first(title)), answer, (), concepts[:5] or (title,), "hard",
                     lang,
                     origin="steps")
        here = [it for it in best if it in slide.items]
        out.append(self._draft(slide, here[0], q, "st:" + fold(title)[:50], 3.0,
                               quote=" ".join(it.text for it in here), also=tuple(here[1:])))

    def _scope_and_contrast(self, slide: Slide, lang: str, course: CourseTerms, out: list[Draft]) -> None:
        items = slide.items
        for i, item in enumerate(items):
            m = _SCOPE.match(item.text)
            if m and item.whole:
                pre = _SCOPE_LEAD.sub("", m.group("pre")).strip()
                first = fold(words(pre)[0]) if words(pre) else ""
                if pre and (lang == "en" or first.endswith(("ar", "er", "ir", "or"))) and pre != m.group("pre") or (
                        pre and first.endswith(("ar", "er", "ir"))):
                    x, y = m.group("x").rstrip("."), m.group("y").rstrip(".")
                    # the key fact is where it applies ("conjunto de datos de entrenamiento"), then where not
                    concepts = tuple(dict.fromkeys((_PLACE_LEAD.sub("", x),) + self._concepts(y, pre, course, 2)))
                    q = Question("short", _t("scope", lang, t=lower_first(pre)), _t("scope_answer", lang, x=x, y=y),
                                 (), concepts or (x,), "hard", lang, origin="scope")
                    out.append(self._draft(slide, item, q, "s:" + fold(pre)[:50], 2.9))
                    stmt = _t("scope_false", lang, t=lower_first(pre), x=y, y=x)
                    ans = f"{_t('false', lang)}. {_t('source_says', lang, s=_sentence_end(item.text))}"
                    q = Question("tf", _t("tf", lang, s=_sentence_end(stmt)), ans, (), concepts or (x,), "medium", lang,
                                 correct=False, origin="tf")
                    out.append(self._draft(slide, item, q, "s:" + fold(pre)[:50], 2.5))
            m = _VS.match(item.text)
            if m and i + 1 < len(items) and " vs" in items[i + 1].text:
                sides = re.split(r"\s+vs\.?\s+", items[i + 1].text, maxsplit=1)
                # the slide's own note may be in English ("single-process multi-thread … vs.
                # multi-process parallelism"): the answer quotes it as the course says it, without
                # code asides ("(a wrapper of scatter + parallel_apply + gather)")
                sides = [re.sub(r"\s*\([^)]*[+_=][^)]*\)", "", x).strip() for x in sides]
                if len(sides) == 2 and all(len(words(x)) >= 2 for x in sides):
                    a, b = m.group("a").strip(), m.group("b").strip()
                    answer = f"{a}: {sides[0].strip().rstrip('.')}; {b}: {sides[1].strip().rstrip('.')}."
                    q = Question("short", _t("differ", lang, a=a, b=b), answer, (), (a, b), "hard", lang,
                                 origin="compare")
                    out.append(self._draft(slide, item, q, f"{fold(a)}|{fold(b)}", 2.9,
                                           quote=f"{item.text} {items[i + 1].text}"))

    def _steps(self, slide: Slide, lang: str, course: CourseTerms, out: list[Draft]) -> None:
        items = slide.items
        for i, item in enumerate(items):
            m = re.match(r"^(?:Para|To)\s+(?P<goal>.{8,120}):$", item.text)
            if not m:
                continue
            steps: list[Any] = []
            for nxt in items[i + 1:]:
                if nxt.step != len(steps) + 1:
                    break
                steps.append(nxt)
            if len(steps) < 3 or not all(s.whole for s in steps):
                continue
            answer = " ".join(f"{n}. {_sentence_end(s.text)}" for n, s in enumerate(steps, start=1))
            concepts = tuple(dict.fromkeys(c for s in steps
                                           for c in self._concepts(s.text, m.group("goal"), course, 1)))
            # a step whose own verb is the idea ("Congela los parámetros …"): the verb is a concept
            concepts = tuple(dict.fromkeys([*_step_actions([st.text for st in steps], m.group("goal"), lang),
                                            *concepts]))
            q = Question("short", _t("steps", lang, t=m.group("goal")), answer, (), concepts[:5] or (m.group("goal"),),
                         "hard", lang, origin="steps")
            out.append(self._draft(slide, item, q, "st:" + fold(m.group("goal"))[:50], 2.9,
                                   quote=" ".join(s.text for s in [item, *steps])))
