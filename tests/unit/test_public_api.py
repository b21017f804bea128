"""The public surface: exported names are pinned, every setting and MCP tool is documented."""

from pathlib import Path

import pmemo
from pmemo.config import describe

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"


def test_public_names_are_pinned():
    assert {"Memory", "SyncMemory", "Settings", "Turn", "Hit", "ContextPack", "Scope",
            "PMemoError", "InvalidInput", "NotFound"} <= set(pmemo.__all__)
    for name in pmemo.__all__:
        assert hasattr(pmemo, name), name


def test_every_setting_is_in_the_configuration_doc():
    text = (ROOT / "docs" / "CONFIGURATION.md").read_text("utf-8")
    missing = [env for env, _, _ in describe() if f"| `{env}` |" not in text]
    assert not missing, f"document these settings in docs/CONFIGURATION.md's table: {missing}"


def test_readme_documents_the_two_commands():
    text = README.read_text("utf-8")
    assert "make run" in text and "make test" in text


def test_every_mcp_tool_is_in_the_mcp_doc() -> None:
    from pmemo.mcp import TOOLS

    doc = (ROOT / "docs" / "MCP.md").read_text(encoding="utf-8")
    listed = doc.split("MCP tools (", 1)[1].split("\n\n", 1)[0]
    assert {t for t in TOOLS if f"`{t}`" not in listed} == set()
