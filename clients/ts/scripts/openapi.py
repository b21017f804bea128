"""Print pmemo's OpenAPI document as JSON: the app built as ``pmemo serve`` builds it, over a
throwaway data directory with the hashing embedder (no model, no network).

Run by ``npm run gen`` and by the test that holds ``openapi.json`` to the live document.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from pathlib import Path
from typing import Any


async def document(data: Path) -> dict[str, Any]:
    from pmemo import Memory
    from pmemo.server import SQLiteKeyStore, create_app

    memory = await Memory.open(str(data / "memory"), embedder="hashing")
    keys = SQLiteKeyStore.in_dir(data)
    try:
        return create_app(memory, keys).openapi()
    finally:
        await memory.close()
        keys.close()


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="pmemo-openapi-") as tmp:
        doc = asyncio.run(document(Path(tmp)))
    sys.stdout.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
