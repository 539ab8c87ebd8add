"""``kb llm check``: reach the endpoint, list or confirm the model, try one tiny structured
request and say which output mode works and how long it took — before a long run finds out.
Each failure is a BackendError (exit 5) naming the fix: wrong URL, key, model name, or a server
that does not speak the OpenAI API."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from ..config import Settings
from ..errors import BackendError
from .client import EndpointError, LLMClient


def list_models(settings: Settings) -> list[str] | None:
    """The model ids ``GET /models`` lists, or None when the server does not list them (some
    local servers); BackendError when the endpoint cannot be reached or is not OpenAI-compatible."""
    import httpx

    base = (settings.llm_base_url or "https://api.openai.com/v1").rstrip("/")
    try:
        r = httpx.get(f"{base}/models", headers={"Authorization": f"Bearer {settings.llm_api_key or 'not-needed'}"},
                      timeout=min(settings.llm_timeout or 30.0, 30.0))
    except httpx.HTTPError as e:
        raise EndpointError(f"the LLM at {base} cannot be reached ({type(e).__name__}: {e})",
                            "start the server, or fix OPENAI_BASE_URL (e.g. http://127.0.0.1:8080/v1)") from e
    if r.status_code in (401, 403):
        raise EndpointError(f"the LLM endpoint {base} refused the API key (HTTP {r.status_code})",
                            "set OPENAI_API_KEY to a valid key")
    if r.status_code == 404:
        return None  # not every server lists its models; the request below tells
    if r.status_code != 200:
        raise BackendError(f"the LLM at {base} answered GET /models with HTTP {r.status_code}",
                           "check the server's log, or OPENAI_BASE_URL (it usually ends in /v1)")
    try:
        data = r.json()
    except ValueError:
        head = r.text.strip()[:60]
        raise EndpointError(f"{base} is not an OpenAI-compatible endpoint: GET /models answered {head!r}…",
                            "OPENAI_BASE_URL must name the API, usually ending in /v1 "
                            "(http://127.0.0.1:11434/v1 for Ollama, http://127.0.0.1:8080/v1 for llama.cpp)") from None
    items = data.get("data") if isinstance(data, dict) else None
    if not isinstance(items, list):
        return None
    return [str(m.get("id")) for m in items if isinstance(m, dict) and m.get("id")]


def check_endpoint(settings: Settings) -> dict[str, Any]:
    """What ``kb llm check`` reports: the endpoint, the model (listed or not), the latency of one
    tiny structured request and the output mode that worked (json_schema, json_object or prose)."""
    from .schemas import CheckReply

    if not settings.llm_model:
        raise EndpointError("no LLM model configured", "set KB_LLM_MODEL (and OPENAI_BASE_URL for a local server)")
    base = (settings.llm_base_url or "https://api.openai.com/v1").rstrip("/")
    models = list_models(settings)
    if models is not None and models and settings.llm_model not in models:
        raise EndpointError(f"model '{settings.llm_model}' is not served at {base}",
                            f"set KB_LLM_MODEL to one of: {', '.join(models[:10])}")
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
