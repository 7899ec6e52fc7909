"""The Python module's directory (bridge.Hosts), driven by tests/python_directory.rs:
  directory.py unit        register, list newest first, unregister, stale rows (gone, reused
                           pid, a dead claimant), a full directory, hostile headers and rows;
  directory.py host FILE   registers this process in the directory file FILE (made
                           owner-only, or opened), prints "registered ROW", waits to be killed;
  directory.py next FILE   opens FILE, registers (freeing stale rows), prints what it found,
                           and unregisters;
  directory.py race FILE GO  one of two creators racing Hosts.open_or_create(FILE) once GO
                           exists: prints whether it created FILE, its row, and its times;
  directory.py half DIR    the bounded wait for a half-made directory, in DIR."""

import mmap
import os
import struct
import sys
import threading
import time

import bridge
from bridge import DirectoryError, Hosts, PROCESS_GONE, PROCESS_RUNNING, PROCESS_UNKNOWN


def fake(running):
    def probe(pid):
        return (PROCESS_RUNNING, running[pid]) if pid in running else (PROCESS_GONE, 0)
    return probe


def unknown(pid):
    return PROCESS_UNKNOWN, 0


def fresh():
    buf = bytearray(Hosts.SIZE)
    return buf, Hosts.lay_out(buf)


def expect_error(name, fn):
    try:
        fn()
    except DirectoryError as e:
        assert e.name == name, (e.name, name)
        return
    raise AssertionError("no %s" % name)


def unit():
    buf, d = fresh()
    assert bytes(buf[:4]) == b"IBFD" and buf[4] == 16 and buf[8] == 64
    running = {100: 5000, 200: 9000, 300: 7000}
    rows = [d.register(pid, running[pid], "host %d" % pid, fake(running)) for pid in (100, 200, 300)]
    assert rows == [(0, 0), (1, 0), (2, 0)], rows
    hosts, problems = d.list()
    assert problems == 0
    assert [(h.row, h.pid) for h in hosts] == [(1, 200), (2, 300), (0, 100)]
    h = hosts[0]
    assert (h.process_time, h.abi_major, h.abi_minor, h.host_version) == (9000, 0, 9, "host 200")
    assert struct.unpack_from("<IIQ", buf, 64 + 64) == (2, 200, 9000)
    assert bytes(buf[64 + 64 + 24 : 64 + 64 + 33]) == b"host 200\0"
    assert d.unregister(1, 200, 9000)
    assert not d.unregister(1, 200, 9000)
    assert bytes(buf[128:192]) == bytes(64)
    assert [h.pid for h in d.list()[0]] == [300, 100]
    # 100 gone, 300's pid reused by a process created later: both stale.
    row, freed = d.register(400, 1, "next", fake({300: 7001, 400: 1}))
    assert (row, freed) == (0, 2), (row, freed)
    assert [h.pid for h in d.list()[0]] == [400]
    assert d.remove_stale(1, unknown) == 0
    # A claimed row, process_time 0: kept while its owner runs, freed once it is gone.
    buf, d = fresh()
    struct.pack_into("<II", buf, 64, 1, 100)
    assert d.remove_stale(1, fake({100: 42})) == 0 and d.state(0) == (1, 100)
    struct.pack_into("<Q", buf, 72, 41)
    assert d.remove_stale(1, fake({100: 42})) == 1 and d.state(0) == (0, 0)
    struct.pack_into("<II", buf, 64, 1, 100)
    assert d.remove_stale(1, fake({})) == 1 and d.state(0) == (0, 0)
    # Full, and a version too long.
    buf, d = fresh()
    for pid in range(1, 17):
        d.register(pid, pid, "h", unknown)
    expect_error("directory_full", lambda: d.register(17, 17, "h", unknown))
    expect_error("directory_version_too_long", lambda: d.register(17, 17, "v" * 32, unknown))
    # A garbage state: reported, neither claimed nor freed.
    buf, d = fresh()
    struct.pack_into("<II", buf, 64, 7, 100)
    assert d.register(200, 1, "h", unknown) == (1, 0)
    hosts, problems = d.list()
    assert len(hosts) == 1 and problems == 1 and d.state(0) == (7, 100)
    # Hostile headers.
    for at, value, name in [
        (0, 0x12345678, "directory_bad_magic"),
        (0, 0, "directory_not_ready"),
        (8, 60, "directory_bad_entry_size"),
        (8, 68, "directory_bad_entry_size"),
        (8, 0xFFFFFFFF, "directory_bad_entry_size"),
        (8, 128, "directory_bad_entry_count"),
        (4, 0, "directory_bad_entry_count"),
        (4, 0xFFFFFFFF, "directory_bad_entry_count"),
    ]:
        buf, d = fresh()
        struct.pack_into("<I", buf, at, value)
        expect_error(name, lambda: Hosts(buf))
    expect_error("directory_too_small", lambda: Hosts(bytearray(32)))
    kind, created = bridge.process_probe(os.getpid())
    assert kind == PROCESS_RUNNING and created > 0
    assert bridge.process_probe(0xFFFFFFFE) == (PROCESS_GONE, 0)
    print("directory unit ok")


def race(path, go):
    """One of two creators racing: waits for the go file, then Hosts.open_or_create(path),
    registers and unregisters; prints whether it created the file, its row, and when its
    open_or_create started and ended (monotonic ns, for the test to see that the two raced)."""
    deadline = time.monotonic() + 20
    while not os.path.exists(go):
        assert time.monotonic() < deadline, "no go"
        time.sleep(0.0005)
    start = time.monotonic_ns()
    d, m, created = Hosts.open_or_create(path)
    end = time.monotonic_ns()
    me = os.getpid()
    me_time = bridge.process_probe(me)[1]
    row, _ = d.register(me, me_time, "python racer")
    hosts, problems = d.list()
    assert problems == 0 and any(h.pid == me for h in hosts)
    print("created %d row %d start %d end %d" % (created, row, start, end))
    assert d.unregister(row, me, me_time)
    d.release()
    m.close()


def half_made(folder):
    """An opener waits, bounded, for a creator that has not finished: a file of 0 bytes, then
    one of its size with magic 0 (each finished by a thread 100 ms later), opens; one never
    finished is directory_too_small or directory_not_ready after the tries (0.5 s); a bad
    magic is refused at once."""
    def made(path, size, finish):
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
        os.ftruncate(fd, size)
        os.close(fd)
        if finish:
            def later():
                time.sleep(0.1)
                fd = os.open(path, os.O_RDWR)
                os.ftruncate(fd, Hosts.SIZE)
                m = mmap.mmap(fd, Hosts.SIZE)
                os.close(fd)
                Hosts.lay_out(m).release()
                m.close()
            t = threading.Thread(target=later)
            t.start()
            return t
        return None
    for name, size in (("unsized", 0), ("unmarked", Hosts.SIZE)):
        path = os.path.join(folder, name)
        t = made(path, size, True)
        start = time.monotonic()
        d, m, created = Hosts.open_or_create(path)
        waited = time.monotonic() - start
        t.join()
        assert not created and d.count > 0 and 0.05 < waited < 5, (name, waited)
        d.release()
        m.close()
        print("%s waited" % name)
    for name, size, error in (("never-sized", 0, "directory_too_small"),
                              ("never-marked", Hosts.SIZE, "directory_not_ready")):
        path = os.path.join(folder, name)
        made(path, size, False)
        start = time.monotonic()
        expect_error(error, lambda: Hosts.open_or_create(path))
        waited = time.monotonic() - start
        assert 0.4 < waited < 10, (name, waited)
        print("%s refused after %d tries" % (name, bridge._DIRECTORY_OPEN_TRIES))
    path = os.path.join(folder, "bad-magic")
    with open(path, "wb") as f:
        f.write(struct.pack("<I", 0x12345678).ljust(Hosts.SIZE, b"\0"))
    start = time.monotonic()
    expect_error("directory_bad_magic", lambda: Hosts.open_or_create(path))
    assert time.monotonic() - start < 0.4
    print("bad-magic refused at once")
    path = os.path.join(folder, "new")
    d, m, created = Hosts.open_or_create(path)
    assert created and os.stat(path).st_mode & 0o777 == 0o600 and d.count > 0
    d.release()
    m.close()
    print("new created owner-only")


def main():
    if sys.argv[1:] == ["unit"]:
        unit()
        return
    if sys.argv[1] == "race":
        race(sys.argv[2], sys.argv[3])
        return
    if sys.argv[1] == "half":
        half_made(sys.argv[2])
        return
    mode, path = sys.argv[1:]
    d, m, _ = Hosts.open_or_create(path)
    me = os.getpid()
    me_time = bridge.process_probe(me)[1]
    if mode == "host":
        row, _ = d.register(me, me_time, "python host")
        print("registered %d" % row, flush=True)
        time.sleep(60)
    elif mode == "next":
        row, freed = d.register(me, me_time, "python next")
        hosts, problems = d.list()
        print("next stale_freed %d listed %d first_pid_is_me %d problems %d" % (
            freed, len(hosts), hosts[0].pid == me, problems))
        assert d.unregister(row, me, me_time)


main()
