"""The key concepts of a short answer are its model answer's points: one concept per point, in order.

Fresh raters of rounds 10–13 fixed the concepts of short answers more than anything else, and what they asked for
was the same in every round: the concepts are what a grader must find in a right answer — the answer's main
points, one per point, covering the answer (not a third of a point, not leaving out the defining item or half of
a list), each a short complete claim; never an empty header ("Como obter."), a fragment ("mismo código"), an
example's numbers ("h = 8192, s = 128k"), a version remark or a line of code. Rules fitted to single complaints
did not move them; this module is the structure instead:

- :func:`answer_points` splits a model answer into its points — bullets, "Label: detail" items, sentences, in
  order — and leaves out the asides: code lines, examples ("p. ej.", "ex.:", "Ejemplo: …"), worked numbers, a
  version remark, a consequence or a note, an empty header;
- :func:`point_concepts` gives one concept per point: a labelled item's label and the gist of its detail
  ("prepare_data(): download/tokenização em disco"; a role label such as "Problema" is left out), else the
  point's core clause cut at a clause boundary to at most :data:`GIST_WORDS` words, never ending on a function
  word; at most four, spread over the answer, the first point first;
- :func:`with_answer_points` puts them on a short question, the last concept step of both writers
  (:func:`kb.writing.concepts.concepts_beside_stem`). Concepts that are names by construction (a list's parts,
  an equation's terms) and the code names a comparison names are kept as they are.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from .. import lang as L
from ..quiz import Question
from ..text import STOPWORDS, fold, words
from .answer_asides import aside_kind
from .checklist import CODE_NAME as _CODE_NAME
from .concept_faults import NAMED_ORIGINS, attribution, concept_fault
from .ideas import dangling

GIST_WORDS = 14  # most words of a point's gist: the phrases raters of rounds 10–16 proposed as concepts in FIX
# reasons have a median of 6–7 words, p75 10–11, p90 14–15 (eval/gist_phrases.py); at 10 the gist cut the part
# raters call the core ("…, no cambia el argmax"). A right reply must hold 60 % of a concept's content words
# (kb.grading.signals, half of one of 9 content words or more): eval/answer_points_hits.py, right replies 0.45
# of the concepts hit, as at 10 words, wrong ones 0.15 -> 0.14
SHORT_GIST_WORDS = 10  # the gist's limit before gist30: tried where the whole claim is no concept a teacher keeps
LABEL_WORDS = 8  # most words of an item's label ("Decay alto demais para um treino curto: …"); more: a clause
WHOLE_EXTRA = 3  # words past GIST_WORDS a whole clause may have (hand-set: a cut loses its object, r11 raters;
# "atualizar todos os parâmetros do modelo pré-treinado com o gradiente da nova tarefa" is one claim)
POINTS = 4  # most concepts of one answer (a grader checks a handful; past it the thinnest points are left out)
ADVERBIAL_WORDS = 5  # most words of a cut that opens on a preposition and is only its clause's adverbial (hand-set
# on r12/r13: "Con un solo task vector", "Con modelos grandes y red lenta"; "Por eso los tests comparan con tolerancia"
# is a claim)
MIN_WORDS = 3  # fewest words of a gist that is a claim, not a header ("Como obter") or a fragment

# abbreviations whose "." ends no sentence
_ABBREV = re.compile(r"\b(?:p\.\s?ej|p\.\s?ex|ej|ex|e\.g|i\.e|etc|vs|cf|aprox|approx|fig|núm|num|et\sal)\.(?=\s|$)",
                     re.I)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=\S)")
_BULLET = re.compile(r"^\s*(?:[-•*▪●◦–]|\d+[.)])\s+")
# a line of code: a keyword that opens a statement, a decorator, an assignment or a call with its arguments
_CODE_OPEN = re.compile(r"^(?:else|elif|if|for|while|with|def|class|return|import|from|try|except|finally|lambda"
                        r"|print|assert|yield|raise)(?=[\s:(]|$)(?!\s+(?:[a-záéíóúãõç]+\s+){2})|^@|^#|^>>>|^\$\s")
_CODE_TOKEN = re.compile(r"[_\[\]{}=<>]|\w\.\w|\w\(|^[a-z]+[A-Z]|::")  # (not a shape's brackets: "(N, 1)")
# a bracket that is an aside ("(FP16, sin recomputación)", "(ex.: 512)"); not a call's ("ds.map(f)", "start()")
_ASIDE_BRACKET = re.compile(r"(?<![\w)\]])\s*\((?:[^()]|\([^()]*\))*\)")
# where a clause ends inside a point: a consequence's arrow, a semicolon, a colon, a dash, a comma
_CLAUSE_END = re.compile(r"\s+->\s+|\s*→\s*|;\s+|:\s+|\s+[–—-]\s+|,\s+")


@dataclass(frozen=True)
class Point:
    """One point of a model answer: its label ("" for none: "Label: detail") and its text (the detail)."""

    label: str
    text: str


# a half-open interval: its brackets pair with each other ("valores em (0, 1]", "[0, T)")
_INTERVAL = re.compile(r"[(\[]\s*-?[\w.]+\s*,\s*-?[\w.]+\s*[)\]]")


def balanced(text: str) -> bool:
    """Every bracket of ``text`` closed (an interval's "(0, 1]" pairs) and its double quotes paired."""
    text = _INTERVAL.sub("", text)
    return all(text.count(a) == text.count(b) for a, b in ("()", "[]", "{}")) and text.count('"') % 2 == 0


def _cut(text: str, at: re.Pattern[str]) -> list[str]:
    """``text`` cut where ``at`` matches outside brackets and quotes."""
    out, start = [], 0
    for m in at.finditer(text):
        if balanced(text[start:m.start()]):
            out.append(text[start:m.start()])
            start = m.end()
    return [x.strip() for x in [*out, text[start:]] if x.strip()]


def _sentences(text: str) -> list[str]:
    """``text`` cut at its sentence ends ("." "!" "?" before a space), not at an abbreviation's dot nor inside a
    bracket ("(q. k)")."""
    guarded = _ABBREV.sub(lambda m: m.group().replace(".", "\x00"), text)
    return [s.replace("\x00", ".") for s in _cut(guarded, _SENTENCE)]


def _label_split(part: str) -> tuple[str, str]:
    """("Label", "detail") of "Label: detail" with a short label that is no code ("x: int" is no label);
    "warn_only=True: …" is a label."""
    m = re.match(r"^(?P<label>[^:;]{1,80}?):\s+(?P<body>\S.*)$", part, re.S)
    if not m:
        return "", part
    label = m.group("label").strip()
    bare = _ASIDE_BRACKET.sub("", label).strip()
    if not bare or len(words(bare)) > LABEL_WORDS or re.search(r"[{}]|->|→|\s(?:if|for|in|else)\s", label) \
            or not balanced(label) or (_CODE_OPEN.match(label) and " " in label) \
            or any(w.lower() in _COPULAS for w in label.split()[1:]):  # ("ndarray é um buffer + metadados: …")
        return "", part
    return label, m.group("body").strip()


def _is_code(text: str) -> bool:
    """A line of code, not a claim: it opens a statement ("else.", "for step in …", "@torch…"), or code tokens
    ("weights = weights or [1.0 / len(sds)]", "(x,) = args") outnumber the plain words."""
    t = text.strip().rstrip(".")
    if not t:
        return True
    if _CODE_OPEN.match(t):
        return True
    tokens = t.split()
    code = sum(bool(_CODE_TOKEN.search(w)) for w in tokens)
    plain = sum(bool(re.fullmatch(r"[^\W\d_]{2,}[,.:;]?", w)) and not _CODE_TOKEN.search(w) for w in tokens)
    if re.search(r"^[\w.,()\[\] ]+\s=\s", t) and plain < 4:
        return True  # ("acc = (stats[0] / stats[1]).item()": an assignment, not "X = what X is")
    return code > 0 and code >= plain


# a formula a point states ("FL(p_t) = -alpha_t * (1 - p_t)^gamma * log(p_t)", "N_opt = (C / 120) ** 0.5", "L = sum_i
# w_i * L_i"): a symbol (with its arguments), "=", "~" or "<-", and an expression of operators and math functions; not
# a line of code (a dotted call "x.mean(0)", an index "stats[0]", a keyword argument, a string, True/None)
_FORMULA = re.compile(r"^[A-Za-z][\w']{0,15}(?:\([\w, ]*\))?\s*(?:=|~|<-|←)\s*(?P<rhs>\S.*)$")
_MATH = re.compile(r"[*/^+·×√]|\s-\s|^-|\b(?:sqrt|log|exp|sum|softmax|sigmoid|max|min|Beta|CE)\("
                   r"|\b(?:sum|log|exp)_|\b(?:soma|suma|max|min|argmax|argmin|prod)_(?:\{[^}]*\}|[A-Za-z0-9]{1,3})\s+\S")
# (a short subscript before its operand: "M = max_s LSE_s", not a name "max_position_embeddings", "min_lr")
_NOT_MATH = re.compile(r"\w\.\w+\(|\[|\]|\w=|['\"]|\b(?:True|False|None|return|lambda|for|if|in)\b|:\s*$")


def formula(text: str) -> bool:
    """``text`` is a formula (:data:`_FORMULA`): what a point states whole, not a line of code to leave out
    (raters of rounds 14–16 asked for "FL = -alpha_t (1 - p_t)^gamma log(p_t)", "L = sum_i w_i·L_i")."""
    t = text.strip().rstrip(".")
    m = _FORMULA.match(t)
    return m is not None and bool(_MATH.search(m.group("rhs"))) and not _NOT_MATH.search(t)


def labelled_formula(concept: str) -> bool:
    """``concept`` is a formula, or a label and its formula ("Passo 2: w_s = exp(LSE_s - M)")."""
    return formula(concept) or (": " in concept and formula(concept.split(": ", 1)[1]))


def _aside_label(label: str) -> bool:
    """A label of an aside: an example, a consequence or a note ("Ejemplo interno", "Consecuencia"), a dated
    remark ("Opções mais novas"), or a use written as code ("Uso: dcp.save(…)" is judged by its detail)."""
    ws = [fold(w) for w in words(label)]
    return bool(ws) and (ws[0] in L.ASIDE_LABELS or any(w in L.NEWER_WORDS for w in ws))


def _example_cut(text: str) -> str:
    """``text`` without the example it gives at its end ("…, p. ej. lr", "(ex.: 512)", "por ejemplo …")."""
    low = text.lower()
    at = min((i for m in L.EXAMPLE_MARKS + L.EXAMPLE_LEADS if (i := low.find(m)) >= 0), default=-1)
    return text[:at].rstrip(" ,;:(") if at >= 0 else text


_EXAMPLE_BRACKET = re.compile(r"\s*\((?:p\.\s?ej|p\.\s?ex|ej\.|ex\.|e\.g\.|por ejemplo|por exemplo"
                              r"|for example)[^()]*\)", re.I)
_NESTED = re.compile(r":\s+(?=[^:;]{1,60}:\s)")  # a label inside an item's detail: where its sub-items start
_COPULAS = frozenset("es son está están é são está estão is are".split())  # a clause's verb: no label holds one
_QUOTED = re.compile(r"[\"“][^\"“”]*[\"”]")  # a quoted text; of four words or more, a message: an example of it
# a legend of symbols ("s = longitud, b = batch, h = hidden"), or numbers set to them ("h = 8192, s = 128k")
_LEGEND = re.compile(r"(?:^|,\s*)[A-Za-z_]\w{0,2}\s*=\s*\S+(?:\s+\S+)?\s*,\s*[A-Za-z_]\w{0,2}\s*=")


def _code_tail(text: str) -> str:
    """``text`` without a list of code names after its last colon: the examples of what its clause says ("…:
    torch.ops.aten.linear.default, aten.relu.default")."""
    head, colon, tail = text.rpartition(": ")
    names = [x.strip() for x in tail.split(",")]
    if colon and head and all(x and " " not in x and re.search(r"[._(]", x) for x in names):
        return head
    if colon and head and re.search(r"<-|·|\s=\s", tail) and len(words(tail)) <= GIST_WORDS:
        return head  # (a formula after what it says: "encoger los pesos …: theta <- theta - lr · lambda · theta")
    return text


# where code glued to a sentence starts: a decorator, a loop or test over names, a dotted call
_CODE_START = re.compile(r"\s(?=@\w|for\s+\w+(?:,\s*\w+)*\s+in\s+\w|if\s+\w+\s*[=!<>]=|[A-Za-z_]\w*(?:\.\w+)+\()")


def _code_end(text: str) -> str:
    """``text`` without the code glued after its words ("… inclui warmup for step, batch in enumerate(loader): …",
    "… declararlo en mutates_args @torch.library.custom_op(…)")."""
    for m in _CODE_START.finditer(text):
        if len(words(text[:m.start()])) >= MIN_WORDS and _is_code(text[m.end():]):
            return text[:m.start()].rstrip(" ,;:")
    return text


def _numbers_only(text: str) -> bool:
    """Worked numbers: digits with at most one word of three letters or more ("10x a 100x o más")."""
    return bool(re.search(r"\d", text)) and sum(len(w) >= 3 and not re.search(r"\d", w) for w in words(text)) <= 1


def _parts(answer: str) -> list[str]:
    """A model answer's items in order: its lines (bullets) cut into sentences, and a sentence into its "; "
    items, but an item under a lead label ("Uma Strategy encapsula: a; b; c") and the items that go on a
    labelled one ("prepare_data(): download …; roda em um único processo") stay with it."""
    out: list[str] = []
    for line in answer.splitlines():
        line = _QUOTED.sub(lambda m: "" if len(m.group().split()) >= 4 and m.string[:m.start()].rstrip().endswith(":")
                           else m.group(), _BULLET.sub("", line)).strip()  # (a message a colon quotes: the example)
        for sentence in _sentences(line):
            label, body = _label_split(sentence)
            if label and _aside_label(label):
                continue  # ("Ejemplos: a; b; c": every item is the example's)
            nested = _NESTED.search(body) if label else None
            if nested and _label_split(body[nested.end():])[0]:
                # a bullet and its sub-bullets ("Broadcasting silencioso: …, resultado incorrecto: Típico en losses: …")
                out.append(f"{label}: {body[:nested.start()]}")
                sentence = body[nested.end():]
                label, body = _label_split(sentence)
            items = _cut(sentence, re.compile(r";\s+"))
            if len(items) > 1 and label and not any(_label_split(x)[0] for x in items[1:]) and ";" in body:
                out.append(sentence)  # ("Strategy encapsula: dispositivos; variáveis; gradientes": one list)
                continue
            labelled = any(_label_split(x)[0] for x in items[1:])
            for n, item in enumerate(items):
                if n and labelled and not _label_split(item)[0] and _label_split(out[-1])[0]:
                    out[-1] += "; " + item  # (the labelled item's detail goes on)
                elif len(words(item)) < MIN_WORDS and n:
                    out[-1] += "; " + item  # ("…; las activaciones sí": a short tail is its clause's)
                else:
                    out.append(item)
    return out


def answer_points(answer: str) -> list[Point]:
    """The points of a model answer in order (:func:`_parts`); a "Label: detail" item keeps its label; without
    its asides: code lines, a legend of symbols, examples, worked numbers, a version remark, a consequence, note or
    tip, an empty header. [] for an answer with no point (all code)."""
    out: list[Point] = []
    for part in _parts(answer):
        label, body = _label_split(part.strip().rstrip("."))
        body = _EXAMPLE_BRACKET.sub("", body)  # ("atomicAdd en GPU (p. ej. index_add_) produce …": the bracket only)
        body = _code_tail(_code_end(_example_cut(body))).strip().rstrip(".:")
        if label and _aside_label(label):
            continue
        if not body or (not formula(body) and (_is_code(body) or _numbers_only(body))) or _LEGEND.search(body):
            continue
        if not label and len(words(body)) < MIN_WORDS + 1 and not _CODE_TOKEN.search(body):
            continue  # an empty header ("Como obter.")
        out.append(Point(label, body))
    return out


_OPERAND = re.compile(r"[*/^=+]\s*$|[(\[]$")  # an operator or an opening bracket before a bracket: the bracket is the
# formula's operand ("N_opt = (C / 120) ** 0.5", "E[(f(z) - b) grad log p(z)]")
_GLUED_MINUS = re.compile(r"(?:^|[\s(\[])-$")  # a minus glued to its bracket ("exp(-(g + …))"), not a dash before one
_OPERAND_AFTER = re.compile(r"\s*(?:[*/^=+]|[x×·]\s)")  # (a product written "x": "(w_s / W) x O_s")
# a symbol with an index ("m_a", "LSE_s"; not a code name, "__shfl_xor_sync"), or an operator spaced or glued after a
# one-letter symbol ("(1 - p)", "(k-1)"; not a name's hyphen or slash, "(GPT-2)", "(FP16/BF16)")
_SYMBOLS = re.compile(r"\b[A-Za-z]{1,6}_[A-Za-z0-9]{1,3}\b|\w\s[-+*/^]\s\w|(?<![\w-])[A-Za-z][-+*/^]\w")
_MATH_WORDS = frozenset("exp log sum max min sqrt softmax sigmoid tanh mean var grad soma".split())


def _math_bracket(bracket: str) -> bool:
    """``bracket`` ("(…)") holds a formula's symbols (:data:`_SYMBOLS`) and no word of three letters or more that is
    not a math function nor a short acronym ("(m_a, d_a)", "(w_s / W)", "(g + exp(-g))", "(LSE_s)"); not an aside
    ("(FP16, sin recomputación)", "(media móvil de f o una red que la estima)")."""
    inner = bracket[1:-1]
    if not _SYMBOLS.search(inner):
        return False
    return not any(re.fullmatch(r"[^\W\d_]{3,}", w) and w.lower() not in _MATH_WORDS
                   and not (w.isupper() and len(w) <= 4) for w in re.findall(r"\w+", inner))


def _kept_bracket(text: str, m: re.Match[str]) -> bool:
    """The bracket ``m`` of ``text`` is part of what the text says, not an aside: what a preposition governs
    ("all_gather de (índice, predicción)"), a formula's operand beside an operator or a glued minus ("N_opt = (C / 120)
    ** 0.5", "(n + m) * r valores", "exp(-(g + …))"), or, after some text, a bracket of symbols ("pares (m_a, d_a)")."""
    before = text[:m.start()]
    return _after_preposition(before) or bool(_OPERAND.search(before)) \
        or (m.group()[:1] == "(" and bool(_GLUED_MINUS.search(before))) or bool(_OPERAND_AFTER.match(text, m.end())) \
        or (before.strip() != "" and _math_bracket(m.group().strip()))


WHOLE_WORDS = 12  # most words of a point used whole when its cut is garbled (the brief of issue 26, session 29)
# a concept a cut garbled (r14/r15 raters: "2*/N", "N_opt = ** 0.5", "sum(dy *", "Hoffmann et", "size 8 \\"): it
# ends on an operator or an abbreviation's stub, or holds an operator without its operand
_GARBLED = re.compile(r"(?:[*/^=+<>\\-]|\*\*)\s*$"
                      r"|(?i:\b(?:et|al|e\.g|i\.e|p\.\s?ej|p\.\s?ex|ex|aprox|approx|vs|cf))\.?$"
                      r"|[=+*/^]\s*[*/^]")


def _after_preposition(head: str) -> bool:
    ws = head.split()
    return bool(ws) and ws[-1].lower() in _BREAK_BEFORE_RAW


def _plain(text: str) -> str:
    """``text`` without aside brackets and the article or copula it opens on."""
    text = _ASIDE_BRACKET.sub(lambda m: m.group() if _kept_bracket(text, m) else "", text)
    text = re.sub(r"\s+([,;:])", r"\1", re.sub(r"\s+", " ", text)).strip(" ,;:")
    text = re.sub(r"^(?:[-–>→=+*/,;:]+\s+)+", "", text)  # (what a bracket cut out leaves: "- -> , sin error")
    # (an article, not a numeral before its alternative: "uma ou duas ordens de grandeza")
    return re.sub(r"^(?i:(?:el|la|los|las|lo|o|a|os|as|the|un|una|um|uma|an|es|son|é|são|is|are)\s+"
                  r"(?!(?:o|ou|or|y|e|and)\s|[=~<]))+", "", text)  # (a symbol: "O = soma_s …", "a = …")


def _ends_whole(cut: str, lang: str) -> bool:
    """A cut that ends on a word a claim can end on: no function word, pronoun or verb awaiting its object."""
    if not cut or dangling(cut) or cut.count("(") != cut.count(")") or cut.count('"') % 2:
        return False
    last = fold(words(cut)[-1]) if words(cut) else ""
    if _CONDITION.get(lang, _CONDITION[""]).match(cut) and not re.search(r",\s|\s->\s", cut):
        return False  # a condition without what follows from it ("Si el op escribe en una entrada")
    if cut.split()[-1].lower() in ("sí", "sim", "no", "não", "yes"):
        return True  # ("MIG sí": a yes, not the pronoun "si")
    return last not in _OPEN_END and concept_fault(cut, lang) not in ("fragment",)


# (as written: "é" is no "e"; a purpose, "para", "for", is a weak boundary: "operaciones aplicadas a los datos para
# modificarlos o prepararlos" is what they are for)
_STRONG_RAW = frozenset("""que porque pois mediante cuando quando donde onde mientras enquanto y e ou pero mas
aunque embora ni nem which that where when because while and or but nor""".split())
_BREAK_BEFORE_RAW = _STRONG_RAW | frozenset("""para sin sem con com en em de del do da dos das al ao por hasta até
sobre entre antes después depois before after with without for to by in on of from""".split())
# (folded) a word a cut never ends on: what it may stop before, and "o" (an article too, so no boundary above)
_OPEN_END = frozenset(fold(w) for w in _BREAK_BEFORE_RAW) | {"o"}
# a comma inside an enumeration ("min, opt y max"): one or two words, then its "y/e/and" and its last item
_LIST_GOES_ON = re.compile(r"\S+(?:\s\S+)?\s(?:y|e|and|o|ou|or)\s[^\s,;:]+")


def _comma_heads(text: str, m: re.Match[str]) -> list[str]:
    """The heads a clause boundary gives: the text before it, and, at a comma inside an enumeration, the text up to
    the enumeration's last item too ("optimization profile con min, opt y max")."""
    heads = [text[:m.start()]]
    if m.group().startswith(",") and (lm := _LIST_GOES_ON.match(text, m.end())):
        heads.append(text[:lm.end()])
    return heads
_CONDITIONS = {"es": r"si|cuando", "pt": r"se|quando|caso", "en": r"if|when"}  # ("se" is Spanish's reflexive)
_CONDITION = {lang: re.compile(rf"(?i)^(?:{w})\s") for lang, w in
              {**_CONDITIONS, "": "si|cuando|quando|caso|if|when"}.items()}
# what opens an item that asks what rather than says it ("em quais dispositivos …", "como as variáveis …")
_WH = re.compile(r"(?i)^(?:(?:em|en|de|in|on|of)\s+)?(?:como|cómo|quais|cuáles|qual|cuál|qué|onde|dónde|quando|cuándo"
                 r"|how|which|what|where|when)\s+(?:(?:o|a|os|as|el|la|los|las|the)\s+)?")


def _nested_label(text: str) -> bool:
    """``text`` runs on into the next item: a short capitalised label between two colons ("… pesos de uma MLP:
    Resolução contínua: não há grade fixa", "Duas redes treinadas juntas: Coarse: N_c = 64")."""
    segments = text.split(": ")
    return any(1 <= len(words(x)) <= 3 and x[:1].isupper() for x in segments[1:-1])


def _clause_gist(text: str, lang: str, limit: int) -> str:
    """One clause's gist (:func:`gist`)."""
    if 0 < len(words(text)) <= limit + WHOLE_EXTRA and _ends_whole(text, lang) and not _nested_label(text):
        return text  # (a whole clause a word or two past the limit is not cut: "no dependen de la longitud s")
    ws = text.split(" ")
    tiers = [  # a punctuation boundary, then before a conjunction or relative, then before a preposition
        [h for m in _CLAUSE_END.finditer(text) if balanced(text[:m.start()]) for h in _comma_heads(text, m)],
        [" ".join(ws[:i]) for i in range(1, min(len(ws), limit + 1)) if ws[i].lower().strip(",;:") in _STRONG_RAW],
        [" ".join(ws[:i]) for i in range(1, min(len(ws), limit + 1))
         if ws[i].lower().strip(",;:") in _BREAK_BEFORE_RAW],
    ]
    openers = L.PHRASE_OPENERS.get(lang) or frozenset().union(*L.PHRASE_OPENERS.values())

    def adverbial(head: str) -> bool:  # a cut that keeps only a clause's adverbial ("Con un solo task vector | y …")
        return fold(ws[0]) in openers and "," not in head and len(words(head)) <= ADVERBIAL_WORDS

    def label_next(head: str) -> bool:  # a cut that ends on the label of the next item ("…de cada tipo: grupo TP")
        rest = text[len(head):].lstrip() if text.startswith(head) else ""
        return rest.startswith(":") and ": " in head and len(words(head.rsplit(": ", 1)[1])) <= 3

    for heads in tiers:
        fits = [h.strip(" ,;:") for h in heads if MIN_WORDS <= len(words(h)) <= limit]
        fits = [h for h in fits if _ends_whole(h, lang) and not adverbial(h) and not label_next(h)
                and not _nested_label(h)]
        if fits:
            return max(fits, key=lambda h: len(words(h)))
    return ""


def _head_noun(item: str) -> str:
    """What an item that asks names ("dispositivos" of "em quais dispositivos as réplicas rodam")."""
    run: list[str] = []
    for w in words(_WH.sub("", item))[:3]:
        if fold(w) in STOPWORDS:
            break
        run.append(w)
    return " ".join(run)


def gist(text: str, lang: str = "", limit: int | None = None) -> str:
    """A point's core in at most ``limit`` words: the whole point when short enough; for a list of clauses ("a;
    b; c") as many whole clauses as fit, or, for clauses that each ask what ("em quais dispositivos …; como as
    variáveis …"), what each names; else its longest head that ends at a clause boundary (an arrow, ";", ":", a
    dash, a comma), else before a conjunction or relative, else before a preposition, and ends whole
    (:func:`_ends_whole`); "" when no such head of :data:`MIN_WORDS` words is."""
    limit = GIST_WORDS if limit is None else limit
    text = _plain(text)
    items = [_plain(x) for x in _cut(text, re.compile(r";\s+"))]
    if len(items) > 1:
        # the first item is a claim and may use the whole limit; items joined to it, the limit of a list (the shorter
        # one of before gist30: "atores só rodam o ambiente" is not joined to the next bullet "Frame skip e …")
        joined = limit - max(0, GIST_WORDS - SHORT_GIST_WORDS)
        kept: list[str] = []
        for x in items:
            if len(words(", ".join([*kept, x]))) > (joined if kept else limit) or not _ends_whole(x, lang):
                break
            kept.append(x)
        if len(kept) == len(items):
            return ", ".join(kept)
        named = [_head_noun(x) for x in items]
        if all(_WH.match(x) for x in items) and all(named) \
                and len(words(", ".join(named))) <= joined:
            return ", ".join(named)
        if kept:
            return ", ".join(kept)
        return _clause_gist(items[0], lang, limit)
    return _clause_gist(text, lang, limit)


# where a definition's subject ends: "X es/é/is …", "X = …", "X significa …"
_SUBJECT = re.compile(r"^(?P<subj>[^:;=,]{1,60}?)\s(?:=|es|son|é|são|is|are|significa|consiste en|consiste em|means)\s",
                      re.I)
_GENUS = re.compile(rf"^(?:(?:un|una|um|uma|a|an|the|el|la|o)\s+)?(?:{'|'.join(sorted(L.GENUS_WORDS))})\b", re.I)
_RELATIVE = re.compile(r"\s(?:que|that|which)\s")
# an opening adverbial that only frames the claim ("Na prática, …", "En general, …")
_FRAME = re.compile(r"(?i)^(?:na|en|em|in)\s+(?:la\s+)?(?:prática|práctica|practice|general|geral|resumen|resumo|suma)"
                    r"\s*,\s*")


def _definiens(text: str, prompt: str) -> str:
    """What a definition of the asked term says of it: ``text`` without its subject when the stem names it ("La
    transferencia de aprendizaje es …" asked "¿Qué es la transferencia de aprendizaje?"), and, past
    :data:`GIST_WORDS`, without a genus that says nothing by itself ("una técnica poderosa que utiliza …" →
    "utiliza …"); ``text`` without a framing adverbial ("Na prática, …")."""
    text = _FRAME.sub("", text)
    head, comma, rest = prompt.partition(", ")
    setting = comma and re.match(r"(?i)(?:en|em|in|ao|al|on|no|na|para)\s", head)
    asked = rest if setting else prompt  # (not the setting)
    if setting and text.startswith(f"{head}, "):
        text = text[len(head) + 2:]  # ("En PyTorch, las transformaciones son …" asked "En PyTorch, ¿qué son …?")
    m = _SUBJECT.match(text)
    # (the subject as the stem's words, not a letter inside them: "M = max_s LSE_s" asked "Em Flash-Decoding, …";
    # a formula states its symbol, "O = soma_s (w_s / W) x O_s"; a value set ("Batch = 1: simples") is a label)
    if m and (subj := _plain(m.group("subj"))) and re.search(rf"(?<!\w){re.escape(fold(subj))}(?!\w)", fold(asked)) \
            and not formula(text) and not re.match(r"\S+:\s", text[m.end():]):
        text = text[m.end():]
        r = _RELATIVE.search(text)
        if _GENUS.match(text) and r and len(words(text)) > GIST_WORDS:
            text = text[r.end():]
    return text


def _in_question(label: str, prompt: str) -> bool:
    """The stem's question (not its setting) names ``label`` whole ("Repetibilidad" in "¿qué diferencia hay entre
    repetibilidad y reproducibilidad?")."""
    bare = fold(re.sub(r"\((?:[^()]*=[^()]*)?\)$", "", _ASIDE_BRACKET.sub("", label)).strip())
    head, comma, rest = prompt.partition(", ")
    asked = rest if comma and re.match(r"(?i)(?:en|em|in|ao|al|on|no|na|para)\s", head) else prompt
    return bool(bare) and re.search(rf"(?<!\w){re.escape(bare)}(?!\w)", fold(asked)) is not None


def _role(label: str) -> bool:
    """A label that names a role or facet, not a term ("Problema", "Ideia", "Benefícios", "Regra prática")."""
    ws = [fold(w) for w in words(label)]
    roles = {fold(w) for w in L.ROLE_WORDS | L.FACET_WORDS}
    return bool(ws) and ws[0] in roles and len(ws) <= 2


def _concept(p: Point, lang: str, limit: int | None = None) -> str:
    """One point's concept: a labelled item's label (a term or a condition; not a role) with its detail's gist,
    else the point's gist (of at most ``limit`` words, :data:`GIST_WORDS` by default); "" when it has no whole gist,
    or it is worked numbers, a version remark or code."""
    limit = GIST_WORDS if limit is None else limit
    if p.label and not _role(p.label):
        # ("prepare_data: …", 'Partial: …' of 'Partial(reduce_op="sum")': empty brackets and keyword arguments are no
        # claim; "Shard(d)", 'P("data", None)' keep theirs)
        label = re.sub(r"\((?:[^()]*=[^()]*)?\)$", "", _plain(p.label))
        g = gist(p.text, lang, max(MIN_WORDS + 3, limit - len(words(label)) + 2))
        if not g and formula(p.text) and len(words(p.text)) <= GIST_WORDS:
            g = _plain(p.text)  # (a formula is one claim, not cut: "Combinação de dois pares …: D = d_a x exp(…) + …")
        c = f"{label}: {g}" if g else ""
    else:
        c = gist(p.text, lang, limit)
    if c and concept_fault(c, lang) in ("instance", "trivia", "code-shard") and not labelled_formula(c):
        return ""  # (a formula's constants are the rule's, not worked numbers: "D_opt = 20 * N_opt")
    return c


def garbled(concept: str) -> bool:
    """A concept a cut garbled: it ends on an operator or a stub ("Hoffmann et"), holds an operator without its
    operand ("2*/N", "N_opt = ** 0.5") or an unbalanced bracket or quote ("sum(dy *")."""
    c = re.sub(r"(?i)\bC\+\+", "Cpp", concept.strip()).replace("**", "^")  # (a power is one operator; C++ a name)
    return bool(_GARBLED.search(c)) or not balanced(c) or c.count("“") != c.count("”")


def _spread(items: Sequence[str], k: int) -> list[str]:
    """At most ``k`` of ``items`` in their order: the first always, then those that say most (content words), the
    thinnest left out first ("una resta manual no" before "pred de forma (N, 1) y target de forma (N,)")."""
    if len(items) <= k:
        return list(items)
    size = {i: len([w for w in words(x) if fold(w) not in STOPWORDS]) for i, x in enumerate(items)}
    keep = sorted(range(1, len(items)), key=lambda i: (-size[i], i))[:k - 1]
    return [items[i] for i in [0, *sorted(keep)]]


def _point_concept(p: Point, prompt: str, answer: str, lang: str, asked: set[str], out: list[str],
                   limit: int) -> str:
    """The concept of point ``p`` in at most ``limit`` words (:func:`point_concepts`), or ""."""
    from .concept_use import unusable_concept, with_brackets

    c = _concept(Point(p.label, _definiens(p.text, prompt)), lang, limit)
    content = {fold(w)[:5] for w in words(c) if fold(w) not in STOPWORDS and len(w) >= 3}
    if not c or not content or content <= asked or any(fold(c) == fold(o) for o in out):
        return ""
    c = with_brackets(c, answer)
    if garbled(c):  # (the point whole when short and sound, else no concept)
        whole = _plain(_definiens(p.text, prompt)).rstrip(".")
        whole = f"{_plain(p.label)}: {whole}" if p.label and not _role(p.label) else whole
        if len(words(whole)) > WHOLE_WORDS or garbled(whole) or any(fold(whole) == fold(o) for o in out):
            return ""
        c = whole
    fault = concept_fault(c, lang)
    if fault == "fragment" and _ends_whole(c, lang):
        fault = None  # ("time-slicing sí, MPS no entre clientes, MIG sí": a yes, not the pronoun "si")
    if labelled_formula(c) and fault in ("instance", "code-shard"):
        fault = None
    if unusable_concept(c, answer, ("a whole phrase",)) not in (None, "code-shard" if labelled_formula(c) else None) \
            or fault:
        return ""
    return c


def point_concepts(answer: str, prompt: str = "", lang: str = "", k: int = POINTS) -> tuple[str, ...]:
    """The key concepts of a short ``answer``: one per point of :func:`answer_points`, in order, at most ``k``
    spread over the answer; a point that says only what the stem ``prompt`` asks is none, and none is one a grader
    cannot mark with (:func:`~kb.writing.concept_use.unusable_concept`) or a teacher would not keep
    (:func:`~kb.writing.concept_faults.concept_fault`); a bracket that holds what a concept says is kept in it
    (:func:`~kb.writing.concept_use.with_brackets`: "pred de forma (N, 1) y target de forma (N,)")."""
    asked = {fold(w)[:5] for w in words(prompt) if fold(w) not in STOPWORDS}
    out: list[str] = []
    points = answer_points(answer)
    if len(points) == 1 and points[0].label and " " not in points[0].label.strip() \
            and not _CODE_TOKEN.search(points[0].label) and fold(points[0].label[:5]) in asked:
        points = [Point("", points[0].text)]  # ("Coste: …" asked "¿qué coste tiene …?": the stem names it)
    # a label the stem asks about ("patience: …" of "¿qué significa «patience»?", the sides of "¿qué diferencia hay
    # entre A y B?") is what a reply repeats from the stem, not what it must say
    points = [Point("", p.text) if p.label and _in_question(p.label, prompt) else p for p in points]
    # a point labelled by its authors ("Lin et al.: cerca de 1% dos pesos são salientes") is its claim: who said it
    # is no key concept (kb.writing.concept_faults: trivia)
    points = [Point("", p.text) if p.label and attribution(p.label) else p for p in points]
    claims = [p for p in points if not aside_kind(p.label, p.text)]
    points = claims or points  # (a typical value, a library pointer, a "standard in X" remark: asides, when others)
    for p in points:
        # the whole claim; where it holds what no teacher keeps (worked numbers, a year, an "=" chain), the shorter
        # gist of before (SHORT_GIST_WORDS: "Memoria: n^2 valores", not "…, con n = 10^8 …, 10^16 floats = 40 PB")
        for limit in (GIST_WORDS, SHORT_GIST_WORDS):
            c = _point_concept(p, prompt, answer, lang, asked, out, limit)
            if c:
                out.append(c)
                break
    return tuple(_spread(out, k))


# a question on a slide's idea or labelled list (kb.writing.plan): its concepts are always the answer's points, never
# the rare names a fallback picked ("__call__; grad_output")
_SLIDE_ORIGINS = frozenset({"labels", "idea"})
# one token that names a thing: "nvidia-smi", "fp16", "DTensor"
_NAME = re.compile(r"[A-Z]{2}\S*|\S*(?:\w-\w|\d|[a-z][A-Z]|[._()])\S*")


def _names(concept: str) -> bool:
    """``concept`` is a name, or a pair "A / B" of names (a comparison's two sides, :func:`kb.writing.concepts`):
    one token each, one of them at least a code name or a name token ("FlatParameter / DTensor",
    "torch.compile / dynamo"); not two words a purpose joins ("modificar / preparar")."""
    def named(s: str) -> bool:
        return bool(_CODE_NAME.fullmatch(s) or _NAME.fullmatch(s))

    sides = [s.strip() for s in concept.split(" / ")]
    if len(sides) == 1:
        return named(concept)
    if _CODE_NAME.fullmatch(sides[0]):
        return True  # (a call's pair: "torch.compile / dynamo")
    return all(s and " " not in s for s in sides) and any(map(named, sides))


def with_answer_points(q: Question) -> Question:
    """``q`` with its answer's points as its key concepts (:func:`point_concepts`): a short question's last
    concept step in both writers. As it is: not a short answer, a harvested one, one whose concepts are names by
    construction (:data:`~kb.writing.concept_faults.NAMED_ORIGINS`) or, but on a slide's idea or list, code names
    only ("nvidia-smi", "FlatParameter / DTensor"), or an answer without a point."""
    if q.type != "short" or q.origin == "harvested" or q.origin in NAMED_ORIGINS:
        return q
    if q.origin not in _SLIDE_ORIGINS and q.concepts and all(_names(c) for c in q.concepts):
        return q  # (the call or tool the answer names is its point: "nvidia-smi", "FlatParameter / DTensor")
    found = point_concepts(q.answer, q.prompt, q.lang)
    return replace(q, concepts=found) if found and found != tuple(q.concepts) else q
