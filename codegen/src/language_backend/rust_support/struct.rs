/// `Default` (all zero) and compile-time asserts of a struct's size, alignment and
/// every field's offset, against the numbers of the layout engine.
macro_rules! abi_struct {
    ($ty:ident : size $size:literal, align $align:literal { $($field:ident : $offset:literal),* $(,)? }) => {
        impl ::core::default::Default for $ty {
            fn default() -> Self {
                <$ty as ::zerocopy::FromZeros>::new_zeroed()
            }
        }

        const _: () = {
            assert!(::core::mem::size_of::<$ty>() == $size);
            assert!(::core::mem::align_of::<$ty>() == $align);
            $(assert!(::core::mem::offset_of!($ty, $field) == $offset);)*
        };
    };
}
