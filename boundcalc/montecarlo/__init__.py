"""Monte Carlo engine: blocks of runs, SeedSequence seeding, checkpoints, results with intervals."""

from .engine import DEFAULT_BLOCK_RUNS, Results, block_seeds, block_sizes, log_checkpoints, run, run_block, run_many

__all__ = ["run", "run_many", "run_block", "Results", "log_checkpoints", "block_sizes", "block_seeds", "DEFAULT_BLOCK_RUNS"]
