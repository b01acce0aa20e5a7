"""The instance options shared by `regret`, `budget`, `simulate` and `audit` (issue 14 §1; docs/instances.md).

``resolve``: the options -> one ``boundcalc.envs.spec.Instance`` (or a ``Prior`` and the instances drawn from it),
through ``problem.instance_from_options`` -- the one function every command calls. The options themselves are declared
in options.py. Module level: typer/stdlib only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

MAX_PRIOR_INSTANCES = 10000
NEW_OPTIONS = ("--instance", "--env", "--env-seed", "--gaps", "--best-mean", "--noise")


def setting_of(setting, instance_file, settings, option: str = "--setting"):
    """The setting of a command: ``--setting`` when given (an --instance file of another setting is then refused
    where the instance is resolved), else the setting the --instance file carries (issue 23: an instance file
    carries its setting), else a one-line error asking for one."""
    from ..errors import InputError

    if setting is not None:
        if setting not in settings:
            raise InputError(option, "one of " + ", ".join(settings), setting)
        return setting
    if instance_file is not None:
        from ..envs import spec

        inst = spec.load_instance(instance_file)
        if inst.setting not in settings:
            raise InputError("--instance", "an instance of the " + " / ".join(settings) + " setting",
                             f"{inst.setting} ({inst.label})")
        return inst.setting
    raise InputError(option, "one of " + ", ".join(settings) + " (or an --instance file, which carries its own)",
                     "nothing")


def instance_text(inst, path=None) -> str:
    """One line for a table's caption: the instance's description (``Instance.describe``), its name when it has its own,
    and where it came from (the --instance file ``path``, else the file recorded in its source). ``inst``: an Instance,
    its ``to_dict()`` (the JSON keeps that whole), or another description dict (an environment's), summarised."""
    if isinstance(inst, dict):
        from ..envs import spec
        from ..errors import InputError

        try:
            inst = spec.Instance.from_dict(inst, "instance")
        except (InputError, KeyError, TypeError, ValueError):
            parts = []
            for k, v in inst.items():
                if isinstance(v, (list, tuple)):
                    if len(v) > 6 or any(isinstance(x, (list, tuple, dict)) for x in v):
                        continue
                    v = "(" + ", ".join(f"{x:.4g}" if isinstance(x, float) else str(x) for x in v) + ")"
                elif isinstance(v, float):
                    v = f"{v:.4g}"
                elif isinstance(v, dict):
                    continue
                parts.append(f"{k} = {v}")
            return ", ".join(parts) or "the setting's default instance"
    if not hasattr(inst, "describe"):
        return str(inst)
    desc = inst.describe()
    name = getattr(inst, "name", None)
    text = desc if not name or name == desc else f"{name} ({desc})"
    src = path or (getattr(inst, "source", None) or {}).get("file")
    return text + (f"; from {src}" if src else "")


def _given(**kw) -> list[str]:
    return [k for k, v in kw.items() if v is not None]


def resolve(setting: str, *, means=None, K=None, gaps=None, best_mean=None, d=None, theta=None, actions=None,
            env=None, env_seed=None, instance_file=None, noise=None, family=None):
    """The Instance of the options (None when none is given). ``actions`` is a file path (CSV or .npy)."""
    from . import problem

    return problem.instance_from_options(setting, means=means, K=K, gaps=gaps, best_mean=best_mean, d=d, theta=theta,
                                         actions_file=actions, env=env, env_seed=env_seed,
                                         instance_file=instance_file, noise=noise, family=family)


def uses_new_options(**kw) -> bool:
    """Whether any of the options routed only through the Instance (--instance, --env, --env-seed, --gaps,
    --best-mean, --noise) is given."""
    return bool(_given(**kw))


def prior_from_options(setting: str, prior, instances, quantile, params, seed, K=None, d=None, conflicts=()):
    """(Prior, drawn instances, quantile, seed) or None without --prior. --K/--d set the prior's K and d; other
    parameters via --prior-param; an instance option beside --prior is a conflict (InputError)."""
    from .. import validate
    from ..envs import spec
    from ..errors import InputError

    if prior is None:
        for opt, v in (("--instances", instances), ("--prior-quantile", quantile), ("--prior-param", params or None),
                       ("--prior-seed", seed)):
            if v is not None:
                raise InputError(opt, "used with --prior", v)
        return None
    bad = [c for c in conflicts if c]
    if bad:
        raise InputError("--prior", "given without an instance (it draws the instances; it conflicts with "
                         + ", ".join(bad) + ")", prior)
    n = 20 if instances is None else validate.count("--instances", instances, minimum=1, maximum=MAX_PRIOR_INSTANCES)
    q = 0.9 if quantile is None else validate.open_unit("--prior-quantile", quantile)
    sd = 0 if seed is None else validate.count("--prior-seed", seed, minimum=0, maximum=2**63 - 1)
    kw = {}
    for it in params or []:
        if "=" not in it or not it.split("=", 1)[0].strip() or not it.split("=", 1)[1].strip():
            raise InputError("--prior-param", "of the form name=value", it)
        k, v = (x.strip() for x in it.split("=", 1))
        try:
            kw[k] = validate.finite(f"--prior-param {k}", float(v))
        except ValueError:
            kw[k] = v
    if K is not None:
        kw["K"] = validate.count("--K", K, minimum=1, maximum=10**5)
    if d is not None:
        kw["d"] = validate.count("--d", d, minimum=1, maximum=1000)
    from . import common

    # make_prior names a parameter as the prior does ("sigma"): name the option that set it (issue 22 §4)
    names = {k: f"--prior-param {k}" for k in kw}
    names.update({k: f"--{k}" for k, v in (("K", K), ("d", d)) if v is not None})
    with common.option_names(names):
        pr = spec.make_prior(prior, setting, **kw)
    return pr, pr.sample(n, sd), q, sd


def _load_actions(path: str):
    import numpy as np

    from .. import validate
    from ..errors import InputError

    validate.input_file("--actions", path, "actions", "CSV or .npy file")
    try:
        arr = np.load(path) if path.endswith(".npy") else np.loadtxt(path, delimiter=",", ndmin=2)
    except (OSError, ValueError) as exc:
        raise InputError("--actions", "a readable CSV or .npy file of a K×d action matrix", f"{path}: {exc}") from None
    arr = np.atleast_2d(np.asarray(arr, dtype=float))
    if arr.size == 0:
        raise InputError("--actions", "a non-empty K×d action matrix", path)
    if not np.isfinite(arr).all():
        raise InputError("--actions", "finite numbers only", path)
    return arr


def bound_options(setting, means, K, d, actions, theta, confidence, lambda0):
    """Validate every instance option (whatever the setting) and map it to the setting's parameter.

    Returns (overrides for the registry, {option: key or None}, {option: validated value}); an option whose key
    is None has no such parameter in this setting (it is validated and then reported as without effect)."""
    from .. import validate
    from ..bounds import registry

    mod = registry.setting_module(setting)
    keys, limits = getattr(mod, "OPTION_KEYS", {}), getattr(mod, "LIMITS", {})
    vals = {}
    if means is not None:
        vals["--means"] = validate.means("--means", means)
        if len(vals["--means"]) < 2:  # as every other command (issue 22 §4: one arm was accepted, no bound applied)
            from ..errors import InputError as _IE

            raise _IE("--means", "a list of at least 2 arm means", means)
    if K is not None:
        kmin = 2 if setting in ("finite", "glm") else 1
        vals["--K"] = validate.count("--K", K, minimum=kmin, maximum=limits.get("K", 10**6))
    if d is not None:
        vals["--d"] = validate.count("--d", d, maximum=limits.get("d", 1000))
    if "--K" in vals and "--d" in vals and "Kd" in limits and vals["--K"] * vals["--d"] > limits["Kd"]:
        from ..errors import InputError

        raise InputError("--K", f"an integer with K·d ≤ {limits['Kd']:g} (the K×d action matrix must fit in memory; "
                         f"d = {vals['--d']})", K)
    if actions is not None:
        vals["--actions"] = _load_actions(actions)
    if theta is not None:
        vals["--theta"] = validate.float_list("--theta", theta)
    from ..errors import InputError

    if "--K" in vals and "--means" in vals and setting == "finite" and vals["--K"] != len(vals["--means"]):
        raise InputError("--K", f"equal to the number of --means values ({len(vals['--means'])}), or left out", K)
    if "--actions" in vals and setting in ("linear", "contextual"):
        shape = vals["--actions"].shape
        for opt, n, what in (("--K", shape[0], "rows"), ("--d", shape[1], "columns")):
            if opt in vals and vals[opt] != n:
                raise InputError(opt, f"equal to the number of {what} of --actions ({n}), or left out",
                                 K if opt == "--K" else d)
    if confidence is not None:
        vals["--confidence"] = validate.open_unit("--confidence", confidence)
    if lambda0 is not None:
        vals["--lambda0"] = validate.positive("--lambda0", lambda0)
    overrides, given = {}, {}
    for opt, val in vals.items():
        key = keys.get(opt[2:])  # OPTION_KEYS is keyed by the option's parameter (its flag less "--")
        given[opt] = key
        if key is not None:
            overrides[key] = val
    return overrides, given, vals

@dataclass
class BoundInstance:
    """The instance of a bound-reading command (regret, budget), built once from its instance options
    (:func:`bound_instance_of`): ``prior`` (a prior and its draws, or None), ``instance`` (the Instance of the new
    options, or None), ``old_given`` (old --means/--K/--d/--actions/--theta left to read), ``overrides`` (the
    registry's context parameters), ``given`` ({option: parameter key or None}), ``vals`` ({option: validated
    value}), ``names`` (an instance error blamed on theta/actions/means names the option the user gave)."""

    prior: Optional[tuple]
    instance: object
    old_given: bool
    overrides: dict
    given: dict
    vals: dict
    names: dict


def bound_instance_of(setting: str, *, prior, instances, prior_quantile, prior_param, prior_seed, means, K, d, theta,
                      actions, instance_file, env, env_seed, gaps, best_mean, noise, save_instance, confidence,
                      lambda0) -> BoundInstance:
    """The instance options of `regret` and `budget`, read once: :func:`for_bounds` (a prior, or an Instance of the
    new options), then :func:`bound_options` (the old options and --confidence/--lambda0 as the setting's
    parameters), the Instance's own parameters over them."""
    pri, inst, old_given, means, K, d, actions, theta = for_bounds(
        setting, prior=prior, instances=instances, prior_quantile=prior_quantile, prior_param=prior_param,
        prior_seed=prior_seed, means=means, K=K, d=d, theta=theta, actions=actions, instance_file=instance_file,
        env=env, env_seed=env_seed, gaps=gaps, best_mean=best_mean, noise=noise, save_instance=save_instance)
    overrides, given, vals = bound_options(setting, means, K, d, actions, theta, confidence, lambda0)
    if inst is not None:
        overrides.update(inst.context_overrides())
    names = {k: f"--{k}" for k, v in (("theta", theta), ("actions", actions), ("means", means)) if v is not None}
    return BoundInstance(pri, inst, old_given, overrides, given, vals, names)


def for_bounds(setting: str, *, prior, instances, prior_quantile, prior_param, prior_seed, means, K, d, theta,
               actions, instance_file, env, env_seed, gaps, best_mean, noise, save_instance):
    """The instance options of the bound-reading commands (regret, budget): ``(prior, instance, old_given, means, K,
    d, actions, theta)``: a prior and its draws, or one Instance from the new options (the old --means/--K/--d/
    --actions/--theta are then consumed by it and returned as None), and whether old options remain to be read."""
    check_save_path(save_instance)
    pri = prior_from_options(setting, prior, instances, prior_quantile, prior_param, prior_seed, K=K, d=d,
                             conflicts=[o for o, v in (("--means", means), ("--theta", theta), ("--actions", actions),
                                                       ("--instance", instance_file), ("--env", env),
                                                       ("--env-seed", env_seed), ("--gaps", gaps),
                                                       ("--best-mean", best_mean), ("--save-instance", save_instance))
                                        if v is not None])
    inst = None
    if pri is None and uses_new_options(instance=instance_file, env=env, env_seed=env_seed, gaps=gaps,
                                        best_mean=best_mean, noise=noise):
        inst = resolve(setting, means=means, K=K, gaps=gaps, best_mean=best_mean, d=d, theta=theta, actions=actions,
                       env=env, env_seed=env_seed, instance_file=instance_file, noise=noise)
        means = K = d = actions = theta = None  # they made the instance
    old_given = any(v is not None for v in (means, K, d, actions, theta))
    if pri is not None:
        K = d = None  # they set the prior's K and d
    return pri, inst, old_given, means, K, d, actions, theta


def no_prior(command: str, prior) -> None:
    """One line for a command that cannot use a prior."""
    if prior is not None:
        from ..errors import InputError

        raise InputError("--prior", f"not used by {command} (it runs one instance: draw one with `regret --prior "
                         "... --save-instance FILE` or give --instance)", prior)


def check_save_path(path) -> None:
    from . import common

    common.check_output_path("--save-instance", path, (".toml", ".json"))


def save(inst, path) -> Optional[str]:
    """``--save-instance``: ``inst`` is written to ``path`` when the command ends without an error
    (``common.after_success``); returns the path."""
    if path is None or inst is None:
        return None
    from ..envs import spec
    from . import common

    common.after_success(lambda: spec.save_instance(inst, path))
    return str(path)


def setting_env(setting: str, ctx):
    """The environment the bound registry's context describes (what `--check` simulates; verify.adapters)."""
    from ..verify import adapters

    return {"finite": adapters._finite_env, "linear": adapters._linear_env, "contextual": adapters._contextual_env,
            "glm": adapters._glm_env}[setting](ctx)


def context_instance(setting: str, ctx, given=None):
    """(Instance used by the bounds and `--check`, notes): the instance of the registry context ``ctx``; ``given``
    (the user's Instance) when it is that instance, else the context's with a note on what differs."""
    from ..envs.spec import Instance

    try:
        env = setting_env(setting, ctx)
    except ValueError:  # InputError included: an instance the adapters cannot build: report the given one
        return given, []
    used = Instance.from_env(env, name=given.label if given is not None else ctx.instance_name,
                             source=dict(given.source) if given is not None else {"bounds": "registry instance"})
    if given is None or used == given:
        return (given if given is not None else used), []
    diff = [k for k in ("means", "family", "sigma", "actions", "theta", "thetas", "K", "contexts", "context_mean",
                        "context_scale", "project", "noise", "link") if getattr(used, k) != getattr(given, k)]
    return used, [f"the bounds and --check use {used.describe()}: its {', '.join(diff)} {'differ' if len(diff) > 1 else 'differs'} from the instance "
                  f"given ({given.describe()}), which the bound registry cannot describe exactly"]


def quantile_summary(values, q: float, larger_is_worse: bool = True) -> dict:
    """Worst and the q-quantile (numpy 'linear' interpolation) of per-instance values; None values (no answer)
    make the worst None."""
    import math

    import numpy as np

    xs = [v for v in values if v is not None and not (isinstance(v, float) and math.isnan(v))]
    missing = len(values) - len(xs)
    if not xs:
        return {"worst": None, "quantile": q, "at_quantile": None, "median": None, "best": None,
                "instances": len(values), "without_answer": missing}
    a = np.asarray(xs, dtype=float)
    qq = q if larger_is_worse else 1 - q
    worst = float(a.max() if larger_is_worse else a.min())
    return {"worst": None if missing else worst, "worst_with_answer": worst, "quantile": q,
            "at_quantile": float(np.quantile(a, qq)), "median": float(np.median(a)),
            "best": float(a.min() if larger_is_worse else a.max()), "instances": len(values),
            "without_answer": missing}
