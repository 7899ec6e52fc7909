/// Access to `char[N]` fields: NUL-terminated text in a fixed byte array.
pub mod text {
    /// The text of a `char[N]` field: the bytes up to the first NUL (all of them
    /// when there is none).
    ///
    /// # Errors
    ///
    /// The UTF-8 error when those bytes are not UTF-8.
    pub fn to_str(bytes: &[u8]) -> ::core::result::Result<&str, ::core::str::Utf8Error> {
        let end = bytes.iter().position(|b| *b == 0).unwrap_or(bytes.len());
        ::core::str::from_utf8(&bytes[..end])
    }

    /// Writes `text` into a `char[N]` field: cut at a character boundary so that
    /// a terminating NUL always fits, the rest zeroed.
    pub fn set(bytes: &mut [u8], text: &str) {
        let mut n = text.len().min(bytes.len().saturating_sub(1));
        while !text.is_char_boundary(n) {
            n -= 1;
        }
        bytes[..n].copy_from_slice(&text.as_bytes()[..n]);
        bytes[n..].fill(0);
    }

    /// Shows a `char[N]` field as a string in `Debug` output.
    pub struct Debug<'a>(pub &'a [u8]);

    impl ::core::fmt::Debug for Debug<'_> {
        fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
            let end = self.0.iter().position(|b| *b == 0).unwrap_or(self.0.len());
            ::core::fmt::Debug::fmt(&::std::string::String::from_utf8_lossy(&self.0[..end]), f)
        }
    }
}
