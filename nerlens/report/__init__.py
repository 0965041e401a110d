"""The report: every method in one pass over one dataset, with uncertainty, pictures and
HTML (``nerlens.report(...)``).

- ``build``: the one pass, ``report()``, and what it returns, ``Report``;
- ``statistics``: per-family glue (scoring, bootstrap statistics, bucket charts);
- ``analyses``, ``findings``, ``examples``: what the report computes beyond the headline
  numbers, what it states first, the errors it shows;
- ``names``: readable names of the statistics; ``repairs``: what decoding repaired;
- the page: ``page_kit`` (the HTML helpers the experiment's page uses too), ``overview``
  (the sections around the families') and ``html`` (the families' sections, the page);
- ``text``: the terminal view.
"""
from .build import Report, report

__all__ = ["Report", "report"]
