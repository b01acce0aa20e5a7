"""montecarlo.settings: the simulation settings as one value (issue 23 §1). Its constructor checks every field and
names the parameter (errors.ParamName); the CLI names the flag (cli/flags.py FLAGS)."""

import pytest

from boundcalc.cli.flags import message
from boundcalc.errors import InputError, ParamName
from boundcalc.montecarlo.settings import ExecutorPlan, Simulation


@pytest.mark.parametrize("make,param,flag", [
    (lambda: Simulation(runs=0), "runs", "--runs"),
    (lambda: Simulation(runs=2.5), "runs", "--runs"),
    (lambda: Simulation(runs=10, seed=-1), "seed", "--seed"),
    (lambda: Simulation(runs=10, seed=2**63), "seed", "--seed"),
    (lambda: Simulation(runs=10, block_runs=0), "block_runs", "--block-runs"),
    (lambda: Simulation(runs=10, executor={"kind": "in-process"}), "executor", "--executor"),
    (lambda: ExecutorPlan("threads"), "executor", "--executor"),
    (lambda: ExecutorPlan("processes", 0), "workers", "--workers"),
    (lambda: ExecutorPlan("processes", None), "workers", "--workers"),
    (lambda: ExecutorPlan("dask", None, None), "scheduler", "--scheduler"),
    (lambda: ExecutorPlan("in-process", 1, "tcp://h:1"), "scheduler", "--scheduler"),
])
def test_bad_values_name_their_parameter(make, param, flag):
    with pytest.raises(InputError) as e:
        make()
    assert isinstance(e.value.parameter, ParamName) and e.value.parameter == param
    assert str(e.value).startswith(param + " must be ")
    assert message(e.value).startswith(flag + " must be ")


def test_counts_are_read_as_the_cli_reads_them():
    """'1e3' is 1000 (validate.count); the value holds ints; runs None is "the caller's own counts"."""
    s = Simulation(runs="1e3", seed="7", block_runs="20")
    assert (s.runs, s.seed, s.block_runs) == (1000, 7, 20) and all(type(x) is int for x in (s.runs, s.seed,
                                                                                             s.block_runs))
    assert Simulation().runs is None and Simulation().executor == ExecutorPlan("in-process", 1, None)
    assert ExecutorPlan("dask", None, "tcp://h:8786").as_dict() == {"kind": "dask", "workers": None,
                                                                     "scheduler": "tcp://h:8786"}
    with pytest.raises(AttributeError):
        s.runs = 5  # frozen


def test_run_many_uses_every_field():
    """Simulation.run_many equals the engine's run_many with the value's runs, seed and blocks (independent call);
    each field changes the result."""
    import numpy as np

    from boundcalc import montecarlo
    from boundcalc.algorithms import build
    from boundcalc.envs import BernoulliEnv

    def mean(res):
        return float(np.mean(res[0].regret[:, -1]))

    job = [(build("UCB"), BernoulliEnv([0.8, 0.5]))]
    got = mean(Simulation(runs=6, seed=4, block_runs=3).run_many(job, 80))
    assert got == mean(montecarlo.run_many(job, 80, 6, seed=4, block_runs=3))
    others = [Simulation(runs=5, seed=4, block_runs=3), Simulation(runs=6, seed=5, block_runs=3),
              Simulation(runs=6, seed=4, block_runs=2)]
    assert all(mean(o.run_many(job, 80)) != got for o in others)
    with pytest.raises(InputError, match="^runs must be"):
        Simulation().run_many(job, 80)
