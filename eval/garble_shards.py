"""Count garbled concepts and code shards in prose answers of generated quizzes (issue 26, garble29).

usage: python eval/garble_shards.py DIR [DIR ...] [-v]   (DIR: a folder of quiz JSON files, e.g. the output of
eval/keep26_gen.sh). Prints questions written, decks with >= 10 questions, concepts of class 1 and short answers
with a class-2 shard. The regexes are independent of kb's own (kb/writing/answer_points.py, code_statement.py):
- class 1, a garbled concept: it ends on an operator (* / = + ^ \\ < > - **), holds an operator after an operator
  ("2*/N", "= ** 0.5"), an accented word before * or ^ ("Se envían * r"), ends on a stub of "et al." / "e.g." /
  "p. ej." / "ex." / "aprox." / "vs.", or leaves a bracket or quote unbalanced ("C++" is a name, "**" one operator);
- class 2, a code shard: in a short answer whose stem does not ask how / to write / which call, a sentence of at
  most 8 tokens, no "Label: " item, that opens on a keyword (continue yield break global return pass raise import
  nonlocal) or has at least as many code tokens (holding _ [ ] ( ) = or a dotted name) as plain words.
"""

from __future__ import annotations

import glob
import json
import os
import re
import sys

OPS_END = re.compile(r"(?:[*/=+^\\<>-]|\*\*)\s*$")
DOUBLE_OP = re.compile(r"[*/+=^]\s*[*/^]")
WORD_OP = re.compile(r"\w*[áéíóúñãõç]\w*\s[*^]\s", re.I)
STUB = re.compile(r"(?i)(?:\bet|\bal|e\.g|p\.\s?ej|\bex|aprox|\bvs)\.?\s*$")
KW = re.compile(r"^(?:continue|yield|break|global|return|pass|raise|import|nonlocal)\b")
HOW = re.compile(r"(?i)\W*(?:c[oó]mo|how|escrib|escrev|write|qu[eé] llamada|which call)")


def unbalanced(t: str) -> bool:
    return any(t.count(a) != t.count(b) for a, b in ("()", "[]", "{}")) or t.count('"') % 2 == 1


def class1(c: str) -> bool:
    c = re.sub(r"(?i)\bC\+\+", "Cpp", c).replace("**", "^")
    return bool(OPS_END.search(c) or DOUBLE_OP.search(c) or WORD_OP.search(c) or STUB.search(c) or unbalanced(c))


def shard(s: str) -> bool:
    s = s.strip().rstrip(".")
    if not s:
        return False
    if KW.match(s):
        return True
    if re.match(r"^[^\s:]{1,30}(?:\s[^\s:]+){0,3}:\s", s):
        return False  # a labelled item
    toks = s.split()
    code = sum(bool(re.search(r"[_\[\]()=]|\w\.\w", t)) for t in toks)
    plain = sum(bool(re.fullmatch(r"[^\W\d_]{3,}[,.:;]?", t)) for t in toks)
    return code >= 1 and code >= plain and len(toks) <= 8


def main(argv: list[str]) -> None:
    show = "-v" in argv
    tot = {"questions": 0, "decks_ge_10": 0, "class1_concepts": 0, "class2_answers": 0}
    for d in [a for a in argv if a != "-v"]:
        for f in sorted(glob.glob(f"{d}/*.json")):
            qs = json.load(open(f, encoding="utf-8"))["questions"]
            tot["questions"] += len(qs)
            tot["decks_ge_10"] += len(qs) >= 10
            for q in qs:
                for c in q.get("concepts", []):
                    if class1(c):
                        tot["class1_concepts"] += 1
                        if show:
                            print("C1", os.path.basename(f), repr(c))
                if q["type"] == "short" and not HOW.match(q["prompt"]):
                    bad = [s for s in re.split(r"(?<=[.!?])\s+", q["answer"]) if shard(s)]
                    if bad:
                        tot["class2_answers"] += 1
                        if show:
                            print("C2", os.path.basename(f), repr(bad))
    print(json.dumps(tot))


if __name__ == "__main__":
    main(sys.argv[1:])
