"""Prompts: one module per task, each a pure function paired with the pydantic model the
reply must match.

They sit beside ``models`` (not under ``pipelines/``) because the tiers (summaries, key
lines, episodes), the extraction pipeline and the graph all ask an LLM, and the pipelines
build on the tiers: a prompt shared by both needs a home below either.
"""
