"""What the LLM grader's prompt carries from what kb knows (issue 29, item 7), asserted on the prompts a
real local server (tests/openai_stub.py) received: the question's concepts as the rubric's key concepts,
and the answer groups the teacher graded in grades-review.csv as few-shot examples; and the estimate a
class's grading says before it starts."""

from __future__ import annotations

import json
import re

from kb.grading.review import read_review_sheet, save_teacher_grade

from ..conftest import run_kb
from ..grading.test_grading import QUIZ, write_csv
from ..openai_stub import OpenAIStub, reply

GIL_REPLIES = [
    "Uma trava global: só uma thread executa bytecode Python por vez.",
    "Uma trava global, uma só thread roda bytecode Python de cada vez.",
    "É uma trava global: apenas uma thread executa o bytecode Python por vez.",
    "Um compilador que deixa o Python mais rápido.",
    "Um compilador que torna o Python mais rápido.",
    "É um compilador que acelera o Python.",
    "Uma biblioteca de gráficos.",
    "Uma biblioteca para desenhar gráficos.",
    "Uma trava que impede o paralelismo das threads na CPU.",
    "Um tipo de lista do Python.",
    "Uma função que ordena listas.",
    "Uma trava do interpretador que serializa as threads.",
]


def _judge(body: dict):
    return reply({"reasoning": "r", "score": 2, "feedback": "Quase.", "present": [], "missing": []})


def test_the_grader_prompt_has_the_rubric_concepts_and_the_teachers_graded_group(tmp_path):
    quiz = {**QUIZ, "questions": [QUIZ["questions"][0]]}
    quiz_path = tmp_path / "q.json"
    quiz_path.write_text(json.dumps(quiz, ensure_ascii=False), encoding="utf-8")
    replies = write_csv(tmp_path / "r.csv", [("student", "question_id", "answer")]
                         + [(f"s{k:02d}", "gil", text) for k, text in enumerate(GIL_REPLIES)])
    out = tmp_path / "o"
    with OpenAIStub(_judge) as stub:
        env = {"OPENAI_BASE_URL": stub.url, "KB_LLM_MODEL": "judge", "OPENAI_API_KEY": "k"}
        first = run_kb(["grade", str(quiz_path), str(replies), "-o", str(out)], cwd=tmp_path, env=env)
        assert first.returncode == 0, first.stderr
        # a class of 12 free-text replies: what the grading may send and cost, said before it starts
        said = " ".join(first.stderr.split())
        assert re.search(r"kb: the LLM grader may send up to 12 requests to judge: ~\d+ prompt and ≤700 completion "
                         r"tokens each, 4 at a time; ~[\d,]+ prompt \+ ≤8,400 completion tokens in all", said), said
        assert said.index("may send up to") < said.index("LLM: 12 requests sent")
        for body in stub.requests:  # the rubric: the question's concepts, the model answer, the passage quote
            user = body["messages"][-1]["content"]
            assert "Key concepts: trava; uma thread por vez; paralelismo" in user and "Rubric (0-3 points)" in user
            assert "> Global Interpreter Lock" in user and "Example graded by the instructor" not in user
        # the teacher grades one answer group in grades-review.csv (as kb review does) ...
        rows = read_review_sheet(out)
        group = next(r for r in rows if "compilador" in r["representative"])
        save_teacher_grade(out, group["group"], 0)
        sent = len(stub.requests)
        again = run_kb(["grade", str(quiz_path), str(replies), "-o", str(out)], cwd=tmp_path, env=env)
        assert again.returncode == 0, again.stderr
    # ... and the replies graded again are shown that group's replies, with the teacher's points
    prompts = [b["messages"][-1]["content"] for b in stub.requests[sent:]]
    assert prompts
    shown = {m for p in prompts for m in re.findall(r"Example graded by the instructor \(0/3\): (.+)", p)}
    assert shown and all("compilador" in s for s in shown), shown
