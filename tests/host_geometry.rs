//! Issue 46 item 5 in Rust: the host never reads its own geometry back from bytes a client
//! can write, and a free restores every host word of the row's blocks as the image has it. A
//! vandal zeroes both block tables, its queue's capacity, its mailbox's capacities and its
//! draw geometry: its own readers refuse them, the host's handle (`Bridge::produce`) drains,
//! serves and takes with what it laid out, and `ClientHost::free` puts every byte back.

use bridge_abi::CommandStatus;
use bridge_abi::live::Bridge;
use bridge_abi::runtime::SharedBuf;
use std::sync::atomic::Ordering::Relaxed;

#[test]
fn the_hosts_side_reads_its_own_geometry_and_a_free_restores_it() {
    let geometry = [
        ("mailbox.request_capacity", 64),
        ("mailbox.response_capacity", 64),
    ];
    let image = Bridge::lay_out(&geometry, 1).unwrap();
    let buf = SharedBuf::new(image.bytes.len());
    let region = buf.region();
    let host = Bridge::produce(region, &image).unwrap();
    let client = Bridge::attach(region).unwrap();
    let _claim = client.claim_client(0).unwrap();
    let cb = client.client_blocks(0).unwrap().unwrap();
    let bb = client.bot_blocks(0).unwrap().unwrap();
    let (q, m, d) = (
        cb.table().row(0).unwrap().offset,
        cb.table().row(2).unwrap().offset,
        bb.table().row(0).unwrap().offset,
    );
    // client_block_header is 72 bytes (bridge-abi-0.9-reference.txt); the queue's capacity at
    // 16, the mailbox's capacities at 24, the draw's geometry at 4 of their headers.
    let zeroed = [
        (cb.table().base, 72),
        (bb.table().base, 72),
        (q + 16, 4),
        (m + 24, 8),
        (d + 4, 16),
    ];
    for (at, n) in zeroed {
        for word in (at..at + n).step_by(4) {
            region.try_store::<u32>(word, 0, Relaxed).unwrap();
        }
    }
    // The mapping's geometry is refused (the block's table, already placed, still found it).
    assert_eq!(
        cb.log_queue_reader().err().map(|e| e.check()),
        Some("queue_capacity")
    );
    assert_eq!(
        cb.mailbox_server().err().map(|e| e.check()),
        Some("mailbox_capacity")
    );
    assert!(
        client.client_blocks(0).is_err(),
        "the zeroed table is refused"
    );
    // The host's side: its blocks placed and its geometry read as it laid them out.
    let hb = host.client_blocks(0).unwrap().unwrap();
    let mut reader = hb.log_queue_reader().unwrap().unwrap();
    assert!(reader.pop().unwrap().is_none());
    let served = hb
        .mailbox_server()
        .unwrap()
        .unwrap()
        .serve(|_| (CommandStatus::OK, Vec::new()))
        .unwrap();
    assert!(served.is_none());
    let mut draw = host
        .bot_blocks(0)
        .unwrap()
        .unwrap()
        .draw_reader()
        .unwrap()
        .unwrap();
    assert!(draw.take().unwrap().is_none());
    // The free: every zeroed byte is the image's again, and the next client finds the row whole.
    let old = host.client_host().free(0).unwrap().unwrap();
    assert_eq!(old.0, 1, "the vandal's row was claimed");
    for (at, n) in zeroed {
        let mut now = vec![0u8; n];
        region.read_bytes(at, &mut now);
        assert_eq!(now, image.bytes[at..at + n], "bytes {at}..{}", at + n);
    }
    let next = client.client_blocks(0).unwrap().unwrap();
    assert!(next.log_queue_reader().unwrap().is_some());
    assert!(next.mailbox_client_unscoped().unwrap().is_some());
}
