//! `slots_ring!`: a generated ring of seqlocked slots (its geometry, a slot's view and the
//! newest slot's copy), one line.

/// Expands to a generated ring of seqlocked slots, inside the generated bindings' `live`
/// module: its type (the head's view, the slots' region, the writer's slot count and size),
/// `SLOT_COUNT`, `SLOT_SIZE`, `MIN_SLOT_SIZE`, `new`, `with_geometry`, `slot_count`,
/// `slot_size`, `head`, `slot`, `read_newest`, `read_newest_counted` and `read_newest_into`.
/// The generator prints `publish` (its value's stamp is the schema's) in an `impl` block of
/// its own. The line is
///
/// `#[doc = ...]* NAME: head HEAD.GET as u64|u32, slot SLOT, count N, size S, least L,
/// align A (log2 BITS), value VALUE = ZERO, lock WORD @ COUNTER, copy COPY;`
///
/// `HEAD` is the view holding the head counter, read by its getter `GET` (a `u32` head is
/// widened); `SLOT` a slot's view, whose `COPY(out)` copies the guarded bytes under the
/// seqlock whose `WORD` counter is at `COUNTER`; `VALUE` what a slot is copied into, `ZERO` a
/// new one.
#[macro_export]
macro_rules! slots_ring {
    (
        $(#[$m:meta])* $ty:ident: head $head:ident . $get:ident as $width:ident, slot $slot:ident,
        count $count:literal, size $size:literal, least $least:literal,
        align $align:literal (log2 $bits:literal), value $value:ty = $zero:expr,
        lock $word:ident @ $counter:literal, copy $copy:ident;
    ) => {
        $(#[$m])*
        #[derive(Clone, Copy)]
        pub struct $ty<'a> {
            head: $head<'a>,
            slots: $crate::Region<'a>,
            count: usize,
            size: usize,
        }

        impl<'a> $ty<'a> {
            /// Slots in the ring, as the schema builds it.
            pub const SLOT_COUNT: usize = $count;
            /// Bytes per slot, its header included, as the schema builds it.
            pub const SLOT_SIZE: usize = $size;
            /// The fewest bytes per slot a reader can use: the slot's header and the
            /// fixed part of what follows it (what attach requires of the writer).
            pub const MIN_SLOT_SIZE: usize = $least;

            /// The ring whose head counter is in `head` and whose slots start at
            /// `slots`, with the schema's slot count and size; an error if `slots`
            /// is shorter than the slots or misaligned.
            pub fn new(
                head: $head<'a>,
                slots: $crate::Region<'a>,
            ) -> ::core::result::Result<Self, $crate::RegionError> {
                Self::with_geometry(head, slots, Self::SLOT_COUNT, Self::SLOT_SIZE)
            }

            /// The ring with the writer's slot count and slot size (what attach read
            /// and checked). An error if there are no slots, a slot is smaller than
            /// [`Self::MIN_SLOT_SIZE`] or not a multiple of its alignment
            /// ([`SlotGeometry`](::abi_runtime::RegionErrorKind::SlotGeometry)), or
            /// the slots do not fit `slots` or are misaligned.
            pub fn with_geometry(
                head: $head<'a>,
                slots: $crate::Region<'a>,
                count: usize,
                size: usize,
            ) -> ::core::result::Result<Self, $crate::RegionError> {
                if count == 0 || size < Self::MIN_SLOT_SIZE || size.trailing_zeros() < $bits {
                    return ::core::result::Result::Err(
                        $crate::RegionErrorKind::SlotGeometry { count, size, least: Self::MIN_SLOT_SIZE, align: $align }
                            .into(),
                    );
                }
                let ::core::option::Option::Some(total) = count.checked_mul(size) else {
                    return ::core::result::Result::Err(
                        $crate::RegionErrorKind::OutOfBounds { offset: 0, len: usize::MAX, region_len: slots.len() }
                            .into(),
                    );
                };
                let slots = slots.sub(0, total, $align)?;
                ::core::result::Result::Ok(Self { head, slots, count, size })
            }

            /// Slots in the ring, as its writer built it.
            pub fn slot_count(&self) -> usize {
                self.count
            }

            /// Bytes per slot, as its writer built it.
            pub fn slot_size(&self) -> usize {
                self.size
            }

            /// Publications so far (acquire).
            pub fn head(&self) -> u64 {
                $crate::slots_ring!(@widen $width, self.head.$get())
            }

            /// The live view of slot `index`, or `None` when there is no such slot.
            pub fn slot(&self, index: usize) -> ::core::option::Option<$slot<'a>> {
                if index >= self.count {
                    return ::core::option::Option::None;
                }
                let region = self.slots.sub(index * self.size, self.size, $align).ok()?;
                $slot::at(region, 0).ok()
            }

            /// The newest slot, copied under its seqlock: `Ok(None)` before the first
            /// publication. A writer that laps the reader during the copy makes it
            /// retry, so the copy is always one whole publication.
            pub fn read_newest(
                &self,
            ) -> ::core::result::Result<::core::option::Option<$value>, $crate::SeqLockError> {
                ::core::result::Result::Ok(
                    self.read_newest_counted($crate::DEFAULT_TRIES)?.map(|(value, _)| value),
                )
            }

            /// [`Self::read_newest`] with at most `max_tries` tries, also returning
            /// how many retries the copy took. Each try picks the newest slot again,
            /// so a reader the writer laps moves on to the newer publication.
            pub fn read_newest_counted(
                &self,
                max_tries: u32,
            ) -> ::core::result::Result<::core::option::Option<($value, u32)>, $crate::SeqLockError> {
                let mut out = $zero;
                ::core::result::Result::Ok(
                    self.read_newest_into(&mut out, max_tries)?.map(|retries| (out, retries)),
                )
            }

            /// [`Self::read_newest_counted`] into a value the caller keeps: `Ok(None)`
            /// before the first publication (and `out` untouched), else the retries.
            pub fn read_newest_into(
                &self,
                out: &mut $value,
                max_tries: u32,
            ) -> ::core::result::Result<::core::option::Option<u32>, $crate::SeqLockError> {
                let (published, retries) = $crate::retry(max_tries, || {
                    let head = self.head();
                    if head == 0 {
                        return ::core::option::Option::Some(false);
                    }
                    let index = ((head - 1) % self.count as u64) as usize;
                    let slot = self.slot(index)?;
                    $crate::SeqLock::<$word>::new(slot.region(), $counter)
                        .try_read(|| slot.$copy(out))
                        .map(|()| true)
                })?;
                ::core::result::Result::Ok(published.then_some(retries))
            }
        }
    };
    (@widen u64, $v:expr) => { $v };
    (@widen u32, $v:expr) => { u64::from($v) };
}
