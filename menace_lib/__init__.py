"""menace_lib: MENACE as a Bayesian observer.

Modules, one idea each:

- :mod:`menace_lib.board` -- the game, its text form and its D4 symmetries
- :mod:`menace_lib.statespace` -- the enumerated game as integer tables, minimax
- :mod:`menace_lib.dirichlet` -- Dirichlet maths (moments, entropies, information gain)
- :mod:`menace_lib.efe` -- expected free energy, the softmax policy and beads
- :mod:`menace_lib.menace` -- the matchbox agent
- :mod:`menace_lib.opponents` -- scripted opponents and curricula
- :mod:`menace_lib.training` -- training loops and sampled validation
- :mod:`menace_lib.evaluation` -- exact evaluation and policy diagnostics
- :mod:`menace_lib.cli` -- the command line (``python -m menace_lib``), one module per command

Importing the package is cheap: the game tree is enumerated lazily, on first use.
"""

__version__ = "0.1.0"
