"""The public surface: exported names are pinned, every setting is documented."""

from pathlib import Path

import pmemo
from pmemo.config import describe

README = Path(__file__).resolve().parents[2] / "README.md"


def test_public_names_are_pinned():
    assert {"Memory", "SyncMemory", "Settings", "Turn", "Hit", "ContextPack", "Scope",
            "PMemoError", "InvalidInput", "NotFound"} <= set(pmemo.__all__)
    for name in pmemo.__all__:
        assert hasattr(pmemo, name), name


def test_every_setting_is_in_the_readme():
    text = README.read_text("utf-8")
    missing = [env for env, _, _ in describe() if f"`{env}`" not in text]
    assert not missing, f"document these settings in README.md: {missing}"


def test_readme_documents_the_two_commands():
    text = README.read_text("utf-8")
    assert "make run" in text and "make test" in text


def test_every_mcp_tool_is_in_the_readme() -> None:
    from pmemo.mcp import TOOLS

    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    listed = readme.split("MCP tools (", 1)[1].split("\n\n", 1)[0]
    assert {t for t in TOOLS if f"`{t}`" not in listed} == set()
