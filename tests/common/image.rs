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
    pub const HOST_GENERATION: usize = 0x14;
    pub const HOST_STATE: usize = 0x18;
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
    /// log_ring_header.capacity and log_queue_header.capacity.
    pub const LOG_CAPACITY: usize = 0x10;
    /// mailbox_header.
    pub const REQUEST_CAPACITY: usize = 0x18;
    pub const RESPONSE_CAPACITY: usize = 0x1C;
    /// draw_header.
    pub const DRAW_BUFFERS: usize = 0x04;
    pub const DRAW_BUFFER_SIZE: usize = 0x08;
    pub const DRAW_MAX_COMMANDS: usize = 0x0C;
    pub const DRAW_MAX_PAYLOAD: usize = 0x10;
    /// params_header.max_params, stats_header.max_stats.
    pub const MAX_PARAMS: usize = 0x10;
    pub const MAX_STATS: usize = 0x08;
}

/// host_state values (reference: host_state enum).
pub const STARTING: u32 = 0;
pub const RUNNING: u32 = 1;
/// The valid image's host_generation.
pub const GENERATION: u32 = 1;
/// The valid mailbox's request and response capacities (its region is 4096 bytes, 64 of
/// them its header).
pub const MAILBOX_CAPACITIES: (u32, u32) = (1024, 3008);
/// draw_header geometry: buffers, buffer_size (64 + 2048 * 36 + 16384), max_commands,
/// max_payload.
pub const DRAW_GEOMETRY: [u32; 4] = [3, 90_176, 2048, 16_384];

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

pub fn put32(image: &mut [u8], offset: usize, v: u32) {
    put(image, offset, &v.to_le_bytes());
}

pub fn put16(image: &mut [u8], offset: usize, v: u16) {
    put(image, offset, &v.to_le_bytes());
}

/// Writes row `index` of the table at `table` (offset, size).
pub fn row(image: &mut [u8], table: usize, index: usize, (offset, size): (u32, u32)) {
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
    put32(&mut image, LOG_RING.0 as usize + at::LOG_CAPACITY, 0x10000);
    for i in 0..8 {
        let block = (CLIENT_BLOCKS.0 + i * 0x10000) as usize;
        put32(&mut image, block + at::BLOCK_SIZE, 0x10000);
        put32(&mut image, block + at::BLOCK_REGION_COUNT, 3);
        for (k, r) in CLIENT_ROWS.iter().enumerate() {
            row(&mut image, block + at::BLOCK_REGIONS, k, *r);
        }
        let queue = block + CLIENT_ROWS[0].0 as usize;
        put32(&mut image, queue + at::LOG_CAPACITY, 16384);
        let mailbox = block + CLIENT_ROWS[2].0 as usize;
        put32(
            &mut image,
            mailbox + at::REQUEST_CAPACITY,
            MAILBOX_CAPACITIES.0,
        );
        put32(
            &mut image,
            mailbox + at::RESPONSE_CAPACITY,
            MAILBOX_CAPACITIES.1,
        );
        let block = (BOT_BLOCKS.0 + i * 0x49000) as usize;
        put_bot_block(&mut image, block);
    }
    // Last, as a host does: the tables are written, then the state says so.
    put32(&mut image, at::HOST_GENERATION, GENERATION);
    put32(&mut image, at::HOST_STATE, RUNNING);
    image
}

/// A valid bot block at `block`: its header, table, and each region's geometry.
pub fn put_bot_block(image: &mut [u8], block: usize) {
    put32(image, block + at::BLOCK_SIZE, 0x49000);
    put32(image, block + at::BLOCK_REGION_COUNT, 3);
    for (k, r) in BOT_ROWS.iter().enumerate() {
        row(image, block + at::BLOCK_REGIONS, k, *r);
    }
    let draw = block + BOT_ROWS[0].0 as usize;
    let fields = [
        at::DRAW_BUFFERS,
        at::DRAW_BUFFER_SIZE,
        at::DRAW_MAX_COMMANDS,
        at::DRAW_MAX_PAYLOAD,
    ];
    for (f, v) in fields.iter().zip(DRAW_GEOMETRY) {
        put32(image, draw + f, v);
    }
    put32(image, block + BOT_ROWS[1].0 as usize + at::MAX_PARAMS, 32);
    put32(image, block + BOT_ROWS[2].0 as usize + at::MAX_STATS, 64);
}

/// A valid image whose host built the snapshot ring with `slots` slots of `slot_size`
/// bytes (the ring region sized to fit, the regions after it moved along).
pub fn with_ring(slots: u32, slot_size: u32) -> Vec<u8> {
    let old = valid();
    let ring = slots * slot_size;
    let shift = ring - SNAPSHOT_RING.1;
    let mut image = vec![0u8; old.len() + shift as usize];
    let after = (SNAPSHOT_RING.0 + SNAPSHOT_RING.1) as usize;
    image[..after].copy_from_slice(&old[..after]);
    image[after + shift as usize..].copy_from_slice(&old[after..]);
    put32(&mut image, at::TOTAL_SIZE, TOTAL + shift);
    row(&mut image, at::REGIONS, 1, (SNAPSHOT_RING.0, ring));
    row(
        &mut image,
        at::REGIONS,
        2,
        (CLIENT_BLOCKS.0 + shift, CLIENT_BLOCKS.1),
    );
    row(&mut image, at::REGIONS, 3, (LOG_RING.0 + shift, LOG_RING.1));
    row(
        &mut image,
        at::REGIONS,
        4,
        (BOT_BLOCKS.0 + shift, BOT_BLOCKS.1),
    );
    put32(&mut image, at::RING_SLOTS, slots);
    put32(&mut image, at::RING_SLOT_SIZE, slot_size);
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

/// The geometry and start-up cases: each geometry field of the header and of each block's
/// regions, wrong in each way its rule allows (`codegen/ATTACH.md`, "Geometry"), and a host
/// still starting. The field's rule decides the ways: an equal one can only differ; a
/// followed one can be 0, not a multiple of its alignment, under the least its types need,
/// or ask for more than its region holds (the ways that cannot arise, such as a slot count
/// under 1 that is not 0, are left out).
pub fn geometry_corruptions() -> Vec<Corruption> {
    let mut list = Vec::new();
    let mut add = |name: &'static str, check: &'static str, f: &dyn Fn(&mut Vec<u8>)| {
        let mut image = valid();
        f(&mut image);
        list.push(Corruption { name, check, image });
    };
    let log = LOG_RING.0 as usize + at::LOG_CAPACITY;
    let client0 = CLIENT_BLOCKS.0 as usize;
    let queue = client0 + CLIENT_ROWS[0].0 as usize + at::LOG_CAPACITY;
    let mailbox = client0 + CLIENT_ROWS[2].0 as usize;
    let bot3 = (BOT_BLOCKS.0 + 3 * 0x49000) as usize;
    let draw = bot3 + BOT_ROWS[0].0 as usize;
    add("host still starting", "host_not_running", &|i| {
        put32(i, at::HOST_STATE, STARTING)
    });
    add("host exiting", "host_not_running", &|i| {
        put32(i, at::HOST_STATE, 2)
    });
    add("ring_slots 0", "geometry_zero", &|i| {
        put32(i, at::RING_SLOTS, 0)
    });
    add(
        "ring_slots past the ring region",
        "geometry_too_large",
        &|i| put32(i, at::RING_SLOTS, 9),
    );
    add("ring_slot_size 0", "geometry_zero", &|i| {
        put32(i, at::RING_SLOT_SIZE, 0)
    });
    add(
        "ring_slot_size not a multiple of 8",
        "geometry_misaligned",
        &|i| put32(i, at::RING_SLOT_SIZE, 32772),
    );
    add(
        "ring_slot_size under a slot header and snapshot",
        "geometry_too_small",
        &|i| put32(i, at::RING_SLOT_SIZE, 4096),
    );
    add(
        "ring_slot_size past the ring region",
        "geometry_too_large",
        &|i| put32(i, at::RING_SLOT_SIZE, 65536),
    );
    add(
        "ring_slots * ring_slot_size overflows 32 bits",
        "geometry_too_large",
        &|i| {
            put32(i, at::RING_SLOTS, 0x10_0000);
            put32(i, at::RING_SLOT_SIZE, 0x10_0000);
        },
    );
    add(
        "max_clients larger than the client table",
        "geometry_mismatch",
        &|i| put32(i, at::MAX_CLIENTS, 16),
    );
    add("max_clients 0", "geometry_mismatch", &|i| {
        put32(i, at::MAX_CLIENTS, 0)
    });
    add("client_entry_size larger", "geometry_mismatch", &|i| {
        put32(i, at::CLIENT_ENTRY_SIZE, 256)
    });
    add("client_block_size 0", "geometry_zero", &|i| {
        put32(i, at::CLIENT_BLOCK_SIZE, 0)
    });
    add(
        "client_block_size not a multiple of 8",
        "geometry_misaligned",
        &|i| put32(i, at::CLIENT_BLOCK_SIZE, 0x10004),
    );
    add(
        "client_block_size under a block header",
        "geometry_too_small",
        &|i| put32(i, at::CLIENT_BLOCK_SIZE, 64),
    );
    add(
        "client_block_size past the blocks region",
        "geometry_too_large",
        &|i| put32(i, at::CLIENT_BLOCK_SIZE, 0x20000),
    );
    add("log ring capacity 0", "geometry_zero", &|i| {
        put32(i, log, 0)
    });
    add(
        "log ring capacity not a multiple of 8",
        "geometry_misaligned",
        &|i| put32(i, log, 0xFFFC),
    );
    add(
        "log ring capacity past its region",
        "geometry_too_large",
        &|i| put32(i, log, 0x10008),
    );
    add(
        "client block's log queue capacity 0",
        "geometry_zero",
        &|i| put32(i, queue, 0),
    );
    add(
        "client block's log queue capacity not a multiple of 8",
        "geometry_misaligned",
        &|i| put32(i, queue, 16380),
    );
    add(
        "client block's log queue capacity past its region",
        "geometry_too_large",
        &|i| put32(i, queue, 16392),
    );
    add("mailbox request_capacity 0", "geometry_zero", &|i| {
        put32(i, mailbox + at::REQUEST_CAPACITY, 0)
    });
    add(
        "mailbox capacities past its region",
        "geometry_too_large",
        &|i| put32(i, mailbox + at::RESPONSE_CAPACITY, MAILBOX_CAPACITIES.1 + 1),
    );
    add(
        "mailbox capacities overflow 32 bits",
        "geometry_too_large",
        &|i| {
            put32(i, mailbox + at::REQUEST_CAPACITY, u32::MAX);
            put32(i, mailbox + at::RESPONSE_CAPACITY, u32::MAX);
        },
    );
    add("draw buffers differ", "geometry_mismatch", &|i| {
        put32(i, draw + at::DRAW_BUFFERS, 4)
    });
    add("draw buffer_size differs", "geometry_mismatch", &|i| {
        put32(i, draw + at::DRAW_BUFFER_SIZE, 65536)
    });
    add("draw max_commands differs", "geometry_mismatch", &|i| {
        put32(i, draw + at::DRAW_MAX_COMMANDS, 4096)
    });
    add("draw max_payload 0", "geometry_mismatch", &|i| {
        put32(i, draw + at::DRAW_MAX_PAYLOAD, 0)
    });
    add("max_params differs", "geometry_mismatch", &|i| {
        put32(i, bot3 + BOT_ROWS[1].0 as usize + at::MAX_PARAMS, 64)
    });
    add("max_stats differs", "geometry_mismatch", &|i| {
        put32(i, bot3 + BOT_ROWS[2].0 as usize + at::MAX_STATS, 0)
    });
    list
}

/// The valid image as an older producer of minor `minor` wrote it: its header `size` bytes
/// long (`header_size` and the header row say so), the bytes after it up to our header's end
/// set to 0xEE, which belong to no field of that producer's header.
pub fn older_header(minor: u16, size: u32) -> Vec<u8> {
    let mut bytes = valid();
    put16(&mut bytes, at::ABI_MINOR, minor);
    put32(&mut bytes, at::HEADER_SIZE, size);
    row(&mut bytes, at::REGIONS, 0, (0, size));
    bytes[size as usize..HEADER_SIZE as usize].fill(0xEE);
    bytes
}

/// Copies `bytes[from..]` into the mapping in 4 KiB chunks, yielding now and then, as a slow
/// host writes its tables.
pub fn write_slowly(region: bridge_abi::runtime::Region<'_>, bytes: &[u8], from: usize) {
    for (k, chunk) in bytes[from..].chunks(4096).enumerate() {
        region.write_bytes(from + k * 4096, chunk).unwrap();
        if k % 16 == 0 {
            std::thread::yield_now();
        }
    }
}
