"""One service per concern under the facade (issue 45 §2): each owns its concern's checks and
policy and takes only what it needs (the store or its ports, the settings, the worker's wake
and exclusive hold). ``Memory`` builds them and shows them as namespaces; its documented calls
are aliases of their methods (``alias.via``).

============  ================  ==========================================================
namespace     service           calls
============  ================  ==========================================================
registry      PeopleService     add_person, person, members, remove_alias, resolve, agenda, profile
core_memory   BlocksService     blocks, append, replace
journal       DiaryService      write, entry, entries
knowledge     GraphService      graph, triples, insights, portrait
entries       RecordsService    turns, sessions, windows, summaries, key lines, facts, records
forgetting    ForgetService     delete_*, forget, restore, purge, forget_log, sweep
jobs          JobsService       pending, failed_jobs, retry_jobs, stats, vitals
episodic      EpisodesService   episodes, end_session, task_*, tasks
============  ================  ==========================================================

``writes.TurnWriter`` and ``reads.Reads`` are the facade's own ``add``/``add_many`` and
``search``/``context``: not namespaces, the facade's calls are theirs.
"""
