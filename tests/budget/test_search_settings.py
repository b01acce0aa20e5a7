"""budget.settings.Search: the measured search's settings as one value (issue 23 §1), checked in its constructor
with errors naming its parameters (the CLI names the flags), and what solve_measured reads from it."""

import pytest

from boundcalc.budget.settings import Search
from boundcalc.cli.flags import message
from boundcalc.errors import InputError, ParamName
from boundcalc.montecarlo.settings import Simulation


@pytest.mark.parametrize("kw,param,flag", [
    ({"quantile": 1.0}, "quantile", "--quantile"),
    ({"quantile": 0.0}, "quantile", "--quantile"),
    ({"quantile": "0.5"}, "quantile", "--quantile"),
    ({"max_runs": 1}, "max_runs", "--max-runs"),
    ({"max_runs": 10**7}, "max_runs", "--max-runs"),
    ({"pairing": "sideways"}, "pairing", "--pairing"),
    ({"counterpart_params": {"c": 0.5}}, "counterpart_param", "--counterpart-param"),
    ({"simulation": Simulation(runs=1)}, "runs", "--runs"),
])
def test_bad_values_name_their_parameter(kw, param, flag):
    with pytest.raises(InputError) as e:
        Search(**kw)
    assert isinstance(e.value.parameter, ParamName) and e.value.parameter == param
    assert message(e.value).startswith(flag + " must be ")


def test_defaults_and_the_first_batch():
    """The defaults are the search's (measured.DEFAULT_RUNS / DEFAULT_MAX_RUNS, written out: 100 and 400); max_runs
    is at least the first batch; Search.of takes the keywords budget.solve takes."""
    s = Search()
    assert (s.runs, s.max_runs, s.seed, s.block_runs, s.quantile, s.pairing) == (100, 400, 0, None, None, None)
    assert Search(Simulation(runs=50), max_runs=20).max_runs == 50
    t = Search.of(runs=30, max_runs=60, seed=2, block_runs=5, quantile=0.9, pairing="common", counterpart="UCB",
                  counterpart_params={"c": 0.5})
    assert (t.runs, t.max_runs, t.seed, t.block_runs, t.quantile, t.pairing, t.counterpart,
            t.counterpart_params) == (30, 60, 2, 5, 0.9, "common", "UCB", {"c": 0.5})
    assert set(Search.KEYWORDS) == {"quantile", "runs", "max_runs", "seed", "block_runs", "counterpart",
                                    "counterpart_params", "pairing"}


def test_solve_measured_takes_the_value_and_budget_solve_its_keywords(monkeypatch):
    """solve_measured reads every field of its Search (spied on the per-algorithm search it calls); budget.solve's
    keywords become that Search. Mutant: the pairing dropped on its way to the search."""
    from boundcalc.budget import measured as M
    from boundcalc.budget import solve
    from boundcalc.budget.solve import Target
    from boundcalc.envs.spec import Instance
    from mutation import mutate

    seen = []

    def spy(*a, **k):
        seen.append((a, k))
        raise _Stop

    class _Stop(Exception):
        pass

    monkeypatch.setattr(M, "search", spy)
    inst = Instance("finite", means=(0.9, 0.5))
    want = Search.of(runs=12, max_runs=30, seed=4, block_runs=3, quantile=0.5, pairing="common", counterpart="UCB",
                     counterpart_params={"c": 0.5})

    def fields():
        a, k = seen[-1]
        return (a[6], a[7], a[8], a[9], k["block_runs"], k["pairing"], k["counterpart"], k["counterpart_params"])

    expect = (0.5, 12, 30, 4, 3, "common", "UCB", {"c": 0.5})
    with pytest.raises(_Stop):
        M.solve_measured("finite", 300, Target("overhead", 3.0), "epsilon", instance=inst, algos=["DP-KLUCB"],
                         settings=want)
    assert fields() == expect
    with pytest.raises(_Stop):
        solve("finite", 300, Target("overhead", 3.0), "epsilon", instance=inst, algos=["DP-KLUCB"], by="simulation",
              runs=12, max_runs=30, seed=4, block_runs=3, quantile=0.5, pairing="common", counterpart="UCB",
              counterpart_params={"c": 0.5})
    assert fields() == expect
    with pytest.raises(InputError, match="^settings must be"):
        M.solve_measured("finite", 300, Target("overhead", 3.0), "epsilon", instance=inst, settings={"runs": 12})
    monkeypatch.setattr(M, "solve_measured", mutate(M.solve_measured, "pairing=settings.pairing", "pairing=None"))
    with pytest.raises(_Stop):
        M.solve_measured("finite", 300, Target("overhead", 3.0), "epsilon", instance=inst, algos=["DP-KLUCB"],
                         settings=want)
    assert fields() != expect
