"""The web view as a Starlette application: the routes, and the forms of a
signed-on page (sign on, orders, the GM's PROCESS and SET DEADLINE, sign off).

    create_app(config, engine, hand_over) -> an ASGI application

``hand_over(inbound_id)`` gives a stored mail to the judge's workers
(judge.service.Judge does); the pages' forms store their mail and wait for
the reply (judge.web.ordering).
"""

from __future__ import annotations

import hmac
import logging
import re
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy.engine import Engine
from sqlmodel import Session
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from judge.config import Config
from judge.games import settings_of
from judge.mail import format_deadline, phase_name
from judge.models import as_utc
from judge.web import ordering
from judge.web.guard import BodyTooLarge, Guard, client_of
from judge.web.observer import find_game
from judge.web.page_cache import KeptPage
from judge.web.pages import NotFound, Pages, page
from judge.web.sessions import COOKIE, Sessions, WebSession, unseal

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
PRE_COOKIE = "judge_csrf"  # the sign-on form's CSRF token, before there is a session
_NAME = re.compile(r"[A-Za-z0-9_.+-]{1,64}")
_PHASE = re.compile(r"[A-Za-z0-9.-]{1,16}")
_NO_STORE = {"cache-control": "no-store"}


class Web:
    """The routes' state: the pages, the sessions, and the judge's hand-over."""

    def __init__(self, config: Config, engine: Engine,
                 hand_over: Callable[[int], None]) -> None:
        self.config = config
        self.engine = engine
        self.hand_over = hand_over
        self.pages = Pages(config, engine)
        self.sessions = Sessions(config.web.session_minutes * 60)

    # -- anyone's pages ------------------------------------------------------

    def games(self, request: Request) -> Response:
        return HTMLResponse(self.pages.games())

    def game(self, request: Request) -> Response:
        return _kept(request, self.pages.game_page(_name(request)), "text/html")

    def history(self, request: Request) -> Response:
        return _kept(request, self.pages.history_page(_name(request)), "text/html")

    def phase(self, request: Request) -> Response:
        phase = request.path_params["phase"]
        if not _PHASE.fullmatch(phase):
            raise NotFound("No such phase.")
        return _kept(request, self.pages.phase_page(_name(request), phase), "text/html")

    def map_svg(self, request: Request) -> Response:
        file = request.path_params["file"]
        if not _PHASE.fullmatch(file.removesuffix(".svg").removesuffix("-other")):
            raise NotFound("No such map.")
        return Response(self.pages.map_svg(_name(request), file), media_type="image/svg+xml")

    def feed(self, request: Request) -> Response:
        return _kept(request, self.pages.feed_page(_name(request)),
                     "application/atom+xml; charset=utf-8")

    # -- signing on and off --------------------------------------------------

    async def signon_form(self, request: Request) -> Response:
        token = request.cookies.get(PRE_COOKIE) or secrets.token_urlsafe(24)
        game = request.query_params.get("game", "")[:64]
        return self._signon_page(token, game=game)

    def _signon_page(self, token: str, game: str = "", power: str = "", error: str = "",
                     status: int = 200) -> Response:
        response = HTMLResponse(page("signon.html.j2", judge=self.config.name, csrf=token,
                                     game=game, power=power, error=error),
                                status_code=status, headers=_NO_STORE)
        response.set_cookie(PRE_COOKIE, token, httponly=True, samesite="strict",
                            secure=self.config.web.url.startswith("https"))
        return response

    async def signon(self, request: Request) -> Response:
        _same_origin(request)
        form = await request.form()
        token = request.cookies.get(PRE_COOKIE, "")
        if not token or not hmac.compare_digest(token, str(form.get("csrf", ""))):
            return self._signon_page(secrets.token_urlsafe(24), error=(
                "The form had expired; please sign on again."), status=403)
        game, power = str(form.get("game", ""))[:64], str(form.get("power", ""))[:64]
        password = str(form.get("password", ""))
        result = await run_in_threadpool(ordering.sign_on, self.engine, self.config, game,
                                         power, password, client_of(request.scope))
        if isinstance(result, ordering.Refused):
            return self._signon_page(token, game=game, power=power,
                                     error=f"Not signed on: {result.reason}.", status=403)
        session_token, _ = self.sessions.open(result.game, result.power, password)
        response = RedirectResponse(f"/games/{result.game}/orders", status_code=303)
        response.set_cookie(COOKIE, session_token, httponly=True, samesite="strict",
                            secure=self.config.web.url.startswith("https"),
                            max_age=self.config.web.session_minutes * 60)
        response.delete_cookie(PRE_COOKIE)
        return response

    async def signoff(self, request: Request) -> Response:
        _same_origin(request)
        form = await request.form()
        token = request.cookies.get(COOKIE)
        found = self.sessions.find(token)
        if found is not None and hmac.compare_digest(found.csrf, str(form.get("csrf", ""))):
            self.sessions.close(token)
        response = RedirectResponse("/", status_code=303)
        response.delete_cookie(COOKIE)
        return response

    # -- a signed-on page ----------------------------------------------------

    def _signed_on(self, request: Request, game: str) -> tuple[str, WebSession] | None:
        token = request.cookies.get(COOKIE, "")
        found = self.sessions.find(token)
        if found is None or found.game != game:
            return None
        return token, found

    async def orders_page(self, request: Request) -> Response:
        name = _name(request).lower()
        signed = self._signed_on(request, name)
        if signed is None:
            return RedirectResponse(f"/signon?game={name}", status_code=303)
        return await run_in_threadpool(self._orders_page, signed[1])

    def _orders_page(self, session: WebSession, reply: ordering.Reply | None = None,
                     error: str = "", text: str = "", status: int = 200) -> Response:
        with Session(self.engine) as db:
            game = find_game(db, session.game)
        if game is None:
            raise NotFound("That game is gone.")
        zone = settings_of(game).zone
        return HTMLResponse(page(
            "orders.html.j2", judge=self.config.name, game=game.name, power=session.power,
            master=session.master, csrf=session.csrf, phase=game.phase,
            phase_name=phase_name(game.phase, game.variant) if game.phase else "",
            deadline_text=format_deadline(game.deadline, zone) if game.deadline else "",
            deadline_iso=as_utc(game.deadline).isoformat() if game.deadline else "",
            reply=reply, error=error, text=text, max_chars=ordering.MAX_ORDERS_CHARS),
            status_code=status, headers=_NO_STORE)

    async def orders(self, request: Request) -> Response:
        return await self._send(request, master=False)

    async def master(self, request: Request) -> Response:
        return await self._send(request, master=True)

    async def _send(self, request: Request, master: bool) -> Response:
        _same_origin(request)
        name = _name(request).lower()
        signed = self._signed_on(request, name)
        if signed is None:
            return RedirectResponse(f"/signon?game={name}", status_code=303)
        token, session = signed
        form = await request.form()
        if not hmac.compare_digest(session.csrf, str(form.get("csrf", ""))):
            raise HTTPException(403, "The form had expired; open the page again.")
        if master != session.master:
            raise HTTPException(403, "That form is the GM's." if master
                                else "The GM's page has no orders form.")
        text, error = (_master_text(form) if master
                       else _orders_text(str(form.get("orders", ""))))
        if error:
            return await run_in_threadpool(self._orders_page, session, None, error, text, 400)
        sent = await run_in_threadpool(
            ordering.send, self.engine, self.config, session.game, session.power,
            unseal(token, session.sealed), text, self.hand_over)
        if isinstance(sent, ordering.Refused):
            self.sessions.close(token)
            return await run_in_threadpool(self._orders_page, session, None, sent.reason,
                                           text, 409)
        reply = await run_in_threadpool(ordering.reply_to, self.engine, *sent,
                                        self.config.web.reply_wait_seconds)
        return await run_in_threadpool(self._orders_page, session, reply, "",
                                       "" if master else text)


def _kept(request: Request, kept: KeptPage, media_type: str) -> Response:
    """A kept page, gzipped when the reader takes gzip: made once with the
    page, not per request (Intercontinental's 430 KB game page goes as a
    fraction of that)."""
    headers = {"vary": "accept-encoding"}
    if _takes_gzip(request.headers.get("accept-encoding", "")):
        headers["content-encoding"] = "gzip"
        return Response(kept.gzipped, media_type=media_type, headers=headers)
    return Response(kept.body, media_type=media_type, headers=headers)


def _takes_gzip(accepted: str) -> bool:
    """Whether an Accept-Encoding takes gzip: named (or *) without q=0."""
    for part in accepted.lower().split(","):
        coding, _, params = part.partition(";")
        if coding.strip() in ("gzip", "*"):
            q = params.strip().removeprefix("q=")
            return not (params.strip().startswith("q=") and _is_zero(q))
    return False


def _is_zero(q: str) -> bool:
    try:
        return float(q) == 0
    except ValueError:
        return False


def _orders_text(text: str) -> tuple[str, str]:
    text = text.replace("\r\n", "\n").strip()
    if not text:
        return text, "No orders given."
    return text, ordering.only_orders(text)


def _master_text(form: Any) -> tuple[str, str]:
    action = str(form.get("action", ""))
    if action == "process":
        return "PROCESS", ""
    if action == "deadline":
        when = " ".join(str(form.get("when", "")).split())[:60]
        return (f"SET DEADLINE {when}", "") if when else ("", "Give the new deadline.")
    return "", "Unknown action."


def _name(request: Request) -> str:
    name = str(request.path_params["name"])
    if not _NAME.fullmatch(name):
        raise NotFound("There is no such game.")
    return name


def _same_origin(request: Request) -> None:
    """A form posted from another site is refused, whatever its token (the
    cookies are SameSite=Strict too)."""
    origin = request.headers.get("origin")
    if origin is None:  # not sent by every browser on a same-site form
        return
    host = request.headers.get("host", "")
    if origin.split("://", 1)[-1] != host:
        raise HTTPException(403, "Forms are taken from this judge's own pages only.")


def _error_page(judge: str, status: int, title: str, text: str) -> HTMLResponse:
    return HTMLResponse(page("error.html.j2", judge=judge, status=status, title=title,
                             text=text), status_code=status)


def create_app(config: Config, engine: Engine, hand_over: Callable[[int], None]) -> Any:
    web = Web(config, engine, hand_over)
    routes = [
        Route("/", web.games),
        Route("/signon", web.signon_form, methods=["GET"]),
        Route("/signon", web.signon, methods=["POST"]),
        Route("/signoff", web.signoff, methods=["POST"]),
        Route("/games/{name}", web.game),
        Route("/games/{name}/history", web.history),
        Route("/games/{name}/phases/{phase}", web.phase),
        Route("/games/{name}/maps/{file}", web.map_svg),
        Route("/games/{name}/feed.atom", web.feed),
        Route("/games/{name}/orders", web.orders_page, methods=["GET"]),
        Route("/games/{name}/orders", web.orders, methods=["POST"]),
        Route("/games/{name}/master", web.master, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

    async def not_found(request: Request, exc: Exception) -> Response:
        text = str(exc) if isinstance(exc, NotFound) else "There is no such page here."
        return _error_page(config.name, 404, "Not found", text)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        if exc.status_code == 404:
            return await not_found(request, exc)
        return _error_page(config.name, exc.status_code, "Refused", str(exc.detail))

    async def too_large(request: Request, exc: Exception) -> Response:
        return _error_page(config.name, 413, "Too large", "That form is too large.")

    async def server_error(request: Request, exc: Exception) -> Response:
        log.exception("web: %s %s failed", request.method, request.url.path, exc_info=exc)
        return _error_page(config.name, 500, "Error", "The judge could not make this page; "
                           "the error is in its log.")

    app = Starlette(routes=routes, exception_handlers={
        NotFound: not_found, HTTPException: http_error, BodyTooLarge: too_large,
        500: server_error})
    app.state.web = web
    return Guard(app, config.web)
