//! `versioned!`: a generated record read by its producer's size (`Versioned<Record>`), with an
//! `Option` accessor per field a later minor version added, one line each.

/// Expands to a generated `Versioned<Record>`: the record `VALUE` read from a copy by the
/// handshake `HANDSHAKE` ([`HandshakeSpec::read_bytes`](crate::attach::HandshakeSpec::read_bytes)),
/// with the producer's version, its record size and the bytes past ours. The first line is
/// `#[doc = ...]* NAME: VALUE, HANDSHAKE;`; each next line, `#[doc = ...]* FIELD @ K: TYPE;`,
/// is the accessor of added field `K` of the handshake (`None` when the producer's version or
/// record lacks it).
#[macro_export]
macro_rules! versioned {
    (
        $(#[$m:meta])* $name:ident: $value:ty, $hs:path;
        $($(#[$fm:meta])* $field:ident @ $k:literal: $ty:ty;)*
    ) => {
        $(#[$m])*
        #[derive(Debug, Clone)]
        pub struct $name {
            /// Our record: the producer's bytes, zero-extended or cut to our size.
            pub value: $value,
            /// The producer's version.
            pub producer: $crate::attach::Version,
            /// The producer's record size, as far as the bytes given hold it.
            pub size: usize,
            /// The bytes past our record size, which a newer producer wrote.
            pub extra: ::std::vec::Vec<u8>,
        }

        impl $name {
            /// Reads the record at the start of `bytes` (a copy, not live memory): an error if
            /// its magic or major version is wrong, or it is shorter than every producer writes.
            pub fn read(bytes: &[u8]) -> ::core::result::Result<Self, $crate::AttachError> {
                let r = $hs.read_bytes(bytes)?;
                let value = <$value as ::zerocopy::FromBytes>::read_from_bytes(&r.bytes)
                    .expect("read_bytes gives exactly the record's size");
                ::core::result::Result::Ok(Self { value, producer: r.producer, size: r.size, extra: r.extra })
            }

            $crate::versioned!(@has $hs; $($field)*);

            $(
            $(#[$fm])*
            pub fn $field(&self) -> ::core::option::Option<&$ty> {
                self.has($k).then_some(&self.value.$field)
            }
            )*
        }
    };
    // Only the accessors of added fields ask: with none, an unused `has` would warn.
    (@has $hs:path;) => {};
    (@has $hs:path; $($field:ident)+) => {
        fn has(&self, k: usize) -> bool {
            $hs.present(&$hs.added[k], self.producer, self.size)
        }
    };
}
