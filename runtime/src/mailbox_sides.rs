//! `mailbox_sides!`: a generated mailbox's client and server types and its answer, one line
//! each, over [`mailbox::Mailbox`](crate::mailbox::Mailbox).

/// Expands to a generated mailbox's three types, inside the generated bindings' `live`
/// module: the answer (`seq`, `status`, `text`, `cut`, `total`), the client (`new`,
/// `request`, `poll_response`, `wait_response`) and the server (`new`, `with_geometry`,
/// `serve`, `serve_or_malformed`). The generator prints the client's `SPEC` (where the
/// header's fields are) in an `impl` block of its own. `STATUS` is `u32`, or an enum newtype
/// over its integer: `STATUS as REPR`.
///
/// ```
/// use abi_runtime::attach::Field;
/// use abi_runtime::mailbox::MailboxSpec;
/// use abi_runtime::{Region, SharedBuf};
///
/// #[derive(Debug, Clone, Copy, PartialEq, Eq)]
/// pub struct Status(pub u8);
/// abi_runtime::mailbox_sides! {
///     /// An answer.
///     response Answer: status Status as u8;
///     /// The client.
///     client Client;
///     /// The server.
///     server Server;
/// }
/// impl Client<'_> {
///     pub const SPEC: MailboxSpec = MailboxSpec {
///         request_seq: 0, request_len: 4, response_seq: 8, status: 12, response_len: 16,
///         response_total: 20, request_capacity: Field::new(24, 4),
///         response_capacity: Field::new(28, 4), area: 64,
///     };
/// }
/// let buf = SharedBuf::new(64 + 32 + 32);
/// buf.region().write::<[u32; 2]>(24, &[32, 32]).unwrap();
/// let mut client = Client::new(buf.region()).unwrap();
/// let server = Server::new(buf.region()).unwrap();
/// let seq = client.request(b"ping").unwrap();
/// assert_eq!(server.serve(|text| (Status(7), [text, b"!"].concat())).unwrap(), Some(seq));
/// let answer = client.poll_response().unwrap().unwrap();
/// assert_eq!((answer.status, &answer.text[..], answer.cut), (Status(7), &b"ping!"[..], false));
/// ```
#[macro_export]
macro_rules! mailbox_sides {
    (
        $(#[$rm:meta])* response $response:ident: status $status:path $(as $repr:ident)?;
        $(#[$cm:meta])* client $client:ident;
        $(#[$sm:meta])* server $server:ident;
    ) => {
        $(#[$rm])*
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub struct $response {
            /// The request it answers.
            pub seq: u32,
            /// The server's status.
            pub status: $status,
            /// The answer's text, as much as the response area held.
            pub text: ::std::vec::Vec<u8>,
            /// The answer was cut to the response area.
            pub cut: bool,
            /// The whole answer's bytes.
            pub total: u64,
        }

        $(#[$cm])*
        #[derive(Debug, Clone, Copy)]
        pub struct $client<'a> {
            mailbox: $crate::mailbox::Mailbox<'a, $crate::ReadWrite>,
            pending: ::core::option::Option<u32>,
        }

        $(#[$sm])*
        #[derive(Debug, Clone, Copy)]
        pub struct $server<'a> {
            mailbox: $crate::mailbox::Mailbox<'a, $crate::ReadWrite>,
        }

        impl<'a> $client<'a> {
            /// The client of the mailbox whose header starts `region` (the header and both
            /// areas): its capacities are read and checked now.
            pub fn new(
                region: $crate::Region<'a>,
            ) -> ::core::result::Result<Self, $crate::mailbox::MailboxError> {
                ::core::result::Result::Ok(Self {
                    mailbox: $crate::mailbox::Mailbox::new(region, Self::SPEC)?,
                    pending: ::core::option::Option::None,
                })
            }

            /// Sends `text` (at most the request capacity - 1 bytes) and returns its number.
            /// `Busy` while the last request has no answer.
            pub fn request(
                &mut self,
                text: &[u8],
            ) -> ::core::result::Result<u32, $crate::mailbox::MailboxError> {
                let seq = self.mailbox.request(text)?;
                self.pending = ::core::option::Option::Some(seq);
                ::core::result::Result::Ok(seq)
            }

            /// The answer to the last request, once (`None` while it has none, or when no
            /// request waits). Its length is checked against the response capacity.
            pub fn poll_response(
                &mut self,
            ) -> ::core::result::Result<::core::option::Option<$response>, $crate::mailbox::MailboxError>
            {
                let ::core::option::Option::Some(seq) = self.pending else {
                    return ::core::result::Result::Ok(::core::option::Option::None);
                };
                let ::core::option::Option::Some(r) = self.mailbox.poll_response(seq)? else {
                    return ::core::result::Result::Ok(::core::option::Option::None);
                };
                self.pending = ::core::option::Option::None;
                let status = $crate::mailbox_sides!(@from r.status, $status $(, $repr)?);
                ::core::result::Result::Ok(::core::option::Option::Some($response {
                    seq: r.seq,
                    status,
                    cut: r.cut(),
                    total: r.total,
                    text: r.text,
                }))
            }

            /// [`Self::poll_response`] until the answer comes or `timeout` passes (`None`):
            /// it spins briefly, then sleeps 50 µs between polls.
            pub fn wait_response(
                &mut self,
                timeout: ::std::time::Duration,
            ) -> ::core::result::Result<::core::option::Option<$response>, $crate::mailbox::MailboxError>
            {
                let start = ::std::time::Instant::now();
                let mut polls = 0u32;
                loop {
                    if let ::core::option::Option::Some(r) = self.poll_response()? {
                        return ::core::result::Result::Ok(::core::option::Option::Some(r));
                    }
                    if self.pending.is_none() || start.elapsed() >= timeout {
                        return ::core::result::Result::Ok(::core::option::Option::None);
                    }
                    polls += 1;
                    if polls < 64 {
                        ::core::hint::spin_loop();
                    } else {
                        ::std::thread::sleep(::std::time::Duration::from_micros(50));
                    }
                }
            }
        }

        impl<'a> $server<'a> {
            /// The server of the mailbox whose header starts `region`: its capacities are read
            /// and checked now.
            pub fn new(
                region: $crate::Region<'a>,
            ) -> ::core::result::Result<Self, $crate::mailbox::MailboxError> {
                Self::with_geometry(region, $crate::laid_out::GeometryFrom::Mapping)
            }

            /// [`Self::new`] with the capacities read from `from`: the host's own handle
            /// gives the header as it laid it out, never the bytes a client can write.
            pub fn with_geometry(
                region: $crate::Region<'a>,
                from: $crate::laid_out::GeometryFrom<'_>,
            ) -> ::core::result::Result<Self, $crate::mailbox::MailboxError> {
                ::core::result::Result::Ok(Self {
                    mailbox: $crate::mailbox::Mailbox::with_geometry(region, $client::SPEC, from)?,
                })
            }

            /// When a request waits, copies it (its length checked), answers it with
            /// `answer(text)` (a status and the whole answer, cut to the response area) and
            /// returns its number; `None` when none waits.
            pub fn serve(
                &self,
                answer: impl FnOnce(&[u8]) -> ($status, ::std::vec::Vec<u8>),
            ) -> ::core::result::Result<::core::option::Option<u32>, $crate::mailbox::MailboxError> {
                self.mailbox.serve(|text| {
                    let (status, whole) = answer(text);
                    ($crate::mailbox_sides!(@to status, $status $(, $repr)?), whole)
                })
            }

            /// [`Self::serve`] that answers a malformed request too (its length past its
            /// area): `answer(None)` gives its raw status and text. The number answered and
            /// whether it was malformed (the host's service turn, `abi_runtime::service`).
            pub fn serve_or_malformed(
                &self,
                answer: impl FnOnce(::core::option::Option<&[u8]>) -> (u32, ::std::vec::Vec<u8>),
            ) -> ::core::result::Result<::core::option::Option<(u32, bool)>, $crate::mailbox::MailboxError>
            {
                self.mailbox.serve_or_malformed(answer)
            }
        }
    };
    // The status word as the schema's type, and back.
    (@from $v:expr, $status:path) => { $v };
    (@from $v:expr, $status:path, u32) => { $status($v) };
    (@from $v:expr, $status:path, $repr:ident) => { $status($v as $repr) };
    (@to $v:expr, $status:path) => { $v };
    (@to $v:expr, $status:path, u32) => { $v.0 };
    (@to $v:expr, $status:path, $repr:ident) => { u32::from($v.0) };
}
