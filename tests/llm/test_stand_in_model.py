"""eval/stand_in_model.py, the endpoint whose replies a stand-in model writes (how the LLM writer was measured on
rounds 38-39): a real kb run against it records every request and gets "no question"; with a reply written for
each recorded request, the same run is answered from them, every request a hit, and the quiz is what those
replies make. The real CLI, the real sample course, the server on 127.0.0.1."""

from __future__ import annotations

import importlib.util
import json
import re
import threading
from pathlib import Path

from ..conftest import run_kb
from .test_llm_checks import QUOTE, SOURCE

ROOT = Path(__file__).resolve().parents[2]


def _module():
    spec = importlib.util.spec_from_file_location("stand_in_model", ROOT / "eval" / "stand_in_model.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(ws: Path, url: str):
    return run_kb(["quiz", "generate", "-n", "2", "--types", "short", "--source", SOURCE, "-o", "s.json", "--force",
                   "--no-cache"], cwd=ws, env={"OPENAI_BASE_URL": url, "KB_LLM_MODEL": "stand-in",
                                               "OPENAI_API_KEY": "x", "KB_LLM_CONCURRENCY": "1",
                                               "KB_LLM_RETRIES": "0"})


def test_record_then_replay_gives_kb_the_stand_ins_questions(ws, tmp_path):
    sim = _module()
    folder = tmp_path / "stand_in"
    server = sim.make_server(folder)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    try:
        first = _run(ws, url)
        assert first.returncode == 1, first.stderr  # every reply "no question": nothing written
        recorded = [json.loads(p.read_text(encoding="utf-8")) for p in (folder / "requests").glob("*.json")]
        assert recorded and all(r["source"] == SOURCE and r["want"] >= 1 for r in recorded)
        assert sim.pending(folder) and len(sim.tasks(folder, 2, None)) >= 1
        # the stand-in answers the request whose passage holds the quote, and finds nothing to ask in the others
        answered = 0
        for r in recorded:
            m = re.search(r"Passage (\d+): \([^\n]*\)\n(?:(?!\n\nPassage ).)*nvidia-smi", r["user"], re.S)
            questions = [{"type": "short", "passage": int(m.group(1)),
                          "prompt": "No capítulo 12 sobre TensorFlow distribuído, como se acompanha e se limita a "
                                    "memória que o TensorFlow usa na GPU?",
                          "answer": "Verifica-se o uso da memória da GPU com nvidia-smi e configura-se o TensorFlow "
                                    "para alocar apenas parte da memória da GPU.",
                          "quote": QUOTE, "concepts": ["nvidia-smi", "alocar parte da memória"],
                          "difficulty": "medium"}] if m else []
            answered += bool(m)
            (folder / "replies" / f"{r['key']}.json").write_text(json.dumps({"questions": questions}),
                                                                  encoding="utf-8")
        assert answered >= 1 and not sim.pending(folder)
        (folder / "log.txt").write_text("", encoding="utf-8")
        second = _run(ws, url)
    finally:
        server.shutdown()
        server.server_close()
    assert second.returncode == 0, second.stderr
    log = (folder / "log.txt").read_text(encoding="utf-8").split()
    assert log and "miss" not in log  # every request the run sent had its reply: the run is complete
    quiz = json.loads((ws / "s.json").read_text(encoding="utf-8"))
    assert [q["concepts"] for q in quiz["questions"]] == [["nvidia-smi", "alocar parte da memória"]]
    assert quiz["generator"]["model"] == "stand-in"


def test_the_key_leaves_out_only_the_number_of_questions_kb_asks_for():
    sim = _module()
    ask = "Passage 1: (d.pdf · p. 1)\nWrite 3 questions about it.\n\nWrite {n} questions in Spanish about …"
    assert sim.key_of("s", ask.format(n=2)) == sim.key_of("s", ask.format(n=4))
    assert sim.key_of("s", ask.format(n=2)) != sim.key_of("s", ask.replace("Write 3", "Write 5").format(n=2))
    assert sim.key_of("s", ask.format(n=2)) != sim.key_of("t", ask.format(n=2))
