"""The Python bot of tests/events.rs and bench/wake.sh (issue 47): `wake_bot.py BRIDGE_FILE
TICKS`. Client.wait_tick with the `ticks` cap set (a client that cannot count on a fence asks
for every publication), storing each tick in its heartbeat; prints `bot: TICKS WOKEN LOST
WAITS`."""
import mmap, sys
import bridge

path, n = sys.argv[1], int(sys.argv[2])
with open(path, "r+b") as f:
    buf = mmap.mmap(f.fileno(), 0)
header = bridge.LiveBridgeHeader(buf)
me = None
for i in range(bridge.MAX_CLIENTS):
    me = bridge.Client.claim(header, i, header.host_generation())
    if me is not None:
        break
assert me is not None, "no free row"
me.row.set_caps(bridge.ClientCaps.TICKS)
assert me.activate(), "not active"
last = ticks = woken = lost = sleeps = idle = 0
while last < n:
    seq, slept, timed_out = me.wait_tick(last, 1.0)
    sleeps += slept
    if seq is None:
        idle += 1
        assert idle <= 30, "no tick after %d in 30 s" % last
        continue
    if timed_out:
        lost += 1
    elif slept:
        woken += 1
    ticks += seq - last
    last = seq
    me.row.set_heartbeat_ns(seq)
print("bot: %d %d %d %d" % (ticks, woken, lost, sleeps))
