"""What the subcommands share: usage errors, the guard that turns an error into one line,
and output (JSON, written reports; tables are page blocks drawn by
``nerlens.report.blocks.text``)."""
from __future__ import annotations

import importlib
import json
import os
import sys
import warnings
from pathlib import Path

from nerlens.jsonable import json_ready

# The report's terminal view, which draws ``--confusion``'s matrices: imported when a
# matrix is drawn, so that a command without one imports nothing of the report.
REPORT_TEXT = "nerlens.report.text"


class UsageError(Exception):
    """A problem with the command line or the input files: exit code 2, one line."""


def print_confusion(results: dict) -> None:
    """``--confusion`` in the text view: every system's entity confusion matrix (system
    -> result dict), drawn as the report's terminal view draws it, after a blank line
    (none: nothing)."""
    matrices = {name: result for name, result in results.items() if "confusion" in result}
    if matrices:
        text = importlib.import_module(REPORT_TEXT)
        print("\n" + "\n".join(text.confusion.matrices_text(matrices, text.WIDTH)))


def prediction_paths(args) -> list[str]:
    """The PRED files (one or several positional arguments)."""
    preds = args.predictions
    return preds if isinstance(preds, list) else ([preds] if preds else [])


def note(message: str) -> None:
    print(f"note: {message}", file=sys.stderr)


def print_notes(notes) -> None:
    """Each note the library wrote (``note: ...``; None: none) on stderr."""
    for line in filter(None, notes):
        print(line, file=sys.stderr)


def print_json(value) -> None:
    json.dump(json_ready(value), sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def show_result(args, result, render) -> int:
    """--format json: ``result`` as JSON; otherwise ``render(result)``, the text view."""
    print_results({"": result}, render, args.format == "json")
    return 0


def print_results(results: dict, render, as_json: bool, extra: dict | None = None) -> None:
    """Name -> result as JSON (one result alone, several by name; ``extra``: beside them
    under ``results``), or each rendered as text (``render``), under ``== name`` when
    there are several."""
    if as_json:
        print_json({"results": results, **extra} if extra else
                   next(iter(results.values())) if len(results) == 1 else results)
        return
    for name, result in results.items():
        if len(results) > 1:
            print(f"== {name}")
        print(render(result))


MESSAGE_LIMIT = 500  # characters of an error message; values in it are cut to 80 already


def run_guarded(run, args) -> int:
    """Run a subcommand: every error becomes one line on stderr and exit code 2 (with
    ``--debug`` the traceback instead); a closed output pipe (``| head``) ends quietly
    with code 0; library warnings become one ``nerlens: warning:`` line each."""
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _show_warning
            code = run(args) or 0
            sys.stdout.flush()  # a closed pipe shows here, not at interpreter exit
        return code
    except BrokenPipeError:
        _discard_stdout()
        return 0
    except KeyboardInterrupt:
        print("nerlens: interrupted", file=sys.stderr)
        return 130
    except Exception as error:
        if args.debug:   # every subcommand has --debug (nerlens.cli.Command.fill)
            raise
        message = " ".join(describe(error).split("\n"))
        if len(message) > MESSAGE_LIMIT:
            message = message[:MESSAGE_LIMIT] + "... (cut; --debug shows all)"
        print(f"nerlens: error: {message}", file=sys.stderr)
        return 2


def describe(error: Exception) -> str:
    """One line for an exception: the message of an input error (``NerspanError`` is a
    ValueError), the file of an OSError."""
    if isinstance(error, OSError) and error.filename is not None:
        reason = {FileNotFoundError: "no such file", IsADirectoryError: "is a directory, "
                  "not a file", PermissionError: "permission denied"}.get(type(error))
        if error.strerror and error.errno and error.strerror != os.strerror(error.errno):
            reason = error.strerror   # the library's words (naming the dataset and run)
        return f"{error.filename}: {reason or error.strerror or error}"
    if isinstance(error, KeyError) and error.args:
        return str(error.args[0])
    if isinstance(error, (UsageError, ValueError, TypeError, OSError)):
        return str(error)
    return (f"internal error: {type(error).__name__}: {error} (run again with --debug for "
            "the traceback, and please report it)")


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    # a warning that names the API's options may carry its words with the flags
    print(f"nerlens: warning: {getattr(message, 'command_line', message)}", file=sys.stderr)


def _discard_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's last flush cannot fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass  # stdout is no real file (a test's capture)


def write_outputs(result, args, stem: str) -> None:
    """``STEM.json`` and ``STEM.html`` of a report or experiment into --output; prints
    the JSON (--format json) or the terminal summary."""
    output = Path(args.output)
    output.mkdir(parents=True, exist_ok=True)
    text = result.to_json(output / f"{stem}.json")
    result.to_html(output / f"{stem}.html")
    if args.format == "json":
        print(text)
    else:
        print(result.summary())
        print(f"\nwrote {output / (stem + '.json')} and {output / (stem + '.html')}",
              file=sys.stderr)
