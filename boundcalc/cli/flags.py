"""The one table from a library function's parameter to the CLI's flag (issue 23 §1: library code names its own
parameters, only cli/ knows flags).

Library code raises ``InputError(ParamName("means"), ...)`` (boundcalc.errors.ParamName): "means must be ...". The
CLI prints every error through :func:`message`, which names the flag of the parameter instead ("--means must be
..."), so the one line still names the option the user typed. A command whose option sets a parameter of another name (audit's
--epsilon is a local-DP algorithm's LocalDP ε) maps it with ``common.option_names``. Library text meant for the user
that points at an option holds ``errors.flag("runs")`` (a placeholder): the CLI runs every command inside
``errors.front_end_names(FLAGS)``, so notes and quoted errors name the flag, and :func:`message` renders an error's
text with this table. Module level: stdlib only.
"""

from __future__ import annotations

# parameter (as the library names it) -> flag (as the user types it); one entry per parameter
FLAGS = {
    # the instance (envs.spec, cli/problem.py)
    "setting": "--setting", "means": "--means", "K": "--K", "gaps": "--gaps", "best_mean": "--best-mean", "d": "--d",
    "theta": "--theta", "actions": "--actions", "actions_file": "--actions", "env": "--env", "env_seed": "--env-seed",
    "instance_file": "--instance", "family": "--family", "sigma": "--sigma", "noise": "--noise",
    "contexts": "--contexts", "link": "--link", "save_instance": "--save-instance",
    # priors over instances
    "prior": "--prior", "instances": "--instances", "prior_quantile": "--prior-quantile",
    "prior_param": "--prior-param", "prior_seed": "--prior-seed",
    # the budget (privacy.budgets names its parameters epsilon, rho, ...; common.BUDGET_FLAGS)
    "epsilon": "--epsilon", "delta": "--delta", "rho": "--rho", "alpha": "--alpha", "rdp_epsilon": "--rdp-epsilon",
    "ldp_epsilon": "--ldp-epsilon", "ldp_delta": "--ldp-delta", "notion": "--notion",
    # the target and the search of `budget`
    "by": "--by", "max_overhead": "--max-overhead", "max_regret": "--max-regret",
    "max_ratio_to_lower": "--max-ratio-to-lower", "quantile": "--quantile", "report": "--report",
    # simulation settings
    "algo": "--algo", "counterpart": "--counterpart", "counterpart_param": "--counterpart-param", "runs": "--runs",
    "max_runs": "--max-runs", "seed": "--seed", "T": "--T", "data": "--data", "block_runs": "--block-runs",
    "pairing": "--pairing", "executor": "--executor", "workers": "--workers", "scheduler": "--scheduler",
    "processes": "--processes",
    # audit
    "trials": "--trials", "confidence": "--confidence", "mutant": "--mutant", "param": "--param",
    # lower
    "alt": "--alt", "pulls": "--pulls", "variance": "--variance",
    # check / verify
    "box": "--box", "method": "--method", "claim": "--claim", "paper": "--paper", "list": "--list",
    # regret
    "lambda0": "--lambda0", "check": "--check",
    # figures
    "plot": "--plot", "x_scale": "--x-scale", "y_scale": "--y-scale", "log_y": "--log-y",
    # where simulations run (montecarlo.executors)
    "executor": "--executor", "workers": "--workers", "scheduler": "--scheduler", "processes": "--processes",
    # worksheet run (the same names as the worksheet scripts': experiments/options.py OPTIONS)
    "fast": "--fast", "full": "--full", "out": "--out", "step_cap": "--step-cap", "only": "--only",
    "no_claims": "--no-claims",
}


def flag(parameter: str) -> str:
    """The flag that sets ``parameter`` (KeyError for a parameter no option sets: the table is the one place)."""
    return FLAGS[parameter]


def message(exc) -> str:
    """The one line of an InputError for the user: a library's own parameter (a ``ParamName``) and every parameter
    its text points at (``errors.flag`` placeholders) named by its flag, the rest of the message unchanged; any other
    error as it is."""
    text = getattr(exc, "text", None)
    return text(FLAGS) if callable(text) else str(exc)
