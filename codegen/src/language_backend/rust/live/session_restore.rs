//! The Rust host's restores of the blocks a session's rows own (`plan::session`): the
//! `<Name>Host` then holds the attached handle, and its `free` calls `restore`, which reaches
//! each owned block without the handle's liveness check (the host's own reload and exit
//! change what that check looks at, not where the tables are) and calls `abi_runtime::restore`
//! for each region the plan names.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::tokens::lit;
use crate::language_backend::rust::names::type_ident;
use crate::plan::session::{OwnedBlocks, Restore, owned_blocks};
use crate::schema::Schema;

/// The host type's fields, constructor and `restore` for session `session` (an index into
/// the schema's protocols), given the header type: `(fields, derive, new, restore call, restore fn)`.
pub(super) struct HostParts {
    pub fields: TokenStream,
    pub derive: TokenStream,
    pub new: TokenStream,
    pub call: TokenStream,
    pub restore: TokenStream,
}

pub(super) fn host_parts(
    schema: &Schema,
    session: usize,
    header: &TokenStream,
    free: &TokenStream,
) -> HostParts {
    let owned = owned_blocks(schema, crate::ir::ProtocolId::new(session));
    let Some(first) = owned.first() else {
        return HostParts {
            fields: quote!(header: #header<'a>,),
            derive: quote!(#[derive(Clone, Copy)]),
            new: quote! {
                /// The host's side of the rows in `header`.
                pub fn new(header: #header<'a>) -> Self {
                    Self { header }
                }
            },
            call: TokenStream::new(),
            restore: TokenStream::new(),
        };
    };
    let handle = type_ident(&schema.attach.layouts[first.layout].name);
    let table = format_ident!(
        "{}_TABLE",
        schema.attach.layouts[first.layout].name.to_uppercase()
    );
    let blocks = owned.iter().map(|o| restore_blocks(schema, o));
    let words = owned.iter().map(|o| host_words_const(schema, o));
    HostParts {
        fields: quote!(header: #header<'a>, handle: #handle<'a>,),
        derive: quote!(#[derive(Clone)]),
        new: quote! {
            /// The host's side of the rows in `handle`'s header, and of the blocks they own.
            pub fn new(handle: #handle<'a>) -> Self {
                Self { header: handle.header(), handle }
            }
        },
        call: quote! {
            if old != #free {
                self.restore(index)?;
            }
        },
        restore: quote! {
            /// Puts back what row `index` owned in its blocks, as a new image has it: with the
            /// host's own handle (`produce`), every word the host alone writes there (the
            /// blocks' tables, capacities and geometry: `abi_runtime::restore::host_words`)
            /// from the image it laid out, but a queue's read position and a mailbox's
            /// answered number, which go on; then each mailbox with no request waiting, each
            /// exchange at its initial state (`abi_runtime::restore`); a queue keeps its
            /// entries for the host to drain. A block that is absent or fails its checks is
            /// left alone. `Contended` when a
            /// word the old client shares kept changing (the blocks after it not restored).
            fn restore(&self, index: usize) -> Result<(), ::abi_runtime::Contended> {
                let h = &self.handle;
                // The host's own handle places each block as it laid it out; another,
                // as the mapping says.
                let placed = |row: usize| match &h.laid_out {
                    Some(_) => h.table.block(row, index).cloned(),
                    None => ::abi_runtime::attach::block(h.region, h.producer, &#table, &h.table, row, index)
                        .ok()
                        .flatten(),
                };
                #(#blocks)*
                Ok(())
            }
            #(#words)*
        },
    }
}

fn restore_blocks(schema: &Schema, o: &OwnedBlocks) -> TokenStream {
    let at = lit(o.row as u64);
    let block = type_ident(&schema.attach.layouts[o.block_layout].name);
    let rows = &schema.attach.layouts[o.block_layout].rows;
    let regions = o.regions.iter().map(|r| {
        let region = format_ident!("{}_region", rows[r.row].name);
        let p = type_ident(&schema.protocols[r.protocol].name);
        let call = match r.restore {
            Restore::Mailbox => {
                let t = format_ident!("{p}Client");
                quote!(::abi_runtime::restore::mailbox(r, #t::SPEC))
            }
            Restore::Exchange { .. } => {
                let t = format_ident!("{p}Writer");
                quote!(::abi_runtime::restore::exchange(r, #t::SPEC))
            }
        };
        quote! {
            if let Some(r) = block.#region() {
                #call?;
            }
        }
    });
    let words = o.words.iter().any(|w| w.restored);
    if o.regions.is_empty() && !words {
        return TokenStream::new();
    }
    let host_words = if words {
        let name = words_ident(schema, o);
        quote! {
            if let Some(l) = &h.laid_out {
                ::abi_runtime::restore::host_words(h.region, l, &table, Self::#name)?;
            }
        }
    } else {
        TokenStream::new()
    };
    quote! {
        if let Some(table) = placed(#at) {
            #host_words
            let block = #block { region: h.region, producer: h.producer, table, laid_out: None };
            #(#regions)*
        }
    }
}

/// `<BLOCKS>_HOST_WORDS`: the const naming the restored host words of `o`'s blocks.
fn words_ident(schema: &Schema, o: &OwnedBlocks) -> proc_macro2::Ident {
    let blocks = &schema.attach.layouts[o.layout].rows[o.row].name;
    format_ident!("{}_HOST_WORDS", blocks.to_uppercase())
}

/// The const that lists the host words a free restores in each block of `o`
/// (`plan::host_words`), each with its region, offset and width; nothing when there are none.
fn host_words_const(schema: &Schema, o: &OwnedBlocks) -> TokenStream {
    let words: Vec<TokenStream> = crate::plan::host_words::restored_runs(&o.words)
        .iter()
        .map(|w| {
            let region = match w.region {
                Some(r) => {
                    let r = lit(r as u64);
                    quote!(Some(#r))
                }
                None => quote!(None),
            };
            let (at, width, count) = (lit(w.at), lit(w.width), lit(w.count));
            quote!(::abi_runtime::restore::HostWord::run(#region, #at, #width, #count))
        })
        .collect();
    if words.is_empty() {
        return TokenStream::new();
    }
    let name = words_ident(schema, o);
    let blocks = &schema.attach.layouts[o.layout].rows[o.row].name;
    let doc = format!(
        " The words the host alone writes in each block of `{blocks}` that a free stores back from the image it laid out (abi-codegen's `plan::host_words`), as runs: the block's header (`None`) or a region's, from its start, the bytes of the one store each word gets, and the words."
    );
    quote! {
        #[doc = #doc]
        pub const #name: &'static [::abi_runtime::restore::HostWord] = &[#(#words),*];
    }
}
