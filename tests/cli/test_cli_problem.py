"""cli/problem.py: the instance of a command's options, resolved at the CLI's edge (issue 23 §1), and an instance file
that carries its setting: `regret --instance f.toml --epsilon 1 --T 1e4` needs no --setting."""

import pytest
from clirun import invoke, json_of, one_line_error
from mutation import mutate

from boundcalc.envs.spec import Instance, save_instance


def test_regret_with_a_finite_instance_file_needs_no_setting(tmp_path, monkeypatch):
    """The issue's own command; the answer is that of the same means given with --setting finite --means (an
    independent route to the instance). Mutant: setting_of ignoring the file -> the one line asking for --setting."""
    path = save_instance(Instance("finite", means=(0.9, 0.6, 0.5)), str(tmp_path / "f.toml"))
    args = ["regret", "--instance", path, "--epsilon", "1", "--T", "1e4"]
    a = json_of(args)
    b = json_of(["regret", "--setting", "finite", "--means", "0.9,0.6,0.5", "--epsilon", "1", "--T", "1e4"])
    assert a["inputs"]["setting"] == "finite" and a["instance"]["means"] == [0.9, 0.6, 0.5]
    assert a["value"] == b["value"] and [r["value"] for r in a["bounds"]] == [r["value"] for r in b["bounds"]]
    from boundcalc.cli import instance_options

    monkeypatch.setattr(instance_options, "setting_of", mutate(instance_options.setting_of,
                                                               "if instance_file is not None:", "if False:"))
    assert "--setting must be one of" in one_line_error(invoke(args))


def test_instance_options_errors_name_the_flags():
    """cli/problem.py keeps the flags in its messages (as envs/spec.py did before the move)."""
    from boundcalc.cli.problem import instance_from_options
    from boundcalc.errors import InputError

    for kw, flag in (({"means": "0.9,0.8", "gaps": "0.1"}, "--means"), ({"K": 4, "means": "0.9,0.8"}, "--K"),
                     ({"theta": "1,0", "d": 3}, "--theta"), ({"env": "mu1", "means": "0.5,0.4"}, "--env")):
        setting = "linear" if "theta" in kw else "finite"
        try:
            instance_from_options(setting, **kw)
        except InputError as exc:
            assert str(exc).startswith(flag + " must be"), (kw, str(exc))
        else:
            raise AssertionError(kw)


# -- one builder per option group (cli/problem.py): every option of the group reaches the value ------------------------
def _budget_misses(problem) -> list:
    """Each budget option's value in the Budget ``problem.budget_of`` builds, against the budget built here from the
    privacy classes directly; the list of options that did not arrive."""
    from boundcalc.privacy import RDP, ZCDP, ApproxDP, LocalDP, PureDP

    cases = [({"epsilon": 0.7}, PureDP(0.7)), ({"epsilon": 0.7, "delta": 1e-3}, ApproxDP(0.7, 1e-3)),
             ({"rho": 0.3}, ZCDP(0.3)), ({"alpha": 4.0, "rdp_epsilon": 0.2}, RDP(4.0, 0.2)),
             ({"ldp_epsilon": 1.5}, LocalDP(1.5, 0.0)), ({"ldp_epsilon": 1.5, "ldp_delta": 1e-4}, LocalDP(1.5, 1e-4))]
    out = [kw for kw, want in cases if problem.budget_of(**kw).as_dict() != want.as_dict()]
    lists = problem.budget_list_of(rho="0.1,0.2")  # a comma list: one budget per value, in order
    if [b.as_dict() for b in lists] != [ZCDP(0.1).as_dict(), ZCDP(0.2).as_dict()]:
        out.append("rho list")
    by = problem.budgets_by_notion(epsilon=0.7, rho=0.3)
    if {k: b.as_dict() for k, b in by.items()} != {"pure": PureDP(0.7).as_dict(), "zcdp": ZCDP(0.3).as_dict()}:
        out.append("by notion")
    return out


def test_budget_of_every_option_reaches_the_budget(monkeypatch):
    """budget_of / budget_list_of / budgets_by_notion: --epsilon, --delta, --rho, --alpha, --rdp-epsilon,
    --ldp-epsilon, --ldp-delta each reach the Budget. Mutants: --delta and --ldp-delta dropped on their way."""
    from boundcalc.cli import problem

    assert _budget_misses(problem) == []
    for old, new, missed in (("ApproxDP(epsilon, delta)", "PureDP(epsilon)", {"epsilon": 0.7, "delta": 1e-3}),
                             ("LocalDP(ldp_epsilon, ldp_delta or 0.0)", "LocalDP(ldp_epsilon, 0.0)",
                              {"ldp_epsilon": 1.5, "ldp_delta": 1e-4})):
        with monkeypatch.context() as m:
            m.setattr(problem, "_budget_of", mutate(problem._budget_of, old, new))
            assert missed in _budget_misses(problem), old


def test_target_of_every_option_reaches_the_target(monkeypatch):
    """target_of: --max-overhead, --max-regret, --max-ratio-to-lower each give their Target (kind, value); none or two
    of them: the one line naming the three. Mutant: --max-regret read as an overhead."""
    from boundcalc.budget import Target
    from boundcalc.cli import problem
    from boundcalc.errors import InputError

    def misses():
        cases = [({"max_overhead": 0.2}, Target("overhead", 0.2)), ({"max_regret": 3000.0}, Target("regret", 3000.0)),
                 ({"max_ratio_to_lower": 2.5}, Target("ratio", 2.5))]
        return [kw for kw, want in cases if (lambda t: (t.kind, t.value))(problem.target_of(**kw)) != (want.kind, want.value)]

    assert misses() == []
    for kw in ({}, {"max_overhead": 0.2, "max_regret": 10.0}):
        with pytest.raises(InputError, match="exactly one of --max-overhead, --max-regret, --max-ratio-to-lower"):
            problem.target_of(**kw)
    monkeypatch.setattr(problem, "target_of", mutate(problem.target_of, '("regret", max_regret)',
                                                     '("overhead", max_regret)'))
    assert misses() == [{"max_regret": 3000.0}]


def test_notion_of_every_option_reaches_the_notion(monkeypatch):
    """notion_of: --notion (default: the setting's), --alpha (rdp), --delta (approx) and --ldp-delta (ldp) reach the
    UserNotion; --alpha with another notion is refused naming --alpha. Mutant: --ldp-delta dropped."""
    from boundcalc.budget import UserNotion
    from boundcalc.cli import problem
    from boundcalc.errors import InputError

    def fields(u):
        return u.name, u.alpha, u.delta

    def misses():
        cases = [(("finite",), {}, UserNotion("epsilon")), (("glm",), {}, UserNotion("ldp")),
                 (("finite", "rho"), {}, UserNotion("rho")),
                 (("finite", "rdp"), {"alpha": 4.0}, UserNotion("rdp", alpha=4.0)),
                 (("finite", "approx"), {"delta": 1e-3}, UserNotion("approx", delta=1e-3)),
                 (("glm", "ldp"), {"ldp_delta": 1e-4}, UserNotion("ldp", delta=1e-4))]
        return [(a, kw) for a, kw, want in cases if fields(problem.notion_of(*a, **kw)) != fields(want)]

    assert misses() == []
    with pytest.raises(InputError, match="^--alpha must be used only with --notion rdp"):
        problem.notion_of("finite", "rho", alpha=3.0)
    monkeypatch.setattr(problem, "notion_of", mutate(problem.notion_of, '(ldp_delta if name == "ldp" else None)',
                                                     "None"))
    assert misses() == [(("glm", "ldp"), {"ldp_delta": 1e-4})]


class _Ctx:
    """The Typer context plan_executor reads (common.option_given): the options given on the command line."""

    def __init__(self, given=()):
        from types import SimpleNamespace

        self.command = SimpleNamespace(params=[SimpleNamespace(name=o, opts=(o,)) for o in given])
        self._given = set(given)

    def get_parameter_source(self, name):
        from types import SimpleNamespace

        return SimpleNamespace(name="COMMANDLINE") if name in self._given else None


def _simulation_misses(problem) -> list:
    """Each simulation option's value in the Simulation ``problem.simulation_of`` builds; the options that did not
    arrive."""
    from boundcalc.montecarlo.settings import ExecutorPlan, Simulation

    S = problem.simulation_of
    out = []
    if S(_Ctx(), "7", "11", plan=False)[0] != Simulation(runs=7, seed=11):
        out.append("runs/seed")
    if S(_Ctx(), None, "0", runs_default="100", plan=False)[0].runs != 100:
        out.append("runs default")
    if S(_Ctx(), "8", "0", "3")[0].block_runs != 3:
        out.append("block_runs")
    sim, _ = S(_Ctx(["--workers"]), "8", "0", "2", "processes", "2")
    if sim.executor != ExecutorPlan("processes", min(2, __import__("os").cpu_count() or 1)):
        out.append("executor/workers")
    sim, _ = S(_Ctx(["--processes"]), "8", "0", "2", None, None, "2")
    if sim.executor.kind != "processes":
        out.append("processes")
    sim, _ = S(_Ctx(), "8", "0", None, "dask", None, "1", "tcp://10.0.0.5:8786")
    if sim.executor != ExecutorPlan("dask", None, "tcp://10.0.0.5:8786"):
        out.append("scheduler")
    return out


def test_simulation_of_every_option_reaches_the_simulation(monkeypatch):
    """simulation_of: --runs, --seed, --block-runs, --executor, --workers, --processes, --scheduler each reach the
    Simulation (and its ExecutorPlan); the command's own --runs range is checked naming --runs. Mutants: --block-runs
    and --seed dropped on their way."""
    from boundcalc.cli import problem
    from boundcalc.cli.flags import message
    from boundcalc.errors import InputError

    assert _simulation_misses(problem) == []
    with pytest.raises(InputError) as e:
        problem.simulation_of(None, "1", "0", runs_range=(2, 10**6), plan=False)
    assert message(e.value) == "--runs must be an integer >= 2 (got '1')"
    for old, new, missed in (("block_runs=B, executor", "block_runs=None, executor", "block_runs"),
                             ("return Simulation(runs=R, seed=sd, block_runs=B), []",
                              "return Simulation(runs=R, block_runs=B), []", "runs/seed")):
        with monkeypatch.context() as m:
            m.setattr(problem, "simulation_of", mutate(problem.simulation_of, old, new))
            assert missed in _simulation_misses(problem), old


def test_simulate_runs_the_simulation_value():
    """simulate's --runs, --seed and --block-runs reach the engine: its mean regret at T is that of a direct
    montecarlo.run with the same runs, seed and blocks (the blocks' seeds depend on all three), and another seed or
    other blocks give another mean."""
    import numpy as np

    from boundcalc import montecarlo
    from boundcalc.algorithms import build
    from boundcalc.envs import BernoulliEnv

    def direct(runs, seed, block_runs):
        return float(np.mean(montecarlo.run(build("UCB"), BernoulliEnv([0.9, 0.5]), 100, runs, seed=seed,
                                            block_runs=block_runs).regret[:, -1]))

    d = json_of(["simulate", "--algo", "UCB", "--means", "0.9,0.5", "--T", "100", "--runs", "6", "--seed", "5",
                 "--block-runs", "4"])
    i = d["inputs"]
    assert (i["runs"], i["seed"], i["block_runs"], i["executor"]) == (6, 5, 4, {"kind": "in-process", "workers": 1,
                                                                             "scheduler": None})
    assert d["regret_mean"] == pytest.approx(direct(6, 5, 4), rel=1e-12)
    assert direct(6, 5, 4) not in (direct(6, 6, 4), direct(6, 5, 6), direct(5, 5, 4))


def _search_misses(problem) -> list:
    from boundcalc.montecarlo.settings import Simulation

    sim = Simulation(runs=10, seed=3)
    s = problem.search_of(sim, 0.8, "40", "UCB", ["c=0.5"], "common")
    got = (s.simulation, s.quantile, s.max_runs, s.counterpart, s.counterpart_params, s.pairing)
    want = (sim, 0.8, 40, "UCB", {"c": 0.5}, "common")
    return [n for n, a, b in zip(("simulation", "quantile", "max_runs", "counterpart", "counterpart_param", "pairing"),
                                 got, want) if a != b]


def test_search_of_every_option_reaches_the_search(monkeypatch):
    """search_of: --quantile, --max-runs, --counterpart, --counterpart-param, --pairing reach the Search, around the
    Simulation given; the options-only checks name their flags. Mutants: --pairing and --counterpart-param dropped."""
    from boundcalc.cli import problem
    from boundcalc.errors import InputError
    from boundcalc.montecarlo.settings import Simulation

    assert _search_misses(problem) == []
    with pytest.raises(InputError, match=r"^--quantile must be in \[1/40, 1 − 1/40\]"):
        problem.search_of(Simulation(runs=10), 0.99, "40")
    with pytest.raises(InputError, match="^--counterpart-param must be used with --counterpart NAME"):
        problem.search_of(Simulation(runs=10), None, None, None, ["c=0.5"])
    for old, new, missed in (("pairing=pairing)", "pairing=None)", "pairing"),
                             ("counterpart_params=params", "counterpart_params=None", "counterpart_param")):
        with monkeypatch.context() as m:
            m.setattr(problem, "search_of", mutate(problem.search_of, old, new))
            assert missed in _search_misses(problem), old


@pytest.mark.parametrize("args,line", [
    (["simulate", "--algo", "UCB", "--block-runs", "0"], "--block-runs must be an integer >= 1 (got '0')"),
    (["simulate", "--algo", "UCB", "--seed", "-2"], "--seed must be an integer >= 0 (got '-2')"),
    (["budget", "--setting", "finite", "--means", "0.9,0.5", "--max-overhead", "3", "--algo", "DP-KLUCB",
      "--pairing", "sideways"], "--pairing must be independent or common (got 'sideways')"),
    (["budget", "--setting", "finite", "--means", "0.9,0.5", "--max-overhead", "3", "--algo", "DP-KLUCB",
      "--quantile", "1.5"], "--quantile must be a number in (0, 1) (0.9: the 90% quantile of the regret) (got 1.5)"),
])
def test_values_errors_name_the_flags(args, line):
    """The values' own checks (montecarlo.settings.Simulation, budget.settings.Search) name their parameters; the
    command's one line names the flag (cli/flags.py FLAGS)."""
    assert one_line_error(invoke(args)) == "boundcalc: error: " + line
