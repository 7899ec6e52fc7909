/// `Debug` of an array field. One that a count field bounds shows its entries in use and
/// then how many it holds, `[a, b, ..; 2 of 16]`, following counts as `codegen inspect`
/// does; a count past the length shows every entry and the count, `[.., ..; 20 of 16]`.
/// A run of four or more equal entries shows once with its length, `Tile::EMPTY ×4096`.
mod array {
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
