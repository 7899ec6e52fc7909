//! The bridge's region protocols through the generated Rust API, on images the generated
//! producer lays out: the log queue (a wrap and its padding entry at every offset modulo the
//! capacity, a full queue dropping and counting, a part past its entry), the log ring (a
//! lapped reader, never a torn entry), the mailbox (a round trip, a cut answer, busy), the
//! draw lists (the producer's initial state, a full list's overflow and dropped count) and
//! the client session (claim, disconnect, reload, exit, close, a pad bound); then threads
//! racing through the same API, each proving it raced (drops, laps, waits, overwrites and
//! lost claims above 0).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread;
use std::time::Duration;

use bridge_abi::live::{
    self, Bridge, ClientPadRefused, ClientRefused, ClientStanding, LogRingRead,
};
use bridge_abi::runtime::SharedBuf;
use bridge_abi::zerocopy::FromZeros;
use bridge_abi::{ClientState, CommandStatus, DrawCmd, DrawListFlags, LogEntry, LogLevel};

/// The mailbox's areas (no constant of the schema sizes them), then any other geometry.
fn image(extra: &[(&'static str, u64)]) -> SharedBuf {
    let mut geometry = vec![
        ("mailbox.request_capacity", 256),
        ("mailbox.response_capacity", 256),
    ];
    for &(name, value) in extra {
        geometry.retain(|(n, _)| *n != name);
        geometry.push((name, value));
    }
    let image = Bridge::lay_out(&geometry, 1).expect("the geometry lays out");
    let buf = SharedBuf::new(image.bytes.len());
    Bridge::produce(buf.region(), &image).expect("written and attached");
    buf
}

fn attach(buf: &SharedBuf) -> Bridge<'_> {
    Bridge::attach(buf.region()).expect("attaches")
}

/// Sets its flag when dropped (release), a panic's unwinding included: a thread that waits
/// for its peer also stops when the peer is gone, so a panicking peer fails the test
/// instead of hanging it.
struct SetOnDrop<'a>(&'a AtomicBool);

impl Drop for SetOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Release);
    }
}

/// Sets its flag when dropped by a panic's unwinding: the threads that wait for this one
/// check it and fail instead of waiting forever.
struct PanicFlag<'a>(&'a AtomicBool);

impl Drop for PanicFlag<'_> {
    fn drop(&mut self) {
        if thread::panicking() {
            self.0.store(true, Ordering::Release);
        }
    }
}

/// Panics when `panicked` is set: the peer this thread waits for panicked.
fn peer_alive(panicked: &AtomicBool, peer: &str) {
    assert!(!panicked.load(Ordering::Acquire), "the {peer} panicked");
}

fn entry(tick: u64) -> LogEntry {
    LogEntry {
        tick,
        level: LogLevel((tick % 5) as u8),
        ..FromZeros::new_zeroed()
    }
}

// ---------------------------------------------------------------------------------------
// The log queue.

#[test]
fn a_queue_entry_wraps_with_padding_at_every_offset() {
    const CAP: u64 = 256;
    let buf = image(&[("log_queue.capacity", CAP)]);
    let bridge = attach(&buf);
    let block = bridge.client_blocks(0).unwrap().unwrap();
    let writer = block.log_queue_writer_unscoped().unwrap().unwrap();
    let mut reader = block.log_queue_reader().unwrap().unwrap();
    let header = block.log_queue().unwrap();
    assert_eq!(writer.capacity(), CAP);
    let (mut padded, mut starts) = (0, std::collections::BTreeSet::new());
    // Every offset an entry can start at: 0, and each past the least entry (a 40-byte
    // header; entries never cross the end, so none ends at 8 to 32).
    let targets: Vec<u64> = std::iter::once(0).chain((40..CAP).step_by(8)).collect();
    for &target in &targets {
        // Fillers of the size that reaches the target, or the area's end (an entry is at
        // least its 40-byte header).
        while header.write_pos() % CAP != target {
            let at = header.write_pos() % CAP;
            let size = if target > at && target - at >= 40 {
                target - at
            } else {
                (CAP - at).max(40)
            };
            let filler = vec![b'f'; size as usize - 40];
            assert!(!writer.push(&entry(0), b"", &filler).unwrap());
            assert!(reader.pop().unwrap().is_some());
        }
        starts.insert(header.write_pos() % CAP);
        let text = vec![b'a' + (target / 8) as u8; 60 + target as usize / 8];
        let before = header.write_pos();
        assert!(!writer.push(&entry(target), b"src", &text).unwrap());
        let size = (40 + 3 + text.len() as u64).next_multiple_of(8);
        if header.write_pos() - before > size {
            padded += 1;
            assert_eq!(
                header.write_pos() % CAP,
                size,
                "after padding, the entry is at 0"
            );
        }
        let got = reader.pop().unwrap().expect("the entry");
        assert_eq!(
            (got.source.as_slice(), got.text.as_slice()),
            (&b"src"[..], &text[..])
        );
        assert_eq!(got.head.tick, target);
        assert_eq!(u64::from(got.head.size), size);
        assert!(reader.pop().unwrap().is_none(), "the padding is skipped");
    }
    assert_eq!(
        starts.len(),
        targets.len(),
        "every offset modulo the capacity"
    );
    assert!(padded > 0, "some entries must not fit before the end");
    eprintln!(
        "queue: an entry at each of {} offsets, {padded} after padding",
        starts.len()
    );
}

#[test]
fn a_full_queue_drops_and_counts() {
    let buf = image(&[("log_queue.capacity", 1024)]);
    let bridge = attach(&buf);
    let block = bridge.client_blocks(3).unwrap().unwrap();
    let writer = block.log_queue_writer_unscoped().unwrap().unwrap();
    let mut reader = block.log_queue_reader().unwrap().unwrap();
    let (mut kept, mut dropped) = (Vec::new(), 0);
    for k in 0..100u64 {
        if writer
            .push(&entry(k), b"t", k.to_string().as_bytes())
            .unwrap()
        {
            dropped += 1;
        } else {
            kept.push(k);
        }
    }
    assert!(dropped > 0 && writer.dropped() == dropped && reader.dropped() == dropped);
    let mut got = Vec::new();
    while let Some(e) = reader.pop().unwrap() {
        assert_eq!(e.text, e.head.tick.to_string().as_bytes());
        got.push(e.head.tick);
    }
    assert_eq!(got, kept, "what was kept arrives whole and in order");
    assert!(
        !writer.push(&entry(100), b"", b"after").unwrap(),
        "room again"
    );
}

#[test]
fn a_part_too_long_or_past_its_entry_is_a_named_error() {
    let buf = image(&[]);
    let bridge = attach(&buf);
    let block = bridge.client_blocks(1).unwrap().unwrap();
    let writer = block.log_queue_writer_unscoped().unwrap().unwrap();
    let mut reader = block.log_queue_reader().unwrap().unwrap();
    let long = vec![b'x'; bridge_abi::LOG_TEXT_MAX as usize + 1];
    let err = writer.push(&entry(1), b"", &long).err().unwrap();
    assert_eq!(err.check(), "entry_part_too_long");
    assert!(writer.push(&entry(1), b"ab", b"hello").is_ok());
    // The reader does not trust text_len: one past the entry, then one past its bound.
    let area = block.log_queue_region().unwrap();
    area.try_store::<u16>(live::LogQueueHeader::SIZE + 6, 500, Ordering::Relaxed)
        .unwrap();
    assert_eq!(reader.pop().err().unwrap().check(), "entry_part_past_entry");
    assert!(writer.push(&entry(2), b"ab", b"hello").is_ok());
    let second = live::LogQueueHeader::SIZE + 48;
    area.try_store::<u16>(second + 6, 2000, Ordering::Relaxed)
        .unwrap();
    assert_eq!(reader.pop().err().unwrap().check(), "entry_part_too_long");
}

// ---------------------------------------------------------------------------------------
// The log ring.

#[test]
fn a_lapped_ring_reader_learns_what_it_missed_and_never_gets_a_torn_entry() {
    let buf = image(&[("log_ring.capacity", 512)]);
    let bridge = attach(&buf);
    let writer = bridge.log_ring_writer().unwrap().unwrap();
    let mut reader = bridge.log_ring_join_latest().unwrap().unwrap();
    let mut oldest = bridge.log_ring_join_oldest().unwrap().unwrap();
    assert!(matches!(reader.read_next().unwrap(), LogRingRead::Empty));
    for k in 0..3u64 {
        assert_eq!(
            writer
                .push(&entry(k), b"host", k.to_string().as_bytes())
                .unwrap(),
            k
        );
    }
    let LogRingRead::Entry(e) = reader.read_next().unwrap() else {
        panic!("an entry")
    };
    assert_eq!(
        (e.head.seq, e.text.as_slice(), e.source.as_slice()),
        (0, &b"0"[..], &b"host"[..])
    );
    // 100 more entries lap both readers many times over.
    for k in 3..103u64 {
        writer
            .push(&entry(k), b"host", k.to_string().as_bytes())
            .unwrap();
    }
    let (mut read, mut missed, mut last) = (1u64, 0u64, 0u64);
    loop {
        match reader.read_next().unwrap() {
            LogRingRead::Entry(e) => {
                assert_eq!(e.text, e.head.seq.to_string().as_bytes(), "never torn");
                assert_eq!(e.head.seq, last + 1, "no gap that is not reported");
                last = e.head.seq;
                read += 1;
            }
            LogRingRead::Lapped { missed: m } => {
                missed += m;
                last += m;
            }
            LogRingRead::Empty => break,
        }
    }
    assert!(missed > 0 && reader.laps() > 0);
    assert_eq!(
        read + missed,
        103,
        "read plus missed is every entry written"
    );
    // Joined at the oldest of an empty ring, it was lapped too, then reads the oldest kept.
    let LogRingRead::Lapped { missed } = oldest.read_next().unwrap() else {
        panic!("lapped")
    };
    let LogRingRead::Entry(first) = oldest.read_next().unwrap() else {
        panic!("the oldest kept entry")
    };
    assert_eq!(
        first.head.seq, missed,
        "the entries before it were overwritten"
    );
    let fresh = bridge.log_ring_join_oldest().unwrap().unwrap();
    let mut fresh = fresh;
    let LogRingRead::Entry(again) = fresh.read_next().unwrap() else {
        panic!("a reader joining now starts at the oldest kept entry")
    };
    assert_eq!(again.head.seq, first.head.seq);
}

// ---------------------------------------------------------------------------------------
// The mailbox.

#[test]
fn a_mailbox_round_trip_a_cut_answer_and_a_busy_client() {
    let buf = image(&[("mailbox.response_capacity", 64)]);
    let bridge = attach(&buf);
    let block = bridge.client_blocks(2).unwrap().unwrap();
    let mut client = block.mailbox_client_unscoped().unwrap().unwrap();
    let server = block.mailbox_server().unwrap().unwrap();
    assert!(
        client.poll_response().unwrap().is_none(),
        "no request, no answer"
    );
    assert_eq!(server.serve(|_| unreachable!()).unwrap(), None);
    let seq = client.request(b"ping").unwrap();
    assert_eq!(
        client.request(b"again").unwrap_err().check(),
        "mailbox_busy"
    );
    assert!(client.poll_response().unwrap().is_none());
    let served = server.serve(|text| (CommandStatus::OK, [text, b" pong"].concat()));
    assert_eq!(served.unwrap(), Some(seq));
    let r = client
        .wait_response(Duration::from_secs(1))
        .unwrap()
        .unwrap();
    assert_eq!(
        (r.seq, r.status, r.text.as_slice(), r.cut),
        (seq, CommandStatus::OK, &b"ping pong"[..], false)
    );
    // An answer longer than the response area is cut, and says so.
    client.request(b"go").unwrap();
    // The request ends with its NUL: "ping" leaves no "gong" for a C-string host.
    let mut area = [0xAAu8; 6];
    let at = live::MailboxClient::SPEC.area;
    block.mailbox_region().unwrap().read_bytes(at, &mut area);
    assert_eq!(
        &area[..4],
        b"go\0g",
        "the request area after `ping` then `go`"
    );
    server
        .serve(|_| (CommandStatus::FAILED, vec![b'y'; 100]))
        .unwrap();
    let r = client.poll_response().unwrap().unwrap();
    assert_eq!(
        (r.text.len(), r.total, r.cut, r.status),
        (64, 100, true, CommandStatus::FAILED)
    );
    assert!(
        client.poll_response().unwrap().is_none(),
        "an answer is taken once"
    );
    let too_long = vec![b'z'; 256];
    assert_eq!(
        client.request(&too_long).unwrap_err().check(),
        "mailbox_too_long"
    );
    assert!(
        client
            .wait_response(Duration::from_millis(1))
            .unwrap()
            .is_none()
    );
}

// ---------------------------------------------------------------------------------------
// The draw lists.

fn cmd(color: u32, payload_off: u64) -> DrawCmd {
    DrawCmd {
        color,
        payload_off: payload_off as u32,
        payload_len: 8,
        ..FromZeros::new_zeroed()
    }
}

#[test]
fn the_producer_leaves_every_draw_exchange_at_its_initial_state() {
    let buf = image(&[]);
    let bridge = attach(&buf);
    for i in 0..bridge_abi::MAX_CLIENTS {
        let draw = bridge.bot_blocks(i).unwrap().unwrap().draw().unwrap();
        assert_eq!(
            draw.state(),
            1,
            "bot block {i}: writer 0, shared 1, reader 2"
        );
    }
}

/// The exchange's start is decided once in the generator's lowering (ExchangeStart, which
/// the C, Python and Rust backends and the prose print) and once in the runtime
/// (`starting_buffers`, which the Rust writer and reader start from): they agree on every
/// state word, and both refuse one that is not a list index.
#[test]
fn the_generators_exchange_start_is_the_runtimes() {
    use abi_codegen::testing::ir::protocol::ExchangeStart;
    use bridge_abi::runtime::triple_buffer::starting_buffers;
    for state in 0..16u32 {
        let planned = ExchangeStart::of(state).map(|s| (s.writer as usize, s.reader as usize));
        assert_eq!(planned, starting_buffers(state).ok(), "state word {state}");
    }
}

#[test]
fn a_full_draw_list_drops_counts_and_flags_overflow() {
    let buf = image(&[]);
    let bridge = attach(&buf);
    let block = bridge.bot_blocks(0).unwrap().unwrap();
    let mut writer = block.draw_writer_unscoped().unwrap().unwrap();
    let mut reader = block.draw_reader().unwrap().unwrap();
    let (max_items, max_payload) = writer.capacity();
    assert_eq!(
        (max_items, max_payload),
        (
            u64::from(bridge_abi::DRAW_MAX_COMMANDS),
            u64::from(bridge_abi::DRAW_PAYLOAD_MAX)
        )
    );
    assert!(reader.take().unwrap().is_none());
    // 8 payload bytes each: the payload is full after max_payload / 8 commands, then the
    // items are full; the rest are dropped.
    let tries = max_items + 5;
    let mut added = 0;
    for n in 0..tries {
        let at = writer.payload_len();
        let payload = if n < max_payload / 8 {
            &n.to_le_bytes()[..]
        } else {
            &[]
        };
        if writer.push(&cmd(n as u32, at), payload) {
            added += 1;
        }
    }
    assert_eq!(
        (added, writer.len(), writer.dropped()),
        (max_items, max_items, 5)
    );
    let mut h: bridge_abi::DrawListHeader = FromZeros::new_zeroed();
    h.seq = 7;
    h.for_tick = 70;
    let p = writer.publish(&h).unwrap();
    assert!(!p.overwrote);
    let list = reader.take().unwrap().unwrap();
    assert_eq!((list.head.seq, list.head.for_tick), (7, 70));
    assert_eq!(u64::from(list.head.count), max_items);
    assert_eq!(
        (list.head.dropped, u64::from(list.head.payload_len)),
        (5, max_payload)
    );
    assert_eq!(
        list.head.flags & DrawListFlags::OVERFLOW,
        DrawListFlags::OVERFLOW
    );
    assert_eq!(list.items.len() as u64, max_items);
    for (n, c) in list
        .items
        .iter()
        .enumerate()
        .take((max_payload / 8) as usize)
    {
        let off = c.payload_off as usize;
        assert_eq!(c.color, n as u32);
        assert_eq!(list.payload[off..off + 8], (n as u64).to_le_bytes());
    }
    assert_eq!(reader.published(), 1);
    // The next list starts empty and without the flag; two publications overwrite one.
    assert!(writer.push(&cmd(9, 0), &[]));
    writer.publish(&h).unwrap();
    assert!(writer.publish(&h).unwrap().overwrote);
    let list = reader.take().unwrap().unwrap();
    assert_eq!(
        (list.head.count, list.head.dropped, list.head.flags.0),
        (0, 0, 0)
    );
}

#[test]
fn a_draw_header_that_does_not_fit_its_region_is_a_named_error() {
    let buf = image(&[]);
    let bridge = attach(&buf);
    let block = bridge.bot_blocks(1).unwrap().unwrap();
    let draw = block.draw().unwrap();
    draw.region()
        .try_store::<u32>(8, 1 << 30, Ordering::Relaxed)
        .unwrap(); // buffer_size
    assert_eq!(
        block.draw_writer_unscoped().unwrap_err().check(),
        "exchange_geometry"
    );
    draw.region()
        .try_store::<u32>(8, 90176, Ordering::Relaxed)
        .unwrap();
    draw.region()
        .try_store::<u32>(4, 4, Ordering::Relaxed)
        .unwrap(); // buffers
    assert_eq!(
        block.draw_reader().unwrap_err().check(),
        "exchange_geometry"
    );
}

// ---------------------------------------------------------------------------------------
// The client session.

/// One session's use of row 1's blocks, as a client killed mid-session leaves them: log
/// entries the host never read, a request it never answered, and the draw exchange's shared
/// list moved (two publications, one taken).
fn leave_a_session_behind(bridge: &Bridge<'_>) {
    let block = bridge.client_blocks(1).unwrap().unwrap();
    let queue = block.log_queue_writer_unscoped().unwrap().unwrap();
    queue.push(&entry(1), b"old", b"unread").unwrap();
    let mut mailbox = block.mailbox_client_unscoped().unwrap().unwrap();
    mailbox.request(b"unanswered").unwrap();
    let bot = bridge.bot_blocks(1).unwrap().unwrap();
    let mut writer = bot.draw_writer_unscoped().unwrap().unwrap();
    let mut reader = bot.draw_reader().unwrap().unwrap();
    let h: bridge_abi::DrawListHeader = FromZeros::new_zeroed();
    writer.publish(&h).unwrap();
    reader.take().unwrap().unwrap();
    writer.publish(&h).unwrap();
    assert_ne!(bot.draw().unwrap().state(), 1, "the exchange moved on");
}

/// What the row's next client and the host find in row 1's blocks: the old session's log
/// entry still there for the host, then the new one's; an idle mailbox; and the draw
/// exchange at its start, each working from there.
fn find_row_one_restored(bridge: &Bridge<'_>) {
    let block = bridge.client_blocks(1).unwrap().unwrap();
    let mut queue = block.log_queue_reader().unwrap().unwrap();
    assert_eq!(
        queue.pop().unwrap().unwrap().text,
        b"unread",
        "the host drains it"
    );
    let writer = block.log_queue_writer_unscoped().unwrap().unwrap();
    writer.push(&entry(2), b"new", b"fresh").unwrap();
    assert_eq!(queue.pop().unwrap().unwrap().text, b"fresh");
    let mut mailbox = block.mailbox_client_unscoped().unwrap().unwrap();
    let seq = mailbox
        .request(b"first")
        .expect("not busy with the old request");
    let server = block.mailbox_server().unwrap().unwrap();
    assert_eq!(
        server.serve(|t| (CommandStatus::OK, t.to_vec())).unwrap(),
        Some(seq)
    );
    assert_eq!(mailbox.poll_response().unwrap().unwrap().text, b"first");
    let bot = bridge.bot_blocks(1).unwrap().unwrap();
    assert_eq!(
        bot.draw().unwrap().state(),
        1,
        "the exchange's initial state"
    );
    let mut writer = bot.draw_writer_unscoped().unwrap().unwrap();
    let mut reader = bot.draw_reader().unwrap().unwrap();
    let mut h: bridge_abi::DrawListHeader = FromZeros::new_zeroed();
    for seq in 1..=3 {
        h.seq = seq;
        writer.publish(&h).expect("the new session publishes");
        assert_eq!(reader.take().unwrap().unwrap().head.seq, seq);
    }
}

/// Issue 36, item 5: a free and a reload restore every protocol in the blocks the row owns
/// (`owner = "client"` on the layout's blocks rows) that would otherwise refuse the next
/// client: the mailbox and the draw exchange.
#[test]
fn a_free_and_a_reload_restore_the_rows_queue_mailbox_and_draw_lists() {
    let buf = image(&[]);
    let bridge = attach(&buf);
    let host = bridge.client_host();
    let client = bridge.claim_client(1).unwrap();
    client.activate();
    leave_a_session_behind(&bridge);
    assert_eq!(host.free(1).unwrap(), Some(ClientState::ACTIVE));
    find_row_one_restored(&bridge);
    // A free row is left as it is; a reload restores the rows it frees.
    let again = bridge.claim_client(1).unwrap();
    again.activate();
    leave_a_session_behind(&bridge);
    assert_eq!(host.reload().unwrap(), vec![1]);
    // The host's reload left its own handle's tables where they were; a client attaches again.
    find_row_one_restored(&attach(&buf));
}

/// Issue 36, item 7 and issue 46, item 3: the default writers (`log_queue_writer`,
/// `mailbox_client`, `draw_writer`) are bound to the claim they are given: they write while
/// the claim stands and refuse, storing nothing, once the row was freed or the host reloaded.
/// (Shown failing once with `ClientScoped::write`'s standing check removed from the generated
/// code: the stale push was stored.)
#[test]
fn a_scoped_writer_writes_while_its_claim_stands_and_refuses_after() {
    let buf = image(&[]);
    let bridge = attach(&buf);
    let host = bridge.client_host();
    let client = bridge.claim_client(5).unwrap();
    client.activate();
    let block = bridge.client_blocks(5).unwrap().unwrap();
    let mut queue = block.log_queue_writer(&client).unwrap().unwrap();
    let mut mailbox = block.mailbox_client(&client).unwrap().unwrap();
    queue
        .write(|q| q.push(&entry(1), b"s", b"one"))
        .unwrap()
        .unwrap();
    assert_eq!(host.free(5).unwrap(), Some(ClientState::ACTIVE));
    assert_eq!(
        queue.write(|q| q.push(&entry(2), b"s", b"two")).err(),
        Some(ClientStanding::Disconnected)
    );
    assert_eq!(
        mailbox.write(|m| m.request(b"stale")).err(),
        Some(ClientStanding::Disconnected)
    );
    let server = block.mailbox_server().unwrap().unwrap();
    assert!(
        server
            .serve(|_| (CommandStatus::OK, Vec::new()))
            .unwrap()
            .is_none(),
        "no request stored after the free"
    );
    let mut reader = block.log_queue_reader().unwrap().unwrap();
    assert_eq!(reader.pop().unwrap().unwrap().text, b"one");
    assert!(
        reader.pop().unwrap().is_none(),
        "nothing stored after the free"
    );
    let again = bridge.claim_client(5).unwrap();
    again.activate();
    let bots = bridge.bot_blocks(5).unwrap().unwrap();
    let mut draw = bots.draw_writer(&again).unwrap().unwrap();
    let mut h: bridge_abi::DrawListHeader = FromZeros::new_zeroed();
    h.seq = 1;
    draw.write(|d| d.publish(&h)).unwrap().unwrap();
    let state = bots.draw().unwrap().state();
    assert_eq!(host.reload().unwrap(), vec![5]);
    h.seq = 2;
    assert_eq!(
        draw.write(|d| d.publish(&h)).err(),
        Some(ClientStanding::Reloaded)
    );
    assert_eq!(
        bots.draw().unwrap().state(),
        1,
        "the reload's restore, untouched"
    );
    assert_ne!(state, 1);
}

/// Issue 46 item 3: a draw publication that the host's free overtook never costs the row's
/// next client its row. The last session's writer (which owns list 2 after two publications)
/// publishes after the free (state 6, the host's own list, fresh); the host's renewed reader
/// absorbs it (nothing shown, no error, so the host keeps the newcomer), and the newcomer's
/// lists are taken from its first. Then the other order: the newcomer publishes over the stale
/// publication before the host looks, the host gives back the list the newcomer fills, and
/// the newcomer's writer publishes in place: every list after it is taken.
#[test]
fn a_stale_draw_publication_after_a_free_never_evicts_the_next_session() {
    for newcomer_first in [false, true] {
        let buf = image(&[]);
        let bridge = attach(&buf);
        let host = bridge.client_host();
        let client = bridge.claim_client(1).unwrap();
        client.activate();
        let bot = bridge.bot_blocks(1).unwrap().unwrap();
        let mut stale = bot.draw_writer_unscoped().unwrap().unwrap();
        let mut reader = bot.draw_reader().unwrap().unwrap();
        let mut h: bridge_abi::DrawListHeader = FromZeros::new_zeroed();
        h.seq = 100;
        stale.publish(&h).unwrap();
        reader.take().unwrap().unwrap();
        stale.publish(&h).unwrap();
        // The free: the exchange back at its start, and the host's new reader.
        assert_eq!(host.free(1).unwrap(), Some(ClientState::ACTIVE));
        let mut reader = bot.draw_reader().unwrap().unwrap();
        let newcomer = bridge.claim_client(1).unwrap();
        newcomer.activate();
        let mut writer = bot.draw_writer_unscoped().unwrap().unwrap();
        // The stale writer's publication lands after the free.
        h.seq = 101;
        stale.publish(&h).expect("the stale publication lands");
        assert_eq!(bot.draw().unwrap().state(), 6, "list 2 shared, fresh");
        let mut taken = Vec::new();
        for seq in 1..=4 {
            h.seq = seq;
            if newcomer_first || seq > 1 {
                writer.publish(&h).expect("the newcomer publishes");
            }
            let list = reader.take().expect("the host's take is not refused");
            taken.extend(list.map(|l| l.head.seq));
            if !newcomer_first && seq == 1 {
                writer.publish(&h).expect("the newcomer publishes");
                taken.extend(reader.take().unwrap().map(|l| l.head.seq));
            }
        }
        assert_eq!(newcomer.standing(), ClientStanding::Connected);
        assert!(
            !taken.contains(&101),
            "the stale list is never shown: {taken:?}"
        );
        assert_eq!(
            taken.last(),
            Some(&4),
            "the newcomer's lists are taken: {taken:?}"
        );
        if newcomer_first {
            assert_eq!(taken, [1, 2, 3, 4], "every list of the newcomer");
        } else {
            assert_eq!(taken, [1, 2, 3, 4]);
            assert_eq!(reader.absorbed(), 1, "the stale publication, absorbed");
        }
    }
}

/// Issue 36, bad input: a peer that breaks the lifecycle rules gets a named outcome, never a
/// success it did not earn.
#[test]
fn lifecycle_rules_a_peer_breaks_give_named_outcomes() {
    let buf = image(&[]);
    let bridge = attach(&buf);
    let host = bridge.client_host();
    // A row whose generation goes backwards is no longer the claim's.
    let client = bridge.claim_client(2).unwrap();
    client.activate();
    let row = bridge.header().clients(2).unwrap();
    row.set_generation(client.generation() - 1).unwrap();
    assert_eq!(client.standing(), ClientStanding::Disconnected);
    assert_eq!(client.heartbeat(5).unwrap(), ClientStanding::Disconnected);
    // A pad_owner byte naming a row that does not exist: a bind is refused naming it, and a
    // free of another row leaves it alone.
    let header = bridge.header();
    assert_eq!(
        header
            .compare_exchange_pad_owner_at(0, bridge_abi::NO_PAD, 200)
            .unwrap(),
        Ok(())
    );
    let other = bridge.claim_client(3).unwrap();
    other.activate();
    assert_eq!(other.bind(0), Err(ClientPadRefused::Held(200)));
    assert_eq!(host.free(3).unwrap(), Some(ClientState::ACTIVE));
    assert_eq!(header.pad_owner()[0], 200);
    // A host that lays out again with an old generation still moves past the mapping's.
    let g = header.host_generation();
    let image = Bridge::lay_out(
        &[
            ("mailbox.request_capacity", 256),
            ("mailbox.response_capacity", 256),
        ],
        1,
    )
    .unwrap();
    let again = Bridge::produce(buf.region(), &image).unwrap();
    assert_eq!(again.generation(), Some(u64::from(g) + 1));
    assert_eq!(client.standing(), ClientStanding::Reloaded);
}

/// The hung rule (issue 40, item 3): a row the host sees in use for the first time gets the
/// whole hung time, heartbeat or not (the README's bots were freed at the first check, their
/// heartbeat 0 read as ancient); a row stuck in claimed is hung after it (it leaked forever);
/// a heartbeat, activation or new claim starts the time again; a free row never hangs.
#[test]
fn the_hung_rule_gives_a_new_row_its_grace_and_catches_a_stuck_claim() {
    const HUNG: u64 = bridge_abi::live::Client::HUNG_MS * 1_000_000;
    let buf = image(&[]);
    let bridge = attach(&buf);
    let host = bridge.client_host();
    let mut watch = host.watch();
    let late = 50 * HUNG;
    // Row 1: claimed, and its client dies before activate.
    let stuck = bridge.claim_client(1).expect("row 1 is free");
    assert!(!host.is_hung(&mut watch, 1, late));
    assert!(!host.is_hung(&mut watch, 1, late + HUNG));
    assert!(host.is_hung(&mut watch, 1, late + HUNG + 1));
    // Activated: a change, so a new grace; it never heartbeats (heartbeat 0).
    assert_eq!(stuck.activate(), ClientStanding::Connected);
    assert!(!host.is_hung(&mut watch, 1, late + HUNG + 2));
    assert!(!host.is_hung(&mut watch, 1, late + 2 * HUNG + 2));
    assert!(host.is_hung(&mut watch, 1, late + 2 * HUNG + 3));
    // A heartbeat of any value (here one far in the past of the host's clock) is a change.
    assert_eq!(stuck.heartbeat(7), Ok(ClientStanding::Connected));
    assert!(!host.is_hung(&mut watch, 1, late + 2 * HUNG + 4));
    // Freed, then claimed again by a new client: forgotten while free, a new grace after.
    host.free(1).unwrap();
    assert!(!host.is_hung(&mut watch, 1, late + 5 * HUNG));
    let _next = bridge.claim_client(1).expect("row 1 is free again");
    assert!(!host.is_hung(&mut watch, 1, late + 6 * HUNG));
    assert!(host.is_hung(&mut watch, 1, late + 7 * HUNG + 1));
    // A free row, and a row past the table, are never hung.
    assert!(!host.is_hung(&mut watch, 3, late));
    assert!(!host.is_hung(&mut watch, 3, late + 10 * HUNG));
    assert!(!host.is_hung(&mut watch, 99, late + 10 * HUNG));
}

#[test]
fn a_client_session_claims_notices_disconnect_reload_and_exit_and_closes() {
    let buf = image(&[]);
    let bridge = attach(&buf);
    let host = bridge.client_host();
    let client = bridge.claim_client(2).expect("row 2 is free");
    assert_eq!(bridge.claim_client(2).err(), Some(ClientRefused::Taken));
    assert_eq!(bridge.claim_client(99).err(), Some(ClientRefused::NoRow));
    assert_eq!((client.index(), client.generation()), (2, 1));
    client.row().set_pid(42).unwrap();
    assert_eq!(client.activate(), ClientStanding::Connected);
    assert_eq!(
        bridge.header().clients(2).unwrap().state(),
        ClientState::ACTIVE
    );
    assert_eq!(client.heartbeat(1_000).unwrap(), ClientStanding::Connected);
    client.set_waiting(true).unwrap();
    assert_eq!(bridge.header().clients(2).unwrap().waiting(), 1);
    let mut watch = host.watch();
    assert!(!host.is_hung(&mut watch, 2, 1_000));
    assert!(!host.is_hung(&mut watch, 2, 1_000 + 1_000_000_000));
    assert!(host.is_hung(&mut watch, 2, 1_000 + 1_000_000_001));
    // Pads: a laid-out image starts with every pad unbound; bound once, by this row only.
    assert_eq!(bridge.header().pad_owner(), [bridge_abi::NO_PAD; 4]);
    assert_eq!(client.bind(1), Ok(()));
    assert_eq!(bridge.header().pad_owner()[1], 2);
    let other = bridge.claim_first_client().expect("row 0");
    assert_eq!(other.index(), 0);
    assert_eq!(other.bind(1), Err(ClientPadRefused::Held(2)));
    assert_eq!(other.unbind(1), Err(ClientPadRefused::Held(2)));
    assert_eq!(client.bind(9), Err(ClientPadRefused::NoPad));
    assert_eq!(client.bind(3), Ok(()));
    assert_eq!(client.unbind(1), Ok(()));
    assert_eq!(client.bind(1), Ok(()));
    // A disconnect: the host frees the row, and lets go of its pads (issue 36, item 6); a
    // new claim bumps the generation and inherits nothing.
    assert_eq!(host.free(2).unwrap(), Some(ClientState::ACTIVE));
    assert_eq!(bridge.header().pad_owner(), [bridge_abi::NO_PAD; 4]);
    assert_eq!(client.standing(), ClientStanding::Disconnected);
    assert_eq!(
        client.heartbeat(2_000).unwrap(),
        ClientStanding::Disconnected
    );
    assert_eq!(
        client.bind(2),
        Err(ClientPadRefused::Lost(ClientStanding::Disconnected)),
        "a lost row binds nothing"
    );
    assert_eq!(bridge.header().pad_owner()[2], bridge_abi::NO_PAD);
    let again = bridge.claim_client(2).unwrap();
    assert_eq!(again.generation(), 2);
    assert_eq!(
        again.unbind(1),
        Err(ClientPadRefused::Held(bridge_abi::NO_PAD))
    );
    assert_eq!(
        client.standing(),
        ClientStanding::Disconnected,
        "still, after the new claim"
    );
    assert_eq!(again.activate(), ClientStanding::Connected);
    assert_eq!(again.bind(0), Ok(()));
    // A reload: a new host generation, every row freed, every pad let go.
    assert_eq!(host.reload().unwrap(), vec![0, 2]);
    assert_eq!(again.standing(), ClientStanding::Reloaded);
    assert_eq!(other.standing(), ClientStanding::Reloaded);
    assert_eq!(bridge.header().pad_owner(), [bridge_abi::NO_PAD; 4]);
    // A claim through the handle attached before the reload is refused, and the row given
    // back (issue 36, item 3): attach again.
    assert_eq!(bridge.claim_client(2).err(), Some(ClientRefused::Reloaded));
    let row = bridge.header().clients(2).unwrap();
    assert_eq!((row.state(), row.generation()), (ClientState::FREE, 3));
    let bridge = attach(&buf);
    let third = bridge.claim_client(2).unwrap();
    assert_eq!(third.generation(), 4);
    assert_eq!(third.activate(), ClientStanding::Connected);
    // Goodbye: closing, for the host to free.
    assert_eq!(third.close(), ClientStanding::Connected);
    assert_eq!(host.free(2).unwrap(), Some(ClientState::CLOSING));
    let fourth = bridge.claim_client(2).unwrap();
    host.exit().unwrap();
    assert_eq!(fourth.standing(), ClientStanding::HostExiting);
    assert_eq!(
        bridge.claim_client(3).err(),
        Some(ClientRefused::HostExiting)
    );
    let row = bridge.header().clients(3).unwrap();
    assert_eq!(row.state(), ClientState::FREE, "given back");
}

// ---------------------------------------------------------------------------------------
// Threads racing through the generated API.

#[test]
fn a_queue_writer_racing_its_reader_drops_and_loses_nothing_else() {
    let total: u64 = 200_000;
    let buf = image(&[("log_queue.capacity", 2048)]);
    let bridge = attach(&buf);
    let block = bridge.client_blocks(0).unwrap().unwrap();
    let done = AtomicBool::new(false);
    let (dropped, received) = thread::scope(|s| {
        let w = s.spawn(|| {
            let _done = SetOnDrop(&done);
            let writer = block.log_queue_writer_unscoped().unwrap().unwrap();
            let mut dropped = 0u64;
            for k in 0..total {
                dropped += u64::from(
                    writer
                        .push(&entry(k), b"t", k.to_string().as_bytes())
                        .unwrap(),
                );
            }
            dropped
        });
        let mut reader = block.log_queue_reader().unwrap().unwrap();
        let (mut received, mut last) = (0u64, None);
        loop {
            let finished = done.load(Ordering::Acquire);
            match reader.pop().unwrap() {
                Some(e) => {
                    assert_eq!(e.text, e.head.tick.to_string().as_bytes());
                    assert!(last < Some(e.head.tick));
                    last = Some(e.head.tick);
                    received += 1;
                }
                None if finished => break,
                None => thread::yield_now(),
            }
        }
        (w.join().unwrap(), received)
    });
    eprintln!("queue race: {total} pushed, {dropped} dropped, {received} received");
    assert!(dropped > 0, "the writer must have filled the queue");
    assert_eq!(dropped + received, total);
}

#[test]
fn a_ring_writer_racing_two_slow_readers_laps_them_and_tears_nothing() {
    let total: u64 = 200_000;
    let buf = image(&[("log_ring.capacity", 4096)]);
    let bridge = attach(&buf);
    let done = AtomicBool::new(false);
    let laps = AtomicU64::new(0);
    thread::scope(|s| {
        for r in 0..2 {
            let (bridge, done, laps) = (&bridge, &done, &laps);
            s.spawn(move || {
                let mut reader = bridge.log_ring_join_oldest().unwrap().unwrap();
                let (mut read, mut missed, mut last) = (0u64, 0u64, None::<u64>);
                let mut first = None;
                loop {
                    let finished = done.load(Ordering::Acquire);
                    match reader.read_next().unwrap() {
                        LogRingRead::Entry(e) => {
                            assert_eq!(e.text, e.head.seq.to_string().as_bytes(), "torn");
                            if let Some(l) = last {
                                assert_eq!(e.head.seq, l + 1, "a gap not reported");
                            }
                            last = Some(e.head.seq);
                            first.get_or_insert(e.head.seq);
                            read += 1;
                            if read % 64 == 0 {
                                thread::sleep(Duration::from_micros(200));
                            }
                        }
                        // A lap before the first entry read is before what it counts from.
                        LogRingRead::Lapped { missed: m } => {
                            if last.is_some() {
                                missed += m;
                            }
                            last = last.map(|l| l + m);
                        }
                        LogRingRead::Empty if finished => break,
                        LogRingRead::Empty => thread::yield_now(),
                    }
                }
                eprintln!(
                    "ring reader {r}: {read} read, {missed} missed, {} laps",
                    reader.laps()
                );
                let first = first.expect("an entry read");
                assert_eq!(last, Some(total - 1), "the newest entry is read");
                assert_eq!(read + missed, total - first, "every entry read or missed");
                laps.fetch_add(reader.laps(), Ordering::Relaxed);
            });
        }
        let _done = SetOnDrop(&done);
        let writer = bridge.log_ring_writer().unwrap().unwrap();
        for k in 0..total {
            writer
                .push(&entry(k), b"", k.to_string().as_bytes())
                .unwrap();
        }
    });
    assert!(
        laps.load(Ordering::Relaxed) > 0,
        "the readers must have been lapped"
    );
}

#[test]
fn a_mailbox_client_racing_its_server_gets_each_answer_once() {
    let total = 5_000u32;
    let buf = image(&[]);
    let bridge = attach(&buf);
    let block = bridge.client_blocks(5).unwrap().unwrap();
    let (done, server_gone) = (AtomicBool::new(false), AtomicBool::new(false));
    let waits = thread::scope(|s| {
        s.spawn(|| {
            let _gone = PanicFlag(&server_gone);
            let server = block.mailbox_server().unwrap().unwrap();
            while !done.load(Ordering::Acquire) {
                let served = server.serve(|text| {
                    let k = std::str::from_utf8(text)
                        .unwrap()
                        .trim_start_matches("req ");
                    (CommandStatus::OK, format!("ans {k}").into_bytes())
                });
                if served.unwrap().is_none() {
                    thread::yield_now();
                }
            }
        });
        let _done = SetOnDrop(&done);
        let mut client = block.mailbox_client_unscoped().unwrap().unwrap();
        let mut waits = 0u64;
        for k in 0..total {
            client.request(format!("req {k}").as_bytes()).unwrap();
            let r = loop {
                if let Some(r) = client.poll_response().unwrap() {
                    break r;
                }
                peer_alive(&server_gone, "server"); // it serves until `done`
                waits += 1;
                thread::yield_now();
            };
            assert_eq!(r.text, format!("ans {k}").as_bytes());
            assert_eq!(r.status, CommandStatus::OK);
        }
        waits
    });
    eprintln!("mailbox race: {total} requests answered, {waits} polls waited");
    assert!(waits > 0, "the client must have polled before an answer");
}

#[test]
fn a_draw_writer_racing_its_reader_overwrites_and_never_shows_a_torn_list() {
    let total: u64 = 100_000;
    let buf = image(&[]);
    let bridge = attach(&buf);
    let block = bridge.bot_blocks(2).unwrap().unwrap();
    let done = AtomicBool::new(false);
    let (overwrote, taken, last) = thread::scope(|s| {
        let w = s.spawn(|| {
            let _done = SetOnDrop(&done);
            let mut writer = block.draw_writer_unscoped().unwrap().unwrap();
            let mut overwrote = 0u64;
            for n in 1..=total {
                for _ in 0..1 + n % 2 {
                    let at = writer.payload_len();
                    writer.push(&cmd(n as u32, at), &n.to_le_bytes());
                }
                let mut h: bridge_abi::DrawListHeader = FromZeros::new_zeroed();
                h.seq = n as u32;
                h.for_tick = n;
                overwrote += u64::from(writer.publish(&h).unwrap().overwrote);
            }
            overwrote
        });
        let mut reader = block.draw_reader().unwrap().unwrap();
        let (mut taken, mut last) = (0u64, 0u64);
        loop {
            let finished = done.load(Ordering::Acquire);
            match reader.take().unwrap() {
                Some(list) => {
                    let n = list.head.for_tick;
                    assert!(n > last, "stale");
                    assert_eq!(list.head.count as u64, 1 + n % 2);
                    for c in &list.items {
                        let off = c.payload_off as usize;
                        assert_eq!(c.color, n as u32, "torn");
                        assert_eq!(list.payload[off..off + 8], n.to_le_bytes(), "torn");
                    }
                    last = n;
                    taken += 1;
                }
                None if finished => break,
                None => thread::yield_now(),
            }
        }
        (w.join().unwrap(), taken, last)
    });
    eprintln!("draw race: {total} published, {taken} taken, {overwrote} overwritten unread");
    assert_eq!(last, total, "the newest list is taken");
    assert_eq!(taken + overwrote, total);
    assert!(overwrote > 0, "the writer must have lapped the reader");
}

#[test]
fn clients_racing_for_rows_win_each_once_and_notice_each_free() {
    let rounds = 2_000u64;
    let buf = image(&[]);
    let bridge = attach(&buf);
    let host = bridge.client_host();
    let round = AtomicU64::new(0);
    let (wins, lost, noticed, tried) = (
        AtomicU64::new(0),
        AtomicU64::new(0),
        AtomicU64::new(0),
        AtomicU64::new(0),
    );
    let (host_gone, client_gone) = (AtomicBool::new(false), AtomicBool::new(false));
    thread::scope(|s| {
        for _ in 0..3 {
            s.spawn(|| {
                let _gone = PanicFlag(&client_gone);
                let mut seen = 0;
                while seen < rounds {
                    let r = round.load(Ordering::Acquire);
                    if r == seen {
                        peer_alive(&host_gone, "host");
                        thread::yield_now();
                        continue;
                    }
                    seen = r;
                    match bridge.claim_client(1) {
                        Ok(c) => {
                            assert_eq!(c.activate(), ClientStanding::Connected);
                            wins.fetch_add(1, Ordering::Relaxed);
                            tried.fetch_add(1, Ordering::AcqRel);
                            while c.standing() == ClientStanding::Connected {
                                peer_alive(&host_gone, "host");
                                thread::yield_now();
                            }
                            noticed.fetch_add(1, Ordering::AcqRel);
                        }
                        Err(refused) => {
                            assert_eq!(refused, ClientRefused::Taken);
                            lost.fetch_add(1, Ordering::Relaxed);
                            tried.fetch_add(1, Ordering::AcqRel);
                        }
                    }
                }
            });
        }
        let _gone = PanicFlag(&host_gone);
        for r in 1..=rounds {
            round.store(r, Ordering::Release);
            // Every client tried (the winner activated first), then the host frees the row.
            while tried.load(Ordering::Acquire) < 3 * r {
                peer_alive(&client_gone, "client");
                thread::yield_now();
            }
            assert_eq!(host.free(1).unwrap(), Some(ClientState::ACTIVE));
            while noticed.load(Ordering::Acquire) < r {
                peer_alive(&client_gone, "client");
                thread::yield_now();
            }
        }
    });
    let (wins, lost) = (wins.into_inner(), lost.into_inner());
    eprintln!("session race: {rounds} rounds, {wins} claims won, {lost} lost to another client");
    assert_eq!(wins, rounds, "one winner a round");
    assert!(lost > 0, "the clients must have raced for the row");
}

// ---------------------------------------------------------------------------------------
// The bridge's life over time (issue 36).

/// Item 1: a host that restarts and lays out its image again over the live mapping, asking
/// for the generation it started with, still gives a new generation: the old handle
/// notices, the old claim is `Reloaded`, and a newcomer on the same row is the only owner.
/// Item 4: the old handle hands out no block of the new tables.
#[test]
fn a_relayout_over_a_live_mapping_is_a_reload() {
    let buf = image(&[]);
    let old = attach(&buf);
    let client = old.claim_client(0).unwrap();
    assert_eq!(client.activate(), ClientStanding::Connected);
    let g = old.generation().expect("the bridge names its generation");
    let geometry = [
        ("mailbox.request_capacity", 256),
        ("mailbox.response_capacity", 256),
    ];
    let again = Bridge::lay_out(&geometry, g).expect("lays out");
    let new = Bridge::produce(buf.region(), &again).expect("produced again");
    assert_eq!(new.generation(), Some(g + 1), "past the mapping's");
    assert!(old.reloaded());
    assert_eq!(client.standing(), ClientStanding::Reloaded);
    assert!(matches!(
        old.client_blocks(0),
        Err(bridge_abi::runtime::AttachError::HostReloaded { .. })
    ));
    assert_eq!(
        old.claim_client(1).err(),
        Some(ClientRefused::Reloaded),
        "no claim through the old handle"
    );
    let newcomer = new.claim_client(0).unwrap();
    assert_eq!(newcomer.activate(), ClientStanding::Connected);
    assert_eq!(client.standing(), ClientStanding::Reloaded, "one owner");
    // A host that is starting (or reloading) hands out no block to a client; the host's
    // own handle (from produce) keeps its blocks.
    let bot = attach(&buf);
    new.header()
        .set_host_state(bridge_abi::HostState::STARTING)
        .unwrap();
    assert!(matches!(
        bot.bot_blocks(0),
        Err(bridge_abi::runtime::AttachError::HostNotRunning { .. })
    ));
    assert!(new.bot_blocks(0).unwrap().is_some(), "the host's own");
}
