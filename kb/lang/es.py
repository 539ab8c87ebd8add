"""Spanish wording of the offline writer's questions: one template per question shape, keyed as
:data:`kb.writing.wording._T` uses them (``{t}`` the term or subject, ``{of}`` "of it" said in the
language, other fields as named). Stdlib only."""

from __future__ import annotations

TEMPLATES: dict[str, str] = {
    "what_is": "¿Qué es {t}?",
    "made_of": "¿De qué partes se compone {t}?",
    "computed": "¿Cómo se calcula {t}?",
    # what a bullet labelled with its role says of the slide's subject ("Coste: …" under "QAT")
    "role_cost": "¿Qué coste tiene {t}?",
    "role_idea": "¿Cuál es la idea de {t}?",
    "role_problem": "¿Qué problema resuelve {t}?",
    "role_advantage": "¿Qué ventaja tiene {t}?",
    "role_limit": "¿Qué limitación tiene {t}?",
    "what_are": "¿Qué son {t}?",
    "means": "En {c}, ¿qué significa «{t}»?",
    "means_bare": "¿Qué significa «{t}»?",
    "consists": "¿En qué consiste {t}?",
    "which_is": "En {c}, ¿cuál es {t}?",
    "returns": "¿Qué devuelve {t}?",
    "used_for": "¿Para qué se utiliza {t}?",
    "purpose": "¿Para qué sirve {t}?",
    "differ": "¿Qué diferencia hay entre {a} y {b}?",
    "steps": "¿Qué pasos se siguen para {t}?",
    "scope": "¿Dónde se debe {t} y dónde no?",
    "scope_false": "Se debe {t} solo {x} y no {y}.",
    "complete": "Completa la frase{c}: «{s}»",
    "cloze": "Completa el espacio en blanco{c}: {s}",
    "which_label": "En {c}, ¿qué término corresponde a esta descripción: «{d}»?",
    "kind_term": "término",
    "kind": "tipo de",
    "which_kind": "¿Qué {k} corresponde a esta descripción: «{d}»?",
    "label_stmt": "En «{c}», «{t}» significa: {d}",
    "label_means": "En {c}, «{t}» significa: {d}",
    "scope_answer": "Solo {x} y no {y}.",
    "how": "¿Cómo se puede {t}?",
    "how_pl": "¿Cómo se pueden {t}?",
    "enables": "¿Qué permite {t}?",
    "enables_pl": "¿Qué permiten {t}?",
    "caveat": "¿Qué hay que tener en cuenta al {t}?",
    "parts": "¿Cuáles son {a} {n} {k} de {t}?",
    "in_entity": "En el {e} de {lib}",
    "passed_to": "El resultado se pasa a {w}: {c}.",
    "by": "Utilizar {t}.",
    "tf": "¿Verdadero o falso? {s}",
    "true": "Verdadero",
    "false": "Falso",
    "source_says": "La fuente dice: “{s}”",
}


# Titles that divide or administer a deck and teach nothing by themselves ("Introducción", "Agenda",
# "Otras herramientas", "Preguntas"): never a central idea, never a stem's setting. Folded (no accents).
DIVIDER_WORDS = frozenset("""introduccion agenda indice contenido contenidos temario resumen conclusion conclusiones
    preguntas respuestas dudas gracias referencias bibliografia objetivos objetivo repaso anexo apendice presentacion
    bienvenida motivacion descanso fin final cierre proxima recordatorio""".split())
# words that, beside divider words only, still say nothing ("Introducción al curso", "Otras herramientas")
FILLER_WORDS = frozenset("""curso tema unidad sesion clase parte otras otros otra otro mas adicionales herramientas
    generales general breve previo previos conceptos basicos""".split())
# words a slide title uses for one aspect of its subject, not the subject ("Beneficios de DDP", "Tipos de
# Data Augmentation", "Configuración de …", "Ejemplo de uso de …"): the outline files such titles under the
# subject they name (kb.outline's topics). Folded.
FACET_WORDS = frozenset("""introduccion beneficios beneficio ventajas desventajas ventaja tipos tipo configuracion
    ejemplo ejemplos uso usos implementacion aplicacion aplicaciones definicion conceptos concepto caracteristicas
    funcionamiento estructura creacion utilizar utilizacion manejo tecnicas avanzadas avanzada basico basicos
    consideraciones adicionales parte caso practica practicas limitaciones comparacion formula diagnostico
    detalles reglas nociones""".split())
# verbs a slide writes in the third person: a "term" holding one swallowed a clause ("Ray Tune determina")
VERBS = frozenset("""determina determinan permite permiten define definen usa usan utiliza utilizan realiza realizan
    calcula calculan hace hacen tiene tienen puede pueden debe deben genera generan crea crean ejecuta
    ejecutan devuelve devuelven contiene contienen proporciona proporcionan ofrece ofrecen ayuda ayudan
    reduce reducen aumenta aumentan mejora mejoran controla controlan decide deciden guarda guardan
    aplica aplican representa representan describe describen indica indican muestra muestran necesita
    necesitan requiere requieren soporta soportan implementa implementan elige eligen selecciona
    seleccionan combina combinan distribuye distribuyen divide dividen optimiza optimizan entrena
    entrenan evalua evaluan busca buscan prueba prueban asigna asignan lanza lanzan gestiona gestionan
    sirve sirven funciona funcionan consiste consisten significa""".split())
# a concept (what a grader marks with) that opens on one of these and is short is a fragment cut from its clause
# ("Con n capas", "En el backward", "de lanzar kernels"; r11/r12 raters); "sin"/"solo" open whole rules. Folded.
PHRASE_OPENERS = frozenset("""a al ante con contra de del desde en entre hacia hasta para por segun sobre tras mediante
    luego asi ademas tambien entonces despues antes aqui alli ahi si cuando aunque""".split())  # (a condition cut
# from its clause: "si el nodo muere")
# words a phrase never ends on when whole: a clitic or pronoun awaiting its verb or referent ("batch o un modelo
# mayor, lo"), a reflexive ("modelo en si"). Folded.
PRONOUN_ENDS = frozenset("lo la le los las les se me te nos si esto eso aquello ello este esta".split())
# determiners that need what they refer to ("mismo código": the same as what?). Folded.
REFERRING = frozenset("mismo misma mismos mismas dicho dicha otro otra tal".split())
# where a bullet gives an example, not the rule ("p. ej.", "por ejemplo"). Folded, lower case.
EXAMPLE_MARKS = ("p. ej.", "p.ej.", "por ejemplo", "ej.:", "ejemplo:")
# verbs a phrase cannot end on: each awaits its object ("Cambiar la geometría exige"); not those a clause ends on
# ("mientras la GPU entrena", "el código funciona"). Folded.
OBJECT_VERBS = frozenset("""exige exigen requiere requieren necesita necesitan permite permiten usa usan utiliza
    utilizan define definen contiene contienen devuelve devuelven proporciona proporcionan ofrece ofrecen incluye
    incluyen implica implican representa representan indica indican determina determinan""".split())
# the roles a slide's bullet labels name about its topic ("Problema: …", "Solución: …", "Ventaja: …"): folded
# label → what a question asks of that role (kb.writing.pattern_discourse joins two or three into one stem)
DISCOURSE: dict[str, str] = {
    "problema": "qué problema hay", "problemas": "qué problemas hay", "solucion": "cuál es la solución",
    "soluciones": "cuáles son las soluciones", "remedio": "cuál es el remedio",
    "ventaja": "qué ventaja tiene", "ventajas": "qué ventajas tiene", "desventaja": "qué desventaja tiene",
    "desventajas": "qué desventajas tiene", "limitacion": "qué limitación tiene",
    "limitaciones": "qué limitaciones tiene", "objetivo": "cuál es el objetivo", "idea": "cuál es la idea",
    "intuicion": "cuál es la intuición", "motivacion": "qué lo motiva", "causa": "cuál es la causa",
    "efecto": "qué efecto tiene", "efectos": "qué efectos tiene", "consecuencia": "qué consecuencia tiene",
    "consecuencias": "qué consecuencias tiene", "sintoma": "qué síntoma lo delata",
    "sintomas": "qué síntomas lo delatan",
    "cuando usar": "cuándo conviene usarlo", "cuando usarlo": "cuándo conviene usarlo",
    "cuando usarla": "cuándo conviene usarla", "coste": "qué coste tiene", "costo": "qué coste tiene",
    "costes": "qué costes tiene", "riesgo": "qué riesgo tiene", "beneficio": "qué beneficio tiene",
    "beneficios": "qué beneficios tiene", "resultado": "qué resultado da", "trade-off": "qué compromiso implica",
}
DISCOURSE_STEM = "En {s}, en «{t}», ¿{q}?"  # {q}: the roles' questions joined by ", " and DISCOURSE_AND
DISCOURSE_AND = " y "
# the kind a slide title adds to its topic ("All-reduce: definición", "Top-k — ejemplo"). Folded.
SLIDE_KINDS = frozenset("definicion ejemplo ejemplos procedimiento resumen intuicion idea uso".split())
# (folded) a slide's kind in two or three words: before a colon its topic follows ("Estudo de caso: redução paralela")
SLIDE_KIND_PHRASES = frozenset(("caso de estudio", "estudio de caso", "caso practico", "ejemplo practico"))

# A slide of common mistakes, each bullet "cause -> consequence" (kb/writing/pattern_errors.py)
ERROR_TITLES = frozenset(("errores comunes", "errores frecuentes", "errores tipicos", "errores habituales"))
ERROR_STEM = "En {s}, ¿qué consecuencia tiene este error frecuente: «{c}»?"
ERROR_FIX_STEM = "En {s}, ¿qué se debe hacer en lugar de esto: «{c}»?"  # the bullet's right side is a remedy
# a bullet "mistake: explanation" (kb.writing.pattern_errors.explained)
ERROR_WHY_STEM = "En {s}, ¿por qué es un error frecuente «{c}»?"

# The first word of a deck's closing summary slide, whose bullets name what the deck teaches (kb/outline.py)
SUMMARY_WORDS = frozenset("resumen conclusiones conclusion recapitulacion".split())
# A slide of results, folded ("Resultados principales", "Configuración experimental y resultados"): figures a
# question asks to recall, no topic to explain (kb/writing/pattern_topic.py); the plural only: "Tamaño del resultado de
# una convolución", "Soporte experimental para MPS", "Rastreamento de experimentos" are topics
RESULT_WORDS = frozenset(("resultados",))
# A slide title asked as a question about its topic (kb/writing/pattern_topic.py): the words that open a
# question ("Qué es NVIDIA DALI", "Cómo medir si compensa", "Por qué un caching allocator"), folded
QUESTION_WORDS = frozenset("que como cuando donde cual cuales cuanto cuantos cuanta cuantas por para".split())
# plural nouns of a kind of thing a slide lists ("Limitaciones", "Variantes de integración", "Errores
# comunes"): such a title is asked which they are. Folded.
KIND_WORDS = frozenset("""limitaciones ventajas desventajas beneficios problemas errores fallos trampas riesgos causas
    sintomas variantes componentes piezas partes elementos pasos etapas fases metricas formas maneras tipos
    categorias tecnicas estrategias metodos opciones alternativas modos reglas principios caracteristicas
    diferencias requisitos recomendaciones consejos mitigaciones soluciones detalles formatos""".split())
# words a slide labels its kind of point with, before a colon ("El problema: la GPU espera …", "Caso causal: …"):
# the title's topic is what follows. Folded.
ROLE_WORDS = frozenset("problema caso ejemplo idea nota orden regla ojo objetivo solucion clave".split())
# a singular noun whose gender its ending does not say: feminine in -e, -l, -r, -z; masculine in -a
FEMININE = frozenset("""variante fuente clave parte base frase clase nube red llave muerte suerte gente noche
    sal piel miel flor labor ley vez luz cruz raiz voz capaz sintaxis tesis crisis hipotesis sintesis dosis
    gestion cuestion digestion congestion sugestion
    forma plataforma norma suma firma rama alarma gama trama cama calma arma fama""".split())
# (-stión: the language's own, not "function"; -ma, of Greek, is masculine by rule, and the Latin nouns in -ma the
# rule would miss are listed: "las formas", not "los formas"; the masculine nouns in -ión and -is as well)
MASCULINE_A = frozenset("dia mapa sofa planeta avion camion guion sarampion bastion aluvion analisis enfasis".split())
TOPIC_STEMS: dict[str, str] = {  # {s}: the deck's subject; {q}: a question title; {np}: a noun phrase
    "question": "En {s}, ¿{q}?",
    "which_are": "En {s}, ¿cuáles son {np}?",
    "what_is": "En {s}, ¿qué es {np}?",
    "what_are": "En {s}, ¿qué son {np}?",
    "explain": "En {s}, explica {np}.",
    "explain_what": "En {s}, explica qué es {np}.",  # (no article its gender is sure of)
    "explain_what_many": "En {s}, explica qué son {np}.",
    "explain_this": "En {s}, explica {this} {np}: {rest}.",
    "steps": "En {s}, explica paso a paso {np}.",
    "differ": "En {s}, ¿qué diferencia hay entre {np}?",
    "how": "En {s}, ¿cómo se puede {np}?",  # a task title ("Medir tiempos con CUDA events")
    "steps_to": "En {s}, ¿qué pasos se siguen para {np}?",
    "why": "En {s}, explica por qué {np}.",  # a title that states a claim ("FlashAttention no es atención aproximada")
    "kind_for": "{kind} para {rest}",  # "Técnicas: reducir el consumo" → "las técnicas para reducir el consumo"
    "from_to": "En {s}, ¿cómo se pasa {np}?",  # ("Del plan a la ejecución": how one leads to the other)
    "implement": "En {s}, ¿cómo se implementa {np}?",  # a code slide's title ("CutMix en código")
    "apply": "En {s}, ¿cómo se aplica {np} en la práctica?",  # a practice slide's title ("FAISS en la práctica")
    "implement_many": "En {s}, ¿cómo se implementan {np}?",  # (a plural topic: "los callbacks" / "os hooks")
    "apply_many": "En {s}, ¿cómo se aplican {np} en la práctica?",
}
# a title that goes from one thing to another ("Do FLOP ao tempo"): its opening and joining words
# the tail of a title that shows its topic as code or in use ("CutMix en código", "FAISS en la práctica"): the
# topic is asked how it is implemented or applied (kb.writing.pattern_topic), never "¿qué es CutMix en código?"
DEMO_TAILS = {"implement": ("en código", "con código"), "apply": ("en la práctica", "en práctica")}
FROM_TO = (frozenset("de del".split()), frozenset("a al hacia".split()))  # (folded)
ARTICLES = {"m": "el", "f": "la", "mp": "los", "fp": "las", "this_m": "este", "this_f": "esta",
            "this_mp": "estos", "this_fp": "estas"}
AND = " y "
# numbers a title may open on ("Cuatro modelos en memoria": the article goes by the noun after)
NUMERALS = frozenset("dos tres cuatro cinco seis siete ocho nueve diez".split())
# a verb that makes a title a claim, not a noun phrase ("… no es atención aproximada"), besides VERBS. Folded.
COPULAS = frozenset("es son estan hay tiene tienen hace cambia cambian importa".split())

# issue 26, r11-r12 (kb.writing.stem_forms): a "what is X" answered by no definition asked by what the answer says
# instead; {x}: the thing the stem asked of. Folded words: a caution's, a possibility's (a consequence)
ANSWER_KIND_STEMS = {
    "mapping": "¿Qué hace {x} en cada caso?",
    "commands": "¿Cómo se pone en marcha {x}?",
    "instructions": "¿Qué hay que hacer con {x}?",
    "cautions": "¿Qué precauciones hay que tener al usar {x}?",
    "consequence": "¿Qué problema tiene que ver con {x}?",
    "consequence_fix": "¿Qué problema tiene que ver con {x} y cómo se resuelve?",
    "about": "¿Qué hay que tener en cuenta sobre {x}?",  # (no kind: kb.writing.form_retry)
}
HANDLING_VERBS = frozenset("usar utilizar llamar registrar convertir instalar".split())  # verbs of handling a thing
CAUTION_WORDS = frozenset("no nunca evitar evita evite cuidado solo jamas".split())
MODALS = frozenset("puede pueden podria podrian suele suelen".split())

# Words the writer reads titles and stems by (kb.writing.pattern_topic, kb.writing.stem_forms; kb.lang joins the
# three languages' lists: a title or stem is read in any of them). Lower case, as written unless "folded".
ARTICLE_WORDS = frozenset("el la los las un una".split())  # an article a noun phrase opens on
NEUTER_ARTICLES = frozenset(["lo"])  # stripped from the X of a stem's "what is X" (stem_forms), not from a title
# prepositions and contractions a noun phrase does not open on ("Con DDP", "Desde cero"). Folded.
NO_HEAD_WORDS = frozenset("de del con sin en entre al desde hasta para por sobre segun".split())
OF_WORDS = frozenset("de del".split())  # "X de Y", the contraction too. Folded.
# a question's opening of two words, of which the first alone is no question word ("por que", "en que"). Folded.
TWO_WORD_QUESTIONS = frozenset(("por que", "para que", "a que", "en que"))
WHAT_IS_ASKS = ("qué es", "que es", "qué son", "que son")  # a stem's "what is X", with and without the accent
MEANS_ASKS = ("qué significa", "que significa")  # a stem's "what does «X» mean", before «X»
MEANS_ASK_ENDS: tuple[str, ...] = ()  # what follows «X» in that question (English: "mean")
# a second question after a stem's X ("¿Qué es MPS y para qué sirve?"), after AND: its opening, as written
FOLLOW_UP_QUESTIONS = ("qué", "que", "cómo", "como", "cuándo", "cuando", "cuál", "cual", "cuáles", "cuales",
                       "por qué", "por que", "porqué", "porque", "para qué", "para que", "dónde", "donde")
# a procedure named after a title's colon ("Ring all-reduce: procedimiento con N = 4")
PROCEDURE_WORDS = ("procedimiento", "paso a paso")
NEGATIONS = frozenset(["no"])  # (folded) a caution opens on one before an instruction ("No registrar …")
ONLY_WORDS = frozenset(["solo"])  # (folded) a caution word that does not open a caution ("Solo …" states a rule)
FEMININE_ENDS = ("cion", "sion", "xion", "dad", "tad", "tud", "umbre")  # a folded singular noun's, feminine
IN_ARTICLES = {"el": "en el", "la": "en la", "los": "en los", "las": "en las"}  # "in" before each article

# a model answer's item that is an aside, not one of its points (kb.writing.answer_points), by its label's first
# word ("Ejemplo interno: …", "Consecuencia: …", "Nota: …"); and a label that dates a remark ("Opciones más
# nuevas: …"). Folded.
ASIDE_LABELS = frozenset("ejemplo ejemplos consecuencia nota curiosidad consejo truco".split())
NEWER_WORDS = frozenset("nuevas nuevos nueva nuevo recientes reciente".split())
# what opens a list of examples in a model answer's point, not its claim (kb.writing.answer_points). Lower case.
EXAMPLE_LEADS = ("pueden incluir", "puede incluir", "tales como", "como por ejemplo")
