use std::fs::File;
use std::io::{BufReader, BufWriter};
use std::path::Path;

use bridge_abi::recording::{IbfrecReader, IbfrecWriter, WriterOptions};
use bridge_abi::{REC_CHUNK_TICKS, RecFileHeader, RecFooter, RecTickHeader, Snapshot};

/// Records ticks 1..=1000, then replays them and seeks back to tick 500.
fn record_and_replay(path: &Path) -> std::io::Result<u64> {
    // Writing: the header (its magic and format are filled in), one push per tick,
    // then the footer (its counts and totals are filled in), chunk index and trailer.
    let header = RecFileHeader { chunk_ticks: REC_CHUNK_TICKS, ..Default::default() };
    let out = BufWriter::new(File::create(path)?);
    let mut writer = IbfrecWriter::create(out, &header, WriterOptions::new(REC_CHUNK_TICKS))?;
    for tick in 1..=1000 {
        let mut snapshot = Snapshot::default(); // what the host published
        snapshot.header.tick = tick;
        snapshot.header.size = size_of::<Snapshot>() as u32;
        let record = RecTickHeader { tick, ..Default::default() };
        writer.push(&record, &snapshot, &[])?; // extras: none
    }
    writer.finish(&RecFooter::default())?;

    // Replaying: one chunk inflated at a time, each delta decoded.
    let mut reader = IbfrecReader::open(BufReader::new(File::open(path)?))?;
    let mut replayed = 0;
    for record in reader.by_ref() {
        let record = record?;
        assert_eq!(record.snapshot.header.tick, record.record.tick);
        replayed += 1;
    }
    // Seeking inflates only the chunk that holds the tick.
    let tick_500 = reader.read_tick(500)?.expect("the file holds tick 500");
    assert_eq!(tick_500.snapshot.header.tick, 500);
    // A damaged or unfinished file still reads; what was wrong is listed.
    for issue in reader.issues() {
        eprintln!("{issue}");
    }
    Ok(replayed)
}
