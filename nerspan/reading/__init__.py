"""Reading every input form: one package that the API, the command line, the report, the
experiment and the evaluate modules call, and nothing else decides what form an input is.

- ``forms``: the in-memory forms (tag lists, label ids, Arrow arrays, ``datasets``
  splits, span lists, a ``Corpus``; generated output registers itself), the one
  dispatcher, ``read_input``;
- ``columns``: column files (CoNLL and the like), ``read_columns``;
- ``span_lists``: span lists in every layout, and JSON Lines span files;
- ``generated``: JSON Lines files of generated output;
- ``systems``: GOLD and the systems' files as one corpus (``read_systems``);
- ``training``: training data in any form (a file: ``read_training_file``), indexed once
  (``as_train_index``).
"""
import importlib

# name -> the module that holds it, imported when first asked for: the modules below the
# reader (``tagfiles``, ``counts``) import ``columns`` alone
_WHERE = {"read_columns": "columns", "read_system_file": "columns", "from_spans": "span_lists",
          "read_span_jsonl": "span_lists", "read_generated_jsonl": "generated",
          "FORMS": "forms", "InputForm": "forms", "Reading": "forms", "input_form": "forms",
          "read_input": "forms", "register_form": "forms", "as_train_index": "training",
          "read_training_file": "training", "read_training_index": "training",
          "read_systems": "systems"}


# old name -> its new spelling (``nerspan.migration.moved_names``' words: that module
# imports the readers, so it cannot be imported here)
_MOVED = {"read_training": "nerspan.reading.read_training_file"}


def __getattr__(name: str):
    if name in _MOVED:
        raise AttributeError(f"{__name__}.{name} is {_MOVED[name]} since nerlens 0.2")
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)


__all__ = list(_WHERE)
