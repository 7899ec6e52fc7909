/// `Default` (all zero), `Debug`, and compile-time asserts of a struct's size, alignment
/// and every field's offset, against the numbers of the layout engine. A field is
/// `name : offset`, followed by `pad` for declared padding, which `Debug` leaves out,
/// `text` for a `char[N]` field, which `Debug` shows as a string, `array` for another
/// array, or `count(path)` for an array whose entries in use the field at `path` counts,
/// which `Debug` shows up to its count (`array::Debug`).
/// After the fields, `text { FIELD: GET, SET; ... }` gives each text field `GET()`, its text
/// up to the first NUL, and `SET(text)` (the generated file's `text` module does both).
macro_rules! abi_struct {
    ($ty:ident : size $size:literal, align $align:literal { $($field:ident : $offset:literal $($kind:ident $(($($count:tt)+))?)?),* $(,)? } $(text { $($text:ident : $get:ident, $set:ident);+ $(;)? })?) => {
        impl ::core::default::Default for $ty {
            fn default() -> Self {
                <$ty as ::zerocopy::FromZeros>::new_zeroed()
            }
        }

        impl ::core::fmt::Debug for $ty {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut d = f.debug_struct(stringify!($ty));
                $(abi_struct!(@field d, stringify!($field), &self.$field $(, $kind $(, self.$($count)+)?)?);)*
                let padding_left_out = false $(|| abi_struct!(@is_padding $($kind)?))*;
                if padding_left_out { d.finish_non_exhaustive() } else { d.finish() }
            }
        }

        $(impl $ty {
            $(
            #[doc = concat!("`", stringify!($text), "` as text: the bytes up to the first NUL, which must be UTF-8.")]
            ///
            /// # Errors
            ///
            /// The UTF-8 error when those bytes are not UTF-8.
            pub fn $get(&self) -> ::core::result::Result<&str, ::core::str::Utf8Error> {
                text::to_str(&self.$text)
            }
            #[doc = concat!(" Sets `", stringify!($text), "` to `text`, cut at a character boundary so that a terminating NUL always fits; the rest is zeroed.")]
            pub fn $set(&mut self, text: &str) {
                text::set(&mut self.$text, text);
            }
            )+
        })?

        const _: () = {
            assert!(::core::mem::size_of::<$ty>() == $size);
            assert!(::core::mem::align_of::<$ty>() == $align);
            $(assert!(::core::mem::offset_of!($ty, $field) == $offset);)*
        };
    };
    // A field's line in `Debug`, under its name as `#[derive(Debug)]` would show it.
    (@field $d:ident, $name:expr, $value:expr) => {
        $d.field($name.trim_start_matches("r#"), $value);
    };
    (@field $d:ident, $name:expr, $value:expr, text) => {
        $d.field($name.trim_start_matches("r#"), &text::Debug($value));
    };
    (@field $d:ident, $name:expr, $value:expr, array) => {
        $d.field($name.trim_start_matches("r#"), &array::Debug($value, ::core::option::Option::None));
    };
    (@field $d:ident, $name:expr, $value:expr, count, $count:expr) => {
        $d.field($name.trim_start_matches("r#"), &array::Debug($value, ::core::option::Option::Some(::core::primitive::i128::from($count))));
    };
    (@field $d:ident, $name:expr, $value:expr, pad) => {};
    (@is_padding) => { false };
    (@is_padding text) => { false };
    (@is_padding array) => { false };
    (@is_padding count) => { false };
    (@is_padding pad) => { true };
}
