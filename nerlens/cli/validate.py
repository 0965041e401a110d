"""``nerlens validate``: every invalid transition of a tag file, as seqscore's validate."""
from __future__ import annotations

from dataclasses import replace

from nerspan.tagfiles import TAGS, TagFile
from nerspan.type_processing import relabel_tags
from nerspan.validation import validate

from .common import print_json
from .options import type_processing
from .tag_files import add_tool_arguments, command_hints, file_options, input_files


def add_arguments(parser) -> None:
    add_tool_arguments(parser, repair=False)


def run(args) -> int:
    processing = type_processing(args)
    results = []
    for path in input_files(args):
        file = TagFile(path, **file_options(args))
        with command_hints(args, args.scheme):
            corpus = file.read()
            if processing is not None:  # the tags as they read once renamed: no mentions yet
                corpus = relabel_tags(corpus, TAGS, processing)
            found = validate(corpus, args.scheme, column=TAGS)
        # named as the file's: which column, and the others holding tags of its types
        found = replace(found, path=path, documents=file.documents(corpus),
                        tag_column=file.column, other_tag_columns=file.other_tag_columns())
        results.append({**found.to_dict(), "messages": found.messages(),
                        "note": found.column_note()})
    valid = all(result["valid"] for result in results)
    if args.format == "json":
        for result in results:
            del result["messages"], result["note"]
        print_json(results[0] if len(results) == 1 else {"valid": valid, "files": results})
    else:
        for result in results:
            for message in result["messages"]:
                print(message)
            print(f"{result['file']}: {_summary(result)}")
            if result["note"]:
                print(f"{result['file']}: {result['note']}")
    return 0 if valid else 1


def _summary(result: dict) -> str:
    size = (f"{result['documents']} document(s), {result['sentences']} sentence(s), "
            f"{result['tokens']} token(s)")
    if result["valid"]:
        return f"valid {result['scheme']} ({size})"
    return f"{result['problems']} problem(s) under {result['scheme']} ({size})"
