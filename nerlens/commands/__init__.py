"""Subcommands of ``nerlens``: each module defines NAME, HELP, add_arguments(), run().

A family adds its module name here; ``nerlens.cli`` imports them in this order.
"""
COMMAND_MODULES = (
    "score",
    "report",
    "hardeval",
    "tough_mentions",
    "faireval",
    "buckets",
)
