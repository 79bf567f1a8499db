"""Report formats: text, json, turtle (the raw SHACL report), github workflow commands, SARIF 2.1.0."""

from __future__ import annotations

import json

import jsonschema
import pytest
from rdflib import Graph, Namespace
from rdflib.namespace import RDF

from benchkg.checks.validate import Finding, Report, format_github
from conftest import FIXTURES, cli

SH = Namespace("http://www.w3.org/ns/shacl#")
SARIF_SCHEMA = json.loads((FIXTURES / "sarif" / "sarif-schema-2.1.0.json").read_text())


@pytest.fixture
def broken(data_copy):
    """A copy of data/ with one violation (an invented interconnect), the seed warning, and the four MLPerf
    v6.0 systems whose name or mix states another count (README: real cases)."""
    path = data_copy / "benchmarks" / "bench-mlperf-v6-1-coreweave-gb300-nvl72-qwen3-vl-server.json"
    record = json.loads(path.read_text())
    record["interconnect_ids"].append("nvlink-4")
    path.write_text(json.dumps(record, indent=2))
    return data_copy, path


def test_json_report(broken):
    data, path = broken
    result = cli("validate", "--format", "json", "--data", data)
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert doc["summary"]["violation"] == 1 and doc["summary"]["warning"] == 1 + 5  # 5 real cases in the seed
    violation = next(f for f in doc["findings"] if f["severity"] == "violation")
    assert violation["file"] == str(path) and violation["pointer"] == "/interconnect_ids/2"
    assert violation["shape"] == "fabric-present" and violation["line"] > 1


def test_turtle_report_is_the_shacl_validation_report(broken):
    data, _ = broken
    result = cli("validate", "--format", "turtle", "--data", data)
    report = Graph().parse(data=result.stdout, format="turtle")
    (node,) = report.subjects(RDF.type, SH.ValidationReport)
    assert str(report.value(node, SH.conforms)) == "false"
    severities = {str(report.value(r, SH.resultSeverity)) for r in report.subjects(RDF.type, SH.ValidationResult)}
    assert str(SH.Violation) in severities and str(SH.Warning) in severities


def test_github_annotations(broken):
    data, path = broken
    result = cli("validate", "--format", "github", "--data", data)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    error = next(l for l in lines if l.startswith("::error "))
    assert error.startswith(f"::error file={path},line=")
    assert ",title=fabric-present /interconnect_ids/2::nvlink-4 is present neither in this claim" in error
    assert any(l.startswith("::warning ") and "samples-times-tokens-agrees" in l for l in lines)
    assert any(l.startswith("::notice ") for l in lines)


def test_github_escaping():
    finding = Finding("data/a,b:c.json", 7, "/x", "violation", "s", "100% sure\nnext line\r", "benchmarks/a")
    line = format_github(Report([finding]))
    assert line == "::error file=data/a%2Cb%3Ac.json,line=7,title=s /x::100%25 sure%0Anext line%0D"


def test_sarif_validates_against_the_schema(broken):
    data, path = broken
    result = cli("validate", "--format", "sarif", "--data", data)
    doc = json.loads(result.stdout)
    jsonschema.validate(doc, SARIF_SCHEMA)
    results = doc["runs"][0]["results"]
    error = next(r for r in results if r["level"] == "error")
    assert error["ruleId"] == "fabric-present"
    assert error["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == str(path)
    rules = doc["runs"][0]["tool"]["driver"]["rules"]
    assert all(rules[r["ruleIndex"]]["id"] == r["ruleId"] for r in results)


def test_sarif_schema_rejects_a_broken_log():
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"version": "2.1.0", "runs": [{"results": []}]}, SARIF_SCHEMA)


def test_strict_fails_on_warnings_only_data(data_copy):
    assert cli("validate", "--data", data_copy).exit_code == 0
    assert cli("validate", "--strict", "--data", data_copy).exit_code == 1
