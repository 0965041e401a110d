"""The Gradio demo every ``metrics/<family>/app.py`` builds (one Hub Space per family).

Inputs are typed as text, one sentence per line with space-separated items: tokens,
reference tags, predicted tags, and for the methods that need them, training sentences
(``token/TAG`` items). The result is shown as HTML tables, never as a raw dict.
"""
from __future__ import annotations

import html
from typing import Callable


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


def _cell(value) -> str:
    if isinstance(value, float):
        return f"{value:.4f}"
    if value is None:
        return "–"
    return html.escape(str(value))


def _table(title: str, header: list[str], rows: list[list]) -> str:
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{_cell(v)}</td>" for v in row) + "</tr>" for row in rows)
    return (f"<h3>{html.escape(title)}</h3><table class='nerlens-table'>"
            f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")


def result_to_html(result: dict, headline: str | None = None) -> str:
    """Scalars in one table (``headline`` first); each nested mapping in a table of its own."""
    scalars = [[k, v] for k, v in result.items() if not isinstance(v, (dict, list))]
    scalars.sort(key=lambda row: row[0] != headline)
    parts = [_table("Scores", ["key", "value"], scalars)] if scalars else []
    for key, value in result.items():
        if isinstance(value, dict) and value:
            inner = list(value.values())
            if all(isinstance(v, dict) for v in inner):
                columns = []
                for v in inner:
                    columns += [c for c in v if c not in columns and not isinstance(v[c], (dict, list))]
                rows = [[name] + [v.get(c) for c in columns] for name, v in value.items()]
                parts.append(_table(key, [""] + columns, rows))
            else:
                parts.append(_table(key, ["key", "value"],
                                    [[k, v] for k, v in value.items() if not isinstance(v, (dict, list))]))
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            columns = list(value[0])
            parts.append(_table(key, columns, [[v.get(c) for c in columns] for v in value]))
    return "\n".join(parts)


def build_demo(title: str, description: str, compute: Callable[..., dict],
               example: dict, needs_tokens: bool = True, needs_train: bool = True,
               options: dict | None = None, headline: str | None = None):
    """A ``gradio.Blocks`` app: text inputs, option widgets, a Compute button, HTML tables.

    ``compute(references=, predictions=, tokens=, train_tokens=, train_tags=, **options)``
    returns the metric's result dict. ``options`` maps an option name to a tuple
    ``(choices, default)``; ``example`` pre-fills the inputs. ``headline`` names the result
    key shown first. The returned app carries ``example_result()`` (the result of the
    pre-filled example with default options) and ``headline`` so tests can check the page.
    """
    import gradio as gr

    options = options or {}
    with gr.Blocks(title=title) as demo:
        gr.Markdown(f"# {title}\n{description}")
        inputs = {}
        if needs_tokens:
            inputs["tokens"] = gr.Textbox(label="Tokens (one sentence per line)",
                                          value=example.get("tokens", ""), lines=4)
        inputs["references"] = gr.Textbox(label="Reference tags (one sentence per line)",
                                          value=example.get("references", ""), lines=4)
        inputs["predictions"] = gr.Textbox(label="Predicted tags (one sentence per line)",
                                           value=example.get("predictions", ""), lines=4)
        if needs_train:
            inputs["train"] = gr.Textbox(label="Training sentences (token/TAG items)",
                                         value=example.get("train", ""), lines=4)
        widgets = {name: gr.Dropdown(choices=list(choices), value=default, label=name)
                   for name, (choices, default) in options.items()}
        button = gr.Button("Compute", variant="primary")
        output = gr.HTML(label="Result")

        names = list(inputs) + list(widgets)

        def arguments(given: dict) -> dict:
            call = {"references": parse_lines(given.get("references")),
                    "predictions": parse_lines(given.get("predictions"))}
            if needs_tokens:
                call["tokens"] = parse_lines(given.get("tokens"))
            if needs_train:
                call["train_tokens"], call["train_tags"] = parse_tagged_lines(given.get("train"))
            return call

        def run(*values):
            given = dict(zip(names, values))
            kwargs = {k: given.pop(k) for k in list(widgets)}
            try:
                result = compute(**arguments(given), **kwargs)
                return f"<div class='nerlens-result'>{result_to_html(result, headline)}</div>"
            except (ValueError, TypeError, KeyError) as error:
                return (f"<div class='nerlens-result nerlens-error'><b>Error:</b> "
                        f"{html.escape(str(error))}</div>")

        button.click(run, inputs=[*inputs.values(), *widgets.values()], outputs=output)
        demo.load(run, inputs=[*inputs.values(), *widgets.values()], outputs=output)
    defaults = {name: default for name, (_, default) in options.items()}
    demo.example_result = lambda: compute(**arguments(example), **defaults)
    demo.headline = headline
    return demo
