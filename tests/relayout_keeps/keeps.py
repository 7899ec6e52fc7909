"""Issue 48, item 5: bridge.relayout keeps the host's own fields across a re-layout (8 -> 16
ring slots): it prints each kept field, the pads' owners and the ring's slots as the new
image has them, as tests/relayout_keeps/keeps.c does."""

import bridge


def geometry(slots):
    return {"bridge_header.ring_slots": slots, "mailbox.request_capacity": 256,
            "mailbox.response_capacity": 256}


def main():
    one = bridge.lay_out(geometry(8), generation=1)
    two = bridge.lay_out(geometry(16), generation=1)
    buf = bytearray(max(len(one), len(two)))
    host = bridge.produce(buf, one)
    h = host.header()
    h.set_controls(bridge.Controls(move=bridge.ControlStick.DPAD, min_press_ticks=3,
                                   pause=0x400, back=0x800))
    h.set_lockstep_timeout_ms(1234)
    h.set_run_mode(bridge.RunMode.LOCKSTEP)
    h.set_sim_state(bridge.SimState.PAUSED)
    h.compare_exchange_pad_owner_at(0, bridge.NO_PAD, bridge.PAD_NOT_BOT)
    h.compare_exchange_pad_owner_at(1, bridge.NO_PAD, 3)  # row 3's claim
    h.release()
    host.release()
    host = bridge.relayout(buf, two)
    h = host.header()
    print("relayout rc=0 ring_slots=%d generation=%d" % (h.ring_slots(), h.host_generation()))
    c = h.controls()
    print("controls move=%d min_press_ticks=%d pause=%d back=%d"
          % (c.move, c.min_press_ticks, c.pause, c.back))
    print("run_mode=%d sim_state=%d lockstep_timeout_ms=%d"
          % (h.run_mode(), h.sim_state(), h.lockstep_timeout_ms()))
    print("pad_owner " + " ".join(str(p) for p in h.pad_owner()))
    h.release()
    host.release()


main()
