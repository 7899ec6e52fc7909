/// Names, conversions and `Debug` for an enum newtype. Its helpers are lowercase
/// functions, so they can never collide with a value (always `UPPER_SNAKE`).
macro_rules! abi_enum {
    ($ty:ident : $repr:ty { $($name:ident = $text:literal),* $(,)? }) => {
        impl $ty {
            /// Every value the schema declares, in declaration order.
            pub const fn values() -> &'static [$ty] {
                &[$($ty::$name),*]
            }

            /// The schema's name of this value, or `None` for a number it does not declare.
            pub fn name(self) -> ::core::option::Option<&'static str> {
                $(if self == $ty::$name { return ::core::option::Option::Some($text); })*
                ::core::option::Option::None
            }

            /// The value with the schema name `name`.
            pub fn from_name(name: &str) -> ::core::option::Option<$ty> {
                $(if name == $text { return ::core::option::Option::Some($ty::$name); })*
                ::core::option::Option::None
            }
        }

        impl ::core::convert::From<$repr> for $ty {
            fn from(value: $repr) -> Self {
                $ty(value)
            }
        }

        impl ::core::convert::From<$ty> for $repr {
            fn from(value: $ty) -> Self {
                value.0
            }
        }

        /// The value's name (`Phase::PLAYING`), or its number for an undeclared one (`Phase(200)`).
        impl ::core::fmt::Debug for $ty {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                $(if *self == $ty::$name { return f.write_str(concat!(stringify!($ty), "::", stringify!($name))); })*
                write!(f, concat!(stringify!($ty), "({})"), self.0)
            }
        }
    };
}
