"""The offline writer's wording: question templates per language (``_T``), the regexes and word lists its patterns
read slides with, and the helpers that name a deck's subject, library and titles in a stem.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..lang import ARTICLE_WORDS, en, es, pt
from ..text import STOPWORDS, fold, leading_sentences, looks_like_code_line, words
from .checklist import CODE_NAME as _CODE_NAME
from .checks import _zipf, generic_title
from .ideas import dangling

# the question templates, per language in kb/lang/{es,pt,en}.py: _T[key][lang]
_T = {key: {lang: mod.TEMPLATES[key] for lang, mod in (("pt", pt), ("es", es), ("en", en)) if key in mod.TEMPLATES}
      for key in en.TEMPLATES}


def _t(key: str, lang: str, **kw: str) -> str:
    return _T[key].get(lang, _T[key]["en"]).format(**kw)


_ARTICLE = re.compile(r"^(el|la|los|las|un|una|o|a|os|as|um|uma|the|an)\s+", re.I)
# "Checkpoint completo = modelo + otimizador + …": a term (no code, no digits) said equal to its description
_EQUATION = re.compile(r"^(?P<t>[A-Za-zÀ-ÿ][\w .À-ÿ-]{0,40}?)\s=\s(?!True\b|False\b|None\b)(?P<d>[A-Za-zÀ-ÿ].{8,})$")
_PLURAL_VERB = {"son", "são", "are"}
_DEF = re.compile(
    r"^(?:(?P<ctx>(?:En|Em|In)\s[^,]{2,40}),\s+)?(?P<term>(?:(?!->)[^,;:()¿?]){2,60}?)\s+(?P<verb>es|son|é|são|is|are)\s+"
    r"(?P<def>.{12,})$")
_DEF_START = re.compile(r"^(un|una|el|la|los|las|um|uma|o|a|os|as|an|a|the)\s", re.I)
_NOT_DEF = re.compile(r"^(el que|la que|lo que|los que|las que|o que|a que|os que|as que|the one|"
                      r"importante|necesari|necessári|posible|possível|útil|esencial|essencial|clave|fundamental|"
                      r"común|comum|recomendable|preferible|preferível|mejor|melhor|más|mais|muy|muito|"
                      r"important|possible|useful|essential|key|better|more|very|capaz|able|"
                      r"praticamente|prácticamente|basicamente|básicamente|practically|basically|"
                      r"el ejemplo|un ejemplo|o exemplo|um exemplo|the example|an example)", re.I)
_PRONOUN = {"esto", "esta", "este", "estas", "estos", "eso", "esa", "ese", "isso", "isto", "essa", "esse", "estes",
            "this", "that", "these", "those", "it", "ello", "ele", "ela", "eles", "elas", "they", "cada", "todo",
            "toda", "todos", "todas", "algunos", "algunas", "alguns", "algumas", "muchos", "muitos", "many", "some",
            "muchas", "muitas", "ambos", "ambas", "both", "varios", "varias", "several", "otros",
            "otras", "outros", "outras", "most", "pocos", "poucos", "few"}
_META = re.compile(r"^(Descreve|Explica|Introduz|Aborda|Apresenta|Discute|Menciona|Mostra|Describe|Introduce|Presenta|"
                   r"Muestra|Describes|Explains|Introduces|Shows|Discusses|Brevemente|O capítulo|El capítulo|"
                   r"The chapter|Lab\b|Fuente|Fonte|Source)", re.I)
# a label that introduces an example or a scenario: its details are illustration, not course facts
_EXAMPLE_LABEL = re.compile(r"(?i)^(?:por ejemplo|por exemplo|for example|ejemplos?|exemplos?|examples?|escenarios?|"
                            r"cen[aá]rios?|scenarios?|caso de estudio|caso de estudo|case study)\b")
GENERIC_LABEL = re.compile(r"^(dos|tres|cuatro|dois|duas|três|quatro|two|three|four|principales|principais|main|"
                            r"por ejemplo|por exemplo|for example|ejemplo|exemplo|example|"
                            r"escenario|cen[aá]rio|scenario|nota|note|obs|soluç|solucion|rem[eé]dios?\b|remed(?:y|ies)\b|"
                            r"mitigaci|mitigaç|mitigation|debug\b|depuraci|depuraç|usos\b|uses\b|aplicaciones|aplicações|applications\b|"
                            r"solution|resumo|resumen|summary|objetivo|objective|lab\b|fuente|fonte|source|ventajas|"
                            r"desventajas|vantagens|desvantagens|advantages|disadvantages|beneficios|benefícios|"
                            # what a bullet is (a rule, a caveat, a step), not a term it defines
                            r"regla|regra|rule of thumb|limitaci|limitaç|limitation|alternativa|alternative|costo\b|"
                            r"custo\b|cost\b|frecuencia|frequência|frequency|idea\b|ideia|consejo|dica|tip\b|cuidado|"
                            r"atenci|atenç|warning|advertencia|aviso|importante|important|problema|problem|síntoma|"
                            r"sintoma|symptom|causa\b|cause\b|efecto|efeito|effect|resultado|result|requisito|"
                            r"requirement|recomendaci|recomendaç|recommendation|consecuencia|consequência|consequence|"
                            r"definici|definiç|definition|ventaja\b|vantagem\b|desventaja\b|desvantagem\b|"
                            r"procedimiento|procedimento|procedure|analog|ojo\b|olho\b|patr[oó]n\b|padr[aã]o\b|"
                            r"pattern\b|trade-?offs?\b|interpreta|caso de uso|casos de uso|use cases?\b|usuarios|"
                            r"usuários|users\b|"
                            r"advantage\b|disadvantage\b|criterio|critério|criterion|motivaci|motivaç|contexto\b|"
                            r"(?:paso|passo|step|fase|phase|etapa)"
                            r"\s*\d)", re.I)
_RETURNS = re.compile(
    r"^(?:(?P<det>El método|La función|El atributo|O método|A função|The method|The function)\s+)?"
    r"(?P<id>[A-Za-z_][\w.]*\(\)|[A-Za-z_]+(?:[._][A-Za-z0-9_]+)+)\s+"
    r"(?P<verb>nos devuelve|devuelve|retorna|returns|se utiliza para|se usa para|é usad[oa] para|is used to)\s+"
    r"(?P<rest>.{8,})$")
_CATEGORY = re.compile(
    r"\b(?P<cat>clase|método|metodo|función|funcion|opción|opcion|parámetro|parametro|argumento|classe|função|funcao|"
    r"opção|opcao|parâmetro|class|method|function|option|parameter|argument)\s+"
    r"(?P<id>[A-Za-z_][\w.]*(?:\(\))?)", re.I)
_CAT_GROUP = {"clase": "class", "classe": "class", "class": "class",
              "método": "callable", "metodo": "callable", "función": "callable", "funcion": "callable",
              "função": "callable", "funcao": "callable", "method": "callable", "function": "callable",
              "opción": "option", "opcion": "option", "opção": "option", "opcao": "option", "parámetro": "option",
              "parametro": "option", "parâmetro": "option", "argumento": "option", "option": "option",
              "parameter": "option", "argument": "option"}
_PURPOSE = re.compile(r"^(?P<imp>\w+)\s+(?P<obj>.+?)\s+(?:para|to|in order to|a fin de)\s+(?P<goal>[a-záéíóúç].{10,})$")
_VAGUE_GOAL = re.compile(r"^(comprender|entender|conocer|mejorar|facilitar|ayudar|compreender|melhorar|ajudar|"
                         r"understand|improve|help|better)\b", re.I)
# "Para guardar el estado del modelo, utilizamos el método torch.save() y …": how to reach a goal
_HOW_FOR = re.compile(r"^(?:Para|To)\s+(?P<goal>[^,:;]{6,100}),\s+"
                      r"(?P<how>(?:(?:primero|first)\s+)?(?:necesitamos|debemos|"
                      r"hay que|se debe|se necesita|utilizamos|usamos|precisamos|devemos|é preciso|utilizamos|"
                      r"we need to|you need to|we use|use)\s.{8,})$", re.I)
# "Podemos obtener los nombres de las capas … utilizando el método named_modules() o …"
_HOW_BY = re.compile(r"^(?:(?:También|Además|Também)\s+)?(?:podemos|puedes|se puede|se pueden|podemos|pode-se|"
                     r"você pode|we can|you can)\s+(?P<goal>[a-záéíóúç][^,;:]{6,100}?)\s+(?:utilizando|usando|mediante|"
                     r"using|by)\s+(?P<means>[^,;:]{4,120}?)\.?$", re.I)
# "Si deseas mover un modelo desde la CPU a la GPU o viceversa, utiliza los métodos to() o cuda() …"
_HOW_IF = re.compile(r"^(?:Si|Se|If)\s+(?:deseas|quieres|necesitas|desea|quiere|necesita|você quiser|você deseja|"
                     r"you want to|you need to)\s+(?P<goal>[^,;:]{6,100}),\s+(?P<how>(?P<imp>\w+)\s.{6,})$", re.I)
# "Cargar el estado del modelo nos permite reanudar la capacitación …": what something enables
_ENABLES = re.compile(r"^(?:(?P<ctx>(?:En|Em|In)\s[^,]{2,40}),\s+)?(?P<subj>[^,;:¿?]{4,80}?)\s+"
                      r"(?:nos\s+|te\s+|les\s+|us\s+)?"
                      r"(?P<verb>permite|permiten|permitem|allows|allow)\s+(?P<what>[^;:]{10,})$")
# "Al cargar solo los parámetros, es importante asegurarse de que la estructura …": a caveat of an action
_CAVEAT = re.compile(r"^(?:Al|Ao|When)\s+(?P<sit>[a-záéíóúç]+(?:ar|er|ir|ing)\b[^,;:]{4,90}),\s+"
                     r"(?P<lead>es importante asegurarse de(?: que)?|es importante considerar|es importante|"
                     r"asegúrate de(?: que)?|debemos asegurarnos de(?: que)?|hay que|se debe|"
                     r"é importante garantir que|certifique-se de(?: que)?|make sure(?: that| to)?)\s+"
                     r"(?P<what>[^;:]{8,})$",
                     re.I)
_GERUND = re.compile(r"\s(?=\w+(?:ando|iendo|endo|ndo)\b)")
_SCOPE = re.compile(
    r"^(?P<pre>.+?)\s+(?:solo|sólo|solamente|apenas|somente|só|only)\s+(?P<x>(?:en|a|para|con|em|no|na|nos|nas|on|in|to|for)\s.+?)"
    r"\s+(?:y|e|and)\s+(?:no|não|not)\s+(?P<y>(?:en|a|para|con|em|no|na|nos|nas|on|in|to|for)\s.+?)\.?$")
_SCOPE_LEAD = re.compile(r"^(Asegúrate de|Asegúrese de|Recuerda|Recuerde|Certifique-se de|Lembre-se de|"
                         r"Make sure (?:to|you)|Remember to|Es importante|É importante)\s+", re.I)
_VS = re.compile(r"^(?P<a>[A-Z][\w .]{2,40}?)\s*(?:!=|≠|vs\.?|versus)\s*(?P<b>[A-Z][\w .]{2,40}?)(?:\s*\(.*\))?\.?$")
# one-word labels that are adjectives need their noun in the context ("Static", "Distribuído", "Síncrono")
_ADJECTIVE = re.compile(r"(ico|ica|ido|ida|ado|ada|ente|ante|ono|ona|ic|ed|ous|ive|ivo|iva)$")
_ROMANCE_FUNCTION_WORDS = frozenset("de del la el los las en que y para con por una un da do das dos em no na e"
                                    " um uma".split())
# (folded) endings of words that are no nouns: adverbs, infinitives, gerunds, participles, and adjectives in
# "-ático" ("descarga _____ de los pesos" → automática: both raters of the review decks dropped it)
NOT_NOUN_W = re.compile(r"(mente|[aei]r|ndo|[aei]das?|[aei]dos?|atic[ao]s?)$")
_TECH = re.compile(r"^(?:[A-Z]{2,}[0-9-]*s?|[A-Za-z]+(?:[._-][A-Za-z0-9]+)+\(?\)?|[A-Z][a-z]+(?:[A-Z][a-z0-9]+)+)$")


# questions that ask to explain, compare or apply (how, steps, where, the difference) rank a
# little above recall of one line at the same centrality (hand-set, writer v3)
_EXPLAIN = frozenset({"compare", "steps", "how", "scope", "parts"})
_EXPLAIN_BONUS = 0.2
_THIN_PENALTY = 0.6
# short questions whose concepts are the model answer's own phrases (:func:`phrase_concepts`); a
# list of parts, steps or remedies keeps the names its writer chose
_PHRASED = frozenset({"definition", "compare", "purpose", "enables"})
# "Un modelo en PyTorch se compone de dos componentes principales: la arquitectura … y los parámetros …"
_PARTS = re.compile(
    r"^(?P<whole>[A-ZÁÉÍÓÚ][^:;]{3,80}?)\s+(?:se compone de|se componen de|consta de|constan de|está formad[oa] por|"
    r"están formad[oa]s por|está compuest[oa] por|é compost[oa] por|são compost[oa]s por|é formad[oa] por|"
    r"consists of|is made up of|is composed of)\s+(?P<n>dos|tres|cuatro|dois|duas|três|quatro|two|three|four)\s+"
    r"(?P<kind>[^:,;]{3,40}?)\s*:\s*(?P<parts>.+?)\.?$")
_PLACE_LEAD = re.compile(r"^(?:en|em|in|on|no|na|nos|nas)\s+(?:el|la|los|las|o|a|os|as|the)?\s*", re.I)
_NUMBER = {"dos": 2, "tres": 3, "cuatro": 4, "dois": 2, "duas": 2, "três": 3, "quatro": 4, "two": 2, "three": 3,
           "four": 4}


@dataclass(frozen=True)
class Entity:
    """A named code entity the course mentions with its kind: ``la clase Sampler``."""

    group: str  # class | callable | option
    name: str
    source: str


def _title_ok(title: str) -> bool:
    """A title a question can name: words, not a URL, footnote, code or file name."""
    return bool(title) and len(words(title)) >= 1 \
        and not re.search(r"https?|www\.|[¹²³⁴⁵⁶⁷⁸⁹⁰]|\(.*\)\.|\.ipynb|=|^\W", title) \
        and sum(ch.isalpha() for ch in title) >= 0.6 * len(title)


def lower_first(s: str) -> str:
    """A sentence's first letter in lower case, to follow "En X, …"; a name keeps its case ("DDP",
    "ResNet-50", "A100", "Megatron-LM", "U-Net": "En PyTorch, resNet-50 …", "En megatron-LM, …" before)."""
    first = s.split(" ", 1)[0] if s else ""
    if not s or len(s) > 1 and s[1].isupper() or re.search(r"[a-z][A-Z]|-[A-Z]|\d", first) \
            or re.match(r"[A-Z]\w+ (?:et al\.|& )", s):
        return s  # (an author: "Jaderberg et al. (2017): …")
    return s[:1].lower() + s[1:]


# a tool a title names after its subject ("… con PyTorch Geometric", "… com Dask", "… en PyTorch 2")
_TITLE_TOOL = re.compile(r"\s+(?:con|com|with|en|em|no|in|desde|para|for)\s+(?=[A-Z]|tf\.|torch\.).*$")
_TITLE_TAIL = re.compile(r"\s+(?:en|em|in)\s+(?:escala|larga escala|large scale|producción|produção|production)\b.*$",
                         re.I)
# the whole field a title says its topic is done with, which narrows nothing ("Segmentación de imágenes médicas con
# deep learning", "Reconhecimento óptico de texto com deep learning": the topic is what comes before)
_TITLE_FIELD = re.compile(r"\s+(?:con|com|with|using|mediante|usando)\s+(?:el\s+|o\s+)?"
                          r"(?:deep learning|machine learning|aprendizaje (?:profundo|automático)|"
                          r"aprendizado (?:profundo|de máquina)|"
                          r"redes (?:neuronales|neurais)(?: profundas)?|neural networks)\s*$", re.I)
# the acronym a title names its topic by ("Mixture of Experts (MoE)", "Redes neuronales informadas por la física
# (PINNs)"): a name, as written; the acronym alone where the title is too long to open a stem on
_ACRONYM = re.compile(r"\((?P<a>[A-Z][A-Za-z0-9-]*[A-Z](?:s)?)\)")
_MIXED = re.compile(r"\((?P<a>[A-Z][a-z0-9-]*[A-Z][A-Za-z0-9-]*)\)")  # ("ToMe": capitals, then lower case)

# where a title too long to be a setting places its subject: "Eficiência energética no treinamento de redes neurais"
_TITLE_SETTING = re.compile(r"\s(?:en|em|no|na|nos|nas|in|durante|during|para|for)\s")


def _acronym(head: str) -> re.Match[str] | None:
    """The acronym in brackets a title names its topic by: upper case ("MoE", "PINNs"), or mixed case whose capitals
    are the initials of the words before it ("Token Merging (ToMe)"; not a tool or a gloss: "(PyTorch)",
    "Hiperredes (HyperNetworks)")."""
    if m := _ACRONYM.search(head):
        return m
    m = _MIXED.search(head)
    if m is None:
        return None
    caps = re.sub(r"[^A-Z]", "", m.group("a"))
    before = words(head[:m.start()])[-len(caps):]
    return m if "".join(w[:1].upper() for w in before) == caps else None


# a chapter's label, which says where a deck stands in its course and nothing of what it teaches
CHAPTER_WORDS = (r"cap[ií]tulo|chapter|tema|aula|clase|class|lecci[oó]n|lesson|li[cç][aã]o|unidad|unidade|unit|"
                 r"m[oó]dulo|module|semana|week|lecture|parte|part|sesi[oó]n|sess[aã]o|session")  # (an alternation)
CHAPTER = re.compile(rf"(?:{CHAPTER_WORDS})\s+(?:\d+|[IVX]+)\.?", re.I)


def deck_topic(title: str, limit: int = 6, is_name: Callable[[str], bool] = lambda w: False) -> str:
    """What a deck is about, as a stem's "En …," can say it, from its title: the part before ":"
    without the tools it names or a setting ("Redes neuronales en grafos con PyTorch Geometric" →
    "redes neuronales en grafos", "Otimização de hiperparâmetros em escala" → "otimização de
    hiperparâmetros", "Entrenamiento con precisión mixta y optimización de memoria en PyTorch" →
    "entrenamiento con precisión mixta"; after a chapter's label, what follows it: "Tema 3: Redes
    convolucionales" → "redes convolucionales"); "" when nothing of at most ``limit`` words is left or the
    title is a name alone ("Keras 3", "JAX") or opens with a verb ("Acelerando Python numérico").
    A title's capitals are no name's ("Carga Eficiente de Datos" → "carga eficiente de datos"), but
    a word ``is_name`` says is one keeps its case ("Vision Transformers (ViT)", "Ray para …")."""
    parts = re.split(r":\s", title.strip(), maxsplit=1)
    head = parts[1] if len(parts) == 2 and CHAPTER.fullmatch(parts[0].strip()) else parts[0]  # "Capítulo 12: …"
    head = _TITLE_FIELD.sub("", _TITLE_TAIL.sub("", _TITLE_TOOL.sub("", head))).strip()
    named = _acronym(head)
    # (an acronym after the title's setting names where, not what: "Entrenamiento de modelos en la unidad de
    # procesamiento gráfico (GPU)" is about training)
    setting = _TITLE_SETTING.search(head)
    if named and len(words(head)) > limit and not listing(head) and not re.search(r"\s(?:y|e|and)\s", head) \
            and not (setting and setting.start() < named.start()):
        return named.group("a")  # ("En PINNs, …": the whole title is too long a setting)
    gloss = re.search(r"\s*\([^()]*\)$", head)
    if gloss and not named and len(words(head)) > limit:  # ("Ataques de inferência de pertinência (Membership
        head = head[:gloss.start()]  # Inference)": its gloss in another language makes it no longer a subject)
    if listing(head) and len(words(head)) > limit:
        # "Parameter servers, ring all-reduce y colectivas NCCL": the whole list, up to LISTING_WORDS words; its
        # first part, cut at its "y", was a fragment ("En parameter servers, ring all-reduce, ¿…?": both r7 raters)
        if len(words(head)) > LISTING_WORDS:
            return ""
        limit = LISTING_WORDS
    elif len(words(head)) > limit:  # "… y optimización de memoria": its first subject
        head = re.split(r"\s(?:y|e|and)\s", head, maxsplit=1)[0]
        if re.fullmatch(r"[A-Z][A-Za-z0-9-]*[A-Z][A-Za-z0-9-]*", head):  # "GRPO y aprendizaje …", "PagedAttention e o
            return head  # gerenciamento de memória do vLLM": a name (two capitals at least)
        if len(words(head)) > limit:  # "Eficiência energética no treinamento de redes neurais": what, not where
            head, limit = _setting_cut(head, limit)
    ws = words(head)
    if len(ws) > limit or len(ws) < 2 or dangling(head) or head.count("(") != head.count(")") \
            or re.search(r"(?:ando|endo|indo)$", fold(ws[0])) or infinitive(ws[0]):
        return ""  # ("Exportar modelos a ONNX …": "En exportar modelos, …" is no setting)
    if _acronym(head):  # "Mixture of Experts (MoE)": a name, as written (the acronym still in what is left)
        return head
    ws_ = head.split(" ")
    titled = [bool(re.fullmatch(r"[A-ZÁÉÍÓÚ][a-zà-ÿ]+,?", w)) for w in ws_]
    keep = [not t or is_name(w.rstrip(",")) for w, t in zip(ws_, titled, strict=True)]
    for i in range(len(ws_) - 2, -1, -1):  # ("Cooperative Groups": an English name's first word keeps its capital with
        # it; "Biblioteca Thrust" is a word of the deck's language before a name: "a biblioteca Thrust")
        english = _zipf(ws_[i], "en") >= max(_zipf(ws_[i], "es"), _zipf(ws_[i], "pt"))
        keep[i] = keep[i] or titled[i] and titled[i + 1] and keep[i + 1] and english
    topic = " ".join(w if k else w.lower() for w, k in zip(ws_, keep, strict=True))
    if ws_ and fold(ws_[0]) in ARTICLE_WORDS:  # ("A Biblioteca Thrust" → "a biblioteca Thrust": "Em a" contracts)
        topic = topic[:1].lower() + topic[1:]
    # the whole course's field narrows nothing ("Em redes neurais, qual é a vantagem de ExecuTorch?", split AD)
    return "" if fold(topic) in _WHOLE_FIELD else topic


def _setting_cut(head: str, limit: int) -> tuple[str, int]:
    """A long title's head cut at the first setting word that leaves a phrase ("Métodos para optimizar la memoria en
    el entrenamiento de …": its "para" leaves one word, its "en" the topic), and the limit it is read with: a word or
    two past it for one thing done with another, neither a tool nor the field ("Visión por computador con cámaras de
    eventos": "" left the deck unset and its stems without context, round 32: 7 of 12 written)."""
    cuts = [m.start() for m in _TITLE_SETTING.finditer(head) if len(words(head[:m.start()])) >= 2]
    head = head[:cuts[0]] if cuts else head
    if len(words(head)) <= min(LISTING_WORDS, limit + 2) and re.search(r"\s(?:con|com|with)\s", head):
        return head, min(LISTING_WORDS, limit + 2)
    return head, limit


LISTING_WORDS = 8  # most words of a title that lists things to be a stem's setting whole (hand-set: the two
# r6/r7 decks whose titles list three things have 7)


def listing(title: str) -> bool:
    """A title (before its ":") that lists things ("Parameter servers, ring all-reduce y colectivas NCCL",
    "Batch size, gradient accumulation y large-batch training"): its head is no subject a reader names the
    deck by ("En parameter servers, ring all-reduce, ¿…?": both r7 raters of the deck fixed it)."""
    head = re.split(r":\s", title.strip(), maxsplit=1)[0]
    return bool(re.search(r"\w,\s+\w", re.sub(r"\([^)]*\)", "", head)))


_WHOLE_FIELD = frozenset(("redes neurais", "redes neuronales", "redes neurais profundas", "redes neuronales profundas",
                          "deep learning", "aprendizaje profundo", "aprendizado profundo", "neural networks",
                          "deep neural networks", "machine learning", "aprendizaje automatico",
                          "aprendizado de maquina"))


# a bullet's label that says its role about the slide's subject, and the question that asks it
_ROLE = {**dict.fromkeys(("coste", "custo", "costo", "cost"), "role_cost"),
         **dict.fromkeys(("idea", "ideia", "idea central", "ideia central", "idea clave", "ideia-chave", "key idea"),
                         "role_idea"),
         **dict.fromkeys(("problema", "problem"), "role_problem"),
         **dict.fromkeys(("ventaja", "vantagem", "advantage"), "role_advantage"),
         **dict.fromkeys(("limitacion", "limitacao", "limitation"), "role_limit")}
# labels that say the slide's subject is the remedy: a "Problema:" beside one of them is what it solves
_REMEDY_LABELS = frozenset({"solucion", "solucao", "solution", "remedio", "fix", "idea", "ideia", "ventaja", "vantagem",
                            "advantage"})


# words in -a (and -ão) that take "el"/"o": "el sistema", "o problema", "o padrão"
_MASCULINE_A = frozenset("""sistema problema programa esquema diagrama paradigma tema teorema dilema idioma clima
mapa dia planeta cometa padrao""".split())


def _feminine(head: str) -> bool:
    """A Spanish or Portuguese noun (folded) that takes "la"/"a": by its ending, every "-ión" included
    ("la fusión", "la versión": "el fusión" was split AB's), but "el sistema", "o padrão"."""
    return head.endswith(("a", "ao", "dad", "ion", "ade", "ie", "agem", "tud")) and head not in _MASCULINE_A


def _of(shown: str, lang: str) -> str:
    """"de" before a subject, contracted with its article: "do checkpoint", "da cuantização", "de QAT"."""
    if lang == "pt":
        m = re.match(r"^(o|a|os|as)\s+(.*)$", shown)
        return f"d{m.group(1)} {m.group(2)}" if m else f"de {shown}"
    if lang == "es":
        return re.sub(r"^el\s", "del ", shown) if shown.startswith("el ") else f"de {shown}"
    return f"of {shown}"


def infinitive(word: str) -> bool:
    """A Spanish or Portuguese infinitive ("Exportar", "Servir"), not an English word ("Transformer", "Cluster")."""
    w = fold(word)
    return bool(re.fullmatch(r"[a-z]{4,}(?:ar|er|ir)", w)) and _zipf(w, "en") < 2 \
        and max(_zipf(w, "es"), _zipf(w, "pt")) > 0


def _situate(prompt: str, about: str, lang: str) -> str:
    """"¿Qué son los parámetros?" → "En «Estructura de un modelo en PyTorch», ¿qué son los parámetros?"."""
    lead = {"pt": "Em", "es": "En"}.get(lang, "In")
    body = "¿" + prompt[1].lower() + prompt[2:] if prompt.startswith("¿") else prompt[0].lower() + prompt[1:]
    return f"{lead} «{about}», {body}"


def framework(texts: Sequence[str]) -> str:
    """The library a source's code and titles name most (the first of :func:`frameworks`); "" when
    the source names none."""
    found = frameworks(texts)
    return found[0][0] if found else ""


def _named_in_parts(word: str) -> bool:
    """Each capital of ``word`` opens a part of two letters or more ("TensorFlow": Tensor, Flow), as a name
    whose capitals spell its module has; an abbreviation's lone capitals do not ("NaN" is no nn, "IoU" no iu)."""
    return all(len(part) >= 2 for part in re.findall(r"[A-Z][a-z]*", word))


def frameworks(texts: Sequence[str]) -> list[tuple[str, str]]:
    """The libraries a source's code names, most named first, each as (name, module root): the
    frequent roots of its dotted code names (torch.save(), tf.distribute…) matched to a CamelCase
    word of the same source that contains it ("PyTorch") or whose capitals spell it ("TensorFlow"
    for tf), or the root itself written as a name at least as often ("Ray" for ray.remote, not
    "KubeRay"). A deck on Optuna and Ray Tune names two."""
    text = "\n".join(texts)
    roots = Counter(n.split(".")[0] for n in _CODE_NAME.findall(text) if "." in n.strip(".") and n[:1].islower())
    camel = Counter(w for w in re.findall(r"\b[A-Za-z]*[a-z][A-Z][A-Za-z]*\b", text))
    prose = "\n".join(ln for ln in text.split("\n") if not looks_like_code_line(ln))
    found: list[tuple[str, str]] = []
    for root, _ in roots.most_common(4):
        r = root.lower()
        if len(r) < 2 or not r.isalpha():
            continue
        if re.search(rf"(?m)^\s*{re.escape(root)}\s*=[^=]", text):
            continue  # a variable the code assigns ("net = Net()": "Em Net, …" in a Flower deck), no library
        # the library's name ends with its module (PyTorch: torch) or its capitals spell it
        # (TensorFlow: tf); "DistributedSampler" merely contains "dist" (import … as dist)
        fits = [(n, w) for w, n in camel.items()
                if len(r) >= 3 and w.lower().endswith(r) and w.lower() != r
                or "".join(ch for ch in w if ch.isupper()).lower() == r and _named_in_parts(w)]
        # the module's own name written as a name ("Ray" for ray.remote) beats a product named
        # after it ("KubeRay"), when the source writes it at least as often
        # (said in prose: "Net" and "Context" are classes the code names, "Ray" is what the slides say)
        own = len(re.findall(rf"\b{re.escape(root.capitalize())}\b", prose)) if len(r) >= 3 else 0
        name = root.capitalize() if own >= 3 and (not fits or own >= max(fits)[0]) else max(fits)[1] if fits else ""
        if found and not re.search(rf"(?m)^\s*(?:import|from)\s+{re.escape(root)}\b", text):
            continue  # a second library is one the code imports ("import optuna"), not a variable
            # ("scaler.scale(…)" → GradScaler, "model.eval()" → Model)
        if name and all(fold(name) != fold(n) for n, _ in found):
            found.append((name, r))
    return found


def slide_library(libraries: Sequence[tuple[str, str]], text: str) -> str:
    """Which of a source's libraries (:func:`frameworks`) a slide's ``text`` is about: the one it
    names most, by name or by its code's root ("optuna.create_study", "Optuna"); the source's first
    where the slide names none of them. "Em Tune, o que é o recurso?" was asked of an Optuna slide
    in a deck whose code names Ray Tune more often."""
    if len(libraries) < 2:
        return libraries[0][0] if libraries else ""
    said = [len(re.findall(rf"(?i)\b{re.escape(name)}\b", text)) + len(re.findall(rf"\b{re.escape(root)}\.\w", text))
            for name, root in libraries]
    best = max(range(len(libraries)), key=lambda i: said[i])
    return libraries[best if said[best] else 0][0]


def title_subject(title: str, texts: Sequence[str]) -> str:
    """The name a "Name: topic" title opens on, as the source writes it elsewhere ("DTENSORS:
    Conceptos" → "DTensor", "Keras: Layers y Models" → "Keras"); "" when the title has none."""
    head = title.split(":", 1)[0].strip()
    if ":" not in title or not head.isalpha() or len(head) < 3 or fold(head) in RHETORIC_HEAD:
        return ""  # ("Arquitectura: la pila de compilación": the kind of slide, no name)
    want = {fold(head), fold(head).rstrip("s")}
    found = [w for t in texts for w in re.findall(r"\b[A-Za-z]{3,}\b", t) if fold(w) in want]
    seen = Counter(w for w in found if not w.isupper() and not w.islower())
    if head.isupper() and sum(w == head for w in found) > max(seen.values(), default=0):
        return head  # an acronym the text writes as the title does ("TMA: ¿qué es?" → TMA, not the code's "tmA")
    if not seen:
        return ""
    best = max(seen, key=lambda w: (bool(re.search(r"[a-z][A-Z]|^[A-Z]{2}[a-z]", w)), seen[w]))
    if not re.search(r"[a-z][A-Z]|^[A-Z]{2}[a-z]", best):
        # a plain word the text writes in lower case more often than as a name inside a sentence is a
        # section's heading, no name: "Datos: formatos de anotación", "Storage: volumes e PVC" (both
        # raters of split U: "'En Datos' is a slide title"); "Keras: Layers y Models" keeps Keras
        inside, low = name_uses(best, "\n".join(texts))
        if low > inside:
            return ""
    return best


def q_unsituated(prompt: str) -> bool:
    """No "En X, …" context opens the prompt."""
    return not re.match(r"^(?:¿\s*)?(?:En|Em|In)\s", prompt)


def spelled_in(ident: str, description: str, others: Sequence[str]) -> bool:
    """A word of the description opens a part of the code name and of no other option's: "columnas" →
    colsample_bytree among subsample, reg_lambda, reg_alpha."""
    def opens(name: str, w: str) -> bool:
        return any(len(p) >= 3 and fold(w)[:3] == p[:3] for p in re.split(r"[_\W]+", name.lower()))
    return any(len(w) >= 4 and fold(w) not in STOPWORDS and opens(ident, w) and not any(opens(o, w) for o in others)
               for w in words(description))


def _skeleton(w: str) -> str:
    return fold(w)[:1] + re.sub(r"[aeiouy]", "", fold(w)[1:])


def _abbreviates(ident: str, text: str) -> bool:
    """A short part of a code name abbreviates a word of the text, in any language: its
    consonants open that word's consonants ("__len__()" → "longitud", "str" → "string")."""
    parts = [p for p in re.split(r"[^A-Za-z]+", ident) if 3 <= len(p) <= 4]
    return any(len(_skeleton(p)) >= 2 and _skeleton(w).startswith(_skeleton(p))
               for p in parts for w in words(text) if len(w) > len(p) and fold(w) not in STOPWORDS)


def whole_sentences(answer: str, limit: int) -> str:
    """The answer cut to whole sentences within limit characters, without a last sentence
    that announces what was cut ("Por exemplo:") or a dangling list letter ("D."); "" when
    not even its first sentence fits."""
    if len(answer) <= limit:
        return answer
    kept = leading_sentences(answer, limit)
    kept = re.sub(r"(?:\s+[A-Z]\.)+$", "", kept)
    while kept.endswith(":"):
        cut = max(kept.rfind(". ", 0, len(kept) - 1), kept.rfind("? ", 0, len(kept) - 1))
        kept = kept[:cut + 1] if cut > 0 else ""
    return kept


def _plain_title(title: str) -> str:
    """A slide title as plain context: its topic after a "Section: topic" colon, no
    parenthesis, first letter lowered ("Distributed training en TF: Data parallelism" →
    "data parallelism")."""
    t = re.sub(r"\s*\([^)]*\)", "", title.rsplit(":", 1)[-1]).strip()
    if ":" in title and generic_title(t):  # "Versionamento de modelos: conceitos": the section is the topic
        t = re.sub(r"\s*\([^)]*\)", "", title.rsplit(":", 1)[0]).strip()
    ws = t.split()
    if sum(w[:1].isupper() for w in ws) * 2 > len(ws):  # Title Case: its capitals are no names
        t = " ".join(w.lower() if w[:1].isupper() and w[1:].islower() else w for w in ws)
    return lower_first(t) if len(words(t)) >= 1 and not generic_title(t) else ""  # ("…: conceitos")


_PLAIN_ARTICLE = re.compile(r"^(un|una|el|la|los|las|um|uma|o|a|os|as|an|the)\s", re.I)
_THIRD_PERSON_NEXT = frozenset(
    "el la los las un una lo le les que a al de del su sus o os as um uma no na se the".split())


def _qualified(label: str, context: str, lang: str) -> str:
    """What a one-word adjective label qualifies when the context names it ("Síncrono" under
    «Promediado síncrono vs asíncrono» → "el promediado síncrono"): asking what the bare adjective
    "means" asks for a word, not the idea. "" when the label is no such adjective."""
    ws = context.split()
    if " " in label.strip() or len(ws) < 2 or not _ADJECTIVE.search(fold(label)) or _TECH.match(label):
        return ""
    if fold(label) not in {fold(w.strip(",.:;()")) for w in ws[1:]}:
        return ""
    head = ws[0].strip(",.:;()")
    if fold(head) in _ROMANCE_FUNCTION_WORDS or fold(head) in STOPWORDS or not head.isalpha() \
            or _ADJECTIVE.search(fold(head)) and not fold(head).endswith(("ado", "ido")):
        return ""
    fem = fold(head).endswith(("a", "ao", "dad", "cion", "ade"))
    art = {"es": ("el", "la"), "pt": ("o", "a")}.get(lang, ("", ""))[fem]
    return f"{art} {head.lower()} {label.lower()}".strip()


def _object_of(qualified: str, bodies: Sequence[str], lang: str) -> str:
    """What the qualified action acts on, where a sibling's description says it with the
    action's verb ("el promediado síncrono" + "… para promediar los pesos" → " de los
    pesos"): an averaging of what? "" when no description says."""
    ws = qualified.split()
    if lang not in ("es", "pt") or len(ws) < 3:
        return ""
    root = fold(ws[1])[:6]
    for b in bodies:
        m = re.search(rf"\b{re.escape(root)}\w*\s+(?P<obj>(?:los|las|os|as|el|la|o|a)\s+[^\W\d_]{{4,}})", fold(b))
        if m and len(root) >= 5:
            art, noun = m.group("obj").split(" ", 1)
            noun = b[m.start("obj") + len(art) + 1:m.end("obj")]
            if lang == "pt":
                return f" d{art} {noun}"  # "dos pesos"
            return f" {'del' if art == 'el' else 'de ' + art} {noun}"
    return ""


def name_uses(word: str, text: str) -> tuple[int, int]:
    """How often ``text`` writes ``word`` with its capital inside a sentence ("…, Keras …") and in
    lower case outside code ("import ray", "ray.init()", "triton.jit", "thrust::sort" are code, not prose): the
    evidence that a capitalised word is a name."""
    inside = len(re.findall(rf"[a-zà-ÿ,;] {re.escape(word)}(?![\w-])", text))
    low = len(re.findall(rf"(?<!import )(?<![\w.-]){re.escape(lower_first(word))}(?![\w(.-]|::)", text))
    return inside, low


_OR = re.compile(r"\s(?:o|ou|or|u)\s")


# title words that say what kind of slide it is, not what it is about ("Motivación: …")
RHETORIC_HEAD = frozenset("""codigo code motivacion motivacao motivation arquitectura arquitetura architecture
    definicion definicao definition objetivo objetivos objective objectives contexto context problema problem solucion
    solucao solution caso case estudio estudo study practica pratica practice demo laboratorio lab ejercicio exercicio
    exercise parte part tema topic unidad unidade unit modulo module agenda indice index repaso revision revisao
    review antecedentes background panorama overview introduccion introducao introduction paso passo step etapa
    fase phase ejemplo exemplo example idea ideia clave chave key resumen resumo summary conclusion conclusiones
    conclusoes recap nota notas note notes""".split())
