//! Bridge images for the attach tests: a valid one, laid out with the offsets the reference
//! text gives (not the generator's), and corrupted copies, each with the check that must
//! refuse it. The Rust, C and Python tests attach to the same images.

/// Offsets from `bridge-abi-0.9-reference.txt`.
pub mod at {
    pub const MAGIC: usize = 0x00;
    pub const ABI_MAJOR: usize = 0x04;
    pub const ABI_MINOR: usize = 0x06;
    pub const HEADER_SIZE: usize = 0x08;
    pub const TOTAL_SIZE: usize = 0x0C;
    pub const REGION_COUNT: usize = 0x1C;
    pub const REGIONS: usize = 0x40;
    pub const RING_SLOTS: usize = 0x90;
    pub const RING_SLOT_SIZE: usize = 0x94;
    pub const MAX_CLIENTS: usize = 0x98;
    pub const CLIENT_BLOCK_SIZE: usize = 0x9C;
    pub const CLIENT_ENTRY_SIZE: usize = 0xA0;
    pub const SNAPSHOT_SEQ: usize = 0xC0;
    /// client_block_header: size, region_count, regions.
    pub const BLOCK_SIZE: usize = 0x00;
    pub const BLOCK_REGION_COUNT: usize = 0x04;
    pub const BLOCK_REGIONS: usize = 0x08;
}

pub const BRIDGE_MAGIC: u32 = 0x4246_4249;
pub const HEADER_SIZE: u32 = 1304;
/// Where the valid image puts each bridge region (bridge_region order), and its size.
pub const SNAPSHOT_RING: (u32, u32) = (4096, 8 * 32768);
pub const CLIENT_BLOCKS: (u32, u32) = (4096 + 8 * 32768, 8 * 0x10000);
pub const LOG_RING: (u32, u32) = (CLIENT_BLOCKS.0 + CLIENT_BLOCKS.1, 64 + 0x10000);
pub const BOT_BLOCKS: (u32, u32) = (LOG_RING.0 + LOG_RING.1, 8 * 0x49000);
pub const TOTAL: u32 = BOT_BLOCKS.0 + BOT_BLOCKS.1;
/// Client block rows (client_region order): log_queue, pad_input, mailbox.
pub const CLIENT_ROWS: [(u32, u32); 3] = [(128, 64 + 16384), (16576, 32), (16640, 4096)];
/// Bot block rows (bot_region order): draw, params, stats.
pub const BOT_ROWS: [(u32, u32); 3] = [(128, 270_592), (270_720, 8768), (279_488, 4160)];

fn put(image: &mut [u8], offset: usize, bytes: &[u8]) {
    image[offset..offset + bytes.len()].copy_from_slice(bytes);
}

fn put32(image: &mut [u8], offset: usize, v: u32) {
    put(image, offset, &v.to_le_bytes());
}

fn put16(image: &mut [u8], offset: usize, v: u16) {
    put(image, offset, &v.to_le_bytes());
}

/// Writes row `index` of the table at `table` (offset, size).
fn row(image: &mut [u8], table: usize, index: usize, (offset, size): (u32, u32)) {
    put32(image, table + 8 * index, offset);
    put32(image, table + 8 * index + 4, size);
}

/// A valid 0.9 bridge image: header, table, and every client and bot block's table.
pub fn valid() -> Vec<u8> {
    let mut image = vec![0u8; TOTAL as usize];
    put32(&mut image, at::MAGIC, BRIDGE_MAGIC);
    put16(&mut image, at::ABI_MAJOR, 0);
    put16(&mut image, at::ABI_MINOR, 9);
    put32(&mut image, at::HEADER_SIZE, HEADER_SIZE);
    put32(&mut image, at::TOTAL_SIZE, TOTAL);
    put32(&mut image, at::REGION_COUNT, 5);
    row(&mut image, at::REGIONS, 0, (0, HEADER_SIZE));
    row(&mut image, at::REGIONS, 1, SNAPSHOT_RING);
    row(&mut image, at::REGIONS, 2, CLIENT_BLOCKS);
    row(&mut image, at::REGIONS, 3, LOG_RING);
    row(&mut image, at::REGIONS, 4, BOT_BLOCKS);
    put32(&mut image, at::RING_SLOTS, 8);
    put32(&mut image, at::RING_SLOT_SIZE, 32768);
    put32(&mut image, at::MAX_CLIENTS, 8);
    put32(&mut image, at::CLIENT_BLOCK_SIZE, 0x10000);
    put32(&mut image, at::CLIENT_ENTRY_SIZE, 128);
    for i in 0..8 {
        let block = (CLIENT_BLOCKS.0 + i * 0x10000) as usize;
        put32(&mut image, block + at::BLOCK_SIZE, 0x10000);
        put32(&mut image, block + at::BLOCK_REGION_COUNT, 3);
        for (k, r) in CLIENT_ROWS.iter().enumerate() {
            row(&mut image, block + at::BLOCK_REGIONS, k, *r);
        }
        let block = (BOT_BLOCKS.0 + i * 0x49000) as usize;
        put32(&mut image, block + at::BLOCK_SIZE, 0x49000);
        put32(&mut image, block + at::BLOCK_REGION_COUNT, 3);
        for (k, r) in BOT_ROWS.iter().enumerate() {
            row(&mut image, block + at::BLOCK_REGIONS, k, *r);
        }
    }
    image
}

/// A corrupted image and the check that must refuse it: the error's snake_case name, the
/// same in Rust (`AttachError::check`), C (`*_attach_check_name`) and Python
/// (`AttachError.check`).
pub struct Corruption {
    pub name: &'static str,
    pub check: &'static str,
    pub image: Vec<u8>,
}

/// At least 15 corruptions, one concern each.
pub fn corruptions() -> Vec<Corruption> {
    let mut list = Vec::new();
    let mut add = |name: &'static str, check: &'static str, f: &dyn Fn(&mut Vec<u8>)| {
        let mut image = valid();
        f(&mut image);
        list.push(Corruption { name, check, image });
    };
    let client0 = CLIENT_BLOCKS.0 as usize;
    let bot3 = (BOT_BLOCKS.0 + 3 * 0x49000) as usize;
    add("wrong magic", "bad_magic", &|i| {
        put32(i, at::MAGIC, 0x4446_4249)
    });
    add("major mismatch", "major_mismatch", &|i| {
        put16(i, at::ABI_MAJOR, 1)
    });
    add(
        "mapping shorter than the header",
        "mapping_too_short",
        &|i| i.truncate(1000),
    );
    add(
        "header_size under the 0.1 prefix",
        "header_too_small",
        &|i| put32(i, at::HEADER_SIZE, 1000),
    );
    add(
        "header_size past the mapping",
        "header_beyond_mapping",
        &|i| put32(i, at::HEADER_SIZE, TOTAL + 8),
    );
    add("truncated mapping", "extent_beyond_mapping", &|i| {
        i.truncate(TOTAL as usize - 4096)
    });
    add("total_size under header_size", "extent_too_small", &|i| {
        put32(i, at::TOTAL_SIZE, 1200)
    });
    add("region_count past the table", "too_many_rows", &|i| {
        put32(i, at::REGION_COUNT, 9)
    });
    add("required region absent", "region_missing", &|i| {
        row(i, at::REGIONS, 1, (0, 0))
    });
    add("region count leaves a region out", "region_missing", &|i| {
        put32(i, at::REGION_COUNT, 3)
    });
    add("region out of bounds", "region_out_of_bounds", &|i| {
        row(i, at::REGIONS, 3, (TOTAL - 64, LOG_RING.1))
    });
    add("region offset wraps around", "region_out_of_bounds", &|i| {
        row(i, at::REGIONS, 3, (u32::MAX - 7, LOG_RING.1))
    });
    add("misaligned region", "region_misaligned", &|i| {
        row(i, at::REGIONS, 1, (SNAPSHOT_RING.0 + 4, SNAPSHOT_RING.1))
    });
    add("region too small", "region_too_small", &|i| {
        row(i, at::REGIONS, 3, (LOG_RING.0, 64))
    });
    add("overlapping regions", "regions_overlap", &|i| {
        row(
            i,
            at::REGIONS,
            3,
            (CLIENT_BLOCKS.0 + CLIENT_BLOCKS.1 - 64, LOG_RING.1),
        )
    });
    add("region over the header", "regions_overlap", &|i| {
        row(i, at::REGIONS, 1, (1024, SNAPSHOT_RING.1))
    });
    add(
        "client block row out of its block",
        "region_out_of_bounds",
        &|i| row(i, client0 + at::BLOCK_REGIONS, 2, (0xFFF0, 4096)),
    );
    add(
        "client block's pad_input too small",
        "region_too_small",
        &|i| row(i, client0 + at::BLOCK_REGIONS, 1, (16576, 16)),
    );
    add("client block rows overlap", "regions_overlap", &|i| {
        row(i, client0 + at::BLOCK_REGIONS, 1, (200, 32))
    });
    add(
        "bot block size past its stride",
        "extent_beyond_block",
        &|i| put32(i, bot3 + at::BLOCK_SIZE, 0x49000 + 8),
    );
    add(
        "bot block region_count past the table",
        "too_many_rows",
        &|i| put32(i, bot3 + at::BLOCK_REGION_COUNT, 200),
    );
    add("bot block row misaligned", "region_misaligned", &|i| {
        row(
            i,
            bot3 + at::BLOCK_REGIONS,
            1,
            (BOT_ROWS[1].0 + 4, BOT_ROWS[1].1),
        )
    });
    list
}
