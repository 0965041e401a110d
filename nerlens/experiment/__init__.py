"""Whole experiments: several datasets, several runs per system (``nerlens.run_experiment``).

- ``build``: ``run_experiment()``, one report per dataset and the numbers over them, and
  what it returns, ``Experiment``;
- ``runs``: the datasets and runs declared, checked and named as report columns;
- ``generated``: the runs given as generated output (an LLM's responses), grounded as the
  one-dataset report grounds them, and what grounding did per dataset and run;
- ``over_runs``: means and standard deviations over runs, the attribute views and the
  significance tests between systems;
- ``findings``, ``html``, ``text``: what it states first, its page, its terminal view.
"""
from nerlens.exports import on_demand, renamed_function

# imported when first used: a command that runs no experiment imports none of it
__getattr__ = on_demand(__name__, {"Experiment": ".build", "run_experiment": ".build"})
__all__ = ["Experiment", "run_experiment"]
renamed_function(__name__, "nerlens.run_experiment")
