//! The root handle's `relayout`: a new image produced over the mapping with the host's own
//! fields kept, printed from `plan::relayout` as an `abi_runtime::relayout::Keep`; the runtime
//! (`runtime/src/relayout.rs`) copies them.

use proc_macro2::TokenStream;
use quote::quote;

use crate::language_backend::rust::docs::doc_lit;
use crate::language_backend::rust::live::tokens::lit;
use crate::schema::Schema;

/// `relayout(region, image)`, or nothing when the schema has nothing to re-lay out.
pub(super) fn relayout_method(schema: &Schema) -> TokenStream {
    let Some(plan) = crate::plan::relayout::relayout(schema) else {
        return TokenStream::new();
    };
    let kept = plan.kept_names();
    let runs = plan.runs.iter().map(|r| {
        let (at, width, count) = (lit(r.at), lit(r.width), lit(r.count));
        quote!(::abi_runtime::relayout::KeptRun { at: #at, width: #width, count: #count })
    });
    let (bind, marks) = match &plan.bind {
        Some(b) => {
            let (at, size, word, elem) = (lit(b.at), lit(b.size), lit(b.word), lit(b.elem));
            let (unbound, rows) = (lit(b.unbound), lit(b.rows));
            (
                quote!(Some(::abi_runtime::relayout::KeptBind { at: #at, size: #size, word: #word, elem: #elem, unbound: #unbound, rows: #rows })),
                format!(
                    ", and each mark of `{}` that is neither a row (below {}: a claim, which the \
                     re-layout frees) nor unbound ({})",
                    b.name, b.rows, b.unbound
                ),
            )
        }
        None => (quote!(None), String::new()),
    };
    let (held_at, held_width) = (lit(plan.held.offset), lit(plan.held.width));
    let list: Vec<String> = kept.iter().map(|k| format!("`{k}`")).collect();
    let doc = doc_lit!(
        " A re-layout in one call: copies the host's own fields from the live header of \
         `region` into `image` (from [`Self::lay_out`], with the new geometry), each word with \
         one acquire load of its own size, when the mapping holds an image, then \
         [`Self::produce`]s it over the same mapping (its generation past the mapping's, \
         every session row freed). Kept (`codegen/src/plan/relayout.rs`): {}{marks}. Nothing \
         else: geometry, the handshake and identity, the region table, the sessions' rows and \
         words and the rings' heads are the new image's.",
        if list.is_empty() {
            "none".to_string()
        } else {
            list.join(", ")
        }
    );
    quote! {
        #[doc = #doc]
        pub fn relayout(
            region: Region<'a>,
            image: &mut ::abi_runtime::produce::Image,
        ) -> Result<Self, ::abi_runtime::produce::ProduceError> {
            const KEEP: ::abi_runtime::relayout::Keep<'static> = ::abi_runtime::relayout::Keep {
                held: ::abi_runtime::attach::Field::new(#held_at, #held_width),
                runs: &[#(#runs),*],
                bind: #bind,
            };
            ::abi_runtime::relayout::keep(region, image, &KEEP)?;
            Self::produce(region, image)
        }
    }
}
