"""Choosing a privacy budget before deployment: the strongest privacy that keeps regret within a target.

``solve(setting, T, Target("overhead", 0.1), notion="rho")`` answers, for every bound of a setting, the
budget at which it meets the target (upper bounds: sufficient; lower bounds: necessary), in the bound's own
notion and the user's, with the equivalents in the other notions. See boundcalc.budget.solve.
"""

from .notions import USER_NOTIONS, UserNotion, equivalents
from .horizon import HorizonRow, min_horizon
from .measured import Counterpart, MeasuredAnswer, MeasuredPlan, counterpart_of, solve_measured
from .solve import BUDGET_RANGE, BudgetPlan, BudgetRow, Target, caveat_tags, is_rigorous, solve

__all__ = ["USER_NOTIONS", "UserNotion", "equivalents", "BUDGET_RANGE", "BudgetPlan", "BudgetRow", "Target", "HorizonRow", "min_horizon",
           "caveat_tags", "is_rigorous", "solve",
           "Counterpart", "MeasuredAnswer", "MeasuredPlan", "counterpart_of", "solve_measured"]
