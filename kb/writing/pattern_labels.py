"""Question patterns on labelled lists ("Oversampling: …", "Undersampling: …"): what a label means,
the difference between two siblings, multiple choice over a list, false statements by a swap, "A vs B" tables.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from itertools import pairwise

from ..quiz import Question
from ..text import STOPWORDS, fold, words
from .checks import _zipf, everyday_word, generic_title, same_thing, stems
from .concepts import _claim, _sentence_end, before_arrow, gist_of
from .generate import CourseTerms, Draft, _term_ok
from .ideas import Item, Slide, dangling
from .terms import (
    _MISTAKES_TITLE,
    _VERDICT_LABEL,
    _attribute,
    _code_like,
    _english_adjective,
    _name_reveals,
    _plain_false,
    _restates_label,
    _under_uses,
    _untagged,
    action_label,
    definitional,
    of_answers_kind,
    plain_words,
)
from .wording import (
    _ADJECTIVE,
    _ARTICLE,
    _META,
    _TECH,
    GENERIC_LABEL,
    _feminine,
    _object_of,
    _qualified,
    _t,
    lower_first,
    spelled_in,
)
from .writer_core import WriterCore


class LabelPatterns(WriterCore):
    """Questions on labelled lists: meanings, differences, multiple choice, swapped false statements."""


    # ------------------------------------------------------------------ labelled lists
    def _labels(self, slide: Slide, lang: str, course: CourseTerms, out: list[Draft]) -> None:
        """Questions on a slide's labelled lists ("Tamaño del lote: …"), run by run: what each
        label means, which label a description is, how two siblings differ, and one sibling's
        description attached to another as a false statement."""
        runs = [r for r in ([it for it in run if self._term_label(it.label, course)] for run in self._label_runs(slide))
                if r]
        title = self._about(slide)
        if not title and generic_title(slide.title):
            # "«Coherencia de versión»" under «Consideraciones adicionales»: of what? Two terms
            # compared say it themselves ("DP" and "FSDP/ZeRO" under «Trade-offs e conselhos práticos»)
            for run in runs:
                self._label_difference(slide, [it for it in self._real_labels(run, "", lang)
                                               if self._term_like(it.label, slide)], "", lang, course, out)
            return
        setting = title != slide.title  # "entornos distribuidos": a setting the slide names, not a title
        for run in runs:
            context, in_ctx = self._run_context(slide, run, title, setting)
            real = self._real_labels(run, context, lang)
            # a body in cells ("Portabilidad: NVIDIA (HIP para AMD) | NVIDIA + AMD | según backend") is a
            # table's row, read against column heads it does not hold: no description of its label (split
            # AB); it stays a row of the comparison it belongs to ("Offload: DeepSpeed CPU + NVMe | FSDP solo CPU")
            described = [it for it in real if " | " not in it.body]
            self._label_definitions(slide, run, described, (context, in_ctx), lang, course, out)
            # multiple choice among ≥ 4 siblings: same list, same kind by construction
            if len(run) >= 4 and context:
                self._label_choices(slide, run, described, in_ctx, lang, course, out)
            # the difference between two siblings that describe comparable things
            self._label_difference(slide, real, context, lang, course, out)
            # false statements: one sibling's description attached to another
            if len(described) >= 2 and context:
                self._label_false(slide, described, in_ctx, lang, course, out)
        self._title_vs_difference(slide, lang, course, out)
        self._vs_table(slide, lang, course, out)

    @staticmethod
    def _vs_title(slide: Slide) -> tuple[str, str] | None:
        """The two sides an "A vs B" title compares ("FSDP1 vs FSDP2"), or None."""
        # (a comment after the comparison is no side: "L2 vs weight decay: não são a mesma coisa")
        m = re.match(r"^(?P<a>[^:]+?)\s+(?:vs\.?|versus)\s+(?P<b>[^:]+?)(?::\s.*)?$", slide.title)
        if not m or re.search(r"\s(?:vs\.?|versus)\s", m.group("b")):
            return None  # (three sides, "BPE vs WordPiece vs Unigram", are no pair)
        return m.group("a").strip(), m.group("b").strip()

    @classmethod
    def _vs_rows(cls, slide: Slide) -> list[Item]:
        """The labelled rows of a slide that compare two things aspect by aspect: "API: X vs Y", or
        under a title "Tareas vs Actores" a row that speaks of both ("Coste de arranque: la tarea …;
        el actor …"), and the other rows of a list where two or more do."""
        vs = cls._vs_title(slide)
        # what tells the sides apart ("Tiempo de CPU vs tiempo de GPU": cpu, gpu — not "tiempo")
        sides = [stems(vs[0]) - stems(vs[1]), stems(vs[1]) - stems(vs[0])] if vs else []
        if vs:
            # two rows that are the sides themselves ("Tiempo de CPU: …", "Tiempo de GPU (CUDA): …") are
            # the comparison; the rows after them ("No se suman: …") are more about both
            own = [next((it for it in slide.items if it.label and it.whole
                         and fold(re.sub(r"\s*\([^)]*\)", "", it.label)) == fold(side)), None) for side in vs]
            if own[0] is not None and own[1] is not None:
                return [own[0], own[1]]
        rows = [it for it in slide.items if it.label and it.whole and (
            re.search(r"\svs\.?\s", it.body) or len(sides) == 2 and all(sd & stems(it.body) for sd in sides))]
        # a row that speaks of one side ("Desempenho: Triton geralmente tem …") belongs to the table
        # its list is: the list where two or more rows speak of both
        tables = {r for r, n in Counter(it.run for it in rows).items() if n >= 2}
        return rows + [it for it in slide.items if it.label and it.whole and it.run in tables and it not in rows]

    def _vs_table(self, slide: Slide, lang: str, course: CourseTerms, out: list[Draft]) -> None:
        """A slide titled "FSDP1 vs FSDP2" whose rows compare the two aspect by aspect ("API: wrapper
        FullyShardedDataParallel(…) vs função fully_shard(…)", "Representação: FlatParameter … vs
        DTensor …"): how the two differ, the rows as the model answer. Each row alone is no
        definition ("O que é API?") and no true/false (each side is true of one of them)."""
        vs, rows = self._vs_title(slide), self._vs_rows(slide)
        if not vs or len(rows) < 2:
            return
        a, b = vs
        if len(words(a)) > 4 or len(words(b)) > 4:
            return
        answer = " ".join(_sentence_end(f"{it.label}: {it.body}") for it in rows)
        # the names each side uses (FlatParameter / DTensor, FullyShardedDataParallel / fully_shard):
        # what a reply that knows the difference says
        names = [w for it in rows for w in re.findall(r"[A-Za-z_][\w.]*", re.sub(r"\([^)]*\)", " ", it.body))
                 if (re.search(r"[a-z][A-Z]|_|^[A-Z]{2}[a-z]", w) or re.fullmatch(r"[A-Z][A-Z0-9]+", w))
                 and fold(w) not in (fold(a), fold(b))]
        concepts = list(dict.fromkeys(names))[:4] or [c for it in rows[:4] for c in self._concepts(it.body, it.label,
                                                                                                  course, 1)]
        if len(rows) == 2 and fold(re.sub(r"\s*\([^)]*\)", "", rows[0].label)) == fold(a):
            # the sides' own rows: what each is, as _label_difference asks it
            concepts = [gist_of(it.body, 12) or next(iter(self._concepts(it.body, it.label, course, 1)), it.label)
                        for it in rows]
        # "entre tiempo de CPU y tiempo de GPU": a title's capital is no name's ("Ray vs Spark" keeps its)
        a, b = (lower_first(x) if words(x) and everyday_word(words(x)[0].lower(), lang) else x for x in (a, b))
        q = Question("short", _t("differ", lang, a=a, b=b), answer, (), tuple(concepts) or (a, b), "hard", lang,
                     origin="compare")
        out.append(self._draft(slide, rows[0], q, f"{fold(a)}|{fold(b)}", 2.9,
                               quote=" ".join(it.text for it in rows), also=tuple(rows[1:])))

    def _title_vs_difference(self, slide: Slide, lang: str, course: CourseTerms, out: list[Draft]) -> None:
        """A slide titled "Promediado síncrono vs asíncrono" whose labels "Síncrono: …" and
        "Asíncrono: …" stand in lists of their own (each with its consequence under it: "La
        sincronización supone un cuello de botella"): how the two differ, each side with its
        consequence. Asking each side alone asks "asíncrono = sin sincronización"."""
        m = re.match(r"^(?P<head>.+?\s)?(?P<a>[^\W\d_]+)\s+(?:vs\.?|versus)\s+(?P<b>[^\W\d_]+)(?::\s.*)?$", slide.title)
        if not m:
            return
        if fold(m.group("a")) == fold(m.group("b")):
            return  # "Não estruturada vs estruturada": the sides are two words, not "estruturada" twice (split AA)
        labelled = {fold(it.label): it for it in slide.items if it.label and it.whole}
        a, b = labelled.get(fold(m.group("a"))), labelled.get(fold(m.group("b")))
        if a is None or b is None or a.run == b.run and abs(a.index - b.index) == 1:
            return  # two neighbouring siblings: _label_difference asks it
        sides, concepts = [], []
        for it in (a, b):
            after = next((x for x in slide.items if x.index == it.index + 1 and not x.label and x.whole), None)
            sides.append(_sentence_end(f"{it.label}: {it.body}") + (f" {_sentence_end(after.text)}" if after else ""))
            # each side's consequence is what a comparison is for: its course term ("cuello de
            # botella"), else its leading noun ("convergencia"); else the side's own key concept
            terms = sorted((t for t in course.pool if after and fold(t) in fold(after.text)), key=len, reverse=True)
            concepts += terms[:1] or list(self._concepts(after.text if after else it.body, it.label, course, 1))
        qa, qb = (_qualified(x.label, slide.title, lang) or x.label for x in (a, b))
        obj = _object_of(qa, [a.body, b.body], lang) if qa != a.label else ""
        prompt = _t("differ", lang, a=qa, b=qb + obj)
        q = Question("short", prompt, " ".join(sides), (), tuple(dict.fromkeys(concepts)) or (a.label, b.label),
                     "hard", lang, origin="compare")
        out.append(self._draft(slide, a, q, f"{fold(a.label)}|{fold(b.label)}", 2.8,
                               quote=f"{a.text} {b.text}", also=(b,)))

    @staticmethod
    def _label_runs(slide: Slide) -> list[list[Item]]:
        """The slide's labelled items that may be asked, by the list (run) they stand in: labels
        that name a term, not a bullet's role ("Regla práctica:", "Paso 4:"), not an action
        ("Medir tiempos sin …:") and not code ('os.environ["TF_CONFIG"] = …')."""
        runs: dict[int, list[Item]] = defaultdict(list)
        for item in slide.items:
            if item.label and item.whole and not GENERIC_LABEL.match(item.label) and not _META.match(item.body) \
                    and not re.search(r'[=\[\]{}"<>]|\w\(', item.label) and not action_label(item.label):
                runs[item.run].append(item)
        return list(runs.values())

    @staticmethod
    def _term_label(label: str, course: CourseTerms) -> bool:
        """A label that names a term to define: at most three content words (a parenthesis is
        another name), none the course writes as a verb ("BatchNorm calcula estadísticas …"), not a
        condition or an abbreviation ("Si aparecen inf/NaN", "Ex.")."""
        bare = re.sub(r"\s*\([^)]*\)", "", label).strip()
        if re.search(r"(?i)\s(?:es|son|é|são|is|are|está|están|estão)\s", f" {bare} "):
            return False  # a clause: "Las mejoras son intercambiables" (compared with "Consistencia" in split P)
        ws = [w for w in words(bare) if fold(w) not in STOPWORDS]
        if not ws or len(ws) > 3 or re.match(r"(?i)^(si|se|if|cuando|quando|when|al|ao|on|en|em|in|durante|during|"
                                              r"antes|before|después|depois|after|ex|p\.|e\.g|i\.e)\b", bare):
            return False
        if _VERDICT_LABEL.match(bare) or any(re.search(r"[aei]ndo$", fold(w)) for w in ws[1:]):
            # a verdict or a pitfall, or a clause with a gerund, names no term: "Em SyncBatchNorm, qual é a
            # diferença entre Vale a pena e Não vale?" (split AE), "… entre set_epoch continua funcionando e
            # Armadilha?" (split AF)
            return False
        return not any(course.verb_like(fold(w)) for w in ws[1:])

    @staticmethod
    def _run_context(slide: Slide, run: list[Item], title: str, setting: bool) -> tuple[str, str]:
        """What a run's labels are labels of, bare and as the prompt puts it (quoted or not)."""
        # an "A vs B" line just above the list names what the labels are ("Static vs Dynamic
        # Computation Graph"); else the slide title
        intro = next((it for it in slide.items if it.index == run[0].index - 1), None)
        vs_intro = bool(intro and not intro.label and len(words(intro.text)) <= 8
                        and re.search(r"\svs\.?\s|\sversus\s", intro.text))
        context = intro.text.rstrip(".:") if intro and vs_intro else title
        # a line that announces the list ("Tipos de cuello de botella:") says what its labels are
        # where the title does not ("¿Por qué perfilar? Medir antes de optimizar")
        lead_in = bool(not title and intro and not intro.label and intro.whole and intro.text.rstrip().endswith(":")
                       and 2 <= len(words(intro.text)) <= 6)
        if lead_in and intro:
            context = intro.text.strip().rstrip(":").strip()
        # a title is quoted («Métodos de Manejo de Datos Desbalanceados»); a setting is not
        # ("En entornos distribuidos, …"): it is no name
        in_ctx = f"«{context}»" if context and (vs_intro or lead_in or not setting) else context
        return context, in_ctx

    def _real_labels(self, run: list[Item], context: str, lang: str) -> list[Item]:
        """The run's items whose label names one concept worth asking about."""
        return [it for it in run if not self._trivial(it)
                and not re.search(r"\s(y|e|and|o|ou|or)\s", it.label)  # one concept per label
                and not (lang != "en" and _english_adjective(it.label))  # "Static" in a Spanish stem
                and not (_ADJECTIVE.search(fold(it.label)) and " " not in it.label.strip()
                         and fold(it.label) not in fold(context))]  # "«Distribuído» significa": of what?

    def _label_definitions(self, slide: Slide, run: list[Item], real: list[Item], ctx: tuple[str, str], lang: str,
                           course: CourseTerms, out: list[Draft]) -> None:
        """What each label of the run means ("Tamaño del lote: …"); a label followed by a
        copula ("X: es …") goes to the copula questions instead."""
        rows = self._vs_rows(slide)
        for it in run:
            if it not in real and not self._trivial(it):
                continue
            body_l = it.body.split(" ", 1)[0].lower()
            if body_l in ("es", "son", "é", "são", "is", "are"):
                verb, rest = it.body.split(" ", 1) if " " in it.body else (it.body, "")
                self._copula(slide, it, f"{it.label} {it.body}", lang, course, out, term=it.label,
                             verb=verb.lower(), definition=rest)
                continue
            if it not in real or dangling(it.body) or len(words(_claim(it.body))) < 5 or _restates_label(it) \
                    or it in rows:
                continue  # "Tamaño del lote: … muestras en cada lote" restates the term; "API: X vs Y" compares
            bare = _ARTICLE.sub("", it.label)
            if not _term_ok(bare) and not _TECH.match(bare) or re.search(r"\s(y|e|and|o|ou|or)\s", bare) \
                    or fold(bare) in self._libraries():
                continue  # (the library a deck is about is its subject, no term of it: "¿qué significa «Ray»?")
            attribute = bool(ctx[0]) and lang in ("es", "pt") and _attribute(bare, it.body, course)
            if not (definitional(_claim(it.body)) or attribute):
                continue  # "Gradientes: normalmente el mismo tamaño que …": a fact about X here, not what X means
            if _under_uses(slide, it) or lang in ("es", "pt") and re.fullmatch(r"[A-Z]{2,}[0-9]*", bare) \
                    and re.fullmatch(r"[a-z]+(?:ar|er|ir)", words(it.body)[0]) \
                    and not course.noun_like(fold(words(it.body)[0])):
                # "• Usos" / "  • NMS: decidir si dos cajas son duplicados": what the slide's subject (IoU)
                # does there, not what NMS is (both raters of split U); an acronym names a thing, and a
                # step is no definition of it ("HNSW: envolver em IndexIDMap para ter ids")
                continue
            prompt = self._label_prompt(bare, it, ctx, lang, course, [x.text for x in run + list(slide.items)])
            if f"«{bare}»" in prompt and not self._term_like(it.label, slide):
                continue  # "¿Qué significa «GPU errada»?" asks about the slide's wording, not a term
            answer = _sentence_end(f"{it.label}: {it.body}")
            prio = 2.1 + self._centrality(bare, slide, course)
            # what the description says, as a phrase ("encoger los pesos directamente en cada paso"),
            # then its key term: single words ("sola", "ranks devem") were what raters rewrote
            # the definition is the description's first clause; what follows a ";" is more about it
            # ("…; estados principais: RUNNING, COMPLETE, PRUNED, FAIL"): a key term of the definition
            # comes from the clause, not from a list after it ("PRUNED" for "what is a trial?" was unfair
            # to both raters of split J); a clause too short to say it ("uma otimização; guarda todos
            # os trials …") gives way to what follows
            head, _, rest = it.body.partition(";")
            main = head if len(words(head)) >= 4 or not rest.strip() else rest
            gist = gist_of(main, 14)
            terms = self._concepts(main, bare, course)
            concepts = ((gist, *terms[:1]) if gist else terms) or (bare,)
            out.append(self._draft(slide, it, Question("short", prompt, answer, (), concepts, "medium", lang,
                                                       origin="definition"), fold(bare), prio))

    @staticmethod
    def _label_prompt(bare: str, it: Item, ctx: tuple[str, str], lang: str, course: CourseTerms,
                      texts: list[str]) -> str:
        """The question for one label: what it consists of (of what: ``texts``, the run's and the
        slide's lines, say), is, or means in its context."""
        context, in_ctx = ctx
        single = len(words(bare)) == 1 and (_TECH.match(bare) or bare[0].isupper() and bare[1:2].isupper())
        qualified = _qualified(bare, context, lang)
        if qualified:  # "Síncrono" under «Promediado síncrono vs asíncrono»: the averaging, not the word
            return _t("consists", lang, t=qualified + _object_of(qualified, texts, lang))
        if single:
            return _t("what_is", lang, t=bare)
        plural = fold(words(bare)[0]).endswith("s") if words(bare) else False
        # "ray start --object-store-memory=…", "torch.save(…)": a command, no attribute
        command = bool(re.match(r"^[a-z_][\w.-]*(?:\s+[a-z_][\w.-]*)?\s+-{1,2}\w|^[\w.]+\(", it.body))
        if context and lang in ("es", "pt") and _attribute(bare, it.body, course) and not plural and not command:
            # (a plural, "Condições de corrida", would need "quais são as …": asked as a term instead)
            # "Cuello de botella: actualización de …" under «Data parallelism»: what the
            # bottleneck *is* there, not what the idiom means
            art = {"es": ("el", "la"), "pt": ("o", "a")}[lang][_feminine(fold(words(bare)[0]))]
            return _t("which_is", lang, c=in_ctx, t=f"{art} {lower_first(bare)}")
        if context and fold(context) != fold(bare):
            return _t("means", lang, c=in_ctx, t=bare)
        return _t("means_bare", lang, t=bare)

    def _label_choices(self, slide: Slide, run: list[Item], real: list[Item], in_ctx: str, lang: str,
                       course: CourseTerms, out: list[Draft]) -> None:
        """Which label a description is, the run's other labels as the options."""
        rows = self._vs_rows(slide)
        for it in real:
            if dangling(it.body) or len(words(_claim(it.body))) < 5 or not self._term_like(it.label, slide) \
                    or re.search(r"\w\(.*=|<->|\w=\w", it.body) or it.body.rstrip().endswith("?") or it in rows:
                # (a signature or settings — "save_best_only=True <-> save_top_k=1 + monitor" — is no description)
                # "Cuándo usar trace" is no term; a signature or a question is no description; a row
                # of "TorchServe vs Triton" ("Desempenho: Triton geralmente tem …") names an aspect
                continue
            others = [o.label for o in run if o is not it and not same_thing(o.label, it.label)
                      and o.level == it.level  # a sub-bullet's label ("Coste", "Mitigación") is no sibling
                      and self._option_like(o.label, slide) and of_answers_kind(o.label, it.label, lang)]
            others = self._named_first(others, slide)[:3]
            if 1 <= len(others) < 3:  # two or three siblings: the deck's other terms make up the options
                others += self._deck_options(_untagged(it.label), it.body, slide, others, 3 - len(others))
            if len(others) < 3 or sum(map(_code_like, others)) >= 2 and not _code_like(it.label):
                continue  # "Selección" among FLASH_ATTENTION, EFFICIENT, MATH: the odd one out is the answer
            parts = [p for p in re.split(r"[_\W]+|(?<=[a-z])(?=[A-Z])", _untagged(it.label).lower()) if len(p) >= 2]
            if len(parts) >= 2 and sum(any(fold(w).startswith(p) for w in words(it.body)) for p in parts) >= 2:
                continue  # "identificador do job" → SLURM_JOB_ID: the description spells the name
            if "_" in it.label and spelled_in(it.label, it.body, others):
                continue  # "fracción de columnas por árbol" → colsample_bytree (both raters of split V)
            # a role in brackets ("TorchDynamo (frontend)", "Continuous batching (LLMs)") hints at
            # the answer beside the description; an acronym in brackets is another name and stays
            answer, others = _untagged(it.label), [_untagged(o) for o in others]
            # a list announced as kinds ("Tipos de cuello de botella:") asks for the kind
            kinds = re.match(r"(?i)^«?(?:tipos|types|clases|classes|kinds)\s+(?:de|of)\s+(?P<k>[^»]+?)»?$", in_ctx)
            prompt = _t("which_kind", lang, k=f"{_t('kind', lang)} {kinds.group('k')}", d=it.body.rstrip(".")) \
                if kinds else _t("which_label", lang, c=in_ctx, d=it.body.rstrip("."))
            q = Question("mcq", prompt, answer, (),
                         (answer,), "easy", lang, choices=tuple([answer, *others]), correct=0, origin="mcq")
            out.append(self._draft(slide, it, q, fold(it.label),
                                   2.2 + self._centrality(it.label, slide, course)))

    def _label_difference(self, slide: Slide, real: list[Item], context: str, lang: str, course: CourseTerms,
                          out: list[Draft]) -> None:
        """How the first two neighbouring siblings with comparable descriptions differ."""
        rows = self._vs_rows(slide)  # two aspects of one comparison are no pair to compare
        if _MISTAKES_TITLE.search(slide.title):
            return  # two pitfalls are no alternatives to tell apart ("Samplers sequenciais em paralelo" and "Falhas")
        pairs = [(a, b) for a, b in pairwise(real) if len(stems(_claim(a.body)) & stems(_claim(b.body))) >= 2
                 and fold(a.label) != fold(b.label)  # "Uso" and "Uso" under two operations: no pair
                 and a.level == b.level  # a sub-list ("Bitwise", "Estadística") and the list after it
                 # figures make it an example's setup ("all-reduce … entre los 64 ranks"; "8 réplicas"), which
                 # the stem does not give
                 and not all(re.search(r"\d", x.body) for x in (a, b))
                 and not any(re.search(r"\w\(.*=|\s[<>]\s", x.body) for x in (a, b))
                 and not (a in rows and b in rows)]
        # (two calls to read side by side; two orderings, "default < reduce-overhead < …", are axes, not things)
        # one difference per list: the first pair of each level of the run
        firsts = [p for i, p in enumerate(pairs) if all(q[0].level != p[0].level for q in pairs[:i])]
        whole = self._whole(slide.chunk.source)
        for a, b in firsts:
            # a label of plain words the deck also writes in lower case reads as one inside the stem
            # ("entre geométricas e fotométricas", not "entre Geométricas e Fotométricas")
            plain = all(x.label[:1].islower() or plain_words(x.label, whole) or _ARTICLE.match(x.label)
                        for x in (a, b))
            la, lb = (lower_first(x.label) if _ARTICLE.match(x.label) or plain else x.label for x in (a, b))
            answer = f"{_sentence_end(a.label + ': ' + a.body)} {_sentence_end(b.label + ': ' + b.body)}"
            # each side's gist ("espera tras una reducción antes de volver a vigilar"): what a
            # reply must say of it; single words ("evaluaciones", "espera tras") were fragments
            gists = [gist_of(x.body, 12) for x in (a, b)]
            concepts = tuple(gists) if all(gists) else tuple(dict.fromkeys(
                self._concepts(a.body, a.label, course, 2) + self._concepts(b.body, b.label, course, 2)))
            prompt = _t("differ", lang, a=la, b=lb)
            intro = next((it for it in slide.items if it.index == a.index - 1), None)
            where = intro.text.rstrip(".") if intro and not intro.label and not intro.text.endswith(":") \
                and len(words(intro.text)) <= 8 and re.search(r"\svs\.?\s|\sversus\s", intro.text) else context
            sides = re.split(r"\s+(?:vs\.?|versus)\s+", where) if where else []
            if len(sides) == 2 and all(fold(x.label) in fold(side) and fold(x.label) != fold(side)
                                       for x, side in zip((a, b), sides, strict=True)):
                # "Reproducibilidad bitwise vs reproducibilidad estadística" names the two sides whole
                prompt = _t("differ", lang, a=lower_first(sides[0]), b=lower_first(sides[1]))
            elif len(sides) == 2 and where != slide.title:
                # the "A vs B" line announces another list of the slide ("Repetibilidad" and
                # "Reproducibilidad" after "Bitwise" and "Estadística"): the slide is what this pair is of
                where, sides = self._about(slide), []
            topic = self._topic(slide)
            if topic and not self._names(prompt, topic):  # "En torch.export, ¿… strict y non-strict?"
                lead = {"pt": "Em", "es": "En"}.get(lang, "In")
                body = lower_first(prompt) if prompt[0] != "¿" else "¿" + prompt[1].lower() + prompt[2:]
                prompt = f"{lead} {topic}, {body}"
            elif where and len(words(a.label)) == 1 and len(words(b.label)) == 1 and not generic_title(where) \
                    and ":" not in where and not (fold(a.label) in fold(where) and fold(b.label) in fold(where)) \
                    and len(words(where)) <= 4 \
                    and not len(sides) == 2 \
                    and not all(_TECH.match(x.label) or re.search(r"[a-z][A-Z]|[A-Z].*[A-Z]", x.label) for x in (a, b)):
                # "Static" and "Dynamic" what? (two code names, AOTInductor and ExecuTorch, say it; a
                # title that names both, "Parâmetros vs hiperparâmetros", or a title's wording with
                # its aspect, "Versionamento de modelos: conceitos", adds nothing; nor does a title's
                # sentence, "Coletivas em cada estratégia de paralelismo")
                prompt = f"{where}: {prompt[0].lower() if prompt[0] != '¿' else '¿' + prompt[1].lower()}" \
                         f"{prompt[1:] if prompt[0] != '¿' else prompt[2:]}"
            q = Question("short", prompt, answer, (), concepts or (a.label, b.label),
                         "hard", lang, origin="compare")
            out.append(self._draft(slide, a, q, f"{fold(a.label)}|{fold(b.label)}", 2.8,
                                   quote=f"{a.text} {b.text}", also=(b,)))

    def _label_false(self, slide: Slide, real: list[Item], in_ctx: str, lang: str, course: CourseTerms,
                     out: list[Draft]) -> None:
        """False statements: each sibling's label with the next one's description; not on a slide
        of mistakes (one mistake said of another is no claim to check: "«Dados desbalanceados»
        consiste em esquecer torch.cuda.set_device …") nor for a label of everyday words ("Riesgo",
        "Dados desbalanceados": no term whose meaning a student learns)."""
        if _MISTAKES_TITLE.search(slide.title):
            return
        rows = self._vs_rows(slide)
        # each with the next, the last with the first: a rotation, the same length
        for a, b in zip(real, real[1:] + real[:1], strict=True):
            if a is b or a in rows or b in rows or not self._swappable(a, b, slide, lang, course):
                continue  # (rows of a comparison table: each row true of something, "false" only by its label)
            # (what b is, without what follows from it: "… reduce-scatter dos gradientes -> ~3N (1,5x o DDP)"
            # said of DDP names DDP in its own claim)
            plain = _plain_false(a.label, before_arrow(b.body), lang)
            if not plain:
                continue
            lead = {"pt": "Em", "es": "En"}.get(lang, "In")
            first_w = plain.split(" ", 1)[0]
            if not _ARTICLE.match(a.label) and len(a.label.split()) > 1:
                plain = f"«{a.label}»" + plain[len(a.label):]  # "«Método fit» sirve para …"
            elif not (_TECH.match(first_w) or re.search(r"[A-Z]", first_w[1:])):
                plain = lower_first(plain)
            stmt = _sentence_end(f"{lead} {in_ctx}, {plain}")
            ans = f"{_t('false', lang)}. {_t('source_says', lang, s=_sentence_end(a.label + ': ' + a.body))}"
            # the concept is what the label really means, not the bare label a reply would just repeat
            gist = gist_of(a.body)
            concepts = (gist,) if gist else self._concepts(a.body, a.label, course, 3) or (a.label,)
            q = Question("tf", _t("tf", lang, s=stmt), ans, (), concepts, "easy", lang, correct=False,
                         origin="tf")
            # it asks both sentences: the one it borrows from is used up too
            out.append(self._draft(slide, a, q, fold(a.label), 1.9 + self._centrality(a.label, slide, course),
                                   also=(b,)))

    def _swappable(self, a: Item, b: Item, slide: Slide, lang: str, course: CourseTerms) -> bool:
        """``b``'s description said of ``a``'s label makes a false statement worth checking."""
        claim = before_arrow(b.body)  # what b is, not what follows from it
        if dangling(claim) or len(words(claim)) < 5 or a.level != b.level \
                or fold(claim.split(" ", 1)[0]) in ("es", "son", "e", "sao", "is", "are"):
            return False  # (a sub-bullet's "Remedios: router z-loss, …" is no description of its parent)
        if _name_reveals(a, b):
            return False  # "Multiprocesamiento" described as the batch size: false at a glance
        if not (self._says_what(before_arrow(a.body), course) and definitional(claim, figures=True)):
            # the statement says what a thing is, and the label's own description does too: a figure,
            # tip or step on another's label ("«Peticiones heterogéneas» es un forward pass por token …"
            # beside "prompts de 50 a 100K tokens"; "«Mixed precision» consiste en entrenar con 512x1024
            # …" beside "~mitad de memoria …") is false at a glance: raters of P–T kept none of 10 swaps
            return False
        if not self._option_like(a.label, slide) or not self._option_like(b.label, slide) \
                or fold(a.label) in self._libraries():
            return False  # "La unidad la decides tú consiste en …", "PyTorch é um emissor …": no term
        content = [w for w in words(re.sub(r"\s*\([^)]*\)", "", a.label)) if fold(w) not in STOPWORDS]
        if content and all(everyday_word(w.lower(), lang) or fold(w) in self._libraries() for w in content):
            return False
        # one word of the deck's own language ("Riesgo", "remedios", "variantes", "Paralelismo"): raters
        # of D–R kept none of 6 such statements; a term ("Oversampling", "transform", "Node-level",
        # "Placement group") is what a student learns to tell apart
        return not (re.fullmatch(r"[^\W\d_][^\W\d_A-Z]+", a.label.strip()) and _zipf(a.label.strip(), lang) >= 2.5)

    @staticmethod
    def _says_what(body: str, course: CourseTerms) -> bool:
        """A description that says what its label is: :func:`definitional` (a figure allowed), or a
        noun phrase with no figure ("reserva atómica de un conjunto de bundles", "metadatos del
        clúster", "parsing, decodificação, normalização")."""
        if definitional(body, figures=True):
            return True
        ws = words(body)
        return len(ws) >= 3 and not re.search(r"\d", body) and body[:1].isalpha() \
            and course.noun_like(fold(ws[0])) and not course.verb_like(fold(ws[0]))

    @staticmethod
    def _trivial(item: Item) -> bool:
        """The description repeats the label ("Rotación: rotar la imagen …"): nothing to ask."""
        ls = {fold(w)[:4] for w in words(item.label) if len(w) >= 4 and fold(w) not in STOPWORDS}
        bs = {fold(w)[:4] for w in words(item.body) if len(w) >= 4}
        return bool(ls) and len(ls & bs) * 2 >= len(ls) and len(words(item.body)) < 12
