"""The memory and processor time of a process and its children, sampled
from /proc while a benchmark runs: the peak of their summed resident
memory, and how many cores they kept busy between two moments.

A judge runs worker processes (mail, deadlines) beside its own: what it
costs is the sum. Helper processes of the benchmark itself (the sink relay)
are left out by pid. Resident memory (RSS) counts the pages processes share
(the libraries' code, mapped from the same files) once in each of them; the
proportional figure (PSS, each shared page divided among its sharers) adds
up to what the family really holds, and is given beside it.
"""

from __future__ import annotations

import os
import threading
import time
from bisect import bisect_left
from dataclasses import dataclass, field
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


def _stat(pid: int) -> tuple[int, float, int] | None:
    """(parent pid, CPU seconds used, resident bytes); None once it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rpartition(")")[2].split()
    if fields[0] == "Z":
        return None
    # after the name: state ppid ... utime (14th field) stime (15th) ... rss (24th), in pages
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / TICKS, int(fields[21]) * PAGE


def proportional_bytes(pid: int) -> int:
    """The process's proportional set size (PSS); 0 once it is gone."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def family(root: int, leave_out: set[int]) -> set[int]:
    """The root and its descendants, but those in ``leave_out`` and theirs
    (a scan of every process: done once in a while, not at every sample)."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            found = _stat(int(entry.name))
            if found is not None:
                parents[int(entry.name)] = found[0]
    members = {root}
    frontier = {root}
    while frontier:
        frontier = {pid for pid, parent in parents.items()
                    if parent in frontier and pid not in leave_out} - members
        members |= frontier
    return members


@dataclass
class ProcessWatch:
    """Samples a process family every ``every`` seconds in a thread of the
    benchmark's own, from start() to stop()."""

    root: int = field(default_factory=os.getpid)
    leave_out: set[int] = field(default_factory=set)
    every: float = 0.2
    # the processes are found anew (and their PSS read, which costs more)
    # every this many samples; the sampling thread is in the judge's process
    scan_every: int = 5
    peak_bytes: int = 0  # of resident memory, summed
    peak_proportional_bytes: int = 0
    peak_processes: int = 0
    peak_by_pid: dict[int, int] = field(default_factory=dict)  # each one's own peak RSS
    # (time.time(), CPU seconds of the family so far): a process that ended
    # keeps counting what it used while it was sampled
    cpu: list[tuple[float, float]] = field(default_factory=list)
    _last_cpu: dict[int, float] = field(default_factory=dict)
    _root_at_start: float = 0.0
    _samples: int = 0
    _members: set[int] = field(default_factory=set)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def start(self) -> None:
        self.sample()
        self._root_at_start = self._last_cpu.get(self.root, 0.0)
        self._thread = threading.Thread(target=self._run, name="process-watch", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        self._samples = 0  # a last full look
        self.sample()

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            self.sample()

    def sample(self) -> None:
        scan = self._samples % self.scan_every == 0
        self._samples += 1
        if scan:
            self._members = family(self.root, self.leave_out)
        stats = {pid: found[1:] for pid in self._members if (found := _stat(pid)) is not None}
        self.peak_bytes = max(self.peak_bytes, sum(rss for _, rss in stats.values()))
        if scan:
            self.peak_proportional_bytes = max(self.peak_proportional_bytes,
                                               sum(map(proportional_bytes, stats)))
        self.peak_processes = max(self.peak_processes, len(stats))
        for pid, (seconds, rss) in stats.items():
            self._last_cpu[pid] = seconds
            self.peak_by_pid[pid] = max(self.peak_by_pid.get(pid, 0), rss)
        self.cpu.append((time.time(), sum(self._last_cpu.values())))

    def cpu_at(self, moment: float) -> float:
        """The family's CPU seconds at ``moment``, from the nearest samples."""
        times = [t for t, _ in self.cpu]
        i = bisect_left(times, moment)
        if i <= 0:
            return self.cpu[0][1]
        if i >= len(self.cpu):
            return self.cpu[-1][1]
        (t0, c0), (t1, c1) = self.cpu[i - 1], self.cpu[i]
        return c0 + (c1 - c0) * (moment - t0) / max(t1 - t0, 1e-9)

    def cores_between(self, start: float, end: float) -> float:
        """CPU seconds the family used between two moments, per second."""
        return (self.cpu_at(end) - self.cpu_at(start)) / max(end - start, 1e-9)

    def peaks_mb(self) -> list[int]:
        """Each process's own peak resident memory, in MB: the root's first,
        then its children's, largest first."""
        root = self.peak_by_pid.get(self.root, 0)
        others = sorted((v for k, v in self.peak_by_pid.items() if k != self.root), reverse=True)
        return [round(v / 2**20) for v in [root, *others]]

    def cpu_seconds(self) -> list[float]:
        """Each process's CPU seconds while watched (the root's first, as
        far as it went since start(), then its children's, largest first)."""
        root = self._last_cpu.get(self.root, 0.0) - self._root_at_start
        others = sorted((v for k, v in self._last_cpu.items() if k != self.root), reverse=True)
        return [round(v, 1) for v in [root, *others]]
