//! Names that would collide with the C header's own macros: a constant or enum value whose
//! generated macro is one the header's live or attach helpers define (or read) is an error.
//! It runs in the access pass, once that pass knows whether any struct is shared with
//! atomic fields (which is when the header has live helpers).

use toml::Spanned;

use crate::diagnostics::{Errors, string_span};
use crate::ir::Abi;
use crate::ir::PerStruct;
use crate::ir::access::StructAccess;
use crate::ir::names::upper;
use crate::ir::result_codes::{Family, codes};
use crate::parse::RawSchema;

/// The C header's live helpers define `<PREFIX>_OK`, `_CONTENDED`, `_EMPTY`,
/// `_TOO_SHORT`, `_DEFAULT_TRIES` and `_HOST_TRIES` and read `<PREFIX>_LIVE_MSVC_INTRINSICS`, and with a `[[layout]]` its attach helpers define
/// `<PREFIX>_ATTACH_OK` and `_ATTACH_<CHECK>` (the codes of `ir::result_codes`); a
/// constant or enum value whose macro is one of them would redefine it.
pub(crate) fn check_reserved_macros(
    errors: &mut Errors,
    src: &str,
    raw: &RawSchema,
    abi: &Abi,
    structs: &PerStruct<StructAccess>,
) {
    let reserved: Vec<String> = codes(Family::Live)
        .into_iter()
        .map(|c| c.macro_suffix)
        .chain(["DEFAULT_TRIES".to_string(), "HOST_TRIES".to_string()])
        .collect();
    let attach_codes: Vec<String> = codes(Family::Attach)
        .into_iter()
        .map(|c| c.macro_suffix)
        .collect();
    let attach = !raw.layouts.is_empty();
    let live = attach
        || structs
            .iter()
            .any(|s| s.shared && s.fields.iter().any(|f| f.kind.is_atomic()));
    if !live {
        return;
    }
    let attach_macro = |m: &str| attach && attach_codes.iter().any(|c| c == m);
    let prefix = upper(&abi.c_prefix);
    let mut names: Vec<(String, &Spanned<String>, String)> = raw
        .consts
        .iter()
        .map(|c| {
            let name = &c.get_ref().name;
            (
                upper(name.get_ref()),
                name,
                format!("constant `{}`", name.get_ref()),
            )
        })
        .collect();
    for e in raw.enums.iter().chain(&raw.flags) {
        let e = e.get_ref();
        for v in e.values.get_ref() {
            let v = &v.get_ref().name;
            let macro_name = format!("{}_{}", upper(e.name.get_ref()), upper(v.get_ref()));
            let what = format!("value `{}.{}`", e.name.get_ref(), v.get_ref());
            names.push((macro_name, v, what));
        }
    }
    for (macro_name, name, what) in names {
        if attach_macro(&macro_name) {
            errors.error_help(
                &string_span(src, name),
                format!(
                    "{what} becomes the C macro `{prefix}_{macro_name}`, which the header's attach helpers define as a check code"
                ),
                "rename it: the attach helpers return ATTACH_OK or ATTACH_<CHECK>, one per attach check",
            );
        } else if macro_name == "LIVE_MSVC_INTRINSICS" {
            errors.error_help(
                &string_span(src, name),
                format!(
                    "{what} becomes the C macro `{prefix}_{macro_name}`, which makes the header's live access helpers use MSVC's intrinsics"
                ),
                format!("rename it: defining {prefix}_{macro_name} is how a clang-cl build selects the MSVC branch"),
            );
        } else if reserved.contains(&macro_name) {
            errors.error_help(
                &string_span(src, name),
                format!(
                    "{what} becomes the C macro `{prefix}_{macro_name}`, which the header's live access helpers define as a status"
                ),
                "rename it: the live helpers return OK, CONTENDED, EMPTY and TOO_SHORT and try DEFAULT_TRIES or HOST_TRIES times",
            );
        }
    }
}
