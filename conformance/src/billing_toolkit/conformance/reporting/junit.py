"""JUnit XML, one <testcase> per check, so any CI shows the checks as tests."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from xml.etree import ElementTree

from billing_toolkit.conformance.outcome import Status
from billing_toolkit.conformance.reporting import reproduction
from billing_toolkit.conformance.runner import RunReport
from billing_toolkit.conformance.writes import describe, describe_totals

SUITE = "billing-contract"
NOT_RUN = (Status.SKIPPED, Status.NOT_EXERCISED)


def junit_document(report: RunReport, secrets: Mapping[str, str]) -> ElementTree.ElementTree:
    suite = ElementTree.Element(
        "testsuite",
        name=SUITE,
        tests=str(len(report.outcomes)),
        failures=str(sum(map(report.fails, report.outcomes))),
        skipped=str(sum(o.status in NOT_RUN and not report.fails(o) for o in report.outcomes)),
        errors="0",
    )
    properties = ElementTree.SubElement(suite, "properties")
    for name, value in (
        ("base_url", report.base_url),
        ("allow_writes", str(report.allow_writes).lower()),
        ("other_tenant", str(report.other_tenant).lower()),
        ("seed", str(report.seed)),
        ("writes", describe_totals(report.writes)),
    ):
        ElementTree.SubElement(properties, "property", name=name, value=value)
    for outcome in report.outcomes:
        case = ElementTree.SubElement(suite, "testcase", classname=SUITE, name=outcome.name)
        if outcome.status is Status.NOT_EXERCISED:
            # A failure under --require-all-rules, a skip otherwise; its own type either way.
            kind = "failure" if report.fails(outcome) else "skipped"
            ElementTree.SubElement(case, kind, type="not-exercised", message=outcome.summary)
        elif outcome.status is Status.SKIPPED:
            ElementTree.SubElement(case, "skipped", message=outcome.summary)
        elif outcome.status is Status.FAILED:
            failure = ElementTree.SubElement(case, "failure", message=outcome.summary)
            lines = [v.message for v in outcome.violations]
            curl = reproduction(outcome, secrets)
            if curl:
                lines += ["", "Reproduce:", curl]
            if outcome.remedy:
                lines += ["", "Fix: " + outcome.remedy]
            failure.text = "\n".join(lines)
    if report.writes:
        out = ElementTree.SubElement(suite, "system-out")
        out.text = "\n".join(["Writes made:", *(describe(write) for write in report.writes)])
    root = ElementTree.Element("testsuites")
    root.append(suite)
    return ElementTree.ElementTree(root)


def write_junit(path: Path, report: RunReport, secrets: Mapping[str, str]) -> None:
    tree = junit_document(report, secrets)
    ElementTree.indent(tree)
    tree.write(path, encoding="utf-8", xml_declaration=True)
