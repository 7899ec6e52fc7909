//! A hostile peer for the Python protocol readers: threads that store random words into the
//! regions of client row 0 (its log queue, mailbox and bot block's draw lists) and the log
//! ring, the headers and the first bytes of the areas, while a Python process runs the
//! readers over the same mapped file. A seeded xorshift (the seed printed); most of the
//! 32-bit words are small numbers, which look like positions, sizes and lengths; the
//! capacities are hit once in 64 tries.

use std::path::Path;
use std::process::Child;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::time::{Duration, Instant};

use bridge_abi::live::Bridge;
use bridge_abi::runtime::Mapping;

use super::rng::Rng;

/// Runs the hostile writers from when the file `ready` exists until `child` exits (it must within 120 s: a hang fails); what
/// the child printed. Panics unless it exited 0.
pub fn race(map: &Mapping, ready: &Path, mut child: Child) -> String {
    let region = map.region().expect("a region");
    let bridge = Bridge::attach(region).expect("attach");
    let block = bridge.client_blocks(0).expect("a block").expect("present");
    let bot = bridge.bot_blocks(0).expect("a block").expect("present");
    // Each region, and the header bytes holding its capacities: written only now and then,
    // so that the readers get past their first check and meet the others.
    let targets = [
        (block.log_queue_region().expect("a queue"), 16..20),
        (block.mailbox_region().expect("a mailbox"), 24..32),
        (bot.draw_region().expect("draw lists"), 4..20),
        (bridge.log_ring_region().expect("a ring"), 16..20),
    ];
    let done = AtomicBool::new(false);
    let stores = AtomicU64::new(0);
    let seed = 0x9E37_79B9_7F4A_7C15u64;
    println!("hostile seed {seed:#x}");
    // The child attaches first: an image the writers broke would not attach.
    let until = Instant::now() + Duration::from_secs(30);
    while !ready.exists() {
        if Instant::now() > until || child.try_wait().expect("wait").is_some() {
            let out = child.wait_with_output().expect("the child's output");
            panic!(
                "hostile.py did not attach\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let status = std::thread::scope(|s| {
        for (t, (target, capacities)) in targets.iter().enumerate() {
            let (done, stores) = (&done, &stores);
            s.spawn(move || {
                let mut rng = Rng(seed ^ (t as u64 + 1));
                // The header, the first list header of the draw lists, and the start of
                // each area: where the readers look.
                let span = (target.len().min(64 + 512) / 4) as u64;
                let mut n = 0u64;
                // A capacity broken a moment ago, and what it held: put back soon after.
                let mut broken: Option<(usize, u32)> = None;
                while !done.load(Relaxed) {
                    if n % 32 == 31
                        && let Some((at, was)) = broken.take()
                    {
                        target.try_store::<u32>(at, was, Relaxed).unwrap();
                    }
                    let at = (rng.next() % span) as usize * 4;
                    if capacities.contains(&at) {
                        if broken.is_some() || rng.next() % 64 != 0 {
                            continue;
                        }
                        broken = Some((at, target.load::<u32>(at, Relaxed)));
                    }
                    let word = match rng.next() % 4 {
                        0 => rng.next(),
                        1 => rng.next() % 4096,
                        2 => rng.next() % 8,
                        _ => rng.next() % 64 * 8,
                    };
                    target.try_store::<u32>(at, word as u32, Relaxed).unwrap();
                    n += 1;
                    if n % 64 == 0 {
                        std::thread::sleep(Duration::from_micros(20));
                    }
                }
                stores.fetch_add(n, Relaxed);
            });
        }
        let until = Instant::now() + Duration::from_secs(120);
        let status = loop {
            if let Some(status) = child.try_wait().expect("wait") {
                break Some(status);
            }
            if Instant::now() > until {
                let _ = child.kill();
                break None;
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        done.store(true, Relaxed);
        status
    });
    let out = child.wait_with_output().expect("the child's output");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let status = status.unwrap_or_else(|| panic!("hostile.py hung\n{stdout}\n{stderr}"));
    assert!(
        status.success(),
        "hostile.py failed\n--- stdout\n{stdout}\n--- stderr\n{stderr}"
    );
    println!("{} hostile stores", stores.load(Relaxed));
    stdout
}
