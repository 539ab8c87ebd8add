"""The deck's subject a stem is set in ("En TensorFlow, …", "Em computação distribuída, …"): one answer
for every offline pattern (:meth:`kb.writing.writer_core.WriterCore._set_in_subject`) and for the plan's
plain questions (:mod:`kb.writing.plan`), so that a question on a top idea is set as the writer's own are.

A deck's title is its first page's heading; a source without pages (a text export, notes) has its
outline's title instead, unless that is an index or divider ("Agenda", "Contenidos del curso") or the
file's own name ("000_018776c44678bcbb"): those say nothing of what it teaches. The subject is, in this
order, the name the title says the deck teaches where the deck names it throughout (:func:`name_of`: "NVIDIA
DALI" in "Pipelines de datos en GPU con NVIDIA DALI", never the library the code uses instead), what the title
says the deck is about (:func:`~kb.writing.wording.deck_topic`, after a chapter
label: "Capítulo 12: …" is about what follows), the one library the title names, the library the
source's code uses most, the title itself when it is short. A title that names a task ("Medir el rendimiento del
entrenamiento") has no subject to be "in": :func:`deck_setting` sets a stem "Al medir …," instead.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .. import lang as L
from ..lang import divider_title, en, es, pt
from ..text import STOPWORDS, fold, words
from .concepts import _deck_title, _source_frameworks
from .wording import CHAPTER, CHAPTER_WORDS, RHETORIC_HEAD, deck_topic, listing, lower_first, name_uses

if TYPE_CHECKING:
    from .course import CourseTerms

_INDEX = frozenset("indice index agenda contenidos contenido conteudo conteudos sumario contents outline temario "
                   "roteiro".split())
# the words of a course's index title besides the index word: "Contenidos del curso", "Conteúdo da aula"
_INDEX_FILLER = frozenset("del de da do la el o a the of this curso course aula clase class tema".split())


def index_title(title: str) -> bool:
    """An index page's title ("Agenda", "Contenidos del curso", "Conteúdo"): no subject."""
    ws = [fold(w) for w in words(title)]
    return bool(ws) and ws[0] in _INDEX and all(w in _INDEX_FILLER for w in ws[1:])


def _file_name(title: str) -> bool:
    return " " not in title.strip() and bool(re.search(r"[\d_]", title))  # "000_018776c44678bcbb", "aula3"


# a course's name, a dash and a session's label (a chapter's words: "Aula", "Sesión 3", "Lesson 2", "Módulo 4")
_SESSION = re.compile(rf"^.{{8,}}?\s[-–—]\s(?i:{CHAPTER_WORDS})(?:\s+(?:\d+|[IVX]+))?\s*:\s*(?P<t>.{{6,}})$")


def deck_title(course: CourseTerms, source: str) -> str:
    """The deck's title: its first page's heading, else (a source without pages) its outline's title
    when that names a subject; "" when none does."""
    title = _deck_title(course, source)
    if title:
        # the course's name before the session's topic ("Frameworks de … - Aula: modelos de espaço de estados para
        # visão"): the topic is the deck's title
        m = _SESSION.match(title)
        return m.group("t").strip() if m else title
    outline = getattr(course, "outlines", {}).get(source)
    title = outline.title if outline is not None else ""
    if not title or index_title(title) or divider_title(title) or _file_name(title):
        return ""
    return title


def whole_text(course: CourseTerms, source: str) -> str:
    """The source's whole text, titles included, once per source and course (the writer's too)."""
    cache = course.__dict__.setdefault("_whole", {})
    if source not in cache:
        cache[source] = "\n".join(f"{c.locator.heading or ''}\n{c.text}" for c in course.by_source.get(source, []))
    return cache[source]


def topic_of(course: CourseTerms, source: str) -> str:
    """What the deck's title says it is about (:func:`~kb.writing.wording.deck_topic`), once per source."""
    cache = course.__dict__.setdefault("_deck_topic", {})
    if source not in cache:
        title = deck_title(course, source)
        # the title's own capitals are no evidence ("Formatos e Carregamento de Dados", said nowhere
        # else, was "Em formatos e Carregamento de dados, …": split AB)
        text = whole_text(course, source).replace(title, " ") if title else whole_text(course, source)

        def is_name(w: str) -> bool:  # written with its capital inside sentences more often than without
            inside, low = name_uses(w, text)
            return inside > low

        # a task is no topic to be "in" ("En medir el rendimiento del entrenamiento, …": both r10 raters)
        cache[source] = "" if task_of(course, source) else deck_topic(title, is_name=is_name)
    return cache[source]


def library_of(course: CourseTerms, source: str) -> str:
    """The one library a deck's title names ("Processamento paralelo de dados com Dask" → Dask), of
    those its code uses; "" where the title names none or two ("… en Keras y PyTorch")."""
    cache = course.__dict__.setdefault("_deck_library", {})
    if source not in cache:
        title = deck_title(course, source)
        named = [n for n, _ in _source_frameworks(course, source)
                 if re.search(rf"\b{re.escape(n)}\b(?!\s+[A-Z])", title)]  # not "PyTorch Geometric"
        cache[source] = named[0] if len(named) == 1 else ""
    return cache[source]


LIBRARY_SPAN = 1 / 3  # share of a source's passages that must name the library its code uses most for it to
# be the deck's subject: on the sample course TensorFlow is named in 43–100 % of the TensorFlow texts' passages,
# Hadoop in 24 % of a text on parallelism in general ("Em Hadoop, o que significa «Criação de uma thread»?")


def _spans(course: CourseTerms, source: str, name: str, code: str) -> bool:
    """The library is named (or its code used: "tf.", "import torch") in LIBRARY_SPAN of the source's passages."""
    passages = course.by_source.get(source, [])
    said = re.compile(rf"\b{re.escape(name)}\b|\b{re.escape(code)}\.|\bimport {re.escape(code)}\b", re.I)
    hits = sum(1 for c in passages if said.search(f"{c.locator.heading or ''}\n{c.text}"))
    return bool(passages) and hits >= LIBRARY_SPAN * len(passages)


NAME_SPAN = 1 / 2  # share of a deck's pages that must name a tool its title teaches a topic with ("Pipelines de datos
# en GPU con NVIDIA DALI") for the tool to be the subject: the r8-r10 decks about their tool name it on 57-95 % of
# their pages (OpenMP 57 %, NVIDIA DALI 80 %, Spark 81 %, Ray 95 %), the ones that teach a topic in a framework
# at most 47 % (PyTorch in "Gestión de memoria de GPU en PyTorch", TensorFlow/Keras 42 %, torchrun 42 %)
# (a name the title opens on, or a tool after a title that names nothing else, needs LIBRARY_SPAN: "TensorBoard
# con PyTorch y Keras" 55 %, "DistributedDataParallel a fondo" 48 % with its DDP, "Vetorização com torch.func" 47 %)

# a preposition a title names its tool after ("… con NVIDIA DALI", "… com Ray Core", "… en JAX", "… no TensorFlow 2")
_TOOL_PREP = re.compile(r"\s(?:con|com|with|en|em|no|na|in|para|for|desde)\s")


_AND = frozenset("y e and o ou or".split())
# the language every deck's code is written in, no subject a deck teaches ("Computación en GPU desde Python: CuPy
# y RAPIDS" is about CuPy)
_LANGUAGES = frozenset("Python C C++ Java Julia R Rust Go JavaScript".split())


def _name_word(w: str, text: str) -> bool:
    """A word of a title written as a name (by the deck's ``text``): code ("tf.function", "torch.func"), a capital
    inside it ("TensorBoard", "OpenMP", "C++/CUDA": each part), capitals only ("DALI", "JAX"), a capitalised word the
    text writes so inside sentences ("Spark", "Ray": :func:`~kb.writing.wording.name_uses`), or a word no word list
    knows that the text writes as it is ("torchrun"); never a name every deck says ("GPU")."""
    from .checks import _zipf
    from .setting import GENERIC_NAMES

    parts = [x for x in w.strip("(),;").split("/") if x]
    if len(parts) > 1:
        return all(_name_word(x, text) for x in parts)
    w = parts[0] if parts else ""
    if not w or w in GENERIC_NAMES or w.rstrip("s") in GENERIC_NAMES or w in _LANGUAGES:
        return False
    if re.fullmatch(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+", w) or re.search(r"[a-z][A-Z]", w) \
            or re.fullmatch(r"[A-Z][A-Z0-9+!-]+", w) or re.fullmatch(r"[A-Z]{2,}[a-z]{1,2}", w):  # ("ROCm")
        return True
    if w[:1].isupper():
        inside, low = name_uses(w, text)
        return inside > low
    return w.isalpha() and len(w) >= 4 and len(re.findall(rf"\b{re.escape(w)}\b", text)) >= 3 \
        and all(_zipf(w, la) == 0 for la in ("en", "es", "pt"))


def _opening_name(phrase: str, text: str) -> tuple[str, str]:
    """(the name a phrase opens on, its words and a version after them: "NVIDIA DALI", "TensorFlow 2"; what follows)."""
    toks = phrase.split()
    n = 0
    while n < len(toks) and (_name_word(toks[n], text) or n > 0 and re.fullmatch(r"\d+(?:\.\d+)*", toks[n])):
        n += 1
    return " ".join(toks[:n]), " ".join(toks[n:])


def _pages(course: CourseTerms, source: str) -> list[str]:
    """The source's pages' text, titles included (a source without pages: its passages), once per source."""
    cache = course.__dict__.setdefault("_pages", {})
    if source not in cache:
        pages: dict[object, str] = {}
        for c in course.by_source.get(source, []):
            key = c.locator.page if c.locator.page is not None else c.id
            pages[key] = f"{pages.get(key, '')}\n{c.locator.heading or ''}\n{c.text}"
        cache[source] = list(pages.values())
    return cache[source]


def name_span(name: str, pages: list[str]) -> float:
    """The share of ``pages`` that name ``name``, by the word of it they name most ("DALI" of "NVIDIA DALI"; not
    "TensorFlow/Keras" wherever either is), as written or in code ("DALI" in "nvidia.dali", "JAX" in
    "jax.devices()"), or by the capitals of a long word ("DDP" for DistributedDataParallel)."""
    return _naming(name, pages) / len(pages) if pages else 0.0


def _naming(name: str, texts: list[str]) -> int:
    """How many of ``texts`` name ``name`` (:func:`name_span`)."""
    best = 0
    for x in {x for x in re.split(r"[\s/]+", name) if x and not x.isdigit()}:
        forms = {x} | {caps for caps in ["".join(ch for ch in x if ch.isupper())] if len(caps) >= 3 and caps != x}
        said = [re.compile(rf"(?<!\w){re.escape(f)}(?!\w)", re.I) for f in forms]
        best = max(best, sum(1 for t in texts if any(r.search(t) for r in said)))
    return best


def _slide_titles(course: CourseTerms, source: str) -> list[str]:
    """The titles of the source's slides (sections) besides the deck's own title, each once."""
    title = deck_title(course, source)
    return sorted({h for c in course.by_source.get(source, []) if (h := c.locator.heading or "") and h != title})


TOOL_TITLES = 2  # slide titles (besides the deck's) that must name a tool for it to be the deck's subject: the tool
# a deck is about heads 2-4 of its slides (OpenMP 2, Spark 3, NVIDIA DALI 4, Ray 4), the framework a topic is taught
# in 0-1 (PyTorch 0 in "Gestión de memoria de GPU en PyTorch", Keras 1, torchrun 1; TensorFlow 0 in the sample
# course's "Computação distribuída com TensorFlow", named on half its passages)


def name_of(course: CourseTerms, source: str) -> str:
    """The name the deck teaches, where its title names one and the deck names it throughout: the name its
    title opens on with nothing but a qualifier after it ("TensorBoard con PyTorch y Keras" → TensorBoard,
    "DistributedDataParallel a fondo", "tf.function e grafos no TensorFlow 2" → tf.function), else the one
    tool it names after its topic when the deck names that on most pages and slide titles (:data:`NAME_SPAN`,
    :data:`TOOL_TITLES`: "Pipelines de
    datos en GPU con NVIDIA DALI" → NVIDIA DALI, but "Gestión de memoria de GPU en PyTorch" is about memory)
    or when the title says no topic ("Paralelismo en JAX" → JAX), else a name the title's part after ":" is
    alone; "" where none is. A name the deck says but its title does not ("MLPerf" in "Medir el rendimiento
    del entrenamiento") is one of its topics, never its subject."""
    cache = course.__dict__.setdefault("_deck_name", {})
    if source in cache:
        return cache[source]
    title, out = deck_title(course, source), ""
    text = whole_text(course, source).replace(title, " ") if title else ""
    pages = _pages(course, source)
    parts = re.split(r":\s", title.strip(), maxsplit=1) if title else []
    head, tail = (parts + ["", ""])[:2]
    if tail and CHAPTER.fullmatch(head.strip()):  # "Capítulo 12: …" is about what follows
        head, tail = tail, ""
    tool, topic_part = "", head
    for m in _TOOL_PREP.finditer(head):
        name, rest = _opening_name(head[m.end():].split(" / ")[0], text)
        if name and not rest:  # (a list of tools, "con PyTorch y Keras", is none of them)
            tool, topic_part = name, head[:m.start()]
            break
    lead, after = _opening_name(topic_part, text)
    titles = _slide_titles(course, source) if tool and lead else []
    if titles and _naming(tool, titles) >= TOOL_TITLES and _naming(tool, titles) > _naming(lead, titles) \
            and name_span(tool, pages) >= LIBRARY_SPAN:
        # the tool the slides are titled by, not the framework the title opens on ("PyTorch em GPUs AMD com ROCm":
        # "O que é ROCm", "O dispositivo "cuda" no ROCm"; "Em PyTorch, …" on every stem, r12 raters)
        lead, after = tool, ""
    # a qualifier after the name ("a fondo", "para Aprendizado Profundo"), not a list ("XLA y tf.function",
    # "BLAS, GEMM y el modelo roofline", "torch.compile y rendimiento": the title's topic is all of it)
    if lead and "(" not in topic_part and "," not in lead \
            and (not after or fold(after.split()[0]) in STOPWORDS - _AND) \
            and name_span(lead, pages) >= LIBRARY_SPAN:
        out = lead  # ("TensorFlow distribuido" is a subject of its own: an adjective, not a qualifier)
    elif tool and not lead:
        span = name_span(tool, pages)
        if span >= NAME_SPAN and _naming(tool, _slide_titles(course, source)) >= TOOL_TITLES \
                or span >= LIBRARY_SPAN and not topic_of(course, source):
            out = tool
    elif tail and not topic_of(course, source):
        name, rest = _opening_name(tail, text)
        if name and not rest and name_span(name, pages) >= LIBRARY_SPAN:
            out = name
    cache[source] = out
    return out


def subject_of(course: CourseTerms, source: str) -> str:
    """What the deck teaches, as it names it: its name (:func:`name_of`), else its title's topic (:func:`topic_of`)."""
    return name_of(course, source) or topic_of(course, source)


def _lang(course: CourseTerms, source: str) -> str:
    return next((c.lang for c in course.by_source.get(source, [])), "")


def task_of(course: CourseTerms, source: str) -> str:
    """A title that names a task, not a thing ("Medir el rendimiento del entrenamiento", "Exportando modelos"): the
    task as an infinitive phrase in lower case ("medir el rendimiento del entrenamiento"), of at most
    :data:`TASK_WORDS` words, its tools cut; "" for any other title. No subject to be "in" ("En medir el
    rendimiento, …": r10's raters): a stem is set "Al medir …," (:func:`deck_setting`)."""
    from .infinitive import from_gerund, infinitive

    title = deck_title(course, source)
    head = re.split(r":\s", title.strip(), maxsplit=1)[0] if title else ""
    ws = head.split()
    lang = _lang(course, source)
    if not ws or lang not in ("es", "pt"):
        return ""
    verb = ws[0]
    if gerund := from_gerund(verb, lang):  # "Exportando" → exportar, "Servindo" → servir
        verb = gerund
    elif not infinitive(verb, lang, ws[1] if len(ws) > 1 else ""):
        return ""
    text = whole_text(course, source).replace(title, " ")

    def shown(w: str) -> str:  # a title's capitals are no name's ("Servindo Modelos em Produção")
        inside, low = name_uses(w, text)
        return w.lower() if re.fullmatch(r"[A-ZÁÉÍÓÚ][a-zà-ÿ]+", w) and inside <= low else w

    # one task ("Exportar modelos a ONNX e inferencia con ONNX Runtime" → exportar modelos a ONNX), without its
    # tools ("… con PyTorch") unless the verb would be left alone ("entrenar con Hugging Face Trainer y Accelerate")
    phrase = re.split(r"\s(?:y|e)\s(?![A-Z])", " ".join([verb.lower(), *ws[1:]]), maxsplit=1)[0]
    task, tools = (re.split(r"(?=\s+(?:con|com|with)\s+\S)", phrase, maxsplit=1) + [""])[:2]
    phrase = " ".join(shown(w) for w in task.split()) + (tools if len(words(task)) < 2 else "")
    return phrase if len(words(phrase)) <= TASK_WORDS else ""


TASK_WORDS = 7  # most words of a task a stem can open on ("Al servir LLMs de forma eficiente, …" has 5)


_LEADS = {"es": ("En", "Al"), "pt": ("Em", "Ao"), "en": ("In", "When")}


def deck_setting(course: CourseTerms, source: str, *, any_library: bool = False, lang: str | None = None) -> str:
    """The setting a stem that names nothing of the deck opens on, grammatical for every class of title: "En NVIDIA
    DALI" / "Em Ray Core" (its subject, :func:`deck_subject`), "Al medir el rendimiento del entrenamiento" / "Ao
    exportar modelos" (a task, :func:`task_of`), in the stem's ``lang`` (else the deck's); "" where the deck says
    neither."""
    lang = lang or _lang(course, source)
    into, at = _LEADS.get(lang, _LEADS["en"])
    subject = deck_subject(course, source, any_library=any_library)
    if subject:
        # a title's topic that opens on its article ("A biblioteca timm"): "Na biblioteca timm", "En la …"
        art, _, rest = subject.partition(" ")
        words_of = {"es": es, "pt": pt, "en": en}.get(lang, en)
        if rest and art.lower() in words_of.ARTICLE_WORDS:
            joined = words_of.IN_ARTICLES.get(art.lower())
            return f"{joined.capitalize()} {rest}" if joined else f"{into} {art.lower()} {rest}"
        return f"{into} {subject}"
    task = task_of(course, source)
    return f"{at} {task}" if task else ""


def with_task_setting(prompt: str, course: CourseTerms, source: str, lang: str) -> str:
    """A plan's stem left unset because the deck's subject is a task (:func:`task_of`, no subject to be "in")
    set "Al medir el rendimiento del entrenamiento, ¿cuáles son …?" (:func:`deck_setting`); any other stem,
    or a deck whose subject is a thing, as it is."""
    if deck_subject(course, source) or not task_of(course, source):
        return prompt
    setting = deck_setting(course, source, lang=lang)
    if " " not in setting:
        return prompt
    lead, task = setting.split(" ", 1)
    if prompt.startswith((f"{lead} ", f"¿{lead} ")) or fold(task) in fold(prompt):
        return prompt  # (set already, or naming the task itself)
    rest = prompt[1:].lstrip() if prompt.startswith("¿") else prompt
    return f"{setting}, " + ("¿" if prompt.startswith("¿") else "") + lower_first(rest)


def deck_subject(course: CourseTerms, source: str, *, any_library: bool = False) -> str:
    """The setting of a stem that names nothing of the deck: the name it teaches (:func:`name_of`: "NVIDIA DALI",
    "TensorBoard", "JAX"), else its title's topic, else the library its title names, else nothing for a task
    title (:func:`task_of`, set by :func:`deck_setting`), else the library its code uses most where the deck
    names it throughout (:data:`LIBRARY_SPAN`; with ``any_library``, wherever it names it: the pattern stems'
    older rule), else its title when short (2–6 words); "" when there is none. The title is :func:`deck_title`'s (a text
    source's from its outline, never an index page or the file name), which changed the writer's own stems
    on text sources too (sample course: "Em TensorFlow, o que é MapReduce?" on a Databricks tutorial)."""
    title = deck_title(course, source)
    if name_of(course, source):
        return name_of(course, source)
    if listing(title) and not topic_of(course, source):
        # a title that lists more things than a setting can say names no subject, and the library its code
        # uses is not it either ("En PyTorch, ¿qué ventaja tiene el parameter server?"): the one library the
        # title names, or none
        return library_of(course, source)
    if task_of(course, source) and not library_of(course, source):
        return ""  # a task is what the deck teaches, not the library its code uses: set by deck_setting, "Al medir …"
    used = next(((n, code) for n, code in _source_frameworks(course, source)), None)
    # (the library its code uses, where the deck does not name it throughout, only after the deck's own title: "Em
    # PyTorch, qual termo corresponde a …" on a deck on grokking, "wrongly framed" to rounds 30-32's raters in 40 of
    # the 66 ratings of stems so set)
    return topic_of(course, source) or library_of(course, source) \
        or (used[0] if used and _spans(course, source, *used) else "") \
        or _short_title(title, task_of(course, source), whole_text(course, source)) \
        or (used[0] if used and any_library else "")


def _short_title(title: str, task: str, text: str = "") -> str:
    """A deck's title as its subject when short (2-6 words) and no task; a name before a subtitle's colon alone
    ("MLP-Mixer: visão computacional só com MLPs" → "MLP-Mixer": the whole was "Em MLP-Mixer: visão computacional só
    com MLPs, …", which round 28's raters fixed 27 times), and so one word before it that is no slide word
    ("Grokking: Generalização Tardia em Redes Neurais" → "grokking", in capitals where the deck's ``text`` writes it
    so inside sentences: "Polars"; round 32's raters fixed the whole as a "truncated stem")."""
    if task:
        return ""
    head, colon, _ = title.partition(": ")
    # (a name: "MLP-Mixer", "GPT-2", "xFormers")
    named = re.fullmatch(r"\S*(?:[a-z][A-Z]|[A-Z]\S*[A-Z]|\d|\w-\w)\S*", head.strip())
    if colon and head.strip() and (2 <= len(words(head)) <= 6 or named):
        return lower_first(head.strip())
    one = head.strip()
    # (and the deck says it, not only its title: "Laboratorio: …", "Tutorial: …" head a class, no subject)
    said = len(re.findall(rf"(?<!\w){re.escape(fold(one))}(?!\w)", fold(text))) >= MIN_SAID
    if colon and re.fullmatch(r"[^\W\d_]{4,}", one) and fold(one) not in _SLIDE_HEADS and said:
        inside, low = name_uses(one, text)
        return one if inside > low else lower_first(one)
    return lower_first(title) if 2 <= len(words(title)) <= 6 else ""


# one word before a title's colon that heads a slide or a class, not a deck's subject ("Introducción: …", "Resumo: …",
# "Laboratorio: …", "Módulo: …")
_SLIDE_HEADS = frozenset(L.DIVIDER_WORDS | L.SUMMARY_WORDS | L.FACET_WORDS | L.ROLE_WORDS | L.FILLER_WORDS
                         | RHETORIC_HEAD | {"tutorial", "proyecto", "projeto", "project", "taller", "oficina",
                                             "workshop", "seminario", "seminar"})
MIN_SAID = 3  # fewest times the deck's text says that word (its title once; hand-set: "Grokking" is said 20 times)
