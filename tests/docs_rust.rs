//! The guide's Rust blocks that no other test runs are compiled here: each is the body of a
//! function below, between `// docs begin: FILE MARKER` and `// docs end`, and
//! [`each_block_is_the_one_compiled`] checks that the guide's block after MARKER in FILE is
//! that body, line for line (less its indent, the test's path swapped for the guide's).

use crate::common::readme::block_after;

/// docs/bots.md: a bot attaches, reads the newest snapshot and claims a client row.
#[allow(dead_code, reason = "compiled, not run: the guide's code")]
fn bot_attaches(bridge_path: &str) -> Result<(), Box<dyn std::error::Error>> {
    // docs begin: docs/bots.md|A bot attaches, reads the newest snapshot
    use bridge_abi::live::{self, ClientStanding};
    use bridge_abi::runtime::Mapping; // features = ["mmap"]

    let map = Mapping::open(bridge_path)?; // "/dev/shm/ibf.bridge"
    // Checks the magic, the major version (the minor may differ), header_size, total_size and
    // every region of the bridge, client and bot block tables; each failure is a named
    // AttachError ("attach: bad_magic: expected 0x42464249, found ...").
    let bridge = live::Bridge::attach(map.region()?)?;

    let ring = bridge.snapshot_ring().expect("a 0.9 host has one");
    if let Some(newest) = ring.read_newest()? {
        println!("tick {}", newest.payload.header.tick); // an owned, consistent copy
    }

    // One compare-and-swap of a free row's (state, generation) word, the generation bumped: how
    // the host tells an old client from a new one. ClientRefused when every row is taken.
    let client = bridge.claim_first_client()?;
    client.row().set_pid(std::process::id())?; // how the host tells a dead bot at once
    if client.activate() != ClientStanding::Connected {
        return Err("the host freed the row meanwhile".into());
    }
    // Its virtual pad (each block is checked when first used).
    let pad = bridge
        .client_blocks(client.index())?
        .and_then(|block| block.pad_input());
    // docs end
    let _ = pad;
    Ok(())
}

/// docs/hosts.md: the producer lays out a bridge.
#[allow(dead_code, reason = "compiled, not run: the guide's code")]
fn host_lays_out(bridge_path: &str) -> Result<(), Box<dyn std::error::Error>> {
    // docs begin: docs/hosts.md|## The producer's side: laying out a bridge
    use bridge_abi::live::Bridge;
    use bridge_abi::runtime::Mapping; // features = ["mmap"]
    use bridge_abi::runtime::identity::Identity;

    let geometry = [
        ("bridge_header.ring_slots", 16),   // the host's own ring
        ("mailbox.request_capacity", 2048), // no constant sizes these
        ("mailbox.response_capacity", 8192),
    ];
    let mut image = Bridge::lay_out(&geometry, 1)?; // generation 1; checked like attach would
    // Who produced it: this process's id, its version, the clock pair read together.
    Bridge::stamp_identity(&mut image, &Identity::now("my-host 1.0"))?;
    let map = Mapping::create(bridge_path, image.bytes.len())?; // "/dev/shm/ibf.bridge"; 0600: "Who may attach"
    let bridge = Bridge::produce(map.region()?, &image)?; // running last, with release
    // ... publish with bridge.snapshot_ring(); on a reload: lay_out(.., 2) and produce again.
    // docs end
    let _ = bridge;
    Ok(())
}

#[test]
fn each_block_is_the_one_compiled() {
    let source = include_str!("docs_rust.rs");
    let mut checked = 0;
    // The marker, spelt so that this line does not hold it.
    for part in source.split(concat!("    // docs ", "begin: ")).skip(1) {
        let (head, rest) = part.split_once('\n').expect("a marker line");
        let (file, marker) = head.split_once('|').expect("FILE|MARKER");
        let body = &rest[..rest.find("    // docs end\n").expect("the end marker")];
        let body: String = body
            .lines()
            .map(|l| format!("{}\n", l.strip_prefix("    ").unwrap_or(l)))
            .collect::<String>()
            .replace(
                "Mapping::open(bridge_path)?; // \"/dev/shm/ibf.bridge\"",
                "Mapping::open(\"/dev/shm/ibf.bridge\")?;",
            )
            .replace(
                "Mapping::create(bridge_path, image.bytes.len())?; // \"/dev/shm/ibf.bridge\";",
                "Mapping::create(\"/dev/shm/ibf.bridge\", image.bytes.len())?; //",
            );
        assert_eq!(block_after(file, marker, "rust"), body, "{file}: {marker}");
        checked += 1;
    }
    assert_eq!(checked, 2, "every function's block was compared");
}
