"""The offline writer's core: turning a pattern's question into a draft (context, deck subject, concepts,
priority) and the per-deck lookups (subject, library, uses of a word) every pattern shares.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..quiz import Question
from ..records import content_hash
from ..text import fold, words
from .checklist import CODE_NAME as _CODE_NAME
from .checks import (
    _BARE_DIFFER,
    _stems4,
    everyday_word,
    generic_title,
    no_context,
    norm,
    same_thing,
    stems,
    thin_concepts,
    unglue,
)
from .concepts import _source_framework, _source_frameworks, answer_concepts, phrase_concepts
from .generate import CourseTerms, Draft, _citation, passage_usable
from .ideas import Item, Slide, read_slide
from .setting import _LEAD, names_subject, setting_of, slide_label, split_stem
from .stem_forms import kind_stem
from .subject import deck_setting, library_of, name_of, subject_of, task_of, whole_text
from .terms import (
    _NOT_A_NAME,
    _ROLE_STEM,
    _WHAT_FOR,
    _WHAT_IS,
    _code_like,
    _holds_code,
    _untagged,
    _upper_first,
    action_label,
    framework_code,
    library_code,
    of_answers_kind,
    term_like,
    title_topic,
)
from .wording import (
    _EXPLAIN,
    _EXPLAIN_BONUS,
    _PHRASED,
    _TECH,
    _THIN_PENALTY,
    GENERIC_LABEL,
    _plain_title,
    _situate,
    _t,
    _title_ok,
    lower_first,
    q_unsituated,
    slide_library,
    title_subject,
)

_VERSUS = re.compile(r"(?i)\s(?:vs\.?|versus)\s")  # a title that compares two things


class WriterCore:
    """What every question pattern shares: turning a pattern's question into a draft and the per-deck lookups."""

    name = "offline"
    _source: str | None = None
    _vocab: dict  # source → its word counts, set by OfflineWriter.write
    _course: CourseTerms  # the course being written from, set by OfflineWriter.write

    if TYPE_CHECKING:  # patterns one mixin uses from another's module (all are mixed into OfflineWriter)
        def _copula(self, slide: Slide, item: Item, s: str, lang: str, course: CourseTerms, out: list[Draft],
                    term: str | None = None, verb: str | None = None, definition: str | None = None) -> bool: ...

        @staticmethod
        def _vs_title(slide: Slide) -> tuple[str, str] | None: ...

        def _no_subject_word(self, text: str, source: str) -> bool: ...

    # ------------------------------------------------------------------ helpers
    def _draft(self, slide: Slide, item: Item | None, q: Question, key: str, priority: float,
               quote: str | None = None, also: Sequence[Item] = ()) -> Draft:
        quote = quote or (item.text if item else q.answer)
        vocab = self._vocab.get(slide.chunk.source)
        prompt, answer = (unglue(q.prompt, vocab), unglue(q.answer, vocab)) if vocab else (q.prompt, q.answer)
        if q.type == "short" and no_context(q):  # "¿Qué son los parámetros?": of what?
            about = self._about(slide)
            if about and not re.match(r"^(En|Em|In)\s+«", prompt):
                prompt = _situate(prompt, about, q.lang)
        prompt = self._plain_context(prompt, slide, answer, q.origin, q.lang)
        prompt = self._deck_subject(prompt, slide, q.lang)
        prompt = self._set_in_subject(prompt, slide.chunk.source, q.lang)
        if q.type == "short":  # a "what is" asked by what its answer says (kb.writing.stem_forms)
            prompt = kind_stem(prompt, answer, q.lang) or prompt  # ("": no form; the registry's check drops it)
        concepts = q.concepts
        if q.type == "short":
            # the code names a comparison's sides use (FlatParameter / DTensor) are its concepts already
            named = q.concepts and all(_CODE_NAME.fullmatch(c) for c in q.concepts)
            phrases = phrase_concepts(answer, prompt) if q.origin in _PHRASED and not named else ()
            concepts = (self._answer_concepts(phrases, prompt, answer, top_up=False) if phrases else ()) \
                or self._answer_concepts(q.concepts, prompt, answer)
        q = Question(type=q.type, prompt=prompt, answer=answer, citations=(_citation(slide.chunk, quote),),
                     concepts=concepts, difficulty=q.difficulty, lang=q.lang, choices=q.choices, correct=q.correct,
                     accepted=q.accepted, origin=q.origin)
        if q.origin in _EXPLAIN:
            priority += _EXPLAIN_BONUS  # explaining, comparing, applying before recalling a line
        if thin_concepts(q):
            priority -= _THIN_PENALTY  # concepts a grader cannot mark with: written only where nothing better is
        # an idea is its bullet's text, wherever it stands: the same bullet in two overlapping
        # passages, or in a deck and its text export (001TFDist.pdf and sources/004_*), is one
        # idea; a question on two bullets (a difference, a swap that borrows a sibling's
        # description) uses up both
        item_key = "|".join(content_hash(norm(it.text)) for it in ([item] if item else []) + list(also))
        return Draft(q, slide.chunk, key=key, priority=priority, item=item_key)

    def _deck_topic(self, source: str) -> str:
        """What the deck teaches (:func:`kb.writing.subject.subject_of`): the name its title teaches ("NVIDIA DALI",
        never the library its code uses), else what its title says it is about, for a deck whose
        title names no one library: "En redes neuronales en grafos, ¿qué es Graph-level?", "Em otimização
        de hiperparâmetros, o que significa «Random search»?". A bare term out of its deck was the
        context raters of splits G–O added most often ("Graph-level", "--requeue", "Permutación",
        "Reprodutibilidade", "Warm-up", "TBPTT")."""
        return subject_of(self._course, source)

    def _deck_name(self, source: str) -> str:
        """The name the deck teaches (:func:`kb.writing.subject.name_of`: "TensorBoard", "torch.func"), ahead of
        the library its code uses ("En PyTorch, ¿qué significa «profile_batch»?" on a TensorBoard deck: r10)."""
        return name_of(self._course, source)

    def _deck_library(self, source: str) -> str:
        """The one library a deck's title names (:func:`kb.writing.subject.library_of`)."""
        return library_of(self._course, source)

    def _deck_subject(self, prompt: str, slide: Slide, lang: str) -> str:
        """A bare "what is" stem ("O que é um Future?", "Em que consiste o scheduler distributed?")
        situated by the library the whole deck is about, where its title names one: "Em Dask, …".
        Split M's raters asked for it on every such stem ("Future" could be concurrent.futures'); a
        deck whose code is PyTorch but whose subject is MPI or SLURM gets nothing (v7: "Em PyTorch,
        MPI-1 em 1994 …" was wrong)."""
        role = bool(_ROLE_STEM.match(prompt))
        if role:
            # a method's cost or idea is the field's, not the library's: "Em regularização, qual é o custo do
            # dropout?", not "Em PyTorch, …"; a stem without it was the context raters asked for (Z)
            lib = self._deck_topic(slide.chunk.source)
        elif _BARE_DIFFER.match(prompt):
            # "¿Qué diferencia hay entre par positivo y pares negativos?" — in what? The deck's subject
            # (raters of P–T added it to 4 of 6 such stems: "No janelamento de séries temporais, …");
            # the library only where the sides are its code ("Em PyTorch, … ColwiseParallel e
            # RowwiseParallel?"): "En PyTorch, ¿qué diferencia hay entre SimCLR y MoCo?" was struck
            code = framework_code(prompt, self._whole(slide.chunk.source))
            lib = (self._framework(slide) if code else "") or self._deck_topic(slide.chunk.source)
        else:
            lib = self._deck_name(slide.chunk.source) or self._deck_library(slide.chunk.source)
        if not lib and ("«" in prompt or re.fullmatch(r"(?:¿\s*)?(?:Qué es|O que é|What is)\s+[\w-]+\?", prompt)):
            # a slide's label asked bare ("O que significa «--requeue»?") by what the deck is about; a
            # definition the course states ("¿Qué es la transferencia de aprendizaje?") names its term
            # whole, and a deck's title need not cover every slide ("Conjuntos de datos" and DDP); a
            # label's one word asked bare ("O que é Zero-shot?": both raters of split V, "no context")
            lib = self._deck_topic(slide.chunk.source)
        lead = {"pt": "Em", "es": "En"}.get(lang, "In")
        # a deck on a task has no subject to be "in": "Al medir el rendimiento del entrenamiento, ¿qué es …?"
        setting = f"{lead} {lib}" if lib else self._task_setting(slide.chunk.source, lang)
        if not setting or lib and fold(lib) in fold(prompt) \
                or not (_WHAT_IS.match(prompt) or _WHAT_FOR.match(prompt) or _BARE_DIFFER.match(prompt) or role) \
                or re.search(r"[a-z]\.[a-z]", prompt):
            return prompt  # (a dotted name says its library: "¿Qué es tf.distribute.Strategy?")
        body = "¿" + prompt[1].lower() + prompt[2:] if prompt.startswith("¿") else lower_first(prompt)
        return f"{setting}, {body}"

    def _task_setting(self, source: str, lang: str) -> str:
        """"Al medir el rendimiento del entrenamiento" for a deck whose title names a task (:func:`task_of`)."""
        return deck_setting(self._course, source, lang=lang) if task_of(self._course, source) else ""

    def _set_in_subject(self, prompt: str, source: str, lang: str) -> str:
        """The stem set in the deck's subject (:mod:`kb.writing.setting`): a slide's label ("Completa
        el espacio en blanco (El router): …", "En concepto, …") goes, and a stem that names nothing
        of the deck ("¿Qué es una secuencia?", "Oversampling consiste en …") opens on "En <the deck's
        topic or library>," — the test the checks ``slide-label-context`` and ``missing-context`` run."""
        outline = getattr(self._course, "outlines", {}).get(source)
        head, label, body = split_stem(prompt)
        x = setting_of(body)
        if x and slide_label(x, lang, outline):
            m = _LEAD.match(body)
            body = (m.group("q") or "") + _upper_first(body[m.end():]) if m else body
            x = ""
        changed = bool(label) or body != split_stem(prompt)[2]
        # (without the deck's outline, only a stem whose label went is set in the deck's subject)
        if not x and (outline is not None or changed) and not names_subject(body, outline):
            # "En NVIDIA DALI", "Al medir el rendimiento del entrenamiento" (:func:`kb.writing.subject.deck_setting`)
            setting = deck_setting(self._course, source, any_library=True, lang=lang)
            if setting and fold(setting.split(" ", 1)[1]) not in fold(body):
                rest = body[1:].lstrip() if body.startswith("¿") else body
                body = f"{setting}, " + ("¿" if body.startswith("¿") else "") + lower_first(rest)
                changed = True
        if not changed:
            return prompt
        if head and not head.endswith(("«", " ")):
            head += ": " if not head.rstrip().endswith(":") else ""
        return f"{head}{body}" if head else _upper_first(body)

    def _texts(self, source: str) -> list[str]:
        course = getattr(self, "_course", None)
        chunks = course.by_source.get(source, []) if course is not None else []
        return [f"{c.locator.heading or ''}\n{c.text}" for c in chunks]

    def _whole(self, source: str) -> str:
        """The source's whole text, titles included (:func:`~kb.writing.subject.whole_text`)."""
        return whole_text(self._course, source)

    def _framework(self, slide: Slide) -> str:
        """The library the slide is about (:func:`slide_library`), read on its whole page: a passage
        may hold only part of it."""
        libraries = _source_frameworks(self._course, slide.chunk.source)
        if len(libraries) < 2:
            return libraries[0][0] if libraries else ""
        page = slide.chunk.locator.page  # (a text source has no pages: its passage alone)
        key = (slide.chunk.source, page if page is not None else slide.chunk.id, slide.title)
        cache = self._course.__dict__.setdefault("_slide_library", {})
        if key not in cache:
            text = "\n".join([slide.title] + [c.text for c in self._course.by_source.get(slide.chunk.source, [])
                                               if page is not None and c.locator.page == page] + [slide.chunk.text])
            cache[key] = slide_library(libraries, text)
        return cache[key]

    def _plain_context(self, prompt: str, slide: Slide, answer: str, origin: str, lang: str) -> str:
        """Students see no slide titles: "En «Estructura de un modelo en PyTorch», ¿…?" names
        the subject instead, or nothing. The subject is, in this order: the name a "Name: topic"
        title opens on ("En Keras, …"), the topic a title names (:meth:`_topic`: "En
        torch.export, …", "En cuantización, …"), the source's library where the question is
        about the library's code ("En PyTorch, …"), the title's topic in plain words where the
        course's text itself says it ("En data parallelism, …"); else the stem goes without one:
        "En conceptos básicos" or "Em PyTorch, MPI-1 em 1994 …" situate wrongly. A procedure
        ("¿Cómo se puede guardar …?") is situated too."""
        lib = self._framework(slide)
        topic = self._topic(slide)
        m = re.search(r"(?:^|(?<=\s))(?P<lead>En|Em|In)\s+«(?P<title>[^»]+)»,\s+", prompt)
        if not m:
            if origin in ("how", "steps", "caveat", "enables") and q_unsituated(prompt):
                # (a topic the answer's code names, "torch.hub" for torch.hub.load(), gives it away)
                where = topic if topic and not self._names(prompt, topic) and fold(topic) not in fold(answer) else \
                    named if (named := self._deck_name(slide.chunk.source) or lib) and fold(named) not in fold(prompt) \
                    else ""
                if where:
                    return _situate(prompt, where, lang).replace(f"«{where}»", where)
            return prompt
        title, rest = m.group("title"), prompt[m.end():]
        subject = title_subject(title, self._texts(slide.chunk.source))
        whole = self._whole(slide.chunk.source)
        code = framework_code(rest, whole) or framework_code(answer, whole) or bool(lib) and fold(lib) in fold(title)
        plain = _plain_title(title)
        if re.match(r"(?i)^(?:¿\s*)?(?:o que|qu[eé]|c[oó]mo|como|por qu[eé]|what|how|why)\b", plain):
            plain = ""  # "o que salvar em um checkpoint": a question is no subject to be "in"
        if plain and re.match(r"^[a-záéíóú]+(?:ar|er|ir)\s", plain):
            plain = ""  # "guardar y cargar el modelo …" is an action, not a subject to be "in"
        libraries = self._libraries()
        ent = next((w for w in words(title) if re.search(r"[a-z][A-Z]", w) and fold(lib) not in fold(w)
                    and fold(w) not in libraries  # "TensorFlow" in a PyTorch deck is no PyTorch entity
                    and library_code(w, whole)), "")  # nor a method's name ("SimCLR", "MoCo")
        if not subject and not topic and plain and lib and not code and ent \
                and self._uses(plain, slide.chunk.source) < 2:
            # "configuraciones comunes del DataLoader" is only a slide's wording; what students
            # know is the library's code name in it: "En el DataLoader de PyTorch, …"
            return f"{prompt[:m.start()]}{_t('in_entity', lang, e=ent, lib=lib)}, {rest}"
        if not subject and topic and fold(topic) not in fold(answer):  # "En torch.hub, …" for torch.hub.load()
            subject = topic
            first = rest.split()[0].strip("«»,") if rest.split() else ""
            if not (_TECH.match(topic) or _CODE_NAME.fullmatch(topic)) \
                    and re.fullmatch(r"[A-Z]{2,}[0-9]*s?|\w*[a-z][A-Z]\w*", first):
                subject = ""  # "Em comunicação, DDP consiste em …": the name says it ("Per-channel" does not)
        if not subject and lib and code:
            subject = self._deck_name(slide.chunk.source) or lib  # (the deck's own name: "En TensorBoard", r10)
        if not subject and plain and self._uses(plain, slide.chunk.source) >= 2:
            subject = plain
        subject = self._not_a_section(subject, slide.chunk.source, lang)
        if not subject or self._names(rest, subject):
            # no subject a student knows, or the stem already names it ("En batching, ¿… Batching
            # estático …?"): the stem stands alone
            return f"{prompt[:m.start()]}{_upper_first(rest)}"
        return f"{prompt[:m.start()]}{m.group('lead')} {subject}, {rest}"

    def _not_a_section(self, subject: str, source: str, lang: str) -> str:
        """One everyday word of a title is the slide's section, not what the course is about ("En
        datos, …", "Em storage, …": both raters of split U, "a slide title"): the deck's subject
        instead; any other subject as it is."""
        if subject[:1].islower() and len(words(subject)) == 1 and not _TECH.match(subject) \
                and any(everyday_word(subject.lower(), x) for x in (lang, "en")):
            return self._deck_topic(source)
        return subject

    @staticmethod
    def _names(text: str, subject: str) -> bool:
        """The text already names the subject: a code name as written ("torch.distributed"), else
        its words, inflected ("batching" in "Batching estático")."""
        if _CODE_NAME.fullmatch(subject) or _TECH.match(subject):
            return bool(re.search(rf"(?<![\w.]){re.escape(fold(subject))}(?![\w])", fold(text)))
        want = stems(subject)
        return bool(want) and want <= stems(text)

    def _term_like(self, label: str, slide: Slide) -> bool:
        """:func:`term_like`, where a word the source's code names ("dtensor.Layout(…)", "keras.layers")
        is a term too."""
        bare = re.sub(r"\s*\([^)]*\)", "", label).strip()
        code = self._whole(slide.chunk.source)
        if re.fullmatch(r"[A-Z][a-z]+", bare) and re.search(rf"(?:\.{bare}\b|\b{bare}[.(]\w*)", code, re.I):
            return True  # keras.layers, layers.Dense
        return term_like(label, lambda phrase: self._uses(phrase, slide.chunk.source), slide.chunk.lang)

    def _uses(self, phrase: str, source: str, titles: bool = True) -> int:
        """How many distinct lines (and titles, unless ``titles`` is false) of the source say ``phrase``
        other than as a label ("Volume: …" is the slide naming its bullet, not the course using a
        term); overlapping passages repeat lines, so each line counts once."""
        cache = self._course.__dict__.setdefault("_lines", {})
        if source not in cache:
            # (not the agenda or the title slide: "Loop de treino completo" in an agenda is a title again)
            usable = [c for c in self._course.by_source.get(source, []) if passage_usable(c) or c.is_code]
            heads = {fold(c.locator.heading or "") for c in usable}
            body = {fold(ln.strip(" •-*")) for c in usable for ln in c.text.split("\n") if ln.strip()}
            cache[source] = (body | heads) - {""}, body - heads
        want = fold(phrase)
        return sum(1 for ln in cache[source][0 if titles else 1] if want in ln and not ln.startswith(want + ":"))

    def _option_like(self, label: str, slide: Slide) -> bool:
        """A sibling label that can stand as a wrong option beside a term: a term, or a short noun
        phrase; not a question, a degree or an action ("Cuándo usar script", "Muito sensível à
        latência", "Medir tiempos")."""
        ws = words(re.sub(r"\s*\([^)]*\)", "", label))
        if re.search(r"(?:^|\s)vs\.?\s", label) or GENERIC_LABEL.match(label):
            return False  # "Ray vs Spark", "vs RNN", "Usuarios conocidos": a bullet's role, no option
        return self._term_like(label, slide) or 1 <= len(ws) <= 3 and not action_label(label) \
            and fold(ws[0]) not in _NOT_A_NAME

    def _deck_options(self, answer: str, description: str, slide: Slide, taken: Sequence[str] = (),
                      k: int = 3) -> list[str]:
        """Up to k wrong options for "which term is this description" from the whole deck's outline:
        the terms it defines and the labels of its lists, written like the answer (a name in code
        beside names in code, a plain term beside plain terms), not named in the description, nearest
        the answer's slide first. A list of two or three siblings, or a definition, gets its multiple
        choice this way (the deck's other terms are the same kind of thing a student confuses)."""
        outline = getattr(self._course, "outlines", {}).get(slide.chunk.source)
        if outline is None:
            return []
        ideas = outline.ideas
        here = next((n for n, i in enumerate(ideas) if slide.chunk.id in i.chunk_ids), 0)
        pool: list[tuple[int, str]] = []
        for n, idea in enumerate(ideas):
            names = [idea.name] if idea.kind == "definition" else \
                [p.split(":", 1)[0].strip() for p in idea.text.split("; ")] if idea.kind == "list" else []
            pool += [(abs(n - here), x) for x in names]
        seen = {fold(answer), *(fold(t) for t in taken)}
        out: list[str] = []
        desc = fold(description)
        for _, x in sorted(pool, key=lambda p: p[0]):
            x = _untagged(x)
            fx = fold(x)
            if fx in seen or not x or len(words(x)) > 4 or fx in desc or _code_like(x) != _code_like(answer) \
                    or not self._option_like(x, slide) or not of_answers_kind(x, answer, slide.chunk.lang) \
                    or any(same_thing(x, o) for o in [answer, *taken, *out]):
                continue
            seen.add(fx)
            out.append(x)  # (as the deck writes it: an option is the deck's own wording)
            if len(out) == k:
                break
        return out

    def _named_first(self, options: Sequence[str], slide: Slide) -> list[str]:
        """A list's sibling ``options`` with those the deck names across its slides first (in
        :data:`~kb.writing.deck_term.NAMED_LINES` of its lines or more: its terms, not a slide's labels), else in
        their order: a which-term multiple choice among named terms is the one teachers keep, one among a slide's
        labels is a last resort (``mcq:unnamed``: kb.writing.form_prior). The deck's other terms
        (:meth:`_deck_options`) stay in their nearness order: named terms from other slides are of another kind
        ("QLoRA" among "W4A16", "W4A4"), a worse option than a rare one."""
        from .deck_term import NAMED_LINES, named_lines

        text = self._whole(slide.chunk.source)
        named = [o for o in options if named_lines(o, text) >= NAMED_LINES]
        return [*named, *(o for o in options if o not in named)]

    def _libraries(self) -> frozenset[str]:
        """The libraries the course's sources are about (:func:`framework`), folded, with the
        capitals that abbreviate them ("tf" for TensorFlow), once per course."""
        cache = self._course.__dict__
        if "_libraries" not in cache:
            names = {_source_framework(self._course, src) for src in self._course.by_source} - {""}
            short = {"".join(ch for ch in n if ch.isupper()).lower() for n in names}
            cache["_libraries"] = frozenset(fold(n) for n in names) | (short - {""})
        return cache["_libraries"]

    def _topic(self, slide: Slide) -> str:
        """What the slide's title says the slide is about, as a stem may name it (:func:`title_topic`),
        judged against how often the source's text says it; never one side of a comparison ("RLHF (PPO) vs
        DPO" → "Em PPO, …" asked of DPO's variants: both r10 raters)."""
        if _VERSUS.search(slide.title.split(":", 1)[0]):
            return ""  # ("Batching: latencia vs throughput" is about batching)
        return title_topic(slide.title, lambda phrase, titles=True: self._uses(phrase, slide.chunk.source, titles),
                           self._libraries())

    def _answer_concepts(self, concepts: Sequence[str], prompt: str, answer: str,
                         top_up: bool = True) -> tuple[str, ...]:
        """The key terms a right reply must contain and the stem does not already give: 2–4 of
        them (topped up from the model answer), alternatives the answer offers ("named_modules()
        o named_parameters()") as one concept either of which counts."""
        course = getattr(self, "_course", None)
        return answer_concepts(concepts, prompt, answer, course, self._source, top_up=top_up)

    def _about(self, slide: Slide) -> str:
        """What the slide is about, to situate a question: its title or, where the title says
        nothing ("Consideraciones adicionales"), the setting its opening line names ("En entornos
        distribuidos, … hay consideraciones adicionales"), on this slide or the previous one with
        the same title; "" when nothing says it."""
        if _title_ok(slide.title) and not generic_title(slide.title):
            return slide.title
        if not slide.title:
            return ""
        course = getattr(self, "_course", None)
        same = [slide.chunk]
        if course is not None:
            same += sorted((c for c in course.by_source.get(slide.chunk.source, [])
                            if c.ordinal < slide.chunk.ordinal and (c.locator.heading or "").endswith(slide.title)),
                           key=lambda c: -c.ordinal)
        for c in same:
            for line in (read_slide(c).items if c is not slide.chunk else slide.items)[:2]:
                m = re.match(r"^(?:En|Em|In)\s+(?P<ctx>[^,]{4,40}),", line.text)
                if m:
                    return m.group("ctx")
        return ""

    @staticmethod
    def _title_ctx(slide: Slide) -> str:
        """" (Slide title)" whatever it shares with the answer; "" for a generic or odd title."""
        return f" ({slide.title})" if _title_ok(slide.title) and not generic_title(slide.title) else ""

    @staticmethod
    def _ctx(slide: Slide, answer: str = "") -> str:
        """" (Slide title)" to situate a sentence to complete, when the title is a real one and
        does not name the answer ("Batch Sampling" for Sampler)."""
        if not _title_ok(slide.title) or answer and _stems4(answer) & _stems4(slide.title):
            return ""
        # "(Paralelismo de datos (data paralellism) Dimensiones del entrenamiento:):" read as a typo: a
        # gloss in brackets goes (between two joined titles it leaves a dash), and so does a closing colon
        title = re.sub(r"\s*\([^()]*\)\s*(?=\S)", " — ", slide.title)
        title = re.sub(r"\s*\([^()]*\)\s*$", "", title).strip().rstrip(":;,.-–— ").strip()
        return f" ({title})" if title else ""

    def _cloze_prompt(self, slide: Slide, blanked: str, answer: str, lang: str) -> str:
        """A sentence to complete, situated by the topic its slide's title names (:meth:`_topic`:
        "En torch.distributed, …"), else by the library its source is about ("En PyTorch, la clase
        _____ …") where the sentence or its answer is about the library's code and does not name
        it; else by the slide title, which students do not see but which is better than nothing
        ("(Carga Eficiente de Datos)")."""
        lead = {"pt": "Em", "es": "En"}.get(lang, "In")
        topic = self._topic(slide)
        if topic and not self._names(f"{blanked} {answer}", topic):
            return _t("cloze", lang, s=f"{lead} {topic}, {lower_first(blanked)}", c="")
        # the name the deck teaches before the library its code uses ("Em PyTorch, operações _____ …" on a
        # torch.func deck was false as written: r10)
        lib = self._deck_name(slide.chunk.source) or self._framework(slide)
        generic = generic_title(slide.title)  # "(Errores comunes)" says nothing: the library, where code, does
        # (the blank's own CamelCase name is the library's class the sentence asks: "la clase _____")
        if lib and (library_code(blanked, self._whole(slide.chunk.source)) or library_code(answer)
                    or generic and _holds_code(f"{blanked} {answer}")) \
                and fold(lib) not in fold(blanked) and fold(lib) not in fold(answer):
            return _t("cloze", lang, s=f"{lead} {lib}, {lower_first(blanked)}", c="")
        return _t("cloze", lang, s=blanked, c="" if generic else self._ctx(slide, answer))

    @staticmethod
    def _centrality(term: str, slide: Slide, course: CourseTerms) -> float:
        """How central a term is to its source: repeated across its passages, named in a title."""
        ft = fold(term)
        if not ft:
            return 0.0
        same = course.by_source.get(slide.chunk.source, [])
        mentions = sum(1 for c in same if ft in fold(c.text))
        in_title = any(ft in fold(c.locator.heading or "") for c in same)
        return 0.1 * min(mentions, 5) + (0.3 if in_title else 0.0)

    def _concepts(self, text: str, exclude: str, course: CourseTerms, k: int = 4) -> tuple[str, ...]:
        return course.key_concepts(text, exclude=exclude, k=k, source=self._source)
