//! `view_accessors!`: the field accessors of a generated live view, one line per method.
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
/// bounded so. `NAME` is the whole method name (`set_state`, `fetch_add_ticks`): a
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
    ($($(#[$m:meta])* $kind:ident $name:ident @ $off:literal : $vt:ty $(as $repr:ty)?;)*) => {
        $($crate::view_accessors!(@ $kind [$(#[$m])*] $name $off [$vt] [$($repr)?]);)*
    };
    // An integer field: the value is the word.
    (@ load [$($m:tt)*] $name:ident $off:literal [$vt:ty] []) => {
        $($m)*
        pub fn $name(&self) -> $vt {
            self.region.load::<$vt>($off, ::core::sync::atomic::Ordering::Acquire)
        }
    };
    (@ store [$($m:tt)*] $name:ident $off:literal [$vt:ty] []) => {
        $($m)*
        pub fn $name(&self, value: $vt) -> ::core::result::Result<(), $crate::Contended> {
            self.region.try_store::<$vt>($off, value, ::core::sync::atomic::Ordering::Release)
        }
    };
    (@ fetch_add [$($m:tt)*] $name:ident $off:literal [$vt:ty] []) => {
        $($m)*
        pub fn $name(&self, value: $vt) -> ::core::result::Result<$vt, $crate::Contended> {
            self.region.try_fetch_add::<$vt>($off, value, ::core::sync::atomic::Ordering::AcqRel)
        }
    };
    (@ compare_exchange [$($m:tt)*] $name:ident $off:literal [$vt:ty] []) => {
        $($m)*
        pub fn $name(
            &self,
            current: $vt,
            new: $vt,
        ) -> ::core::result::Result<::core::result::Result<$vt, $vt>, $crate::Contended> {
            self.region.try_compare_exchange::<$vt>($off, current, new)
        }
    };
    (@ swap [$($m:tt)*] $name:ident $off:literal [$vt:ty] []) => {
        $($m)*
        pub fn $name(&self, value: $vt) -> ::core::result::Result<$vt, $crate::Contended> {
            self.region.try_swap::<$vt>($off, value, ::core::sync::atomic::Ordering::AcqRel)
        }
    };
    // An enum or flag set: a `#[repr(transparent)]` newtype over the word `$repr`.
    (@ load [$($m:tt)*] $name:ident $off:literal [$vt:ty] [$repr:ty]) => {
        $($m)*
        pub fn $name(&self) -> $vt {
            $crate::__zerocopy::transmute!(
                self.region.load::<$repr>($off, ::core::sync::atomic::Ordering::Acquire)
            )
        }
    };
    (@ store [$($m:tt)*] $name:ident $off:literal [$vt:ty] [$repr:ty]) => {
        $($m)*
        pub fn $name(&self, value: $vt) -> ::core::result::Result<(), $crate::Contended> {
            let value: $repr = $crate::__zerocopy::transmute!(value);
            self.region.try_store::<$repr>($off, value, ::core::sync::atomic::Ordering::Release)
        }
    };
    (@ compare_exchange [$($m:tt)*] $name:ident $off:literal [$vt:ty] [$repr:ty]) => {
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
    (@ swap [$($m:tt)*] $name:ident $off:literal [$vt:ty] [$repr:ty]) => {
        $($m)*
        pub fn $name(&self, value: $vt) -> ::core::result::Result<$vt, $crate::Contended> {
            let value: $repr = $crate::__zerocopy::transmute!(value);
            let old = self.region.try_swap::<$repr>($off, value, ::core::sync::atomic::Ordering::AcqRel)?;
            ::core::result::Result::Ok($crate::__zerocopy::transmute!(old))
        }
    };
    // A plain field: copied with relaxed loads and stores of whole words.
    (@ read [$($m:tt)*] $name:ident $off:literal [$vt:ty] []) => {
        $($m)*
        pub fn $name(&self) -> $vt {
            self.region.read::<$vt>($off)
        }
    };
    (@ write [$($m:tt)*] $name:ident $off:literal [$vt:ty] []) => {
        $($m)*
        pub fn $name(&self, value: $vt) -> ::core::result::Result<(), $crate::Contended> {
            self.region.write::<$vt>($off, &value)
        }
    };
}
