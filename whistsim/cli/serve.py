"""The ``serve`` command: the table and the studies in a browser."""

from __future__ import annotations

import click

from .main import main


@main.command(name="serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="the address to listen on; anything but localhost makes the table reachable from the network")  # fmt: skip
@click.option("--port", type=int, default=0, show_default=True, help="the port; 0 takes a free one")
@click.option("--open", "open_browser", is_flag=True, help="open the page in a browser")
@click.option("--results", "results_dir", default="results", show_default=True, metavar="DIR",
              help="the folder of committed studies the Studies pages show")  # fmt: skip
def serve_cmd(host, port, open_browser, results_dir):
    """Play any variant in a browser, and read the studies beside it.

    Starts a local web app and prints its address; Ctrl-C stops it. The
    Table page deals a game under any rules and players and lets you play
    a seat by clicking cards (hint, undo, the last trick); after the deal
    come the record (for whistsim replay), the account trick by trick and,
    for Whist and Scotch Whist, what each of your cards cost against
    perfect open-hand play. The Studies pages show the reports under
    results/ and run compare from a form. The page is only ever sent your
    own hand. It listens on 127.0.0.1 unless --host says otherwise.

    \b
    Examples:
      whistsim serve --open
      whistsim serve --port 8000
    """
    from ..serve import serve

    serve(
        host,
        port,
        open_browser,
        results_dir=results_dir,
        echo=lambda line: click.echo(line, err=line.startswith("whistsim: warning")),
    )
