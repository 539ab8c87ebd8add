"""The offline (rule-based, deterministic) question writer: questions from ideas, not lines.

It reads each passage as a slide or section would be read (:mod:`kb.writing.ideas`: whole bullets
with their title) and writes a question only where the idea has the shape the question type
needs:

- **definitions** ("X es una técnica …", "Los parámetros: son …", "El método f() devuelve …")
  → "¿Qué es X?", "¿Qué devuelve f()?" (never a *true* statement: copied, it is judged at a glance);
- **labelled lists** ("Oversampling: …", "Undersampling: …") → "what does X mean", the
  difference between two siblings, a multiple choice when the list has ≥ 4 siblings (the
  siblings are the same kind of thing by construction), and *false* statements that attach
  one sibling's description to another;
- **named code entities** ("la clase Sampler", "el método torch.save()", "la opción shuffle")
  → a sentence to complete, as multiple choice when ≥ 3 other entities of the same kind
  (classes, methods/functions, options/parameters) exist, same deck first, else typed (cloze);
- **purpose** ("Congela los parámetros … para evitar …") → "¿Para qué sirve congelar …?";
- **scope** ("… solo en X y no en Y") → "¿Dónde se debe … y dónde no?", or the swapped,
  false statement; **contrast** ("A != B" + "x vs. y") → the difference between A and B;
- **procedures** (an intro "Para …:" with numbered steps) → "¿Qué pasos se siguen para …?";
- **ready-made exercises** the materials contain, with the text after them as model answer;
- a **cloze** on a key course term in a self-contained sentence, last.

Every draft then passes the checks of :mod:`kb.writing.checks` against the passage it cites
(cut-off text, giveaways, duplicate choices, support) or is rejected with the reason.
"""

from __future__ import annotations

import functools
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from typing import Any, NamedTuple

from ..quiz import Question
from ..records import Chunk, content_hash
from ..text import STOPWORDS, detect_language, fold, looks_like_code_line, sentences, words
from .checklist import CODE_NAME as _CODE_NAME
from .checklist import CheckContext, run_checks
from .checklist import bare_attribute as _bare_attribute  # noqa: F401  (old import path of tests)
from .checklist import named_in_stem as _named_in_stem  # noqa: F401
from .checklist import other_language as _other_language  # noqa: F401
from .checks import (
    _BARE_DIFFER,
    _stems4,
    _zipf,
    everyday_word,
    generic_title,
    giveaway,
    no_context,
    norm,
    same_thing,
    stems,
    thin_concepts,
    unglue,
    vocabulary,
)
from .checks import IMPERATIVE as _IMPERATIVE
from .generate import (
    _EXERCISE_HEADING,
    CourseTerms,
    Draft,
    GenerationRequest,
    Rejected,
    WriterOutput,
    _citation,
    _clean,
    _term_ok,
    passage_usable,
)
from .ideas import Item, Slide, complete_sentence, dangling, read_slide

_T = {
    "what_is": {"pt": "O que é {t}?", "es": "¿Qué es {t}?", "en": "What is {t}?"},
    "made_of": {"pt": "De que partes se compõe {t}?", "es": "¿De qué partes se compone {t}?",
                "en": "What parts make up {t}?"},
    "computed": {"pt": "Como se calcula {t}?", "es": "¿Cómo se calcula {t}?", "en": "How is {t} computed?"},
    # what a bullet labelled with its role says of the slide's subject ("Coste: …" under "QAT")
    "role_cost": {"pt": "Qual é o custo {of}?", "es": "¿Qué coste tiene {t}?", "en": "What does {t} cost?"},
    "role_idea": {"pt": "Qual é a ideia {of}?", "es": "¿Cuál es la idea de {t}?", "en": "What is the idea behind {t}?"},
    "role_problem": {"pt": "Que problema {t} resolve?", "es": "¿Qué problema resuelve {t}?",
                     "en": "What problem does {t} solve?"},
    "role_advantage": {"pt": "Qual é a vantagem {of}?", "es": "¿Qué ventaja tiene {t}?",
                       "en": "What is the advantage of {t}?"},
    "role_limit": {"pt": "Qual é a limitação {of}?", "es": "¿Qué limitación tiene {t}?",
                   "en": "What is the limitation of {t}?"},
    "what_are": {"pt": "O que são {t}?", "es": "¿Qué son {t}?", "en": "What are {t}?"},
    "means": {"pt": "Em {c}, o que significa «{t}»?", "es": "En {c}, ¿qué significa «{t}»?",
              "en": "In {c}, what does «{t}» mean?"},
    "means_bare": {"pt": "O que significa «{t}»?", "es": "¿Qué significa «{t}»?", "en": "What does «{t}» mean?"},
    "consists": {"pt": "Em que consiste {t}?", "es": "¿En qué consiste {t}?", "en": "What is {t}?"},
    "which_is": {"pt": "Em {c}, qual é {t}?", "es": "En {c}, ¿cuál es {t}?", "en": "In {c}, what is {t}?"},
    "returns": {"pt": "O que retorna {t}?", "es": "¿Qué devuelve {t}?", "en": "What does {t} return?"},
    "used_for": {"pt": "Para que é usado {t}?", "es": "¿Para qué se utiliza {t}?", "en": "What is {t} used for?"},
    "purpose": {"pt": "Para que serve {t}?", "es": "¿Para qué sirve {t}?", "en": "Why should you {t}?"},
    "differ": {"pt": "Qual é a diferença entre {a} e {b}?", "es": "¿Qué diferencia hay entre {a} y {b}?",
               "en": "What is the difference between {a} and {b}?"},
    "steps": {"pt": "Quais são os passos para {t}?", "es": "¿Qué pasos se siguen para {t}?",
              "en": "What are the steps to {t}?"},
    "scope": {"pt": "Onde se deve {t} e onde não?", "es": "¿Dónde se debe {t} y dónde no?",
              "en": "Where should you {t}, and where not?"},
    "scope_false": {"pt": "Deve-se {t} apenas {x} e não {y}.", "es": "Se debe {t} solo {x} y no {y}.",
                    "en": "You should {t} only {x} and not {y}."},
    "complete": {"pt": "Complete a frase{c}: «{s}»", "es": "Completa la frase{c}: «{s}»",
                 "en": "Complete the sentence{c}: «{s}»"},
    "cloze": {"pt": "Complete a lacuna{c}: {s}", "es": "Completa el espacio en blanco{c}: {s}",
              "en": "Fill in the blank{c}: {s}"},
    "which_label": {"pt": "Em {c}, qual termo corresponde a esta descrição: «{d}»?",
                    "es": "En {c}, ¿qué término corresponde a esta descripción: «{d}»?",
                    "en": "In {c}, which term matches this description: «{d}»?"},
    "kind": {"pt": "tipo de", "es": "tipo de", "en": "kind of"},
    "which_kind": {"pt": "Qual {k} corresponde a esta descrição: «{d}»?",
                   "es": "¿Qué {k} corresponde a esta descripción: «{d}»?",
                   "en": "Which {k} matches this description: «{d}»?"},
    "label_stmt": {"pt": "Em «{c}», «{t}» significa: {d}", "es": "En «{c}», «{t}» significa: {d}",
                   "en": "In «{c}», «{t}» means: {d}"},
    "scope_answer": {"pt": "Apenas {x} e não {y}.", "es": "Solo {x} y no {y}.", "en": "Only {x} and not {y}."},
    "how": {"pt": "Como se pode {t}?", "es": "¿Cómo se puede {t}?", "en": "How do you {t}?"},
    "how_pl": {"pt": "Como se podem {t}?", "es": "¿Cómo se pueden {t}?", "en": "How do you {t}?"},
    "enables": {"pt": "O que permite {t}?", "es": "¿Qué permite {t}?", "en": "What does {t} allow?"},
    "enables_pl": {"pt": "O que permitem {t}?", "es": "¿Qué permiten {t}?", "en": "What do {t} allow?"},
    "caveat": {"pt": "O que se deve ter em conta ao {t}?", "es": "¿Qué hay que tener en cuenta al {t}?",
               "en": "What must you keep in mind when {t}?"},
    "parts": {"pt": "Quais são {a} {n} {k} de {t}?", "es": "¿Cuáles son {a} {n} {k} de {t}?",
              "en": "What are the {n} {k} of {t}?"},
    "in_entity": {"pt": "No {e} do {lib}", "es": "En el {e} de {lib}", "en": "In {lib}'s {e}"},
    "passed_to": {"pt": "O resultado é passado para {w}: {c}.", "es": "El resultado se pasa a {w}: {c}.",
                  "en": "Its result is passed to {w}: {c}."},
    "by": {"pt": "Utilizar {t}.", "es": "Utilizar {t}.", "en": "Use {t}."},
    "tf": {"pt": "Verdadeiro ou falso? {s}", "es": "¿Verdadero o falso? {s}", "en": "True or false? {s}"},
    "true": {"pt": "Verdadeiro", "es": "Verdadero", "en": "True"},
    "false": {"pt": "Falso", "es": "Falso", "en": "False"},
    "source_says": {"pt": "A fonte diz: “{s}”", "es": "La fuente dice: “{s}”", "en": "The source says: “{s}”"},
}


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
_GENERIC_LABEL = re.compile(r"^(dos|tres|cuatro|dois|duas|três|quatro|two|three|four|principales|principais|main|"
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
_NOT_NOUN_W = re.compile(r"(mente|[aei]r|ndo|[aei]das?|[aei]dos?|atic[ao]s?)$")
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


def _lower_first(s: str) -> str:
    """A sentence's first letter in lower case, to follow "En X, …"; a name keeps its case ("DDP",
    "ResNet-50", "A100": "En PyTorch, resNet-50 …" before)."""
    first = s.split(" ", 1)[0] if s else ""
    if not s or len(s) > 1 and s[1].isupper() or re.search(r"[a-z][A-Z]|\d", first) \
            or re.match(r"[A-Z]\w+ (?:et al\.|& )", s):
        return s  # (an author: "Jaderberg et al. (2017): …")
    return s[:1].lower() + s[1:]


# a tool a title names after its subject ("… con PyTorch Geometric", "… com Dask", "… en PyTorch 2")
_TITLE_TOOL = re.compile(r"\s+(?:con|com|with|en|em|no|in|desde|para|for)\s+(?=[A-Z]|tf\.|torch\.).*$")
_TITLE_TAIL = re.compile(r"\s+(?:en|em|in)\s+(?:escala|larga escala|large scale|producción|produção|production)\b.*$",
                         re.I)


def deck_topic(title: str, limit: int = 6, is_name: Callable[[str], bool] = lambda w: False) -> str:
    """What a deck is about, as a stem's "En …," can say it, from its title: the part before ":"
    without the tools it names or a setting ("Redes neuronales en grafos con PyTorch Geometric" →
    "redes neuronales en grafos", "Otimização de hiperparâmetros em escala" → "otimização de
    hiperparâmetros", "Entrenamiento con precisión mixta y optimización de memoria en PyTorch" →
    "entrenamiento con precisión mixta"); "" when nothing of at most ``limit`` words is left or the
    title is a name alone ("Keras 3", "JAX") or opens with a verb ("Acelerando Python numérico").
    A title's capitals are no name's ("Carga Eficiente de Datos" → "carga eficiente de datos"), but
    a word ``is_name`` says is one keeps its case ("Vision Transformers (ViT)", "Ray para …")."""
    head = re.split(r":\s", title.strip(), maxsplit=1)[0]
    head = _TITLE_TAIL.sub("", _TITLE_TOOL.sub("", head)).strip()
    if len(words(head)) > limit:  # "… y optimización de memoria": its first subject
        head = re.split(r"\s(?:y|e|and)\s", head, maxsplit=1)[0]
    ws = words(head)
    if len(ws) > limit or len(ws) < 2 or dangling(head) or head.count("(") != head.count(")") \
            or re.search(r"(?:ando|endo|indo)$", fold(ws[0])) or _infinitive(ws[0]):
        return ""  # ("Exportar modelos a ONNX …": "En exportar modelos, …" is no setting)
    if re.search(r"\([A-Z][A-Za-z]*[A-Z]\)", head):  # "Mixture of Experts (MoE)": a name, as written
        return head
    topic = " ".join(w if not re.fullmatch(r"[A-ZÁÉÍÓÚ][a-zà-ÿ]+", w) or is_name(w) else w.lower()
                     for w in head.split(" "))
    # the whole course's field narrows nothing ("Em redes neurais, qual é a vantagem de ExecuTorch?", split AD)
    return "" if fold(topic) in _WHOLE_FIELD else topic


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


def _infinitive(word: str) -> bool:
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
                or "".join(ch for ch in w if ch.isupper()).lower() == r]
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


def _title_subject(title: str, texts: Sequence[str]) -> str:
    """The name a "Name: topic" title opens on, as the source writes it elsewhere ("DTENSORS:
    Conceptos" → "DTensor", "Keras: Layers y Models" → "Keras"); "" when the title has none."""
    head = title.split(":", 1)[0].strip()
    if ":" not in title or not head.isalpha() or len(head) < 3 or fold(head) in _RHETORIC_HEAD:
        return ""  # ("Arquitectura: la pila de compilación": the kind of slide, no name)
    want = {fold(head), fold(head).rstrip("s")}
    seen = Counter(w for t in texts for w in re.findall(r"\b[A-Za-z]{3,}\b", t)
                   if fold(w) in want and not w.isupper() and not w.islower())
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


def _spelled_in(ident: str, description: str, others: Sequence[str]) -> bool:
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


def _whole_sentences(answer: str, limit: int) -> str:
    """The answer cut to whole sentences within limit characters, without a last sentence
    that announces what was cut ("Por exemplo:") or a dangling list letter ("D."); "" when
    not even its first sentence fits."""
    if len(answer) <= limit:
        return answer
    kept = ""
    for sent in sentences(answer):
        if len(kept) + len(sent) + 1 > limit:
            break
        kept = f"{kept} {sent}".strip()
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
    return _lower_first(t) if len(words(t)) >= 1 and not generic_title(t) else ""  # ("…: conceitos")


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


# what a setting *has* ("el cuello de botella de …"), asked "¿cuál es el …?"; any other "X de Y"
# ("Rendimiento del sistema", "Autotuning de cuDNN", "Paralelismo de tensor") is a thing, and
# "¿cuál es el rendimiento del sistema?" read as unanswerable to every held-out rater (splits C–H)
# (labels opening on "Limitación", "Custo", "Cost" never reach it: _GENERIC_LABEL drops them as a bullet's role)
_ATTRIBUTE_NOUNS = frozenset("cuello gargalo bottleneck limite coste".split())


def _attribute(label: str, body: str, course: CourseTerms) -> bool:
    """A label that names an attribute of what the slide is about, in plain words ("Cuello de
    botella: actualización de los gradientes …"): several lowercase words joined by "de", no
    code, and a description that opens on a noun (not a verb: "Evitan tener …")."""
    ws = label.split()
    if len(ws) < 3 or fold(ws[1]) not in ("de", "del", "da", "do") or _TECH.match(label) \
            or any(w[:1].isupper() for w in ws[1:]) or fold(ws[0]) not in _ATTRIBUTE_NOUNS:
        return False
    first = fold(words(body)[0]) if words(body) else ""
    return bool(first) and course.noun_like(first) and not course.verb_like(first)


# what a description that says what a term *is* opens on: an indefinite article ("un conjunto
# de …"), a purpose ("para entrenar …"), an action it consists of ("reducir la cantidad …") or a
# defining verb ("define la lista …", "permite mezclar …", "encapsulan …")
_DEFINING_VERB = re.compile(r"^(?:define|definen|representa|representan|encapsula|encapsulan|contiene|contienen|"
                            r"contém|contêm|permite|permiten|permitem|habilita|habilitan|determina|determinan|"
                            r"maneja|manejan|describe|describen|descreve|descrevem|indica|indican|agrupa|agrupan|"
                            r"combina|combinan|defines|represents|contains|allows|enables|describes|holds)\b", re.I)


def _definitional(body: str, figures: bool = False) -> bool:
    """The description says what its label is (see _DEFINING_VERB), not a fact about it in the
    slide's setting: an adverb ("normalmente …"), a clause on a definite subject ("las acumulaciones
    largas deben …", "o job reinicia …"), a bare list of names ("mse_loss, l1_loss, …"). With
    ``figures``, a figure is no bar ("un conjunto de imágenes en color de 10 clases")."""
    ws = body.split()
    if len(ws) < 3 or re.search(r"\d", body) and not figures:
        return False  # (a figure makes it an example: "Shared memory: un bloque que usa 100 KB limita …")
    first = fold(ws[0])
    infinitive = len(first) > 4 and first.endswith(("ar", "er", "ir")) and not first.endswith(("lar", "ular"))
    purpose = first in ("para", "to") and len(ws) > 1 and bool(re.match(r"[a-z]{3,}(?:ar|er|ir|e)$", fold(ws[1])))
    # ("para la atención y, si los expertos son grandes, …" says where it is used, not what it is)
    return bool(re.match(r"^(?:un|una|unos|unas|um|uma|uns|umas|an?)$", first) or purpose or infinitive
                or _DEFINING_VERB.match(body))


# a pronoun or demonstrative that points at a line the student does not see: "En pesos, ambos
# cuantizan por grupos …" (GPTQ and AWQ, on the line above; both raters of split T rewrote it)
_REFERS_BACK = re.compile(r"^(?:ambos|ambas|both|isso|isto|esto|eso|ello|this|these|those|it|they|este|esta|estos|"
                          r"estas|estes|esse|essa|esses|essas|ese|esa|esos|esas|aquele|aquela|aquel)$")


def name_uses(word: str, text: str) -> tuple[int, int]:
    """How often ``text`` writes ``word`` with its capital inside a sentence ("…, Keras …") and in
    lower case outside code ("import ray", "ray.init()", "triton.jit" are code, not prose): the
    evidence that a capitalised word is a name."""
    inside = len(re.findall(rf"[a-zà-ÿ,;] {re.escape(word)}(?![\w-])", text))
    low = len(re.findall(rf"(?<!import )(?<![\w.-]){re.escape(_lower_first(word))}(?![\w(.-])", text))
    return inside, low


def _plain_words(label: str, text: str) -> bool:
    """A capitalised label of plain lower-case words ("Geométricas", "Par positivo") that ``text``
    writes in lower case more often than as a name (:func:`name_uses`): a list's capital, not a name's."""
    if not re.fullmatch(r"[A-ZÁÉÍÓÚ][a-záéíóúàâêôãõçñü]+(?: [a-záéíóúàâêôãõçñü-]+)*", label):
        return False
    inside, low = name_uses(label, text)
    return low > inside


def _refers_back(sentence: str) -> bool:
    """The sentence leans on what came before it: a pronoun or demonstrative among its first four
    words ("En pesos, ambos cuantizan …", "Esto evita …", "Este método …")."""
    # (accents kept: "está" is a verb, "esta" a demonstrative)
    return any(_REFERS_BACK.match(w.lower()) for w in words(sentence)[:4])


def _action_label(label: str) -> bool:
    """A label that opens on a verb names an action or a claim ("Medir tiempos sin …", "Requiere
    hardware más reciente"), not a term: an infinitive, or a 3rd-person verb followed by an object."""
    ws = words(label)
    if not ws or not ws[0][:1].isalpha():
        return False
    first = fold(ws[0])
    if len(first) > 4 and first.endswith(("ar", "er", "ir")) and not first.endswith(("lar", "ular")):
        return True  # "Medir", "Guardar" (not "Modular", "Regular")
    return len(ws) >= 3 and bool(re.fullmatch(r"\w+(?:iere|ieren|uiere|ita|itan|ite|item|ige|igen|uce|ucen)", first))


def _plain_false(label: str, body: str, lang: str) -> str | None:
    """A sibling's description attached to a term as a plain statement: «ImageNet es un conjunto
    de imágenes de dígitos …», «El método fit sirve para devolver …»; None where the
    description has no shape that reads as a sentence about the term."""
    ws = body.split()
    if len(ws) < 4 or ";" in body:
        return None  # "o handler só marca uma flag; o loop salva …": two statements, no description
    first, second = fold(ws[0]), fold(ws[1].strip(",.;"))
    subj = _lower_first(label) if _ARTICLE.match(label) else label
    plural = bool(re.match(r"^(los|las|os|as|the)\s", label, re.I)) and fold(label).endswith("s")
    low = _lower_first(body)
    if _PLAIN_ARTICLE.match(body) and not re.match(r"(?i)^(un|una|um|uma|an?)\s", body):
        return None  # "o rank 0 grava; …", "las acumulaciones largas deben …": a clause, no description
    if _PLAIN_ARTICLE.match(body):
        verb = {"es": ("es", "son"), "pt": ("é", "são")}.get(lang, ("is", "are"))[plural]
        return f"{subj} {verb} {low}"
    if first in ("para", "to"):
        verb = {"es": ("sirve", "sirven"), "pt": ("serve", "servem")}.get(lang, ("is used", "are used"))[plural]
        return f"{subj} {verb} {low}"
    if lang in ("es", "pt") and len(first) > 4 and first.endswith(("ar", "er", "ir")) and ws[0][0].islower():
        verb = {"es": ("consiste en", "consisten en"), "pt": ("consiste em", "consistem em")}[lang][plural]
        return f"{subj} {verb} {low}"
    if lang in ("es", "pt") and ws[0][0].isupper() and first.endswith(("a", "e")) and not plural \
            and (second in _THIRD_PERSON_NEXT or second.endswith("mente")):
        return f"{subj} {low}"  # "Multiprocesamiento habilita la carga …"
    return None


def _name_reveals(a: Item, b: Item) -> bool:
    """The term's own words say what it is ("Tamaño del lote (batch size)": determina el número
    de muestras en cada lote; "CIFAR-10": 10 clases): a false description is obvious."""
    label = stems(a.label, 4) | _stems4(a.label)
    own_body, other_body = _before_arrow(a.body), _before_arrow(b.body)  # (what follows an arrow is not what it is)
    own = stems(own_body, 4) | _stems4(own_body)
    other = stems(other_body, 4) | _stems4(other_body)
    return bool(label & own) or bool(label & other) or bool(re.search(r"\d", a.label))


# goal verbs that say nothing of their own ("para evitar que …", "para permitir …")
_EMPTY_GOAL = frozenset("""evitar permitir asegurar garantizar lograr conseguir poder hacer evita permite impedir
    avoid allow ensure make prevent""".split())


def _tautology(obj: str, goal: str, title: str) -> bool:
    """A purpose the action's own name states: the goal's verb is a word (or a translation, a
    cognate) of the object ("utilizar la función torch.hub.load()" → "para cargar un
    modelo"), or, past empty verbs ("evitar que"), the goal adds at most one word that the
    action and the slide title do not already say."""
    from .checks import _GLOSSARY, cognate

    own = _stems4(obj)
    own |= {_GLOSSARY[x] for x in own if x in _GLOSSARY}
    gw = [w for w in words(goal) if fold(w) not in STOPWORDS]
    if not gw:
        return True
    head = _stems4(gw[0])
    head |= {_GLOSSARY[x] for x in head if x in _GLOSSARY}
    if head & own or any(cognate(gw[0], w) for w in words(obj) if len(w) >= 4):
        return True
    said = {fold(x)[:5] for w in words(f"{obj} {title}") for x in re.split(r"[-._()]", w) if len(x) >= 4}
    said |= {fold(w)[:5] for w in _EMPTY_GOAL}
    new = [w for w in gw if len(w) >= 4 and fold(w)[:5] not in said]
    return len(new) <= 1


def _everyday(text: str, lang: str) -> bool:
    """The text says nothing a course teaches: no code name, acronym or figure, and (nearly) every word
    of it is an everyday word of its language ("Reanudar la capacitación o utilizar el modelo para hacer
    predicciones sin necesidad de volver a entrenarlo desde cero": what loading a model's state allows,
    dropped by both raters of v7 and both raters of v13 on the review decks)."""
    ws = [w for w in words(text) if len(w) >= 4 and fold(w) not in STOPWORDS]
    if not ws or any(_TECH.match(w) or _CODE_NAME.search(w) or re.search(r"\d", w) for w in ws):
        return False
    return sum(everyday_word(w.lower(), lang if lang in ("es", "pt") else "en") for w in ws) >= 0.6 * len(ws)


def _english_adjective(label: str) -> bool:
    """A one-word English adjective label ("Static", "Dynamic"): in a Spanish or Portuguese
    stem it is an English fragment with no noun ("¿qué diferencia hay entre Static y Dynamic?")."""
    w = label.strip()
    return " " not in w and w.isascii() and w[:1].isupper() and not w[1:2].isupper() \
        and bool(re.search(r"(ic|ed|ous|ive|able|ible)$", w.lower()))


# a header bullet over the places the slide's subject is used ("• Usos", "• Aplicações"): its sub-bullets'
# labels are those places, no terms the slide defines
_USES_HEADER = re.compile(r"(?i)^(?:usos|uso|aplicaciones|aplicações|aplicacoes|applications|uses|casos de uso|"
                          r"use cases)(?:\s+\w+){0,2}:?$")


def _under_uses(slide: Slide, it: Item) -> bool:
    """The item is a sub-bullet of a header that lists uses ("• Usos" / "  • NMS: decidir si …")."""
    above = [x for x in slide.items if x.index < it.index and x.index < 1000 and x.level < it.level]
    return it.level > 0 and bool(above) and not above[-1].label and bool(_USES_HEADER.match(above[-1].text))


def _restates_label(item: Item) -> bool:
    """The description repeats a word of its label ("Tamaño del lote (batch size): … muestras en
    cada lote"; "Multiprocesamiento: … múltiples hilos"; "Coherencia de versión: … misma
    versión …"): asking what the label means asks for its own words back. Names (ImageNet,
    CIFAR-10) are not words to restate."""
    if _TECH.match(item.label.strip()) or re.search(r"[a-z][A-Z]|\d", item.label):
        return False
    label = {fold(w)[:5] for w in words(item.label) if len(w) >= 4 and fold(w) not in STOPWORDS}
    # "Layers predefinidas: Evitan tener que definir …": a prefixed label word holds the body's verb
    inner = any(fold(b)[:5] in fold(w)[2:] for w in words(item.label) if len(w) >= 8
                for b in words(item.body) if len(b) >= 5 and fold(b) not in STOPWORDS)
    return bool(label & stems(item.body)) or inner




def _with_code_names(text: str, exclude: str, concepts: tuple[str, ...], k: int = 4) -> tuple[str, ...]:
    """The code names an answer gives (torch.save(), state_dict(), __len__()) first — a right
    reply must name them — then the other key concepts that are not part of one."""
    names = [n for n in dict.fromkeys(_CODE_NAME.findall(text)) if n not in exclude]
    rest = [c for c in concepts if not any(fold(c) in fold(n) or fold(n).rstrip("()") in fold(c) for n in names)]
    return tuple(names + rest)[:k]


_OR = re.compile(r"\s(?:o|ou|or|u)\s")
_PURPOSE_VERBS = re.compile(r"\b(?:para|to)\s+(?P<a>[a-záéíóúç]+?(?:ar|er|ir))(?P<cl>l[oa]s?|se)?"
                            r"(?:\s+(?:o|ou|or|y|e|and)\s+(?P<b>[a-záéíóúç]+?(?:ar|er|ir))(?:l[oa]s?|se)?"
                            r"|\s+(?P<obj>[a-záéíóúç]{4,}))?\b")


def _purpose_verbs(definition: str) -> str:
    """What a definition says its subject is for, as one concept: "modificar / preparar" of
    "operaciones aplicadas a los datos para modificarlos o prepararlos", "resolver tareas" of
    "… para resolver tareas relacionadas"; "" when it says none."""
    m = _PURPOSE_VERBS.search(definition)
    if not m or fold(m.group("a")) in _PLAIN_ACTION:
        return ""
    if m.group("b"):
        return f"{m.group('a')} / {m.group('b')}"
    obj = m.group("obj") if not m.group("cl") and m.group("obj") and fold(m.group("obj")) not in STOPWORDS else ""
    return f"{m.group('a')} {obj}".strip() if obj or m.group("cl") else ""


def _holds_code(text: str) -> bool:
    """The text names code — a call, a dotted or snake_case name, a CamelCase class — that a
    library's name situates; an acronym (SLURM, MTBF) is no library's code."""
    return bool(_CODE_NAME.search(text)) or any(_TECH.match(w) and not w.isupper() for w in words(text))


# a slide of mistakes: its lines are what not to do
_MISTAKES_TITLE = re.compile(r"(?i)\b(?:errores|erros|errors|mistakes|pitfalls|trampas|armadilhas|anti-?patterns?"
                             r"|cuidados|precauciones|precauções|caveats)\b")
# a sentence that leans on the one before it ("Si no se cumple, …") or has no subject ("Es el …")
_LEANS_BACK = re.compile(r"(?i)^(?:si no|se n[aã]o|if not|otherwise|de lo contrario|caso contr[aá]rio|en ese caso|"
                         r"nesse caso|in that case|por eso|por isso|therefore|es|son|é|são|is|are|era|fue|foi|"
                         r"e|y|and|mas|pero|but)\b")  # ("E all-reduce … seria absurdo": and after what?)


def _statement_start(s: str) -> bool:
    """The sentence stands on its own: it does not lean on the one before it."""
    return not _LEANS_BACK.match(s.strip())


# a stem that asks what a thing is or means, with nothing before it
# what a thing is for or gives back, as bare as "what is" ("O que permite on_fit_config_fn?")
_WHAT_FOR = re.compile(r"^(?:¿\s*)?(?:Qué (?:permiten?|devuelve)|Para qué sirve|O que (?:permitem?|retorna)"
                       r"|Para que serve|What does \S+ (?:allow|return))\b")
_WHAT_IS = re.compile(r"^(?:¿\s*)?(?:Qué (?:es|son|significa)|En qué consiste|O que (?:é|são|significa)|"
                      r"Em que consiste|What (?:is|are|does))\b")
# what a role bullet says of a named subject ("¿Qué coste tiene PagedAttention?", "Qual é a ideia de TTA?"):
# as bare as "what is" where the name is an acronym or a method of the deck's field
# (each template whole, its subject any text: "What does … cost?", not every "What does …")
_ROLE_STEM = re.compile("^(?:" + "|".join(
    re.sub(r"\\\{(?:t|of)\\\}", ".+", re.escape(v[lang])) for k, v in _T.items() if k.startswith("role_")
    for lang in ("pt", "es", "en")) + ")$")

# a file's name ("config.pbtxt", "model.onnx", "ckpt.pt") is no library's code: it situated a Triton
# question "Em PyTorch"
_FILE_NAME = re.compile(r"\.(?:pt|pth|onnx|json|pbtxt|ya?ml|txt|csv|py|sh|pb|bin|safetensors|ckpt|h5|keras|tflite|"
                        r"engine|plan|mar|log|toml|cfg|ini|parquet|tfrecord)$")


def _library_code(text: str, source: str | None = None) -> bool:
    """The text names a library's code: a dotted name or a call ("torch.save()", "nn.Module",
    "zero_grad()"), a dunder, a CamelCase class; not a blank ("_____"), a bare snake_case
    variable ("zero_point", "local_rank"), a file's name ("config.pbtxt"), an acronym ("MPI-3",
    "fp32") or math. With the ``source``'s text, a CamelCase word is a class only where that
    text calls it or reaches it through a dot ("DataLoader(", "nn.TransformerEncoderLayer"): a
    method's name ("MoCo", "CutMix", "SimSiam", "DeepSpeed") is no PyTorch code — raters of
    splits B, O and P struck "En PyTorch" from such stems."""
    names = [n for n in _CODE_NAME.findall(text) if n.strip("_") and not _FILE_NAME.search(n)]
    if any("." in n.strip(".") or n.endswith("()") or n.startswith("__") for n in names):
        return True
    camel = [w for w in words(text) if re.fullmatch(r"[A-Z][a-z]+(?:[A-Z][a-z0-9]+)+", w)]
    if source is None:
        return bool(camel)
    # (a call has no space before its bracket: "OnFailure (Always não é permitido)", "SimSiam (Chen y He,
    # 2021)" are prose — "Em PyTorch, o que significa «restartPolicy em Job»?" in a deck on Kubernetes)
    return any(re.search(rf"(?:\.{w}\b|\b{w}\()", source) for w in camel)


def _framework_code(text: str, source: str) -> bool:
    """The text names code (:func:`_library_code`) and no library of its own that the source's code
    imports: "WebDataset (tar)" where the code says "import webdataset" is a tool compared with
    Parquet, not TensorFlow code ("Em TensorFlow, qual é a diferença entre WebDataset (tar) e Parquet?",
    split AB)."""
    return _library_code(text, source) and not _imported_modules(source) & {fold(w) for w in words(text)}


@functools.lru_cache(maxsize=64)
def _imported_modules(text: str) -> frozenset[str]:
    """The modules a source's code imports, folded, their top-level names and what they are imported
    as: "import random, webdataset as wds" → {random, webdataset, wds}; "from datasets.distributed
    import …" → {datasets}."""
    out: set[str] = set()
    for m in re.finditer(r"(?m)^\s*import\s+([\w., ]+)", text):
        for part in m.group(1).split(","):
            bits = part.split()
            if bits:
                out.add(fold(bits[0].split(".")[0]))
                if len(bits) == 3 and bits[1] == "as":
                    out.add(fold(bits[2]))
    out.update(fold(m.group(1)) for m in re.finditer(r"(?m)^\s*from\s+(\w+)", text))
    return frozenset(out)


# title words that say what kind of slide it is, not what it is about ("Motivación: …")
_RHETORIC_HEAD = frozenset("""codigo code motivacion motivacao motivation arquitectura arquitetura architecture
    definicion definicao definition objetivo objetivos objective objectives contexto context problema problem solucion
    solucao solution caso case estudio estudo study practica pratica practice demo laboratorio lab ejercicio exercicio
    exercise parte part tema topic unidad unidade unit modulo module agenda indice index repaso revision revisao
    review antecedentes background panorama overview introduccion introducao introduction paso passo step etapa
    fase phase ejemplo exemplo example idea ideia clave chave key resumen resumo summary conclusion conclusiones
    conclusoes recap nota notas note notes""".split())


def title_topic(title: str, mentions: Callable[..., int], libraries: frozenset[str] = frozenset()) -> str:
    """The subject a slide title names, to situate a stem ("En …, ¿…?"); "" when it names none a student knows.
    A "Topic: aspect" title's head when it is a code name or acronym ("torch.export: captura de grafo
    completo" → "torch.export", "NCCL: …") or a term the source's text itself says at least twice
    (``mentions(phrase, titles=…)``; titles count only for a name: "Cuantización: conceptos básicos" →
    "cuantización"), never the kind of slide ("Motivación: …"); else the tail of a "Section: topic"
    title where the tail is said twice or the section names a library ("Distributed training en TF: Data
    parallelism" → "data parallelism"); else a title that is one code name ("ReduceLROnPlateau") or the
    one module a title names ("AdamW y otros optimizadores de torch.optim" → "torch.optim"). The title's
    own wording ("Coletivas em cada estratégia de paralelismo") is no subject: raters read "En conceptos
    básicos, …" as noise. A library (``libraries``, folded, with the capitals that abbreviate it) is no
    topic: the stem names it only where it asks its code."""
    t = re.sub(r"\s*\([^)]*\)", "", title).strip()
    head = t.split(":", 1)[0].strip() if ":" in t else ""
    tail = re.sub(r"\s*\([^)]*\)", "", t.split(":", 1)[1]).strip() if head else ""
    hw = words(head)
    named: list[str] = []
    if hw and not (fold(hw[0]) in _RHETORIC_HEAD or generic_title(head) or fold(head) in libraries):
        named = [w for w in hw if (_TECH.match(w) or re.search(r"[a-z][A-Z]", w)) and fold(w) not in libraries]
        if len(hw) == 1 and named:
            return head
        plain = not named and not any(w[:1].isupper() for w in hw[1:])  # "Ray Data" is a name
        # a plain phrase must be said by the slides' text, not only by their titles: "Hiperparámetros
        # clave (I): …" and "(II): …" name a section twice, and "En Hiperparámetros clave, …" situated
        # 3 of split V's 4 questions
        if 1 <= len(hw) <= 3 and mentions(head, titles=not plain) >= 2:
            # ("Cuantización" → "cuantización", "Streams" → "streams"; a name keeps its capital: "Numba")
            return _lower_first(head) if plain and common_word(hw[0]) and not head[1:2].isupper() else head
    if tail and 1 <= len(words(tail)) <= 4 and not generic_title(tail) \
            and (mentions(tail) >= 2 or any(fold(w) in libraries for w in hw)):
        # "Distributed training en TF: Data parallelism": a section (of a library), then its topic
        return _plain_title(tail)
    if named:
        return named[0]
    aliases = [a for a in re.findall(r"\(([A-Z][A-Z0-9]+)\)", title) if not re.fullmatch(r"[IVX]+", a)]  # not "(II)"
    if len(aliases) == 1 and fold(aliases[0]) not in libraries:
        return aliases[0]  # "Data Parallel clássico (DDP) e a redundância": what the slide is about is DDP
    if not head and len(words(t)) == 1 and (_TECH.match(t) or re.search(r"[a-z][A-Z]", t)) and fold(t) not in libraries:
        return t  # "ReduceLROnPlateau"
    # a module the title names ("… de torch.optim"); a class it names may be one of several it compares
    code = [w for w in words(t) if re.fullmatch(r"[A-Za-z_]\w*(?:\.\w+)+", w) and fold(w) not in libraries]
    return code[0] if len(code) == 1 else ""


# spellings Spanish and Portuguese words do not have: an English term in a Spanish or Portuguese deck
_ENGLISH_SPELLING = re.compile(r"th|w|k|sh|ck|ough|ee|oo|ay|ing$|y$")


def _english_word(w: str) -> bool:
    return w.isascii() and len(w) >= 3 and bool(_ENGLISH_SPELLING.search(w.lower()))


# a label that opens with a preposition is part of a sentence ("Do study: parar a busca …", "En
# serving:"), never a term's name
_PREPOSITION = frozenset("de do da dos das del en em no na nos nas por para con com sin sem al ao of in on at by "
                         "for with".split())

def common_word(word: str) -> bool:
    """``word`` is a word, not a name: Spanish or Portuguese text uses it at least as often as English
    text ("cuantización", "paralelismo"), or English text says it often (Zipf >= 3: "streams",
    "expert"); "Numba", "Kubernetes", "Triton" are names."""
    native = max(_zipf(word, "es"), _zipf(word, "pt"))
    english = _zipf(word, "en")
    return native > 0 and native >= english or english >= 3


def term_like(label: str, mentions: Callable[[str], int], lang: str = "") -> bool:
    """The label names a term a student can be asked to explain or pick: a code name, acronym or
    CamelCase name ("Per-channel", "LBFGS", "ReduceLROnPlateau", "(PTQ)" as another name); an
    English term in a Spanish or Portuguese deck ("Throughput", "Weight decay", "Batching
    estático"); or a phrase of two or three words the source's text itself says at least twice
    (``mentions``). Not a slide's wording: "Volume", "GPU errada", "Usa SMs da GPU", "Cuándo usar
    trace", "Procedimiento en cada iteración" — raters read "¿Qué significa «GPU errada»?" as
    a question about the slide, not the subject."""
    alias = re.findall(r"\(([^)]*)\)", label)
    if any(re.fullmatch(r"[A-Z]{2,}[0-9]*s?|[A-Z][a-z]+(?:[A-Z][a-z0-9]+)+", a.strip()) for a in alias):
        return True
    bare = re.sub(r"\s*\([^)]*\)", "", label).strip()
    ws = [w for w in words(bare) if fold(w) not in STOPWORDS]
    if not ws or fold(words(bare)[0]) in _PREPOSITION:
        return False
    # (an everyday word of the deck's language is no English term for ending in "y": "Hoy", "Ley")
    technical = [w for w in ws if _TECH.match(w) or re.search(r"[a-z][A-Z]", w)
                 or _english_word(w) and not (lang in ("es", "pt") and everyday_word(w, lang))]
    if technical and (len(technical) == len(ws) or len(ws) == 2 and _english_word(ws[0])):
        return True  # every word technical, or an English head with its qualifier ("Batching estático")
    if len(ws) == 1:
        # one native word: a term the slide introduces ("Aleatorización": no other line says it),
        # not a word the whole deck uses for its subject ("Volume" 3 other lines, "Comunicação" 6,
        # "Entrenamiento" 8: raters read "¿Qué significa «Volume»?" as vague). The cut, 2, was set on
        # the review and tuning decks; it is not a rule of grammar, and counts alone do not separate
        # every case ("Layers", 3, passes as English). An everyday word ("Limites", "Ciclo",
        # "Falhas") is a slide's label whatever the counts
        return mentions(bare) <= 2 and not everyday_word(ws[0].lower(), lang)
    # a phrase the course says in its own sentences, not only as the slide's label
    return len(ws) <= 3 and mentions(bare) >= 2


# a label that is a verdict or a pitfall, not a term: no side of a comparison
_VERDICT_LABEL = re.compile(r"(?i)^(?:vale a pena|vale la pena|n[aã]o vale|no vale|compensa|n[aã]o compensa|"
                            r"no compensa|armadilhas?|trampas?|pitfalls?|gotchas?|pros|contras?|cons)\b")
# (folded) words after which a blank is any good quality ("Mejor _____", "Maior _____", "Higher _____")
_COMPARATIVE = frozenset({"mejor", "mayor", "menor", "mas", "menos", "melhor", "maior", "mais", "better", "higher",
                          "lower", "greater", "more", "less", "faster"})
# words a blank must never be: relatives, determiners and other function words a list may miss
_FUNCTION_BLANK = frozenset("cuyo cuya cuyos cuyas cujo cuja cujos cujas cual cuales qual quais quien quienes quem "
                            "donde onde cuando quando mientras enquanto aunque embora sino senao whose which".split())


# a label's first word that makes it a question, a degree or a state, not a name
_NOT_A_NAME = frozenset(
    "cuando quando como por que qual cual muy muito mas mais menos solo so sempre siempre nunca".split())


def _untagged(label: str) -> str:
    """The label without a bracketed role ("TorchDynamo (frontend)" → "TorchDynamo"); an acronym or
    name in brackets is kept ("Estática post-entrenamiento (PTQ)", "Paralelismo de tensor (Megatron-LM)")."""
    out = re.sub(r"\s*\((?:[a-záéíóúâêôãõç][\w\s/-]*|[A-Z][a-z]+s?)\)", "", label).strip()
    return out or label


def _code_like(label: str) -> bool:
    """A label written as a name in code: capitals, CamelCase, snake_case or a dotted name."""
    w = re.sub(r"\s*\([^)]*\)", "", label).strip()
    return bool(re.fullmatch(r"[A-Z][A-Z0-9_]+|\w*[a-z][A-Z]\w*|[A-Za-z]+_\w+|[\w.]+\.\w+(?:\(\))?", w))


def _upper_first(s: str) -> str:
    """"¿qué …" → "¿Qué …", "per-channel es …" → "Per-channel es …"."""
    i = 1 if s.startswith("¿") else 0
    return s[:i] + s[i:i + 1].upper() + s[i + 1:]


# a code call with its arguments, one level of calls nested in them: "f(g(a, b=1), 'c')"
_CALL = re.compile(r"(?P<f>[A-Za-z_][\w.]*)\((?P<args>(?:[^()]|\([^()]*\))*)\)")


def _deck_title(course: CourseTerms, source: str) -> str:
    """A deck's title: the heading of its first page ("" for a source without pages)."""
    return next((c.locator.heading or "" for c in course.by_source.get(source, []) if c.locator.page == 1), "")


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
    main = _main_text(answer)
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


def _main_text(answer: str) -> str:
    """The answer without its side details: parentheses and example lists ("Pueden incluir el
    reescalado de las imágenes, …", "por ejemplo …"), folded; a call keeps its brackets ("ds.map(f)":
    a concept "ds.map(f).batch(B)" is the answer's main text, not a side detail)."""
    return fold(_EXAMPLES.sub(" ", answer))


_GIST_CUT = re.compile(r",\s|;\s|:\s|\s(?:para|al|ao|mediante|utilizado|utilizada|usado|usada|to|by|used)\s")
_GIST_LEAD = re.compile(r"^(?:(?:un|una|el|la|los|las|um|uma|o|a|os|as|an|a|the)\s+|(?:permite|permiten|habilita|"
                        r"habilitan|determina|maneja|allows|enables|para|to)\s+)+", re.I)


def _before_arrow(text: str) -> str:
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


def _gist(description: str, limit: int = 10) -> str:
    """What a label's description says, in a phrase ("reducir la cantidad de muestras en las
    clases dominantes" of "Undersampling: reducir … dominantes al eliminar o submuestrear datos"):
    its main clause without purpose, means or a leading article or "permite"; "" past ``limit`` words."""
    # a bracket is a side detail, and its ": " is no clause's end ("batch desejado (ex.: 512) não cabe na
    # GPU" gave "batch desejado (ex." and no gist; split Z); a call's brackets stay ("ds.map(f).batch(B)")
    description = re.sub(r"\s+\([^()]*\)", "", description)
    description = _before_arrow(description)
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
    head = re.sub(r"\s*(?:->|[+=*/])$", "", head)  # "índice do processo no nó ->" (cut at "usado para")
    # a cut that leaves a preposition ("… valor intermédio até" of "até ao passo t") is no phrase
    return head if 3 <= len(words(head)) <= limit and not dangling(head) else ""


# where a model answer's subject ends: "Term: …", "Term é/es/is …", "Term significa/consiste em …"
_SUBJECT_END = re.compile(r"^(?P<subj>(?:[^:;.]|\.(?=\S)){1,80}?)(?::\s|\s(?:é|são|es|son|is|are|significa"
                          r"|consiste em|consiste en"
                          r"|means|devuelve|retorna|returns|permite|permiten|allows)\s)")
# what opens a phrase without being part of it: articles, a copula, a connective
_PHRASE_LEAD = re.compile(r"^(?:(?:un|una|unos|unas|el|la|los|las|lo|um|uma|uns|umas|o|a|os|as|the|an|é|es|son|são|is"
                          r"|are|y|e|and|pero|mas|but|o|ou|or|também|también|also|apenas|solo|sólo|only|para|to"
                          r"|permite|permiten|permitem|allows?|consiste en|consiste em|consists of)\s+(?!partir\b))+",
                          re.I)
# a definition's genus, no idea by itself ("una técnica poderosa …", "una API de PyTorch" before "que permite …")
_GENUS = re.compile(r"^(?:técnica|technique|ferramenta|herramienta|tool|api|método|metodo|method|forma|manera|maneira"
                    r"|sistema|system"
                    r"|way|tipo|type|clase|classe|class|mecanismo|mechanism|estrategia|estratégia|strategy|enfoque"
                    r"|abordagem|approach|recurso|feature|funcionalidad|funcionalidade)\b", re.I)
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


def _shorten(x: str, limit: int) -> str:
    """A clause of at most ``limit`` words: whole, or its head (:func:`_gist`), or its words up to
    the last preposition or conjunction before the limit ("el servidor agrupa peticiones" of "el
    servidor agrupa peticiones hasta un tamaño máximo o un tiempo máximo de espera"); "" when no
    cut of three words or more leaves a phrase."""
    ws = x.split()
    if len(ws) <= limit:
        return x
    head = _gist(x, limit)
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
    what the stem already says; a clause too long for a phrase keeps its head (:func:`_gist`).
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
        body = re.sub(r"\s*\b(?:p\.\s?ej\.|e\.g\.|ex\.:?)[^.;]*", "", _EXAMPLES.sub("", body), flags=re.I)  # examples
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
_LIST_BLANK = re.compile(rf"_____,|, {_LIST_ARTICLE}_____|_____ (?:y|o|e|ou|and|or) "
                         rf"|(?<!\w)(?:y|o|e|ou|and|or) {_LIST_ARTICLE}_____")


class OfflineWriter:
    """Rule-based, deterministic question writer (no model, no network)."""

    name = "offline"
    _source: str | None = None

    def write(self, passages: Sequence[Chunk], request: GenerationRequest, course: CourseTerms) -> WriterOutput:
        """Drafts from the passages: the course's own exercises first, then questions from each slide's
        ideas, each checked against its passage; notes say why a passage gave none."""
        out = WriterOutput()
        self._vocab: dict = {}
        self._course = course
        self._harvest(passages, request, course, out)
        entities = self._entities(course)
        skipped_lang = 0
        for chunk, parts in _whole_pages(passages):
            if not passage_usable(chunk) or (chunk.locator.heading and _EXERCISE_HEADING.search(chunk.locator.heading)):
                continue
            if chunk.kind == "transcript":
                continue  # speech has no sentence boundaries to build statements from; kb ask cites it
            lang = chunk.lang if chunk.lang in _T["tf"] else "en"
            if request.lang and request.lang != lang:
                skipped_lang += 1
                continue
            slide = read_slide(chunk)
            self._source = chunk.source
            if chunk.source not in self._vocab:
                self._vocab[chunk.source] = vocabulary(
                    "\n".join(c.text for c in course.by_source.get(chunk.source, [chunk])))
            whole = self._whole(chunk.source)  # for claims its own code contradicts
            ctx = CheckContext(chunk.text, whole, self._vocab[chunk.source], verb_like=course.verb_like)
            drafts: list[Draft] = []
            self._definitions(slide, lang, course, drafts)
            self._equations(slide, lang, course, drafts)
            self._roles(slide, lang, course, drafts)
            self._parts(slide, lang, course, drafts)
            self._labels(slide, lang, course, drafts)
            self._entity_items(slide, lang, course, entities, drafts)
            self._purpose(slide, lang, course, drafts)
            self._how(slide, lang, course, drafts)
            self._enables(slide, lang, course, drafts)
            self._caveats(slide, lang, course, drafts)
            self._scope_and_contrast(slide, lang, course, drafts)
            self._steps(slide, lang, course, drafts)
            self._imperative_steps(slide, lang, course, drafts)
            self._cloze(slide, lang, course, drafts)
            for d in drafts:
                found = run_checks(d.question, ctx)
                if found:
                    out.rejected.append(Rejected(d.question.prompt[:80], "failed checks: " + ", ".join(found),
                                                 d.chunk.id))
                else:
                    out.drafts.append(_cited_part(d, parts))
        if skipped_lang:
            out.notes.append(f"{skipped_lang} passages are not in --lang {request.lang}: "
                             f"no questions written from them")
        return out

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
        """What the deck's title says it is about (:func:`deck_topic`), for a deck whose title names
        no one library: "En redes neuronales en grafos, ¿qué es Graph-level?", "Em otimização de
        hiperparâmetros, o que significa «Random search»?". A bare term out of its deck was the
        context raters of splits G–O added most often ("Graph-level", "--requeue", "Permutación",
        "Reprodutibilidade", "Warm-up", "TBPTT")."""
        cache = self._course.__dict__.setdefault("_deck_topic", {})
        if source not in cache:
            title = _deck_title(self._course, source)
            # the title's own capitals are no evidence ("Formatos e Carregamento de Dados", said nowhere
            # else, was "Em formatos e Carregamento de dados, …": split AB)
            text = self._whole(source).replace(title, " ") if title else self._whole(source)

            def is_name(w: str) -> bool:  # written with its capital inside sentences more often than without
                inside, low = name_uses(w, text)
                return inside > low

            cache[source] = deck_topic(title, is_name=is_name)
        return cache[source]

    def _deck_library(self, source: str) -> str:
        """The one library a deck's title names ("Processamento paralelo de dados com Dask" → Dask), of
        those its code uses; "" where the title names none or two ("… en Keras y PyTorch")."""
        cache = self._course.__dict__.setdefault("_deck_library", {})
        if source not in cache:
            title = _deck_title(self._course, source)
            named = [n for n, _ in _source_frameworks(self._course, source)
                     if re.search(rf"\b{re.escape(n)}\b(?!\s+[A-Z])", title)]  # not "PyTorch Geometric"
            cache[source] = named[0] if len(named) == 1 else ""
        return cache[source]

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
            code = _framework_code(prompt, self._whole(slide.chunk.source))
            lib = (self._framework(slide) if code else "") or self._deck_topic(slide.chunk.source)
        else:
            lib = self._deck_library(slide.chunk.source)
        if not lib and ("«" in prompt or re.fullmatch(r"(?:¿\s*)?(?:Qué es|O que é|What is)\s+[\w-]+\?", prompt)):
            # a slide's label asked bare ("O que significa «--requeue»?") by what the deck is about; a
            # definition the course states ("¿Qué es la transferencia de aprendizaje?") names its term
            # whole, and a deck's title need not cover every slide ("Conjuntos de datos" and DDP); a
            # label's one word asked bare ("O que é Zero-shot?": both raters of split V, "no context")
            lib = self._deck_topic(slide.chunk.source)
        if not lib or fold(lib) in fold(prompt) \
                or not (_WHAT_IS.match(prompt) or _WHAT_FOR.match(prompt) or _BARE_DIFFER.match(prompt) or role) \
                or re.search(r"[a-z]\.[a-z]", prompt):
            return prompt  # (a dotted name says its library: "¿Qué es tf.distribute.Strategy?")
        lead = {"pt": "Em", "es": "En"}.get(lang, "In")
        body = "¿" + prompt[1].lower() + prompt[2:] if prompt.startswith("¿") else _lower_first(prompt)
        return f"{lead} {lib}, {body}"

    def _texts(self, source: str) -> list[str]:
        course = getattr(self, "_course", None)
        chunks = course.by_source.get(source, []) if course is not None else []
        return [f"{c.locator.heading or ''}\n{c.text}" for c in chunks]

    def _whole(self, source: str) -> str:
        """The source's whole text, titles included (:meth:`_texts` joined), once per source and course."""
        cache = self._course.__dict__.setdefault("_whole", {})
        if source not in cache:
            cache[source] = "\n".join(self._texts(source))
        return cache[source]

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
                    lib if lib and fold(lib) not in fold(prompt) else ""
                if where:
                    return _situate(prompt, where, lang).replace(f"«{where}»", where)
            return prompt
        title, rest = m.group("title"), prompt[m.end():]
        subject = _title_subject(title, self._texts(slide.chunk.source))
        whole = self._whole(slide.chunk.source)
        code = _framework_code(rest, whole) or _framework_code(answer, whole) or bool(lib) and fold(lib) in fold(title)
        plain = _plain_title(title)
        if re.match(r"(?i)^(?:¿\s*)?(?:o que|qu[eé]|c[oó]mo|como|por qu[eé]|what|how|why)\b", plain):
            plain = ""  # "o que salvar em um checkpoint": a question is no subject to be "in"
        if plain and re.match(r"^[a-záéíóú]+(?:ar|er|ir)\s", plain):
            plain = ""  # "guardar y cargar el modelo …" is an action, not a subject to be "in"
        libraries = self._libraries()
        ent = next((w for w in words(title) if re.search(r"[a-z][A-Z]", w) and fold(lib) not in fold(w)
                    and fold(w) not in libraries  # "TensorFlow" in a PyTorch deck is no PyTorch entity
                    and _library_code(w, whole)), "")  # nor a method's name ("SimCLR", "MoCo")
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
            subject = lib
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
        if re.search(r"(?:^|\s)vs\.?\s", label) or _GENERIC_LABEL.match(label):
            return False  # "Ray vs Spark", "vs RNN", "Usuarios conocidos": a bullet's role, no option
        return self._term_like(label, slide) or 1 <= len(ws) <= 3 and not _action_label(label) \
            and fold(ws[0]) not in _NOT_A_NAME

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
        judged against how often the source's text says it."""
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
            return _t("cloze", lang, s=f"{lead} {topic}, {_lower_first(blanked)}", c="")
        lib = self._framework(slide)
        generic = generic_title(slide.title)  # "(Errores comunes)" says nothing: the library, where code, does
        # (the blank's own CamelCase name is the library's class the sentence asks: "la clase _____")
        if lib and (_library_code(blanked, self._whole(slide.chunk.source)) or _library_code(answer)
                    or generic and _holds_code(f"{blanked} {answer}")) \
                and fold(lib) not in fold(blanked) and fold(lib) not in fold(answer):
            return _t("cloze", lang, s=f"{lead} {lib}, {_lower_first(blanked)}", c="")
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
            if _plain_words(topic, whole):
                topic = topic.lower()  # "Batching: …" is a title's capital
            if topic and not self._names(prompt, topic):
                prompt = _situate(prompt, topic, lang).replace(f"«{topic}»", topic)
            answer = _sentence_end(f"{term} = {rhs}")
            if parts:
                # every part a reply must name ("pós-processamento" was the fifth, and both raters of the "="
                # packet missed it), and what the answer says after them ("; não tem parâmetros treináveis")
                tail = _gist(rhs.split("; ", 1)[1], 8) if "; " in rhs else ""
                concepts = tuple(_gist(p, 6) or p for p in (re.sub(r"\s*\([^)]*\)", "", p).strip() for p in parts)
                                 if p)[:6] + ((tail,) if tail else ())
            else:
                gist = _gist(main, 14)
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
            gist = _gist(it.body, 14)
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
            # said nowhere else: unlike _plain_words, no lower-case use is needed as evidence)
            inside, low = name_uses(first, self._whole(source))
            bare = bare if inside > low else _lower_first(bare)
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
            shown = whole if _TECH.match(words(whole)[0]) else _lower_first(whole)
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
        if not bare or first in _PRONOUN or not _term_ok(bare) or _NOT_DEF.match(definition):
            return False
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
        # no "true" statement from it: a definition copied as true is judged at a glance (the
        # true/false a teacher keeps are false ones built by a swap: _labels, _scope_and_contrast)
        return True

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
            concepts = [_gist(it.body, 12) or next(iter(self._concepts(it.body, it.label, course, 1)), it.label)
                        for it in rows]
        # "entre tiempo de CPU y tiempo de GPU": a title's capital is no name's ("Ray vs Spark" keeps its)
        a, b = (_lower_first(x) if words(x) and everyday_word(words(x)[0].lower(), lang) else x for x in (a, b))
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
            if item.label and item.whole and not _GENERIC_LABEL.match(item.label) and not _META.match(item.body) \
                    and not re.search(r'[=\[\]{}"<>]|\w\(', item.label) and not _action_label(item.label):
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
            if not (_definitional(_claim(it.body)) or attribute):
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
            gist = _gist(main, 14)
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
            return _t("which_is", lang, c=in_ctx, t=f"{art} {_lower_first(bare)}")
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
                      and self._option_like(o.label, slide)][:3]
            if len(others) < 3 or sum(map(_code_like, others)) >= 2 and not _code_like(it.label):
                continue  # "Selección" among FLASH_ATTENTION, EFFICIENT, MATH: the odd one out is the answer
            parts = [p for p in re.split(r"[_\W]+|(?<=[a-z])(?=[A-Z])", _untagged(it.label).lower()) if len(p) >= 2]
            if len(parts) >= 2 and sum(any(fold(w).startswith(p) for w in words(it.body)) for p in parts) >= 2:
                continue  # "identificador do job" → SLURM_JOB_ID: the description spells the name
            if "_" in it.label and _spelled_in(it.label, it.body, others):
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
            plain = all(x.label[:1].islower() or _plain_words(x.label, whole) or _ARTICLE.match(x.label)
                        for x in (a, b))
            la, lb = (_lower_first(x.label) if _ARTICLE.match(x.label) or plain else x.label for x in (a, b))
            answer = f"{_sentence_end(a.label + ': ' + a.body)} {_sentence_end(b.label + ': ' + b.body)}"
            # each side's gist ("espera tras una reducción antes de volver a vigilar"): what a
            # reply must say of it; single words ("evaluaciones", "espera tras") were fragments
            gists = [_gist(x.body, 12) for x in (a, b)]
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
                prompt = _t("differ", lang, a=_lower_first(sides[0]), b=_lower_first(sides[1]))
            elif len(sides) == 2 and where != slide.title:
                # the "A vs B" line announces another list of the slide ("Repetibilidad" and
                # "Reproducibilidad" after "Bitwise" and "Estadística"): the slide is what this pair is of
                where, sides = self._about(slide), []
            topic = self._topic(slide)
            if topic and not self._names(prompt, topic):  # "En torch.export, ¿… strict y non-strict?"
                lead = {"pt": "Em", "es": "En"}.get(lang, "In")
                body = _lower_first(prompt) if prompt[0] != "¿" else "¿" + prompt[1].lower() + prompt[2:]
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
            plain = _plain_false(a.label, _before_arrow(b.body), lang)
            if not plain:
                continue
            lead = {"pt": "Em", "es": "En"}.get(lang, "In")
            first_w = plain.split(" ", 1)[0]
            if not _ARTICLE.match(a.label) and len(a.label.split()) > 1:
                plain = f"«{a.label}»" + plain[len(a.label):]  # "«Método fit» sirve para …"
            elif not (_TECH.match(first_w) or re.search(r"[A-Z]", first_w[1:])):
                plain = _lower_first(plain)
            stmt = _sentence_end(f"{lead} {in_ctx}, {plain}")
            ans = f"{_t('false', lang)}. {_t('source_says', lang, s=_sentence_end(a.label + ': ' + a.body))}"
            # the concept is what the label really means, not the bare label a reply would just repeat
            gist = _gist(a.body)
            concepts = (gist,) if gist else self._concepts(a.body, a.label, course, 3) or (a.label,)
            q = Question("tf", _t("tf", lang, s=stmt), ans, (), concepts, "easy", lang, correct=False,
                         origin="tf")
            # it asks both sentences: the one it borrows from is used up too
            out.append(self._draft(slide, a, q, fold(a.label), 1.9 + self._centrality(a.label, slide, course),
                                   also=(b,)))

    def _swappable(self, a: Item, b: Item, slide: Slide, lang: str, course: CourseTerms) -> bool:
        """``b``'s description said of ``a``'s label makes a false statement worth checking."""
        claim = _before_arrow(b.body)  # what b is, not what follows from it
        if dangling(claim) or len(words(claim)) < 5 or a.level != b.level \
                or fold(claim.split(" ", 1)[0]) in ("es", "son", "e", "sao", "is", "are"):
            return False  # (a sub-bullet's "Remedios: router z-loss, …" is no description of its parent)
        if _name_reveals(a, b):
            return False  # "Multiprocesamiento" described as the batch size: false at a glance
        if not (self._says_what(_before_arrow(a.body), course) and _definitional(claim, figures=True)):
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
        """A description that says what its label is: :func:`_definitional` (a figure allowed), or a
        noun phrase with no figure ("reserva atómica de un conjunto de bundles", "metadatos del
        clúster", "parsing, decodificação, normalização")."""
        if _definitional(body, figures=True):
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
                _GENERIC_LABEL.match(item.label) or not self._term_like(item.label, slide)) else item.text
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
                shown = _lower_first(subj) \
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
        from .checks import no_subject

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
        q = Question("short", _t("steps", lang, t=_lower_first(title)), answer, (), concepts[:5] or (title,), "hard",
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
                    q = Question("short", _t("scope", lang, t=_lower_first(pre)), _t("scope_answer", lang, x=x, y=y),
                                 (), concepts or (x,), "hard", lang, origin="scope")
                    out.append(self._draft(slide, item, q, "s:" + fold(pre)[:50], 2.9))
                    stmt = _t("scope_false", lang, t=_lower_first(pre), x=y, y=x)
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

    # ------------------------------------------------------------------ cloze on a key term
    def _cloze(self, slide: Slide, lang: str, course: CourseTerms, out: list[Draft]) -> None:
        """One cloze per slide, on its most important key term (see _cloze_pick)."""
        best = self._cloze_pick(slide, course)
        if not best:
            return
        score, s, term, item = best
        blanked = re.sub(rf"(?<![\w.]){re.escape(term)}(?![\w])", "_____", s, count=1)
        if "_____" not in blanked or _LIST_BLANK.search(blanked):
            return  # an item of an enumeration: any of its siblings would fit the blank
        accepted = tuple(a for a in dict.fromkeys((term.lower(), fold(term))) if a != term)
        q = Question("cloze", self._cloze_prompt(slide, _sentence_end(blanked), term, lang), term, (),
                     (term,), "easy", lang, accepted=accepted, origin="cloze")
        out.append(self._draft(slide, item, q, fold(term), 1.4 + 0.02 * score, quote=s))

    def _cloze_pick(self, slide: Slide, course: CourseTerms) -> tuple[float, str, str, Item] | None:
        """(score, sentence, term, item): the key term of the slide's plain sentences that
        scores highest by course importance and centrality; None when there is none."""
        best: tuple[float, str, str, Item] | None = None
        if _MISTAKES_TITLE.search(slide.title):
            return None  # "tomar out[:, -1] con secuencias rellenadas …": a mistake, not a fact to complete
        for item in slide.items:
            if not item.whole or item.label:
                continue
            # one clause: "Normalizar las entradas …; ReLU en la _____ tiende a explotar" asked two things
            for s in [c for x in sentences(item.text) or [item.text] for c in re.split(r";\s+", x)]:
                if not complete_sentence(s, min_words=8, max_words=40) or "?" in s or not _statement_start(s) \
                        or _refers_back(s) or " | " in s or " -> " in s:
                    # (a table's row in cells is no sentence; "X -> Y" says two things, and a blank in either
                    # half asked the other: both raters kept 2 of the 25 such clozes once arrows were read)
                    continue
                first = words(s)[0] if words(s) else ""
                for w in dict.fromkeys(words(s)):  # in the sentence's order: ties go to the first
                    if not self._key_term(w, s, first, course) or self._trivial_blank(w, s, slide, course):
                        continue
                    score = course.importance(w) + self._centrality(w, slide, course)
                    if best is None or score > best[0]:
                        best = (score, s, w, item)
        return best

    @staticmethod
    def _key_term(w: str, s: str, first: str, course: CourseTerms) -> bool:
        """The word of the sentence is a course term in its own right, a noun, not its first word."""
        fw = fold(w)
        if fw in STOPWORDS or fw in _FUNCTION_BLANK or len(fw) < 4 or fw.isdigit() or w == first:
            return False
        if course.df.get(fw, 0) < 2 or not (fw in course.pool_folded or _TECH.match(w)):
            return False
        if _NOT_NOUN_W.search(fw) and not _TECH.match(w):
            return False  # "… como este es _____ sobre la Mesh" → distribuido: a participle, no key term
        if any(fw in fold(t).split() and fold(t) != fw and f" {fold(t)} " in f" {norm(s)} "
               for t in course.terms_with(fw)):
            return False  # "parameter _____": half of a course term
        return True

    @staticmethod
    def _trivial_blank(w: str, s: str, slide: Slide, course: CourseTerms) -> bool:
        """Blanking the word would ask for one word of a phrase, trivia, or the obvious."""
        fw = fold(w)
        toks = [fold(x) for x in words(s)]
        i = toks.index(fw)
        near = [" ".join(toks[j:j + 2]) for j in (i - 1, i) if 0 <= j and j + 1 < len(toks)]
        if any(course.folded_text.count(f" {b} ") >= 2 for b in near):
            return True  # "parameter _____": one word of a phrase the course uses as a whole
        if course.df.get(fw, 0) > 0.08 * course.n_docs or re.search(rf"\([^)]*{re.escape(w)}", s):
            return True  # "GPUs" everywhere; "RDD (Resilient Distributed _____)": trivia
        deck = _deck_title(course, slide.chunk.source)
        if course.source_share(w, slide.chunk.source) > 0.3 or fw in fold(slide.title) or fw in fold(deck):
            # "PyTorch" in a PyTorch deck, the slide's own title, the deck's subject ("hiperparâmetros"
            # in "Otimização de hiperparâmetros em escala"): trivial blanks
            return True
        if re.search(rf"\w/{re.escape(w)}\b|\b{re.escape(w)}/\w", s):
            return True  # "ZeRO/_____": the other half of a pair of names gives it away
        if i and toks[i - 1] in _COMPARATIVE:
            return True  # "Mejor _____ al utilizar múltiples recursos": any good quality fits (escalabilidad,
            # rendimiento, velocidad; both raters of the clozes the list fix let through dropped it)
        return len(re.findall(rf"(?<![\w.]){re.escape(fw)}", fold(s))) != 1 or f"{w}(" in s

    # ------------------------------------------------------------------ ready-made exercises
    def _harvest(self, passages: Sequence[Chunk], request: GenerationRequest, course: CourseTerms,
                 out: WriterOutput) -> None:
        by_source: dict[str, list[Chunk]] = defaultdict(list)
        for c in passages:
            by_source[c.source].append(c)
        for source, chunks in by_source.items():
            chunks.sort(key=lambda c: c.ordinal)
            for prompt, answer_lines, chunk, bold in _exercise_items(chunks):
                answer = _clean(" ".join(answer_lines))
                lang = detect_language(prompt, default=chunk.lang)
                if request.lang and lang != request.lang:
                    continue
                if len(words(answer)) < 5:
                    out.rejected.append(Rejected(f"{source}: “{prompt[:80]}”",
                                                 "ready-made exercise without an answer in the course: not kept"))
                    continue
                first = sentences(answer)[0] if sentences(answer) else answer
                answer = _whole_sentences(answer, 1500)
                if not answer:
                    continue
                # the code names the answer gives (CUDA_VISIBLE_DEVICES, tf.device()) before its words
                named = _with_code_names(re.sub(r"\S+\.(?:py|txt|csv|json)\b", " ", answer), prompt,
                                         course.key_concepts(answer, exclude=prompt))
                # what the author set in bold in the answer is its point, as a teacher's key: "contêineres
                # gerenciados pelo próprio cluster", not "sessão; cliente" picked by rarity
                if key := _bold_concepts(bold, answer):
                    named = (*key, *(n for n in named if _CODE_NAME.fullmatch(n)))
                q = Question(type="short", prompt=_clean(prompt), answer=answer,
                             citations=(_citation(chunk, first),),
                             concepts=answer_concepts(named, prompt, answer, course, source),
                             difficulty="hard", lang=lang,
                             origin="harvested")
                # the course's own exercises first
                out.drafts.append(Draft(q, chunk, key="x:" + fold(prompt)[:60], priority=3.3))


class _Exercise(NamedTuple):
    """A numbered exercise of a source: its question, the lines of its answer (the text up to the
    next exercise), the passage that holds the answer's first line (or the question's, with none),
    and the phrases of its answer set in bold."""

    prompt: str
    lines: list[str]
    chunk: Chunk
    bold: list[str]


def _exercise_items(chunks: Sequence[Chunk]) -> list[_Exercise]:
    """A source's numbered exercises, in order. In an exercises section every numbered item is one;
    elsewhere only one that asks ("…?"), with its answer in the same passage."""
    items: list[_Exercise] = []
    asked_in = ""  # the passage of the last exercise's question
    prev: Chunk | None = None
    for c in chunks:
        in_section = bool(c.locator.heading and _EXERCISE_HEADING.search(c.locator.heading))
        open_item = False
        lines = c.text.split("\n")
        if prev is not None and c.ordinal == prev.ordinal + 1:
            # overlapping windows repeat the lines before: read them once, or an exercise whose question
            # ends one window and opens the next is asked twice, once "without an answer"
            lines = lines[_overlap(prev.text.split("\n"), lines):]
        prev = c
        for line in lines:
            m = re.match(r"^\s*(\d{1,2})[.)]\s+(.{10,})$", line)
            if m and not c.is_code:
                open_item = in_section or m.group(2).rstrip().endswith("?")
                if open_item:
                    items.append(_Exercise(m.group(2).strip(), [], c, []))
                    asked_in = c.id
            elif items and line.strip() and (in_section or (open_item and asked_in == c.id)):
                if not items[-1].lines:
                    items[-1] = items[-1]._replace(chunk=c)  # cited where the answer starts
                items[-1].lines.append(line.strip())
                items[-1].bold.extend(p for p in c.emphasis if " ".join(p.split()) in " ".join(line.split()))
    return items


# A bold phrase longer than this is a highlighted sentence, not a key term a reply must hold; set by
# hand on the sample course's exercises (their bold phrases run 1-9 words, one 24).
_BOLD_CONCEPT_MAX_WORDS = 10


def _bold_concepts(bold: Sequence[str], answer: str) -> tuple[str, ...]:
    """The phrases of a model answer its author set in bold, as concepts: in the answer, short
    enough to be a key term (see _BOLD_CONCEPT_MAX_WORDS), once each."""
    flat = " ".join(answer.split())
    return tuple(p for p in dict.fromkeys(" ".join(b.split()) for b in bold)
                 if p in flat and 1 <= len(words(p)) <= _BOLD_CONCEPT_MAX_WORDS)


def _overlap(a: list[str], b: list[str]) -> int:
    """How many lines ``b`` opens with that ``a`` ends on: what a window repeats of the one before."""
    return next((k for k in range(min(len(a), len(b)), 0, -1) if a[-k:] == b[:k]), 0)


def _whole_pages(passages: Sequence[Chunk]) -> list[tuple[Chunk, list[Chunk]]]:
    """The passages as the writer reads them: the text passages of one slide (a PDF page), which
    the chunker cut into overlapping windows, joined back into the whole slide, each with the
    passages it was joined from. A list cut in two ("Tipos de cuello de botella:" with four kinds
    over two windows) is one list again; code stays in its own passages."""
    out: list[tuple[Chunk, list[Chunk]]] = []
    for c in passages:
        last = out[-1] if out else None
        if last and c.kind == "pdf" and not c.is_code and last[0].kind == "pdf" and not last[0].is_code \
                and c.source == last[0].source and c.locator.page is not None \
                and c.locator.page == last[0].locator.page and c.ordinal == last[1][-1].ordinal + 1:
            a, b = last[0].text.split("\n"), c.text.split("\n")
            out[-1] = (replace(last[0], text="\n".join(a + b[_overlap(a, b):])), [*last[1], c])
        else:
            out.append((c, [c]))
    return out


def _cited_part(d: Draft, parts: list[Chunk]) -> Draft:
    """The draft cites the passage of its slide that holds its quote (most of its words), as stored."""
    if len(parts) == 1:
        return d
    quote = set(words(d.question.citations[0].quote)) if d.question.citations else set()
    best = max(parts, key=lambda p: len(quote & set(words(p.text))))
    cites = tuple(replace(c, chunk_id=best.id) for c in d.question.citations)
    return replace(d, chunk=best, question=replace(d.question, citations=cites))


def balance_positions(questions: list[Question]) -> list[Question]:
    """Place each multiple choice's correct option so positions rotate through a, b, c, d
    (deterministic: the rotation starts where the first question's hash says)."""
    out: list[Question] = []
    mcqs = [q for q in questions if q.type == "mcq"]
    start = int(content_hash(*(q.prompt for q in mcqs)), 16) % 4 if mcqs else 0
    i = 0
    for q in questions:
        if q.type != "mcq" or not isinstance(q.correct, int):
            out.append(q)
            continue
        right = q.choices[q.correct]
        others = sorted((c for j, c in enumerate(q.choices) if j != q.correct), key=lambda c: content_hash(q.prompt, c))
        pos = (start + i) % len(q.choices)
        i += 1
        choices = others[:pos] + [right] + others[pos:]
        out.append(Question(type=q.type, prompt=q.prompt, answer=right, citations=q.citations, concepts=q.concepts,
                            difficulty=q.difficulty, lang=q.lang, choices=tuple(choices), correct=pos,
                            accepted=q.accepted, origin=q.origin))
    return out
