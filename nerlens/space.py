"""The Gradio demo every ``metrics/<family>/app.py`` builds (one Hub Space per family).

Inputs are typed as text, one sentence per line with space-separated items: tokens,
reference tags, predicted tags, and for the methods that need them, training sentences
(``token/TAG`` items). The page shows what the report shows, for one system: the
sentences with gold and predicted mentions marked and each kind of error colored
(FairEval's kinds, named as the report's examples name them), the report's headline
table and the family's section of the report (its tables, human names, percent), and how
to get the full report. Nothing is downloaded: the report is computed here.

Gradio is the extra ``spaces`` of the distribution (``SPACES_INSTALL``); an app run
without it stops with that command, not a traceback.
"""
from __future__ import annotations

import html
import re
from typing import Callable, Mapping

from nerspan import as_train_index

from nerlens.families import get_family, registered
from nerlens.report import blocks, overview
from nerlens.report.build import build_report
from nerlens.report.page_kit import STYLE, escape
from nerlens.report.views import report_view

SYSTEM = "system"  # the one system's name in the report's tables
# what brings Gradio (setup.cfg's extra "spaces")
SPACES_INSTALL = 'pip install "nerlens[spaces]"'
CORRECT = ("TP", "correct mention")
# kind colors in the order of the kinds (then again): distinct at a glance, dark text reads
PALETTE = ("#ffc38a", "#fff07a", "#d9b8ff", "#ff9d9d", "#9fc5ff", "#bdf0f0")
CORRECT_COLOR = "#a8e6b6"
# nerlens has no home page yet (no package index either): the command, and the
# documentation page's section by its title
REPORT_HINT = ("The full report, with every method, bootstrap intervals, findings, figures "
               "and error examples, on your files: <code>pip install nerlens</code>, then "
               "<code>nerlens report gold.conll system.conll --train train.conll</code> "
               "(<code>nerlens report --demo</code> shows one); nerlens' documentation "
               "(docs/report.md) describes it under &ldquo;The report: every method in one "
               "pass&rdquo;.")


def parse_lines(text: str) -> list[list[str]]:
    """One sentence per non-empty line, items separated by spaces."""
    return [line.split() for line in (text or "").splitlines() if line.strip()]


def parse_tagged_lines(text: str) -> tuple[list[list[str]], list[list[str]]]:
    """``token/TAG`` items per line -> (tokens, tags); the last ``/`` separates the tag."""
    tokens, tags = [], []
    for line in parse_lines(text):
        pairs = [item.rsplit("/", 1) for item in line]
        if any(len(p) != 2 for p in pairs):
            raise ValueError(f"every training item must be token/TAG: {' '.join(line)!r}")
        tokens.append([p[0] for p in pairs])
        tags.append([p[1] for p in pairs])
    return tokens, tags


def scoped_style(style: str = STYLE, scope: str = ".nerlens-result") -> str:
    """The report's CSS with every rule limited to ``scope`` (a Space page is Gradio's, not
    ours); the ``body`` rule is left out.

    >>> scoped_style("body{margin:0}h1,th{color:red}")
    '.nerlens-result h1,.nerlens-result th{color:red}'
    """
    out = []
    for selectors, rule in re.findall(r"([^{}]+)\{([^{}]*)\}", style):
        names = [s.strip() for s in selectors.split(",") if s.strip() != "body"]
        if names:
            out.append(",".join(f"{scope} {s}" for s in names) + "{" + rule + "}")
    return "".join(out)


# Gradio's own table style outranks a class and an element: the cells' alignment and
# padding are the report's only with !important
SPACE_STYLE = scoped_style() + """
.nerlens-result td,.nerlens-result th{text-align:right!important;padding:.2em .55em!important}
.nerlens-result td:first-child,.nerlens-result th:first-child,.nerlens-result .text td{text-align:left!important}
.nerlens-result .sentence td,.nerlens-result .sentence th{text-align:center!important;padding:.15em .4em!important}
.nerlens-result .sentence th{font-weight:400;background:#fff}
.nerlens-result .sentence td.side{text-align:left!important;color:#555;font-size:.9em}
.nerlens-result .legend span{display:inline-block;padding:.1em .5em;margin:.1em .3em .1em 0;border:1px solid #ccc}
.nerlens-result{color:#222;font-size:15px}
"""


def report_of(family: str, references, predictions, tokens=None, train=None,
              options: Mapping | None = None):
    """The report of one system (``SYSTEM``) for the Space of ``family``. ``train``: ``(tokens,
    tags)`` of the training sentences, or None; ``options``: the family's score options
    (``scheme`` and ``mode`` among them are the report's)."""
    options = dict(options or {})
    decoding = {k: options.pop(k) for k in ("scheme", "mode") if k in options}
    tokens = shown_tokens(tokens, references)
    if train is not None:
        train = as_train_index(tuple(train), decoding.get("scheme", "IOB2"),
                               decoding.get("mode", "lenient"))
    return build_report(references, {SYSTEM: predictions}, train, tokens=tokens,
                        families=[family], bootstrap=0, figures=False,
                        options={family: options}, **decoding)


def mention_kinds(references, predictions, scheme: str = "IOB2", mode: str = "lenient"
                  ) -> tuple[dict, list]:
    """``(kinds, sentences)``: kind -> its name (correct first, then ``kinds_family()``'s
    error kinds) and, per sentence, ``(side, [type, start, end], kind)`` for every gold
    (side "gold") and predicted ("system") mention. Empty without such a family."""
    family = kinds_family()
    if family is None:
        return {}, [[] for _ in references]
    result = family.score(references, predictions, scheme=scheme, mode=mode,
                          options={"return_pairs": True}).to_dict()
    kinds = {CORRECT[0]: CORRECT[1], **family.examples.kinds}
    marks: list = [[] for _ in references]
    for kind, rows in family.examples.rows(result, SYSTEM, None).items():
        for row in rows:
            for side, key in (("gold", "gold"), ("system", "predicted")):
                if row.get(key):
                    marks[row["sentence"]].append((side, tuple(row[key]), kind))
    for sentence, events in enumerate(result.get("pairs") or []):
        for event in events:
            if event["type"] == CORRECT[0]:
                marks[sentence] += [("gold", tuple(event["target"]), CORRECT[0]),
                                    ("system", tuple(event["system"]), CORRECT[0])]
    return kinds, marks


def kinds_family():
    """The first registered family whose error kinds sort every mention, or None."""
    return next((f for f in registered().values()
                 if f.examples is not None and f.examples.classifies_mentions), None)


def colors(kinds) -> dict:
    """Kind -> background color: correct green, the errors from ``PALETTE`` in order."""
    errors = [k for k in kinds if k != CORRECT[0]]
    return {CORRECT[0]: CORRECT_COLOR,
            **{k: PALETTE[i % len(PALETTE)] for i, k in enumerate(errors)}}


def sentences_html(tokens, references, predictions, scheme="IOB2", mode="lenient") -> str:
    """Each sentence as a small table: its words, then the gold and the predicted mentions
    (type over the words they cover), colored by kind, with a legend."""
    kinds, marks = mention_kinds(references, predictions, scheme, mode)
    paint = colors(kinds)
    legend = "".join(f"<span style='background:{paint[k]}'>{escape(name)}</span>"
                     for k, name in kinds.items())
    parts = ["<p class='legend'>Gold mentions (first row under the words) and predicted "
             f"mentions (second row), colored by kind: {legend}</p>" if kinds else
             "<p class='note'>No error kinds: no installed family sorts mentions by kind of error.</p>"]
    for i, words in enumerate(tokens):
        head = "<th></th>" + "".join(f"<th>{escape(w)}</th>" for w in words)
        rows = [f"<tr>{head}</tr>"]
        for side, title in (("gold", "gold"), ("system", "predicted")):
            # one kind per mention: the first event that names it (a boundary error may
            # pair one gold mention with two predicted ones)
            spans: dict = {}
            for mark_side, span, kind in marks[i]:
                if mark_side == side:
                    spans.setdefault(span[1:], (span[0], kind))
            cells, at = [f"<td class='side'>{title}</td>"], 0
            for (start, end), (label, kind) in sorted(spans.items()):
                if start < at:  # overlapping mentions on one side: not from tags
                    continue
                cells += ["<td></td>"] * (start - at)
                cells.append(f"<td colspan='{end - start}' style='background:{paint[kind]}' "
                             f"title='{escape(kinds[kind])}'>{escape(label)}</td>")
                at = end
            cells += ["<td></td>"] * (len(words) - at)
            rows.append(f"<tr>{''.join(cells)}</tr>")
        parts.append(f"<div class='wide'><table class='sentence'>{''.join(rows)}</table></div>")
    return "".join(parts)


def result_page(family: str, references, predictions, tokens=None, train=None,
                options: Mapping | None = None) -> str:
    """The Space's result: the sentences, the headline table, the family's section."""
    report = report_of(family, references, predictions, tokens, train, options)
    descriptor = get_family(family)
    scheme, mode = report.info["scheme"], report.info["mode"]
    words = shown_tokens(tokens, references)
    section = blocks.html(descriptor.section(report_view(report, descriptor)), report) \
        if descriptor.section is not None else ""
    # the style travels with the result: Gradio 6 takes page CSS only at launch()
    return (f"<div class='nerlens-result'><style>{SPACE_STYLE}</style>"
            "<h2>Your sentences</h2>" + sentences_html(words, references, predictions, scheme,
                                                       mode)
            + "<h2>Headline statistics</h2>" + overview.headline(report)
            + f"<h2>{escape(descriptor.title)}</h2>" + section
            + "<p class='notes'>" + REPORT_HINT + "</p></div>")


def shown_tokens(tokens, references) -> list:
    """The words: those given, else (a family that needs none) the positions 1, 2, ..."""
    if tokens and any(tokens):
        return tokens
    return [[str(i + 1) for i in range(len(s))] for s in references]


def typed_inputs(given: Mapping, needs_train: bool) -> dict:
    """The text boxes' contents as ``result_page``'s arguments."""
    call = {"references": parse_lines(given.get("references")),
            "predictions": parse_lines(given.get("predictions")),
            "tokens": parse_lines(given.get("tokens")) or None}
    if needs_train:
        call["train"] = parse_tagged_lines(given.get("train"))
    return call


def gradio():
    """The ``gradio`` package. Without it, ``SystemExit`` with the command that installs
    it: an app is run as a script (``python metrics/faireval/app.py``), and one line
    saying what to install serves its user better than a traceback."""
    try:
        import gradio as gr
    except ModuleNotFoundError as error:
        if error.name != "gradio":   # gradio is there, something it needs is not
            raise
        raise SystemExit(f"this Space's app needs Gradio: {SPACES_INSTALL}") from None
    return gr


def build_demo(family: str, title: str, description: str, example: dict,
               options: dict | None = None, convert: Callable[[dict], dict] | None = None):
    """A ``gradio.Blocks`` app: text inputs, option widgets, a Compute button, the result
    page (``result_page``).

    ``options`` maps an option name to ``(choices, default, label)`` (dropdowns; the label
    says what it does in words, default: the name);
    ``convert`` turns the dropdowns' strings into the family's score options (default: as
    they are). ``example`` pre-fills the inputs. The returned app carries, for tests,
    ``example_report(chosen)`` (the report of the pre-filled example with the dropdowns'
    defaults updated by ``chosen``), ``example_result(chosen)`` (the family's result dict
    in it), ``example_page()`` (the page shown first) and ``family``.
    """
    gr = gradio()
    descriptor = get_family(family)
    options = options or {}
    convert = convert or dict
    with gr.Blocks(title=title) as demo:
        gr.Markdown(f"# {title}\n{description}")
        inputs = {}
        inputs["tokens"] = gr.Textbox(
            label="Tokens (one sentence per line)" if descriptor.needs_tokens
            else "Tokens (one sentence per line; optional)",
            value=example.get("tokens", ""), lines=4)
        inputs["references"] = gr.Textbox(label="Reference tags (one sentence per line)",
                                          value=example.get("references", ""), lines=4)
        inputs["predictions"] = gr.Textbox(label="Predicted tags (one sentence per line)",
                                           value=example.get("predictions", ""), lines=4)
        if descriptor.needs_train:
            inputs["train"] = gr.Textbox(label="Training sentences (token/TAG items)",
                                         value=example.get("train", ""), lines=4)
        widgets = {name: gr.Dropdown(choices=list(spec[0]), value=spec[1],
                                     label=spec[2] if len(spec) > 2 else name)
                   for name, spec in options.items()}
        button = gr.Button("Compute", variant="primary")
        output = gr.HTML(label="Result")

        names = list(inputs) + list(widgets)

        def arguments(given: dict) -> dict:
            return typed_inputs(given, descriptor.needs_train)

        def run(*values):
            given = dict(zip(names, values))
            chosen = convert({k: given.pop(k) for k in list(widgets)})
            try:
                return result_page(family, **arguments(given), options=chosen)
            except (ValueError, TypeError, KeyError) as error:
                return (f"<div class='nerlens-result nerlens-error'><b>Error:</b> "
                        f"{html.escape(str(error))}</div>")

        button.click(run, inputs=[*inputs.values(), *widgets.values()], outputs=output)
        demo.load(run, inputs=[*inputs.values(), *widgets.values()], outputs=output)
    defaults = {name: spec[1] for name, spec in options.items()}

    def example_report(chosen: Mapping | None = None):
        """The report of the pre-filled example, with the dropdowns ``chosen`` (default:
        their defaults)."""
        return report_of(family, **arguments(example),
                         options=convert({**defaults, **(chosen or {})}))

    demo.example_report = example_report
    demo.example_result = lambda chosen=None: example_report(chosen).results[SYSTEM][family]
    demo.example_page = lambda: run(*[example.get(n, "") for n in inputs],
                                    *[defaults[n] for n in widgets])
    demo.family = family
    return demo
