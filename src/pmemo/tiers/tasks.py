"""Task working memory: goal, plan steps (status/result/error), scratchpad.

A running task is shown in the context; when it finishes or fails it is archived as an
episode carrying the lessons learned. User feedback makes that episode important.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..errors import InvalidInput, NotFound
from ..models import Episode, Scope, Task, TaskStep
from ..stores.base import FullStore
from .episodes import Episodes

STEP_STATUS = ("pending", "running", "done", "failed", "skipped")
FEEDBACK_IMPORTANCE = 0.9


def updated_steps(
    steps: tuple[TaskStep, ...],
    index: int | None,
    status: str | None,
    result: str | None,
    error: str | None,
    add: list[str] | None,
) -> tuple[TaskStep, ...]:
    """The plan after one update (pure)."""
    out = list(steps)
    if index is not None:
        if not 0 <= index < len(out):
            raise InvalidInput(
                f"step {index} does not exist (the plan has {len(out)} steps, from 0)"
            )
        if status is not None and status not in STEP_STATUS:
            raise InvalidInput(f"step status must be one of {', '.join(STEP_STATUS)}")
        old = out[index]
        out[index] = TaskStep(
            old.text,
            status or old.status,
            result if result is not None else old.result,
            error if error is not None else old.error,
        )
    out.extend(TaskStep(text) for text in add or [])
    return tuple(out)


def task_importance(task: Task, status: str, feedback: str | None) -> float:
    if feedback:
        return FEEDBACK_IMPORTANCE
    return 0.6 if status == "failed" else 0.5


def task_lessons(task: Task, lessons: list[str], feedback: str | None) -> list[str]:
    """Given lessons, plus what failed steps and feedback teach."""
    out = list(lessons)
    out += [
        f"step '{s.text}' failed: {s.error}" for s in task.steps if s.status == "failed" and s.error
    ]
    if feedback:
        out.append(f"user feedback: {feedback}")
    return out


class Tasks:
    def __init__(self, store: FullStore, episodes: Episodes) -> None:
        self.store = store
        self.episodes = episodes

    def start(self, scope: Scope, goal: str, steps: list[str], scratchpad: str = "") -> Task:
        if not goal.strip():
            raise InvalidInput("a task needs a goal (non-empty text)")
        return self.store.tasks.add_task(scope, goal.strip(), [TaskStep(s) for s in steps], scratchpad)

    def get(self, task_id: int, tenant_id: str) -> Task:
        task = self.store.tasks.get_task(task_id)
        if task is None or task.scope.tenant_id != tenant_id:
            raise NotFound(f"task {task_id} does not exist in tenant {tenant_id!r}")
        return task

    def update(self, task: Task, version: int | None, changes: dict[str, Any]) -> Task:
        if task.status != "running":
            raise InvalidInput(f"task {task.id} is {task.status}; only running tasks change")
        steps = updated_steps(
            task.steps,
            changes.get("step"),
            changes.get("status"),
            changes.get("result"),
            changes.get("error"),
            changes.get("add_steps"),
        )
        pad = changes.get("scratchpad")
        new = dataclasses.replace(
            task, steps=steps, scratchpad=task.scratchpad if pad is None else pad
        )
        return self.store.tasks.save_task(new, task.version if version is None else version)

    def finish(
        self,
        task: Task,
        status: str,
        outcome: str | None,
        lessons: list[str],
        feedback: str | None,
        version: int | None,
    ) -> Episode:
        if status not in ("done", "failed"):
            raise InvalidInput("a task finishes as 'done' or 'failed'")
        if task.status != "running":
            raise InvalidInput(f"task {task.id} already finished ({task.status})")
        learned = task_lessons(task, lessons, feedback)
        done = [s for s in task.steps if s.status == "done"]
        fields = {
            "summary": f"Task ({status}): {task.goal}" + (f" — {outcome}" if outcome else ""),
            "topics": [task.goal[:60]],
            "actions": [s.text + (f" → {s.result}" if s.result else "") for s in done][:10],
            "outcomes": [outcome] if outcome else [status],
            "lessons": learned,
            "importance": task_importance(task, status, feedback),
            "started": task.created_at.timestamp(),
            "ended": task.updated_at.timestamp(),
        }
        episode = self.episodes.record(task.scope, "task", fields, [])
        self.store.tasks.save_task(
            dataclasses.replace(task, status=status, feedback=feedback, episode_id=episode.id),
            task.version if version is None else version,
        )
        return episode
