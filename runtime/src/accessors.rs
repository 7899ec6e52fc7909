//! `view!` and `view_accessors!`: a generated live view and its field accessors, one line each.
//!
//! A generated view (`bridge_abi::live::ClientEntry`, ...) is a [`Region`](crate::Region)
//! and one method per access of each field. Most of those methods differ only in their name,
//! the field's offset and type, and the one `Region` call they make; the generator prints
//! them as one line each of this macro, which expands to exactly the methods it used to print
//! (the same names, signatures, orderings and documentation). The expansion calls safe
//! `Region` methods and zerocopy's `transmute!` (size-checked at compile time, between an
//! enum newtype and its integer) only: no `unsafe` reaches the generated crate.

/// Expands to the field accessors of a live view, one method per line, inside the view's
/// `impl` block (the generated bindings' `live` module; its struct has a field
/// `region: Region<'a, A>`).
///
/// Each line is `#[doc = ...]* KIND NAME @ OFFSET: TYPE;`, or `... : TYPE as REPR;` for an
/// enum or flag set `TYPE` (a `#[repr(transparent)]` newtype over the integer `REPR`):
///
/// | `KIND` | method | `Region` call |
/// |---|---|---|
/// | `load` | `fn NAME(&self) -> TYPE` | [`load`](crate::Region::load), acquire |
/// | `store` | `fn NAME(&self, value: TYPE) -> Result<(), Contended>` | [`try_store`](crate::Region::try_store), release |
/// | `fetch_add` | `fn NAME(&self, value: TYPE) -> Result<TYPE, Contended>` | [`try_fetch_add`](crate::Region::try_fetch_add), acquire-release |
/// | `compare_exchange` | `fn NAME(&self, current: TYPE, new: TYPE) -> Result<Result<TYPE, TYPE>, Contended>` | [`try_compare_exchange`](crate::Region::try_compare_exchange) |
/// | `swap` | `fn NAME(&self, value: TYPE) -> Result<TYPE, Contended>` | [`try_swap`](crate::Region::try_swap), acquire-release |
/// | `read` | `fn NAME(&self) -> TYPE` | [`read`](crate::Region::read) (relaxed copy) |
/// | `write` | `fn NAME(&self, value: TYPE) -> Result<(), Contended>` | [`write`](crate::Region::write) (relaxed stores) |
///
/// The methods that write need `A: Writable`: the generator puts them in an `impl` block
/// bounded so. A field a later minor version added takes `, added LO..HI` after its type
/// (`load`, `store`, `read` and `write` only): its getter returns `Option<TYPE>` (`None` when
/// the view, as long as its producer built the record, does not cover `LO..HI`) and its
/// setter `Result<Result<(), Contended>, RegionError>`. `NAME` is the whole method name (`set_state`, `fetch_add_ticks`): a
/// `macro_rules!` macro cannot build identifiers, and a full name can be searched for.
///
/// ```
/// use abi_runtime::{Access, Region, SharedBuf, Writable};
///
/// pub struct Header<'a, A: Access = abi_runtime::ReadWrite> {
///     region: Region<'a, A>,
/// }
/// impl<A: Access> Header<'_, A> {
///     abi_runtime::view_accessors! {
///         /// `ticks`, an atomic load (acquire).
///         load ticks @ 8: u64;
///         /// `pid`, a relaxed copy.
///         read pid @ 0: u32;
///     }
/// }
/// impl<A: Writable> Header<'_, A> {
///     abi_runtime::view_accessors! {
///         /// Stores `ticks` (release).
///         store set_ticks @ 8: u64;
///         fetch_add fetch_add_ticks @ 8: u64;
///         write set_pid @ 0: u32;
///     }
/// }
///
/// let buf = SharedBuf::new(16);
/// let header = Header { region: buf.region() };
/// header.set_ticks(40).unwrap();
/// assert_eq!(header.fetch_add_ticks(2).unwrap(), 40);
/// header.set_pid(7).unwrap();
/// assert_eq!((header.ticks(), header.pid()), (42, 7));
/// ```
#[macro_export]
macro_rules! view_accessors {
    ($($(#[$m:meta])* $kind:ident $name:ident @ $off:literal : $vt:ty $(as $repr:ty)? $(, added $lo:literal .. $hi:literal)?;)*) => {
        $($crate::view_accessors!(@ $kind [$(#[$m])*] $name $off [$vt] [$($repr)?] [$($lo $hi)?]);)*
    };
    // An integer field: the value is the word.
    (@ load [$($m:tt)*] $name:ident $off:literal [$vt:ty] [] []) => {
        $($m)*
        pub fn $name(&self) -> $vt {
            self.region.load::<$vt>($off, ::core::sync::atomic::Ordering::Acquire)
        }
    };
    (@ store [$($m:tt)*] $name:ident $off:literal [$vt:ty] [] []) => {
        $($m)*
        pub fn $name(&self, value: $vt) -> ::core::result::Result<(), $crate::Contended> {
            self.region.try_store::<$vt>($off, value, ::core::sync::atomic::Ordering::Release)
        }
    };
    (@ fetch_add [$($m:tt)*] $name:ident $off:literal [$vt:ty] [] []) => {
        $($m)*
        pub fn $name(&self, value: $vt) -> ::core::result::Result<$vt, $crate::Contended> {
            self.region.try_fetch_add::<$vt>($off, value, ::core::sync::atomic::Ordering::AcqRel)
        }
    };
    (@ compare_exchange [$($m:tt)*] $name:ident $off:literal [$vt:ty] [] []) => {
        $($m)*
        pub fn $name(
            &self,
            current: $vt,
            new: $vt,
        ) -> ::core::result::Result<::core::result::Result<$vt, $vt>, $crate::Contended> {
            self.region.try_compare_exchange::<$vt>($off, current, new)
        }
    };
    (@ swap [$($m:tt)*] $name:ident $off:literal [$vt:ty] [] []) => {
        $($m)*
        pub fn $name(&self, value: $vt) -> ::core::result::Result<$vt, $crate::Contended> {
            self.region.try_swap::<$vt>($off, value, ::core::sync::atomic::Ordering::AcqRel)
        }
    };
    // An enum or flag set: a `#[repr(transparent)]` newtype over the word `$repr`.
    (@ load [$($m:tt)*] $name:ident $off:literal [$vt:ty] [$repr:ty] []) => {
        $($m)*
        pub fn $name(&self) -> $vt {
            $crate::__zerocopy::transmute!(
                self.region.load::<$repr>($off, ::core::sync::atomic::Ordering::Acquire)
            )
        }
    };
    (@ store [$($m:tt)*] $name:ident $off:literal [$vt:ty] [$repr:ty] []) => {
        $($m)*
        pub fn $name(&self, value: $vt) -> ::core::result::Result<(), $crate::Contended> {
            let value: $repr = $crate::__zerocopy::transmute!(value);
            self.region.try_store::<$repr>($off, value, ::core::sync::atomic::Ordering::Release)
        }
    };
    (@ compare_exchange [$($m:tt)*] $name:ident $off:literal [$vt:ty] [$repr:ty] []) => {
        $($m)*
        pub fn $name(
            &self,
            current: $vt,
            new: $vt,
        ) -> ::core::result::Result<::core::result::Result<$vt, $vt>, $crate::Contended> {
            let current: $repr = $crate::__zerocopy::transmute!(current);
            let new: $repr = $crate::__zerocopy::transmute!(new);
            let found = self.region.try_compare_exchange::<$repr>($off, current, new)?;
            let wrap = |v: $repr| -> $vt { $crate::__zerocopy::transmute!(v) };
            ::core::result::Result::Ok(found.map(wrap).map_err(wrap))
        }
    };
    (@ swap [$($m:tt)*] $name:ident $off:literal [$vt:ty] [$repr:ty] []) => {
        $($m)*
        pub fn $name(&self, value: $vt) -> ::core::result::Result<$vt, $crate::Contended> {
            let value: $repr = $crate::__zerocopy::transmute!(value);
            let old = self.region.try_swap::<$repr>($off, value, ::core::sync::atomic::Ordering::AcqRel)?;
            ::core::result::Result::Ok($crate::__zerocopy::transmute!(old))
        }
    };
    // A plain field: copied with relaxed loads and stores of whole words.
    (@ read [$($m:tt)*] $name:ident $off:literal [$vt:ty] [] []) => {
        $($m)*
        pub fn $name(&self) -> $vt {
            self.region.read::<$vt>($off)
        }
    };
    (@ write [$($m:tt)*] $name:ident $off:literal [$vt:ty] [] []) => {
        $($m)*
        pub fn $name(&self, value: $vt) -> ::core::result::Result<(), $crate::Contended> {
            self.region.write::<$vt>($off, &value)
        }
    };
    // A field a later minor version added (`, added LO..HI`): present only when the
    // producer's record covers `LO..HI` (`Region::covers`); a getter gives `None` and a
    // setter the bounds error when it does not, and neither touches memory then.
    (@ load [$($m:tt)*] $name:ident $off:literal [$vt:ty] [] [$lo:literal $hi:literal]) => {
        $($m)*
        pub fn $name(&self) -> ::core::option::Option<$vt> {
            self.region.covers($lo, $hi).ok()?;
            ::core::option::Option::Some(self.region.load::<$vt>($off, ::core::sync::atomic::Ordering::Acquire))
        }
    };
    (@ load [$($m:tt)*] $name:ident $off:literal [$vt:ty] [$repr:ty] [$lo:literal $hi:literal]) => {
        $($m)*
        pub fn $name(&self) -> ::core::option::Option<$vt> {
            self.region.covers($lo, $hi).ok()?;
            ::core::option::Option::Some($crate::__zerocopy::transmute!(
                self.region.load::<$repr>($off, ::core::sync::atomic::Ordering::Acquire)
            ))
        }
    };
    (@ store [$($m:tt)*] $name:ident $off:literal [$vt:ty] [] [$lo:literal $hi:literal]) => {
        $($m)*
        pub fn $name(
            &self,
            value: $vt,
        ) -> ::core::result::Result<::core::result::Result<(), $crate::Contended>, $crate::RegionError> {
            self.region.covers($lo, $hi)?;
            ::core::result::Result::Ok(self.region.try_store::<$vt>($off, value, ::core::sync::atomic::Ordering::Release))
        }
    };
    (@ store [$($m:tt)*] $name:ident $off:literal [$vt:ty] [$repr:ty] [$lo:literal $hi:literal]) => {
        $($m)*
        pub fn $name(
            &self,
            value: $vt,
        ) -> ::core::result::Result<::core::result::Result<(), $crate::Contended>, $crate::RegionError> {
            self.region.covers($lo, $hi)?;
            let value: $repr = $crate::__zerocopy::transmute!(value);
            ::core::result::Result::Ok(self.region.try_store::<$repr>($off, value, ::core::sync::atomic::Ordering::Release))
        }
    };
    (@ read [$($m:tt)*] $name:ident $off:literal [$vt:ty] [] [$lo:literal $hi:literal]) => {
        $($m)*
        pub fn $name(&self) -> ::core::option::Option<$vt> {
            self.region.covers($lo, $hi).ok()?;
            ::core::option::Option::Some(self.region.read::<$vt>($off))
        }
    };
    (@ write [$($m:tt)*] $name:ident $off:literal [$vt:ty] [] [$lo:literal $hi:literal]) => {
        $($m)*
        pub fn $name(
            &self,
            value: $vt,
        ) -> ::core::result::Result<::core::result::Result<(), $crate::Contended>, $crate::RegionError> {
            self.region.covers($lo, $hi)?;
            ::core::result::Result::Ok(self.region.write::<$vt>($off, &value))
        }
    };
}

/// Expands to a generated live view: the type over a [`Region`](crate::Region), its `SIZE`,
/// `ALIGN` and `MIN_LEN`, `at` and `region`. The generator prints one line
/// `#[doc = ...]* NAME: size SIZE, align ALIGN;` instead of the 22 these take written out;
/// the field accessors follow in `impl` blocks of their own ([`view_accessors!`]).
///
/// A struct with a trailer adds `, trailer MIN_LEN` (the struct and the fixed part of its
/// trailer): its `at` views the bytes from `offset` to the end of the region. An extensible
/// record (fields a later minor version added) adds `, base BASE_SIZE` (the bytes every
/// producer of its major version writes): `BASE_SIZE` and `at_len`.
///
/// ```
/// use abi_runtime::SharedBuf;
///
/// abi_runtime::view! {
///     /// A live view of a 16-byte header.
///     Header: size 16, align 8;
/// }
/// impl<A: abi_runtime::Access> Header<'_, A> {
///     abi_runtime::view_accessors! {
///         load ticks @ 8: u64;
///     }
/// }
///
/// let buf = SharedBuf::new(32);
/// assert_eq!((Header::SIZE, Header::ALIGN, Header::MIN_LEN), (16, 8, 16));
/// let header = Header::at(buf.region(), 16).unwrap();
/// assert_eq!((header.ticks(), header.region().len()), (0, 16));
/// assert!(Header::at(buf.region(), 24).is_err()); // past the end
///
/// abi_runtime::view! {
///     /// An 8-byte header and at least 8 bytes after it.
///     List: size 8, align 8, trailer 16;
///     /// A 16-byte record whose first 8 bytes every producer writes.
///     Record: size 16, align 8, base 8;
/// }
/// assert_eq!(List::MIN_LEN, 16);
/// assert_eq!(List::at(buf.region(), 8).unwrap().region().len(), 24); // to the end
/// assert!(List::at(buf.region(), 24).is_err()); // fewer than MIN_LEN
/// assert_eq!((Record::MIN_LEN, Record::BASE_SIZE), (16, 8));
/// assert_eq!(Record::at_len(buf.region(), 0, 8).unwrap().region().len(), 8);
/// assert!(Record::at_len(buf.region(), 0, 4).is_err()); // shorter than BASE_SIZE
/// ```
#[macro_export]
macro_rules! view {
    ($($(#[$m:meta])* $name:ident: size $size:literal, align $align:literal $(, trailer $min:literal)? $(, base $base:literal)?;)+) => {
        $($crate::view!(@view [$(#[$m])*] $name $size $align [$($min)?] [$($base)?]);)+
    };
    (@view [$($m:tt)*] $name:ident $size:literal $align:literal [$($min:literal)?] [$($base:literal)?]) => {
        $($m)*
        #[derive(Clone, Copy)]
        pub struct $name<'a, A: $crate::Access = $crate::ReadWrite> {
            region: $crate::Region<'a, A>,
        }
        impl $name<'_> {
            /// Bytes of the struct.
            pub const SIZE: usize = $size;
            /// The alignment its bytes need.
            pub const ALIGN: usize = $align;
            /// Bytes of the struct and the fixed part of its trailer.
            pub const MIN_LEN: usize = $crate::view!(@min $size $($min)?);
            $(
            /// Bytes every producer of this major version writes: the fields a later minor
            /// version added start here.
            pub const BASE_SIZE: usize = $base;
            )?
        }
        impl<'a, A: $crate::Access> $name<'a, A> {
            $crate::view!(@at $size, $align $(, $min)?);
            $(
            /// Views the record at `offset` of `region` as its producer built it, `len` bytes
            /// long (its size field, as attach checked it): a field a later minor version added
            /// past `len` is absent, its getter gives `None` and its setter an error. `len` past
            /// `SIZE` (a newer producer) views `SIZE` bytes. An error if `len` is less than
            /// `BASE_SIZE`, or the bytes are out of bounds or misaligned.
            pub fn at_len(
                region: $crate::Region<'a, A>,
                offset: usize,
                len: usize,
            ) -> ::core::result::Result<Self, $crate::RegionError> {
                region.sub_record(offset, len, $base, $size, $align).map(|region| Self { region })
            }
            )?
            /// The bytes this view covers.
            pub fn region(&self) -> $crate::Region<'a, A> {
                self.region
            }
        }
    };
    (@min $size:literal) => { $size };
    (@min $size:literal $min:literal) => { $min };
    (@at $size:literal, $align:literal) => {
        /// Views the `SIZE` bytes at `offset` of `region`; an error if they are out of
        /// bounds or not aligned to `ALIGN`.
        pub fn at(
            region: $crate::Region<'a, A>,
            offset: usize,
        ) -> ::core::result::Result<Self, $crate::RegionError> {
            region.sub(offset, $size, $align).map(|region| Self { region })
        }
    };
    (@at $size:literal, $align:literal, $min:literal) => {
        /// Views the bytes from `offset` to the end of `region`: the struct, then its
        /// trailer. An error if they are fewer than `MIN_LEN` or not aligned to `ALIGN`.
        pub fn at(
            region: $crate::Region<'a, A>,
            offset: usize,
        ) -> ::core::result::Result<Self, $crate::RegionError> {
            let region = region.tail(offset, $align)?;
            region.sub(0, $min, $align)?;
            ::core::result::Result::Ok(Self { region })
        }
    };
}
