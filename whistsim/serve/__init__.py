"""``whistsim serve``: a local web app with a card table and the studies (Flask, no build step).

:func:`create_app` builds the app; :func:`serve` runs it on a free localhost port. The table
(:mod:`whistsim.serve.table`) plays on :class:`whistsim.game.GameState`; the studies
(:mod:`whistsim.serve.studies`) render ``results/`` and run ``compare`` through :mod:`whistsim.api`.
"""

from __future__ import annotations

import socket

import flask

from ..core.options import WhistsimError


class NotFound(WhistsimError):
    """A game, page or table that does not exist: answered 404 with one line."""


def create_app(*, results_dir="results") -> flask.Flask:
    """The app: the table's blueprint and the studies' blueprint, one error handler for both."""
    from . import studies, table  # imported here: ``whistsim serve --help`` loads no Flask app

    app = flask.Flask(__name__)
    app.config["RESULTS_DIR"] = str(results_dir)
    app.json.sort_keys = False  # the answers keep their fields in the order written
    app.register_blueprint(table.bp)
    app.register_blueprint(studies.bp)

    @app.errorhandler(WhistsimError)
    def _bad_value(e: WhistsimError):
        status = 404 if isinstance(e, NotFound) else 400
        if _wants_json():
            return flask.jsonify(error=str(e)), status
        return flask.render_template("error.html", message=str(e), status=status), status

    @app.errorhandler(404)
    def _not_found(e):
        message = "no such page: " + flask.request.path
        if _wants_json():
            return flask.jsonify(error=message), 404
        return flask.render_template("error.html", message=message, status=404), 404

    return app


def _wants_json() -> bool:
    path = flask.request.path
    return path.startswith("/api/") or flask.request.accept_mimetypes.best == "application/json"


LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def url_of(host: str, port: int) -> str:
    """The address a browser opens: ``http://127.0.0.1:8000``, ``http://[::1]:8000``."""
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def is_local(host: str) -> bool:
    """Does ``host`` answer only this machine (a loopback address)?"""
    import ipaddress

    if host in LOCAL_HOSTS:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def make_server(host: str = "127.0.0.1", port: int = 0, *, results_dir="results", app=None):
    """A threaded WSGI server for the app, bound (``port`` 0: a free port); one line on a bad address."""
    from werkzeug.serving import WSGIRequestHandler
    from werkzeug.serving import make_server as _make

    class _Quiet(WSGIRequestHandler):
        def log_request(self, *args, **kwargs) -> None:  # one line per request would drown the address
            pass

    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise WhistsimError(f"--port {port!r}: expected a port from 0 to 65535 (0: a free one)")
    # Bound here, so that a taken port or an unknown host is one line (werkzeug would exit).
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
        return _make(host, sock.getsockname()[1], app or create_app(results_dir=results_dir), threaded=True,
                     request_handler=_Quiet, fd=sock.fileno())  # fmt: skip
    except OSError as e:
        raise WhistsimError(f"cannot serve at {url_of(host, port)}: {e.strerror or e}") from None
    finally:
        sock.close()  # the server holds its own copy of the socket


def serve(host: str = "127.0.0.1", port: int = 0, open_browser: bool = False, *, results_dir="results",
          echo=print) -> None:  # fmt: skip
    """Serve the app at ``host``:``port`` until Ctrl-C (``port`` 0: a free port), saying where;
    a browser is opened only with ``open_browser``."""
    server = make_server(host, port, results_dir=results_dir)
    url = url_of(host, server.port)
    try:  # Ctrl-C at any point from here stops the server cleanly
        if not is_local(host):
            echo(f"whistsim: warning: serving on {host}: the table is reachable from the network, "
                 "not only this machine")  # fmt: skip
        echo(f"whistsim: serving at {url} (Ctrl-C to stop)")
        if open_browser:
            import webbrowser

            webbrowser.open(url)
        server.serve_forever()  # werkzeug's returns on Ctrl-C
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    echo("whistsim: stopped")
