"""A packet for an independent rater: every distinct question of some quizzes, each with the page
it cites as the source shows it (a PDF page's text by pypdf's layout mode, not kb's reading of it;
a text source's cited passage), so the rater judges the question against the material, not against
kb's own text.

    python eval/rater_packet.py WORKSPACE QUIZ.json [QUIZ.json ...] -o packet.md [--csv questions.csv]

WORKSPACE is the folder the quizzes' sources are relative to (where `kb ingest` ran). The CSV lists
the same questions unrated (id, source, locator, type, prompt, choices, answer, concepts, quizzes);
the rater returns it with `rating` (KEEP/FIX/DROP) and `reason` columns.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
from pathlib import Path


def page_text(path: Path, locator: str, cache: dict) -> str:
    """The cited page of a PDF (locator "p. N · Title") as pypdf lays it out; for other sources ''."""
    m = re.match(r"p\. ?(\d+)", locator)
    if path.suffix.lower() != ".pdf" or not m or not path.exists():
        return ""
    if path not in cache:
        from pypdf import PdfReader

        cache[path] = PdfReader(str(path))
    reader = cache[path]
    n = int(m.group(1))
    if not 1 <= n <= len(reader.pages):
        return ""
    text = reader.pages[n - 1].extract_text(extraction_mode="layout") or ""
    return "\n".join(line.rstrip() for line in text.splitlines() if line.strip())


def distinct_questions(quizzes: list[Path]) -> list[dict]:
    """One row per distinct question (same type, prompt, choice set, answer and concepts) across the quizzes.
    Two versions of a question that differ only in their concepts are two rows (a rater judges the concepts
    too); the second one's id is ``ID/2`` (then ``/3``…), and ``quizzes`` names the quizzes each row is in."""
    rows: dict[tuple, dict] = {}
    seen_ids: dict[str, int] = {}
    for path in quizzes:
        for q in json.loads(path.read_text(encoding="utf-8"))["questions"]:
            key = (q["type"], q["prompt"], tuple(sorted(q.get("choices") or ())), q["answer"],
                   tuple(q.get("concepts") or ()))
            if key in rows:
                rows[key]["quizzes"] += f" {path.stem}"
                continue
            cit = (q.get("citations") or [{}])[0]
            choices = q.get("choices") or []
            answer = choices[q["correct"]] if q["type"] == "mcq" and choices else q["answer"]
            seen_ids[q["id"]] = seen_ids.get(q["id"], 0) + 1
            rid = q["id"] if seen_ids[q["id"]] == 1 else f"{q['id']}/{seen_ids[q['id']]}"
            rows[key] = {"id": rid, "source": cit.get("source", ""), "locator": cit.get("locator", ""),
                         "type": q["type"], "prompt": q["prompt"], "choices": " | ".join(choices),
                         "answer": answer, "concepts": "; ".join(q.get("concepts") or []),
                         "quote": cit.get("quote", ""), "quizzes": path.stem}
    return list(rows.values())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("workspace", type=Path)
    ap.add_argument("quizzes", type=Path, nargs="+")
    ap.add_argument("-o", "--out", type=Path, required=True)
    ap.add_argument("--csv", type=Path)
    a = ap.parse_args()
    rows = distinct_questions(a.quizzes)
    cache: dict = {}
    parts = [f"# Questions to rate ({len(rows)})\n"]
    for i, r in enumerate(rows, 1):
        page = page_text(a.workspace / r["source"], r["locator"], cache)
        parts.append(f"## {i}. {r['id']} — {r['source']} · {r['locator']} · {r['type']}\n")
        parts.append(f"**Question:** {r['prompt']}\n")
        if r["choices"]:
            parts.append("**Choices:** " + " / ".join(f"{chr(97 + j)}) {c}" for j, c in
                                                      enumerate(r["choices"].split(" | "))) + "\n")
        parts.append(f"**Model answer:** {r['answer']}\n")
        if r["concepts"]:
            parts.append(f"**Concepts a right answer must contain:** {r['concepts']}\n")
        if page:
            parts.append("**Cited page as the PDF shows it:**\n\n```text\n" + page + "\n```\n")
        else:
            parts.append("**Cited passage:**\n\n> " + r["quote"].replace("\n", "\n> ") + "\n")
    a.out.write_text("\n".join(parts), encoding="utf-8")
    if a.csv:
        with a.csv.open("w", newline="", encoding="utf-8") as f:
            fields = ["id", "source", "locator", "type", "prompt", "choices", "answer", "concepts", "quizzes"]
            w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
            w.writeheader()
            w.writerows(rows)
    print(f"{len(rows)} distinct questions → {a.out}" + (f", {a.csv}" if a.csv else ""))


if __name__ == "__main__":
    main()
