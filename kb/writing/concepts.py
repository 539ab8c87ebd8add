"""The key concepts of a model answer (what a grader marks with): a short answer's own phrases, its sides,
its gist, code names, and helpers that shorten or end a sentence.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from .. import lang as L
from ..quiz import Question
from ..text import STOPWORDS, can_be_heading, fold, words
from .check_subject import IMPERATIVE as _IMPERATIVE
from .checklist import CODE_NAME as _CODE_NAME
from .checks import _stems4, same_thing, stems
from .course import CourseTerms
from .ideas import dangling
from .wording import _OR, _TECH, frameworks


def _deck_title(course: CourseTerms, source: str) -> str:
    """A deck's title: the heading of its first page, else that page's first line when it is no bullet (a title line
    too long for the reader to take as a heading: "Frameworks de … - Sesión: planificación de trabajos de GPU en
    clusters"); "" for a source without pages."""
    first = next((c for c in course.by_source.get(source, []) if c.locator.page == 1), None)
    if first is None:
        return ""
    line = first.text.strip().split("\n", 1)[0].strip() if not first.locator.heading else ""
    # (a line a heading could be, of two words at least, and no index or divider: "Agenda", "Contenidos del curso",
    # a date or a file's name say nothing of what the deck teaches)
    titled = bool(line) and line[0].isalnum() and not line.endswith((".", ":")) and can_be_heading(line) \
        and len(words(line)) >= 2 and not L.divider_title(line)
    return first.locator.heading or (line if titled else "")


def _source_frameworks(course: CourseTerms, source: str) -> list[tuple[str, str]]:
    """The libraries a source's code names (:func:`frameworks`), once per source and course."""
    cache = course.__dict__.setdefault("_frameworks", {})
    if source not in cache:
        cache[source] = frameworks([f"{c.locator.heading or ''}\n{c.text}" for c in course.by_source.get(source, [])])
    return cache[source]


def _source_framework(course: CourseTerms, source: str) -> str:
    """The library a source's code names most (:func:`framework`)."""
    found = _source_frameworks(course, source)
    return found[0][0] if found else ""


def answer_concepts(concepts: Sequence[str], prompt: str, answer: str, course: CourseTerms | None,
                    source: str | None = None, k: int = 4, top_up: bool = True) -> tuple[str, ...]:
    """The concepts of a short question as a grader needs them: none whose words the stem already
    holds ("¿Qué es la transferencia de aprendizaje?" needs no "aprendizaje"), at least two where
    the model answer has them, at most k; code names the answer offers as alternatives
    ("named_modules() o named_parameters()") become one concept "A / B", either of which counts."""
    asked = stems(prompt) | _stems4(prompt)
    main = main_text(answer)
    lib = fold(_source_framework(course, source)) if course is not None and source else ""

    def new(c: str) -> bool:
        if fold(c) not in main and fold(c) in fold(answer):
            return False  # only in an example list or a parenthesis: a side detail, not the idea
        if lib and fold(c) == lib:
            return False  # "TensorFlow" in a TensorFlow chapter: what every answer is about
        if _CODE_NAME.fullmatch(c):  # a code name is given only by its own name ("torch.hub" is no torch.hub.load())
            return not re.search(rf"(?<![\w.]){re.escape(c.rstrip('()'))}(?![\w.])", prompt)
        cs = {fold(w)[:5] for w in words(c) if len(w) >= 4 and fold(w) not in STOPWORDS}
        return bool(cs - asked) if cs else False

    def same(a: str, b: str) -> bool:  # one within the other; a call with or without its brackets or object
        x, y = fold(a).removesuffix("()"), fold(b).removesuffix("()")  # ("model.load_state_dict", "load_state_dict()")
        return x in y or y in x

    out: list[str] = []
    for c in concepts:
        if new(c) and not any(same(c, o) for o in out):
            out.append(c)
    # a phrase that says the idea ("avaliação da função objetivo com uma configuração concreta") is
    # enough; topping it up took names from a list after it ("…; estados: RUNNING, PRUNED, FAIL")
    if top_up and len(out) < 2 and course is not None and not any(len(words(c)) >= 4 for c in out):
        more = course.key_concepts(answer, exclude=prompt, k=k, source=source)
        out += [c for c in more if new(c) and not any(same(c, o) for o in out)]
    if not out:
        out = list(concepts[:1])
    names = [n for n in dict.fromkeys(_CODE_NAME.findall(answer))]
    for a, b in pairwise(names):
        if a in out and b in out and _OR.search(answer[answer.find(a) + len(a):answer.find(b)] + " ") \
                and answer.find(a) < answer.find(b) and len(answer[answer.find(a) + len(a):answer.find(b)]) <= 5:
            out[out.index(a)] = f"{a} / {b}"
            out.remove(b)
    return tuple(out[:k])


_EXAMPLES = re.compile(r"(?<![\w.])\([^)]+\)|(?:\b(?:pueden? incluir|podem incluir|puede[n]? ser|por ejemplo"
                       r"|por exemplo|como por ejemplo|tales como|such as|e\.g\.|for example|entre otros|entre outros"
                       r"|incluyendo|incluindo)\b)[^.;]*",
                       re.I)


def main_text(answer: str) -> str:
    """The answer without its side details: parentheses and example lists ("Pueden incluir el
    reescalado de las imágenes, …", "por ejemplo …"), folded; a call keeps its brackets ("ds.map(f)":
    a concept "ds.map(f).batch(B)" is the answer's main text, not a side detail)."""
    return fold(_EXAMPLES.sub(" ", answer))


_GIST_CUT = re.compile(r",\s|;\s|:\s|\s(?:para|al|ao|mediante|utilizado|utilizada|usado|usada|to|by|used)\s")
_GIST_LEAD = re.compile(r"^(?:(?:un|una|el|la|los|las|um|uma|o|a|os|as|an|a|the)\s+|(?:permite|permiten|habilita|"
                        r"habilitan|determina|maneja|allows|enables|para|to)\s+)+", re.I)


def before_arrow(text: str) -> str:
    """What a description says before an arrow: what follows one is a consequence, not what the thing
    is ("mismo equipo, misma máquina y mismo código -> mismo resultado"); a chain of short steps is the
    point and stays whole ("podar pouco -> fine-tune -> podar mais")."""
    cause = text.split(" -> ", 1)[0]
    return cause if len(words(cause)) >= 3 else text


def _claim(text: str) -> str:
    """What a description says before any arrow: whether it says enough to ask about is judged on this
    ("Dropout na entrada -> já é uma forma de denoising", "201 bins -> 64 ou 80 mels" say little before
    theirs; once arrows were read, such bodies passed the length checks: both raters of split AI fixed
    the first and dropped the second)."""
    return text.split(" -> ", 1)[0]


def gist_of(description: str, limit: int = 10) -> str:
    """What a label's description says, in a phrase ("reducir la cantidad de muestras en las
    clases dominantes" of "Undersampling: reducir … dominantes al eliminar o submuestrear datos"):
    its main clause without purpose, means or a leading article or "permite"; "" past ``limit`` words."""
    # a bracket is a side detail, and its ": " is no clause's end ("batch desejado (ex.: 512) não cabe na
    # GPU" gave "batch desejado (ex." and no gist; split Z); a call's brackets stay ("ds.map(f).batch(B)")
    description = re.sub(r"\s+\([^()]*\)", "", description)
    description = before_arrow(description)
    clause = re.split(r";\s|:\s", description.strip().rstrip("."), maxsplit=1)[0]
    clause = _GIST_LEAD.sub("", re.sub(r"\s+\([^)]*\)", "", clause)).strip()
    if ", " in clause and 3 <= len(words(clause)) <= limit:
        return clause  # "mismo equipo, misma máquina y mismo código": the list is the point
    head = _GIST_CUT.split(description.strip().rstrip("."), maxsplit=1)[0]
    head = _GIST_LEAD.sub("", head).strip()
    if head.count("(") > head.count(")"):
        head = head[:head.rfind("(")].rstrip()  # "descartar las primeras iteraciones (inicialización de CUDA"
    # a bracket is a side detail a reply need not repeat ("… nodos posible (best effort)"), and the
    # grader's concept check reads the answer without brackets
    head = re.sub(r"\s+\([^)]*\)", "", head).strip()  # (not a call's: "ds.map(f).batch(B)")
    if len(words(head)) > limit:  # "una instancia de clase remota que vive en …": the noun, not its relative clause
        head = re.split(r"\s(?:que|which|that|donde|onde)\s", head, maxsplit=1)[0].strip()
    if len(words(head)) > limit:  # "cargar un tile … una vez y reutilizarlo …": its first action
        head = re.split(r"\s(?:y|e|and)\s", head, maxsplit=1)[0].strip()
    # "índice do processo no nó ->" (cut at "usado para"); an operator written onto its operand is the term's:
    # "d*" of "|d - d*| / d*" (AbsRel, round 18: the concept read "… / d")
    head = re.sub(r"(?:\s*->|\s+[+=*/]|(?<![\w)\]])[+=*/])$", "", head)
    # a cut that leaves a preposition ("… valor intermédio até" of "até ao passo t") is no phrase
    return head if 3 <= len(words(head)) <= limit and not dangling(head) else ""


# where a model answer's subject ends: "Term: …", "Term é/es/is …", "Term significa/consiste em …"
# (the copula in any case: "Curva ROC Es el balance …", a PDF's capital after the term)
_SUBJECT_END = re.compile(r"^(?P<subj>(?:[^:;.]|\.(?=\S)){1,80}?)(?::\s|\s(?i:é|são|es|son|is|are)\s|\s(?:significa"
                          r"|consiste em|consiste en"
                          r"|means|devuelve|retorna|returns|permite|permiten|allows)\s)")
# what opens a phrase without being part of it: articles, a copula, a connective
_PHRASE_LEAD = re.compile(r"^(?:(?:un|una|unos|unas|el|la|los|las|lo|um|uma|uns|umas|o|a|os|as|the|an|é|es|son|são|is"
                          r"|are|y|e|and|pero|mas|but|o|ou|or|também|también|also|apenas|solo|sólo|only|para|to"
                          r"|permite|permiten|permitem|allows?|consiste en|consiste em|consists of)\s+"
                          r"(?!partir\b|vez\b|veces\b))+",  # ("a partir de", "una vez": a fixed expression keeps it)
                          re.I)
# a definition's genus, no idea by itself ("una técnica poderosa …", "una API de PyTorch" before "que permite …")
_GENUS = re.compile(rf"^(?:{'|'.join(sorted(L.GENUS_WORDS))})\b", re.I)
# where a definition's genus ends and what sets it apart begins
_DIFFERENTIA = re.compile(r"\s(?:que\s(?:permite[n]?\s|se\s)?|para\s|that\s(?:allows?\s|lets\s)?|which\s|to\s"
                          r"|used\sto\s)",
                          re.I)
# a condition or an aside ("si los expertos son grandes"): no idea a reply must hold
_ASIDE = re.compile(r"^(?:si|if|cuando|quando|when|aunque|embora|although|p\.\s?ej|e\.g|ex\.|por ejemplo|por exemplo"
                    r"|for example|como|such as)\b", re.I)
_TRAIL_CONJ = re.compile(r"\s+(?:y|e|and|o|ou|or|pero|mas|but)$", re.I)


def _sides(answer: str, prompt: str) -> list[str]:
    """The parts of a model answer a reply must say something of, without what the stem names:
    each side of a difference ("A: … B: …" → the two bodies), else the one body after the
    subject the stem asks about ("Keras 3 é uma reescrita …" → "uma reescrita …")."""
    asked = stems(prompt) | _stems4(prompt)
    parts = [p for p in re.split(r"(?<=[.!?])\s+(?=[^\s:]{1,60}(?:\s[^\s:]+){0,6}:\s)", answer.strip()) if p]
    out = []
    for p in parts:
        m = _SUBJECT_END.match(p)
        if m and (fold(m.group("subj").strip()) in fold(prompt) or (stems(m.group("subj")) | _stems4(m.group("subj")))
                  & asked):
            p = p[m.end():]
        out.append(p.strip())
    return out


# where a long clause can stop and still be a phrase: before a preposition, relative or conjunction
_PHRASE_BREAK = frozenset(fold(w) for w in """de del da do das dos en em no na nos nas con com al ao para por hasta até
que y e ou cuando quando sobre entre sin sem of in on with to for by until that which and or when between
without""".split())


PAIR_WORDS = 5  # words past a phrase's limit that may finish an "entre A y B" (hand-set: B is a noun phrase)


def _shorten(x: str, limit: int) -> str:
    """A clause of at most ``limit`` words: whole, or its head (:func:`gist_of`), or its words up to
    the last preposition or conjunction before the limit ("el servidor agrupa peticiones" of "el
    servidor agrupa peticiones hasta un tamaño máximo o un tiempo máximo de espera"); "" when no
    cut of three words or more leaves a phrase; an "entre A y B" cut at its "y" is finished (up to
    :data:`PAIR_WORDS` past the limit)."""
    ws = x.split()
    if len(ws) <= limit:
        return x
    # "entre A y B" is one phrase: a cut at its "y" keeps A alone ("el balance entre el true positive rate")
    pair = next((i for i, w in enumerate(ws[:limit]) if fold(w) in ("entre", "between")), None)
    conj = next((i for i in range(pair + 2, limit + 1) if fold(ws[i]) in ("y", "e", "and")), None) \
        if pair is not None else None
    if conj is not None:
        for i in range(limit + 1, min(len(ws), limit + PAIR_WORDS) + 1):  # its B, then the next break or the end
            if i == len(ws) or (fold(ws[i]) in _PHRASE_BREAK and i > conj + 1):
                return " ".join(ws[:i]).rstrip(",;:")
    head = gist_of(x, limit)
    if head:
        return head
    for i in range(min(limit, len(ws) - 1), 2, -1):
        if fold(ws[i]) in _PHRASE_BREAK:
            cut = " ".join(ws[:i]).rstrip(",;:")
            if not dangling(cut) and cut.count("(") == cut.count(")"):
                return cut
    return ""


def _clause_phrases(segment: str, asked: set[str], lists: bool = True) -> list[str]:
    """The phrases of one clause (:func:`phrase_concepts`): its parts around ":", a list's items
    (with ``lists``; else a short list is one phrase: "mismo equipo, misma máquina y mismo código")."""
    out = []
    clauses = re.split(r":\s|\s[-–—]\s", segment)
    for n, clause in enumerate(clauses):
        if n + 1 < len(clauses) and len(words(clause)) <= 3 and clause[:1].isupper() and not _TECH.match(clause):
            continue  # a row's label ("Resultado: …", "Reuso do grafo: …"): what follows says it
        # code after the words ("guardar modelo, optimizador y scheduler torch.save({…})") is the example
        clause = re.sub(r"(?<=\w{3})\s+[A-Za-z_][\w.]*\.[\w.]*\(.*$", "", clause) if len(words(clause)) > 3 else clause
        items = [clause]
        if ", " in clause and not re.search(r"\.\.\.|…|[{}=\"]", clause) and (lists or len(words(clause)) > 10):
            # a list, its last item after "e/y/and": "dtype, shape, strides e flags"; not a clause
            # that ends on one ("distribuir el entrenamiento entre múltiples GPUs, máquinas o TPUs")
            listed = re.split(r",\s+", clause)
            last = re.split(r"\s(?:y|e|and|ou|o|or)\s", listed[-1])
            if len(last) == 2 and all(len(words(x)) <= 4 for x in last):
                listed[-1:] = last
            if len(words(listed[0])) <= 4:
                items = listed
        for item in items:
            item = _TRAIL_CONJ.sub("", _PHRASE_LEAD.sub("", item.strip().rstrip(".,"))).strip()
            if not item or _ASIDE.match(item):
                continue
            m = _DIFFERENTIA.search(item) if len(words(item)) > 6 else None
            if m and _GENUS.match(_PHRASE_LEAD.sub("", item[:m.start()])):
                parts = [item[m.end():]]  # "una técnica … que utiliza modelos pre-entrenados …": what sets it apart
            elif m and len(words(item)) > 10 and len(words(item[:m.start()])) >= 4:
                # "operaciones aplicadas a los datos para modificarlos o prepararlos …": what and what for
                # (a head of three words is no phrase: "cada vetor vai | para a lista invertida …")
                parts = [item[:m.start()]] + ([item[m.end():]] if len(words(item[m.end():])) >= 3 else [])
            else:
                parts = [item]
            out += _phrases_kept(parts, asked)
    return out


def _phrases_kept(parts: Sequence[str], asked: set[str]) -> list[str]:
    """The parts of a clause that are phrases a reply can be checked for (:func:`_clause_phrases`)."""
    out = []
    for x in parts:
        x = _TRAIL_CONJ.sub("", _PHRASE_LEAD.sub("", x.strip())).strip()
        x = _shorten(x, 14)
        if not x or dangling(x) or re.search(r"·|\|\||<-|->", x):
            continue  # a formula cut from its brackets ("añadir · ||theta||") is no phrase
        content = {fold(w) for w in words(x) if len(w) >= 3 and fold(w) not in STOPWORDS}
        if not content or {fold(w)[:5] for w in content} <= {a[:5] for a in asked}:
            continue  # "a mais simples" says nothing; the stem's own words ask, not answer
        if x.count("(") != x.count(")") or x.count('"') % 2:
            continue
        out.append(x)
    return out


def phrase_concepts(answer: str, prompt: str, k: int = 4) -> tuple[str, ...]:
    """The ideas a right reply must hold, as short phrases of the model answer, the way a teacher
    writes them ("grafo acíclico de camadas; tensores simbólicos", "dtype; shape; strides"): each
    side's clauses (split at ";" and ":"), a list's items (split at its commas and the "and" before
    its last item), without brackets, asides ("si los expertos son grandes"), leading articles or
    what the stem already says; a clause too long for a phrase keeps its head (:func:`gist_of`).
    Single words picked by rarity ("acesso; logs", "seus") were the concepts raters rewrote most
    (174 of the 184 FIX reasons on short questions of held-out splits D–O name the concepts). Two per side
    of a difference, at most k."""
    asked = stems(prompt) | _stems4(prompt)
    per_side: list[list[str]] = []
    sides = _sides(answer, prompt)
    if re.search(r"\svs\.?\s", answer):
        return ()  # rows that set both sides against each other ("Representação: FlatParameter … vs DTensor …")
    for body in sides:
        body = re.sub(r"\s+\((?![^()]*=)[^()]*\)", "", body)  # "(DAG)", "(bytes por eixo)": side details
        body = re.sub(r"\s+[A-Za-z_][\w.]*\.[\w.]*\([^)]*[{=:].*$", "", body)  # code with its arguments: the example
        # examples, and their abbreviation with them ("…, ej. lr": its "." is no sentence's end)
        body = re.sub(r",?\s*\b(?:p\.\s?ej\.|ej\.|e\.g\.|i\.e\.|ex\.:?)[^.;]*", "", _EXAMPLES.sub("", body), flags=re.I)
        found: list[str] = []
        for sentence in re.split(r"\.\s", body.strip().rstrip(".")):
            for j, segment in enumerate(re.split(r";\s", sentence)):
                if j and (len(found) >= 2 or any(len(words(f)) > 3 for f in found)):
                    # after a ";" comes more about it ("…; estados: RUNNING, PRUNED"): asked only of a thin clause
                    break
                for x in _clause_phrases(segment, asked, lists=len(sides) == 1):
                    if fold(x) not in (fold(f) for f in found):
                        found.append(x)
        if found:
            per_side.append(found)
    if not per_side or len(per_side) < len(sides):
        return ()  # a side without a phrase: the two sides' key terms say more than one side's phrases
    quota = max(1, k // len(per_side)) if len(per_side) > 1 else k
    out = [x for side in per_side for x in side[:quota]]
    return tuple(out[:k])


# actions every procedure has: no step's idea
_PLAIN_ACTION = frozenset("utilizar usar realizar aplicar configurar definir combinar verificar use apply".split())


def _step_actions(steps: Sequence[str], goal: str, lang: str) -> list[str]:
    """The verbs of steps whose own action is the idea ("Congela los parámetros …" →
    "congelar"), at most two; not the actions every procedure has (utilizar, aplicar) nor
    what the goal already says."""
    verbs = _IMPERATIVE.get(lang, {})
    firsts = [(words(st)[:1] or [""])[0] for st in steps]
    acts = [verbs[w] for w in firsts if w in verbs and verbs[w] not in _PLAIN_ACTION]
    return [a for a in dict.fromkeys(acts) if fold(a)[:5] not in {fold(w)[:5] for w in words(goal)}][:2]


def _short_name(name: str) -> str:
    """torch.utils.data.DataLoader → DataLoader; torch.save() → save()."""
    paren = "()" if name.endswith("()") else ""
    return name[:len(name) - len(paren)].rsplit(".", 1)[-1] + paren


def _uniform_names(answer: str, pool: list[str], sentence: str) -> tuple[str, ...]:
    """The answer and three distractors named alike: all qualified (torch.save(), torch.load())
    when the answer and three distractors are, else all by their last part (DataParallel,
    Sampler, Dataset, DataLoader — not DataParallel beside torch.utils.data.Dataset); () on
    all callables or none. Empty when fewer than three distinct distractors remain."""
    def dotted(n: str) -> bool:
        return "." in n.rstrip("().")

    paren = answer.endswith("()")
    qualified = [c for c in pool if dotted(c)]
    if dotted(answer) and len(qualified) >= 3:
        names = [answer, *qualified]
    else:
        names = [_short_name(answer) if dotted(answer) else answer, *(_short_name(c) for c in pool)]
    names = [n if n.endswith("()") == paren else (n + "()" if paren else n[:-2]) for n in names]
    out: list[str] = [names[0]]
    for n in names[1:]:
        if any(same_thing(n, o) for o in out) or re.search(rf"(?<![\w.]){re.escape(n.rstrip('()'))}(?![\w])", sentence):
            continue
        out.append(n)
    return tuple(out[:4]) if len(out) >= 4 else ()


def _sentence_end(s: str) -> str:
    s = s.strip()
    return s if s.endswith((".", "!", "?")) else s + "."


# a blank that is an item of an enumeration, with or without its article ("la seguridad, el costo y la _____":
# disponibilidad or latencia would fit as well; both raters of the review decks dropped it). The conjunction is
# a word of its own: until 2026-11-24 "parámetro _____" and "de _____" read as "o _____" and "e _____".
_LIST_ARTICLE = r"(?:(?:de|del|do|da|dos|das|of|en|em|in) )?(?:(?:el|la|los|las|lo|o|a|os|as|the|un|una|um|uma) )?"
LIST_BLANK = re.compile(rf"_____,|, {_LIST_ARTICLE}_____|_____ (?:y|o|e|ou|and|or) "
                         rf"|(?<!\w)(?:y|o|e|ou|and|or) {_LIST_ARTICLE}_____")


OWN_CONCEPT_WORDS = 6  # the most words of a writer's own concept (the LLM writer's prompt asks for at most six)


def concepts_beside_stem(q: Question, course: CourseTerms, source: str | None = None, own: bool = False) -> Question:
    """``q`` with its model answer's points as its key concepts (:func:`kb.writing.answer_points.with_answer_points`,
    the last concept step of both writers), after :func:`_beside_stem`. ``own``: the writer chose its concepts for
    its own answer (a model's, asked for the key terms a right answer contains): they stay where any is left after
    :func:`_beside_stem`; the points are taken only when none is (a slide's points, cut from a model's prose, read as
    clauses: "Como KTO solo necesita ejemplos con etiqueta True/False", round 38) — less each a grader cannot mark with
    or of more than :data:`OWN_CONCEPT_WORDS` words; with none left, the points, or no concept."""
    from dataclasses import replace

    from .answer_points import with_answer_points
    from .concept_faults import question_concept_fault
    from .concept_use import unusable_concept

    q = _beside_stem(q, course, source)
    if own and q.concepts:  # each of its own that a grader can mark with (a few words, no fragment, not the stem's)
        kept = tuple(x for x in q.concepts if len(x.split()) <= OWN_CONCEPT_WORDS
                     and not unusable_concept(x, q.answer, q.concepts) and not question_concept_fault(x, q))
        if kept:
            return replace(q, concepts=kept)
        q = replace(q, concepts=())  # (none of its own a grader can use: the answer's points, or none)
    return with_answer_points(q)


def _beside_stem(q: Question, course: CourseTerms, source: str | None = None) -> Question:
    """``q`` with the key concepts a grader cannot mark with left out (:mod:`kb.writing.concept_use`), and
    with the key concepts its stem already says (:func:`kb.writing.checklist.in_stem`) left
    out, and, when none is left, the answer's own key phrases or rarest terms the stem does not say in
    their place; ``q`` as it is when there is nothing to leave out or nothing to put instead (the
    registry's ``concept-in-stem`` then turns it down)."""
    from dataclasses import replace

    from .checklist import in_stem
    from .concept_faults import question_concept_fault
    from .concept_use import NAMED_ORIGINS, unusable_concept, usable_concepts

    q = usable_concepts(q)  # a code fragment, a quoted message, a lone generic word: no concept a grader marks with
    others = () if q.origin in NAMED_ORIGINS else q.concepts

    def bad(x: str, others: Sequence[str] = ()) -> bool:  # (a fragment, worked numbers: no concept a teacher keeps)
        return bool(unusable_concept(x, q.answer, others) or question_concept_fault(x, q))

    if q.type == "short" and q.concepts and all(bad(x, others) for x in q.concepts):
        fresh = tuple(x for x in phrase_concepts(q.answer, q.prompt) if not bad(x))
        q = replace(q, concepts=fresh) if fresh else q
    if q.type != "short" or not any(in_stem(x, q.prompt) for x in q.concepts):
        return q
    kept = tuple(x for x in q.concepts if not in_stem(x, q.prompt))
    if not kept:
        fresh = phrase_concepts(q.answer, q.prompt) or course.key_concepts(q.answer, exclude=q.prompt, source=source)
        kept = tuple(x for x in fresh if not in_stem(x, q.prompt))
    return replace(q, concepts=kept) if kept else q
