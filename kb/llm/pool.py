"""Requests in parallel (``KB_LLM_CONCURRENCY``, default 4) with results in the order asked.

Workers are daemon threads pulling from one queue; the main thread waits in short steps so that
Ctrl-C reaches it during a request: it then sets the client's cancel flag (each worker stops at its
next read), closes the client's connections and raises KeyboardInterrupt — replies received so far
are already in the cache. A worker's exception is returned in its item's place, never raised in
another item's."""

from __future__ import annotations

import functools
import queue
import threading
from typing import Any, Callable, Sequence, TypeVar

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


def run_parallel(fn: Callable[[T], Any], items: Sequence[T], workers: int, client: Any = None,
                 what: str = "LLM requests") -> list[Any]:
    """``[fn(item) for item in items]`` on up to ``workers`` threads; an item whose call raised an
    Exception holds that exception; an item never started (the run was cancelled) holds None. The
    installed reporter (:func:`set_reporter`) shows ``what`` advancing as items finish.
    ``client``: its ``cancel`` event and ``close()`` stop the run on Ctrl-C."""
    n = len(items)
    results: list[Any] = [None] * n
    if not n:
        return results
    todo: queue.Queue[int] = queue.Queue()
    for i in range(n):
        todo.put(i)
    finished: queue.Queue[int] = queue.Queue()
    cancel = getattr(client, "cancel", None) or threading.Event()

    work = functools.partial(_work, fn, items, todo, finished, results, cancel)
    threads = [threading.Thread(target=work, daemon=True, name=f"kb-llm-{k}") for k in range(max(1, min(workers, n)))]
    for t in threads:
        t.start()
    done = 0
    reporter = _reporter
    if reporter is not None:
        reporter.start(n, what)
    try:
        while done < n:
            try:
                finished.get(timeout=0.1)
            except queue.Empty:
                if not any(t.is_alive() for t in threads) and finished.empty():
                    break  # cancelled: the rest was never started
                continue
            done += 1
            if reporter is not None:
                reporter.advance()
    except BaseException:
        cancel.set()
        if client is not None:
            client.close()
        raise
    finally:
        if reporter is not None:
            reporter.stop()
    return results


def _work(fn: Callable[[Any], Any], items: Sequence[Any], todo: queue.Queue[int], finished: queue.Queue[int],
          results: list[Any], cancel: threading.Event) -> None:
    """One worker: take the next item until none is left or the run is cancelled."""
    while not cancel.is_set():
        try:
            i = todo.get_nowait()
        except queue.Empty:
            return
        try:
            results[i] = fn(items[i])
        except Exception as e:  # noqa: BLE001 (handed to the caller in the item's place)
            results[i] = e
        finished.put(i)
