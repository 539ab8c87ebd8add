"""A teacher's ratings of the offline writer's questions (issue 9), joined with the quizzes they
were rated on. Regenerate the quizzes with the commands in eval/quiz_review.md, then

    python eval/quiz_review_ratings.py /path/to/scratch/quizzes [out.csv]   # prints shares, writes out.csv

Its rows are in eval/ratings.csv (source_file quiz_review.csv, rater "author"); out.csv defaults to
quiz_review.csv in the quizzes' folder.

Ratings are by question text (prompt + answer): the same question in two quizzes (options in
another order) carries one rating. A question the ratings do not know is reported as UNRATED.
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

QUIZZES = ["review-03Datos-n12", "review-05modelos-n12", "review-course-n20", "review-03Datos-n30",
           "review-05modelos-n30", "review-001TFDist-n12"]

K, F, D = "KEEP", "FIX", "DROP"
# id → (rating, reason); ids of the same question with options in another order share a rating
RATINGS: dict[str, tuple[str, str]] = {
    # 03Datos.pdf
    "q5eab59aa22": (K, "Dataset protocol (p. 4): purpose of __getitem__(), whole-sentence answer"),
    "q46680ccdef": (K, "Dataset protocol (p. 4): what __len__() returns"),
    "q7869021be3": (K, "false statement swaps two sibling datasets' descriptions (ImageNet/MNIST): clear, checkable"),
    "qc5b92713ff": (K, "same construction for CIFAR-10/ImageNet: clear, checkable"),
    "q7eb5b1ed99": (K, "MNIST vs CIFAR-10 contrast with its slide as context; answer from the slide"),
    "q429683c8de": (F, "'muestreo de lotes' translates to the answer; Sampler is the only sampling-related option"),
    "q41d12ac4b0": (F, "same item as q429683c8de (options reordered): translation gives Sampler away"),
    "qd85e31162b": (F, "key contrast (DataParallel vs DDP) but the model answer is the slide's English fragment "
                    "with its typo 'paralllel_apply'; rewrite the answer in Spanish"),
    "qd5ded1b149": (K, "DataParallel from a whole sentence; DataLoader/Sampler/Dataset are plausible, none fits"),
    "q068f067e2c": (K, "same item as qd5ded1b149 (options reordered)"),
    "q13da3364d2": (K, "typed version of the DataParallel item: the sentence identifies it"),
    "q47edc4d750": (K, "definition of transforms, whole sentence"),
    "q94ba8e1074": (K, "true statement = the slide's definition of data augmentation; easy but legitimate recall"),
    "q511d84282c": (K, "definition of data augmentation"),
    "qa45ad896e8": (K, "swaps training vs validation/test for augmentation: the misconception worth testing, "
                    "wrapped bullet whole"),
    "q20a778ea5a": (K, "false: undersampling given the class-weights description; siblings of one list"),
    "q62ec912f68": (K, "false: class weights given the oversampling description; siblings of one list"),
    "qad3127b855": (K, "oversampling vs undersampling, the deck's imbalance idea, with context"),
    "qbdfa2970d8": (K, "definition of Distributed Data Parallelism"),
    "qc687a577e5": (K, "true statement = DDP definition; easy recall"),
    "q0ee8ee285b": (K, "the four DDP setup steps: a procedure question, hard"),
    "q9be4d069fc": (F, "without its slide ('para DDP') the sentence also fits DataParallel: add the context"),
    "q3e75eb8907": (F, "options are data classes (Dataset, Sampler, DataLoader): none wraps a model, "
                    "guessable by elimination"),
    "q19e07c208b": (K, "batch size from its description among the four DataLoader settings"),
    "q0f6fa55352": (K, "shuffling ('Aleatorización') from its description among the four settings"),
    "q0d4a40e8e4": (K, "false: 'Último lote incompleto' given the batch-size description"),
    "qbd9c1b224d": (K, "false: multiprocessing given the last-batch description"),
    "q3ab77aca38": (K, "what data shuffling is for (bias from the order of the data)"),
    "q877bbb95f6": (K, "the shuffle option must be recalled by name; sentence self-contained"),
    "q0a01424a74": (K, "why tune the batch size: memory vs performance"),
    "qbb8d8b8ced": (K, "num_workers recalled by name from its purpose"),
    "q42282451e4": (F, "the slide calls the module torchvision.datasets a 'clase': expected answer ambiguous "
                    "(Dataset? a dataset class?)"),
    "q0d07be6b12": (K, "transforms.Compose recalled from its purpose"),
    "q5eddcc6b00": (D, "'why look at some samples' is common sense, not a course idea"),
    "q59a2c589b5": (K, "__getitem__() recalled (typed) as where sample-level transforms run"),
    "qdf74ace036": (K, "what the DataLoader's shuffling setting does"),
    "q98d8e2870e": (K, "false: multiprocessing given the batch-size description"),
    "q5fda9eccb7": (K, "false: last incomplete batch given the multiprocessing description"),
    "q97ae8c3352": (F, "the slide calls the module torchvision.datasets a 'clase'; torch.utils.data.Dataset "
                    "is arguably right too"),
    "qac8731bf62": (F, "same item as q97ae8c3352 (options reordered)"),
    "q3ac65eeb94": (K, "num_workers from its purpose; the deck's other DataLoader options as distractors"),
    "q045ce5f13f": (K, "same item as q3ac65eeb94 (options reordered)"),
    "q4998627409": (K, "same item as q0f6fa55352 (options reordered)"),
    "q9b9f6a57e1": (K, "false: batch size given the shuffling description"),
    "q0b93b8fb5c": (K, "Sampler recalled by name (typed); 'muestreo' hints, but the class name must be produced"),
    # 05modelos.pdf
    "q0c48c2a464": (K, "what the parameters of a model are"),
    "q9eeddf7b0a": (K, "architecture vs parameters, the deck's first idea"),
    "q810a76bef9": (K, "false: parameters given the architecture's description"),
    "q6eff60193c": (F, "'devuelve un diccionario' → the only option with 'dict': giveaway by translation"),
    "q4ffb9cb732": (F, "same item as q6eff60193c: 'diccionario' gives state_dict() away"),
    "q551d19cc20": (K, "what state_dict() returns"),
    "q7966c225f8": (K, "torch.save() recalled from 'Para guardar el estado…'"),
    "qd96b88a5a8": (K, "state_dict() recalled (typed) from its definition"),
    "q642e186fb4": (K, "torch.hub.load() recalled (typed) from its use"),
    "qafbcb471de": (F, "'Para guardar …' → the only option with 'save': a giveaway by translation "
                       "(no torch.load() among the options)"),
    "q69208be6e8": (F, "same item as qafbcb471de: 'guardar' gives torch.save() away"),
    "q3b29fd44fe": (K, "torch.load() recalled from 'Para cargar el estado…'"),
    "q6f7e45014f": (K, "what parameters() returns, contrasted on the slide with state_dict()"),
    "q0057d2f277": (F, "the slide is wrong: map_location belongs to torch.load(), not torch.save(); ask from the "
                    "loading bullet instead"),
    "q42b751ef8e": (F, "'¿qué significa «Almacenamiento en la nube»?' is vague; ask what these services offer"),
    "qd65d3704a3": (K, "what torch.hub is"),
    "q380a6d6c5f": (K, "true statement = torch.hub definition; easy recall"),
    "q2b45f319ec": (F, "'para cargar un modelo' → the only option with 'load': giveaway by translation"),
    "q7d399c3b8a": (F, "same item as q2b45f319ec: 'cargar' gives torch.hub.load() away"),
    "qae0bcbd269": (K, "transfer learning step: why freeze the pre-trained parameters"),
    "qcd08179fc5": (K, "true statement = transfer-learning definition"),
    "qe0af4146e6": (K, "definition of transfer learning"),
    "q112722ea41": (K, "version coherence when loading distributed models"),
    "qc0d44b5d22": (K, "model distribution across devices: what it means, answer from the slide"),
    "q680f22758c": (K, "state synchronisation when loading distributed models"),
    # 001TFDist.pdf (less tuned: only a few of its questions were seen while building)
    "q0b248ebf2c": (F, "'«Static» significa …' never says static what (the computation graph)"),
    "q9523dadc27": (K, "static vs dynamic computation graph, with its context"),
    "qe3878fe083": (K, "false: static graph given the dynamic one's description, with 'Static vs Dynamic "
                    "Computation Graph' as context"),
    "qbf63dcdb95": (D, "trivial: cluster_spec returns 'un objeto ClusterSpec' — the name is the answer"),
    "q6787bfd005": (K, "what TensorBoard is"),
    "q494c569695": (F, "glued words from the PDF ('elsistema'); trivial true statement"),
    "q6a5799a370": (K, "what DTensor is"),
    "qea582d12ab": (K, "true statement = DTensor definition"),
    "qc73451013e": (K, "false: fit given evaluate's description (Keras model methods), clear"),
    "q8b30e79c9a": (K, "true: the Sequential model's use"),
    "q9adf15645a": (K, "synchronous weight averaging: wait for all workers"),
    "q93df89beaf": (K, "true: what tf.distribute.Strategy is"),
    "q4350d49be3": (K, "synchronous vs asynchronous training strategies, with context"),
    "q72cf4ab714": (K, "asynchronous training in tf.distribute: what it means, from its slide"),
    "q62b07b54de": (K, "DTensor Layout"),
    "qbe825015fc": (K, "DTensor Mesh"),
    "q4bb235f465": (F, "'Para ellas, …' refers to the previous bullet: not self-contained"),
    # sample course (sources/)
    "qa20927568a": (K, "replica_device_setter() from its purpose (book summary)"),
    "q047ab23bb7": (F, "the book's own exercise, but its typo 'ficar' (fixar) is kept in the stem"),
    "q60c6377479": (F, "model answer 'paradigma popular para realizar grandes operações' says nothing "
                       "about map/reduce"),
    "q8300a65ec6": (K, "true: sum as a reduce operation, from the MapReduce notes"),
    "qd2b5ae8f94": (K, "true: definition of a parallel computer"),
    "q2a7a4a0860": (K, "Spark's basic abstraction is the RDD: recall, answer from the notes"),
    "qb1b3598dc0": (F, "'«Distribuído» significa …' does not say of what (RDD); name the RDD"),
    "q004cbbe333": (K, "synchronous data-parallel training: what it means"),
}


def main(folder: Path, out: Path | None = None) -> None:
    rows, seen = [], {}
    for name in QUIZZES:
        for q in json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))["questions"]:
            if q["id"] in seen:
                seen[q["id"]]["quizzes"] += f" {name}"
                continue
            rating, reason = RATINGS.get(q["id"], ("UNRATED", ""))
            c = q["citations"][0]
            row = {"question_id": q["id"], "quizzes": name, "source": c["source"], "locator": c["locator"],
                   "type": q["type"], "rating": rating, "reason": reason, "prompt": q["prompt"],
                   "answer": " | ".join(q["choices"]) + f" → {q['answer']}" if q["type"] == "mcq" else q["answer"]}
            seen[q["id"]] = row
            rows.append(row)
    out = out or folder / "quiz_review.csv"
    with out.open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    ratings = {r["question_id"]: r["rating"] for r in rows}
    prompt_of = {r["question_id"]: r["prompt"] for r in rows}

    def share(ids: list[str]) -> str:
        """KEEP share over distinct questions (the same prompt with options reordered counts once)."""
        by_prompt = {prompt_of[i]: ratings[i] for i in ids}
        keep = sum(r == K for r in by_prompt.values())
        return f"{keep}/{len(by_prompt)} = {keep / max(1, len(by_prompt)):.0%} KEEP"

    for name in QUIZZES:
        ids = [q["id"] for q in json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))["questions"]]
        print(f"{name:24} {share(ids)}")
    for deck in ("03Datos.pdf", "05modelos.pdf"):
        print(f"all rated from {deck:14} {share([r['question_id'] for r in rows if r['source'].endswith(deck)])}")
    both = [r["question_id"] for r in rows if r["source"].endswith(("03Datos.pdf", "05modelos.pdf"))]
    print(f"all rated from both decks     {share(both)}")
    print(f"unrated: {[i for i, r in ratings.items() if r == 'UNRATED']}")
    print(f"wrote {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]) if len(sys.argv) > 2 else None)
