"""Requests in parallel (``KB_LLM_CONCURRENCY``, default 4) with results in the order asked.

:class:`OrderedPool` keeps up to ``workers`` requests in flight and hands their results back in the
order they were submitted: the caller takes result *i* (checking it on the main thread while the
later ones are still in flight) and decides there whether to submit more, so a command never waits
for a whole round of requests before starting the next (the writer's waves did: 8 requests × 1 s took
3 rounds, ~3 s, where 2 s will do), and what it sends depends only on the results taken so far, never
on which reply came first. :func:`run_parallel` is the same pool given every item at once.

Workers are daemon threads; the main thread waits in short steps so that Ctrl-C reaches it during a
request: it then sets the client's cancel flag (each worker stops at its next read), closes the
client's connections and raises KeyboardInterrupt — replies received so far are already in the cache.
A worker's exception is returned in its item's place, never raised in another item's."""

from __future__ import annotations

import queue
import threading
from typing import Any, Callable, Generic, Sequence, TypeVar

T = TypeVar("T")

# What shows the requests' progress and says things before a long run (kb.ui.LLMProgress, set by the
# CLI for its LLM commands); None in a library call. Has start(total, what), advance(), stop(), note(text).
_reporter: Any = None


def set_reporter(reporter: Any) -> Any:
    """Install ``reporter`` (or None) for the requests that follow; returns the one it replaces."""
    global _reporter
    previous, _reporter = _reporter, reporter
    return previous


def note(text: str) -> None:
    """Say ``text`` now (an estimate before a long run) where a reporter is installed."""
    if _reporter is not None:
        _reporter.note(text)


_CLOSE = -1  # a worker's signal to end


class OrderedPool(Generic[T]):
    """``fn`` run on up to ``workers`` threads over items submitted one by one; :meth:`take` returns
    the results in submission order. Use as a context manager (the workers end at its exit).

    ``client``: its ``cancel`` event and ``close()`` stop the run on Ctrl-C. ``total``: the most items
    the caller expects to submit, for the progress bar of the installed reporter (labelled ``what``)."""

    def __init__(self, fn: Callable[[T], Any], workers: int, client: Any = None, *, total: int = 0,
                 what: str = "LLM requests") -> None:
        self.fn = fn
        self.workers = max(1, workers)
        self.client = client
        self.cancel: threading.Event = getattr(client, "cancel", None) or threading.Event()
        self._items: list[T] = []
        self._results: dict[int, Any] = {}
        self._taken = 0
        self._todo: queue.Queue[int] = queue.Queue()
        self._done = threading.Condition()
        self._threads: list[threading.Thread] = []
        self._stopped = False  # items not started yet are not run
        self._reporter = _reporter
        if self._reporter is not None and total:
            self._reporter.start(total, what)

    def __enter__(self) -> OrderedPool[T]:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    @property
    def pending(self) -> int:
        """Items submitted and not taken yet (in flight, or answered and waiting their turn)."""
        return len(self._items) - self._taken

    def submit(self, item: T) -> None:
        """Queue ``item``; a worker starts on it as soon as one is free."""
        self._items.append(item)
        self._todo.put(len(self._items) - 1)
        if len(self._threads) < min(self.workers, len(self._items)):
            t = threading.Thread(target=self._work, daemon=True, name=f"kb-llm-{len(self._threads)}")
            self._threads.append(t)
            t.start()

    def take(self) -> tuple[T, Any]:
        """The oldest item not taken yet and its result, waiting for it: what ``fn`` returned, the
        Exception it raised, or None when the run was cancelled before it started."""
        if not self.pending:
            raise IndexError("no item to take")
        i = self._taken
        try:
            with self._done:
                while i not in self._results:
                    if not any(t.is_alive() for t in self._threads):
                        break  # cancelled: this item was never started
                    self._done.wait(0.1)
        except BaseException:  # Ctrl-C: every worker stops at its next read
            self.cancel.set()
            if self.client is not None:
                self.client.close()
            raise
        self._taken += 1
        if self._reporter is not None:
            self._reporter.advance()
        return self._items[i], self._results.pop(i, None)

    def wait_for(self, event: threading.Event) -> None:
        """Wait until ``event`` is set or the oldest item not taken has its result (a reply from the
        cache needs no transport), whichever comes first; Ctrl-C stops the run as in :meth:`take`."""
        try:
            with self._done:
                while (not event.is_set() and self._taken not in self._results
                       and any(t.is_alive() for t in self._threads)):
                    self._done.wait(0.02)
        except BaseException:
            self.cancel.set()
            if self.client is not None:
                self.client.close()
            raise

    def stop(self) -> None:
        """Run no item that a worker has not started yet: :meth:`take` gives None for it (the
        requests already in flight still finish and are taken as usual)."""
        self._stopped = True

    def close(self) -> None:
        """End the workers once the items already submitted are done, and the progress bar."""
        for _ in self._threads:
            self._todo.put(_CLOSE)
        if self._reporter is not None:
            self._reporter.stop()
            self._reporter = None

    def _work(self) -> None:
        """One worker: the next submitted item, until the pool closes or the run is cancelled."""
        while not self.cancel.is_set():
            try:
                i = self._todo.get(timeout=0.2)
            except queue.Empty:
                continue
            if i == _CLOSE:
                return
            try:
                result = None if self._stopped else self.fn(self._items[i])
            except Exception as e:  # noqa: BLE001 (handed to the caller in the item's place)
                result = e
            with self._done:
                self._results[i] = result
                self._done.notify_all()


def run_parallel(fn: Callable[[T], Any], items: Sequence[T], workers: int, client: Any = None,
                 what: str = "LLM requests") -> list[Any]:
    """``[fn(item) for item in items]`` on up to ``workers`` threads; an item whose call raised an
    Exception holds that exception; an item never started (the run was cancelled) holds None. The
    installed reporter (:func:`set_reporter`) shows ``what`` advancing as items finish.
    ``client``: its ``cancel`` event and ``close()`` stop the run on Ctrl-C."""
    with OrderedPool(fn, workers, client, total=len(items), what=what) as pool:
        for item in items:
            pool.submit(item)
        return [pool.take()[1] for _ in items]
