"""Spaced repetition: what to study now, what a graded reply does to the schedule, and progress.

Scheduling is FSRS (the ``fsrs`` package, the algorithm Anki ships), driven by the grade:

    points 3 → Good · 2 → Hard · 0–1 → Again · objective right → Good, wrong → Again
    "I was right" (the student overrides the grader) → Good

State lives per question id in ``<workspace>/study.sqlite``. Every review is one
``BEGIN IMMEDIATE`` transaction that reads the card, schedules it and writes the card and the
review log together, so Ctrl-C, a crash or a closed terminal loses at most the reply being
typed, and two sessions at once serialise on the database instead of overwriting each other
(WAL journal, 10 s busy timeout).

The database is checked (``PRAGMA quick_check``) when opened. A damaged one is reported by
read-only commands (``kb progress``: exit 4 and the fix); ``kb study`` moves it aside as
``study.sqlite.damaged-<time>`` after copying every row it can still read into a fresh one.
A write that finds the damage mid-session does the same and then saves the reply it was
saving, so a typed answer is never lost. A healthy file that is read-only, or a folder kb may
not write, is not damage: a StoreError says so (exit 4) and nothing is moved; a database
another process keeps locked past the busy timeout is :class:`StudyDBLocked`.
"""

from __future__ import annotations

import datetime as _dt
import json
import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Sequence

from .errors import Phrase, StoreError
from .grading.base import MAX_POINTS, Grade
from .i18n import N_
from .quiz import Question, Quiz
from .text import fold

SCHEMA = """
CREATE TABLE IF NOT EXISTS cards (
    qid TEXT PRIMARY KEY,
    quiz TEXT, prompt TEXT, source TEXT, topic TEXT,
    fsrs TEXT NOT NULL,          -- fsrs.Card.to_dict() as JSON
    due TEXT NOT NULL,           -- ISO UTC, comparable as text
    reps INTEGER NOT NULL DEFAULT 0,
    lapses INTEGER NOT NULL DEFAULT 0,
    last_points INTEGER,
    last_review TEXT
);
CREATE INDEX IF NOT EXISTS cards_due ON cards(due);
CREATE TABLE IF NOT EXISTS reviews (
    id INTEGER PRIMARY KEY,
    qid TEXT NOT NULL, at TEXT NOT NULL, day TEXT NOT NULL,
    points INTEGER NOT NULL, rating INTEGER NOT NULL,
    reply TEXT, grader TEXT, overridden INTEGER NOT NULL DEFAULT 0,
    card_before TEXT             -- the card before this review (undo for "I was right")
);
CREATE INDEX IF NOT EXISTS reviews_qid ON reviews(qid);
"""

_BUSY_TIMEOUT_S = 10.0  # how long a write waits for another session's transaction; set by hand, not measured
_LEARNED_MIN_POINTS = 2  # "learned": in FSRS review state, last reply at least this; set by hand, not measured
_WEAKEST_SHOWN = 5  # topics listed under "weakest" by kb progress


def now_utc() -> _dt.datetime:
    """The current time, timezone-aware in UTC (what every stored timestamp is)."""
    return _dt.datetime.now(_dt.timezone.utc)


def _iso(t: _dt.datetime) -> str:
    return t.astimezone(_dt.timezone.utc).isoformat(timespec="seconds")


def rating_for(question: Question, grade: Grade) -> int:
    """The FSRS rating (1 Again, 2 Hard, 3 Good) a grade stands for."""
    if grade.grader == "override":
        return 3
    if question.type != "short":
        return 3 if grade.points >= MAX_POINTS else 1
    return {3: 3, 2: 2}.get(grade.points, 1)


def topic_of(q: Question) -> str:
    """A question's topic for progress tables: the section its citation points to."""
    if q.citations:
        loc = q.citations[0].locator
        return loc.split(" > ")[-1].split(" · ")[-1][:60] if loc else ""
    return ""


@dataclass(frozen=True)
class Item:
    """A question to study, with where it comes from."""

    question: Question
    quiz: str
    due: str | None = None  # None: never studied

    @property
    def is_new(self) -> bool:
        """True when the question was never studied (it has no due date yet)."""
        return self.due is None


class StudyDB:
    """The study database (``study.sqlite``): FSRS cards and the review log. Each review is one
    transaction; a damaged file is repaired or reported (see the module docstring)."""
    def __init__(self, path: Path, *, create: bool = True) -> None:
        """``create=False`` (read-only commands): no file is made; a missing one reads as empty,
        a damaged one is a StoreError. Otherwise a damaged file is repaired (see the module)."""
        self.path = path
        self.repaired = ""  # what repair() did, for the caller to tell the user
        self._create = create
        if create:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise self._cannot_write(e) from e
        problem = self._open()
        if problem:
            if not create:
                raise StoreError("{path}: the study database is damaged ({problem})",
                                 "run kb study: it keeps every review it can still read and moves the damaged file "
                                 "aside (or move it aside yourself to start a fresh history)",
                                 path=path, problem=problem)
            self.repair(problem)
        from fsrs import Scheduler

        self._scheduler = Scheduler()

    def _open(self) -> str:
        """Connect; '' when the database is sound, else what is wrong with it."""
        target = str(self.path) if self._create or self.path.exists() else ":memory:"
        try:
            self._db = sqlite3.connect(target, timeout=_BUSY_TIMEOUT_S, isolation_level=None)
            self._db.execute(f"PRAGMA busy_timeout={int(_BUSY_TIMEOUT_S * 1000)}")
            rows = self._db.execute("PRAGMA quick_check").fetchall()
            if rows != [("ok",)]:
                return "; ".join(str(r[0]) for r in rows[:3])
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.executescript(SCHEMA)
        except sqlite3.DatabaseError as e:
            if _locked(e):
                raise self._busy(e) from e
            if _read_only(e):  # a healthy file kb may not write: never "damaged", never moved aside
                raise self._cannot_write(e) from e
            return str(e)
        return ""

    def _cannot_write(self, e: BaseException) -> StoreError:
        folder = self.path.parent
        what = Phrase(N_("kb study saves every answer there") if self._create else
                      N_("SQLite writes beside it even to read it (its -wal and -shm files)"))
        return StoreError("{path}: the study database cannot be written: the file or its folder is read-only "
                          "({error})",
                          "{what}: make {folder} and the file writable (chmod u+w, or a read-write mount), or use a "
                          "workspace you can write with --home",
                          path=self.path, error=getattr(e, 'strerror', None) or e, what=what, folder=folder)

    def _busy(self, e: BaseException, unsaved: str = "") -> StoreError:
        return StudyDBLocked("{path}: the study database is locked by another process (still after "
                             "{busy_timeout_s:g} s: {error}){unsaved}",
                             "close the other kb study (or the program that has the file open, e.g. a database "
                             "browser), then run the command again",
                             path=self.path, busy_timeout_s=_BUSY_TIMEOUT_S, error=e, unsaved=unsaved)

    def repair(self, problem: str) -> None:
        """Copy every readable card and review into a fresh database and move the damaged
        file aside (with its -wal/-shm), so the history survives what it can."""
        import shutil
        import time as _time

        stamp = _time.strftime("%Y%m%d-%H%M%S")
        fresh = self.path.with_name(self.path.name + ".repairing")
        fresh.unlink(missing_ok=True)
        new = sqlite3.connect(str(fresh), isolation_level=None)
        new.executescript(SCHEMA)
        kept = {}
        for table in ("cards", "reviews"):
            kept[table] = 0
            try:
                cols = [r[1] for r in new.execute(f"PRAGMA table_info({table})")]
                cur = self._db.execute(f"SELECT {', '.join(cols)} FROM {table}")
                while True:
                    try:
                        row = cur.fetchone()
                    except sqlite3.DatabaseError:
                        break  # the rest of the table is on a damaged page
                    if row is None:
                        break
                    try:
                        new.execute(f"INSERT OR IGNORE INTO {table} ({', '.join(cols)}) VALUES "
                                    f"({', '.join('?' * len(cols))})", row)
                        kept[table] += 1
                    except sqlite3.DatabaseError:
                        continue
            except sqlite3.DatabaseError:
                pass
        new.close()
        try:
            self._db.close()
        except sqlite3.Error:
            pass
        aside = self.path.with_name(f"{self.path.name}.damaged-{stamp}")
        for suffix in ("", "-wal", "-shm"):
            src = Path(str(self.path) + suffix)
            if src.exists():
                shutil.move(str(src), str(aside) + suffix)
        fresh.replace(self.path)
        self.repaired = (f"{self.path} was damaged ({problem}); kept {kept['cards']} cards and "
                         f"{kept['reviews']} reviews that could be read, moved the damaged file to {aside}")
        again = self._open()
        if again:
            raise StoreError("{path}: the study database cannot be repaired ({again})",
                             "move {path} aside to start a fresh study history",
                             path=self.path, again=again)

    def close(self) -> None:
        """Close the connection; the object is unusable afterwards."""
        self._db.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    # ------------------------------------------------------------------ reviews

    def record(self, item: Item, grade: Grade, reply: str, at: _dt.datetime | None = None) -> tuple[int, str]:
        """Schedule the card from ``grade`` and log the review, atomically. → (review id, next due).
        A database found damaged now is repaired first (:meth:`repair`) and the review saved."""
        at = at or now_utc()
        try:
            saved = self._record(item, grade, reply, at)
            problem = self._damage()  # a write into a damaged file can "succeed": check after it
        except sqlite3.DatabaseError as e:
            if _locked(e):
                raise self._busy(e) from e
            if _read_only(e):
                raise self._cannot_write(e) from e
            saved, problem = None, str(e)
        if not problem:
            assert saved is not None
            return saved
        self.repair(problem)
        kept = self._db.execute(
            "SELECT r.id, c.due FROM reviews r JOIN cards c ON c.qid = r.qid WHERE r.qid=? AND r.at=? AND r.reply=?",
            (item.question.id, _iso(at), reply)).fetchone()
        if kept:  # the repair copied it
            return int(kept[0]), str(kept[1])
        return self._record(item, grade, reply, at)  # the repaired copy lacks it: save it again

    def _damage(self) -> str:
        """'' when ``PRAGMA quick_check`` finds the file sound, else what it found. A connection
        of its own: this one's page cache would still hold the pages as they were."""
        if not self.path.exists():
            return ""
        try:
            con = sqlite3.connect(str(self.path), timeout=_BUSY_TIMEOUT_S)
            try:
                rows = con.execute("PRAGMA quick_check(3)").fetchall()
            finally:
                con.close()
        except sqlite3.DatabaseError as e:
            if isinstance(e, sqlite3.OperationalError) and "locked" in str(e):
                return ""
            return str(e)
        return "" if rows == [("ok",)] else "; ".join(str(r[0]) for r in rows)

    def _record(self, item: Item, grade: Grade, reply: str, at: _dt.datetime | None = None) -> tuple[int, str]:
        from fsrs import Card, Rating

        at = at or now_utc()
        q = item.question
        rating = rating_for(q, grade)
        with self._tx() as db:
            row = db.execute("SELECT fsrs, reps, lapses FROM cards WHERE qid=?", (q.id,)).fetchone()
            before = row[0] if row else None
            card = Card.from_dict(json.loads(before)) if before else Card()
            card, _ = self._scheduler.review_card(card, Rating(rating), at)
            reps = (row[1] if row else 0) + 1
            lapses = (row[2] if row else 0) + (1 if rating == 1 and row else 0)
            db.execute(
                "INSERT INTO cards "
                "(qid, quiz, prompt, source, topic, fsrs, due, reps, lapses, last_points, last_review) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT(qid) DO UPDATE SET quiz=excluded.quiz, "
                "prompt=excluded.prompt, source=excluded.source, topic=excluded.topic, fsrs=excluded.fsrs, "
                "due=excluded.due, reps=excluded.reps, lapses=excluded.lapses, last_points=excluded.last_points, "
                "last_review=excluded.last_review",
                (q.id, item.quiz, q.prompt, q.citations[0].source if q.citations else "", topic_of(q),
                 json.dumps(card.to_dict()), _iso(card.due), reps, lapses, grade.points, _iso(at)),
            )
            cur = db.execute(
                "INSERT INTO reviews (qid, at, day, points, rating, reply, grader, overridden, card_before) "
                "VALUES (?,?,?,?,?,?,?,?,?)",
                (q.id, _iso(at), at.astimezone().date().isoformat(), grade.points, rating, reply, grade.grader,
                 1 if grade.grader == "override" else 0, before),
            )
            review_id = cur.lastrowid
            assert review_id is not None  # set by the INSERT above
            return int(review_id), _iso(card.due)

    def override(self, review_id: int, item: Item, grade: Grade) -> str:
        """The student says they were right: redo that review as Good (undoing the graded one
        when it is still the card's latest). → next due."""
        try:
            return self._override(review_id, item, grade)
        except sqlite3.OperationalError as e:
            if _locked(e):
                raise self._busy(e, "; your answer is saved, the 'I was right' was not") from e
            if _read_only(e):
                raise self._cannot_write(e) from e
            raise

    def _override(self, review_id: int, item: Item, grade: Grade) -> str:
        from fsrs import Card, Rating

        with self._tx() as db:
            rev = db.execute("SELECT qid, at, card_before FROM reviews WHERE id=?", (review_id,)).fetchone()
            if rev is None:
                raise StoreError("review {review_id} is not in {path}",
                                 "answer the question again",
                                 review_id=review_id, path=self.path)
            latest = db.execute("SELECT MAX(id) FROM reviews WHERE qid=?", (rev[0],)).fetchone()[0]
            at = _dt.datetime.fromisoformat(rev[1])
            if latest == review_id:
                card = Card.from_dict(json.loads(rev[2])) if rev[2] else Card()
            else:  # another session reviewed it since: build on the current card
                current = db.execute("SELECT fsrs FROM cards WHERE qid=?", (rev[0],)).fetchone()[0]
                card = Card.from_dict(json.loads(current))
            card, _ = self._scheduler.review_card(card, Rating.Good, at)
            db.execute("UPDATE cards SET fsrs=?, due=?, last_points=? WHERE qid=?",
                       (json.dumps(card.to_dict()), _iso(card.due), grade.points, rev[0]))
            db.execute("UPDATE reviews SET points=?, rating=3, overridden=1, grader='override' WHERE id=?",
                       (grade.points, review_id))
            return _iso(card.due)

    # ------------------------------------------------------------------ what to study

    def due_map(self) -> dict[str, str]:
        """Question id → next due date (ISO UTC) of every card studied at least once."""
        return dict(self._db.execute("SELECT qid, due FROM cards").fetchall())

    def select(self, quizzes: Sequence[tuple[str, Quiz]], *, new: int = 10, topic: str | None = None,
               at: _dt.datetime | None = None) -> list[Item]:
        """Due questions (most overdue first), then up to ``new`` never-studied ones in quiz order."""
        at_s = _iso(at or now_utc())
        dues = self.due_map()
        seen: set[str] = set()
        due, fresh = [], []
        for path, quiz in quizzes:
            for q in quiz.questions:
                if q.id in seen or (topic and not matches_topic(q, topic)):
                    continue
                seen.add(q.id)
                d = dues.get(q.id)
                if d is None:
                    fresh.append(Item(q, path))
                elif d <= at_s:
                    due.append(Item(q, path, d))
        due.sort(key=lambda i: i.due or "")
        return due + fresh[: max(0, new)]

    # ------------------------------------------------------------------ progress

    def progress(self, quizzes: Sequence[tuple[str, Quiz]] = (), at: _dt.datetime | None = None) -> dict[str, Any]:
        """What ``kb progress`` shows, as a dict: counts (reviewed, due, new, learned, reviews, streak), when
        cards come due, per-source rows and the weakest topics; ``quizzes`` adds their never-studied questions."""
        at = at or now_utc()
        at_s = _iso(at)
        rows = self._db.execute("SELECT qid, source, topic, due, reps, lapses, last_points, fsrs FROM cards").fetchall()
        known = {q.id: (path, q) for path, quiz in quizzes for q in quiz.questions}
        by_source: dict[str, dict[str, Any]] = {}

        def bucket(source: str) -> dict[str, Any]:
            """The per-source row for ``source`` (made on first use; "(no source)" when empty)."""
            return by_source.setdefault(source or "(no source)", {
                "source": source or "(no source)", "questions": 0, "reviewed": 0, "learned": 0, "due": 0,
                "points": []})

        learned = 0
        for _qid, source, _topic, due, reps, _lapses, last_points, card in rows:
            b = bucket(source)
            b["questions"] += 1
            b["reviewed"] += 1 if reps else 0
            state = json.loads(card).get("state")
            is_learned = state == 2 and (last_points or 0) >= _LEARNED_MIN_POINTS  # 2: fsrs State.Review
            learned += is_learned
            b["learned"] += is_learned
            b["due"] += due <= at_s
            if last_points is not None:
                b["points"].append(last_points)
        studied = {r[0] for r in rows}
        new = 0
        for qid, (_path, q) in known.items():
            if qid not in studied:
                new += 1
                bucket(q.citations[0].source if q.citations else "")["questions"] += 1
        for b in by_source.values():
            pts = b.pop("points")
            b["mean_points"] = round(sum(pts) / len(pts), 2) if pts else None
        dues = [r[3] for r in rows]
        day = _dt.timedelta(days=1)
        upcoming = {
            "now": sum(d <= at_s for d in dues),
            "today": sum(at_s < d <= _iso(_end_of_day(at)) for d in dues),
            "tomorrow": sum(_iso(_end_of_day(at)) < d <= _iso(_end_of_day(at + day)) for d in dues),
            "this_week": sum(_iso(_end_of_day(at + day)) < d <= _iso(_end_of_day(at + 7 * day)) for d in dues),
            "later": sum(d > _iso(_end_of_day(at + 7 * day)) for d in dues),
        }
        weakest = sorted(
            (r for r in self._db.execute(
                "SELECT topic, source, AVG(last_points), COUNT(*) FROM cards WHERE last_points IS NOT NULL "
                "GROUP BY topic, source").fetchall()),
            key=lambda r: (r[2], -r[3]))[:_WEAKEST_SHOWN]
        n_reviews = self._db.execute("SELECT COUNT(*) FROM reviews").fetchone()[0]
        return {
            "reviewed": sum(1 for r in rows if r[4]),
            "due": upcoming["now"],
            "new": new,
            "learned": learned,
            "reviews": n_reviews,
            "streak": self.streak(at),
            "upcoming": upcoming,
            "next_due": min((d for d in dues if d > at_s), default=None),
            "sources": sorted(by_source.values(), key=lambda b: b["source"]),
            "weakest": [{"topic": t or "(no topic)", "source": s, "mean_points": round(p, 2), "questions": n}
                        for t, s, p, n in weakest if p < MAX_POINTS],
        }

    def streak(self, at: _dt.datetime | None = None) -> int:
        """Consecutive days with at least one review, ending today (or yesterday)."""
        days = {d for (d,) in self._db.execute("SELECT DISTINCT day FROM reviews")}
        today = (at or now_utc()).astimezone().date()
        d = today if today.isoformat() in days else today - _dt.timedelta(days=1)
        n = 0
        while d.isoformat() in days:
            n += 1
            d -= _dt.timedelta(days=1)
        return n


class StudyDBLocked(StoreError):
    """Another process holds the study database's write lock past the busy timeout."""


def _locked(e: sqlite3.DatabaseError) -> bool:
    """SQLITE_BUSY/LOCKED: another connection holds the lock (not damage)."""
    name = getattr(e, "sqlite_errorname", "") or ""
    return name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "database is locked" in str(e)


def _read_only(e: sqlite3.DatabaseError) -> bool:
    """The file or its folder cannot be written or opened for writing (not damage)."""
    name = getattr(e, "sqlite_errorname", "") or ""
    return name.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH")) \
        or "readonly database" in str(e) or "unable to open database file" in str(e)


def _end_of_day(t: _dt.datetime) -> _dt.datetime:
    local = t.astimezone()
    return local.replace(hour=23, minute=59, second=59, microsecond=0)


def matches_topic(q: Question, topic: str) -> bool:
    """The topic's words all appear (accent- and case-free) in the question, its answer,
    concepts or cited section."""
    hay = fold(" ".join([q.prompt, q.answer, " ".join(q.concepts), *(c.locator for c in q.citations),
                         *(c.quote for c in q.citations)]))
    return all(w in hay for w in fold(topic).split())


def study_db_path(home: Path) -> Path:
    """Where a workspace keeps its study database."""
    return home / "study.sqlite"
