"""Any OpenAI-compatible chat endpoint (OpenAI, Ollama, vLLM, DeepSeek, DashScope …)."""

from __future__ import annotations

import json
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from ..errors import LLMError

M = TypeVar("M", bound=BaseModel)


class OpenAIChat:
    def __init__(self, model: str, base_url: str = "", api_key: str = "", timeout_s: float = 30.0,
                 retries: int = 2) -> None:
        from openai import OpenAI

        self.model_id = model
        self.retries = retries
        self._client = OpenAI(base_url=base_url or None, api_key=api_key or "not-needed",
                              timeout=timeout_s, max_retries=0)

    def complete_json(self, system: str, user: str, schema: type[M]) -> M:
        last: Exception | None = None
        hint = f"Reply with one JSON object matching this schema: {json.dumps(schema.model_json_schema())}"
        for _ in range(self.retries + 1):
            try:
                response = self._client.chat.completions.create(
                    model=self.model_id,
                    messages=[{"role": "system", "content": system + "\n" + hint},
                              {"role": "user", "content": user}],
                    temperature=0,
                    response_format={"type": "json_object"},
                )
                return parse_json(response.choices[0].message.content or "", schema)
            except LLMError as exc:
                last = exc
            except Exception as exc:  # network, timeout, API errors: retry, then give up
                last = exc
        raise LLMError(f"LLM {self.model_id} failed after {self.retries + 1} tries: {last}") from last


def parse_json(text: str, schema: type[M]) -> M:
    """Validate an LLM reply; tolerate code fences and text around one JSON object."""
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end <= start:
        raise LLMError(f"LLM reply is not JSON: {text[:80]!r}")
    try:
        return schema.model_validate_json(text[start : end + 1])
    except ValidationError as exc:
        raise LLMError(f"LLM reply does not match {schema.__name__}: {exc.errors()[:2]}") from exc
