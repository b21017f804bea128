"""An OpenAI-compatible ``/v1/embeddings`` client (OpenAI, Ollama, vLLM, DashScope …)."""

from __future__ import annotations

import numpy as np

from ..errors import EmbedderError
from .base import normalise


class OpenAIEmbedder:
    cluster_threshold = 0.75  # a guess for unknown models: calibrate with bench/calibrate.py
    def __init__(self, model: str, base_url: str = "", api_key: str = "", dim: int = 0,
                 timeout_s: float = 30.0) -> None:
        import httpx

        self.model = model
        self.model_id = f"openai:{model}"
        self.dim = dim
        self._url = (base_url or "https://api.openai.com/v1").rstrip("/") + "/embeddings"
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(headers=headers, timeout=timeout_s)

    def _call(self, texts: list[str]) -> np.ndarray:
        try:
            response = self._client.post(self._url, json={"model": self.model, "input": texts})
            response.raise_for_status()
            data = sorted(response.json()["data"], key=lambda d: d["index"])
            matrix = normalise(np.asarray([d["embedding"] for d in data], dtype=np.float32))
        except Exception as exc:
            raise EmbedderError(
                f"embedding request to {self._url} failed ({exc}); check PMEMO_EMBEDDER_BASE_URL, "
                "PMEMO_EMBEDDER_MODEL and PMEMO_EMBEDDER_API_KEY"
            ) from exc
        self.dim = matrix.shape[1]
        return matrix

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return self._call(texts)

    def embed_query(self, text: str) -> np.ndarray:
        return self._call([text])[0]
