"""simkit serve without a browser: the page and its JSON endpoints, bad input in the command line's words, path
safety, a run played, stopped by the runner's own stop, resumed and reported as `simkit report` reports it, the
compile notice, a failure of the server in one line, and the command's address (simkit.serve)."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from simkit.analysis.report import summarise_dataset
from simkit.cli import app
from simkit.files.lock import DirectoryLock
from simkit.running import dataset as ds
from simkit.running import runner
from simkit.running.runner import compile_notice
from simkit.serve import live
from simkit.serve.server import POLICY, LiveServer, loopback, make_server


class Served:
    """A server of the page on a free port of 127.0.0.1 in a thread of this process, its runs in `workspace`."""

    def __init__(self, workspace: Path):
        self.workspace = workspace
        self.said: list[str] = []
        self.server: LiveServer = make_server(workspace, "127.0.0.1", 0, self.said.append)
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    def call(self, method: str, path: str, body=None, headers: dict | None = None) -> tuple[int, dict, dict]:
        """(status, the JSON answer, the headers) of a request; a JSON body is sent as JSON."""
        data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
        kind = {"Content-Type": "application/json"} if body is not None and not isinstance(body, bytes) else {}
        request = urllib.request.Request(
            self.server.url.rstrip("/") + path, data, {**kind, **(headers or {})}, method=method
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, json.loads(answer.read()), dict(answer.headers)
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read()), dict(e.headers)

    def play(self, **body) -> dict:
        status, answer, _ = self.call("POST", "/api/play", body)
        assert status == 200, answer
        return answer

    def until_done(self, timeout: float = 300) -> dict:
        """The status once the run no longer plays (a first run in a fresh process may compile random's kernels)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            _, status, _ = self.call("GET", "/api/status")
            if status["state"] not in live.RUNNING:
                return status
            time.sleep(0.05)
        raise AssertionError(f"the run still plays after {timeout} s: {status}")

    def close(self) -> None:
        self.server.shutdown()
        self.server.session.close()
        self.server.server_close()


@pytest.fixture
def served(tmp_path) -> Iterator[Served]:
    s = Served(tmp_path / "runs")
    yield s
    s.close()


def cli_error(*args: str) -> str:
    """The `error:` line of a `simkit run` that refuses its options, without its `error: `."""
    result = CliRunner().invoke(app, ["run", "--games", "10", "--quiet", *args])
    assert result.exit_code == 1, result.output
    (line,) = [x for x in result.output.splitlines() if x.startswith("error: ")]
    return line.removeprefix("error: ")


def test_the_page_carries_its_own_script_and_style_and_may_reach_this_server_only(served):
    with urllib.request.urlopen(served.server.url, timeout=30) as answer:
        page = answer.read().decode()
        assert answer.headers["Content-Security-Policy"] == POLICY
    assert "<script>" in page and "<style>" in page
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)  # nothing fetched from another site
    assert "connect-src 'self'" in POLICY and "default-src 'none'" in POLICY
    status, offer, _ = served.call("GET", "/api/form")
    assert status == 200 and {"players": 6, "teams": 3} in offer["tables"]
    assert "greedy" in [p["name"] for p in offer["players"]]
    assert {o["flag"] for o in offer["options"]} >= {"--late-card", "--reshuffle", "--layout"}
    assert served.call("GET", "/api/status")[1]["state"] == "idle"


@pytest.mark.parametrize(
    "options, policy, flags",
    [
        ({"players": "4", "teams": "3"}, "random", ["--players", "4", "--teams", "3"]),  # an illegal table
        ({"players": "2"}, "gredy", ["--policy", "gredy"]),  # a bad player
        ({"players": "2"}, "greedy:rollouts=3", ["--policy", "greedy:rollouts=3"]),  # a bad parameter
        ({"hand_size": "30"}, "random", ["--hand-size", "30"]),  # a bad rule option
        ({"late_card": "3", "handicap": "4"}, "random", ["--late-card", "3", "--handicap", "4"]),
    ],
)
def test_bad_input_gets_the_command_lines_error_line(served, options, policy, flags):
    status, answer, _ = served.call("POST", "/api/play", {"options": options, "policy": policy, "games": "10"})
    assert status == 400 and answer == {"error": cli_error(*flags)}
    assert not served.workspace.exists()  # refused before anything is written


def test_bad_input_of_the_pages_own_fields_gets_one_line(served):
    for body, said in [
        ({"games": "0"}, "--games must be at least 1, got 0"),
        ({"games": "many"}, "--games takes a whole number, got 'many'"),
        ({"options": {"reshuffle": "maybe"}}, "--reshuffle must be on or off, got 'maybe'"),
        ({"colour": "red"}, "unknown field 'colour'; a request has policy, games, seed, chunk_size, options"),
    ]:
        assert served.call("POST", "/api/play", body)[:2] == (400, {"error": said})
    status, answer, _ = served.call("POST", "/api/play", b"{not json", {"Content-Type": "application/json"})
    assert status == 400 and "JSON" in answer["error"]


def test_nothing_outside_the_run_folders_is_read_or_written(served, tmp_path, monkeypatch):
    (tmp_path / "secret.csv").write_text("not for the page\n")
    for path in ["/../secret.csv", "/%2e%2e/secret.csv", "/runs/", "/api/status/../../secret.csv", "/page.html"]:
        status, answer, _ = served.call("GET", path)
        assert status == 404 and "not a page" in answer["error"]
    assert served.call("PUT", "/api/play", {})[:2] == (
        405,
        {"error": "PUT /api/play is not a page of simkit serve; the page is /"},
    )
    board = {"options": {"layout": str(tmp_path / "secret.csv")}}  # a board's file: the command line's alone
    status, answer, _ = served.call("POST", "/api/play", board)
    assert status == 400 and answer["error"].startswith("--layout takes official, mirror or random:SEED")
    assert served.call("GET", "/api/status", headers={"Host": "attacker.example:80"})[0] == 403  # DNS rebinding
    assert served.call("POST", "/api/stop", b"{}", {"Content-Type": "text/plain"})[0] == 415  # a cross-site form
    monkeypatch.setattr(runner, "run_folder_name", lambda *args: "../escaped")
    status, answer, _ = served.call("POST", "/api/play", {"games": "10"})
    assert status == 400 and "would lie outside" in answer["error"]
    assert not (tmp_path / "escaped").exists() and not served.workspace.exists()


def test_a_failure_of_the_server_is_one_line_on_the_page_and_in_the_terminal(served, monkeypatch):
    def broken():
        raise KeyError("oops")

    monkeypatch.setattr(served.server.session, "status", broken)
    status, answer, _ = served.call("GET", "/api/status")
    assert status == 500 and answer == {"error": "the server failed (KeyError); the terminal of simkit serve says more"}
    assert served.said == ["error: GET /api/status failed: KeyError: 'oops'"]


def test_a_run_that_cannot_play_says_why_in_one_line_on_the_page_and_in_the_terminal(served, monkeypatch, capfd):
    folder = served.workspace / "default-2p-random"
    folder.mkdir(parents=True)
    with DirectoryLock(folder):  # another simkit command writes there: the runner's refusal, in its words
        served.play(games="10")
        locked = served.until_done()
    assert locked["state"] == "failed" and "is being written by another simkit command" in locked["error"]
    assert served.said[-1] == f"error: {locked['error']}"

    def broken(*args, **kwargs):
        raise RuntimeError("the disk is on fire")

    monkeypatch.setattr(live, "run", broken)
    served.play(games="10")
    failed = served.until_done()
    assert (failed["state"], failed["error"]) == ("failed", "the run failed (RuntimeError: the disk is on fire)")
    assert served.said[-1] == "error: the run failed (RuntimeError: the disk is on fire)"
    assert "Traceback" not in capfd.readouterr().err


def _report_json(folder: Path, *flags: str) -> dict:
    result = CliRunner().invoke(app, ["report", str(folder), "--format", "json", *flags])
    assert result.exit_code == 0, result.output
    (summary,) = json.loads(result.stdout[result.stdout.index("[") :])
    return summary


def test_a_run_stops_by_the_runners_stop_resumes_and_reports_as_simkit_report_does(served, monkeypatch):
    advanced = live.Watch.advanced

    def stop_after_the_first_part(self, games):  # Stop pressed once the first part's games are counted
        if self.job.played >= 4_000:
            self.job.stop_asked = True
        advanced(self, games)

    monkeypatch.setattr(live.Watch, "advanced", stop_after_the_first_part)
    body = {"options": {"players": "2"}, "policy": "random", "games": "40,000", "chunk_size": "4000"}
    assert served.play(**body)["run"]["folder"] == str(served.workspace / "default-2p-random")
    stopped = served.until_done()
    folder = served.workspace / "default-2p-random"  # simkit run's folder for this configuration
    assert stopped["state"] == "stopped" and stopped["games"]["on_disk"] == 4_000  # the part being written, whole
    assert sorted(p.name for p in folder.iterdir() if not p.name.startswith((".", "_"))) == [ds.part_name(0)]
    partial = _report_json(folder, "--allow-incomplete")
    assert partial["games"] == 4_000 and not stopped["report"]["whole"]
    assert (stopped["report"]["advantage"], stopped["report"]["low"], stopped["report"]["high"]) == (
        partial["first_mover"]["advantage"],
        partial["first_mover"]["advantage_ci_low"],
        partial["first_mover"]["advantage_ci_high"],
    )
    monkeypatch.setattr(live.Watch, "advanced", advanced)
    assert served.play(**body)["state"] in live.RUNNING  # play again: the same run resumes
    done = served.until_done()
    assert done["state"] == "finished" and done["games"]["on_disk"] == done["games"]["played"] == 40_000
    whole = _report_json(folder)
    assert whole["games"] == 40_000
    report, mover = done["report"], whole["first_mover"]
    assert report["whole"] and (report["advantage"], report["low"], report["high"]) == (
        mover["advantage"],
        mover["advantage_ci_low"],
        mover["advantage_ci_high"],
    )
    (summary,) = summarise_dataset(folder)
    assert done["edge"]["decided"] == summary.first_mover["decided"] == report["decided"]
    edge = done["edge"]
    assert edge["low"] < report["low"] < report["high"] < edge["high"]  # the sequence is the wider
    history = done["history"]  # [decided, advantage, low, high] along the way, from 100 decided games
    assert history[0][0] >= 100 and history[-1] == [edge["decided"], edge["advantage"], edge["low"], edge["high"]]
    assert [h[0] for h in history] == sorted({h[0] for h in history}) and len(history) > 50
    assert history[0][3] - history[0][2] > 5 * (edge["high"] - edge["low"])  # it narrows as the games come in
    assert [k["line"].split(":")[0] for k in done["fair"]["looks"]] == ["look 1 of 8"]  # 14,000 games: random's
    assert done["fair"]["verdict"].startswith("Not fair: team 0's edge")
    assert "called fair at most 5% of the time" in done["fair"]["errors"]
    assert done["run"]["command"].startswith("simkit run --games 40000 --policy random --seed 2026")
    assert (
        served.said[0].startswith("play: 40,000 games of 2 players") and "finished: 40,000 of 40,000" in served.said[-1]
    )


def test_the_compile_notice_shows_while_the_kernels_compile(tmp_path):
    session = live.Session(tmp_path / "runs")
    job = live.Job(live.form.read({"games": "10"}), tmp_path / "runs" / "x", lambda line: None)
    watch = live.Watch(job)
    watch.compiling("random")
    status = job.status()
    assert status["state"] == "compiling" and status["compile"]["text"] == compile_notice("random")
    assert not status["compile"]["done"]
    watch.compiled(12.4)
    assert job.status()["compile"] == {
        "text": "compiled in 12 s; they are cached for later runs",
        "seconds": 12.4,
        "done": True,
    }
    assert session.status() == {"state": "idle", "workspace": str(tmp_path / "runs")}


def test_it_listens_on_this_machine_only_unless_told_and_says_where():
    assert loopback("127.0.0.1") and loopback("localhost") and loopback("::1")
    assert not loopback("0.0.0.0") and not loopback("192.168.1.7")
    serving = subprocess.Popen(
        [sys.executable, "-m", "simkit", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = serving.stdout.readline() if serving.stdout else ""
        url = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert url and "this machine only" in line, line
        with urllib.request.urlopen(url.group(0) + "api/status", timeout=30) as answer:
            assert json.loads(answer.read())["state"] == "idle"
    finally:
        serving.send_signal(signal.SIGTERM)
        _, err = serving.communicate(timeout=60)
    assert serving.returncode == 143 and err.startswith("terminated (SIGTERM): every part on disk in runs is whole")
