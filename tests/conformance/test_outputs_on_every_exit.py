"""JUnit XML and the report are written on every exit, exit 2 included, so CI finds them.

A run that cannot start (bad settings, an unreachable API, something that is not the
billing API) still writes both files, with the error as one failed case named `run`.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from xml.etree import ElementTree

import pytest

from billing_toolkit.conformance.cli import main
from billing_toolkit.contract.cli import EXIT_USAGE
from tests.conformance.test_cli_errors import closed_port_url

ACCOUNT = ["--account-number", "1000004821"]


class _WebPage(BaseHTTPRequestHandler):
    """A web server's welcome page for every path: what a wrong --base-url often reaches."""

    def do_GET(self) -> None:
        body = b"<!doctype html><html><body>It works!</body></html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def web_page() -> Iterator[str]:
    """A loopback HTTP server answering every GET with an HTML page."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _WebPage)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def outputs(tmp_path: Path) -> tuple[Path, Path, list[str]]:
    junit, report = tmp_path / "conformance.xml", tmp_path / "conformance.json"
    return junit, report, ["--junit-xml", str(junit), "--report", str(report)]


def assert_run_failed_with(junit: Path, report: Path, message: str) -> None:
    suite = ElementTree.parse(junit).getroot().find("testsuite")
    assert suite is not None and suite.get("failures") == "1"
    failure = suite.find("testcase[@name='run']/failure")
    assert failure is not None and message in (failure.get("message") or "")
    document = json.loads(report.read_text())
    assert document["passed"] is False and document["writes"] == []
    assert [(c["name"], c["status"]) for c in document["checks"]] == [("run", "failed")]
    assert message in document["checks"][0]["summary"]


def test_not_the_billing_api_is_exit_2_with_both_files(
    web_page: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    junit, report, files = outputs(tmp_path)
    code = main(["verify", "--base-url", web_page, "--api-key", "k", *ACCOUNT, *files])
    err = capsys.readouterr().err
    seen = "GET /v1/customers/10******21 answered 200 text/html"
    assert code == EXIT_USAGE and err.count("\n") == 1
    assert seen in err and "this does not look like the billing API" in err
    assert_run_failed_with(junit, report, seen)


def test_unreachable_api_still_writes_both_files(tmp_path: Path) -> None:
    junit, report, files = outputs(tmp_path)
    base = ["verify", "--base-url", closed_port_url(), "--api-key", "k", *ACCOUNT]
    assert main([*base, *files]) == EXIT_USAGE
    assert_run_failed_with(junit, report, "cannot reach the API")


def test_bad_settings_still_write_both_files(tmp_path: Path) -> None:
    junit, report, files = outputs(tmp_path)
    argv = ["verify", "--base-url", "http://127.0.0.1:9", "--api-key", "k", *ACCOUNT]
    assert main([*argv, "--max-examples", "many", *files]) == EXIT_USAGE
    assert_run_failed_with(junit, report, "--max-examples must be a whole number")


def test_a_bad_settings_file_still_writes_the_files_it_names(tmp_path: Path) -> None:
    junit, markdown = tmp_path / "c.xml", tmp_path / "c.md"
    config = tmp_path / "conformance.yaml"
    config.write_text(
        f"junit_xml: {junit}\nreport: {markdown}\nallow_writes: 'false'\n", encoding="utf-8"
    )
    argv = ["verify", "--base-url", "http://127.0.0.1:9", "--api-key", "k", *ACCOUNT]
    assert main([*argv, "--config", str(config)]) == EXIT_USAGE
    case = ElementTree.parse(junit).getroot().find(".//testcase[@name='run']/failure")
    assert case is not None and "allow_writes must be true or false" in (case.get("message") or "")
    text = markdown.read_text()
    assert text.startswith("# Billing contract conformance: FAILED") and "## run" in text


def test_one_bad_output_path_does_not_cost_the_other(tmp_path: Path) -> None:
    junit = tmp_path / "c.xml"
    argv = ["verify", "--base-url", "http://127.0.0.1:9", "--api-key", "k", *ACCOUNT]
    assert main([*argv, "--junit-xml", str(junit), "--report", "out.pdf"]) == EXIT_USAGE
    case = ElementTree.parse(junit).getroot().find(".//testcase[@name='run']/failure")
    assert case is not None and "must end in .json or .md" in (case.get("message") or "")


def test_an_unusable_report_never_shows_credentials_of_the_url(tmp_path: Path) -> None:
    junit, report, files = outputs(tmp_path)
    argv = ["verify", "--base-url", "http://user:hunter2@h.test", "--api-key", "k", *ACCOUNT]
    assert main([*argv, *files]) == EXIT_USAGE
    assert "hunter2" not in junit.read_text() + report.read_text()
    assert json.loads(report.read_text())["base_url"] == "http://h.test"
