"""Forgetting: the sweeper and explicit forget / restore / purge (the decay curves: ``pmemo.decay``)."""
