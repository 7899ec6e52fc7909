//! Cuts a stream of Rust items into consecutive groups of a few items each, at the items'
//! boundaries, so that a large piece of the live module (its attach code: thousands of items
//! for a large schema, one piece) is parsed and printed a group at a time. Its syn tree for
//! 10,000 synthetic structs was about 160 MiB at once (bench/README.md, issue 49).
//!
//! At a module's top level an item ends with a `;` outside any bracket, or with a `{ }`
//! block (a function's body, an `impl`, a braced struct or macro call) that the next item
//! follows: an attribute (`#`, doc comments included) or an item's first word. A block inside
//! an item (a struct literal in a `static`) is followed by something else: `;`, `.`, `else`.

use proc_macro2::{Delimiter, TokenStream, TokenTree};

/// The words an item of the live module starts with (`#` of an attribute aside): the
/// generator prints no item with another first word, and one missing here would only keep
/// its item in the group before it, never split an item.
const ITEM_STARTS: [&str; 15] = [
    "pub",
    "fn",
    "impl",
    "struct",
    "enum",
    "union",
    "const",
    "static",
    "type",
    "use",
    "mod",
    "trait",
    "extern",
    "macro_rules",
    "async",
];

/// `tokens`, a sequence of items, as consecutive groups of `per` items (the last may hold
/// fewer); none when there are no tokens.
pub(super) fn item_groups(tokens: TokenStream, per: usize) -> Vec<TokenStream> {
    let per = per.max(1);
    let mut groups = Vec::new();
    let mut group: Vec<TokenTree> = Vec::new();
    let mut items = 0;
    let mut end_item = |group: &mut Vec<TokenTree>| {
        items += 1;
        if items == per {
            groups.push(group.drain(..).collect::<TokenStream>());
            items = 0;
        }
    };
    // The last token was a `{ }` block: an item ended there if the next one starts another.
    let mut after_block = false;
    for token in tokens {
        if after_block && starts_item(&token) {
            end_item(&mut group);
        }
        after_block = matches!(&token, TokenTree::Group(g) if g.delimiter() == Delimiter::Brace);
        let semicolon = matches!(&token, TokenTree::Punct(p) if p.as_char() == ';');
        group.push(token);
        if semicolon {
            end_item(&mut group);
        }
    }
    if !group.is_empty() {
        groups.push(group.into_iter().collect());
    }
    groups
}

/// Whether `token` can be the first of an item.
fn starts_item(token: &TokenTree) -> bool {
    match token {
        TokenTree::Punct(p) => p.as_char() == '#',
        TokenTree::Ident(word) => ITEM_STARTS.iter().any(|w| word == w),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use super::item_groups;

    #[test]
    fn groups_end_at_item_boundaries() {
        let tokens = quote! {
            /// A table.
            pub static A: Spec = Spec { name: "a", rows: &[Row { at: 0 }] };
            pub struct B { x: u32 }
            impl B { pub fn x(&self) -> u32 { self.x } }
            const C: u32 = if true { 1 } else { 2 };
            const D: u32 = B { x: 1 }.x;
            ::abi_runtime::view! { E }
            #[derive(Debug)]
            pub struct F;
            impl Send for F {}
            fn g() {}
        };
        let printed = |per| -> Vec<String> {
            item_groups(tokens.clone(), per)
                .iter()
                .map(|g| g.to_string())
                .collect()
        };
        let one = printed(1);
        assert_eq!(one.len(), 9, "{one:#?}");
        assert!(one[0].starts_with("# [doc") && one[0].contains("pub static A"));
        assert!(one[3].starts_with("const C") && one[3].ends_with(";"));
        assert!(one[4].starts_with("const D") && one[4].ends_with(";"));
        assert!(one[6].starts_with("# [derive (Debug)] pub struct F"));
        // The groups hold every token once, in order, whatever their size.
        for per in [1, 3, 4, 9, 100] {
            let groups = printed(per);
            assert_eq!(groups.len(), 9usize.div_ceil(per));
            assert_eq!(groups.join(" "), tokens.to_string());
        }
        assert!(item_groups(quote!(), 4).is_empty());
    }
}
