//! The support macros of generated Rust (`abi_enum!`, `abi_flags!`, `abi_struct!`) and what
//! their expansions call: a schema with shared memory depends on this crate and invokes them
//! from here instead of carrying its own copy (abi-codegen's `rust/support/` is the same text,
//! which a schema without shared memory still gets, to need only zerocopy). Not an API: the
//! expansions are the generated types' API, the same from either copy.

#[doc(hidden)]
pub use zerocopy::FromZeros;

/// Shows a `char[N]` field as a string in `Debug` output.
pub struct TextDebug<'a>(pub &'a [u8]);

impl ::core::fmt::Debug for TextDebug<'_> {
    fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
        let end = self.0.iter().position(|b| *b == 0).unwrap_or(self.0.len());
        ::core::fmt::Debug::fmt(&::std::string::String::from_utf8_lossy(&self.0[..end]), f)
    }
}

/// `Debug` of an array field. One that a count field bounds shows its entries in use and
/// then how many it holds, `[a, b, ..; 2 of 16]`, following counts as `codegen inspect`
/// does; a count past the length shows every entry and the count, `[.., ..; 20 of 16]`.
/// A run of four or more equal entries shows once with its length, `Tile::EMPTY ×4096`.
pub mod array {
    /// Equal entries in a row that show as one.
    const RUN: usize = 4;

    /// An array and, when a count field bounds it, the count's value.
    pub struct Debug<'a, T>(pub &'a [T], pub ::core::option::Option<i128>);

    impl<T: ::core::fmt::Debug + ::core::cmp::PartialEq> ::core::fmt::Debug for Debug<'_, T> {
        fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
            let Debug(items, count) = *self;
            let len = items.len();
            // A negative count shows no entry, one past the length every entry.
            let used = match count {
                None => len,
                Some(n) if n < 0 => 0,
                Some(n) => usize::try_from(n).map_or(len, |n| n.min(len)),
            };
            let mut list = f.debug_list();
            let mut rest = &items[..used];
            while let Some(first) = rest.first() {
                let run = rest.iter().take_while(|x| *x == first).count();
                if run >= RUN {
                    list.entry(&Run(first, run));
                } else {
                    list.entries(&rest[..run]);
                }
                rest = &rest[run..];
            }
            if let Some(n) = count.filter(|n| usize::try_from(*n) != Ok(len)) {
                list.entry(&Rest(n, len));
            }
            list.finish()
        }
    }

    /// Equal entries in a row: `Tile::EMPTY ×4096`.
    struct Run<'a, T>(&'a T, usize);

    impl<T: ::core::fmt::Debug> ::core::fmt::Debug for Run<'_, T> {
        fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
            ::core::fmt::Debug::fmt(self.0, f)?;
            write!(f, " ×{}", self.1)
        }
    }

    /// The last entry of a list cut at its count: `..; 2 of 16`.
    struct Rest(i128, usize);

    impl ::core::fmt::Debug for Rest {
        fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
            write!(f, "..; {} of {}", self.0, self.1)
        }
    }
}

/// Names, conversions and `Debug` for an enum newtype. Its helpers are lowercase
/// functions, so they can never collide with a value (always `UPPER_SNAKE`).
#[doc(hidden)]
#[macro_export]
macro_rules! abi_enum {
    ($ty:ident : $repr:ty { $($name:ident = $text:literal),* $(,)? }) => {
        impl $ty {
            /// Every value the schema declares, in declaration order.
            pub const fn values() -> &'static [$ty] {
                &[$($ty::$name),*]
            }

            /// The schema's name of this value, or `None` for a number it does not declare.
            pub fn name(self) -> ::core::option::Option<&'static str> {
                $(if self == $ty::$name { return ::core::option::Option::Some($text); })*
                ::core::option::Option::None
            }

            /// The value with the schema name `name`.
            pub fn from_name(name: &str) -> ::core::option::Option<$ty> {
                $(if name == $text { return ::core::option::Option::Some($ty::$name); })*
                ::core::option::Option::None
            }
        }

        impl ::core::convert::From<$repr> for $ty {
            fn from(value: $repr) -> Self {
                $ty(value)
            }
        }

        impl ::core::convert::From<$ty> for $repr {
            fn from(value: $ty) -> Self {
                value.0
            }
        }

        /// The value's name (`Phase::PLAYING`), or its number for an undeclared one (`Phase(200)`).
        impl ::core::fmt::Debug for $ty {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                $(if *self == $ty::$name { return f.write_str(concat!(stringify!($ty), "::", stringify!($name))); })*
                write!(f, concat!(stringify!($ty), "({})"), self.0)
            }
        }
    };
}

/// Bit operations, iteration and `Debug` for a flag-set newtype.
#[doc(hidden)]
#[macro_export]
macro_rules! abi_flags {
    ($ty:ident : $repr:ty { $($name:ident = $text:literal),* $(,)? }) => {
        impl $ty {
            /// Every flag the schema declares with its schema name, in declaration order.
            pub const fn named() -> &'static [($ty, &'static str)] {
                &[$(($ty::$name, $text)),*]
            }

            /// No bit set.
            pub const fn empty() -> Self {
                $ty(0)
            }

            /// Every declared bit set.
            pub const fn all() -> Self {
                $ty(0 $(| $ty::$name.0)*)
            }

            /// The raw bits.
            pub const fn bits(self) -> $repr {
                self.0
            }

            /// Whether no bit is set.
            pub const fn is_empty(self) -> bool {
                self.0 == 0
            }

            /// Whether every bit of `other` is set in `self`.
            pub const fn contains(self, other: Self) -> bool {
                self.0 & other.0 == other.0
            }

            /// Whether any bit of `other` is set in `self`.
            pub const fn intersects(self, other: Self) -> bool {
                self.0 & other.0 != 0
            }

            /// Sets the bits of `other`.
            pub fn insert(&mut self, other: Self) {
                self.0 |= other.0;
            }

            /// Clears the bits of `other`.
            pub fn remove(&mut self, other: Self) {
                self.0 &= !other.0;
            }

            /// The bits the schema does not declare.
            pub const fn unknown_bits(self) -> $repr {
                self.0 & !Self::all().0
            }

            /// Each set bit on its own, lowest first, declared or not.
            pub fn iter(self) -> impl ::core::iter::Iterator<Item = Self> {
                let bits = self.0;
                (0..<$repr>::BITS)
                    .map(|i| (1 as $repr) << i)
                    .filter(move |b| bits & b != 0)
                    .map($ty)
            }
        }

        impl ::core::convert::From<$repr> for $ty {
            fn from(value: $repr) -> Self {
                $ty(value)
            }
        }

        impl ::core::convert::From<$ty> for $repr {
            fn from(value: $ty) -> Self {
                value.0
            }
        }

        impl ::core::ops::BitOr for $ty {
            type Output = Self;
            fn bitor(self, rhs: Self) -> Self {
                $ty(self.0 | rhs.0)
            }
        }

        impl ::core::ops::BitAnd for $ty {
            type Output = Self;
            fn bitand(self, rhs: Self) -> Self {
                $ty(self.0 & rhs.0)
            }
        }

        impl ::core::ops::BitXor for $ty {
            type Output = Self;
            fn bitxor(self, rhs: Self) -> Self {
                $ty(self.0 ^ rhs.0)
            }
        }

        /// Flips every bit of the representation, declared or not, so that
        /// `flags & !X` keeps the bits the schema does not know.
        impl ::core::ops::Not for $ty {
            type Output = Self;
            fn not(self) -> Self {
                $ty(!self.0)
            }
        }

        impl ::core::ops::BitOrAssign for $ty {
            fn bitor_assign(&mut self, rhs: Self) {
                self.0 |= rhs.0;
            }
        }

        impl ::core::ops::BitAndAssign for $ty {
            fn bitand_assign(&mut self, rhs: Self) {
                self.0 &= rhs.0;
            }
        }

        impl ::core::ops::BitXorAssign for $ty {
            fn bitxor_assign(&mut self, rhs: Self) {
                self.0 ^= rhs.0;
            }
        }

        /// The set bits by name, undeclared ones in hex: `Flags(A | B | 0x100)`.
        impl ::core::fmt::Debug for $ty {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(concat!(stringify!($ty), "("))?;
                let mut first = true;
                let mut sep = |f: &mut ::core::fmt::Formatter<'_>| {
                    let s = if first { "" } else { " | " };
                    first = false;
                    f.write_str(s)
                };
                $(if self.contains($ty::$name) && $ty::$name.0 != 0 {
                    sep(f)?;
                    f.write_str(stringify!($name))?;
                })*
                let unknown = self.unknown_bits();
                if unknown != 0 || self.0 == 0 {
                    sep(f)?;
                    write!(f, "{:#x}", unknown)?;
                }
                f.write_str(")")
            }
        }
    };
}

/// `Default` (all zero), `Debug`, and compile-time asserts of a struct's size, alignment
/// and every field's offset, against the numbers of the layout engine. A field is
/// `name : offset`, followed by `pad` for declared padding, which `Debug` leaves out,
/// `text` for a `char[N]` field, which `Debug` shows as a string, `array` for another
/// array, or `count(path)` for an array whose entries in use the field at `path` counts,
/// which `Debug` shows up to its count (`array::Debug`).
/// After the fields, `text { FIELD: GET, SET; ... }` gives each text field `GET()`, its text
/// up to the first NUL, and `SET(text)` (the generated file's `text` module does both).
#[doc(hidden)]
#[macro_export]
macro_rules! abi_struct {
    ($ty:ident : size $size:literal, align $align:literal { $($field:ident : $offset:literal $($kind:ident $(($($count:tt)+))?)?),* $(,)? } $(text { $($text:ident : $get:ident, $set:ident);+ $(;)? })?) => {
        impl ::core::default::Default for $ty {
            fn default() -> Self {
                <$ty as $crate::support::FromZeros>::new_zeroed()
            }
        }

        impl ::core::fmt::Debug for $ty {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut d = f.debug_struct(stringify!($ty));
                $($crate::abi_struct!(@field d, stringify!($field), &self.$field $(, $kind $(, self.$($count)+)?)?);)*
                let padding_left_out = false $(|| $crate::abi_struct!(@is_padding $($kind)?))*;
                if padding_left_out { d.finish_non_exhaustive() } else { d.finish() }
            }
        }

        $(impl $ty {
            $(
            #[doc = concat!("`", stringify!($text), "` as text: the bytes up to the first NUL, which must be UTF-8.")]
            ///
            /// # Errors
            ///
            /// The UTF-8 error when those bytes are not UTF-8.
            pub fn $get(&self) -> ::core::result::Result<&str, ::core::str::Utf8Error> {
                text::to_str(&self.$text)
            }
            #[doc = concat!(" Sets `", stringify!($text), "` to `text`, cut at a character boundary so that a terminating NUL always fits; the rest is zeroed.")]
            pub fn $set(&mut self, text: &str) {
                text::set(&mut self.$text, text);
            }
            )+
        })?

        const _: () = {
            assert!(::core::mem::size_of::<$ty>() == $size);
            assert!(::core::mem::align_of::<$ty>() == $align);
            $(assert!(::core::mem::offset_of!($ty, $field) == $offset);)*
        };
    };
    // A field's line in `Debug`, under its name as `#[derive(Debug)]` would show it.
    (@field $d:ident, $name:expr, $value:expr) => {
        $d.field($name.trim_start_matches("r#"), $value);
    };
    (@field $d:ident, $name:expr, $value:expr, text) => {
        $d.field($name.trim_start_matches("r#"), &$crate::support::TextDebug($value));
    };
    (@field $d:ident, $name:expr, $value:expr, array) => {
        $d.field($name.trim_start_matches("r#"), &$crate::support::array::Debug($value, ::core::option::Option::None));
    };
    (@field $d:ident, $name:expr, $value:expr, count, $count:expr) => {
        $d.field($name.trim_start_matches("r#"), &$crate::support::array::Debug($value, ::core::option::Option::Some(::core::primitive::i128::from($count))));
    };
    (@field $d:ident, $name:expr, $value:expr, pad) => {};
    (@is_padding) => { false };
    (@is_padding text) => { false };
    (@is_padding array) => { false };
    (@is_padding count) => { false };
    (@is_padding pad) => { true };
}
