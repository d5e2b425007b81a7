"""Configuration: config/judge.toml, then the GM's file, then environment
variables, each overriding the one before."""

from __future__ import annotations

from pathlib import Path
from unittest import mock

import pytest

from judge.config import ConfigError, Limits, load_config


def test_embedded_defaults() -> None:
    config = load_config(environ={})
    assert config.address == "judge@localhost"
    assert (config.smtp_host, config.smtp_port) == ("127.0.0.1", 2525)
    assert config.relay_host == "" and config.imap is None
    assert config.database_url == f"sqlite:///{Path('data') / 'judge.db'}"
    assert config.maildir == Path("data") / "outgoing"
    assert config.workers == 0 and config.mail_worker_count == 1  # one writer at a time
    assert config.deadline_workers == 0 and config.deadline_worker_count >= 1  # one per core
    assert config.keeper == ""  # nobody but the GM is told of a failing deadline
    assert (config.max_mails_at_once, config.busy_wait_seconds) == (4, 30.0)


def test_file_then_environment(tmp_path: Path) -> None:
    mine = tmp_path / "my.toml"
    mine.write_text('[judge]\nname = "EGGS"\naddress = "judge@eggs.test"\n'
                    '[smtp]\nport = 2600\n[imap]\nhost = "imap.eggs.test"\nuser = "j"\n'
                    '[relay]\nhost = "relay.eggs.test"\n')
    config = load_config(mine, environ={"JUDGE_SMTP_PORT": "2700",
                                        "JUDGE_DATABASE_URL": "postgresql://x@db/judge",
                                        "JUDGE_DATA_DIR": str(tmp_path),
                                        "JUDGE_WORKERS": "3",
                                        "JUDGE_DEADLINE_WORKERS": "5"})
    assert config.name == "EGGS" and config.address == "judge@eggs.test"
    assert config.smtp_port == 2700  # the environment wins over the file
    assert config.relay_host == "relay.eggs.test" and config.relay_port == 25
    assert config.imap is not None and config.imap.host == "imap.eggs.test"
    assert config.database_url == "postgresql://x@db/judge"
    assert config.data_dir == tmp_path
    assert config.workers == config.mail_worker_count == 3
    assert config.deadline_workers == config.deadline_worker_count == 5
    # unset, the mail workers follow the database and the cores
    for url in ("postgresql://x@db/judge", "postgresql+psycopg://x@db/judge"):
        config = load_config(environ={"JUDGE_DATABASE_URL": url})
        for cores, workers in ((1, 1), (2, 1), (3, 2), (8, 2)):
            with mock.patch("os.sched_getaffinity", return_value=set(range(cores))):
                assert config.mail_worker_count == workers, cores


@pytest.mark.parametrize("text, environ, message", [
    ("[smtp]\nport = 'many'\n", {}, "configuration"),
    ("[smtp\n", {}, "my.toml"),
    ("", {"JUDGE_RELAY_PORT": "twenty-five"}, "JUDGE_RELAY_PORT"),
    ("[judge]\nworkers = 65\n", {}, "workers must be 0 .by the database. to 64"),
    ("[judge]\ndeadline_workers = 65\n", {}, "deadline_workers must be 0 .one per core. to 64"),
    ("[judge]\ntime_zone = 'Mars/Olympus'\n", {}, "is not a time zone like Europe/Paris"),
    ("[judge]\ntime_zone = 'IST'\n", {}, "IST names several time zones"),
    ("[judge]\nkeeper = 'the keeper'\n", {}, "judge.keeper: not a mail address"),
    ("[smtp]\nmax_mails_at_once = 0\n", {}, "max_mails_at_once must be at least 1"),
    ("[smtp]\nbusy_wait_seconds = -1\n", {}, "busy_wait_seconds must not be negative"),
    ("[web]\nport = 0\n", {}, "web.port must be more than 0"),
    ("[web]\nport = 70000\n", {}, "web.port must be a port number"),
    ("[web]\nenabled = 'no'\n", {}, "web.enabled must be true or false"),
    ("[web]\nsession_minutes = 'long'\n", {}, "configuration"),
    ("", {"JUDGE_WEB_PORT": "eighty"}, "JUDGE_WEB_PORT"),
])
def test_bad_configuration_is_reported(tmp_path: Path, text: str, environ: dict[str, str],
                                       message: str) -> None:
    mine = tmp_path / "my.toml"
    mine.write_text(text)
    with pytest.raises(ConfigError, match=message):
        load_config(mine, environ=environ)


def test_time_zone_is_read_as_games_read_it(tmp_path: Path) -> None:
    """The keeper's default zone takes the spellings a game's zone takes."""
    mine = tmp_path / "my.toml"
    for written, kept in (("CET", "Europe/Paris"), ("UTC+2", "UTC+02:00"),
                          ("europe/london", "Europe/London")):
        mine.write_text(f"[judge]\ntime_zone = '{written}'\n")
        assert load_config(mine, environ={}).time_zone == kept


def test_missing_file_is_reported(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "nope.toml", environ={})


def test_limits_are_read_and_checked(tmp_path: Path) -> None:
    assert load_config(environ={}).limits == Limits()
    path = tmp_path / "limits.toml"
    path.write_text("[limits]\nreplies_per_hour = 3\nkeep_mail_days = 7\n")
    limits = load_config(path, environ={}).limits
    assert (limits.replies_per_hour, limits.keep_mail_days) == (3, 7)
    assert limits.signons_per_mail == Limits().signons_per_mail
    path.write_text("[limits]\nfailed_signons_per_hour = 0\n")
    with pytest.raises(ConfigError, match="failed_signons_per_hour must be at least 1"):
        load_config(path, environ={})


def test_the_keepers_address(tmp_path: Path) -> None:
    """Told with the GM when a deadline fails: from the file or JUDGE_KEEPER."""
    mine = tmp_path / "my.toml"
    mine.write_text("[judge]\nkeeper = 'keeper@eggs.test'\n")
    assert load_config(mine, environ={}).keeper == "keeper@eggs.test"
    assert load_config(mine, environ={"JUDGE_KEEPER": "other@eggs.test"}).keeper == \
        "other@eggs.test"


def test_the_web_view_is_on_by_default_and_can_be_moved_or_switched_off(tmp_path: Path) -> None:
    config = load_config(environ={})
    assert config.web.enabled and config.web.url == "http://127.0.0.1:8080/"
    mine = tmp_path / "my.toml"
    mine.write_text("[web]\nenabled = false\npublic_url = 'https://judge.example.org'\n")
    config = load_config(mine, environ={"JUDGE_WEB_PORT": "8181"})
    assert not config.web.enabled and config.web.port == 8181
    assert config.web.url == "https://judge.example.org/"
