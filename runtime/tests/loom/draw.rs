//! A loom model of a stale draw publication against the host's free (issue 46 item 3): the
//! runtime's own triple buffer and `restore::exchange`; the negative controls
//! `draw_stale_grace` (the reader's grace dropped) and `draw_stale_writer` (the writer's
//! repair dropped) each fail it.

use std::sync::atomic::{AtomicUsize, Ordering::Relaxed as StdRelaxed};

use abi_runtime::SharedBuf;
use abi_runtime::attach::Field;
use abi_runtime::list_exchange::{ListFormat, ListSpec};
use abi_runtime::triple_buffer::{INITIAL_STATE, TripleReader, TripleWriter};
use loom::thread;

use super::model;

/// Executions of the stale draw model in which the host's reader absorbed the stale
/// publication.
static ABSORBED: AtomicUsize = AtomicUsize::new(0);

/// Where the stale draw model's exchange keeps its state word (the rest of the spec is what
/// `restore::exchange` does not read).
const DRAW: ListSpec = ListSpec {
    state: 0,
    initial_state: INITIAL_STATE,
    stale_grace: abi_runtime::triple_buffer::STALE_GRACE,
    buffers: Field {
        offset: 4,
        width: 4,
    },
    buffer_size: Field {
        offset: 8,
        width: 4,
    },
    max_items: Field {
        offset: 12,
        width: 4,
    },
    max_payload: Field {
        offset: 16,
        width: 4,
    },
    published: Field {
        offset: 20,
        width: 4,
    },
    area: 8,
    list: ListFormat {
        size: 16,
        align: 8,
        count: Field {
            offset: 0,
            width: 4,
        },
        payload_len: Field {
            offset: 4,
            width: 4,
        },
        dropped: Field {
            offset: 8,
            width: 4,
        },
        flags: Field {
            offset: 12,
            width: 4,
        },
        overflow: 1,
    },
    item_size: 0,
};

/// A stale draw publication against the free's reset (issue 46 item 3): a writer of the
/// row's last session, which owns list `stale_own` after the publications and takes its
/// session made, publishes once more (its list marked 99) while the host frees the row
/// (`restore::exchange`, the runtime's own reset) and renews its reader, and the row's next
/// client starts its writer and publishes lists 1 to 3, the host taking after each. The
/// host's take is never refused (the newcomer keeps its row), and once the stale writer is
/// done, the newcomer's next publications are taken: of three more, the host takes the last,
/// whole (at most two go untaken: one refused to the writer while the stale publication
/// names the list it fills, and one absorbed when the host took the stale one as the
/// newcomer's, which it cannot tell apart). The negative controls: `draw_stale_grace` drops
/// the reader's grace (a take is refused), `draw_stale_writer` the writer's repair of the
/// list both sides hold (the newcomer never publishes again); the model must fail under
/// each. Run for each list the stale writer can own.
#[test]
fn draw_stale_publish_against_the_free() {
    for stale_own in 0..3usize {
        model(
            &format!("stale draw (stale writer owns list {stale_own})"),
            move || {
                // The state word at 0, then three lists of two words; leaked, so that the last
                // session's writer goes to its thread with the buffer it borrows.
                let mut bytes = [0u8; 8 + 3 * 16];
                bytes[..4].copy_from_slice(&INITIAL_STATE.to_ne_bytes());
                let buf: &'static SharedBuf = Box::leak(Box::new(SharedBuf::from_bytes(&bytes)));
                let r = buf.region();
                // The last session: its writer publishes (and its reader takes) until the writer
                // owns `stale_own`.
                let mut old = TripleWriter::new(r, 0);
                let mut old_reader = TripleReader::new(r, 0);
                while old.own() != stale_own {
                    old.publish().unwrap();
                    old_reader.take().unwrap();
                }
                let stale = thread::spawn(move || {
                    r.write(8 + 16 * old.own(), &[99u64, 99]).unwrap();
                    old.publish().is_ok()
                });
                // The host's free (the row retired, then this reset), a new reader; the new
                // client's writer starts at the initial state.
                abi_runtime::restore::exchange(r, DRAW).unwrap();
                let mut host = TripleReader::new(r, 0);
                let mut client = TripleWriter::new(r, 0);
                let mut round = |v: u64, host: &mut TripleReader<'_, _>| {
                    r.write(8 + 16 * client.own(), &[v, v]).unwrap();
                    // A publication of the list this writer fills (the stale writer owned it too)
                    // is refused until the host takes it: the list is kept, published next time.
                    let _ = client.publish();
                    let taken = host.take();
                    assert!(
                        taken.is_ok(),
                        "the host's take after list {v} was refused: {taken:?}, the newcomer loses its row"
                    );
                    taken.unwrap().map(|i| r.read::<[u64; 2]>(8 + 16 * i))
                };
                for v in 1..=3 {
                    round(v, &mut host);
                }
                let _ = stale.join().unwrap();
                round(4, &mut host);
                round(5, &mut host);
                let last = round(6, &mut host);
                assert_eq!(
                    last,
                    Some([6, 6]),
                    "the newcomer's publication after the stale one was not taken whole"
                );
                if host.absorbed() > 0 {
                    ABSORBED.fetch_add(1, StdRelaxed);
                }
            },
        );
    }
    assert!(
        ABSORBED.load(StdRelaxed) > 0,
        "no execution absorbed a stale publication: the model checks nothing"
    );
}
