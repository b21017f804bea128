"""Store ports: one small Protocol per concern, and the unit of work that spans them (issue 45 §1).

A consumer takes the ports it uses (``graph: GraphPort``), not the whole store; a store gives
each port as an attribute (``store.graph``) and ``tx()`` to make several calls one transaction.
This package imports only the models: what a port says is the store's contract, never a
backend's. docs/STORE_PORTS.md has the shape and how the next port moves here.
"""

from __future__ import annotations

from .agenda import AgendaPort
from .api_keys import KeyStore
from .batches import BatchPort
from .clusters import ClusterPort, HitDecay
from .diary import DiaryPort, TurnStamp, Waiting
from .episodes import EpisodePort, EpisodeSignal
from .facts import FactPort
from .forget import ForgetPort
from .graph import EntityRef, GraphPort, NewTriple, TripleView
from .jobs import Job, JobListening, JobPort, JobSignals
from .key_lines import KeyLinePort
from .locks import OWNER_WAIT_S, LockPort
from .owners import OwnerPort
from .people import NewAlias, NewSign, PeoplePort
from .person_forget import HeldRows, PersonForgetPort
from .records import RecordPort
from .summaries import SummaryPort
from .tasks import TaskPort
from .turns import NewTurn, Once, TurnPort, TurnRef
from .unit import UnitOfWork
from .usage import Usage, UsagePort
from .vectors import EmbedCachePort, MetaPort, VectorPort
from .windows import WindowPort

__all__ = ["OWNER_WAIT_S", "AgendaPort", "BatchPort", "ClusterPort", "DiaryPort", "EmbedCachePort", "EntityRef",
           "EpisodePort", "EpisodeSignal", "FactPort", "ForgetPort", "GraphPort", "HeldRows", "HitDecay", "Job",
           "JobListening", "JobPort", "JobSignals", "KeyLinePort", "KeyStore", "LockPort", "MetaPort", "NewAlias",
           "NewSign", "NewTriple", "NewTurn", "Once", "OwnerPort", "PeoplePort", "PersonForgetPort", "RecordPort",
           "SummaryPort", "TaskPort", "TripleView", "TurnPort", "TurnRef", "TurnStamp", "UnitOfWork", "Usage",
           "UsagePort", "VectorPort", "Waiting", "WindowPort"]
