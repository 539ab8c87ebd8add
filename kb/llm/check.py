"""``kb llm check``: reach the endpoint, list or confirm the model, try one tiny structured
request and say which output mode works and how long it took — before a long run finds out.
Each failure is a BackendError (exit 5) naming the fix: wrong URL, key, model name, or a server
that does not speak the OpenAI API."""

from __future__ import annotations

import json
import time
from dataclasses import replace
from typing import Any

from ..config import Settings
from ..errors import BackendError
from ..i18n import N_
from .client import EndpointError, LLMClient


def list_models(settings: Settings) -> list[str] | None:
    """The model ids the openai client's ``models.list()`` (``GET /models``) gets, or None when the
    server does not list them (some local servers); BackendError when the endpoint cannot be
    reached or is not OpenAI-compatible."""
    import httpx
    import openai

    base = (settings.llm_base_url or "https://api.openai.com/v1").rstrip("/")
    hint = N_("start the server, or fix OPENAI_BASE_URL (e.g. http://127.0.0.1:8080/v1)")
    http = httpx.Client()
    http_client: Any = http  # openai 1.x types it as httpx's, later ones as httpx2's and take httpx's at run time
    try:
        try:
            client = openai.OpenAI(base_url=base, api_key=settings.llm_api_key or "not-needed", max_retries=0,
                                   timeout=min(settings.llm_timeout or 30.0, 30.0), http_client=http_client)
        except Exception as e:  # noqa: BLE001 (a base URL that does not parse)
            raise EndpointError("the LLM at {base} cannot be reached ({kind}: {error})", hint, base=base,
                                kind=type(e).__name__, error=e) from e
        # the raw reply first: a web page where the API should be is said as such, not as a parse error
        raw = client.models.with_raw_response.list()
    except openai.APIStatusError as e:
        if e.status_code in (401, 403):
            raise EndpointError("the LLM endpoint {base} refused the API key (HTTP {status_code})",
                                "set OPENAI_API_KEY to a valid key",
                                base=base, status_code=e.status_code) from None
        if e.status_code == 404:
            return None  # not every server lists its models; the request below tells
        raise BackendError("the LLM at {base} answered GET /models with HTTP {status_code}",
                           "check the server's log, or OPENAI_BASE_URL (it usually ends in /v1)",
                           base=base, status_code=e.status_code) from None
    except openai.APIConnectionError as e:  # httpx's error (refused, timed out, bad scheme) is its cause
        cause = e.__cause__ or e
        raise EndpointError("the LLM at {base} cannot be reached ({kind}: {error})", hint, base=base,
                            kind=type(cause).__name__, error=cause) from e
    finally:
        http.close()
    try:
        data = json.loads(raw.http_response.content)
    except (ValueError, RecursionError):
        head = raw.http_response.text.strip()[:60]
        raise EndpointError("{base} is not an OpenAI-compatible endpoint: GET /models answered {head!r}…",
                            "OPENAI_BASE_URL must name the API, usually ending in /v1 (http://127.0.0.1:11434/v1 for "
                            "Ollama, http://127.0.0.1:8080/v1 for llama.cpp)",
                            base=base, head=head) from None
    if not isinstance(data, dict) or not isinstance(data.get("data"), list):
        return None
    return [str(m.id) for m in raw.parse().data if getattr(m, "id", None)]


def check_endpoint(settings: Settings) -> dict[str, Any]:
    """What ``kb llm check`` reports: the endpoint, the model (listed or not), the latency of one
    tiny structured request and the output mode that worked (json_schema, json_object or prose)."""
    from .schemas import CheckReply

    if not settings.llm_model:
        raise EndpointError("no LLM model configured", "set KB_LLM_MODEL (and OPENAI_BASE_URL for a local server)")
    base = (settings.llm_base_url or "https://api.openai.com/v1").rstrip("/")
    models = list_models(settings)
    if models is not None and models and settings.llm_model not in models:
        raise EndpointError("model '{llm_model}' is not served at {base}",
                            "set KB_LLM_MODEL to one of: {models}",
                            llm_model=settings.llm_model, base=base, models=', '.join(models[:10]))
    client = LLMClient(replace(settings, llm_retries=min(settings.llm_retries, 1)), cache=False)
    client.cache.error = "off"  # a check never writes the cache
    start = time.monotonic()
    try:
        reply = client.request("You are a health check. Reply with one JSON object only.",
                               'Reply with exactly this JSON object: {"ok": true, "word": "kb"}',
                               max_tokens=40, schema=CheckReply, temperature=0.0)
    finally:
        client.close()
    return {"endpoint": base, "model": settings.llm_model, "models": models,
            "model_listed": None if not models else settings.llm_model in models,
            "output_mode": reply.mode, "latency_s": round(time.monotonic() - start, 2), "reply": reply.data,
            "usage": client.usage.to_json()}
