//! `recording_format!`: a generated recording format's record, reader and writer types, a
//! line each, over [`recording`](crate::recording) (feature `recording`).

/// Expands to a generated recording format's three types, inside the generated bindings'
/// `recording` module (the generator prints the format's `static` spec):
///
/// ```text
/// spec SPEC;
/// #[doc = ...]* record ITEM: RECORD, DECODED_FIELD DECODED, size DECODED_SIZE;
/// #[doc = ...]* reader READER: header HEADER, footer FOOTER, chunk CHUNK, seek SEEK,
///     read [#[doc = ...]*] READ;
/// tables { #[doc = ...]* NAME @ K: ROW; ... }
/// #[doc = ...]* writer WRITER;
/// adders { #[doc = ...]* PUSH_NAME @ K: ROW; ... }
/// ```
///
/// `ITEM` is one record: its struct `RECORD`, the decoded struct in field `DECODED_FIELD`
/// and the extras. `READER` opens a file (`open`, `from_bytes`) and gives its `header`,
/// `footer`, each table's rows (`NAME()`, table `K` of the spec), `chunks`, `issues`, the
/// records in order (`next_record`, and as an `Iterator`), `SEEK(key)` and `READ(key)`.
/// `WRITER` starts a file (`create`), adds records (`push`) and table rows (`PUSH_NAME`), and
/// ends it (`flush`, `finish`).
#[macro_export]
macro_rules! recording_format {
    (
        spec $spec:ident;
        $(#[$im:meta])* record $item:ident: $record:ty, $decoded_field:ident $decoded:ty, size $size:literal;
        $(#[$rm:meta])* reader $reader:ident: header $header:ty, footer $footer:ty, chunk $chunk:ty,
            seek $seek:ident, read [$(#[$readm:meta])*] $read_at:ident;
        tables { $($(#[$tm:meta])* $table:ident @ $tk:literal: $table_row:ty;)* }
        $(#[$wm:meta])* writer $writer:ident;
        adders { $($(#[$am:meta])* $adder:ident @ $ak:literal: $adder_row:ty;)* }
    ) => {
        $(#[$im])*
        #[derive(Clone)]
        pub struct $item {
            /// The record's struct.
            pub record: $record,
            /// The decoded data's struct.
            pub $decoded_field: $decoded,
            /// The decoded data after it.
            pub extras: ::std::vec::Vec<u8>,
        }

        $(#[$rm])*
        pub struct $reader<R> {
            inner: $crate::recording::Reader<R>,
        }

        impl $reader<::std::io::Cursor<::std::vec::Vec<u8>>> {
            /// Reads a file held in memory.
            ///
            /// # Errors
            /// None in practice: reading from memory does not fail.
            pub fn from_bytes(bytes: ::std::vec::Vec<u8>) -> ::std::io::Result<Self> {
                Self::open(::std::io::Cursor::new(bytes))
            }
        }

        impl<R: ::std::io::Read + ::std::io::Seek> $reader<R> {
            /// Opens the file: its header, then its trailer, footer, tables and chunk
            /// headers (or a walk of its chunks).
            ///
            /// # Errors
            /// Only an I/O error; damage is in [`issues`](Self::issues).
            pub fn open(src: R) -> ::std::io::Result<Self> {
                ::core::result::Result::Ok(Self { inner: $crate::recording::Reader::open(&$spec, src)? })
            }

            /// The header, when the file holds a good one.
            #[must_use]
            pub fn header(&self) -> ::core::option::Option<$header> {
                <$header as ::zerocopy::FromBytes>::read_from_bytes(self.inner.header()).ok()
            }

            /// The footer and its totals, when the trailer led to a good one.
            #[must_use]
            pub fn footer(&self) -> ::core::option::Option<$footer> {
                self.inner
                    .footer()
                    .and_then(|b| <$footer as ::zerocopy::FromBytes>::read_from_bytes(b).ok())
            }

            $(
            $(#[$tm])*
            #[must_use]
            pub fn $table(&self) -> ::std::vec::Vec<$table_row> {
                self.inner
                    .table($tk)
                    .chunks_exact(::core::mem::size_of::<$table_row>())
                    .filter_map(|b| <$table_row as ::zerocopy::FromBytes>::read_from_bytes(b).ok())
                    .collect()
            }
            )*

            /// The headers of the chunks found (from the index, or by the walk).
            #[must_use]
            pub fn chunks(&self) -> ::std::vec::Vec<$chunk> {
                self.inner
                    .chunks()
                    .iter()
                    .filter_map(|c| <$chunk as ::zerocopy::FromBytes>::read_from_bytes(&c.header).ok())
                    .collect()
            }

            /// What was found wrong, on opening and in the chunks read so far.
            #[must_use]
            pub fn issues(&self) -> &[$crate::recording::Issue] {
                self.inner.issues()
            }

            /// The next record, or `None` after the last.
            ///
            /// # Errors
            /// Only an I/O error.
            pub fn next_record(&mut self) -> ::std::io::Result<::core::option::Option<$item>> {
                let ::core::option::Option::Some((head, data)) = self.inner.next_record()? else {
                    return ::core::result::Result::Ok(::core::option::Option::None);
                };
                // The core gives only records whose struct is whole and whose decoded data
                // holds the decoded struct.
                let (::core::result::Result::Ok(record), ::core::result::Result::Ok(decoded)) = (
                    <$record as ::zerocopy::FromBytes>::read_from_bytes(head),
                    <$decoded as ::zerocopy::FromBytes>::read_from_bytes(&data[..$size]),
                ) else {
                    return ::core::result::Result::Err(::std::io::Error::other("a record shorter than its struct"));
                };
                ::core::result::Result::Ok(::core::option::Option::Some($item {
                    record,
                    $decoded_field: decoded,
                    extras: data[$size..].to_vec(),
                }))
            }

            /// Moves so that [`next_record`](Self::next_record) gives the first record whose
            /// key is `key` or more; inflates only the chunk that holds it.
            ///
            /// # Errors
            /// Only an I/O error.
            pub fn $seek(&mut self, key: u64) -> ::std::io::Result<()> {
                self.inner.seek(key)
            }

            $(#[$readm])*
            ///
            /// # Errors
            /// Only an I/O error.
            pub fn $read_at(&mut self, key: u64) -> ::std::io::Result<::core::option::Option<$item>> {
                self.$seek(key)?;
                ::core::result::Result::Ok(self.next_record()?.filter(|r| {
                    $spec.record.key_of(::zerocopy::IntoBytes::as_bytes(&r.record)) == ::core::option::Option::Some(key)
                }))
            }
        }

        impl<R: ::std::io::Read + ::std::io::Seek> ::core::iter::Iterator for $reader<R> {
            type Item = ::std::io::Result<$item>;

            fn next(&mut self) -> ::core::option::Option<Self::Item> {
                self.next_record().transpose()
            }
        }

        $(#[$wm])*
        pub struct $writer<W: ::std::io::Write> {
            inner: $crate::recording::Writer<W>,
            data: ::std::vec::Vec<u8>,
        }

        impl<W: ::std::io::Write> $writer<W> {
            /// Starts a file on `out` (at its offset 0) with `header`, whose expected fields
            /// are filled in.
            ///
            /// # Errors
            /// An I/O error.
            pub fn create(
                out: W,
                header: &$header,
                options: $crate::recording::WriterOptions,
            ) -> ::std::io::Result<Self> {
                ::core::result::Result::Ok(Self {
                    inner: $crate::recording::Writer::create(&$spec, out, ::zerocopy::IntoBytes::as_bytes(header), options)?,
                    data: ::std::vec::Vec::new(),
                })
            }

            /// Adds a record: its struct (the sizes and kind are filled in), the decoded
            /// struct and the extras after it.
            ///
            /// # Errors
            /// A key that does not follow the previous record's, a size its field cannot
            /// hold, or an I/O error.
            pub fn push(&mut self, record: &$record, decoded: &$decoded, extras: &[u8]) -> ::std::io::Result<()> {
                self.data.clear();
                self.data.extend_from_slice(::zerocopy::IntoBytes::as_bytes(decoded));
                self.data.extend_from_slice(extras);
                self.inner.push(::zerocopy::IntoBytes::as_bytes(record), &self.data)
            }

            $(
            $(#[$am])*
            ///
            /// # Errors
            /// None for a row of this type: the result is the runtime's, which untyped callers share.
            pub fn $adder(&mut self, row: &$adder_row) -> ::std::io::Result<()> {
                self.inner.add_row($ak, ::zerocopy::IntoBytes::as_bytes(row))
            }
            )*

            /// Closes the open chunk and flushes: the file is readable up to here.
            ///
            /// # Errors
            /// An I/O error.
            pub fn flush(&mut self) -> ::std::io::Result<()> {
                self.inner.flush()
            }

            /// Writes the open chunk, then `footer` (its counts and totals filled in), its
            /// tables and the trailer; gives the output back.
            ///
            /// # Errors
            /// An I/O error.
            pub fn finish(self, footer: &$footer) -> ::std::io::Result<W> {
                self.inner.finish(::zerocopy::IntoBytes::as_bytes(footer))
            }
        }
    };
}
