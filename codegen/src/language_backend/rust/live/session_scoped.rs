//! A session-scoped writer in the Rust live layer (`<Name>Scoped`): a writer of the blocks a
//! claimed row owns, bound to the claim, whose every write first checks the claim's standing
//! and refuses with it once the row is no longer the claim's (issue 36, item 7).

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use crate::language_backend::rust::docs::doc_lit;

/// `<Name>::scoped` and the `<Name>Scoped` type, for the session type `name` whose standing
/// enum is `standing`.
pub(super) fn scoped_items(name: &Ident, standing: &Ident) -> TokenStream {
    let scoped = format_ident!("{}Scoped", name);
    let doc = doc_lit!(
        " A writer bound to a [`{name}`]'s claim ([`{name}::scoped`]): each [`{scoped}::write`] first loads the claim's standing and writes only while it is [`{standing}::Connected`]. Once the row was freed, claimed again or reloaded, the writer's blocks are the next client's: every write is refused with the standing, and nothing is stored. The window left is one write: a writer preempted between the check and its store may still store once after the host's free (ATTACH.md, \"What a client does when its row is freed\")."
    );
    let sdoc = doc_lit!(
        " Binds `writer` (any writer of this row's blocks, taken unscoped) to this claim: see [`{scoped}`]. The writers of the blocks the row owns are bound already: their default accessors take the claim. Take a new writer after each new claim."
    );
    quote! {
        impl<'a> #name<'a> {
            #[doc = #sdoc]
            pub fn scoped<W>(&self, writer: W) -> #scoped<'_, 'a, W> {
                #scoped { client: self, writer }
            }
        }

        #[doc = #doc]
        pub struct #scoped<'c, 'a, W> {
            client: &'c #name<'a>,
            writer: W,
        }

        impl<W> #scoped<'_, '_, W> {
            /// Runs `write` with the writer while the claim stands; otherwise its standing,
            /// and `write` is not run.
            pub fn write<R>(&mut self, write: impl FnOnce(&mut W) -> R) -> Result<R, #standing> {
                match self.client.standing() {
                    #standing::Connected => Ok(write(&mut self.writer)),
                    lost => Err(lost),
                }
            }

            /// The writer, bound to no claim any more: it keeps writing after the row was
            /// freed, into the next client's blocks (for a tool that writes without a claim).
            pub fn into_unscoped(self) -> W {
                self.writer
            }
        }
    }
}
