"""The daily diary (issue 20): one entry per group or private chat and local day, written by the
LLM in the agent's voice or, offline, as an extractive digest; the long-term (L3) tier.

``days`` holds the calendar arithmetic (pure), ``digest`` the offline entry (pure), ``prompt``
the LLM's, ``writer`` writes a day, ``schedule`` finds the days due an entry.
"""
