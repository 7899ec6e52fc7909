//! The Rust live layer's directories (`[[directory]]`): per directory a unit type holding
//! the plan as an `abi_runtime::directory::DirectorySpec`, the mapping's names, and thin
//! calls into `abi_runtime::directory`, where the protocol lives once.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::tokens::lit;
use crate::ir::directory::Directory;
use crate::language_backend::rust::docs::{doc, doc_lit, escaped};
use crate::language_backend::rust::names::type_ident;
use crate::schema::Schema;

/// Every directory of `schema`.
pub(super) fn expand_directories(schema: &Schema) -> TokenStream {
    schema.directories.iter().map(expand_directory).collect()
}

fn expand_directory(d: &Directory) -> TokenStream {
    let ty = type_ident(&d.name);
    let p = &d.plan;
    let [magic_at, entry_count_at, entry_size_at, entries_at] =
        [p.magic_at, p.entry_count_at, p.entry_size_at, p.entries_at].map(lit);
    let [
        word_at,
        time_at,
        major_at,
        minor_at,
        version_at,
        version_len,
    ] = [
        p.word_at,
        p.process_time_at,
        p.abi_major_at,
        p.abi_minor_at,
        p.version_at,
        p.version_len,
    ]
    .map(lit);
    let [max_entries, entry_size, free, claimed, live] =
        [p.max_entries, p.entry_size, p.free, p.claimed, p.live].map(|n| lit(u64::from(n)));
    let magic: Literal = format!("{:#x}", p.magic).parse().expect("a hex literal");
    let [abi_major, abi_minor] = [p.abi_major, p.abi_minor].map(|n| lit(u64::from(n)));
    let state_low = p.state_low;
    let windows = format!("Local\\{}", d.mapping);
    let linux = format!("/dev/shm/{}", d.mapping);
    let docs = doc(&[
        escaped(&d.doc),
        format!(
            "The protocol is `abi_runtime::directory`'s; this type holds its plan. A host opens the mapping with `abi_runtime::DirectoryMapping` (feature `mmap`), registers with [`{ty}::host`] and `abi_runtime::process_probe`, and unregisters on exit."
        ),
    ]);
    let spec_doc = doc_lit!(" Offsets, sizes and values of the directory, from the layout.");
    let windows_doc = doc_lit!(" The mapping's name on Windows.");
    let linux_doc = doc_lit!(" The mapping's file on Linux.");
    quote! {
        #docs
        #[derive(Debug, Clone, Copy)]
        pub struct #ty;
        impl #ty {
            #[doc = #spec_doc]
            pub const SPEC: ::abi_runtime::directory::DirectorySpec = ::abi_runtime::directory::DirectorySpec {
                magic_at: #magic_at,
                magic: #magic,
                entry_count_at: #entry_count_at,
                entry_size_at: #entry_size_at,
                entries_at: #entries_at,
                max_entries: #max_entries,
                entry_size: #entry_size,
                word: ::abi_runtime::claim::SharedWord { at: #word_at, state_low: #state_low },
                process_time_at: #time_at,
                abi_major_at: #major_at,
                abi_minor_at: #minor_at,
                version_at: #version_at,
                version_len: #version_len,
                free: #free,
                claimed: #claimed,
                live: #live,
            };
            #[doc = #windows_doc]
            pub const WINDOWS_NAME: &'static str = #windows;
            #[doc = #linux_doc]
            pub const LINUX_PATH: &'static str = #linux;
            /// What this process registers: its pid and creation time (`abi_runtime::own_host_time`
            /// with `mmap`), this ABI's version, and `host_version`.
            pub fn host(pid: u32, process_time: u64, host_version: &str) -> ::abi_runtime::directory::HostInfo {
                ::abi_runtime::directory::HostInfo {
                    pid,
                    process_time,
                    abi_major: #abi_major,
                    abi_minor: #abi_minor,
                    host_version: host_version.to_owned(),
                }
            }
            /// The directory in `region`, its header checked (magic, `entry_size`, `entry_count`).
            ///
            /// # Errors
            ///
            /// The `DirectoryError` naming what is wrong.
            pub fn check<A: ::abi_runtime::Access>(
                region: ::abi_runtime::Region<'_, A>,
            ) -> Result<::abi_runtime::directory::Directory<'_, A>, ::abi_runtime::directory::DirectoryError> {
                ::abi_runtime::directory::check(region, Self::SPEC)
            }
        }
    }
}
