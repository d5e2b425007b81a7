"""The data directory's lock: two judges running at once never share an
instance name, so a starting judge may take back its name's claims."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.config import Config, ConfigError
from judge.instance import InstanceLock, instance_name


def test_a_second_judge_on_the_same_data_directory_is_refused(tmp_path: Path) -> None:
    config = Config(data_dir=tmp_path / "data")
    first = InstanceLock(config)
    first.acquire()
    try:
        with pytest.raises(ConfigError, match="another judge is running"):
            InstanceLock(config).acquire()
        other = InstanceLock(Config(data_dir=tmp_path / "other"))
        other.acquire()  # another directory, another judge
        other.release()
    finally:
        first.release()
    again = InstanceLock(config)
    again.acquire()  # the first one stopped
    again.release()


def test_the_instance_name_is_stable_and_tells_data_directories_apart(tmp_path: Path) -> None:
    one = Config(data_dir=tmp_path / "one")
    assert instance_name(one) == instance_name(Config(data_dir=tmp_path / "one"))
    assert instance_name(one) != instance_name(Config(data_dir=tmp_path / "two"))
