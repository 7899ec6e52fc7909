"""The Python side of tests/python_attach.rs: attaches the generated module (generated/bridge.py)
to the bridge images of tests/common/image.rs, which the Rust test wrote to files, and prints
what it found, one line per fact, for the Rust side to compare with the image's constants.

    attach.py corruptions DIR   each DIR/corrupt_*.bin mapped read-only: "<file> <check>"
                                (attach, then every client and bot block: the first error)
    attach.py verdicts DIR      likewise, as JSON: each file's check, region, expected,
                                found, the other numbers, the message and retryable
    attach.py follow DIR        DIR/ring_16.bin and DIR/ring_64k.bin: the ring at the
                                host's geometry, publishing and reading newest: JSON facts
    attach.py lazy DIR          DIR/lazy_*.bin (one bot block refused): JSON facts
    attach.py reload DIR        DIR/valid.bin: generation, reloaded(), a reload: JSON facts
    attach.py race DIR SIGNAL   a bot against a Rust host that starts and reloads DIR/bridge.shm
                                (tests/python_geometry.rs); it writes the generation it saw
                                at byte SIGNAL: JSON counts
    attach.py mutations DIR     DIR/valid.bin with each of DIR/mutations.json's writes (and
                                length): the verdict of each, as JSON (as verdicts does)
    attach.py valid DIR         DIR/valid.bin through each kind of buffer: JSON facts
    attach.py versioned DIR     read_versioned of each DIR/record_*.bin: JSON facts
    attach.py fuzz DIR SEED N   random buffers and N mutations of DIR/valid.bin: a summary
"""

import json
import mmap
import os
import random
import sys

import bridge


def mapped(path, access=mmap.ACCESS_READ):
    with open(path, "r+b" if access == mmap.ACCESS_WRITE else "rb") as f:
        return mmap.mmap(f.fileno(), 0, access=access)


def blocks(handle, getter):
    """Every block of a blocks row, each checked as it is asked for, until None."""
    k = 0
    while True:
        block = getattr(handle, getter)(k)
        if block is None:
            return
        yield block
        k += 1


def check_of(buffer):
    """Python's verdict, as tests/common/verdict.rs gives Rust's: attach, then every client
    and bot block, the first AttachError; None when all pass. Anything else propagates."""
    try:
        handle = bridge.attach(buffer)
    except bridge.AttachError as e:
        return e
    try:
        for getter in ("client_blocks", "bot_blocks"):
            for _ in blocks(handle, getter):
                pass
    except bridge.AttachError as e:
        return e
    finally:
        handle.release()
    return None


def corruptions(folder):
    for name in sorted(os.listdir(folder)):
        if not name.startswith("corrupt_"):
            continue
        buf = mapped(os.path.join(folder, name))
        error = check_of(buf)
        if error is None:
            print(name, "ok")
        else:
            assert isinstance(error, ValueError)
            assert str(error).startswith("attach: %s: " % error.check), str(error)
            print(name, error.check, json.dumps(str(error)))
        buf.close()  # attach let go of the map: no BufferError


def verdict_facts(e):
    """An error's facts as the Rust side words Rust's (None: no error)."""
    if e is None:
        return None
    assert type(e) is bridge.AttachError and str(e).startswith("attach: %s: " % e.check), str(e)
    return {
        "check": e.check, "region": e.region, "expected": e.expected, "found": e.found,
        "offset": e.offset, "size": e.size, "limit": e.limit, "align": e.align,
        "other": e.other, "message": str(e), "retryable": e.retryable,
    }


def verdicts(folder):
    out = {}
    for name in sorted(os.listdir(folder)):
        if not name.startswith("corrupt_"):
            continue
        buf = mapped(os.path.join(folder, name))
        out[name] = verdict_facts(check_of(buf))
        buf.close()
    print(json.dumps(out, sort_keys=True))


def mutations(folder):
    with open(os.path.join(folder, "valid.bin"), "rb") as f:
        image = bytearray(f.read())
    with open(os.path.join(folder, "mutations.json")) as f:
        todo = json.load(f)
    out = []
    for m in todo:
        old = [(at, bytes(image[at : at + len(data)])) for at, data in m["writes"]]
        for at, data in m["writes"]:
            image[at : at + len(data)] = bytes(data)
        with memoryview(image) as whole, whole[: m["len"]] as cut:
            out.append(verdict_facts(check_of(cut)))
        for at, data in reversed(old):
            image[at : at + len(data)] = data
    print(json.dumps(out, sort_keys=True))


def slot_tick(ring, index):
    return ring.slot(index).read_ring_slot().tick


def follow(folder):
    out = {}
    for name, n in (("ring_16", 12), ("ring_64k", 3)):
        buf = bytearray(open(os.path.join(folder, name + ".bin"), "rb").read())
        with bridge.attach(buf) as handle:
            ring = handle.snapshot_ring()
            for k in range(1, n + 1):
                slot = bridge.RingSlot()
                slot.tick = slot.publish_seq = k
                assert ring.publish(slot) == k
            newest = ring.read_newest()
            last = ring.slot(ring.slot_count - 1)
            try:
                ring.slot(ring.slot_count)
                beyond = "no IndexError"
            except IndexError:
                beyond = "IndexError"
            start = handle.region("snapshot_ring")[0]
            out[name] = {
                "slot_count": ring.slot_count,
                "slot_size": ring.slot_size,
                "constants": [ring.SLOT_COUNT, ring.SLOT_SIZE],
                "newest_tick": newest.tick,
                "slot_at": [ring.slot(k)._base - start for k in range(ring.slot_count)],
                "last_slot_length": last._length,
                "beyond": beyond,
                # What a reader at the schema's 32 KiB stride finds where it looks for
                # publication n's slot: a word of another publication's slot.
                "at_schema_stride": int.from_bytes(
                    buf[start + ((n - 1) % ring.SLOT_COUNT) * ring.SLOT_SIZE + 16:][:8], "little"),
                "client7": handle.client_blocks(7).offset,
                "bot7": handle.bot_blocks(7).offset,
            }
    print(json.dumps(out, sort_keys=True))


def lazy(folder):
    out = {}
    for name in sorted(os.listdir(folder)):
        if not name.startswith("lazy_"):
            continue
        buf = mapped(os.path.join(folder, name))
        handle = bridge.attach(buf)  # one bad bot block does not stop attach
        fact = {"others": [], "client7": handle.client_blocks(7) is not None}
        for k in range(7):
            block = handle.bot_blocks(k)
            fact["others"].append(block is not None and block.stats() is not None and block.draw() is not None)
        for _ in range(2):  # checked on each ask, the same error each time
            try:
                handle.bot_blocks(7)
                fact.setdefault("errors", []).append(None)
            except bridge.AttachError as e:
                fact.setdefault("errors", []).append([e.check, e.region, str(e)])
        out[name] = fact
        handle.release()
        buf.close()
    print(json.dumps(out, sort_keys=True))


def reload(folder):
    buf = bytearray(open(os.path.join(folder, "valid.bin"), "rb").read())
    out = {}
    handle = bridge.attach(buf)
    header = handle.header()
    out["generation"] = handle.generation
    out["reloaded_at_first"] = handle.reloaded()
    header.set_host_state(bridge.HostState.STARTING)
    out["reloaded_while_starting"] = handle.reloaded()
    try:
        bridge.attach(buf)
    except bridge.AttachError as e:
        out["attach_while_starting"] = [e.check, e.expected, e.found, e.retryable, str(e)]
    header.set_host_generation(handle.generation + 1)
    header.set_host_state(bridge.HostState.RUNNING)
    out["reloaded_after"] = handle.reloaded()
    again = bridge.attach(buf)
    out["new_generation"] = again.generation
    out["new_reloaded"] = again.reloaded()
    again.release()
    # A reload that begins while attach reads the tables (after the root table, here):
    # attach's second look at the state and generation refuses what it read.
    real = bridge._attach_check_table

    def reload_during(state, generation):
        def check_table(*args):
            table = real(*args)
            header.set_host_state(state)
            header.set_host_generation(generation)
            return table
        return check_table

    for key, state, generation in (("reload_during_attach", bridge.HostState.RUNNING, 9),
                                   ("starting_during_attach", bridge.HostState.STARTING, 2)):
        bridge._attach_check_table = reload_during(state, generation)
        try:
            bridge.attach(buf)
            out[key] = "attached"
        except bridge.AttachError as e:
            out[key] = [e.check, e.expected, e.found, e.retryable, str(e)]
        finally:
            bridge._attach_check_table = real
        header.set_host_state(bridge.HostState.RUNNING)
        header.set_host_generation(2)
    handle.release()
    print(json.dumps(out, sort_keys=True))


def race(folder, signal):
    """Attaches until the host leaves (state 2): every refusal is retryable, every handle's
    ring has its generation's slot count (16 when odd, 8 when even), every block passes,
    and the handle sees the reload that ends it."""
    with open(os.path.join(folder, "bridge.shm"), "r+b") as f:
        buf = mmap.mmap(f.fileno(), 0)
    out = {"refused": {}, "attaches": 0, "noticed": 0, "start_retries": 0}
    started = False
    while True:
        try:
            handle = bridge.attach(buf)
        except bridge.AttachError as e:
            assert e.retryable, str(e)
            if e.check == "host_not_running" and e.found == 2:
                break
            out["refused"][e.check] = out["refused"].get(e.check, 0) + 1
            if not started:
                out["start_retries"] += 1
                buf[signal : signal + 8] = (2**64 - 1).to_bytes(8, "little")  # "I tried"
            continue
        started = True
        out["attaches"] += 1
        g = handle.generation
        count = handle.snapshot_ring().slot_count
        assert count == (16 if g % 2 else 8), "generation %d's handle has %d slots" % (g, count)
        for getter in ("client_blocks", "bot_blocks"):
            for _ in blocks(handle, getter):
                pass
        buf[signal : signal + 8] = g.to_bytes(8, "little")
        while not handle.reloaded():
            pass
        out["noticed"] += 1
        handle.release()
    buf.close()
    print(json.dumps(out, sort_keys=True))


def facts(handle):
    """What the Rust side checks: the producer, the header, where the regions are."""
    client, bot = handle.client_blocks(3), handle.bot_blocks(7)
    pad, stats = client.pad_input(), bot.stats()
    ring = handle.snapshot_ring()
    out = {
        "producer": list(handle.producer),
        "header_size": handle.header_size,
        "extent": handle.extent,
        "rows": list(handle.rows),
        "snapshot_ring": list(handle.region("snapshot_ring")),
        "ring_class": type(ring).__name__,
        "ring_head": ring.head(),
        "ring_newest": ring.read_newest(),
        "header_class": type(handle.header()).__name__,
        "log_ring_class": type(handle.log_ring()).__name__,
        "client3": client.offset,
        "client3_extent": client.extent,
        "client3_pad_input": list(client.region("pad_input")),
        "pad_class": type(pad).__name__,
        "pad_view_at": pad._base,
        "bot7": bot.offset,
        "bot7_stats": list(bot.region("stats")),
        "stats_class": type(stats).__name__,
        "stats_view_at": stats._base,
        "bot7_rows": list(bot.rows),
        "blocks_out_of_range": [
            handle.client_blocks(8), handle.client_blocks(-1), handle.bot_blocks(8)
        ],
    }
    return out


def valid(folder):
    path = os.path.join(folder, "valid.bin")
    with open(path, "rb") as f:
        data = f.read()
    kinds = {
        "mmap_read_only": lambda: mapped(path),
        "mmap_read_write": lambda: mapped(path, mmap.ACCESS_WRITE),
        "bytes": lambda: data,
        "bytearray": lambda: bytearray(data),
        "memoryview": lambda: memoryview(bytearray(data)),
    }
    out = {}
    for kind, make in kinds.items():
        buf = make()
        with bridge.attach(buf) as handle:
            out[kind] = facts(handle)
        if isinstance(buf, mmap.mmap):
            buf.close()  # released: no BufferError
    # The handle holds nothing until a region is handed out, and lets go on release().
    buf = mapped(path)
    handle = bridge.attach(buf)
    view = handle.client_blocks(0).pad_input()
    try:
        buf.close()
        raise AssertionError("the map closed under a live view")
    except BufferError:
        pass
    handle.release()
    buf.close()
    assert issubclass(bridge.AttachError, ValueError)
    for name in ("attach", "AttachError", "read_versioned", "VersionedRecord", "Bridge"):
        assert name in bridge.__all__, name
    print(json.dumps(out, sort_keys=True))


def versioned(folder):
    out = {}
    for name in sorted(os.listdir(folder)):
        if not name.startswith("record_"):
            continue
        cls_name, _ = name[len("record_"):].split("_", 1)
        cls = getattr(bridge, cls_name)
        with open(os.path.join(folder, name), "rb") as f:
            data = f.read()
        try:
            rec = cls.read_versioned(data)
        except bridge.AttachError as e:
            out[name] = {"check": e.check, "message": str(e)}
            continue
        assert rec.value.__class__ is cls and len(bytes(rec.value)) == bridge.ctypes.sizeof(cls)
        again = bridge.read_versioned(cls, bytearray(data))
        assert bytes(again.value) == bytes(rec.value) and again.extra == rec.extra
        fields = {}
        for field in sorted(f for f, _ in cls._fields_):
            value = getattr(rec, field)
            fields[field] = None if value is None else "present"
        out[name] = {
            "producer": list(rec.producer),
            "size": rec.size,
            "extra": len(rec.extra),
            "absent": sorted(rec.absent),
            "fields": fields,
            "zero_tail": not any(bytes(rec.value)[rec.size:]) if rec.size < len(bytes(rec.value)) else True,
            "repr": repr(rec),
        }
    print(json.dumps(out, sort_keys=True))


def inside(handle, length):
    """Every region of the handle and of its blocks lies inside the buffer."""
    regions = 0
    for name in handle.rows:
        region = handle.region(name)
        if region is None:
            continue
        offset, size = region
        assert 0 <= offset and offset + size <= length, (name, region, length)
        regions += 1
    for getter in ("client_blocks", "bot_blocks"):
        if not hasattr(handle, getter):
            continue
        k = 0
        while True:
            block = getattr(handle, getter)(k)
            if block is None:
                break
            assert block.offset + block.extent <= length
            regions += inside(block, length)
            k += 1
    return regions


def fuzz(folder, seed, rounds):
    rng = random.Random(seed)
    seen = {}
    attached = 0

    def attempt(buffer):
        nonlocal attached
        # Attach, then every block (each checked as it is asked for): the verdict. Anything
        # else than AttachError propagates, and the test fails.
        handle = None
        try:
            handle = bridge.attach(buffer)
            inside(handle, len(buffer))
        except bridge.AttachError as e:
            seen[e.check] = seen.get(e.check, 0) + 1
            assert type(e) is bridge.AttachError
            return
        finally:
            if handle is not None:
                handle.release()
        attached += 1

    # Garbage: empty, 3 bytes, random bytes of many lengths, random bytes behind a good magic.
    garbage = [b"", b"\x49", b"IBF", bytes(8), bytes(1280), b"\xff" * 4096]
    for _ in range(200):
        n = rng.choice([0, 1, 3, 7, 64, 1279, 1280, 1304, 4096, 70000])
        garbage.append(bytes(rng.getrandbits(8) for _ in range(n)))
        good = bytearray(garbage[-1])
        good[0:4] = bridge.BRIDGE_MAGIC.to_bytes(4, "little")[: len(good)]
        garbage.append(bytes(good))
    for g in garbage:
        attempt(g)
    # Mutations of the valid image: the header's handshake, the region table and the block
    # tables, a byte, a word or a row at a time, put back after each try.
    with open(os.path.join(folder, "valid.bin"), "rb") as f:
        image = bytearray(f.read())
    offsets = json.loads(sys.argv[5])
    spots = list(range(0, 128))
    for block in offsets["blocks"]:
        spots.extend(block + i for i in range(0, 8 + 8 * 8))
    words = [0, 0xFFFFFFFF, 0x80000000, 1, 7, 8, 72, 1303, 1304, 4096, len(image), len(image) + 1]
    for _ in range(rounds):
        at = rng.choice(spots)
        kind = rng.randrange(3)
        width = 1 if kind == 0 else 4
        at -= at % width
        old = bytes(image[at : at + width])
        if kind == 0:
            image[at] = rng.getrandbits(8)
        elif kind == 1:
            image[at : at + 4] = (rng.choice(words) & 0xFFFFFFFF).to_bytes(4, "little")
        else:
            image[at : at + 4] = rng.getrandbits(32).to_bytes(4, "little")
        cut = rng.random() < 0.1
        attempt(memoryview(image)[: rng.randrange(len(image) + 1)] if cut else image)
        image[at : at + width] = old
    print(json.dumps({"attached": attached, "refused": seen}, sort_keys=True))


def produce(folder, geometry):
    """lay_out then produce into a new file's writable map, as a host would; prints what the
    handle produce returned sees, and the errors lay_out gives bad values."""
    geometry = dict(json.loads(geometry))
    image = bridge.lay_out(geometry, 3)
    path = os.path.join(folder, "python.bin")
    with open(path, "wb") as f:
        f.truncate(len(image))
    buf = mapped(path, mmap.ACCESS_WRITE)
    short = bytearray(len(image) - 1)
    try:
        bridge.produce(short, image)
        short_kind = "none"
    except bridge.ProduceError as e:
        short_kind = e.kind
    assert not any(short), "nothing is written into a buffer too short"
    handle = bridge.produce(buf, image)
    ring = handle.snapshot_ring()
    facts = {"len": len(image), "generation": handle.generation, "slots": ring.slot_count,
             "slot_size": ring.slot_size, "short": short_kind}
    handle.release()
    buf.close()
    errors = {}
    for name, value in (("bridge_header.ring_slot_size", 4100), ("bridge_header.client_block_size", 4096),
                        ("log_ring.capacity", 1 << 40), ("nope.field", 1)):
        try:
            bridge.lay_out(dict(geometry, **{name: value}), 3)
            errors[name] = "none"
        except bridge.AttachError as e:
            errors[name] = "%s %s" % (e.check, e.region)
        except bridge.ProduceError as e:
            errors[name] = "%s %s" % (e.kind, e.region)
    try:
        bridge.lay_out({}, 3)
    except bridge.ProduceError as e:
        errors["none given"] = "%s %s" % (e.kind, e.region)
    facts["errors"] = errors
    print(json.dumps(facts, sort_keys=True))


def read(folder, names):
    """Python's verdict on each image, and the ring geometry its handle follows."""
    out = {}
    for name in names:
        buf = mapped(os.path.join(folder, name))
        error = check_of(buf)
        facts = {"check": "ok" if error is None else error.check}
        if error is None:
            handle = bridge.attach(buf)
            ring = handle.snapshot_ring()
            facts.update(slots=ring.slot_count, slot_size=ring.slot_size, generation=handle.generation)
            handle.release()
        buf.close()
        out[name] = facts
    print(json.dumps(out, sort_keys=True))


def header_fields(folder, names):
    """Which of the header's later fields each image's producer has (its header_size), and
    whether a write of an absent one raises and leaves the bytes after the header alone."""
    out = {}
    for name in names:
        with open(os.path.join(folder, name), "rb") as f:
            image = bytearray(f.read())
        handle = bridge.attach(image)
        header = handle.header()
        present = "".join(
            "0" if read() is None else "1"
            for read in (header.controls, header.run_mode, header.sim_state, header.lockstep_timeout_ms)
        )
        before = bytes(image[handle.header_size : 1304])
        try:
            header.set_run_mode(bridge.RunMode.LOCKSTEP)
            write = "ok"
        except ValueError as e:
            write = str(e)
        out[name] = {"present": present, "write": write, "after_untouched": bytes(image[handle.header_size : 1304]) == before,
                     "minor": header.abi_minor()}
        header.release()
        handle.release()
    print(json.dumps(out, sort_keys=True))


if __name__ == "__main__":
    mode, folder = sys.argv[1], sys.argv[2]
    if mode == "corruptions":
        corruptions(folder)
    elif mode == "valid":
        valid(folder)
    elif mode == "verdicts":
        verdicts(folder)
    elif mode == "race":
        race(folder, int(sys.argv[3]))
    elif mode == "mutations":
        mutations(folder)
    elif mode == "follow":
        follow(folder)
    elif mode == "lazy":
        lazy(folder)
    elif mode == "reload":
        reload(folder)
    elif mode == "versioned":
        versioned(folder)
    elif mode == "produce":
        produce(folder, sys.argv[3])
    elif mode == "header_fields":
        header_fields(folder, sys.argv[3:])
    elif mode == "read":
        read(folder, sys.argv[3:])
    elif mode == "fuzz":
        fuzz(folder, int(sys.argv[3]), int(sys.argv[4]))
    else:
        raise SystemExit("unknown mode %r" % mode)
