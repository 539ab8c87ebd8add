"""Portuguese wording of the offline writer's questions: one template per question shape, keyed as
:data:`kb.writing.wording._T` uses them (``{t}`` the term or subject, ``{of}`` "of it" said in the
language, other fields as named). Stdlib only."""

from __future__ import annotations

TEMPLATES: dict[str, str] = {
    "what_is": "O que é {t}?",
    "made_of": "De que partes se compõe {t}?",
    "computed": "Como se calcula {t}?",
    # what a bullet labelled with its role says of the slide's subject ("Coste: …" under "QAT")
    "role_cost": "Qual é o custo {of}?",
    "role_idea": "Qual é a ideia {of}?",
    "role_problem": "Que problema {t} resolve?",
    "role_advantage": "Qual é a vantagem {of}?",
    "role_limit": "Qual é a limitação {of}?",
    "what_are": "O que são {t}?",
    "means": "Em {c}, o que significa «{t}»?",
    "means_bare": "O que significa «{t}»?",
    "consists": "Em que consiste {t}?",
    "which_is": "Em {c}, qual é {t}?",
    "returns": "O que retorna {t}?",
    "used_for": "Para que é usado {t}?",
    "purpose": "Para que serve {t}?",
    "differ": "Qual é a diferença entre {a} e {b}?",
    "steps": "Quais são os passos para {t}?",
    "scope": "Onde se deve {t} e onde não?",
    "scope_false": "Deve-se {t} apenas {x} e não {y}.",
    "complete": "Complete a frase{c}: «{s}»",
    "cloze": "Complete a lacuna{c}: {s}",
    "which_label": "Em {c}, qual termo corresponde a esta descrição: «{d}»?",
    "kind_term": "termo",
    "kind": "tipo de",
    "which_kind": "Qual {k} corresponde a esta descrição: «{d}»?",
    "label_stmt": "Em «{c}», «{t}» significa: {d}",
    "label_means": "Em {c}, «{t}» significa: {d}",
    "scope_answer": "Apenas {x} e não {y}.",
    "how": "Como se pode {t}?",
    "how_pl": "Como se podem {t}?",
    "enables": "O que permite {t}?",
    "enables_pl": "O que permitem {t}?",
    "caveat": "O que se deve ter em conta ao {t}?",
    "parts": "Quais são {a} {n} {k} de {t}?",
    "in_entity": "No {e} do {lib}",
    "passed_to": "O resultado é passado para {w}: {c}.",
    "by": "Utilizar {t}.",
    "tf": "Verdadeiro ou falso? {s}",
    "true": "Verdadeiro",
    "false": "Falso",
    "source_says": "A fonte diz: “{s}”",
}


# Titles that divide or administer a deck and teach nothing by themselves ("Introdução", "Agenda",
# "Outras ferramentas", "Perguntas"): never a central idea, never a stem's setting. Folded (no accents).
DIVIDER_WORDS = frozenset("""introducao agenda indice sumario conteudo conteudos roteiro resumo conclusao conclusoes
    perguntas respostas duvidas obrigado obrigada referencias bibliografia objetivos objetivo revisao anexo apendice
    apresentacao boas-vindas motivacao intervalo fim final encerramento proxima lembrete""".split())
# words that, beside divider words only, still say nothing ("Introdução ao curso", "Outras ferramentas")
FILLER_WORDS = frozenset("""curso tema unidade sessao aula parte outras outros outra outro mais adicionais
    ferramentas gerais geral breve previo previos conceitos basicos""".split())
# words a slide title uses for one aspect of its subject, not the subject ("Benefícios de DDP", "Tipos de
# …", "Configuração de …", "Exemplo de uso de …"): the outline files such titles under the subject they
# name (kb.outline's topics). Folded.
FACET_WORDS = frozenset("""introducao beneficios beneficio vantagens desvantagens vantagem tipos tipo configuracao
    exemplo exemplos uso usos implementacao aplicacao aplicacoes definicao conceitos conceito caracteristicas
    funcionamento estrutura criacao utilizar utilizacao manejo tecnicas avancadas avancada basico basicos
    consideracoes adicionais parte caso pratica praticas limitacoes comparacao formula diagnostico
    detalhes regras nocoes""".split())
# verbs a slide writes in the third person: a "term" holding one swallowed a clause ("Ray Tune determina")
VERBS = frozenset("""determina determinam permite permitem define definem usa usam utiliza utilizam realiza realizam
    calcula calculam faz fazem tem têm pode podem deve devem gera geram cria criam executa executam
    retorna retornam contém contêm fornece fornecem oferece oferecem ajuda ajudam reduz reduzem aumenta
    aumentam melhora melhoram controla controlam decide decidem salva salvam carrega carregam aplica
    aplicam representa representam descreve descrevem indica indicam mostra mostram precisa precisam
    requer requerem suporta suportam implementa implementam escolhe escolhem seleciona selecionam
    combina combinam distribui distribuem divide dividem otimiza otimizam treina treinam avalia avaliam
    busca buscam testa testam atribui atribuem lança lançam gerencia gerenciam serve servem funciona
    funcionam consiste consistem significa""".split())
# a concept (what a grader marks with) that opens on one of these and is short is a fragment cut from its clause
# ("Na prática", "de lanzar kernels"; r11/r12 raters); "sem"/"so" open whole rules; "a"/"o" are articles. Folded.
PHRASE_OPENERS = frozenset("""ao aos com contra de da das do dos desde em entre na nas no nos num numa para pela
    pelas pelo pelos por sobre apos ate mediante depois antes entao assim alem tambem aqui ali se quando embora
    caso""".split())  # (a condition cut from its clause: "se o nó morre")
# words a phrase never ends on when whole: a pronoun awaiting its verb or referent, a reflexive ("modelo em si").
PRONOUN_ENDS = frozenset("o lo la lhe lhes se me te si isso isto aquilo este esta esse essa".split())  # ("nós": nodes)
# determiners that need what they refer to ("mesmo código": the same as what?). Folded.
REFERRING = frozenset("mesmo mesma mesmos mesmas dito dita outro outra tal".split())
# where a bullet gives an example, not the rule ("ex.:", "por exemplo"). Folded, lower case.
EXAMPLE_MARKS = ("ex.:", "ex.", "p. ex.", "por exemplo", "exemplo:")
# verbs a phrase cannot end on: each awaits its object ("Mudar a geometria exige"); not those a clause ends on
# ("enquanto a GPU treina", "o código funciona"). Folded.
OBJECT_VERBS = frozenset("""exige exigem requer requerem permite permitem usa usam utiliza utilizam define definem
    contem retorna retornam fornece fornecem oferece oferecem inclui incluem implica implicam representa representam
    indica indicam determina determinam""".split())
# the roles a slide's bullet labels name about its topic ("Problema: …", "Solução: …", "Vantagem: …"): folded
# label → what a question asks of that role (kb.writing.pattern_discourse joins two or three into one stem)
DISCOURSE: dict[str, str] = {
    "problema": "qual é o problema", "problemas": "quais são os problemas", "solucao": "qual é a solução",
    "solucoes": "quais são as soluções", "remedio": "qual é o remédio",
    "vantagem": "qual é a vantagem", "vantagens": "quais são as vantagens", "desvantagem": "qual é a desvantagem",
    "desvantagens": "quais são as desvantagens", "limitacao": "qual é a limitação",
    "limitacoes": "quais são as limitações", "objetivo": "qual é o objetivo", "ideia": "qual é a ideia",
    "intuicao": "qual é a intuição", "motivacao": "qual é a motivação", "causa": "qual é a causa",
    "efeito": "qual é o efeito", "efeitos": "quais são os efeitos", "consequencia": "qual é a consequência",
    "consequencias": "quais são as consequências", "sintoma": "qual é o sintoma", "sintomas": "quais são os sintomas",
    "quando usar": "quando convém usá-lo", "custo": "qual é o custo", "custos": "quais são os custos",
    "risco": "qual é o risco", "beneficio": "qual é o benefício", "beneficios": "quais são os benefícios",
    "resultado": "qual é o resultado", "trade-off": "qual é o trade-off",
}
DISCOURSE_STEM = "Em {s}, em «{t}», {q}?"  # {q}: the roles' questions joined by ", " and DISCOURSE_AND
DISCOURSE_AND = " e "
# the kind a slide title adds to its topic ("All-reduce: definição", "Top-k — exemplo"). Folded.
SLIDE_KINDS = frozenset("definicao exemplo exemplos procedimento resumo intuicao ideia uso".split())
# (folded) a slide's kind in two or three words: before a colon its topic follows ("Estudo de caso: redução paralela")
SLIDE_KIND_PHRASES = frozenset(("estudo de caso", "caso de estudo", "caso pratico", "exemplo pratico"))

# A slide of common mistakes, each bullet "cause -> consequence" (kb/writing/pattern_errors.py)
ERROR_TITLES = frozenset(("erros comuns", "erros frequentes", "erros tipicos", "armadilhas comuns"))
ERROR_STEM = "Em {s}, que consequência tem este erro comum: «{c}»?"
ERROR_FIX_STEM = "Em {s}, o que se deve fazer em vez disto: «{c}»?"  # the bullet's right side is a remedy
# a bullet "mistake: explanation" (kb.writing.pattern_errors.explained)
ERROR_WHY_STEM = "Em {s}, por que é um erro comum «{c}»?"

# The first word of a deck's closing summary slide, whose bullets name what the deck teaches (kb/outline.py)
SUMMARY_WORDS = frozenset("resumo conclusoes conclusao recapitulacao".split())
# A slide of results, folded ("Resultados principales", "Configuración experimental y resultados"): figures a
# question asks to recall, no topic to explain (kb/writing/pattern_topic.py); the plural only: "Tamaño del resultado de
# una convolución", "Soporte experimental para MPS", "Rastreamento de experimentos" are topics
RESULT_WORDS = frozenset(("resultados",))
# A slide title asked as a question about its topic (kb/writing/pattern_topic.py): the words that open a
# question ("O que é X", "Como medir …", "Por que escrever uma extensão?"), folded
QUESTION_WORDS = frozenset("que o como quando onde qual quais quanto quantos quanta quantas por para".split())
# plural nouns of a kind of thing a slide lists ("Limitações", "Peças do ecossistema", "Categorias de
# triplas"): such a title is asked which they are. Folded.
KIND_WORDS = frozenset("""limitacoes vantagens desvantagens beneficios problemas erros falhas armadilhas riscos causas
    sintomas variantes componentes pecas partes elementos passos etapas fases metricas formas maneiras tipos
    categorias tecnicas estrategias metodos opcoes alternativas modos regras principios caracteristicas
    diferencas requisitos recomendacoes dicas mitigacoes solucoes detalhes formatos""".split())
# words a slide labels its kind of point with, before a colon ("O problema: …", "Caso causal: …"). Folded.
ROLE_WORDS = frozenset("problema caso exemplo ideia nota ordem regra atencao objetivo solucao chave".split())
# a singular noun whose gender its ending does not say: feminine in -e, -l, -r, -z; masculine in -a
FEMININE = frozenset("""variante fonte chave parte base frase classe nuvem rede ponte morte sorte gente noite
    vez luz cruz raiz voz cor dor flor
    forma plataforma norma soma firma rama gama trama cama calma arma fama""".split())
# (-ma, of Greek, is masculine by rule: the Latin nouns in -ma are listed above, "as formas", not "os formas")
MASCULINE_A = frozenset("dia mapa sofa planeta".split())
TOPIC_STEMS: dict[str, str] = {
    "question": "Em {s}, {q}?",
    "which_are": "Em {s}, quais são {np}?",
    "what_is": "Em {s}, o que é {np}?",
    "what_are": "Em {s}, o que são {np}?",
    "explain": "Em {s}, explique {np}.",
    "explain_what": "Em {s}, explique o que é {np}.",
    "explain_what_many": "Em {s}, explique o que são {np}.",
    "explain_this": "Em {s}, explique {this} {np}: {rest}.",
    "steps": "Em {s}, explique passo a passo {np}.",
    "differ": "Em {s}, qual é a diferença entre {np}?",
    "how": "Em {s}, como se pode {np}?",  # a task title ("Medir tiempos con CUDA events")
    "steps_to": "Em {s}, quais são os passos para {np}?",
    "why": "Em {s}, explique por que {np}.",  # a title that states a claim ("FlashAttention no es atención aproximada")
    "kind_for": "{kind} para {rest}",
    "from_to": "Em {s}, como se passa {np}?",  # ("Do FLOP ao tempo": how one leads to the other)
    "implement": "Em {s}, como se implementa {np}?",  # a code slide's title ("Fine-tuning em código")
    "apply": "Em {s}, como se aplica {np} na prática?",  # a practice slide's title ("WordPiece na prática")
    "implement_many": "Em {s}, como se implementam {np}?",  # (a plural topic: "los callbacks" / "os hooks")
    "apply_many": "Em {s}, como se aplicam {np} na prática?",
}
# a title that goes from one thing to another ("Do FLOP ao tempo"): its opening and joining words
# the tail of a title that shows its topic as code or in use ("Fine-tuning em código", "WordPiece na prática"): the
# topic is asked how it is implemented or applied (kb.writing.pattern_topic), never "o que é o fine-tuning em código?"
DEMO_TAILS = {"implement": ("em código", "com código", "no código"), "apply": ("na prática", "em prática")}
FROM_TO = (frozenset("de do da dos das".split()), frozenset("a ao a aos as para".split()))  # (folded)
ARTICLES = {"m": "o", "f": "a", "mp": "os", "fp": "as", "this_m": "este", "this_f": "esta",
            "this_mp": "estes", "this_fp": "estas"}
AND = " e "
# numbers a title may open on ("Cuatro modelos en memoria": the article goes by the noun after)
NUMERALS = frozenset("dois duas tres quatro cinco seis sete oito nove dez".split())
# a verb that makes a title a claim, not a noun phrase ("… no es atención aproximada"), besides VERBS. Folded.
COPULAS = frozenset("sao estao ha tem fazem faz muda mudam importa".split())

# issue 26, r11-r12 (kb.writing.stem_forms): a "what is X" answered by no definition asked by what the answer says
# instead; {x}: the thing the stem asked of. Folded words: a caution's, a possibility's (a consequence)
ANSWER_KIND_STEMS = {
    "mapping": "O que {x} faz em cada caso?",
    "commands": "Como se coloca {x} em funcionamento?",
    "instructions": "O que fazer com {x}?",
    "cautions": "Que cuidados tomar ao usar {x}?",
    "consequence": "Que problema tem a ver com {x}?",
    "consequence_fix": "Que problema tem a ver com {x} e como resolvê-lo?",
    "about": "O que se deve ter em conta sobre {x}?",  # (no kind: kb.writing.form_retry)
}
HANDLING_VERBS = frozenset("usar utilizar chamar registrar converter instalar".split())  # verbs of handling a thing
CAUTION_WORDS = frozenset("nao nunca evitar evite cuidado so jamais".split())
MODALS = frozenset("pode podem poderia poderiam costuma costumam".split())

# Words the writer reads titles and stems by (kb.writing.pattern_topic, kb.writing.stem_forms; kb.lang joins the
# three languages' lists: a title or stem is read in any of them). Lower case, as written unless "folded".
ARTICLE_WORDS = frozenset("o a os as um uma".split())  # an article a noun phrase opens on
NEUTER_ARTICLES: frozenset[str] = frozenset()
# prepositions and contractions a noun phrase does not open on ("Da energia ao carbono", "Com DDP"). Folded.
NO_HEAD_WORDS = frozenset("de da do das dos com sem em entre ao aos desde ate para por sobre".split())
OF_WORDS = frozenset("de do da dos das".split())  # "X de Y", the contractions too. Folded.
# a question's opening of two words, of which the first alone is no question word ("o que", "por que"). Folded.
TWO_WORD_QUESTIONS = frozenset(("por que", "para que", "o que", "a que", "em que"))
WHAT_IS_ASKS = ("o que é", "o que e", "o que são", "o que sao")  # a stem's "what is X", with and without accents
MEANS_ASKS = ("o que significa",)  # a stem's "what does «X» mean", before «X»
MEANS_ASK_ENDS: tuple[str, ...] = ()  # what follows «X» in that question (English: "mean")
# a second question after a stem's X ("O que é X e quando usá-lo?"), after AND: its opening, as written
FOLLOW_UP_QUESTIONS = ("que", "o que", "como", "quando", "qual", "quais", "por que", "porque", "para que", "onde")
# a procedure named after a title's colon ("Ring all-reduce: procedimento com N = 4")
PROCEDURE_WORDS = ("procedimento", "passo a passo")
NEGATIONS = frozenset(["nao"])  # (folded) a caution opens on one before an instruction ("Não registrar …")
ONLY_WORDS = frozenset(["so"])  # (folded) a caution word that does not open a caution ("Só …" states a rule)
FEMININE_ENDS = ("cao", "sao", "xao", "dade", "gem", "tude")  # a folded singular noun's, feminine
IN_ARTICLES = {"o": "no", "a": "na", "os": "nos", "as": "nas"}  # "in" before each article

# a model answer's item that is an aside, not one of its points (kb.writing.answer_points), by its label's first
# word ("Exemplo: …", "Consequência: …", "Nota: …"); and a label that dates a remark ("Opções mais novas: …").
# Folded.
ASIDE_LABELS = frozenset("exemplo exemplos consequencia nota curiosidade dica truque".split())
NEWER_WORDS = frozenset("novas novos nova novo recentes recente".split())
# what opens a list of examples in a model answer's point, not its claim (kb.writing.answer_points). Lower case.
EXAMPLE_LEADS = ("podem incluir", "pode incluir", "tais como", "como por exemplo")
