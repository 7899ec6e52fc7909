//! The starter's Rust client (tests/starter_protocols.rs): attaches, copies the state under
//! its seqlock, reads the events ring, logs an entry, asks the mailbox and waits for the
//! answer, and claims, activates and closes a session row.

#[allow(dead_code)] // the bindings of every region
mod starter {
    include!("../../generated/starter.rs");
}

use std::time::Duration;

use abi_runtime::Mapping;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("the image's path")?;
    let map = Mapping::open(&path)?;
    let image = starter::live::Image::attach(map.region()?)?;
    let state = image.state().ok_or("no state")?.read_state_lock()?;
    println!("state {} {}", state.mode, state.tick);
    let events = image.events().ok_or("no events")?;
    let total = events.total();
    let entries = events.entries();
    println!("events {total} {:?}", &entries[..total as usize]);
    let queue = image.log_queue_writer()?.ok_or("no log queue")?;
    let dropped = queue.push(&starter::LogEntry::default(), b"rust", b"hello")?;
    assert!(!dropped);
    let mut mailbox = image.mailbox_client()?.ok_or("no mailbox")?;
    mailbox.request(b"rs")?;
    let answer = mailbox
        .wait_response(Duration::from_secs(10))?
        .ok_or("no answer")?;
    println!(
        "answer {:?} {}",
        answer.status,
        String::from_utf8_lossy(&answer.text)
    );
    let sessions = image.sessions().ok_or("no sessions")?;
    let session = starter::live::Client::claim(sessions, sessions.host_generation(), 1)
        .map_err(|e| format!("claim: {e:?}"))?;
    println!("claimed {:?} {:?}", session.activate(), session.close());
    Ok(())
}
