"""The report with other gold versions (``gold_alt``, ``--gold-alt NAME=FILE``): the
library's numbers (``nerspan.audit``) in report.json, a finding, two sections on the
page; nothing of it without another version; bad input as one line."""
from __future__ import annotations

import json
import re

import pytest

import nerlens
from nerspan import Corpus, Evaluation, as_train_index, decode
from nerspan.audit import corrections_found, diff, score_golds, suspects
from nerlens.cli import main

from .test_audit_cli import A, B, SYSTEMS, WORDS, write

TRAIN = as_train_index(([WORDS[0]], [A[0]]))


@pytest.fixture(scope="module")
def audited():
    return nerlens.build_report(A, SYSTEMS, train=TRAIN, tokens=WORDS, gold_alt={"fixed": B},
                                bootstrap=50, seed=3, figures=False)


def test_the_report_holds_the_library_s_numbers(audited):
    corpus = nerlens.read_systems(A, {**SYSTEMS, "fixed": B}, inputs={"tokens": WORDS})[0]
    context = Evaluation(corpus, train=TRAIN)
    systems = {name: context.spans(name) for name in SYSTEMS}
    golds = score_golds({"gold": context.gold, "fixed": context.spans("fixed")}, systems,
                        bootstrap=50, seed=3).to_dict()
    audit = json.loads(audited.to_json())["audit"]
    assert audit["golds"] == json.loads(json.dumps(golds))
    ranked = suspects(context.gold, systems, corpus=corpus, train=TRAIN)
    assert audit["suspects"]["suspects"] == json.loads(json.dumps(ranked.to_dict()["suspects"]))
    correction = diff(A, B, tokens=WORDS)
    assert audit["diffs"]["fixed"]["kinds"] == correction.kinds()
    assert audit["found"]["fixed"] == json.loads(json.dumps(
        corrections_found(ranked, correction, (100, 500, 1000))))
    # the report's own entity F1 is the audit's F1 under the gold
    for name in SYSTEMS:
        assert audited.estimates[name]["entity_f1"] == pytest.approx(
            golds["scores"][name]["gold"]["f1"])


def test_a_finding_and_two_sections_say_it(audited):
    found = [f for f in audited.findings if f["rule"] == "gold_versions"]
    assert len(found) == 1 and "Under gold version fixed" in found[0]["text"]
    against = audited.audit["golds"]["against"]["fixed"]
    assert f"{against['tau']:.2f}" in found[0]["text"]
    page = audited.to_html()
    assert "id='gold-versions'" in page and "id='suspects'" in page
    for system in SYSTEMS:
        assert system in page.split("id='gold-versions'")[1].split("</section>")[0]
    first = audited.audit["suspects"]["suspects"][0]
    assert f"sentence {first['sentence']}:" in page.split("id='suspects'")[1]
    assert audited.audit["golds"]["golds"] == ["gold", "fixed"]


def test_one_system_under_another_version_has_no_ranking_to_compare():
    """Kendall's tau of one system's ranking is undefined (None): the finding and the
    page say so rather than fail to format it."""
    one = {"one": SYSTEMS["one"]}
    report = nerlens.build_report(A, one, train=TRAIN, tokens=WORDS, gold_alt={"fixed": B},
                                  bootstrap=0, figures=False)
    assert report.audit["golds"]["against"]["fixed"]["tau"] is None
    found = [f for f in report.findings if f["rule"] == "gold_versions"]
    assert len(found) == 1 and "tau-a of the rankings undefined (one system" in found[0]["text"]
    section = report.to_html().split("id='gold-versions'")[1].split("</section>")[0]
    assert "tau-a of the two rankings: undefined (one system" in section


def test_without_another_version_the_report_is_as_before():
    plain = nerlens.build_report(A, SYSTEMS, train=TRAIN, tokens=WORDS, bootstrap=0,
                                 figures=False)
    assert "audit" not in plain.to_dict() and plain.audit == {}
    assert "id='gold-versions'" not in plain.to_html()
    assert not [f for f in plain.findings if f["rule"] == "gold_versions"]


def test_gold_alt_names_read_columns_and_refuse_unknown_ones():
    corpus, names = nerlens.read_systems(A, {**SYSTEMS, "fixed": B}, inputs={"tokens": WORDS})
    report = nerlens.build_report(corpus=corpus, system_names=list(SYSTEMS), train=TRAIN,
                                  gold_alt_names=["fixed"], bootstrap=0, figures=False)
    assert report.audit["golds"]["golds"] == ["gold", "fixed"]
    with pytest.raises(ValueError, match=r"gold_alt_names: \['nope'\] name no column"):
        nerlens.build_report(corpus=corpus, system_names=list(SYSTEMS), train=TRAIN,
                             gold_alt_names=["nope"], bootstrap=0, figures=False)


def run(capsys, argv):
    try:
        code = main([str(a) for a in argv])
    except SystemExit as usage:
        code = usage.code
    out, err = capsys.readouterr()
    return code, out, err


def test_the_command_line_writes_the_audit(tmp_path, capsys):
    gold, fixed = write(tmp_path / "gold.txt", A), write(tmp_path / "fixed.txt", B)
    train = write(tmp_path / "train.txt", [A[0]], [WORDS[0]])
    preds = [write(tmp_path / f"{name}.txt", tags) for name, tags in SYSTEMS.items()]
    code, out, err = run(capsys, ["report", gold, *preds, "--train", train, "--gold-alt",
                                  f"fixed={fixed}", "--output", tmp_path / "out",
                                  "--bootstrap", "20"])
    assert code == 0, err
    assert "Under gold version fixed" in out
    written = json.loads((tmp_path / "out" / "report.json").read_text())
    assert written["audit"]["golds"]["golds"] == ["gold", "fixed"]
    assert written["info"]["provenance"]["inputs"]["gold_alt"] == {"fixed": fixed}


BAD = {
    "syntax": (["--gold-alt", "fixed"], r"argument --gold-alt: expected NAME=FILE"),
    "twice": (["--gold-alt", "x={fixed}", "--gold-alt", "x={fixed}"],
              r"--gold-alt x=...: the name 'x' is given twice"),
    "missing": (["--gold-alt", "x={fixed}x"], r"fixed.txtx: no such file"),
    "token_mismatch": (["--gold-alt", "x={shifted}"],
                       r"shifted.txt:1, sentence 0: token 'Eva' differs from 'Ana'"),
    "gold_name": (["--gold-alt", "gold={fixed}"],
                  r"--gold-alt gold=...: 'gold' names the gold already: name the gold "
                  r"version apart"),
    "system_name": (["--gold-alt", "one={fixed}"], r"'one' names a system already"),
    "bad_tag": (["--gold-alt", "x={bad_tag}"],
                r"bad_tag.txt:1, sentence 0: gold version 'x' tag 'Q-PER' is not a tag"),
    "demo": (["--demo", "--gold-alt", "x={fixed}"], r"--demo scores the embedded demo; "
                                                    r"--gold-alt would be ignored"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_gold_versions_are_one_line(case, tmp_path, capsys):
    files = {"fixed": write(tmp_path / "fixed.txt", B),
             "shifted": write(tmp_path / "shifted.txt", B, [["Eva"] + WORDS[0][1:]] + WORDS[1:]),
             "bad_tag": write(tmp_path / "bad_tag.txt", [["Q-PER"] + B[0][1:]] + B[1:])}
    flags, pattern = BAD[case]
    files_given = [] if case == "demo" else [write(tmp_path / "gold.txt", A),
                                             write(tmp_path / "one.txt", SYSTEMS["one"])]
    code, out, err = run(capsys, ["report", *files_given, *[f.format(**files) for f in flags],
                                  "--output", tmp_path / "out", "--families", "faireval"])
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert re.search(pattern, err), err


def test_an_experiment_takes_gold_versions_per_dataset():
    runs = {"one": [SYSTEMS["one"], SYSTEMS["two"]], "two": SYSTEMS["two"]}
    result = nerlens.run_experiment(
        {"d": {"gold": A, "tokens": WORDS, "train": TRAIN, "systems": runs,
               "gold_alt": {"fixed": B}},
         "plain": {"gold": A, "tokens": WORDS, "train": TRAIN, "systems": runs}},
        bootstrap=0, figures=False)
    audit = result.reports["d"].audit
    assert audit["golds"]["golds"] == ["gold", "fixed"]
    assert audit["golds"]["systems"] == result.runs["d"]["one"] + result.runs["d"]["two"]
    assert result.reports["plain"].audit == {}
    page = result.to_html()
    assert "id='d1-gold-versions'" in page and "id='d2-gold-versions'" not in page
    assert json.loads(result.to_json())["datasets"]["d"]["audit"]["golds"]["golds"] == \
        ["gold", "fixed"]


def test_without_documents_the_suspects_rank_on_the_rest_and_say_so(audited):
    """No document boundaries: the ranking is the library's on the other evidence, and
    the section and report.json say the document evidence was not used."""
    unavailable = audited.audit["unavailable"]
    assert list(unavailable) == ["document"] and "no document boundaries" in \
        unavailable["document"]
    assert audited.audit["suspects"]["options"]["documents"] is False
    section = audited.to_html().split("id='suspects'")[1].split("</section>")[0]
    assert "Not available: document evidence" in section
    # given the documents, the document evidence ranks too and nothing is missing
    documents = [0, 0, 1]
    with_documents = nerlens.build_report(A, SYSTEMS, train=TRAIN, tokens=WORDS,
                                          gold_alt={"fixed": B}, bootstrap=0,
                                          figures=False, documents=documents)
    assert with_documents.audit["unavailable"] == {}
    assert with_documents.audit["suspects"]["options"]["documents"] is True
    corpus = nerlens.read_systems(A, {**SYSTEMS, "fixed": B}, inputs={"tokens": WORDS})[0]
    context = Evaluation(corpus, train=TRAIN)
    systems = {name: context.spans(name) for name in SYSTEMS}
    ranked = suspects(context.gold, systems, corpus=corpus, train=TRAIN, documents=documents)
    assert with_documents.audit["suspects"]["suspects"] == \
        json.loads(json.dumps(ranked.to_dict()["suspects"]))
    assert "Not available" not in with_documents.to_html().split("id='suspects'")[1]


def test_the_command_line_passes_gold_s_documents(tmp_path, capsys):
    """GOLD with -DOCSTART- rows: the report's suspects read the documents (the library's
    suspects with ``documents``); without them the audit says that evidence was not used."""
    plain_gold, fixed = write(tmp_path / "gold.txt", A), write(tmp_path / "fixed.txt", B)
    body = open(plain_gold, encoding="utf-8").read().split("\n\n")
    gold = tmp_path / "docs.txt"
    gold.write_text("-DOCSTART- O\n\n" + body[0] + "\n\n-DOCSTART- O\n\n"
                    + "\n\n".join(body[1:]), encoding="utf-8")
    train = write(tmp_path / "train.txt", [A[0]], [WORDS[0]])
    preds = [write(tmp_path / f"{name}.txt", tags) for name, tags in SYSTEMS.items()]
    audits = {}
    for name, path in (("docs", gold), ("plain", plain_gold)):
        code, _, err = run(capsys, ["report", path, *preds, "--train", train, "--gold-alt",
                                    f"fixed={fixed}", "--output", tmp_path / name,
                                    "--bootstrap", "0", "--no-progress"])
        assert code == 0, err
        audits[name] = json.loads((tmp_path / name / "report.json").read_text())["audit"]
    corpus = nerlens.read_systems(A, SYSTEMS, inputs={"tokens": WORDS})[0]
    context = Evaluation(corpus, train=as_train_index(([WORDS[0]], [A[0]])))
    ranked = suspects(context.gold, {name: context.spans(name) for name in SYSTEMS},
                      corpus=corpus, train=TRAIN, documents=[0, 1, 1])
    assert audits["docs"]["suspects"]["suspects"] == \
        json.loads(json.dumps(ranked.to_dict()["suspects"]))
    assert audits["docs"]["suspects"]["options"]["documents"] is True
    assert "document" not in audits["docs"].get("unavailable", {})
    assert "-DOCSTART-" in audits["plain"]["unavailable"]["document"]
    assert audits["plain"]["suspects"]["options"]["documents"] is False


def write_spans(path, tags, with_tokens: bool = False) -> str:
    """A JSON Lines span file of the mentions of ``tags`` (WORDS' sentences)."""
    corpus = Corpus.from_tags(tags, tokens=WORDS)
    rows = decode(corpus).to_list(corpus)
    path.write_text("".join(json.dumps({**({"tokens": words} if with_tokens else {}),
                                        "spans": [[s[1], s[2], s[0]] for s in row]}) + "\n"
                            for words, row in zip(WORDS, rows)), encoding="utf-8")
    return str(path)


def test_gold_versions_as_span_files_with_jsonl(tmp_path, capsys):
    """--jsonl: --gold-alt files are span files, read as GOLD is; the audit is the one of
    the same annotations as column files."""
    train = write(tmp_path / "train.txt", [A[0]], [WORDS[0]])
    forms = {"columns": ([write(tmp_path / "gold.txt", A), write(tmp_path / "fixed.txt", B)]
                         + [write(tmp_path / f"{n}.txt", t) for n, t in SYSTEMS.items()], []),
             "spans": ([write_spans(tmp_path / "gold.jsonl", A, True),
                        write_spans(tmp_path / "fixed.jsonl", B)]
                       + [write_spans(tmp_path / f"{n}.jsonl", t) for n, t in SYSTEMS.items()],
                       ["--jsonl"])}
    audits = {}
    for form, ((gold, fixed, *preds), flags) in forms.items():
        code, _, err = run(capsys, ["report", gold, *preds, "--train", train, "--gold-alt",
                                    f"fixed={fixed}", "--output", tmp_path / form,
                                    "--bootstrap", "0", "--no-progress", *flags])
        assert code == 0, err
        audits[form] = json.loads((tmp_path / form / "report.json").read_text())["audit"]
    assert audits["spans"]["golds"] == audits["columns"]["golds"]
    assert audits["spans"]["suspects"]["suspects"] == audits["columns"]["suspects"]["suspects"]
    assert audits["spans"]["diffs"] == audits["columns"]["diffs"]
