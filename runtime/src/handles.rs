//! `layout_handle!` and `handle_accessors!`: a generated layout's typed handle and its
//! per-region accessors, one line each.
//!
//! A generated handle (`bridge_abi::live::Bridge`, `ClientBlock`, ...) holds what attach
//! found (the mapping, the producer's version, the placed table, and for the host's own handle
//! the image it laid out) and gives one accessor per region of its table. Those accessors
//! differ only in the row's index, the type they give and the one runtime call they make; the
//! generator prints each as one line of [`handle_accessors!`], which expands to exactly the
//! method it used to print (the same name, signature and documentation). The expansions call
//! safe runtime functions only: no `unsafe` reaches the generated crate.

/// Expands to a generated layout handle's type and the methods that give back what attach
/// found. Inside the generated bindings' `live` module (where `Region` is the runtime's).
///
/// `#[doc = ...]* root NAME: handshake HANDSHAKE, table TABLE;` is the root layout's handle:
/// `attach` (the checks of [`attach::attach`](crate::attach::attach) with the statics
/// `HANDSHAKE` and `TABLE`), `produce`, `generation`, `reloaded`, `producer`, `header_size`,
/// `extent`, `region`, `table` and `laid_out`. `#[doc = ...]* block NAME;` is a block's handle
/// (another layout's blocks hold it): `producer`, `region`, `table` and `laid_out`. The
/// generator adds the layout's own methods (its regions, the root's `lay_out`) in an `impl`
/// block of their own.
///
/// ```
/// use abi_runtime::attach::{Field, HandshakeSpec, RowContents, RowSpec, TableSpec, Version};
///
/// static HANDSHAKE: HandshakeSpec = HandshakeSpec {
///     record: "header", ours: Version { major: 1, minor: 0 },
///     magic: Some((Field::new(0, 4), 0x4142_4344)), major: Field::new(4, 2),
///     minor: Field::new(6, 2), size: Some(Field::new(8, 4)), base_size: 32, full_size: 32,
///     added: &[], state: None, generation: None,
/// };
/// static TABLE: TableSpec = TableSpec {
///     name: "image", header: "header", header_size: 32, table_offset: 16, max_rows: 1,
///     row_size: 16, row_offset: Field::new(0, 8), row_len: Field::new(8, 8), row_count: None,
///     extent: None, geometry: &[],
///     rows: &[RowSpec {
///         name: "header", index: 0, since_minor: None, optional: false, min_size: 32,
///         align: 8, overlaps: &[], contents: RowContents::Header, need: None,
///     }],
/// };
/// abi_runtime::layout_handle! {
///     /// An attached image.
///     root Image: handshake HANDSHAKE, table TABLE;
/// }
/// let image = abi_runtime::produce::lay_out(&HANDSHAKE, &TABLE, &[], 0).unwrap();
/// let buf = abi_runtime::SharedBuf::new(image.bytes.len());
/// let handle = Image::produce(buf.region(), &image).unwrap();
/// assert_eq!((handle.extent(), handle.producer().major), (32, 1));
/// assert!(handle.laid_out().is_some() && Image::attach(buf.region()).unwrap().laid_out().is_none());
/// ```
#[macro_export]
macro_rules! layout_handle {
    ($(#[$m:meta])* root $name:ident: handshake $hs:path, table $table:path;) => {
        $(#[$m])*
        #[derive(Debug, Clone)]
        pub struct $name<'a> {
            region: $crate::Region<'a>,
            producer: $crate::attach::Version,
            header_size: usize,
            extent: usize,
            table: $crate::attach::PlacedTable,
            generation: ::core::option::Option<u64>,
            /// Made by `produce`: the host's own handle, whose blocks its own reload and exit
            /// do not take away.
            host: bool,
            /// The image the host laid out, kept by its own handle (made by `produce`; `None`
            /// for a handle that attached): the host's side reads its tables and geometry
            /// there, never from the bytes a client can write.
            laid_out: ::core::option::Option<::std::sync::Arc<$crate::laid_out::LaidOut>>,
        }
        impl<'a> $name<'a> {
            /// Checks `region` as abi-codegen's `ATTACH.md` says (magic, major version, the writer's
            /// state, header size, total size, then every region and geometry field of the root
            /// table; each block is checked when first used) and gives typed access to it. An
            /// error whose `is_retryable()` is true (the writer is starting or reloaded) may
            /// pass later.
            pub fn attach(
                region: $crate::Region<'a>,
            ) -> ::core::result::Result<Self, $crate::AttachError> {
                let attached = $crate::attach::attach(region, &$hs, &$table)?;
                ::core::result::Result::Ok(Self {
                    region,
                    producer: attached.producer,
                    header_size: attached.header_size,
                    extent: attached.extent,
                    table: attached.table,
                    generation: attached.generation,
                    host: false,
                    laid_out: ::core::option::Option::None,
                })
            }
            /// Writes an image from [`Self::lay_out`] into `region` (the state not running,
            /// a release fence, the bytes, then the state running, with release) and
            /// attaches to it. The handle is the host's own: its blocks are handed out
            /// whatever the host's state and generation (the host's reload and exit move no
            /// table); a re-layout produces a new one. It keeps the image: its tables, and the
            /// geometry its side of each protocol reads, are the image's, never read back from
            /// the mapping, whose blocks a client can write.
            pub fn produce(
                region: $crate::Region<'a>,
                image: &$crate::produce::Image,
            ) -> ::core::result::Result<Self, $crate::produce::ProduceError> {
                let laid_out = $crate::laid_out::LaidOut::new(image, &$hs, &$table)?;
                $crate::produce::write(region, image)?;
                let mut handle =
                    Self::attach(region).map_err($crate::produce::ProduceError::Refused)?;
                handle.host = true;
                // Every table as the host laid it out (each block placed), never as the
                // mapping says now: a client can write its blocks' tables.
                handle.table = laid_out.table().clone();
                handle.laid_out = ::core::option::Option::Some(::std::sync::Arc::new(laid_out));
                ::core::result::Result::Ok(handle)
            }
            /// The writer's generation when attach checked the tables (when the schema names one).
            pub fn generation(&self) -> ::core::option::Option<u64> {
                self.generation
            }
            /// Whether the writer has reloaded (a new generation) or left running since attach:
            /// then the tables this handle checked may be gone, and the bot must attach again.
            /// One or two acquire loads.
            pub fn reloaded(&self) -> bool {
                $crate::attach::reloaded(self.region, &$hs, self.generation)
            }
            /// The producer's version: its major is ours; its minor may be older or newer.
            pub fn producer(&self) -> $crate::attach::Version {
                self.producer
            }
            /// The header's size as the producer built it.
            pub fn header_size(&self) -> usize {
                self.header_size
            }
            /// The bytes the image spans.
            pub fn extent(&self) -> usize {
                self.extent
            }
            $crate::layout_handle!(@common);
        }
    };
    ($(#[$m:meta])* block $name:ident;) => {
        $(#[$m])*
        #[derive(Debug, Clone)]
        pub struct $name<'a> {
            region: $crate::Region<'a>,
            producer: $crate::attach::Version,
            table: $crate::attach::PlacedTable,
            /// The image the host laid out, kept by its own handle (made by `produce`; `None`
            /// for a handle that attached): the host's side reads its tables and geometry
            /// there, never from the bytes a client can write.
            laid_out: ::core::option::Option<::std::sync::Arc<$crate::laid_out::LaidOut>>,
        }
        impl<'a> $name<'a> {
            /// The producer's version, as attach read it from the root header.
            pub fn producer(&self) -> $crate::attach::Version {
                self.producer
            }
            $crate::layout_handle!(@common);
        }
    };
    (@common) => {
        /// The whole mapping.
        pub fn region(&self) -> $crate::Region<'a> {
            self.region
        }
        /// Where each region is, as attach checked it.
        pub fn table(&self) -> &$crate::attach::PlacedTable {
            &self.table
        }
        /// The image the host laid out, when this is the host's own handle (or a block
        /// of it): the tables and geometry its side trusts. `None` after an attach.
        pub fn laid_out(&self) -> ::core::option::Option<&$crate::laid_out::LaidOut> {
            self.laid_out.as_deref()
        }
    };
}

/// Expands to a layout handle's accessors, one method per line, inside the handle's
/// `impl<'a> NAME<'a>` block (a type made by [`layout_handle!`]).
///
/// Each line is `#[doc = ...]* KIND NAME ...;`; `K` is the region's row in the table:
///
/// | line | method |
/// |---|---|
/// | `header NAME: VIEW;` | `fn NAME(&self) -> VIEW<'a>`: the header's live view |
/// | `header_len NAME: VIEW;` | the same, as long as the producer built it (`header_size`) |
/// | `region NAME @ K;` | `fn NAME(&self) -> Option<Region<'a>>`: the row's bytes |
/// | `view NAME @ K: VIEW;` | `fn NAME(&self) -> Option<VIEW<'a>>`: its live view |
/// | `ring NAME @ K: RING, COUNT, SIZE;` | `fn NAME(&self) -> Option<RING<'a>>`: a slots ring with the geometry fields `COUNT` and `SIZE` (`Option<usize>`) |
/// | `blocks NAME @ K: BLOCK, COUNT_NAME = N, TABLE;` | `const COUNT_NAME: usize = N` and `fn NAME(&self, i: usize) -> Result<Option<BLOCK<'a>>, AttachError>`: block `i`, checked by `TABLE` |
/// | `blocks NAME @ K: BLOCK, COUNT_NAME = N, TABLE, live HANDSHAKE;` | the same, handed to a client only while the writer still runs the generation attach checked |
/// | `open NAME @ K: SIDE::CTOR, ERROR;` | `fn NAME(&self) -> Result<Option<SIDE<'a>>, ERROR>`: `SIDE::CTOR(region)` over the row's bytes |
/// | `host NAME @ K: SIDE, ERROR;` | the same by `SIDE::with_geometry`, the geometry from the host's image when the handle is the host's own |
/// | `scoped NAME = UNSCOPED: SIDE, ERROR, SESSION, SCOPED;` | `fn NAME<'c>(&self, client: &'c SESSION<'a>) -> Result<Option<SCOPED<'c, 'a, SIDE<'a>>>, ERROR>`: `UNSCOPED()` bound to `client`'s claim |
#[macro_export]
macro_rules! handle_accessors {
    () => {};
    ($(#[$m:meta])* header $name:ident: $view:ident; $($rest:tt)*) => {
        $(#[$m])*
        pub fn $name(&self) -> $view<'a> {
            $view::at(self.region, self.table.base).expect("attach checked the header")
        }
        $crate::handle_accessors!($($rest)*);
    };
    ($(#[$m:meta])* header_len $name:ident: $view:ident; $($rest:tt)*) => {
        $(#[$m])*
        pub fn $name(&self) -> $view<'a> {
            $view::at_len(self.region, self.table.base, self.header_size)
                .expect("attach checked the header")
        }
        $crate::handle_accessors!($($rest)*);
    };
    ($(#[$m:meta])* region $name:ident @ $k:literal; $($rest:tt)*) => {
        $(#[$m])*
        pub fn $name(&self) -> ::core::option::Option<$crate::Region<'a>> {
            self.table.row_region(self.region, $k, 1).map(|(_, region)| region)
        }
        $crate::handle_accessors!($($rest)*);
    };
    ($(#[$m:meta])* view $name:ident @ $k:literal: $view:ident; $($rest:tt)*) => {
        $(#[$m])*
        pub fn $name(&self) -> ::core::option::Option<$view<'a>> {
            let p = self.table.row($k)?;
            $view::at(self.region, p.offset).ok()
        }
        $crate::handle_accessors!($($rest)*);
    };
    ($(#[$m:meta])* ring $name:ident @ $k:literal: $ring:ident, $count:expr, $size:expr; $($rest:tt)*) => {
        $(#[$m])*
        pub fn $name(&self) -> ::core::option::Option<$ring<'a>> {
            let p = self.table.row($k)?;
            let count = self.table.geometry_or($count, $ring::SLOT_COUNT);
            let size = self.table.geometry_or($size, $ring::SLOT_SIZE);
            $ring::with_geometry(self.header(), self.region.sub(p.offset, p.size, 1).ok()?, count, size)
                .ok()
        }
        $crate::handle_accessors!($($rest)*);
    };
    ($(#[$m:meta])* blocks $name:ident @ $k:literal: $block:ident, $count_name:ident = $count:literal, $table:path $(, live $hs:path)?; $($rest:tt)*) => {
        #[doc = concat!(" Blocks in region `", stringify!($name), "`.")]
        pub const $count_name: usize = $count;
        $(#[$m])*
        pub fn $name(
            &self,
            i: usize,
        ) -> ::core::result::Result<::core::option::Option<$block<'a>>, $crate::AttachError> {
            // The host's own handle: the block as it laid it out.
            if self.laid_out.is_some() {
                return ::core::result::Result::Ok(self.table.block($k, i).cloned().map(|table| $block {
                    region: self.region,
                    producer: self.producer,
                    table,
                    laid_out: self.laid_out.clone(),
                }));
            }
            // A client's: only while the writer still runs the generation attach checked,
            // before and (after an acquire fence) after the block's tables are read.
            $(if !self.host {
                $crate::attach::still_running(self.region, &$hs, self.generation)?;
            })?
            let found = $crate::attach::block(self.region, self.producer, &$table, &self.table, $k, i)?;
            $(if !self.host {
                $crate::attach::still_running_after_read(self.region, &$hs, self.generation)?;
            })?
            ::core::result::Result::Ok(found.map(|table| $block {
                region: self.region,
                producer: self.producer,
                table,
                laid_out: ::core::option::Option::None,
            }))
        }
        $crate::handle_accessors!($($rest)*);
    };
    ($(#[$m:meta])* open $name:ident @ $k:literal: $side:ident :: $ctor:ident, $err:ty; $($rest:tt)*) => {
        $(#[$m])*
        pub fn $name(&self) -> ::core::result::Result<::core::option::Option<$side<'a>>, $err> {
            let ::core::option::Option::Some((_, region)) = self.table.row_region(self.region, $k, 8) else {
                return ::core::result::Result::Ok(::core::option::Option::None);
            };
            $side::$ctor(region).map(::core::option::Option::Some)
        }
        $crate::handle_accessors!($($rest)*);
    };
    ($(#[$m:meta])* host $name:ident @ $k:literal: $side:ident, $err:ty; $($rest:tt)*) => {
        $(#[$m])*
        pub fn $name(&self) -> ::core::result::Result<::core::option::Option<$side<'a>>, $err> {
            let ::core::option::Option::Some((p, region)) = self.table.row_region(self.region, $k, 8) else {
                return ::core::result::Result::Ok(::core::option::Option::None);
            };
            let from = $crate::laid_out::geometry_of(self.laid_out.as_deref(), p.offset, p.size);
            $side::with_geometry(region, from).map(::core::option::Option::Some)
        }
        $crate::handle_accessors!($($rest)*);
    };
    ($(#[$m:meta])* scoped $name:ident = $unscoped:ident: $side:ident, $err:ty, $session:ident, $scoped:ident; $($rest:tt)*) => {
        $(#[$m])*
        pub fn $name<'c>(
            &self,
            client: &'c $session<'a>,
        ) -> ::core::result::Result<::core::option::Option<$scoped<'c, 'a, $side<'a>>>, $err> {
            ::core::result::Result::Ok(self.$unscoped()?.map(|w| client.scoped(w)))
        }
        $crate::handle_accessors!($($rest)*);
    };
}
