"""Issue 23 item 3, "one algorithm card": an algorithm added as one module plus one registration call is found by
every consumer (simulate, algorithms, budget --by simulation, audit, regret --check), with no other file touched; and
the per-algorithm facts the consumers used to keep in tables of their own (granularity, non-private counterpart,
audit design, regret --check adapter and parameter map) are now read from the cards, with the values the tables held.

The module is written to tmp_path and imported from there; ``boundcalc.algorithms.register`` is the registration
call (what adding the class to ``boundcalc/algorithms/finite/__init__.py``'s tuple does); ``unregister`` cleans up.

Expected values are independent of boundcalc: the toy's regret at T is computed here from its own definition (the
exploration pulls' gaps plus the committed arm's gap), the audit's event probability from the difference of two
Laplace noises, and the old tables are written out here as they stood before the cards (main 78ee0a9).
"""

from __future__ import annotations

import importlib.util
import json
import math
import sys
import textwrap

import pytest
from typer.testing import CliRunner

from boundcalc import algorithms as registry
from boundcalc.cli.app import app

runner = CliRunner()

TOY = textwrap.dedent('''
    """Toy-ETC: explore-then-commit with one Laplace release per arm (a test's algorithm; no paper)."""
    import numpy as np

    from boundcalc.algorithms.base import Algorithm, BlockResult, interpolate_regret


    class ToyETC(Algorithm):
        name = "Toy-ETC"
        source = "tests/algorithms/test_algorithm_card.py (explore-then-commit, pure eps-DP by parallel composition)"
        setting = "finite"
        notion = "pure"
        budget_params = ("epsilon",)
        # the card
        granularity = "episode"
        counterpart = ("UCB", "UCB (the toy's non-private counterpart)")
        audit_scenario = "first-decision"
        audit_budget = {"epsilon": 1.0}
        audit_fixed = {"n1": 1}
        bound_ids = ("001-thm4.3-dp-imed",)  # checked against DP-IMED's theorem (a variant of the same idea)
        check_assumptions = "finite"

        @classmethod
        def from_context(cls, ctx, budget):
            return cls(budget.epsilon)

        @classmethod
        def episode_schedule(cls, T, *, epsilon, K, n1):
            """K exploration episodes of n1 pulls (one Laplace(1/eps) release each), then the commit."""
            from boundcalc.schedules.base import Schedule, truncate

            idx, length, t_end, noise = truncate(np.array([n1] * K + [T]), np.array([1 / epsilon] * K + [0.0]), T)
            return Schedule("toy-etc", T, idx, length, t_end, noise, K + 1.0, "K + 1 episodes",
                            "Laplace scale of a sum", "the test's toy")

        def __init__(self, epsilon, n1=20, noise_mult=1.0):
            self.epsilon, self.n1, self.noise_mult = float(epsilon), int(n1), float(noise_mult)

        def simulate(self, env, T, runs, rng, checkpoints):
            K, m, T = int(env.K), self.n1, int(T)
            gaps = np.asarray(env.gaps, dtype=float)
            assert T > K * m
            noisy = np.empty((runs, K))
            for a in range(K):  # arm a pulled m times in a row; its reward sum released once with Laplace(1/eps)
                s = env.sum_rewards(np.full(runs, a), np.full(runs, m), rng)
                noisy[:, a] = s + rng.laplace(0.0, self.noise_mult / self.epsilon, runs)
            arm = np.argmax(noisy, axis=1)
            env.sum_rewards(arm, np.full(runs, T - K * m), rng)  # the commit
            ends = np.concatenate([np.tile(m * np.arange(1, K + 1), (runs, 1)), np.full((runs, 1), T)], axis=1)
            reg = np.concatenate([np.tile(m * np.cumsum(gaps), (runs, 1)),
                                  (m * gaps.sum() + (T - K * m) * gaps[arm])[:, None]], axis=1)
            return BlockResult(interpolate_regret(ends, reg, np.asarray(checkpoints)), np.zeros((runs, K)),
                               np.full(runs, K + 1))

        def reference(self, env, T, rng, checkpoints):
            return self.simulate(env, T, 1, rng, checkpoints)
''')


@pytest.fixture()
def toy(tmp_path):
    """The toy module written to tmp_path, imported, registered with the one call; unregistered afterwards."""
    path = tmp_path / "toy_etc.py"
    path.write_text(TOY)
    spec = importlib.util.spec_from_file_location("toy_etc", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["toy_etc"] = mod
    spec.loader.exec_module(mod)
    registry.register(mod.ToyETC)  # the one registration line
    yield mod.ToyETC
    registry.unregister("Toy-ETC")
    del sys.modules["toy_etc"]
    assert "Toy-ETC" not in registry.all_algorithms()


def _json(args, code=0):
    r = runner.invoke(app, [*args, "--json"])
    assert r.exit_code == code, r.output
    return json.loads(r.stdout)


def test_a_registered_card_reaches_every_command(toy):
    # algorithms: listed, with the card's simulation path
    listed = {a["name"]: a for a in _json(["algorithms"])["algorithms"]}
    assert listed["Toy-ETC"]["simulation"] == "episode" and listed["Toy-ETC"]["plugin"] is None
    assert (listed["Toy-ETC"]["counterpart"], listed["Toy-ETC"]["audit_scenario"]) == ("UCB", "first-decision")
    assert (listed["AdaC-GOPE"]["counterpart"], listed["AdaC-GOPE"]["audit_scenario"]) == \
        ("GOPE-limit", "phase-one-elimination")
    assert listed["Toy-ETC"]["episodes"] and listed["AdaC-GOPE"]["episodes"] and not listed["UCB"]["episodes"]

    # episodes: the card's schedule and the options it reads. Independent values: K = 3 episodes of n1 = 5 pulls with
    # Laplace scale 1/eps = 0.5 on each sum, then the commit for the remaining 100 - 15 rounds (no release)
    ep = _json(["episodes", "--algo", "toy-etc", "--epsilon", "2", "--K", "3", "--n1", "5", "--T", "100", "--d", "4"])
    assert [(r["index"], r["length"], r["t_end"], r["noise_scale"]) for r in ep["episodes"]] == \
        [(1, 5, 5, 0.5), (2, 5, 10, 0.5), (3, 5, 15, 0.5), (4, 85, 100, 0.0)]
    assert ep["value"] == 4 and ep["paper_count"] == 4.0 and ep["inputs"]["used"] == ["--T", "--epsilon", "--K", "--n1"]
    assert "--d has no effect on toy-etc" in ep["notes"]

    # simulate. Independent values: arm 0 (gap 0) is pulled at steps 1..20, arm 1 (gap 0.4) at 21..40, then the
    # committed arm for 960 steps: regret 0.4 max(0, t - 20) at t <= 40, and 8 or 8 + 0.4 x 960 = 392 at T per run
    sim = _json(["simulate", "--algo", "Toy-ETC", "--means", "0.9,0.5", "--epsilon", "100", "--T", "1000",
                 "--runs", "20", "--seed", "1"])
    early = [(c["t"], c["mean"]) for c in sim["checkpoints"] if c["t"] <= 40]
    assert len(early) >= 3 and all(math.isclose(m, 0.4 * max(0, t - 20), abs_tol=1e-12) for t, m in early)
    wrong = (sim["regret_mean"] - 8.0) / (392.0 - 8.0) * 20  # runs committed to arm 1
    assert math.isclose(wrong, round(wrong), abs_tol=1e-9) and 0 <= round(wrong) <= 20

    # budget --by simulation: the card's counterpart
    bud = _json(["budget", "--setting", "finite", "--means", "0.9,0.5", "--T", "1000", "--max-overhead", "1",
                 "--by", "simulation", "--algo", "Toy-ETC", "--max-runs", "20", "--seed", "3"])
    assert "the toy's non-private counterpart" in json.dumps(bud)

    # audit: the card's first-decision design with n1 = 1 (audit_fixed): reward sums (1, 1) under D and (0, 1) under
    # D', one Laplace(1/eps) each, eps = 1; the event "arm 0 at step 3" has probability P(L0 > L1) = 1/2 under D
    # and P(L0 - L1 > 1) = e^-1 (1 + 1/2) / 2 under D' (the difference of two Laplace(1) has tail e^-x (1 + x/2) / 2)
    assert "Toy-ETC" in {a["algorithm"] for a in _json(["audit", "--list"])["algorithms"]}
    aud = _json(["audit", "--algo", "Toy-ETC", "--trials", "400", "--seed", "2"])
    ev = aud["events"][0]
    assert aud["algorithm"] == "Toy-ETC" and aud["epsilon_claimed"] == 1.0 and ev["trials_D"] == 400
    for freq, p in ((ev["freq_D"], 0.5), (ev["freq_Dprime"], 0.75 * math.exp(-1.0))):
        assert abs(freq - p) <= 4 * math.sqrt(p * (1 - p) / 400), (freq, p)

    # regret --check: the card's bound_ids pairs it with DP-IMED's Thm 4.3; the row is simulated by from_context
    reg = _json(["regret", "--setting", "finite", "--means", "0.9,0.5", "--epsilon", "1", "--T", "2000", "--check",
                 "--runs", "4", "--seed", "1"])
    rows = [r for r in _rows(reg) if r.get("algorithm") == "Toy-ETC"]
    assert rows and rows[0]["id"] == "001-thm4.3-dp-imed" and rows[0]["paired_by"] == "bound_ids of Toy-ETC"
    emp = rows[0]["empirical"]
    assert emp["assumptions_met"] is True and "verdict" in emp and emp["runs"] == 4
    assert [r for r in _rows(reg) if r.get("algorithm") == "DP-IMED" and r["id"] == "001-thm4.3-dp-imed"]


# -- the tables the cards replace, as they stood on main 78ee0a9 ----------------------------------------------------
OLD_PER_STEP = {"LinUCB", "LinUCB-DGS", "Private-LinUCB", "LDP-OLS", "LDP-SGD", "OFUL"}
OLD_CHUNKED = {"RS-OFUL", "AdaC-OFUL", "AdaR-OFUL"}
OLD_NAMED = {"AdaC-GOPE": "GOPE-limit", "AdaR-GOPE": "GOPE-limit", "AdaR-GOPE-Var": "GOPE-limit",
             "DP-KLUCB": "KL-UCB", "DP-IMED": "IMED", "AdaP-UCB": "UCB", "AdaP-KLUCB": "KL-UCB", "AdaC-UCB": "UCB",
             "AdaR-UCB": "UCB", "AdaC-OFUL": "OFUL", "AdaR-OFUL": "OFUL", "LinUCB-DGS": "LinUCB",
             "Private-LinUCB": "LinUCB"}
OLD_AUDIT_BUDGET = {"DP-KLUCB": {"epsilon": 1.0}, "DP-IMED": {"epsilon": 1.0}, "AdaP-UCB": {"epsilon": 1.0},
                    "AdaC-UCB": {"rho": 1.0}, "AdaR-UCB": {"alpha": 2.0, "rdp_epsilon": 2.0},
                    "AdaC-GOPE": {"rho": 1.0}, "AdaR-GOPE": {"alpha": 2.0, "rdp_epsilon": 2.0},
                    "AdaR-GOPE-Var": {"rho": 1.0}, "AdaC-OFUL": {"rho": 1.0},
                    "AdaR-OFUL": {"alpha": 2.0, "rdp_epsilon": 2.0}}
_FIXED = {"DP-KLUCB": ({"n1": 8}, 10000), "AdaC-UCB": ({"init_n": "one"}, 20000),
          "AdaR-UCB": ({"init_n": "one"}, 20000)}
OLD_AUDIT = {n: ("FirstDecision" if "UCB" in n or "IMED" in n else "PhaseOneElimination" if "GOPE" in n
                 else "FirstSwitch", b, _FIXED.get(n, ({}, 10000))[0],
                 _FIXED.get(n, ({}, 20000 if "GOPE" in n or "OFUL" in n else 10000))[1])
             for n, b in OLD_AUDIT_BUDGET.items()}
# audit --list on main 78ee0a9 (the order is part of its JSON)
OLD_AUDIT_ORDER = ["DP-SE", "DP-KLUCB", "DP-IMED", "AdaP-UCB", "AdaP-KLUCB", "Lazy-DP-TS", "AdaC-UCB", "AdaR-UCB",
                   "AdaC-GOPE", "AdaR-GOPE", "AdaR-GOPE-Var", "AdaC-OFUL", "AdaR-OFUL", "Private-LinUCB", "LinUCB-DGS",
                   "LDP-OLS", "LDP-OLS (multi-parameter)", "LDP-SGD", "LDP-SGD (multi-parameter)", "LDP-UCB",
                   "LDP-GLOC"]
OLD_ADAPTED = {"DP-KLUCB", "DP-IMED", "AdaP-UCB", "AdaP-KLUCB", "DP-SE", "AdaC-UCB", "AdaR-UCB", "GOPE", "GOPE-limit",
               "AdaC-GOPE", "AdaR-GOPE", "AdaR-GOPE-Var", "RS-OFUL", "OFUL", "AdaC-OFUL", "AdaR-OFUL", "LinUCB-DGS",
               "LDP-OLS", "LDP-SGD", "UCB", "KL-UCB", "IMED", "Lazy-DP-TS", "LinUCB", "Private-LinUCB", "LDP-UCB",
               "LDP-GLOC"}


# episodes_cmd.ALGO_NAMES / USES (main 78ee0a9): the phased algorithms and the options their schedule reads
OLD_EPISODES = {"dp-klucb": ("--epsilon", "--n1", "--batch-ratio"), "dp-imed": ("--epsilon", "--n1", "--batch-ratio"),
                "adap-klucb": ("--epsilon",), "dp-se": ("--epsilon", "--K", "--beta"), "adac-ucb": ("--rho",),
                "adar-ucb": ("--alpha", "--rdp-epsilon"), "adac-gope": ("--rho", "--d", "--K", "--confidence"),
                "adar-gope": ("--alpha", "--rdp-epsilon", "--d", "--K", "--confidence"),
                "adac-oful": ("--rho", "--d", "--lambda", "--C", "--lambda0"),
                "adar-oful": ("--alpha", "--rdp-epsilon", "--d", "--lambda", "--C", "--lambda0")}
# nonprivate.STRETCH_MIN_T (main 78ee0a9): the leader-stretch engine from this horizon (blocks of SWITCH_RUNS runs)
OLD_STRETCH_MIN_T = {"UCB": 10**5, "KL-UCB": 3 * 10**3, "IMED": 5 * 10**3}
# verify.adapters (main 78ee0a9): Assumption 2 named for the rows of AdaC-OFUL and AdaR-OFUL only; bound 004-cor1 runs
# LinUCB-DGS with perturb_sigma from the context and lambda0 left to the algorithm
OLD_ASSUMPTION2 = {"AdaC-OFUL", "AdaR-OFUL"}


def _leftovers(checks: dict) -> None:
    """The per-algorithm tables moved onto the cards by the second pass (episodes, stretch switch, Assumption 2,
    seed 004 Cor. 1's adapter), each read through its consumer."""
    import numpy as np

    from boundcalc.algorithms import episodes
    from boundcalc.bounds import registry as bounds
    from boundcalc.cli import episodes_cmd
    from boundcalc.envs import BernoulliEnv
    from boundcalc.privacy import ApproxDP
    from boundcalc.verify import adapters

    builtin = {n.lower() for algs in registry.builtin_by_setting().values() for n in algs}
    checks["episodes"] = {k: episodes_cmd.uses(c) for k, c in episodes.phased().items() if k in builtin} == OLD_EPISODES
    env = BernoulliEnv([0.7, 0.5])
    checks["stretch switch"] = all(
        not registry.lookup(n)().uses_stretch(env, T - 1, 50) and registry.lookup(n)().uses_stretch(env, T, 50)
        for n, T in OLD_STRETCH_MIN_T.items())
    ctx = bounds.make_context("contextual", {})
    cenv = adapters._contextual_env(ctx)
    notes = {n: adapters.card_adapter(registry.lookup(n)).assumptions(ctx, cenv, {"algorithm": n})[1]
             for n in ("OFUL", "RS-OFUL", "AdaC-OFUL", "AdaR-OFUL")}
    checks["assumption 2"] = {n for n, t in notes.items() if t.startswith("Assumption 2 of seeds 000/003")} == \
        OLD_ASSUMPTION2
    own = adapters.bound_adapters()
    ok = set(own) == {"004-cor1"}
    if ok:
        alg = own["004-cor1"].build(dict(ctx.params, perturb_sigma=0.2), ApproxDP(2.0, 0.1))
        ok = alg.name == "LinUCB-DGS" and alg.perturb_sigma == 0.2 and alg.lambda0 is None
    checks["bound options"] = ok


def _granularities(gran=registry.granularity):
    return {n: gran(c) for n, c in registry.builtin_by_setting()["contextual"].items()} | \
        {n: gran(c) for s in ("linear", "glm") for n, c in registry.builtin_by_setting()[s].items()}


def _counterparts(counterpart_of):
    out = {}
    for n, c in registry.all_algorithms().items():
        if c.notion != "none":
            cp = counterpart_of(n)
            if cp.budget is None:
                out[n] = cp.name
    return out


def _checks(gran=registry.granularity) -> dict[str, bool]:
    from boundcalc.audit import scenarios
    from boundcalc.budget import measured
    from boundcalc.verify import adapters

    want = {n: "step" for n in OLD_PER_STEP} | {n: "chunk" for n in OLD_CHUNKED}
    got = _granularities(gran)
    glm_step = {"LDP-OLS (multi-parameter)", "LDP-SGD (multi-parameter)", "LDP-UCB", "LDP-GLOC"}  # their own attribute
    out = {
        "granularity": {n: g for n, g in got.items() if n not in glm_step and (n in want or g != "episode")} == want
        and all(got[n] == "episode" for n in registry.builtin_by_setting()["linear"]),
        "counterpart": _counterparts(measured.counterpart_of) == OLD_NAMED,
        "audit": {n: (type(sc).__mro__[1].__name__, sc.default_budget, dict(sc.fixed), sc.default_trials)
                  for n in OLD_AUDIT_BUDGET for sc in [scenarios.card_scenario(registry.lookup(n))]} == OLD_AUDIT,
        "audit list": list(scenarios.all_scenarios()) == OLD_AUDIT_ORDER,
        "adapters": set(adapters._adapters()) == OLD_ADAPTED,
    }
    _leftovers(out)
    return out


def test_cards_hold_the_old_tables():
    """Granularity, counterpart, audit design and list, and the adapters, read from the cards, equal the tables
    they replace (main 78ee0a9)."""
    checks = _checks()
    assert all(checks.values()), checks


@pytest.mark.parametrize("mutant", ["granularity", "counterpart", "audit", "audit list", "adapters", "audit rank",
                                    "episodes", "stretch switch", "assumption 2", "bound options"])
def test_cards_mutants_ignoring_the_card_are_caught(monkeypatch, mutant):
    """A consumer that ignores the card (one edit each) fails its check."""
    from boundcalc.algorithms import episodes
    from boundcalc.algorithms.finite import nonprivate
    from boundcalc.audit import scenarios
    from boundcalc.budget import measured
    from boundcalc.cli import episodes_cmd
    from boundcalc.verify import adapters
    from mutation import mutate

    gran = registry.granularity
    if mutant == "granularity":
        gran = mutate(registry.granularity, 'return g or "step"', 'return "step"')
    elif mutant == "counterpart":
        monkeypatch.setattr(measured, "counterpart_of", mutate(measured.counterpart_of, "if _named(cls):", "if 0:"))
    elif mutant == "audit":
        monkeypatch.setattr(scenarios, "card_scenario", mutate(scenarios.card_scenario, "design = DESIGNS[cls.audit_scenario]",
                                                                  "design = FirstDecision"))
    elif mutant == "audit list":  # SCENARIOS not built from the cards in the old order: registry order instead
        monkeypatch.setattr(scenarios, "SCENARIOS", {})
    elif mutant == "audit rank":  # the built-in scenarios not sorted by the cards' audit_rank
        ranked = mutate(scenarios._builtin_scenarios, "key=lambda c: (c.audit_rank is None, c.audit_rank or 0)",
                        "key=lambda c: 0")
        monkeypatch.setattr(scenarios, "SCENARIOS", ranked())
    elif mutant == "episodes":  # the options used read from the schedule's name instead of its card's signature
        monkeypatch.setattr(episodes, "reads", mutate(episodes.reads, "if p.kind is inspect.Parameter.KEYWORD_ONLY",
                                                      "if p.kind is not inspect.Parameter.KEYWORD_ONLY"))
        monkeypatch.setattr(episodes_cmd, "uses", mutate(episodes_cmd.uses, "phased.reads(cls)", "phased.PARAMS[:1]"))
    elif mutant == "stretch switch":  # one switch for every policy (UCB's), not the card's
        monkeypatch.setattr(nonprivate._PerStep, "uses_stretch",
                            mutate(nonprivate._PerStep.uses_stretch, "self.stretch_min_T", "10**5"))
    elif mutant == "assumption 2":  # the check chosen by setting, not by the card's check_assumptions
        monkeypatch.setattr(adapters, "card_adapter", mutate(adapters.card_adapter,
                            'check = getattr(cls, "check_assumptions", None)',
                            'check = {"contextual": "oful"}.get(cls.setting, cls.setting)'))
    elif mutant == "bound options":  # no bound adapter read from the cards
        monkeypatch.setattr(adapters, "bound_adapters", mutate(adapters.bound_adapters,
                            '(getattr(cls, "bound_options", None) or {})', "{}"))
    else:
        monkeypatch.setattr(adapters, "_adapters",
                            mutate(adapters._adapters, "is_plugin(cls) or callable", "is_plugin(cls) and callable"))
    try:
        checks = _checks(gran)
    except (KeyError, TypeError, ValueError) as exc:  # a mutant may also break outright
        checks = {mutant: False, "error": repr(exc)}
    assert checks.get(mutant, checks.get("audit list")) is False, checks  # "audit rank": the audit list's order


def _numbers(obj, key):
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k == key and isinstance(v, (int, float)):
                yield float(v)
            else:
                yield from _numbers(v, key)
    elif isinstance(obj, list):
        for v in obj:
            yield from _numbers(v, key)


def _rows(obj):
    if isinstance(obj, dict):
        if "id" in obj and "algorithm" in obj and "kind" in obj:
            yield obj
        for v in obj.values():
            yield from _rows(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _rows(v)


@pytest.mark.parametrize("mutant", [False, True])
def test_bound_ids_pair_a_card_with_another_algorithms_bound(toy, mutant):
    """regret --check's rows: a copy of DP-IMED's Thm 4.3 row for the toy (its card's bound_ids), right after it; the
    built-in cards add none (each lists only bounds that name it). Mutant: the pairing compares the wrong way."""
    from boundcalc.verify import regret_check as rc
    from mutation import mutate

    pair = mutate(rc._pair_by_cards, 'n != r.get("algorithm")', 'n == r.get("algorithm")') if mutant \
        else rc._pair_by_cards
    rows = [{"id": "001-thm4.3-dp-imed", "algorithm": "DP-IMED"}, {"id": "001-thm4.3-dp-klucb", "algorithm": "DP-KLUCB"},
            {"id": "003-thm4-paper", "algorithm": "AdaC-GOPE"}]
    pair(rows)
    want = [("001-thm4.3-dp-imed", "DP-IMED"), ("001-thm4.3-dp-imed", "Toy-ETC"), ("001-thm4.3-dp-klucb", "DP-KLUCB"),
            ("003-thm4-paper", "AdaC-GOPE")]
    got = [(r["id"], r["algorithm"]) for r in rows]
    assert (got != want) if mutant else (got == want), got


def test_unknown_assumption_check_name_is_one_line(toy, monkeypatch):
    """A card naming an assumption check that does not exist: `regret --check` stops with one line naming the class
    and the names allowed (exit 2), not a traceback."""
    monkeypatch.setattr(toy, "check_assumptions", "finit")
    r = runner.invoke(app, ["regret", "--setting", "finite", "--means", "0.9,0.5", "--epsilon", "1", "--T", "2000",
                            "--check", "--runs", "2", "--json"])
    assert r.exit_code == 2 and "check_assumptions 'finit' is not one of finite, linear" in r.output, r.output
    assert "Traceback" not in r.output


@pytest.mark.parametrize("mutant", [False, True])
def test_every_builtin_card_passes_the_plugin_check(mutant):
    """The built-in cards are checked as a plugin's (``plugins.check_class``, what ``register`` runs): every one
    passes. Mutant: the ε-LDP algorithms (LDP-SGD: no δ) refused again for lacking a delta keyword."""
    from boundcalc.algorithms import plugins
    from boundcalc.errors import PluginError
    from mutation import mutate

    check = mutate(plugins.check_class, 'if notion == "ldp":', "if False:") if mutant else plugins.check_class
    refused = []
    for name, cls in registry.all_algorithms().items():
        try:
            check(cls, "builtin")
        except PluginError:
            refused.append(name)
    assert (refused == ["LDP-SGD", "LDP-SGD (multi-parameter)"]) if mutant else not refused, refused


def test_a_plugin_naming_a_design_written_for_another_algorithm_is_one_line(toy, monkeypatch):
    from boundcalc.audit import scenarios
    from boundcalc.errors import PluginError

    monkeypatch.setattr(toy, "audit_scenario", "dp-se-elimination")
    with pytest.raises(PluginError, match="written for DP-SE"):
        scenarios.plugin_scenario(toy)


@pytest.mark.parametrize("mutant", [False, True])
def test_every_card_attribute_has_a_row_in_docs_plugins(mutant):
    """docs/plugins.md, "The algorithm card", has a row for every card attribute of base.Algorithm (what a new
    algorithm's author reads). Mutant: an attribute added to the base class without its row."""
    import pathlib

    from boundcalc.algorithms.base import Algorithm

    doc = (pathlib.Path(__file__).resolve().parents[2] / "docs" / "plugins.md").read_text()
    table = doc[doc.index("## The algorithm card"):].split("\n\n")[2]
    rows = [ln.split("|")[1] for ln in table.splitlines() if ln.startswith("| `")]
    methods = {"simulate", "reference", "describe", "bound_option_conflict"}
    card = [k for k in vars(Algorithm) if not k.startswith("_") and k not in methods]
    card += ["new_card_key"] if mutant else []
    missing = [k for k in card if not any(f"`{k}" in r for r in rows)]
    assert bool(missing) == mutant, missing
