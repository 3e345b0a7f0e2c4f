"""MENACE read as a Dirichlet-categorical learner: where the reading is exact, where it breaks.

Part II of the book (thesis chapters 5-7) makes a handful of claims about the bead
mechanism. Each claim has a function here that computes the evidence for it; the
notebooks only call them and show the results. One module per claim family:

====================  ===========================================================
:mod:`~.acting`       drawing a bead is probability matching (Theorem 5.3)
:mod:`~.learning`     the MDA update and why it is not conjugate (Remarks 5.4-5.7)
:mod:`~.ledger`       the bead ledger of a training run (:func:`update_audit`)
:mod:`~.shaping`      how updates shape a box's policy (chapter 6)
:mod:`~.epistemic`    epistemic against instrumental value, the λ crossover (ch. 7)
:mod:`~.entropy`      the entropy identity (Appendix D)
:mod:`~.checks`       argument checks the modules share
====================  ===========================================================

Result codes follow :mod:`menace_lib.play.loop`: 0 win, 1 draw, 2 loss, from the learner's
side.
"""

from .acting import RULES, BanditRun, simulate_box_bandit, thompson_choice_probabilities
from .entropy import expected_log_theta, expected_theta_log_theta, log_moments_mc
from .epistemic import crossover_lambda, policy_over_lambda, scaled_efe
from .learning import (
    box_order_dependence,
    mda_update,
    order_dependence,
    replay_counts,
    schedule_comparison,
)
from .ledger import UpdateAudit, update_audit
from .shaping import (
    boltzmann_preferences,
    expected_drift,
    mean_field_path,
    replicator_drift,
    utility_risk_identity,
)

__all__ = [
    "RULES",
    "BanditRun",
    "UpdateAudit",
    "boltzmann_preferences",
    "box_order_dependence",
    "crossover_lambda",
    "expected_drift",
    "expected_log_theta",
    "expected_theta_log_theta",
    "log_moments_mc",
    "mda_update",
    "mean_field_path",
    "order_dependence",
    "policy_over_lambda",
    "replay_counts",
    "replicator_drift",
    "scaled_efe",
    "schedule_comparison",
    "simulate_box_bandit",
    "thompson_choice_probabilities",
    "update_audit",
    "utility_risk_identity",
]
