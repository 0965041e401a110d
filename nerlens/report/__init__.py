"""The report: every method in one pass over one dataset, with uncertainty, pictures and
HTML (``nerlens.build_report(...)``).

Every family is read from its descriptor (``nerspan.family.Family``, registered in
``nerlens.families``); no module here names a family.

- ``build``: the one pass, ``build_report()``, and what it returns, ``Report``;
- ``statistics``: scoring a family and its bootstrap statistics;
- ``views``: the report as one family sees it (``ReportView``);
- ``analyses``, ``findings``, ``examples``: the families' analyses and figures, what the
  report states first, the errors it shows;
- ``names``: readable names of the statistics; ``repairs``: what decoding repaired;
- the page: ``page_kit`` (the HTML helpers the experiment's page uses too), ``blocks``
  (the families' page blocks as HTML and text), ``overview`` (the sections around the
  families') and ``html`` (the page);
- ``text``: the terminal view.
"""
from nerlens.exports import on_demand, renamed_function

# imported when first used: a command that writes no report imports none of it
__getattr__ = on_demand(__name__, {"Report": ".build", "build_report": ".build"})
__all__ = ["Report", "build_report"]
renamed_function(__name__, "nerlens.build_report")
