"""Forgetting: decay (pure), the sweeper, and explicit forget / restore / purge."""
