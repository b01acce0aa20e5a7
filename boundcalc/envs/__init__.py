"""Bandit instances (finite-armed Bernoulli and Gaussian; linear, contextual and GLM instances).

``INSTANCES_BY_SETTING`` names every instance of every setting; ``make_named_env(name, seed)`` builds any
of them (``seed`` draws theta*/actions of the random linear, contextual and GLM instances; finite instances
ignore it); ``DEFAULT_ENV`` is the default instance of each setting (the bound registry's default instance).
"""

from ..errors import InputError, ParamName
from .base import BernoulliEnv, Env, FiniteArmedEnv, GaussianEnv
from .instances import FAMILIES, INSTANCES, make_env

DEFAULT_ENV = {"finite": "mu2", "linear": "zcdp-linear", "contextual": "zcdp-contextual", "glm": "ldp-single"}


def instances_by_setting() -> dict[str, dict]:
    """{setting: {instance name: description}}."""
    from .contextual import CONTEXTUAL_INSTANCES
    from .glm import GLM_INSTANCES
    from .linear import LINEAR_INSTANCES

    return {
        "finite": {k: v["source"] for k, v in INSTANCES.items()},
        "linear": {k: v["source"] for k, v in LINEAR_INSTANCES.items()},
        "contextual": {k: v["source"] for k, v in CONTEXTUAL_INSTANCES.items()},
        "glm": dict(GLM_INSTANCES),
    }


def setting_of(name: str) -> str:
    """The setting of a named instance (InputError for an unknown name)."""
    by = instances_by_setting()
    for s, names in by.items():
        if name in names:
            return s
    raise InputError(ParamName("env"), "one of " + ", ".join(n for names in by.values() for n in names), name)


def make_named_env(name: str, seed: int = 3, family: str = "bernoulli"):
    """Any named instance; ``seed`` is the instance seed of the random linear/contextual/GLM instances."""
    s = setting_of(name)
    if s == "finite":
        return make_env(name, family=family)
    if s == "linear":
        from .linear import make_linear_env

        return make_linear_env(name, seed=seed)
    if s == "contextual":
        from .contextual import make_contextual_env

        return make_contextual_env(name, seed=seed)
    from .glm import make_glm_env

    return make_glm_env(name, seed=seed)


__all__ = ["Env", "FiniteArmedEnv", "BernoulliEnv", "GaussianEnv", "INSTANCES", "FAMILIES", "make_env",
           "DEFAULT_ENV", "instances_by_setting", "setting_of", "make_named_env"]
