//! Whole lists handed from one writer to one reader through a [`triple_buffer`] (the
//! bridge's draw lists): a header with the state word and the lists' geometry, then three
//! lists `buffer_size` bytes apart, each a list header, `max_items` items and `max_payload`
//! payload bytes. The writer builds its list in place (what does not fit is dropped, counted
//! and flagged), then publishes it; the reader takes the newest and copies it out. Every
//! number the other side wrote (the geometry, a list's count and payload length) is checked
//! before use: a broken peer gives a named [`ExchangeError`].
//!
//! [`triple_buffer`]: crate::triple_buffer

use core::sync::atomic::Ordering::AcqRel;

use crate::raw::{Region, Writable};
use crate::spec::Field;
pub use crate::spec::GeometryFrom;
use crate::spec::load_field;
use crate::triple_buffer::{ExchangeError, Published, TripleReader, TripleWriter};

/// The fields of one list's header, from its start, and its size and alignment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListFormat {
    /// The list header's bytes; the items follow it.
    pub size: usize,
    /// The alignment a list's start needs.
    pub align: usize,
    /// Items in the list.
    pub count: Field,
    /// Payload bytes in use.
    pub payload_len: Field,
    /// Items dropped because the list was full.
    pub dropped: Field,
    /// The flags field, and the flag set when something was dropped.
    pub flags: Field,
    /// The overflow flag's value.
    pub overflow: u64,
}

/// Where an exchange keeps its fields, from the start of its header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListSpec {
    /// The `u32` state word.
    pub state: usize,
    /// The state word before the first publication (the schema's).
    pub initial_state: u32,
    /// Stale publications (of the reader's own list) a reader absorbs before it refuses the
    /// state: the plan's number ([`crate::triple_buffer::STALE_GRACE`]).
    pub stale_grace: u32,
    /// The number of lists (3).
    pub buffers: Field,
    /// Bytes from one list's start to the next's.
    pub buffer_size: Field,
    /// Items a list holds.
    pub max_items: Field,
    /// Payload bytes a list holds.
    pub max_payload: Field,
    /// The writer's count of lists published (a `u32` or `u64`).
    pub published: Field,
    /// Where the first list starts, from the header's start.
    pub area: usize,
    /// The lists' header.
    pub list: ListFormat,
    /// Bytes of one item.
    pub item_size: usize,
}

/// The geometry the header gives, checked against the region.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Geometry {
    buffer_size: usize,
    max_items: u64,
    max_payload: u64,
}

impl Geometry {
    fn read<A: Writable>(
        region: Region<'_, A>,
        spec: &ListSpec,
        from: GeometryFrom<'_>,
    ) -> Result<Self, ExchangeError> {
        let buffers = from.load(region, spec.buffers);
        let buffer_size = from.load(region, spec.buffer_size);
        let max_items = from.load(region, spec.max_items);
        let max_payload = from.load(region, spec.max_payload);
        let room = region.len().saturating_sub(spec.area) as u64;
        let needs = (spec.list.size as u64)
            .checked_add(max_items.saturating_mul(spec.item_size as u64))
            .and_then(|n| n.checked_add(max_payload));
        let fits = needs.is_some_and(|n| n <= buffer_size)
            && buffer_size.checked_mul(3).is_some_and(|all| all <= room)
            && buffer_size % spec.list.align.max(1) as u64 == 0
            && (spec.area % spec.list.align.max(1)) == 0;
        if buffers != 3 || !fits {
            return Err(ExchangeError::Geometry {
                buffers,
                buffer_size,
                room,
            });
        }
        Ok(Geometry {
            buffer_size: buffer_size as usize,
            max_items,
            max_payload,
        })
    }
}

/// The writer's side: the list it builds in its own buffer, and the triple buffer's writer.
/// One writer only; keep it for as long as the exchange is used (it knows its buffer).
#[derive(Debug)]
pub struct ListWriter<'a, A: Writable> {
    region: Region<'a, A>,
    spec: ListSpec,
    geometry: Geometry,
    triple: TripleWriter<'a, A>,
    count: u64,
    payload_len: u64,
    dropped: u64,
}

impl<'a, A: Writable> ListWriter<'a, A> {
    /// The writer of the exchange whose header starts `region`, at the start (the state
    /// word as the schema's initial state leaves it): its geometry read and checked now.
    pub fn new(region: Region<'a, A>, spec: ListSpec) -> Result<Self, ExchangeError> {
        let geometry = Geometry::read(region, &spec, GeometryFrom::Mapping)?;
        let triple = TripleWriter::starting_from(region, spec.state, spec.initial_state)?;
        Ok(ListWriter {
            region,
            spec,
            geometry,
            triple,
            count: 0,
            payload_len: 0,
            dropped: 0,
        })
    }

    /// Items in the list being built.
    pub fn len(&self) -> u64 {
        self.count
    }

    /// Whether the list being built has no item.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Payload bytes in the list being built: where the next push's payload goes.
    pub fn payload_len(&self) -> u64 {
        self.payload_len
    }

    /// Items dropped from the list being built because it was full.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// The most items and payload bytes a list holds, as the header says.
    pub fn capacity(&self) -> (u64, u64) {
        (self.geometry.max_items, self.geometry.max_payload)
    }

    fn list_start(&self, index: usize) -> usize {
        self.spec.area + index * self.geometry.buffer_size
    }

    /// Adds an item (its bytes, at most one item's) and appends `payload` to the list's
    /// payload, at offset [`payload_len`](Self::payload_len) as it was before the call.
    /// When either does not fit, neither is added: the item is dropped, counted, and the
    /// list flagged overflowed; `false`.
    pub fn push(&mut self, item: &[u8], payload: &[u8]) -> bool {
        let g = self.geometry;
        let fits = self.count < g.max_items
            && item.len() <= self.spec.item_size
            && self.payload_len + payload.len() as u64 <= g.max_payload;
        if !fits {
            self.dropped += 1;
            return false;
        }
        let start = self.list_start(self.triple.own()) + self.spec.list.size;
        let at = start + self.count as usize * self.spec.item_size;
        let payload_at =
            start + g.max_items as usize * self.spec.item_size + self.payload_len as usize;
        let stored = self
            .region
            .write_bytes(at, item)
            .and_then(|()| {
                self.region
                    .zero(at + item.len(), self.spec.item_size - item.len())
            })
            .and_then(|()| self.region.write_bytes(payload_at, payload));
        if stored.is_err() {
            // The list's bytes are this writer's own buffer; a word the reader keeps
            // changing (contended) drops the item as one that does not fit.
            self.dropped += 1;
            return false;
        }
        self.count += 1;
        self.payload_len += payload.len() as u64;
        true
    }

    /// Forgets the list being built.
    pub fn clear(&mut self) {
        self.count = 0;
        self.payload_len = 0;
        self.dropped = 0;
    }

    /// Writes the list's header (`header`: the list header's bytes with the caller's fields;
    /// its count, payload length and dropped fields are set here, and the overflow flag when
    /// an item was dropped), hands the list over and adds 1 to the published count. The next
    /// list starts empty. A broken state word is an error, and then the list is kept.
    pub fn publish(&mut self, header: &[u8]) -> Result<Published, ExchangeError> {
        let f = self.spec.list;
        let mut bytes = vec![0u8; f.size];
        let keep = header.len().min(f.size);
        bytes[..keep].copy_from_slice(&header[..keep]);
        f.count.put(&mut bytes, self.count);
        f.payload_len.put(&mut bytes, self.payload_len);
        f.dropped.put(&mut bytes, self.dropped);
        if self.dropped > 0 {
            let flags = f.flags.read(&bytes).unwrap_or(0);
            f.flags.put(&mut bytes, flags | f.overflow);
        }
        self.region
            .write_bytes(self.list_start(self.triple.own()), &bytes)?;
        let published = self.triple.publish()?;
        let p = self.spec.published;
        if p.width == 8 {
            self.region.fetch_add::<u64>(p.offset, 1, AcqRel);
        } else {
            self.region.try_fetch_add::<u32>(p.offset, 1, AcqRel)?;
        }
        self.clear();
        Ok(published)
    }
}

/// A list the reader took, copied out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TakenList {
    /// The list header's bytes.
    pub header: Vec<u8>,
    /// The items' bytes, `count` items.
    pub items: Vec<u8>,
    /// The payload bytes in use.
    pub payload: Vec<u8>,
}

/// The reader's side. One reader only; keep it (it knows its buffer).
#[derive(Debug)]
pub struct ListReader<'a, A: Writable> {
    region: Region<'a, A>,
    spec: ListSpec,
    geometry: Geometry,
    triple: TripleReader<'a, A>,
}

impl<'a, A: Writable> ListReader<'a, A> {
    /// The reader of the exchange whose header starts `region`, at the start: its geometry
    /// read and checked now.
    pub fn new(region: Region<'a, A>, spec: ListSpec) -> Result<Self, ExchangeError> {
        Self::with_geometry(region, spec, GeometryFrom::Mapping)
    }

    /// [`Self::new`] with the geometry read from `from`: the host's side gives the header as
    /// it laid it out, so a client's write to the geometry never reaches it.
    pub fn with_geometry(
        region: Region<'a, A>,
        spec: ListSpec,
        from: GeometryFrom<'_>,
    ) -> Result<Self, ExchangeError> {
        let geometry = Geometry::read(region, &spec, from)?;
        let triple = TripleReader::starting_from(region, spec.state, spec.initial_state)?
            .with_grace(spec.stale_grace);
        Ok(ListReader {
            region,
            spec,
            geometry,
            triple,
        })
    }

    /// Lists published so far (the writer's count).
    pub fn published(&self) -> u64 {
        load_field(self.region, self.spec.published)
    }

    /// Stale publications this reader absorbed ([`TripleReader::absorbed`]): lists of the
    /// row's last session that a free overtook, never shown.
    pub fn absorbed(&self) -> u32 {
        self.triple.absorbed()
    }

    /// The newest list when one was published since the last take, copied out; `None`
    /// otherwise (a stale publication absorbed, too: [`TripleReader::take`]). Its count and payload length are checked against the header's capacities.
    pub fn take(&mut self) -> Result<Option<TakenList>, ExchangeError> {
        let Some(index) = self.triple.take()? else {
            return Ok(None);
        };
        let (f, g) = (self.spec.list, self.geometry);
        let start = self.spec.area + index * g.buffer_size;
        let mut header = vec![0u8; f.size];
        self.region.read_bytes(start, &mut header);
        let count = f.count.read(&header).unwrap_or(u64::MAX);
        if count > g.max_items {
            return Err(ExchangeError::ListLength {
                field: "count",
                found: count,
                limit: g.max_items,
            });
        }
        let payload_len = f.payload_len.read(&header).unwrap_or(u64::MAX);
        if payload_len > g.max_payload {
            return Err(ExchangeError::ListLength {
                field: "payload_len",
                found: payload_len,
                limit: g.max_payload,
            });
        }
        let mut items = vec![0u8; count as usize * self.spec.item_size];
        self.region.read_bytes(start + f.size, &mut items);
        let mut payload = vec![0u8; payload_len as usize];
        self.region.read_bytes(
            start + f.size + g.max_items as usize * self.spec.item_size,
            &mut payload,
        );
        Ok(Some(TakenList {
            header,
            items,
            payload,
        }))
    }
}
