"""Which unit answers which kind of question, by classes of text (issue 30, round 5): the helpers
:mod:`kb.answering` uses to choose the answer by the question's kind and its subject.

- a deck's title slide ("Sesión: …", "Aula: …") and its agenda never answer;
- "what is X": the slide that defines X ("X: definición", "X (…)", a slide titled X alone) answers with its
  opening;
- a question of two questions ("¿Qué es X y qué hace con Y?") is answered clause by clause;
- "why": a unit that states a cause ("Problema: …", "A -> B", "porque") answers, a benefit ("Ventaja: …") only
  when the question asks why one would use something; a problem is quoted with its solution;
- "difference": a slide that compares the two sides ("A vs B") answers with a unit for each side.

Pure text functions only: they take terms and shares from the caller, so this module imports nothing of kb's
answerer.
"""

from __future__ import annotations

import re
from typing import Any

from .lang import summary_title
from .text import fold

# A deck's title slide says what the session is ("Sesión: cómo se sincronizan…", "Aula 10: DVC…"): it names every
# topic of the deck and explains none. Only on a deck's first page: "Session: …" on a later slide may be tf.Session.
_TITLE_LINE = re.compile(r"^\W*(sesi[oó]n|sess[aã]o|aula|clase)\s*\d*\s*:", re.I)
# An agenda / index slide: its heading says so.
_AGENDA = re.compile(r"^\W*(indice|agenda|sumario|contenidos?|conteudos?|contents|outline|table of contents|"
                     r"roteiro|plan de la sesion|plano da aula)\W*$")
# A heading that says its slide defines what it names: "Parameter server: definición", "DVC: definição e
# conceitos", "Ring all-reduce: idea", "¿Qué es X?".
_DEFINES = re.compile(r"\b(definici[oó]n|defini[cç][aã]o|definition|idea|ideia|concepto|conceito|qu[eé] es|"
                      r"o que [eé]|what is)\b", re.I)
# Where a question's second question starts: "¿Qué es NCCL *y qué hace* con la topología…?"
_SECOND = re.compile(r"\s(?:y|e|and)\s+(?=(?:qu[eé]|o que|c[oó]mo|cu[aá]l(?:es)?|qual|quais|por ?qu[eé]|"
                     r"para qu[eé]|d[oó]nde|onde|what|how|which|why|where)\b)", re.I)
# A "why" question that asks why one would use something: a benefit answers it ("¿Por qué usar X?")
_WHY_USE = re.compile(r"\b(usar|utilizar|usa|use|using|conviene|compensa|vale la pena|vale a pena|"
                      r"para que|preferir|elegir|escolher)\b")
# A line that states a cause ("Problema: …", "… porque …", "A -> B"); a benefit is a reason to use it.
_CAUSE = re.compile(r"\b(porque|pois|ya que|puesto que|dado que|j[aá] que|visto que|since|por eso|por isso|debido|"
                    r"devido|causa|causas|motivo|raz[oó]n|raz[aã]o|problema|"
                    r"problem|because|l[ií]mite|consecuencia|consequ[eê]ncia|so that)\b|->|=>|→", re.I)
_BENEFIT = re.compile(r"\b(ventaja|vantagem|desventaja|desvantagem|evita|permite|ahorra|economiza|mejora|melhora|"
                      r"para que|objetivo|debilidad|debilidade|inconveniente|limitaci[oó]n|limita[cç][aã]o|"
                      r"riesgo|risco|peligro|perigo|necesario|necess[aá]rio|importa|reduce|reduz|acelera|"
                      r"simplifica|facilita|recomendable|recomend[aá]vel)\b", re.I)
# "Problema: …" then "Solución: …": the cause and what is done about it answer together.
_PROBLEM_LABEL = re.compile(r"^\W*(problema|problem|causa|cause|motivo|raz[oó]n|raz[aã]o)\b[^:]{0,40}:", re.I)
_SOLUTION_LABEL = re.compile(r"^\W*(soluci[oó]n|solu[cç][aã]o|solution|fix|remedio|rem[eé]dio)\b[^:]{0,40}:", re.I)
# A line that turns from the explanation to something else: what to do about it, or an aside.
_ASIDE_LABEL = re.compile(r"^\W*(mitigaci[oó]n|mitiga[cç][aã]o|soluci[oó]n|solu[cç][aã]o|ventaja|vantagem|"
                          r"alternativa|nota|ejemplo|exemplo|problemas adicionales|outros problemas|"
                          r"compromiso|compromisso)\b", re.I)
# A heading that is the why question itself: "Por que Git sozinho não basta", "¿Por qué normalizar?"
_WHY_HEADING = re.compile(r"^\W*(por ?que|why)\b")
# Opening units of such a slide quoted: its reasons, one a line
WHY_UNITS = 3
# Units before the best one on its slide quoted with it for a "why": the reasoning that leads to it
WHY_PREMISES = 3
# A heading that compares ("Greedy vs beam search", "Síncrono frente a asíncrono", "Comparación: …")
_COMPARES = re.compile(r"\bvs\b|\bversus\b|\bfrente a\b|\bcompara", re.I)
# Words after which a difference question's second side gives context, not the side: "… del asíncrono *cuando
# hay un parameter server*", "… e artifact store *no MLflow*"
_CONTEXT = re.compile(r"\s(?:cuando|quando|when|en|em|no|na|nos|nas|in|on|con|com|with|para|for|dentro)\s", re.I)
# Units of a definition slide quoted for "what is X": its opening says what X is, what it is made of, what it does.
DEFINING_UNITS = 3
# A row names one side of a difference when its label holds this much more of that side than of the other ("Panel
# Distributions" for "el panel Histograms y el panel Distributions": "panel" is in both)
SIDE_MARGIN = 0.25
MAX_ROWS_LINES = 12  # of a slide that compares two things attribute by attribute, quoted whole up to this


def named_head(line: str) -> str:
    """What a line names before it says anything of it: "Paralelismo de modelo (model parallelism)" → "Paralelismo
    de modelo", "Batch efectivo = …" → "Batch efectivo", "DVC: ferramenta…" → "DVC" (bullet and gloss dropped)."""
    body = re.sub(r"^\s*[•◦▪\-*]\s+", "", line)
    return re.split(r"[:=(]", body, maxsplit=1)[0]


def is_title_line(line: str) -> bool:
    """Whether a line is a title slide's "what this session is" line ("Sesión: …", "Sessão: …", "Aula: …")."""
    return bool(_TITLE_LINE.match(re.sub(r"^\s*[•◦▪\-*]\s+", "", line)))


def never_answers(heading: str, text: str, page: int | None) -> bool:
    """Whether a page is a deck's title slide (its first page, holding a "Sesión:/Sessão:/Aula:" line) or its
    agenda: it names the deck's topics and answers none of them."""
    return bool(_AGENDA.match(fold(heading.split(" > ")[-1]))) or \
        page == 1 and any(map(is_title_line, text.split("\n")))


def summaries(read: list) -> set[int]:
    """The pages read (``read``: kb.answering's (hit, code) pairs) that are a deck's summary slide ("Resumo",
    "Resumen", "Conclusiones") while another page of that deck is read: a summary restates each topic in a line, the
    slide on the topic explains it."""
    out = set()
    for n, (h, _) in enumerate(read):
        if summary_title((h.chunk.locator.heading or "").split(" > ")[-1]) and any(
                m != n and o.chunk.source == h.chunk.source for m, (o, _) in enumerate(read)):
            out.add(n)
    return out


def clauses(question: str) -> list[str]:
    """A question's questions: "¿Qué es NCCL y qué hace con la topología?" is two, answered one by one."""
    parts = _SECOND.split(question)
    return [p for p in parts if p.strip()] or [question]


def defines(heading: str) -> bool:
    """Whether a heading's last part says its slide defines something ("X: definición", "X: idea")."""
    return bool(_DEFINES.search(heading.split(" > ")[-1]))


def names_of_heading(heading: str) -> str:
    """What a heading names, without what it says about it: "Parameter server: definición" → "Parameter server",
    "Top-p (nucleus) sampling" stays, "Beam search: procedimiento paso a paso" → "Beam search"."""
    last = heading.split(" > ")[-1]
    return last.split(":")[0]


def asks_why_use(question: str) -> bool:
    """Whether a "why" question asks why one would use something ("¿Por qué usar SWA?"): a benefit answers it."""
    return bool(_WHY_USE.search(fold(question)))


def states_cause(text: str, why_use: bool) -> bool:
    """Whether a unit states a cause ("Problema: …", "A -> B", "porque"); a benefit counts for "why use"."""
    return bool(_CAUSE.search(text)) or (why_use and bool(_BENEFIT.search(text)))


def is_consequence(line: str) -> bool:
    """Whether a line draws a consequence ("El ancho de banda del server es el límite -> el tiempo crece…"): it
    continues the line before it, which states what it follows from."""
    return bool(re.search(r"->|=>|→", line))


def asks_why(heading: str) -> bool:
    """Whether a heading asks or announces why ("Por que Git sozinho não basta", "¿Por qué normalizar?")."""
    return bool(_WHY_HEADING.match(fold(heading.split(" > ")[-1])))


def is_problem(line: str) -> bool:
    """Whether a line is labelled as a problem or cause ("Problema: cada token suma un log P negativo…")."""
    return bool(_PROBLEM_LABEL.match(re.sub(r"^\s*[•◦▪\-*]\s+", "", line)))


def is_solution(line: str) -> bool:
    """Whether a line is labelled as the solution ("Solución: dividir el score…")."""
    return bool(_SOLUTION_LABEL.match(re.sub(r"^\s*[•◦▪\-*]\s+", "", line)))


def is_aside(line: str) -> bool:
    """Whether a line turns from the slide's explanation to a remedy or an aside ("Mitigación: …", "Ventaja: …")."""
    return bool(_ASIDE_LABEL.match(re.sub(r"^\s*[•◦▪\-*]\s+", "", line)))


def compares(heading: str) -> bool:
    """Whether a heading compares things ("Greedy vs beam search")."""
    return bool(_COMPARES.search(heading.split(" > ")[-1]))


def without_cue(title: str, kind: str) -> str:
    """A slide title without the words that announce the kind of answer a question asks for ("ALiBi: definição" →
    "ALiBi:" for a what, "Por qué el warmup" → "el warmup" for a why, "Longformer vs BigBird" → "Longformer BigBird"
    for a difference): what is left names what the slide is about. Another kind's cue stays: a definition slide
    does not answer a why."""
    cue = {"what": _DEFINES, "why": _WHY_HEADING, "difference": _COMPARES}.get(kind)
    return cue.sub(" ", fold(title)) if cue else title


def without_context(side: str) -> str:
    """A difference's second side without the context that follows it ("asíncrono cuando hay un PS" → "asíncrono")."""
    return _CONTEXT.split(f" {side} ", maxsplit=1)[0]


# The choosers below read kb.answering's question (``q``: its _Question, whose text_terms(), label() and
# label_text() give a text's terms and a unit's label), its units and its scored units (``best``); they return units.

def defining_units(q: Any, best: Any, all_units: list) -> list | None:
    """The units of the slide that defines what a "what is X" question asks about, in the deck of the best unit:
    its heading names X (the first question's subject, wholly) and says it defines it ("X: definición"), is X
    alone ("Top-p (nucleus) sampling") or spells X out; "X: definición" first (None when no such slide is read)."""
    subject = q.first or q.subject
    found: list[tuple[bool, int]] = []
    source = q.read[best.unit.page][0].chunk.source  # another deck's slide is another course's answer
    for n, (h, _) in enumerate(q.read):
        heading = h.chunk.locator.heading or ""
        if h.chunk.source != source or (q.share(subject, q.text_terms(names_of_heading(heading))) < 0.99
                                        and not q.spelled(heading)):
            continue
        last = [t for t in q.text_terms(heading.split(" > ")[-1]) if not t.startswith("=")]
        alone = bool(last) and all(t in subject for t in last)
        if defines(heading) or alone or q.spelled(heading):
            found.append((not defines(heading), n))
    for _, n in sorted(found):
        page = [u for u in all_units if u.page == n and not u.is_code]
        if page:
            return page
    return None


def why_units(q: Any, best: Any, scored: list, page: list, max_lines: int) -> list:
    """A cause: the best unit that states one ("Problema: …", "A -> B", "porque"; a benefit only when the
    question asks why one would use something), with the solution that follows a problem, or the line a
    consequence ("… -> el tiempo crece con N") continues."""
    if best.unit.is_code:
        return [best.unit]
    if asks_why(q.read[best.unit.page][0].chunk.locator.heading or ""):
        # the slide titled as the question ("Por que Git sozinho não basta"): its opening lines are the reasons,
        # up to what it turns to (a remedy, an aside)
        reasons = []
        for u in sorted(page, key=lambda u: u.start):
            if is_aside(u.lines[0]):
                break
            reasons.append(u)
        opened = opening(reasons, WHY_UNITS, max_lines)
        if any(u is best.unit for u in opened):
            return opened
    in_order = sorted(page, key=lambda u: u.start)
    pos = next((i for i, u in enumerate(in_order) if u is best.unit), 0)
    if pos > 0 and not states_cause(best.unit.lines[0], q.why_use) \
            and q.read[best.unit.page][0].chunk.locator.page is not None:
        # a slide reasons top-down: the line that matches the question without stating a cause is most often where
        # the reasoning ends ("Resultado: la GPU queda infrautilizada", "Si un tensor guardado se modificó, backward
        # falla"), the lines before it are why; quoted with it, up to WHY_PREMISES of them (asides skipped). A line
        # that states its cause ("… -> ValueError") stands alone: on a slide of independent items it is one of them
        premises = [u for u in in_order[:pos] if not is_aside(u.lines[0])][-WHY_PREMISES:]
        while premises and sum(len(u.lines) for u in premises) + len(best.unit.lines) > max_lines:
            premises = premises[1:]
        return premises + [best.unit]
    if not states_cause(best.unit.text, q.why_use):
        cause = max((s for s in scored if s.unit.page == best.unit.page and s.unit is not best.unit
                     and states_cause(s.unit.text, q.why_use)), key=lambda s: s.score, default=None)
        return [best.unit] + ([cause.unit] if cause is not None else [])
    ordered = sorted(page, key=lambda u: u.start)
    at = next((i for i, u in enumerate(ordered) if u is best.unit), None)
    if at is None:
        return [best.unit]
    if is_problem(best.unit.lines[0]) and at + 1 < len(ordered) and is_solution(ordered[at + 1].lines[0]):
        return [best.unit, ordered[at + 1]]  # "Problema: …" then "Solución: …"
    before = ordered[at - 1] if at > 0 else None
    if before is not None and is_consequence(best.unit.lines[0]) and not q.label_text(best.unit) \
            and not is_aside(before.lines[0]) and not states_cause(before.text, False) and before.children == 0 \
            and not q.label_text(before):  # a labelled line ("Salida: input_ids…") stands alone, premise of nothing
        return [before, best.unit]  # "el server recibe N x M bytes" -> "el tiempo crece con N"
    return [best.unit]


def other_clauses(q: Any, picked: list, all_units: list) -> list:
    """For a question of two questions ("¿Qué es un PS y qué hacen los servers y los workers?"), the unit that
    answers each further one: the unit of a page read that holds most of its subject (in its label first, on
    the answer's page between equals); nothing when the answer already quotes it or no unit holds half of it."""
    out: list = []
    cands = [u for u in all_units if not u.is_code]
    for subject in q.more if picked and cands else []:
        def fit(u: Any, subject: list[str] = subject) -> tuple[float, float, bool, int]:
            return (q.share(subject, q.text_terms(u.text)), q.share(subject, q.label(u)), u.page == picked[0].unit.page,
                    -u.page)
        u = max(cands, key=fit)
        quoted = {line.strip() for v in [s.unit for s in picked] + out for line in v.lines}
        if fit(u)[0] >= 0.5 and not all(line.strip() in quoted for line in u.lines):
            out.append(u)
    return out


def difference_units(q: Any, best: Any, scored: list, all_units: list, sides: tuple[list[str], list[str]] | None,
                     lexical_weight: float) -> list:
    """Both sides of a difference (``sides``: kb.answering.difference_sides): the slide that compares them
    (:func:`comparison_units`), a list labelled with both ("Fast vs slow:"), a unit that names one side on a slide
    whose heading names the other, or the best unit labelled with each side; without sides, the best unit and the
    next of its page."""
    if not sides:
        second = max((s for s in scored if s.unit is not best.unit and s.unit.page == best.unit.page),
                     key=lambda s: s.score, default=None)
        return [best.unit] + ([second.unit] if second is not None else [])
    compared = comparison_units(q, best, all_units, sides) or side_rows(q, best, all_units, sides)
    if compared:
        return compared
    labelled = [s for s in scored if s.unit.children >= 2 and not s.unit.is_code
                and all(q.share(t, q.label(s.unit)) >= 0.5 for t in sides)]
    if labelled:
        return [max(labelled, key=lambda s: s.score).unit]
    on_both = [s for s in scored if all(q.share(t, q.heading(s.unit.page)) >= 0.99 for t in sides)]
    if on_both:  # "Full FT vs LoRA vs QLoRA": answer from that slide
        top_page = max(on_both, key=lambda s: s.score).unit.page
        scored = [s for s in on_both if s.unit.page == top_page]

    def names_one(s: Any) -> bool:  # names one side while its page's heading names the other
        text, head = q.text_terms(s.unit.text), q.heading(s.unit.page)
        named = [(q.share(t, head) >= 0.99, q.share(t, text) >= 0.99) for t in sides]
        return any(named[i][0] and not named[1 - i][0] and named[1 - i][1] for i in (0, 1))

    comparing = [s for s in scored if names_one(s)]
    if comparing:
        top = max(comparing, key=lambda s: s.score)
        return [s.unit for s in sorted((s for s in comparing if s.unit.page == top.unit.page),
                                       key=lambda s: -s.score)[:2]]

    def side_score(s: Any, terms: list[str]) -> float:  # a unit labelled with that side answers for it
        return (s.score + lexical_weight * q.share(terms, q.label(s.unit))
                + 0.5 * lexical_weight * q.share(terms, q.text_terms(s.unit.text)))

    a = max(scored, key=lambda s: side_score(s, sides[0]))
    b = max((s for s in scored if s.unit is not a.unit), key=lambda s: side_score(s, sides[1]), default=None)
    return [a.unit] + ([b.unit] if b is not None else [])


def row_label(line: str) -> str:
    """What a line is a row of: the words before its colon, "=" or parenthesis ("Potência (W): taxa…" → "Potência",
    "jacrev(f): jacobiana…" → "jacrev"), or, when none comes early, its first two words ("bfloat16 tem faixa…")."""
    head = named_head(line)
    if len(head) < len(line.strip()) and len(head) <= 60:
        return head
    return " ".join(re.sub(r"^\s*[•◦▪\-*]\s+", "", line).split()[:2])


def _share_of(terms: list[str], found: set[str], idf: dict[str, float]) -> float:
    """The idf share of ``terms`` in ``found``, whole words ("=histograms") counted too: a side may be only that."""
    total = sum(idf.get(t, 1.0) for t in terms)
    return sum(idf.get(t, 1.0) for t in terms if t in found) / total if total else 0.0


def side_rows(q: Any, best: Any, all_units: list, sides: tuple[list[str], list[str]]) -> list:
    """A difference answered by one slide's rows, one labelled with each side ("c10d: usa um TCPStore…" and "etcd:
    servidor externo…", "Potência (W): …" and "Energia (J ou kWh): …"): the first row labelled with each, in the
    slide's order. A side is what it names besides the words the slide's heading holds ("backends de rendezvous c10d"
    is c10d on "Backends de rendezvous"); a row labelled with both sides alike stands for neither. The best unit's slide
    first, then the other slides read of its deck; nothing when no slide has a row for each side."""
    source = q.read[best.unit.page][0].chunk.source
    order = [best.unit.page] + [n for n, (h, _) in enumerate(q.read)
                                if n != best.unit.page and h.chunk.source == source]
    for n in order:
        head = q.heading(n)
        own = [[t for t in side if t not in head] or side for side in sides]
        rows: list[Any] = [None, None]
        for u in sorted((u for u in all_units if u.page == n and not u.is_code), key=lambda u: u.start):
            label = q.text_terms(row_label(u.lines[0]))
            named = [_share_of(side, label, q.idf) for side in own]
            i = 0 if named[0] > named[1] else 1
            if named[i] >= 0.5 and named[i] - named[1 - i] >= SIDE_MARGIN:
                rows[i] = rows[i] or u
        if rows[0] is not None and rows[1] is not None:
            return sorted(rows, key=lambda u: u.start)
    return []


def comparison_units(q: Any, best: Any, all_units: list, sides: tuple[list[str], list[str]]) -> list:
    """A difference answered from a slide that compares its two sides: its heading compares ("Greedy vs beam
    search", "Síncrono vs asíncrono") and names a word of each side ("greedy decoding" is "Greedy" there); the
    unit labelled with each side (one list labelled with both, "Fast vs slow:", alone). The best unit's slide
    first, else the best such slide read; nothing when no slide read compares them."""
    pages = [n for n, (h, _) in enumerate(q.read) if compares(h.chunk.locator.heading or "")
             and all(any(t in q.heading(n) for t in side if not t.startswith("=")) for side in sides)]
    if not pages:
        return []
    n = min(pages, key=lambda n: (n != best.unit.page, n))
    on_page = [u for u in all_units if u.page == n and not u.is_code]

    def names(u: Any, side: list[str]) -> tuple[float, float, int]:
        return q.share(side, q.label(u)), q.share(side, q.text_terms(u.text)), -u.start

    a = max(on_page, key=lambda u: names(u, sides[0]), default=None)
    if a is not None and names(a, sides[1])[0] >= 0.5:
        return [a]
    b = max((u for u in on_page if u is not a), key=lambda u: names(u, sides[1]), default=None)
    def labelled(u: Any, side: list[str]) -> bool:  # "etcd: servidor…", or a line that is the side ("MC dropout")
        colon = ":" in u.lines[0][:80]
        return q.share(side, q.text_terms(q.label_text(u)) if colon else q.label(u)) >= 0.5

    if a is not None and b is not None and not labelled(a, sides[0]) and not labelled(b, sides[1]):
        # no row is labelled with a side: the slide compares them attribute by attribute ("Global: Longformer elige…;
        # BigBird ITC/ETC", "Aleatorio: solo BigBird"): every row that names a side, in order
        rows = [u for u in sorted(on_page, key=lambda u: u.start)
                if names(u, sides[0])[1] > 0 or names(u, sides[1])[1] > 0]
        return opening(rows, len(rows), MAX_ROWS_LINES)
    return [a, b] if a is not None and b is not None and names(a, sides[0])[1] > 0 and names(b, sides[1])[1] > 0 \
        else []


def opening(page: list, n: int, max_lines: int) -> list:
    """A slide's first ``n`` units in order, as many as fit in ``max_lines`` lines (the first always); an item of
    a list already quoted (kb.answering.labelled_items) is not quoted again."""
    out: list = []
    for u in sorted(page, key=lambda u: u.start):
        if {ln.strip() for ln in u.lines} <= {ln.strip() for v in out for ln in v.lines}:
            continue
        if len(out) == n or out and sum(len(v.lines) for v in out) + len(u.lines) > max_lines:
            break
        out.append(u)
    return out
