"""One build key is built by one process at a time (iorace/run/build.py's _key_lock): a second process waits
for the first's build and then finds it made; a session interrupted while it waits gives up (no builds)."""

from __future__ import annotations

import fcntl
import threading
import time

from iorace.run import build


def test_a_key_another_process_is_building_is_waited_for_then_found_built(tmp_path):
    final = tmp_path / "build" / "KEY"
    final.parent.mkdir()
    held = open(final.with_name("KEY.lock"), "a")  # another open file: as another process's lock  # noqa: SIM115
    fcntl.flock(held, fcntl.LOCK_EX)

    def finish():
        time.sleep(0.5)
        final.mkdir()
        (final / ".built").write_text("")
        fcntl.flock(held, fcntl.LOCK_UN)
        held.close()

    other = threading.Thread(target=finish)
    start = time.monotonic()
    other.start()
    with build._key_lock(final) as locked:
        waited = time.monotonic() - start
        assert locked and (final / ".built").exists()
    other.join()
    assert waited >= 0.4


def test_an_interrupted_session_stops_waiting_for_a_key(tmp_path):
    final = tmp_path / "build" / "KEY"
    final.parent.mkdir()
    with open(final.with_name("KEY.lock"), "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        build.stop_builds()
        try:
            with build._key_lock(final) as locked:
                assert not locked
        finally:
            build.resume_builds()
    with build._key_lock(final) as locked:  # released: taken at once
        assert locked
