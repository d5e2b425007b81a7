"""The judge's configuration: config/judge.toml, then a file of the GM's own,
then environment variables, each overriding the one before."""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from judge.outbox import OutboxError, check_address
from judge.zones import zone_name

DEFAULTS_FILE = Path(__file__).resolve().parent.parent / "config" / "judge.toml"


class ConfigError(Exception):
    pass


@dataclass(frozen=True)
class ImapConfig:
    host: str
    port: int = 143
    user: str = ""
    password: str = ""
    mailbox: str = "INBOX"
    ssl: bool = False
    interval_seconds: float = 30.0


@dataclass(frozen=True)
class Limits:
    """What the judge allows one sender, against robots and guessing."""
    replies_per_hour: int = 10  # replies to one address; then it is not answered
    signons_per_mail: int = 10  # SIGNON lines one mail may try; the rest are refused
    # wrong passwords one address may give for one power of a game an hour;
    # then that address's SIGNONs for it are refused unchecked
    failed_signons_per_hour: int = 10
    # wrong passwords for one power from all addresses an hour; then only the
    # power's address on file (and the key mailed there) is heard for it
    failed_signons_per_power_hour: int = 100
    keep_mail_days: int = 30  # a processed mail's (redacted) copy is kept this long


@dataclass(frozen=True)
class WebConfig:
    """The web view (judge.web): game pages, maps, history, feeds, and
    orders from a game page. Served by `judge serve` unless switched off."""
    enabled: bool = True
    host: str = "127.0.0.1"
    port: int = 8080
    # the address players reach it at, for links in mails and feeds; '' the host and port
    public_url: str = ""
    requests_per_minute: int = 600  # from one client address, pages and forms together
    posts_per_minute: int = 20  # sign-ons, orders and GM forms from one client address
    max_body_bytes: int = 65_536  # a form's body; orders for 34 units fit many times over
    session_minutes: int = 120  # a signed-on page with nothing sent this long signs off
    reply_wait_seconds: float = 20.0  # how long a form waits for its mail to be processed

    @property
    def url(self) -> str:
        return (self.public_url or f"http://{self.host}:{self.port}").rstrip("/") + "/"


@dataclass(frozen=True)
class Config:
    name: str = "PYJUDGE"
    address: str = "judge@localhost"
    data_dir: Path = Path("data")
    time_zone: str = "UTC"
    workers: int = 0  # mail worker processes; 0: by the database (mail_worker_count)
    deadline_workers: int = 0  # processes that do deadlines' work; 0: one per core
    # the judge keeper's address: told (with the GM) when a deadline fails; '' none
    keeper: str = ""
    smtp_host: str = "127.0.0.1"
    smtp_port: int = 2525
    max_message_bytes: int = 25 * 1024 * 1024  # an ordinary mail with photos attached
    # The listener holds each mail it reads whole in memory until it is
    # stored; this many at once bound its memory (issue 25). More wait for
    # a turn, then are told 451 (try again later).
    max_mails_at_once: int = 4
    busy_wait_seconds: float = 30.0
    imap: ImapConfig | None = None
    relay_host: str = ""
    relay_port: int = 25
    relay_max_attempts: int = 8
    relay_first_retry_seconds: float = 30.0
    database_url_setting: str = ""
    limits: Limits = field(default_factory=Limits)
    web: WebConfig = field(default_factory=WebConfig)
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def database_url(self) -> str:
        if self.database_url_setting:
            return self.database_url_setting
        return f"sqlite:///{self.data_dir / 'judge.db'}"

    @property
    def mail_worker_count(self) -> int:
        """The mail worker processes to start: as configured, or by the
        database and the cores. SQLite writes one transaction at a time,
        and a second worker only waits for the first. On PostgreSQL a worker
        waiting for the server leaves the processor to another, but only if
        the server has a core of its own: on two cores, two workers
        processed 107 mails a second against one worker's 141
        (bench/README.md, issue 26)."""
        if self.workers:
            return self.workers
        if not self.database_url.startswith("postgres"):  # any driver's URL
            return 1
        return 2 if _cores() > 2 else 1

    @property
    def maildir(self) -> Path:
        """Where outgoing mail goes when no relay is configured."""
        return self.data_dir / "outgoing"

    @property
    def deadline_worker_count(self) -> int:
        """The deadline worker processes to start: as configured, or one
        per core this judge may use."""
        return self.deadline_workers or _cores()

    def with_(self, **changes: Any) -> Config:
        return replace(self, **changes)


def _merge(base: dict[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def _read(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: {exc}") from exc


_ENV = {
    "JUDGE_NAME": ("judge", "name", str),
    "JUDGE_ADDRESS": ("judge", "address", str),
    "JUDGE_DATA_DIR": ("judge", "data_dir", str),
    "JUDGE_SMTP_HOST": ("smtp", "host", str),
    "JUDGE_SMTP_PORT": ("smtp", "port", int),
    "JUDGE_RELAY_HOST": ("relay", "host", str),
    "JUDGE_RELAY_PORT": ("relay", "port", int),
    "JUDGE_DATABASE_URL": ("database", "url", str),
    "JUDGE_WORKERS": ("judge", "workers", int),
    "JUDGE_DEADLINE_WORKERS": ("judge", "deadline_workers", int),
    "JUDGE_KEEPER": ("judge", "keeper", str),
    "JUDGE_WEB_PORT": ("web", "port", int),
    "JUDGE_WEB_HOST": ("web", "host", str),
}


def load_config(path: Path | None = None, environ: Mapping[str, str] | None = None) -> Config:
    data = _read(DEFAULTS_FILE) if DEFAULTS_FILE.exists() else {}
    if path is not None:
        data = _merge(data, _read(path))
    env = os.environ if environ is None else environ
    for var, (section, key, kind) in _ENV.items():
        if env.get(var):
            try:
                value = kind(env[var])
            except ValueError as exc:
                raise ConfigError(f"{var}={env[var]!r}: not a valid {kind.__name__}") from exc
            data.setdefault(section, {})[key] = value
    return from_mapping(data)


def from_mapping(data: Mapping[str, Any]) -> Config:
    judge = data.get("judge", {})
    smtp = data.get("smtp", {})
    imap = data.get("imap", {})
    relay = data.get("relay", {})
    database = data.get("database", {})
    limits = data.get("limits", {})
    web = data.get("web", {})
    try:
        workers = int(judge.get("workers", 0))
        if not 0 <= workers <= 64:
            raise ValueError(f"judge.workers must be 0 (by the database) to 64, not {workers}")
        deadline_workers = int(judge.get("deadline_workers", 0))
        if not 0 <= deadline_workers <= 64:
            raise ValueError(f"judge.deadline_workers must be 0 (one per core) to 64, "
                             f"not {deadline_workers}")
        max_mails_at_once = int(smtp.get("max_mails_at_once", Config.max_mails_at_once))
        if max_mails_at_once < 1:
            raise ValueError(f"smtp.max_mails_at_once must be at least 1, not {max_mails_at_once}")
        busy_wait_seconds = float(smtp.get("busy_wait_seconds", Config.busy_wait_seconds))
        if busy_wait_seconds < 0:
            raise ValueError(f"smtp.busy_wait_seconds must not be negative, "
                             f"not {busy_wait_seconds}")
        return Config(
            name=str(judge.get("name", "PYJUDGE")),
            address=str(judge.get("address", "judge@localhost")),
            data_dir=Path(judge.get("data_dir", "data")),
            # read as a game's zone is ('CET', 'UTC+2'): a bad one would fail every CREATE
            time_zone=zone_name(str(judge.get("time_zone", "UTC"))),
            workers=workers,
            deadline_workers=deadline_workers,
            keeper=_keeper(str(judge.get("keeper", ""))),
            smtp_host=str(smtp.get("host", "127.0.0.1")),
            smtp_port=int(smtp.get("port", 2525)),
            max_message_bytes=int(smtp.get("max_message_bytes", 25 * 1024 * 1024)),
            max_mails_at_once=max_mails_at_once,
            busy_wait_seconds=busy_wait_seconds,
            imap=ImapConfig(
                host=str(imap["host"]), port=int(imap.get("port", 143)),
                user=str(imap.get("user", "")), password=str(imap.get("password", "")),
                mailbox=str(imap.get("mailbox", "INBOX")), ssl=bool(imap.get("ssl", False)),
                interval_seconds=float(imap.get("interval_seconds", 30)),
            ) if imap.get("host") else None,
            relay_host=str(relay.get("host", "")),
            relay_port=int(relay.get("port", 25)),
            relay_max_attempts=int(relay.get("max_attempts", 8)),
            relay_first_retry_seconds=float(relay.get("first_retry_seconds", 30)),
            database_url_setting=str(database.get("url", "")),
            limits=_limits(limits),
            web=_web(web),
        )
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"configuration: {exc}") from exc


def _keeper(address: str) -> str:
    """The keeper's address, checked now: one the judge cannot mail would
    only be found out when a deadline fails, the moment it is needed."""
    if not address:
        return ""
    try:
        return check_address(address.strip())
    except OutboxError as exc:
        raise ValueError(f"judge.keeper: {exc}") from None


def _limits(limits: Mapping[str, Any]) -> Limits:
    known = {name: int(limits[name]) for name in Limits.__dataclass_fields__ if name in limits}
    for name, value in known.items():
        if value < 1:
            raise ValueError(f"limits.{name} must be at least 1, not {value}")
    return Limits(**known)


def _web(web: Mapping[str, Any]) -> WebConfig:
    """The [web] table, each value as its field's type, the counts at least 1."""
    known: dict[str, Any] = {}
    for name, default in WebConfig().__dict__.items():
        if name not in web:
            continue
        if isinstance(default, bool) and not isinstance(web[name], bool):
            raise ValueError(f"web.{name} must be true or false, not {web[name]!r}")
        known[name] = type(default)(web[name])
    for name, value in known.items():
        if not isinstance(value, (bool, str)) and value <= 0:
            raise ValueError(f"web.{name} must be more than 0, not {value}")
    if known.get("port", 1) > 65535:
        raise ValueError(f"web.port must be a port number, not {known['port']}")
    return WebConfig(**known)


def _cores() -> int:
    """The cores this judge may use."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1
