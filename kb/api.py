"""kb as a library: one object per knowledge base, the same calls every ``kb`` command makes.

    import kb

    course = kb.open("course/.kb")                      # or kb.open() for ./.kb and KB_* variables
    course.ingest(["course/slides"]).raise_if_failed()
    for hit in course.search("como limitar a memória da GPU?", k=3):
        print(f"{hit.score:.2f}", hit.chunk.citation())
    print(course.ask("¿Qué devuelve state_dict()?").text)
    quiz = course.generate_quiz(n=10, sources=["slides/03Datos.pdf"], out="quizzes/datos.json").value.quiz
    graded = course.grade("quizzes/datos.json", "replies.csv", out="reports/datos")

Operations that can partly fail (some files not ingested, some replies not graded, the LLM stopping
half-way) return a :class:`Result`: the value, what failed, and the exit code the CLI uses for it.
Domain errors (bad input, missing store, unreachable backend) raise :class:`kb.errors.KbError`
subclasses whose ``hint`` names the fix. Heavy libraries are imported only by the call that needs them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from .config import CHUNKING_VERSION, DEFAULT_MAX_MB, Settings
from .errors import ExitCode, InputError, KbError
from .i18n import N_, Message

if TYPE_CHECKING:
    from .ask import Answer
    from .grading.calibration import QuizCalibration
    from .grading.gradebook import ClassReport
    from .ingest import IngestReport, Progress
    from .outline import Outline
    from .quiz import Quiz
    from .records import Hit
    from .study import Item, StudyDB
    from .workspace import Workspace

T = TypeVar("T")
FIRST_QUIZ_QUESTIONS = 10  # questions of the quiz a first ``kb study`` writes; set by hand, not measured
_quiet: Callable[[str], None] = lambda _msg: None  # noqa: E731


@dataclass
class Result(Generic[T]):
    """What an operation produced, and what of it failed.

    ``problems``: items that failed while the rest was done (exit 1); ``backend_failure``: the LLM or
    embedder stopped part-way and a fallback was used (exit 5); ``interrupted``: Ctrl-C or SIGTERM
    stopped it with what was written consistent (exit 130); ``written``: files written; ``notes``:
    things the user should read that are not failures."""

    value: T
    problems: list[str] = field(default_factory=list)
    backend_failure: str = ""
    interrupted: bool = False
    written: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def exit_code(self) -> ExitCode:
        """The one rule every command follows for a partly failed run."""
        if self.interrupted:
            return ExitCode.INTERRUPTED
        if self.backend_failure:
            return ExitCode.BACKEND
        if self.problems:
            return ExitCode.FAILED
        return ExitCode.OK

    @property
    def ok(self) -> bool:
        """True when nothing failed (:attr:`exit_code` is 0)."""
        return self.exit_code == ExitCode.OK

    def raise_if_failed(self) -> T:
        """The value, or a :class:`KbError` naming the first problem (for scripts that want all or nothing)."""
        if self.ok:
            return self.value
        why = self.backend_failure or (self.problems[0] if self.problems else "interrupted")
        err = KbError("{why}", "{n} problem(s) in all; see Result.problems", why=why, n=len(self.problems))
        err.exit_code = self.exit_code
        raise err


@dataclass
class GradeRun:
    """One ``grade`` call: the class report (None when there was nothing to grade), the teacher
    calibration used, and the report folder."""

    report: ClassReport | None
    calibration: QuizCalibration | None
    out_dir: Path
    paths: dict[str, Path] = field(default_factory=dict)  # report kind (md, csv, xlsx, json) → file


@dataclass
class QuizRun:
    """One ``generate_quiz`` call: the generation report and the quiz file it was (or would be) written to."""

    report: Any  # kb.writing.generate.GenerationReport: .quiz, .notes (why fewer), .rejected, .errors
    path: Path

    @property
    def quiz(self) -> Quiz:
        """The quiz written (or, with no question, the empty one that was not written)."""
        return self.report.quiz


@dataclass
class StudyQueue:
    """What a study session asks, due first then new, with the database it is saved to."""

    items: list[Item]
    db: StudyDB
    quizzes: list[tuple[str, Quiz]]


def open(home: str | Path | None = None, *, store: str | None = None, settings: Settings | None = None,  # noqa: A001
         root: str | Path | None = None) -> KB:
    """Open a knowledge base: ``home`` (default ``.kb`` or ``KB_HOME``), or a Chroma server by URL.
    Quizzes and reports go beside it (``course/.kb`` → ``course/quizzes``, ``course/reports``) unless
    ``root`` names another folder. Nothing is loaded until a call needs it; a missing store is reported
    by the first call that reads it."""
    return KB(settings or Settings.from_env(home=home, store_url=store), root=root)


class KB:
    """A course's knowledge base: ingest, search, ask, write quizzes, grade, study."""

    def __init__(self, settings: Settings, *, root: str | Path | None = None) -> None:
        self.settings = settings
        # the course folder: quizzes/ and reports/ are written here, not in the process's current folder
        self.root = Path(root) if root is not None else settings.home.parent

    @property
    def quiz_dir(self) -> Path:
        """Where quizzes are written and found by default: ``<root>/quizzes``."""
        return self.root / "quizzes"

    @property
    def report_dir(self) -> Path:
        """Where ``grade`` writes a quiz's reports by default: ``<root>/reports/<quiz name>``."""
        return self.root / "reports"

    @cached_property
    def workspace(self) -> Workspace:
        """The store and embedder (opened on first use; raises :class:`~kb.errors.StoreError` when missing)."""
        from .workspace import open_workspace

        return open_workspace(self.settings)

    def _reader(self) -> Any:
        """The knowledge base for a call that only reads passages: the workspace when this object has
        opened it already, else its current cached index (:func:`kb.workspace.open_reader`: no chromadb)."""
        from .workspace import open_reader

        return self.__dict__.get("workspace") or open_reader(self.settings)

    # --- materials --------------------------------------------------------------------------
    def ingest(self, paths: Sequence[str | Path], *, embedder: str | None = None, rebuild: bool = False,
               prune: bool = True, prune_empty: bool = False, max_mb: float = DEFAULT_MAX_MB,
               progress: Progress | None = None, on_wait: Callable[[str], None] = _quiet) -> Result[IngestReport]:
        """Add or update course files; files deleted under the given folders are pruned (``prune``).
        ``rebuild`` re-embeds into a new collection that replaces the old one only when complete.
        One writer per workspace: a concurrent ingest waits (``on_wait`` hears why)."""
        from .ingest import discover
        from .ingest import ingest as run_ingest
        from .ingest import rebuild as run_rebuild
        from .lock import writer_lock
        from .workspace import open_workspace

        files = [Path(p) for p in paths]
        if rebuild and not discover(files)[0]:  # a mistyped path: say so before anything is opened
            raise InputError("nothing to ingest in {files}; the knowledge base was left as it was",
                             "check the paths before using --rebuild",
                             files=' '.join(map(str, files)))
        notes = []
        with writer_lock(self.settings.home, on_wait):
            older = None if rebuild else _older_chunker(self.settings)
            if older is not None:  # never mix two chunkings: re-read everything, swap when complete
                rebuild = True
                notes.append(f"the knowledge base was chunked by an older kb (chunker v{older}, now "
                             f"v{CHUNKING_VERSION}): every source was read and embedded again into a new "
                             "store, which replaced the old one only once complete")
            ws = open_workspace(self.settings, embedder, create=True, rebuild=rebuild)
            ws.store.drop_unfinished_rebuild()
            notes.extend(ws.store.notes)
            report = (run_rebuild if rebuild else run_ingest)(
                files, ws.store, ws.embedder, prune=prune, prune_empty=prune_empty, max_mb=max_mb, progress=progress)
            if not (rebuild or report.interrupted):
                _cache_search_index(ws)
            if not report.interrupted:
                _note_course_language(ws, self.settings.home)
        self.__dict__.pop("workspace", None)  # the next call sees the store as it is now
        problems = [f"{f.source}: {f.message}" for f in report.failed]
        if report.rebuild.startswith("not"):
            problems.append(f"rebuild {report.rebuild}; the knowledge base was left as it was")
        return Result(report, problems=problems, interrupted=report.interrupted, notes=notes)

    def contents(self) -> dict[str, Any]:
        """What the knowledge base holds: ``store`` (what built it: embedder, chunking) and ``sources``
        (one row per ingested file, as :meth:`sources`)."""
        from .store import open_store

        store = open_store(self.settings)
        return {"store": store.info, "sources": store.sources()}

    def sources(self) -> list[dict[str, Any]]:
        """One row per ingested file: name, kind, chunks, language, when ingested, complete or not."""
        from .store import open_store

        return open_store(self.settings).sources()

    def outline(self, source: str) -> Outline:
        """What ``source`` teaches: its sections (index page, PDF bookmarks or headings) and their ideas
        (definitions, labelled lists, procedures, code examples, titles with their bullets), each with
        its text and locator and ranked by how central it is (``.top(5)``). Needs no model."""
        from .outline import build_outline, match_source
        from .store import open_store

        store = open_store(self.settings)
        names = [r["source"] for r in store.sources()]
        found = match_source(names, source)
        if found is None:
            raise InputError("{source}: not in the knowledge base",
                             "check kb sources for the exact path",
                             source=source)
        return build_outline(store.all_chunks(), found)

    # --- finding ----------------------------------------------------------------------------
    def search(self, query: str, k: int = 5, mode: str = "hybrid") -> list[Hit]:
        """Passages for ``query`` with a 0–1 relevance and citations; ``mode``: hybrid, dense or bm25."""
        from .workspace import open_search

        return open_search(self.settings).retriever.search(query, k=k, mode=mode)

    def ask(self, question: str, k: int = 5, *, offline: bool = False) -> Answer:
        """An answer from the course citing its passages: extractive offline, synthesized with an LLM."""
        from .ask import ask as run_ask
        from .llm.factory import get_answerer
        from .workspace import open_search

        return run_ask(open_search(self.settings), question, k=k, client=get_answerer(self.settings, offline=offline))

    # --- quizzes ----------------------------------------------------------------------------
    def generate_quiz(self, n: int = 10, *, topic: str | None = None, sources: Sequence[str] = (),
                      types: Sequence[str] = ("short", "mcq", "cloze", "tf"), difficulty: str | None = None,
                      lang: str | None = None, out: str | Path | None = None, force: bool = False,
                      offline: bool = False) -> Result[QuizRun]:
        """Write exercises with model answers to a quiz file (default ``quizzes/<topic|source|course>.json``).
        The value holds the quiz, the report (``.notes`` say why fewer were written) and the path; the
        file is written only when at least one question passed the checks."""
        from .llm.factory import get_writer
        from .quiz import save_quiz
        from .teacher import with_teacher
        from .writing.generate import GenerationRequest, default_quiz_path, generate_quiz

        request = GenerationRequest(n=n, types=tuple(types), topic=topic, sources=tuple(sources),
                                    difficulty=difficulty, lang=lang)
        request.validate()
        path = Path(out) if out else default_quiz_path(request, self.quiz_dir)
        from .sheets import check_output_file

        check_output_file(path, "--out", path.name if not path.is_dir() else "quiz.json")
        if path.exists() and not force:
            raise InputError("{path} exists",
                             "pass --force to replace it, or --out another.json",
                             path=path)
        # by name: the LLM path does not import the offline writer (bench/llm_parallel.py)
        writer = with_teacher(get_writer(self.settings, "offline" if offline else None), path.parent)
        report = generate_quiz(self._reader(), request, writer)
        result = Result(QuizRun(report, path), backend_failure="; ".join(report.errors), notes=list(report.notes))
        if report.quiz.questions:
            save_quiz(report.quiz, path)
            result.written.append(path)
        elif not report.errors:
            result.problems.append("no question passed the checks")
        return result

    def review_quiz(self, quiz_file: str | Path, screen: Any, *, editor: str | None = None, offline: bool = False,
                    again: bool = False) -> Any:
        """Review a quiz question by question on ``screen`` (see :func:`kb.review.review_quiz`); replace
        asks the course's writer (``offline``: the rule-based one) for another question on the passage. With a
        model configured (and not ``offline``), the model reads the questions first and its verdict is shown
        under each (:meth:`model_review`)."""
        from .llm.factory import get_reviewer
        from .review import review_quiz

        path = Path(quiz_file)
        reviewer = get_reviewer(self.settings, offline=offline)
        try:
            return review_quiz(path, screen, editor=editor, again=again,
                               replacement=lambda quiz, q: self.replacement_question(path, quiz, q, offline=offline),
                               advice=None if reviewer is None else lambda qs: self.model_review(qs, reviewer))
        finally:
            if reviewer is not None:
                reviewer.client.close()

    def model_review(self, questions: Sequence[Any], reviewer: Any) -> tuple[dict[str, dict], list[str]]:
        """The model's verdict (``{"verdict": keep|fix|drop, "reason"}``) on each question it read, by id, and
        what to say of the rest (a failed request and its fix, an unusable reply): each question read with the
        passage it cites and its deck's outline (:func:`kb.llm.reviewer.review_questions`)."""
        from .i18n import _, text
        from .llm.reviewer import review_questions
        from .writing.generate import CourseTerms

        ws = self.workspace
        cited = [q.citations[0].chunk_id if q.citations else "" for q in questions]
        chunks = {c.id: c for c in ws.store.get([i for i in cited if i])}
        every = sorted(ws.store.all_chunks(), key=lambda c: (c.source, c.ordinal))
        got = review_questions(reviewer, list(questions), [chunks.get(c) for c in cited], every,
                               CourseTerms(every, ws.embedder))
        said = []
        if reviewer.failed:
            said.append(_("the model could not review {k} of {n} questions: {failure}").format(
                k=reviewer.failed, n=len(questions), failure=text(reviewer.failure))
                + (f" — {text(reviewer.failure_hint)}" if reviewer.failure_hint else ""))
        said += [text(x) for x in [*reviewer.notes, *reviewer.client.notes]]
        return {q.id: r for q, r in zip(questions, got, strict=True) if r}, said

    def replacement_question(self, quiz_file: str | Path, quiz: Quiz, question: Any, *,
                             offline: bool = False) -> Any:
        """Another question on ``question``'s passage from the writer (taught by the teacher's decisions
        stored beside the quiz), or None when it has none the quiz does not already hold."""
        from .llm import get_writer
        from .review import write_replacement
        from .teacher import with_teacher
        from .writing.offline import OfflineWriter

        writer = with_teacher(OfflineWriter() if offline else get_writer(self.settings), Path(quiz_file).parent)
        return write_replacement(self.workspace, quiz, question, writer)

    # --- grading ----------------------------------------------------------------------------
    def grader(self, *, offline: bool = False) -> Any:
        """The configured grader (LLM when KB_LLM_MODEL is set, else offline) with the embedder its
        weights were fitted with — whatever embedder built the knowledge base."""
        from .embeddings import CachedEmbedder, get_embedder
        from .grading.offline import CALIBRATION
        from .llm.factory import get_grader

        embedder = CachedEmbedder(get_embedder(CALIBRATION["embedder"]), self.settings.cache_dir / "embeddings.sqlite")
        return get_grader(self.settings, embedder, offline=offline)

    def replies_template(self, quiz_file: str | Path, out: str | Path) -> Path:
        """Write the replies CSV a class fills for ``quiz_file`` (question numbers and text) to ``out``."""
        from .grading.classfiles import write_replies_template

        return write_replies_template(Path(quiz_file), Path(out))

    def grade(self, quiz_file: str | Path, replies: str | Path, *, out: str | Path | None = None,
              offline: bool = False, calibrate: str | Path | None = None,
              csv_dialect: str = "comma", scale: int = 10) -> Result[GradeRun]:
        """Grade a class's replies (CSV or a folder of sheets) into ``out`` (default
        ``reports/<quiz name>/``): merged with earlier batches there, overrides kept, reports written
        atomically. ``calibrate``: a CSV of replies the teacher graded, to fit this quiz's levels.
        Beside them, the class files (kb.grading.classfiles): class.csv/.xlsx with the grade on
        ``scale`` (10, 20 or 100), students/<name>.md and moodle_grades.csv."""
        from collections import Counter

        from .grading.calibration import calibrate_grader
        from .grading.classfiles import check_scale, write_class_files
        from .grading.gradebook import (
            grade_class,
            merge_reports,
            read_overrides,
            read_previous,
            read_replies,
            write_reports,
        )
        from .grading.review import MIN_GRADED, class_review, pull_report, read_review, review_summary
        from .quiz import load_quiz
        from .sheets import check_dialect

        quiz_file, replies = Path(quiz_file), Path(replies)
        out_dir = Path(out) if out else self.report_dir / quiz_file.stem
        _check_report_folder(out_dir)
        check_dialect(csv_dialect)  # before any grading work
        check_scale(scale)
        quiz = load_quiz(quiz_file)
        got = read_replies(replies, quiz)
        previous = read_previous(out_dir, quiz)  # an earlier batch's grades: merged, never dropped
        overrides, notes = read_overrides(out_dir)
        reviewed, review_notes = read_review(out_dir)  # a teacher's grade of an answer group: its members'
        notes += review_notes
        for key, ov in reviewed.items():
            overrides.setdefault(key, ov)  # an override typed in grades.csv wins over the group's grade
        answers = {(g.reply.student, g.reply.question_id): g.reply.answer for g in previous}
        answers.update({(r.student, r.question_id): r.answer for r in got.items})
        grader = self.grader(offline=offline)
        # answer-group grades of a question with many of them regrade the rest by propagation (pull_report), not by
        # refitting the level (kb.grading.review.MIN_GRADED: on PT_ASAG dev a refit as well cost 0.05 QWK)
        per_q = Counter(q for _, q in reviewed)
        typed = {k: v for k, v in overrides.items()
                 if k not in reviewed or v != reviewed[k] or per_q[k[1]] < MIN_GRADED}
        qc = calibrate_grader(grader, quiz_file, quiz, Path(calibrate) if calibrate else None, typed, answers)
        got.problems.extend(qc.notes)  # bad rows of the teacher-graded CSV: named, skipped, exit 1
        run = GradeRun(None, qc if qc.calibration is not None else None, out_dir)
        result = Result(run, problems=list(got.problems), notes=got.notes + notes + _dropped_replies(quiz, got.items))
        if not got.items:  # a header-only CSV, or only bad rows: the reports stay as they are
            result.notes.append(Message("no replies to grade in {replies} — nothing written; {out_dir} unchanged",
                                        replies=replies, out_dir=out_dir) if out_dir.exists() else
                                Message("no replies to grade in {replies} — nothing written", replies=replies))
            return result
        report = grade_class(quiz, got, grader, overrides)
        embedder = getattr(getattr(grader, "offline", grader), "embedder", None)
        if embedder is not None:  # replies like the ones the teacher graded are graded more like them
            pull_report(report, embedder, overrides, answers, grader)
        if previous:
            merge_reports(previous, report, overrides)
        run.report = report
        result.problems = list(report.problems)
        review = class_review(report, embedder) if embedder is not None else None
        run.paths = write_reports(report, out_dir, str(quiz_file), csv_dialect=csv_dialect,
                                  review=review if review is not None and review.items else None)
        run.paths.update(write_class_files(report, out_dir, scale=scale))
        result.notes += review_summary(previous, report, reviewed, review, out_dir)
        result.written = list(run.paths.values())
        if report.merged:
            m = report.merged
            result.notes.append(Message("merged into {out_dir}: {kept} earlier grades kept, {replaced} re-graded, "
                                        "{new} new", out_dir=out_dir, kept=m["kept"], replaced=m["replaced"],
                                        new=m["new"]))
        client = getattr(grader, "client", None)
        if client is not None:  # what the LLM grading spent, and a cache that could not be written
            result.notes += client.notes + ["LLM: " + client.usage.summary()]
        failure = getattr(grader, "failure", "")
        if failure:
            result.backend_failure = (f"the LLM grader stopped: {failure}; the replies after it got the offline "
                                      "grade (flag llm_unavailable)")
        return result

    def evaluate_grader(self, data: str | Path, *, scale: str | None = None, predictions: str | Path | None = None,
                        offline: bool = False, calibrate_k: int | None = None,
                        review_budget: Sequence[float] = ()) -> Result[dict[str, Any]]:
        """Grade human-graded replies (CSV) and measure agreement: n, means, Pearson, Spearman, QWK,
        exact, confusion; ``predictions`` writes every row's grade; ``calibrate_k`` also fits a teacher
        calibration on K graded replies per question and reports both levels on the rest;
        ``review_budget`` (% of the replies) simulates a teacher grading answer groups in kb's review
        order and in a random one (:func:`kb.evaluate.evaluate_review`)."""
        from .evaluate import evaluate_grader, load_grading_data, parse_scale

        rows, notes = load_grading_data(Path(data), parse_scale(scale) if scale else None)
        grader = self.grader(offline=offline)
        metrics, grades = evaluate_grader(grader, rows)
        result: Result[dict[str, Any]] = Result(metrics, notes=list(notes))
        if predictions:
            result.written.append(_write_predictions(Path(predictions), rows, grades))
        if calibrate_k is not None:
            from .evaluate import evaluate_calibration

            metrics["calibration"] = evaluate_calibration(getattr(grader, "offline", grader), rows, calibrate_k)
            left = metrics["calibration"]["left_out"]
            if left and "default" not in metrics["calibration"]:  # every question: the main report stands alone
                most = max(x["rows"] for x in left)
                result.notes.append(f"--calibrate-k {calibrate_k}: no calibration report — every question has "
                                    f"{calibrate_k} replies or fewer (at most {most}), none would remain to "
                                    f"report on; use a k below {most}")
            elif left:
                shown = ", ".join(f"{x['question'][:40]} ({x['rows']})" for x in left[:10])
                result.notes.append(f"--calibrate-k {calibrate_k}: {len(left)} question(s) left out of the "
                                    f"calibration report, each with {calibrate_k} replies or fewer (none would "
                                    f"remain to report on): {shown}" + (" …" if len(left) > 10 else ""))
        if review_budget:
            from .evaluate import evaluate_review

            metrics.update(evaluate_review(getattr(grader, "offline", grader), rows, grades, review_budget))
        if getattr(grader, "failure", ""):
            result.backend_failure = f"the LLM grader stopped: {grader.failure}"
        return result

    def evaluate_retrieval(self, queries: str | Path, *, k: int = 10, mode: str = "hybrid") -> list[dict[str, Any]]:
        """Score retrieval on a query set (see :func:`kb.evaluate.load_queries`): hit@1, hit@5 and MRR@k,
        one result per mode (``mode="all"``: dense, BM25 and hybrid)."""
        from .evaluate import evaluate_retrieval, load_queries
        from .search import MODES

        qs = load_queries(Path(queries))
        retriever = self.workspace.retriever
        return [evaluate_retrieval(retriever, qs, k=k, mode=m) for m in (MODES if mode == "all" else (mode,))]

    def evaluate_quiz(self, quiz_file: str | Path, *, offline: bool = False) -> dict[str, Any]:
        """Measure a quiz file as a teacher would (see :func:`kb.evaluate.evaluate_quiz`); with a model
        configured (and not ``offline``), the model also reads each question (``model_review``)."""
        from .evaluate import evaluate_quiz
        from .llm.factory import get_reviewer
        from .quiz import load_quiz

        quiz = load_quiz(Path(quiz_file))
        reviewer = get_reviewer(self.settings, offline=offline)
        try:
            return evaluate_quiz(self.workspace, quiz, reviewer=reviewer)
        finally:
            if reviewer is not None:
                reviewer.client.close()

    def evaluate_ask(self, ask_set: str | Path, *, split: str | None = None, k: int = 5,
                     offline: bool = False) -> dict[str, Any]:
        """Ask every question of an ask set (see :func:`kb.evaluate.load_ask_set`) and judge each answer:
        correct (every evidence phrase, and the right page cited), partly, or wrong; ``split`` keeps
        only the questions of that split ("dev" while tuning, "test" once at the end)."""
        from .evaluate import evaluate_ask, load_ask_set

        items = load_ask_set(Path(ask_set))
        if split:
            items = [i for i in items if i.split == split]
            if not items:
                raise InputError("{ask_set}: no questions in split {split!r}",
                                 "use a split the file names, or none",
                                 ask_set=ask_set, split=split)
        return evaluate_ask(lambda q: self.ask(q, k=k, offline=offline), items)

    # --- studying ---------------------------------------------------------------------------
    def load_quizzes(self, paths: Sequence[str | Path] = (), *, warn: Callable[[str], None] = _quiet,
                     reviewed_only: bool = False) -> list[tuple[str, Quiz]]:
        """The quizzes named (errors raise), or every ``quizzes/*.json`` (a bad one is skipped via ``warn``),
        as students get them: without the questions dropped in review (``reviewed_only``: only kept/edited)."""
        from .quiz import load_quiz

        explicit = bool(paths)
        out = []
        for p in [Path(x) for x in paths] or sorted(self.quiz_dir.glob("*.json")):
            try:
                out.append((str(p), load_quiz(p).for_students(reviewed_only)))
            except KbError as e:
                if explicit:
                    raise
                warn(Message("skipped {path}: {error} — {fix}", path=p, error=e,
                             fix=Message(e.hint_template, **e.fields)))
        return out

    def first_quiz(self, path: str | Path | None = None) -> Path:
        """Write an offline quiz of :data:`FIRST_QUIZ_QUESTIONS` questions from the whole course (for a
        first ``kb study``); KbError when the knowledge base yields none."""
        from .quiz import save_quiz
        from .writing.generate import GenerationRequest, generate_quiz
        from .writing.offline import OfflineWriter

        report = generate_quiz(self.workspace, GenerationRequest(n=FIRST_QUIZ_QUESTIONS), OfflineWriter())
        if not report.quiz.questions:
            raise KbError("the knowledge base yields no questions",
                          "ingest more material with kb ingest, then kb study")
        out = Path(path) if path is not None else self.quiz_dir / "course.json"
        save_quiz(report.quiz, out)
        return out

    def study_queue(self, quizzes: Sequence[str | Path] = (), *, new: int = 10, topic: str | None = None,
                    warn: Callable[[str], None] = _quiet, reviewed_only: bool = False) -> StudyQueue:
        """Due questions first, then at most ``new`` never-studied ones (``topic`` filters), from the
        quizzes named or every ``quizzes/*.json``; answers are saved in ``<home>/study.sqlite``."""
        from .study import StudyDB, study_db_path

        loaded = self.load_quizzes(quizzes, warn=warn, reviewed_only=reviewed_only)
        if not loaded:
            raise InputError("no readable quiz in quizzes/", "generate one with kb quiz generate -n 10")
        db = StudyDB(study_db_path(self.settings.home))
        if db.repaired:
            warn(db.repaired)
        return StudyQueue(db.select(loaded, new=new, topic=topic), db, loaded)

    def study_grader(self, quizzes: Sequence[tuple[str, Quiz]], *, offline: bool = False,
                     warn: Callable[[str], None] = _quiet) -> Any:
        """The grader for a study session, using the teachers' calibrations stored beside the quizzes."""
        from .grading.calibration import study_adjustments, use

        grader = self.grader(offline=offline)
        adjust, graded, notes = study_adjustments(quizzes)
        use(grader, adjust, graded)
        for n in notes:
            warn(n)
        return grader

    def main_language(self) -> str | None:
        """The course's main language: its passages' (as the last ``kb ingest`` found it), else its
        quizzes' questions' (quizzes/*.json); None when there is neither. Reads no model and no store."""
        import json

        from .i18n import main_language, read_course_language

        lang = read_course_language(self.settings.home)
        if lang:
            return lang
        langs: list[str | None] = []
        for path in sorted(self.quiz_dir.glob("*.json")):
            try:
                questions = json.loads(path.read_text(encoding="utf-8")).get("questions")
                langs += [q.get("lang") for q in questions if isinstance(q, dict)]
            except (OSError, ValueError, AttributeError, TypeError, RecursionError):
                continue  # a broken quiz says nothing about the language; its own command reports it
        return main_language(lang if isinstance(lang, str) else None for lang in langs)

    def progress(self, quizzes: Sequence[str | Path] = (), *, warn: Callable[[str], None] = _quiet) -> dict[str, Any]:
        """Reviewed, learned and due counts, per source, weakest topics and streak (creates no files)."""
        from .study import StudyDB, study_db_path

        loaded = self.load_quizzes(quizzes, warn=warn)
        return StudyDB(study_db_path(self.settings.home), create=False).progress(loaded)


def _older_chunker(settings: Settings) -> int | None:
    """The chunker version of an existing store when it is not this kb's, else None."""
    from .errors import MissingStoreError
    from .store import open_store

    try:
        built = open_store(settings, check=False).info.get("chunking")
    except MissingStoreError:
        return None
    return int(built) if built not in (None, CHUNKING_VERSION) else None


def _note_course_language(ws: Workspace, home: Path) -> None:
    """Write the main language of the store's passages into the workspace, where kb.i18n finds the
    interface language when neither --ui-lang, KB_UI_LANG nor the locale chooses one."""
    from .i18n import COURSE_LANGUAGE_FILE, main_language, normalize
    from .quiz import write_atomic

    try:
        lang = main_language(normalize(str(meta.get("lang", ""))) for _id, meta in ws.store.all_metadata())
        if lang:
            write_atomic(home / COURSE_LANGUAGE_FILE, lang + "\n")
        else:
            (home / COURSE_LANGUAGE_FILE).unlink(missing_ok=True)
    except (KbError, OSError):
        pass  # only the interface's last-resort language is lost


def _cache_search_index(ws: Workspace) -> None:
    """Cache the search index of what was just ingested: the next cold ``kb search`` reads one file,
    and a search during the next ingest answers from it (see ``SearchIndex.for_store``)."""
    from .search import SearchIndex

    try:
        SearchIndex.for_store(ws.store, ws.settings.cache_dir)
    except (KbError, OSError):
        pass  # only speed is lost; the next search builds it


def _dropped_replies(quiz: Quiz, replies: Sequence[Any]) -> list[str]:
    """A warning naming the questions dropped in ``kb quiz review`` that replies still answer (they are graded)."""
    dropped = {q.id for q in quiz.questions if q.status == "dropped"}
    hit = [r.question_id for r in replies if r.question_id in dropped]
    if not hit:
        return []
    ids = ", ".join(sorted(set(hit)))
    if len(hit) == 1:
        template = N_("warning: {n} reply answers a question dropped in kb quiz review ({ids}): graded all the same; "
                      "leave it out of the replies, or keep the question")
    elif len(set(hit)) == 1:
        template = N_("warning: {n} replies answer a question dropped in kb quiz review ({ids}): graded all the "
                      "same; leave them out of the replies, or keep the question")
    else:
        template = N_("warning: {n} replies answer questions dropped in kb quiz review ({ids}): graded all the "
                      "same; leave them out of the replies, or keep the questions")
    return [Message(template, n=len(hit), ids=ids)]


def _check_report_folder(out_dir: Path) -> None:
    if (out_dir.exists() and not out_dir.is_dir()) or (
            not out_dir.exists() and out_dir.suffix.lower() in (".csv", ".md", ".json", ".xlsx")):
        raise InputError("--out {out_dir}: names a file; kb grade writes a folder of reports (grades.md, grades.csv, "
                         "grades.json)",
                         "give a folder, e.g. --out {with_suffix}/",
                         out_dir=out_dir, with_suffix=out_dir.with_suffix(''))
    import os

    existing = next((p for p in (out_dir, *out_dir.parents) if p.exists()), None)
    if existing is not None and not os.access(existing, os.W_OK | os.X_OK):
        raise InputError("--out {out_dir}: {existing} is read-only; kb grade cannot write its reports there",
                         "grade into a folder you can write to, e.g. --out ~/reports/",
                         out_dir=out_dir, existing=existing)


def _write_predictions(path: Path, rows: Sequence[Any], grades: Sequence[Any]) -> Path:
    import csv
    import io

    from .quiz import write_atomic

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["line", "question", "answer", "human", "points", "score", "verdict", "flags", "feedback", "check"])
    for r, g in zip(rows, grades, strict=True):
        w.writerow([r.line, r.question, r.answer, f"{r.human:.3f}", g.points, f"{g.score:.3f}", g.verdict,
                    ";".join(g.flags), g.feedback, g.check])
    write_atomic(path, buf.getvalue())
    return path
