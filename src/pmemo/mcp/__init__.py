"""pmemo as an MCP server: memory tools for an agent, over stdio or streamable HTTP.

>>> from pmemo.mcp import build_server  # doctest: +SKIP
"""

from .server import TOOLS, build_server

__all__ = ["TOOLS", "build_server"]
