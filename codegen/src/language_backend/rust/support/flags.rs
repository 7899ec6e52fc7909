/// Bit operations, iteration and `Debug` for a flag-set newtype.
macro_rules! abi_flags {
    ($ty:ident : $repr:ty { $($name:ident = $text:literal),* $(,)? }) => {
        impl $ty {
            /// Every flag the schema declares with its schema name, in declaration order.
            pub const fn named() -> &'static [($ty, &'static str)] {
                &[$(($ty::$name, $text)),*]
            }

            /// No bit set.
            pub const fn empty() -> Self {
                $ty(0)
            }

            /// Every declared bit set.
            pub const fn all() -> Self {
                $ty(0 $(| $ty::$name.0)*)
            }

            /// The raw bits.
            pub const fn bits(self) -> $repr {
                self.0
            }

            /// Whether no bit is set.
            pub const fn is_empty(self) -> bool {
                self.0 == 0
            }

            /// Whether every bit of `other` is set in `self`.
            pub const fn contains(self, other: Self) -> bool {
                self.0 & other.0 == other.0
            }

            /// Whether any bit of `other` is set in `self`.
            pub const fn intersects(self, other: Self) -> bool {
                self.0 & other.0 != 0
            }

            /// Sets the bits of `other`.
            pub fn insert(&mut self, other: Self) {
                self.0 |= other.0;
            }

            /// Clears the bits of `other`.
            pub fn remove(&mut self, other: Self) {
                self.0 &= !other.0;
            }

            /// The bits the schema does not declare.
            pub const fn unknown_bits(self) -> $repr {
                self.0 & !Self::all().0
            }

            /// Each set bit on its own, lowest first, declared or not.
            pub fn iter(self) -> impl ::core::iter::Iterator<Item = Self> {
                let bits = self.0;
                (0..<$repr>::BITS)
                    .map(|i| (1 as $repr) << i)
                    .filter(move |b| bits & b != 0)
                    .map($ty)
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

        impl ::core::ops::BitOr for $ty {
            type Output = Self;
            fn bitor(self, rhs: Self) -> Self {
                $ty(self.0 | rhs.0)
            }
        }

        impl ::core::ops::BitAnd for $ty {
            type Output = Self;
            fn bitand(self, rhs: Self) -> Self {
                $ty(self.0 & rhs.0)
            }
        }

        impl ::core::ops::BitXor for $ty {
            type Output = Self;
            fn bitxor(self, rhs: Self) -> Self {
                $ty(self.0 ^ rhs.0)
            }
        }

        /// Flips every bit of the representation, declared or not, so that
        /// `flags & !X` keeps the bits the schema does not know.
        impl ::core::ops::Not for $ty {
            type Output = Self;
            fn not(self) -> Self {
                $ty(!self.0)
            }
        }

        impl ::core::ops::BitOrAssign for $ty {
            fn bitor_assign(&mut self, rhs: Self) {
                self.0 |= rhs.0;
            }
        }

        impl ::core::ops::BitAndAssign for $ty {
            fn bitand_assign(&mut self, rhs: Self) {
                self.0 &= rhs.0;
            }
        }

        impl ::core::ops::BitXorAssign for $ty {
            fn bitxor_assign(&mut self, rhs: Self) {
                self.0 ^= rhs.0;
            }
        }

        /// The set bits by name, undeclared ones in hex: `Flags(A | B | 0x100)`.
        impl ::core::fmt::Debug for $ty {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(concat!(stringify!($ty), "("))?;
                let mut first = true;
                let mut sep = |f: &mut ::core::fmt::Formatter<'_>| {
                    let s = if first { "" } else { " | " };
                    first = false;
                    f.write_str(s)
                };
                $(if self.contains($ty::$name) && $ty::$name.0 != 0 {
                    sep(f)?;
                    f.write_str(stringify!($name))?;
                })*
                let unknown = self.unknown_bits();
                if unknown != 0 || self.0 == 0 {
                    sep(f)?;
                    write!(f, "{:#x}", unknown)?;
                }
                f.write_str(")")
            }
        }
    };
}
