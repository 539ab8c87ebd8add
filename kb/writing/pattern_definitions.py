"""Question patterns on definitions: "X es …" / "X: …" sentences, equations, the role a bullet states
(cost, problem, advantage), the parts a sentence announces, and what a function returns.
"""

from __future__ import annotations

import re

from ..quiz import Question
from ..text import STOPWORDS, fold, sentences, words
from .asked_term import garbled_term
from .checks import _stems4, generic_title, stems
from .concepts import _sentence_end, gist_of
from .generate import CourseTerms, Draft, _term_ok
from .ideas import Item, Slide, complete_sentence, dangling
from .terms import _MISTAKES_TITLE, _purpose_verbs, _untagged, plain_words
from .wording import (
    _ARTICLE,
    _DEF,
    _DEF_START,
    _EQUATION,
    _NOT_DEF,
    _NUMBER,
    _PARTS,
    _PLURAL_VERB,
    _PRONOUN,
    _REMEDY_LABELS,
    _RETURNS,
    _ROLE,
    _TECH,
    _abbreviates,
    _feminine,
    _of,
    _situate,
    _t,
    lower_first,
    name_uses,
)
from .writer_core import WriterCore


class DefinitionPatterns(WriterCore):
    """Questions on definitions, equations, roles, announced parts and return values."""


    # ------------------------------------------------------------------ definitions
    def _definitions(self, slide: Slide, lang: str, course: CourseTerms, out: list[Draft]) -> None:
        for item in slide.items:
            if not item.whole:
                continue
            for s in sentences(item.text) or [item.text]:
                self._copula(slide, item, s, lang, course, out)
                self._returns(slide, item, s, lang, course, out)

    def _equations(self, slide: Slide, lang: str, course: CourseTerms, out: list[Draft]) -> None:
        """A bullet that says what a thing is with "=" ("Checkpoint completo = modelo + otimizador +
        scheduler + …", "batch efectivo = micro-batch x pasos de acumulación x GPUs", "Latencia = espera
        hasta formar el batch + cómputo del batch", "Augmentation = gerar, a cada época, variações
        plausíveis de cada amostra"): what it is made of, how it is computed, or what it is. Slides
        write definitions this way about three times a deck (135 such bullets in the 46 held-out
        decks), and no other pattern read them."""
        for item in slide.items:
            m = _EQUATION.match(item.text)
            if not m or item.step is not None or not item.whole:
                continue
            term, rhs = m.group("t").strip(), m.group("d").strip().rstrip(".")
            main = rhs.split("; ", 1)[0]
            if " = " in rhs or "->" in main or re.search(r"\w\(|[\[\]{}_]", f"{term} {main}") or dangling(main) \
                    or main.count("(") != main.count(")"):
                continue  # "Cor = tipo; vermelho = transferência": a legend; "ds.transform = train_tf": code
            tw = words(term)
            whole = self._whole(slide.chunk.source)
            inside, low = name_uses(term, whole)
            name = bool(_TECH.match(term) or re.fullmatch(r"[a-z]+\.[a-z_.]+", term)) \
                or 2 <= len(tw) <= 3 and all(w[:1].isupper() for w in tw) \
                or len(tw) == 1 and term[:1].isupper() and inside > low
            if not name and not (1 <= len(tw) <= 4 and _term_ok(_ARTICLE.sub("", term))) \
                    or fold(tw[0]) in _PRONOUN or fold(tw[0]) in STOPWORDS \
                    or lang in ("es", "pt") and re.fullmatch(r"[a-z]+(?:ar|er|ir)", fold(tw[0])) \
                    and not course.noun_like(fold(tw[0])):
                continue  # ("Cuantizar = …": an action, asked as "¿qué es cuantizar?")
            sums = [p.strip() for p in re.split(r"\s\+\s", main)]
            prods = [p.strip() for p in re.split(r"\s[x×]\s", main)]
            parts, key = (sums, "made_of") if len(sums) >= 2 else (prods, "computed") if len(prods) >= 2 else ([], "")
            if parts and not all(1 <= len(words(p)) <= 7 and not re.search(r"[=<>]", p)
                                 and len(re.sub(r"\s*\([^)]*\)", "", p)) >= 3 for p in parts):
                continue  # "E_{x_0, t} || epsilon - … ||^2": a formula to read, no parts to name
            defines = name and len(tw) == 1 and "." not in term and len(words(main)) >= 5 \
                and complete_sentence(main[:1].upper() + main[1:], min_words=5) and not _NOT_DEF.match(main)
            if not parts and not defines:
                continue  # "Batch grande = mais negativos": an effect, no definition
            shown = term if name else self._shown(term, lang, course, slide.chunk.source)
            prompt = _t(key or "what_is", lang, t=shown)
            # the slide's subject, else the deck's ("o scheduler": of a diffusion model, not the lr's); the
            # deck's alone situated a slide's formula wrongly ("En entrenamiento con precisión mixta, ¿cómo
            # se calcula el batch efectivo?" on a gradient-accumulation slide: both raters of the "=" packet)
            topic = "" if name else self._topic(slide) or self._deck_topic(slide.chunk.source)
            if plain_words(topic, whole):
                topic = topic.lower()  # "Batching: …" is a title's capital
            if topic and not self._names(prompt, topic):
                prompt = _situate(prompt, topic, lang).replace(f"«{topic}»", topic)
            answer = _sentence_end(f"{term} = {rhs}")
            if parts:
                # every part a reply must name ("pós-processamento" was the fifth, and both raters of the "="
                # packet missed it), and what the answer says after them ("; não tem parâmetros treináveis")
                tail = gist_of(rhs.split("; ", 1)[1], 8) if "; " in rhs else ""
                concepts = tuple(gist_of(p, 6) or p for p in (re.sub(r"\s*\([^)]*\)", "", p).strip() for p in parts)
                                 if p)[:6] + ((tail,) if tail else ())
            else:
                gist = gist_of(main, 14)
                concepts = ((gist,) if gist else ()) + self._concepts(main, term, course)[:1]
            if len(concepts) < (2 if parts else 1):
                continue
            q = Question("short", prompt, answer, (), concepts, "medium", lang, origin="equation")
            out.append(self._draft(slide, item, q, "eq:" + fold(term)[:50], 2.5 + self._centrality(term, slide, course),
                                   quote=item.text))

    def _roles(self, slide: Slide, lang: str, course: CourseTerms, out: list[Draft]) -> None:
        """A bullet labelled with its role on a slide about one technique ("Quantization-aware
        training (QAT)": "Idea: simular la cuantización durante el entrenamiento …", "Coste:
        entrenamiento más lento …"; "GradScaler: escalado de la pérdida": "Problema: en FP16 los
        gradientes muy pequeños se redondean a cero"): what the technique costs, consists of, solves,
        gains or cannot do. Slides say these about four times a deck (about 170 role labels in the 46
        held-out decks), and a teacher asks exactly that. A problem is asked as one the technique
        solves only where the slide also gives a remedy, its idea or an advantage; a role bullet on a
        slide about two things (a "vs" title), on a mistakes slide or under a title whose subject is a
        role word ("…: a ideia") is not asked."""
        topic = self._topic(slide)
        if topic[:1].islower() and topic[:1].upper() + topic[1:] in slide.title:
            inside, low = name_uses(topic[:1].upper() + topic[1:], self._whole(slide.chunk.source))
            topic = topic[:1].upper() + topic[1:] if inside > low else topic  # "Adam: …" is a name, not "el adam"
        if not topic or self._vs_title(slide) or fold(topic) in self._libraries() \
                or generic_title(slide.title) or _MISTAKES_TITLE.search(slide.title):
            return
        if fold(_ARTICLE.sub("", topic)) in _ROLE:
            return  # "Acumulação de gradientes: a ideia" names a role, no subject ("Que problema a ideia resolve?", Z)
        labels = {fold(it.label) for it in slide.items if it.label}
        named = topic[:1].isupper() or bool(_TECH.match(topic)) or "." in topic
        shown = topic if named else self._shown(topic, lang, course, slide.chunk.source)
        for it in slide.items:
            role = _ROLE.get(fold(it.label)) if it.label and it.whole and it.level == 0 else None
            if not role or len(words(it.body)) < 4 or dangling(it.body):
                continue
            if role == "role_problem" and (not labels & _REMEDY_LABELS or not named and fold(topic).endswith("s")):
                # the problem *of* something ("Problema: Q implícita = popularidade" beside no remedy), not one
                # the subject solves; "Que problema os negativos resolve?" would need the plural
                continue
            prompt = _t(role, lang, t=shown, of=_of(shown, lang))
            answer = _sentence_end(f"{it.label}: {it.body}")
            gist = gist_of(it.body, 14)
            concepts = tuple(dict.fromkeys(((gist,) if gist else ()) + self._concepts(it.body, topic, course)[:1]))
            if not concepts:
                continue
            q = Question("short", prompt, answer, (), concepts, "medium", lang, origin="role")
            prio = 2.6 + self._centrality(topic, slide, course)
            out.append(self._draft(slide, it, q, f"{role}:{fold(topic)[:50]}", prio, quote=it.text))

    def _shown(self, term: str, lang: str, course: CourseTerms, source: str) -> str:
        """A common noun phrase with its definite article, as a stem says it ("el batch efectivo",
        "a latência"); a name as it is."""
        bare = self._case(_ARTICLE.sub("", term), course)
        first = words(bare)[0]
        if first[:1].isupper() and not _TECH.match(first) and not first[1:2].isupper():
            # a bullet's capital unless the deck writes the word as a name ("Trabalho perdido por falha",
            # said nowhere else: unlike plain_words, no lower-case use is needed as evidence)
            inside, low = name_uses(first, self._whole(source))
            bare = bare if inside > low else lower_first(bare)
        if _ARTICLE.match(term) or lang not in ("es", "pt") or bare[:1].isupper():
            return _ARTICLE.sub(lambda m: m.group(0).lower(), term) if _ARTICLE.match(term) else bare
        head = fold(words(bare)[0])
        plural = head.endswith("s") and not head.endswith(("is", "us"))
        art = {"es": (("el", "la"), ("los", "las")), "pt": (("o", "a"), ("os", "as"))}[lang][plural][_feminine(head)]
        return f"{art} {bare}"

    def _parts(self, slide: Slide, lang: str, course: CourseTerms, out: list[Draft]) -> None:
        """"X se compone de dos componentes principales: A y B" with the labelled bullets "A: …",
        "B: …" under it → "¿Cuáles son los dos componentes principales de X?", the parts with what
        each is as the model answer. It uses up the labelled bullets: asking what "la arquitectura"
        means on its own is the weaker question (a bare synonym)."""
        for item in slide.items:
            m = _PARTS.match(item.text) if item.whole and not item.label else None
            if not m:
                continue
            n = _NUMBER[fold(m.group("n"))]
            parts = stems(m.group("parts"))
            run = [it for it in slide.items if it.index > item.index and it.label and it.whole][:n]
            if len(run) != n or len({it.run for it in run}) != 1 \
                    or not all(stems(_ARTICLE.sub("", it.label)) <= parts for it in run):
                continue  # the bullets under it are not the parts it announces
            whole, kind = m.group("whole"), m.group("kind").strip()
            if dangling(whole) or any(fold(w) in _PRONOUN for w in words(whole)):
                continue
            shown = whole if _TECH.match(words(whole)[0]) else lower_first(whole)
            fem = fold(words(kind)[0]) in ("partes", "fases", "etapas", "capas", "clases", "classes", "camadas")
            art = {"es": ("los", "las"), "pt": ("os", "as")}.get(lang, ("", ""))[fem]
            prompt = _t("parts", lang, a=art, n=m.group("n"), k=kind, t=shown)
            answer = " ".join(_sentence_end(f"{it.label}: {it.body}") for it in run)
            concepts = tuple(_ARTICLE.sub("", it.label) for it in run)
            q = Question("short", prompt, answer, (), concepts, "medium", lang, origin="parts")
            out.append(self._draft(slide, item, q, "parts:" + fold(whole)[:50], 3.0, quote=item.text, also=run))

    def _copula(self, slide: Slide, item: Item, s: str, lang: str, course: CourseTerms, out: list[Draft],
                term: str | None = None, verb: str | None = None, definition: str | None = None) -> bool:
        ctx = ""
        if term is None:
            m = _DEF.match(s)
            if not m:
                return False
            ctx, term, verb, definition = \
                (m.group("ctx") or ""), m.group("term").strip(), m.group("verb"), m.group("def")
        assert verb is not None and definition is not None
        bare = _ARTICLE.sub("", term)
        first = fold(words(term)[0]) if words(term) else ""
        if not bare or first in _PRONOUN or not _term_ok(bare) or _NOT_DEF.match(definition) \
                or garbled_term(bare, course.verb_like):
            return False  # ("Ray Tune determina qué …": a sentence's subject and verb, no term)
        if not (_DEF_START.match(definition) or verb in _PLURAL_VERB and definition[:1].islower()):
            return False  # "X es importante …", "X es muy …": not a definition
        if verb in _PLURAL_VERB and not _DEF_START.match(definition) \
                and re.match(r"\w+(?:ivos|ivas|icos|icas|onos|onas|bles|ados|adas|idos|idas)\b", fold(definition)):
            return False  # "los lanzamientos de kernels son asíncronos: …": a property, no definition
        if "=" in term:
            return False  # "use_reentrant=False é a implementação recomendada": a setting, no term
        if not complete_sentence(s) or len(words(definition)) < 5:
            return False
        if not (course.is_course_term(bare) or any(course.df.get(fold(w), 0) >= 2 for w in words(bare)
                                                   if fold(w) not in STOPWORDS)):
            return False
        shown = _ARTICLE.sub(lambda m: m.group(0).lower(), term) if _ARTICLE.match(term) else self._case(bare, course)
        prompt = _t("what_are" if verb in _PLURAL_VERB else "what_is", lang, t=shown)
        if ctx:
            prompt = f"{ctx}, {prompt[0].lower() if prompt[0] != '¿' else '¿' + prompt[1].lower()}" \
                     f"{prompt[1:] if prompt[0] != '¿' else prompt[2:]}"
        if re.match(r"^[A-Z][a-z]{0,5}\.[a-z]", s) and (s[0].lower() + s[1:s.index(" ")]) in course.raw_text:
            s = s[0].lower() + s[1:]  # "Tf.distribute.Strategy" at a bullet's start is tf.distribute.Strategy
            prompt = prompt.replace(shown, shown[0].lower() + shown[1:], 1)
        answer = _sentence_end(s)
        more = self._continuation(slide, item)
        full = f"{answer} {more}" if more else answer  # "… es una técnica …. Permite distribuir el modelo …"
        prio = 2.3 + self._centrality(bare, slide, course)
        concepts = self._concepts(f"{definition} {more}", bare, course) or (bare,)
        purpose = _purpose_verbs(definition)
        if purpose and len(self._answer_concepts(concepts, prompt, full)) < 2:
            concepts = (*concepts, purpose)  # "operaciones … para modificarlos o prepararlos": what they do
        key = fold(bare)
        out.append(self._draft(slide, item, Question("short", prompt, full, (), concepts, "medium", lang,
                                                     origin="definition"), key, prio, quote=s))
        lead = re.match(r"(?:En|Em|In) [^,¿?]+, ", out[-1].question.prompt)  # "En PyTorch, ¿qué son …?"
        self._definition_choice(slide, item, bare, definition, lang, key, prio, s, out, verb,
                                lead.group(0) if lead else "")
        # no "true" statement from it: a definition copied as true is judged at a glance (the
        # true/false a teacher keeps are false ones built by a swap: _labels, _scope_and_contrast)
        return True

    def _definition_choice(self, slide: Slide, item: Item, term: str, definition: str, lang: str, key: str,
                           prio: float, quote: str, out: list[Draft], verb: str = "", lead: str = "") -> None:
        """The same definition as a multiple choice: which of the deck's terms it describes (the
        others: :meth:`_deck_options`); where the deck has too few, the term to fill in ("_____ es una
        API de PyTorch que …"). Selection takes one question per bullet, the type the quiz has least
        of: a deck's definitions were all short answers, nine of ten questions of a quiz."""
        desc = definition.rstrip(". ")
        answer = _untagged(term)  # (as the deck writes it, like the other options)
        if len(words(desc)) < 5 or len(words(desc)) > 40 or fold(answer) in fold(desc):
            return
        if len(words(re.sub(r"\([^)]*\)", " ", desc))) < 5:
            return  # "o recurso básico do Spark é o RDD (Resilient …)": a name, not a description to recognise
        others = self._deck_options(answer, desc, slide)
        if verb and len(words(term)) <= 4 and (lead or len(others) < 3):  # also beside a multiple choice,
            # where its short answer is situated: the form selection falls back on when the quiz would
            # hold one multiple choice alone (generate._no_lone_mcq), or to balance the types
            # beside a multiple choice, situated as its short answer is ("En PyTorch, _____ son …"); alone, as
            # the writer sets any cloze (_draft)
            blanked = f"{lead if len(others) >= 3 else ''}_____ {verb} {desc}."
            q = Question("cloze", _t("cloze", lang, s=blanked, c=""), _untagged(term), (), (_untagged(term),),
                         "easy", lang, origin="cloze")
            out.append(self._draft(slide, item, q, key, prio - 0.1 - 0.05 * (len(others) >= 3), quote=quote))
        if len(others) < 3:
            return
        q = Question("mcq", _t("which_kind", lang, k=_t("kind_term", lang), d=desc), answer, (), (answer,), "easy",
                     lang, choices=(answer, *others), correct=0, origin="mcq")
        out.append(self._draft(slide, item, q, key, prio - 0.1, quote=quote))

    def _continuation(self, slide: Slide, item: Item) -> str:
        """The next bullet when it goes on about the same subject without naming it ("Permite
        distribuir el modelo y los datos …", "Consiste en aplicar transformaciones …"): a
        definition's model answer says what the thing does, not only its genus."""
        nxt = next((it for it in slide.items if it.index == item.index + 1), None)
        if nxt is None or nxt.label or not nxt.whole or not complete_sentence(nxt.text, min_words=5):
            return ""
        ws = nxt.text.split()
        second = fold(ws[1]) if len(ws) > 1 else ""
        # "Soporte para TF": no verb
        verb_like = second in ("en", "a", "al", "el", "la", "los", "las", "un", "una", "que", "con", "em", "o", "os",
                               "as", "um", "uma") or bool(re.search(r"(ar|er|ir)$", second))
        return _sentence_end(nxt.text) if verb_like and self._no_subject_word(nxt.text, slide.chunk.source) else ""

    @staticmethod
    def _case(term: str, course: CourseTerms) -> str:
        """"Data augmentation" → "data augmentation" when the course writes it in lower case too."""
        if not term or not term[0].isupper() or (len(term) > 1 and term[1].isupper()) or _TECH.match(term.split()[0]):
            return term
        low = term[0].lower() + term[1:]
        return low if f" {fold(low)} " in course.folded_text and low in course.raw_text else term

    def _returns(self, slide: Slide, item: Item, s: str, lang: str, course: CourseTerms, out: list[Draft]) -> None:
        m = _RETURNS.match(s)
        if not m or not complete_sentence(s):
            return
        det = m.group("det") or ""
        subj = (det[0].lower() + det[1:] + " " if det else "") + m.group("id")
        verb = m.group("verb")
        key_t = "returns" if verb in ("nos devuelve", "devuelve", "retorna", "returns") else "used_for"
        ident = _stems4(m.group("id")) | stems(m.group("id").replace("_", " ").replace(".", " "))
        head = " ".join(m.group("rest").split()[:6])  # "una lista de todos los parámetros": parameters() says it
        if ident & (_stems4(head) | stems(head)) or _abbreviates(m.group("id"), head):
            # "cluster_spec devuelve un objeto ClusterSpec", "__len__() devuelve la longitud": the name is the answer
            return
        prompt = _t(key_t, lang, t=subj)
        # what it returns, not the advice after it ("elapsed_time devuelve milisegundos; el warm-up …")
        s = s.split("; ", 1)[0]
        rest = m.group("rest").split("; ", 1)[0]
        answer = _sentence_end(s)
        concepts = self._concepts(rest, m.group("id"), course) or (m.group("id"),)
        out.append(self._draft(slide, item, Question("short", prompt, answer, (), concepts, "medium", lang,
                                                     origin="definition"),
                               fold(m.group("id")), 2.6 + self._centrality(m.group("id"), slide, course), quote=s))
