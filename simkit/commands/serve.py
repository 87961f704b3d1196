"""`simkit serve`: a live page on this machine to play a run and watch the first player's edge."""

from __future__ import annotations

import errno
from pathlib import Path
from typing import Annotated

import typer

from simkit.commands.errors import user_errors
from simkit.commands.options import Threads
from simkit.commands.output import err_console, out_console
from simkit.commands.stopping import say_stopped, stop_signals
from simkit.game import defaults

LOCAL = "127.0.0.1"
PORT = 8765


def serve(
    host: Annotated[
        str,
        typer.Option(
            "--host",
            help="The address to listen on; default 127.0.0.1, this machine only. 0.0.0.0 opens the page to "
            "every machine that can reach this one: anyone there can play runs into --out.",
        ),
    ] = LOCAL,
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="The port; 0 picks a free one.")] = PORT,
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            "-o",
            help="The folder of the page's runs, each in a folder of its own named as `simkit run` names it "
            "(runs/default-2p-random, runs/p4t2-greedy); the page reads and writes nothing else.",
        ),
    ] = Path(defaults.WORKSPACE),
    threads: Threads = None,
) -> None:
    """Open a live page: pick a table, rule options and players, press play, and watch the games and the first
    player's edge with an interval valid whenever you stop (a confidence sequence), the looks of simkit fair's
    sequential test, then simkit report's estimate. Each run is a run of `simkit run` in --out: play again
    after a stop and it resumes."""
    from simkit.game.play import set_threads
    from simkit.serve.server import loopback, make_server
    from simkit.studies.fair import check_out

    def say(line: str) -> None:
        err_console.print(line, highlight=False)

    with user_errors():
        check_out(out)
        set_threads(threads)
        try:
            server = make_server(out, host, port, say)
        except OSError as e:
            hint = "; --port 0 picks a free port" if e.errno == errno.EADDRINUSE else ""
            raise ValueError(f"cannot listen on {host}:{port}: {e.strerror or e}{hint}") from None
    where = "this machine only" if loopback(host) else "open to the network: anyone who reaches this machine can play"
    out_console.print(
        f"simkit serve: open {server.url} ({where}); runs go to {out}/; Ctrl-C stops", highlight=False, soft_wrap=True
    )
    with stop_signals() as heard:
        try:
            server.serve_forever(poll_interval=0.2)
        except KeyboardInterrupt:
            pass
        finally:
            server.session.close()
            server.server_close()
    say_stopped(heard, f"every part on disk in {out} is whole; press play on the page again to resume a run")
