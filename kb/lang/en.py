"""English wording of the offline writer's questions: one template per question shape, keyed as
:data:`kb.writing.wording._T` uses them (``{t}`` the term or subject, ``{of}`` "of it" said in the
language, other fields as named). Stdlib only."""

from __future__ import annotations

TEMPLATES: dict[str, str] = {
    "what_is": "What is {t}?",
    "made_of": "What parts make up {t}?",
    "computed": "How is {t} computed?",
    # what a bullet labelled with its role says of the slide's subject ("Coste: …" under "QAT")
    "role_cost": "What does {t} cost?",
    "role_idea": "What is the idea behind {t}?",
    "role_problem": "What problem does {t} solve?",
    "role_advantage": "What is the advantage of {t}?",
    "role_limit": "What is the limitation of {t}?",
    "what_are": "What are {t}?",
    "means": "In {c}, what does «{t}» mean?",
    "means_bare": "What does «{t}» mean?",
    "consists": "What is {t}?",
    "which_is": "In {c}, what is {t}?",
    "returns": "What does {t} return?",
    "used_for": "What is {t} used for?",
    "purpose": "Why should you {t}?",
    "differ": "What is the difference between {a} and {b}?",
    "steps": "What are the steps to {t}?",
    "scope": "Where should you {t}, and where not?",
    "scope_false": "You should {t} only {x} and not {y}.",
    "complete": "Complete the sentence{c}: «{s}»",
    "cloze": "Fill in the blank{c}: {s}",
    "which_label": "In {c}, which term matches this description: «{d}»?",
    "kind_term": "term",
    "kind": "kind of",
    "which_kind": "Which {k} matches this description: «{d}»?",
    "label_stmt": "In «{c}», «{t}» means: {d}",
    "label_means": "In {c}, «{t}» means: {d}",
    "scope_answer": "Only {x} and not {y}.",
    "how": "How do you {t}?",
    "how_pl": "How do you {t}?",
    "enables": "What does {t} allow?",
    "enables_pl": "What do {t} allow?",
    "caveat": "What must you keep in mind when {t}?",
    "parts": "What are the {n} {k} of {t}?",
    "in_entity": "In {lib}'s {e}",
    "passed_to": "Its result is passed to {w}: {c}.",
    "by": "Use {t}.",
    "tf": "True or false? {s}",
    "true": "True",
    "false": "False",
    "source_says": "The source says: “{s}”",
}


# Titles that divide or administer a deck and teach nothing by themselves ("Introduction", "Agenda",
# "Other tools", "Questions"): never a central idea, never a stem's setting. Folded (lower case).
DIVIDER_WORDS = frozenset("""introduction intro agenda index contents outline summary conclusion conclusions
    questions answers thanks thank references bibliography objectives goals recap review appendix welcome motivation
    break end wrap-up closing reminder""".split())
# words that, beside divider words only, still say nothing ("Introduction to the course", "Other tools")
FILLER_WORDS = frozenset("""course topic unit session lecture class part other more additional tools general brief
    overview basic basics concepts you""".split())
# words a slide title uses for one aspect of its subject, not the subject ("Benefits of DDP", "Types of
# …", "Configuring …", "Example use of …"): the outline files such titles under the subject they name
# (kb.outline's topics). Lower case.
FACET_WORDS = frozenset("""introduction benefits benefit advantages disadvantages types type configuration
    configuring example examples use uses usage implementation implementing application applications definition
    concepts concept features structure creating creation using handling techniques advanced basic basics
    considerations additional part case practice practices limitations comparison overview
    details rules""".split())
# verbs a slide writes in the third person: a "term" holding one swallowed a clause ("Ray Tune determina")
VERBS = frozenset("""determines allows defines uses performs computes calculates makes has can must should generates
    creates runs executes returns contains provides offers helps reduces increases improves controls
    decides saves loads applies represents describes indicates shows needs requires supports implements
    chooses selects combines distributes divides optimizes trains evaluates searches tests assigns
    launches manages serves works consists means""".split())
# a concept (what a grader marks with) that opens on one of these and is short is a fragment cut from its clause
# ("In the backward", "with n layers"). Folded.
PHRASE_OPENERS = frozenset("""at by for from in into of on to with within then also thus here there after
    before if when although""".split())
# words a phrase never ends on when whole: a pronoun awaiting its verb or referent. Folded.
PRONOUN_ENDS = frozenset("it them this that these those itself".split())
# determiners that need what they refer to ("same code": the same as what?). Folded.
REFERRING = frozenset("same such other said".split())
# where a bullet gives an example, not the rule. Folded, lower case.
EXAMPLE_MARKS = ("e.g.", "for example", "for instance", "eg.")
# verbs a phrase cannot end on: each awaits its object ("Changing the geometry requires"). Folded.
OBJECT_VERBS = frozenset("""requires require needs need allows allow uses use defines define contains contain returns
    return provides provide offers offer includes include implies imply represents represent indicates indicate
    determines determine""".split())
# the roles a slide's bullet labels name about its topic ("Problem: …", "Solution: …", "Advantage: …"): folded
# label → what a question asks of that role (kb.writing.pattern_discourse joins two or three into one stem)
DISCOURSE: dict[str, str] = {
    "problem": "what is the problem", "problems": "what are the problems", "solution": "what is the solution",
    "solutions": "what are the solutions", "remedy": "what is the remedy",
    "advantage": "what is the advantage", "advantages": "what are the advantages", "pro": "what is the advantage",
    "pros": "what are the advantages", "con": "what is the drawback", "cons": "what are the drawbacks",
    "disadvantage": "what is the drawback", "drawback": "what is the drawback", "limitation": "what is the limitation",
    "limitations": "what are the limitations", "goal": "what is the goal", "idea": "what is the idea",
    "intuition": "what is the intuition", "motivation": "what motivates it", "cause": "what is the cause",
    "effect": "what is the effect", "consequence": "what is the consequence", "symptom": "what is the symptom",
    "when to use": "when is it used", "cost": "what does it cost", "risk": "what is the risk",
    "benefit": "what is the benefit", "benefits": "what are the benefits", "result": "what is the result",
    "trade-off": "what is the trade-off",
}
DISCOURSE_STEM = "In {s}, in «{t}», {q}?"  # {q}: the roles' questions joined by ", " and DISCOURSE_AND
DISCOURSE_AND = " and "
# the kind a slide title adds to its topic ("All-reduce: definition", "Top-k — example"). Lower case.
SLIDE_KINDS = frozenset("definition example examples procedure summary intuition idea usage".split())
# (folded) a slide's kind in two or three words: before a colon its topic follows ("Estudo de caso: redução paralela")
SLIDE_KIND_PHRASES = frozenset(("case study", "worked example"))

# A slide of common mistakes, each bullet "cause -> consequence" (kb/writing/pattern_errors.py)
ERROR_TITLES = frozenset(("common mistakes", "common errors", "common pitfalls", "pitfalls"))
ERROR_STEM = "In {s}, what is the consequence of this common mistake: «{c}»?"
ERROR_FIX_STEM = "In {s}, what should be done instead of this: «{c}»?"  # the bullet's right side is a remedy
# a bullet "mistake: explanation" (kb.writing.pattern_errors.explained)
ERROR_WHY_STEM = "In {s}, why is «{c}» a common mistake?"

# The first word of a deck's closing summary slide, whose bullets name what the deck teaches (kb/outline.py)
SUMMARY_WORDS = frozenset("summary conclusions conclusion recap takeaways".split())
# A slide of results, folded ("Main results", "Experimental setup and results"): figures a question asks to recall,
# no topic to explain (kb/writing/pattern_topic.py); the plural only: "Size of a convolution's result", "Experimental
# support for MPS" are topics
RESULT_WORDS = frozenset(("results",))
# A slide title asked as a question about its topic (kb/writing/pattern_topic.py): the words that open a
# question ("What is NVIDIA DALI", "How to measure …", "Why write an extension?"), folded
QUESTION_WORDS = frozenset("what how when where which why who".split())
# plural nouns of a kind of thing a slide lists ("Limitations", "Common errors", "Components of …"). Folded.
KIND_WORDS = frozenset("""limitations advantages disadvantages benefits problems errors mistakes failures pitfalls
    risks causes symptoms variants components pieces parts elements steps stages phases metrics ways types
    categories techniques strategies methods options alternatives modes rules principles features differences
    requirements recommendations tips mitigations solutions details formats""".split())
ROLE_WORDS = frozenset("problem case example idea note order rule caveat goal solution key".split())
FEMININE: frozenset[str] = frozenset()  # (English nouns have no gender: one article)
MASCULINE_A: frozenset[str] = frozenset()
TOPIC_STEMS: dict[str, str] = {
    "question": "In {s}, {q}?",
    "which_are": "In {s}, what are {np}?",
    "what_is": "In {s}, what is {np}?",
    "what_are": "In {s}, what are {np}?",
    "explain": "In {s}, explain {np}.",
    "explain_what": "In {s}, explain what {np} is.",
    "explain_what_many": "In {s}, explain what {np} are.",
    "explain_this": "In {s}, explain {this} {np}: {rest}.",
    "steps": "In {s}, explain step by step {np}.",
    "differ": "In {s}, what is the difference between {np}?",
    "how": "In {s}, how can one {np}?",  # a task title ("Medir tiempos con CUDA events")
    "steps_to": "In {s}, what are the steps to {np}?",
    "why": "In {s}, explain why {np}.",  # a title that states a claim ("FlashAttention no es atención aproximada")
    "kind_for": "{kind} for {rest}",
    "from_to": "In {s}, how do you get {np}?",  # ("From FLOPs to time": how one leads to the other)
    "implement": "In {s}, how do you implement {np}?",  # a code slide's title ("CutMix in code")
    "apply": "In {s}, how do you apply {np} in practice?",  # a practice slide's title ("FAISS in practice")
}
# a title that goes from one thing to another ("Do FLOP ao tempo"): its opening and joining words
# the tail of a title that shows its topic as code or in use ("CutMix in code", "FAISS in practice")
DEMO_TAILS = {"implement": ("in code", "with code"), "apply": ("in practice",)}
FROM_TO = (frozenset(["from"]), frozenset(["to"]))  # (folded)
ARTICLES = {"m": "the", "f": "the", "mp": "the", "fp": "the", "this_m": "this", "this_f": "this",
            "this_mp": "these", "this_fp": "these"}
AND = " and "
# numbers a title may open on ("Cuatro modelos en memoria": the article goes by the noun after)
NUMERALS = frozenset("two three four five six seven eight nine ten".split())
# a verb that makes a title a claim, not a noun phrase ("… no es atención aproximada"), besides VERBS. Folded.
COPULAS = frozenset("is are has have does do changes matters".split())

# issue 26, r11-r12 (kb.writing.stem_forms): a "what is X" answered by no definition asked by what the answer says
# instead; {x}: the thing the stem asked of. Folded words: a caution's, a possibility's (a consequence)
ANSWER_KIND_STEMS = {
    "mapping": "What does {x} do in each case?",
    "commands": "How is {x} set up?",
    "instructions": "What should be done with {x}?",
    "cautions": "What precautions does using {x} need?",
    "consequence": "What problem has to do with {x}?",
    "consequence_fix": "What problem has to do with {x}, and how is it solved?",
    "about": "What must you keep in mind about {x}?",  # (no kind: kb.writing.form_retry)
}
HANDLING_VERBS = frozenset("use call register convert install".split())  # verbs of handling a thing
CAUTION_WORDS = frozenset("not never avoid careful beware only".split())
MODALS = frozenset("can may might could".split())

# Words the writer reads titles and stems by (kb.writing.pattern_topic, kb.writing.stem_forms; kb.lang joins the
# three languages' lists: a title or stem is read in any of them). Lower case, as written unless "folded".
ARTICLE_WORDS = frozenset("the a an".split())  # an article a noun phrase opens on
NEUTER_ARTICLES: frozenset[str] = frozenset()
# prepositions a noun phrase does not open on ("With DDP", "From FLOPs to time"). Folded.
NO_HEAD_WORDS = frozenset("of from with in on to for by into".split())
OF_WORDS: frozenset[str] = frozenset()  # (an English title's "X of Y" is not read as two nouns)
TWO_WORD_QUESTIONS: frozenset[str] = frozenset()  # (English question words stand alone)
WHAT_IS_ASKS = ("what is", "what are")  # a stem's "what is X"
MEANS_ASKS = ("what does",)  # a stem's "what does «X» mean", before «X»
MEANS_ASK_ENDS = ("mean",)  # what follows «X» in that question
# a second question after a stem's X ("What is MPS and when to use it?"), after AND: its opening, as written
FOLLOW_UP_QUESTIONS = ("what", "how", "which", "why", "where", "when")
# a procedure named after a title's colon ("Ring all-reduce: procedure with N = 4")
PROCEDURE_WORDS = ("procedure", "step by step")
NEGATIONS = frozenset(["not"])  # (folded) a caution opens on one before an instruction ("Not …")
ONLY_WORDS = frozenset(["only"])  # (folded) a caution word that does not open a caution ("Only …" states a rule)
FEMININE_ENDS: tuple[str, ...] = ()  # (English nouns have no gender)
IN_ARTICLES: dict[str, str] = {}  # (English says "in the": no contraction)

# a model answer's item that is an aside, not one of its points (kb.writing.answer_points), by its label's first
# word ("Example: …", "Consequence: …", "Note: …"); and a label that dates a remark ("Newer options: …"). Folded.
ASIDE_LABELS = frozenset("example examples consequence note trivia tip".split())
NEWER_WORDS = frozenset("new newer newest recent".split())
# what opens a list of examples in a model answer's point, not its claim (kb.writing.answer_points). Lower case.
EXAMPLE_LEADS = ("can include", "may include", "such as")
