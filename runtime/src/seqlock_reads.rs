//! `seqlock_reads!` and `zeroed_value!`: a generated seqlock's three reads and the zero of
//! the value it reads into, one line each.

/// Expands to a generated seqlock's reads, inside the `impl<A: Access>` block of the live view
/// that holds its counter (`region: Region<'_, A>`). Each line is
/// `#[doc = ...]* READ, COUNTED, INTO, COPY: VALUE = ZERO, WORD @ COUNTER, TRIES;`:
///
/// - `READ()`, documented by the line's docs: the value, copied with relaxed atomic loads and
///   kept only if the counter was even and unchanged, retrying up to `TRIES` times;
/// - `COUNTED(max_tries)`: the same with at most `max_tries` tries, and the retries;
/// - `INTO(out, max_tries)`: the same into a value the caller keeps.
///
/// `COPY(&self, out)` is the generator's: one copy of the guarded bytes, torn or not. `ZERO`
/// makes a new value, `WORD` is the counter's integer type and `COUNTER` its offset.
#[macro_export]
macro_rules! seqlock_reads {
    ($($(#[$m:meta])* $read:ident, $counted:ident, $into:ident, $copy:ident: $value:ty = $zero:expr, $word:ident @ $counter:literal, $tries:expr;)*) => {$(
        $(#[$m])*
        pub fn $read(&self) -> ::core::result::Result<$value, $crate::SeqLockError> {
            self.$counted($tries).map(|(value, _)| value)
        }

        #[doc = concat!(" [`Self::", stringify!($read), "`] with at most `max_tries` tries, also returning how many retries the copy took (0: the first copy held).")]
        pub fn $counted(
            &self,
            max_tries: u32,
        ) -> ::core::result::Result<($value, u32), $crate::SeqLockError> {
            let mut out = $zero;
            let retries = self.$into(&mut out, max_tries)?;
            ::core::result::Result::Ok((out, retries))
        }

        #[doc = concat!(" [`Self::", stringify!($read), "_counted`] into a value the caller keeps (no new value, no move of it): returns the retries. Every guarded byte of `out` is overwritten.")]
        pub fn $into(
            &self,
            out: &mut $value,
            max_tries: u32,
        ) -> ::core::result::Result<u32, $crate::SeqLockError> {
            let lock = $crate::SeqLock::<$word, A>::new(self.region, $counter);
            let ((), retries) = lock.read_counted(max_tries, || self.$copy(out))?;
            ::core::result::Result::Ok(retries)
        }
    )*};
}

/// Expands to `zeroed()` and `Default` for a generated value that is not all one zerocopy
/// type (a seqlock's value with parts): `zeroed_value!(NAME { FIELD: ZERO, ... });`.
#[macro_export]
macro_rules! zeroed_value {
    ($ty:ident { $($field:ident: $zero:expr),* $(,)? }) => {
        impl $ty {
            /// All zero.
            pub fn zeroed() -> Self {
                Self { $($field: $zero,)* }
            }
        }

        impl ::core::default::Default for $ty {
            fn default() -> Self {
                Self::zeroed()
            }
        }
    };
}
